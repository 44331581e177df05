// SPDX-License-Identifier: GPL-2.0
/*
 * Workload 2 (seed 002): MADV_PAGEOUT over many small regions, from the
 * process itself and through process_madvise(), while toucher threads on
 * every other CPU keep incrementing their own counter in every page; then
 * MADV_DONTNEED and MADV_FREE over small regions, and munmap of a large
 * range. Nothing may be lost: after each phase every page holds its
 * pattern and every counter the number of increments its thread made
 * there. An increment made through a stale translation to a page already
 * swapped out would be lost, and so would one made between the write to
 * swap and a late flush (the dirty rule of the deferred flush).
 */
#include <linux/uio.h>

#include "init.h"

/* Small enough for the RTL SoC (about 250 kHz): every MADV_PAGEOUT round
 * compresses PAGES / 2 pages into zram and the touchers fault them back. */
#define PAGES		64
#define PAGE		4096UL
#define WORDS		(PAGE / 8)
#define SLOT		8		/* thread t's counter: word SLOT + t of each page */
#define CHUNK		4		/* pages per madvise() call */
#define PAGEOUT_ROUNDS	2

static struct {
	volatile unsigned long *region;
	volatile int pause, stop;
	volatile int paused[MAX_CPUS];
	unsigned long counts[MAX_CPUS][PAGES];
} mw;

static unsigned long pattern(int p, int w)
{
	return 0x3ad0000000000000UL | (unsigned long)p << 16 | w;
}

static int toucher(void *arg)
{
	int me = (int)(long)arg;

	while (!mw.stop) {
		if (mw.pause) {
			mw.paused[me] = 1;
			while (mw.pause && !mw.stop)
				;
			mw.paused[me] = 0;
			continue;
		}
		for (int p = 0; p < PAGES && !mw.pause; p++) {
			mw.region[p * WORDS + SLOT + me]++;
			mw.counts[me][p]++;
		}
	}
	return 0;
}

static void pause_touchers(int cpus)
{
	mw.pause = 1;
	for (int c = 1; c < cpus; c++)
		while (!mw.paused[c])
			;
}

static void resume_touchers(void)
{
	mw.pause = 0;
}

/* Pages whose pattern or counters are wrong; `zeroed` marks pages that
 * MADV_DONTNEED emptied (they must read zero until touched again). */
static int bad_pages(int cpus, const unsigned char *zeroed, const char *phase)
{
	int bad = 0;
	for (int p = 0; p < PAGES; p++) {
		int ok = 1;
		for (int w = 0; w < SLOT; w++)
			ok &= mw.region[p * WORDS + w] == (zeroed[p] ? 0 : pattern(p, w));
		for (int c = 1; c < cpus; c++)
			ok &= mw.region[p * WORDS + SLOT + c] == (zeroed[p] ? 0 : mw.counts[c][p]);
		if (!ok && bad++ < 3)
			printf("madvise: page %d wrong after %s\n", p, phase);
	}
	return bad;
}

/* Page p now reads zero (MADV_DONTNEED, or MADV_FREE that dropped it). */
static void mark_zeroed(unsigned char *zeroed, int p, int cpus)
{
	zeroed[p] = 1;
	for (int c = 1; c < cpus; c++)
		mw.counts[c][p] = 0;
}

static long madv(void *addr, unsigned long len, int advice)
{
	return my_syscall3(__NR_madvise, addr, len, advice);
}

/* MADV_PAGEOUT on every other CHUNK of pages, one call each or all in one
 * process_madvise() call. */
static long pageout(int use_process_madvise, int round)
{
	struct iovec iov[PAGES / CHUNK];
	int n = 0;
	for (int p = (round & 1) * CHUNK; p < PAGES; p += 2 * CHUNK) {
		iov[n].iov_base = (void *)&mw.region[p * WORDS];
		iov[n].iov_len = CHUNK * PAGE;
		n++;
	}
	if (!use_process_madvise) {
		for (int i = 0; i < n; i++)
			if (madv(iov[i].iov_base, iov[i].iov_len, MADV_PAGEOUT))
				return -1;
		return 0;
	}
	/* Not getpid() inside my_syscall2(): a call there clobbers the
	 * registers the macro has already loaded. */
	pid_t self = getpid();
	long pidfd = my_syscall2(__NR_pidfd_open, self, 0);
	if (pidfd < 0)
		return pidfd;
	long r = my_syscall5(__NR_process_madvise, pidfd, iov, n, MADV_PAGEOUT, 0);
	close(pidfd);
	return r == (long)(n * CHUNK * PAGE) ? 0 : -1;
}

int madvise_workload(void)
{
	static unsigned char zeroed[PAGES];
	int cpus = online_cpus(), bad = 0;
	unsigned long swapped, refaults;
	struct phase ph;

	mw.region = mmap(0, PAGES * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mw.region == MAP_FAILED) {
		say("madvise: FAIL: no memory\n");
		return 1;
	}
	for (int p = 0; p < PAGES; p++)
		for (int w = 0; w < SLOT; w++)
			mw.region[p * WORDS + w] = pattern(p, w);
	pin_to(0);
	for (int c = 1; c < cpus; c++)
		if (spawn_on(c, toucher, (void *)(long)c) < 0) {
			say("madvise: FAIL: cannot start a toucher\n");
			return 1;
		}

	swapped = stat_value("/proc/vmstat", "pswpout");
	refaults = stat_value("/proc/vmstat", "pgfault");
	for (int pm = 0; pm < 2; pm++) {
		phase_begin(&ph, pm ? "process_madvise-pageout" : "madvise-pageout");
		for (int round = 0; round < PAGEOUT_ROUNDS; round++)
			if (pageout(pm, round)) {
				printf("madvise: FAIL: %s failed\n", ph.name);
				return 1;
			}
		pause_touchers(cpus);
		phase_end(&ph);
		bad += bad_pages(cpus, zeroed, ph.name);
		resume_touchers();
	}
	swapped = stat_value("/proc/vmstat", "pswpout") - swapped;
	refaults = stat_value("/proc/vmstat", "pgfault") - refaults;

	/* DONTNEED and FREE with the touchers paused: the pages' contents
	 * then have a defined value to check. */
	pause_touchers(cpus);
	phase_begin(&ph, "madvise-dontneed");
	for (int p = 0; p < PAGES; p += 2 * CHUNK) {
		madv((void *)&mw.region[p * WORDS], CHUNK * PAGE, MADV_DONTNEED);
		for (int i = p; i < p + CHUNK; i++)
			mark_zeroed(zeroed, i, cpus);
	}
	phase_end(&ph);
	bad += bad_pages(cpus, zeroed, ph.name);
	phase_begin(&ph, "madvise-free");
	for (int p = CHUNK; p < PAGES; p += 2 * CHUNK)
		madv((void *)&mw.region[p * WORDS], CHUNK * PAGE, MADV_FREE);
	phase_end(&ph);
	/* MADV_FREE pages may be dropped (then they read zero) or kept. */
	for (int p = CHUNK; p < PAGES; p += 2 * CHUNK)
		for (int i = p; i < p + CHUNK; i++)
			if (mw.region[i * WORDS] == 0)
				mark_zeroed(zeroed, i, cpus);
	bad += bad_pages(cpus, zeroed, ph.name);

	/* munmap of the whole range while the touchers are running again
	 * would fault them: stop them first, then unmap. */
	mw.stop = 1;
	if (wait_threads())
		say("madvise: a toucher failed\n");
	phase_begin(&ph, "munmap");
	munmap((void *)mw.region, PAGES * PAGE);
	phase_end(&ph);

	/* A toucher that faults on a page MADV_PAGEOUT has just unmapped holds
	 * it until the fault ends, so reclaim keeps most pages in the swap
	 * cache instead of writing them: the unmaps (and their flushes) are
	 * what this workload is about, and the touchers' faults count them. */
	printf("madvise: %d pages, %d touchers, %lu faults while paging out, %lu pages to swap, %d wrong pages\n",
	       PAGES, cpus - 1, refaults, swapped, bad);
	if (bad) {
		say("madvise: FAIL: data was lost\n");
		return 1;
	}
	if (refaults < PAGES / 2) {
		say("madvise: FAIL: the touchers hardly faulted: MADV_PAGEOUT unmapped nothing\n");
		return 1;
	}
	return 0;
}
