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
 *
 * Run a second time over 64 KiB anonymous folios (mTHP, seeds 000 and 003),
 * every call then covering whole folios: reclaim unmaps a folio's sixteen
 * pages in one go and the port flushes them as one range entry.
 */
#include <linux/uio.h>

#include "init.h"

/* Small enough for the RTL SoC (about 250 kHz): every MADV_PAGEOUT round
 * compresses PAGES / 2 pages into zram and the touchers fault them back. */
#define PAGES		64
#define PAGE		4096UL
#define WORDS		(PAGE / 8)
#define SLOT		8		/* thread t's counter: word SLOT + t of each page */
#define CHUNK		4		/* pages per madvise() call, small pages */
#define FOLIO_PAGES	16		/* a 64 KiB mTHP folio; its calls cover one */
#define PAGEOUT_ROUNDS	2
#define MTHP		"/sys/kernel/mm/transparent_hugepage/hugepages-64kB"

static struct {
	volatile unsigned long *region;
	int chunk;			/* pages per madvise() call */
	volatile int pause, stop;
	volatile int paused[MAX_CPUS];
	unsigned long counts[MAX_CPUS][PAGES];
	unsigned char zeroed[PAGES];
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

/* Pages whose pattern or counters are wrong; mw.zeroed marks pages that
 * MADV_DONTNEED emptied (they must read zero until touched again). */
static int bad_pages(int cpus, const char *phase)
{
	int bad = 0;
	for (int p = 0; p < PAGES; p++) {
		int ok = 1;
		for (int w = 0; w < SLOT; w++)
			ok &= mw.region[p * WORDS + w] == (mw.zeroed[p] ? 0 : pattern(p, w));
		for (int c = 1; c < cpus; c++)
			ok &= mw.region[p * WORDS + SLOT + c] == (mw.zeroed[p] ? 0 : mw.counts[c][p]);
		if (!ok && bad++ < 3)
			printf("madvise: page %d wrong after %s\n", p, phase);
	}
	return bad;
}

/* Page p now reads zero (MADV_DONTNEED, or MADV_FREE that dropped it). */
static void mark_zeroed(int p, int cpus)
{
	mw.zeroed[p] = 1;
	for (int c = 1; c < cpus; c++)
		mw.counts[c][p] = 0;
}

/* MADV_PAGEOUT on every other chunk of pages, one call each or all in one
 * process_madvise() call. */
static long pageout(int use_process_madvise, int round)
{
	struct iovec iov[PAGES / CHUNK];
	int n = 0;
	for (int p = (round & 1) * mw.chunk; p < PAGES; p += 2 * mw.chunk) {
		iov[n].iov_base = (void *)&mw.region[p * WORDS];
		iov[n].iov_len = mw.chunk * PAGE;
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
	return r == (long)(n * mw.chunk * PAGE) ? 0 : -1;
}

/* A phase's name, "thp-" first in the run over 64 KiB folios. */
static const char *phase_name(int thp, const char *name)
{
	static char buf[4][40];
	static int next;
	char *s = buf[next++ & 3];

	strcpy(s, thp ? "thp-" : "");
	strcpy(s + strlen(s), name);
	return s;
}

/* 64 KiB folios for every anonymous fault; 0 or -1. map_region() also
 * marks the region MADV_HUGEPAGE, which is all "madvise" would need. */
static int enable_mthp(void)
{
	return write_text(MTHP "/enabled", "always");
}

/* PAGES pages, aligned to a folio for thp; mw.region, or 0. The mapping
 * to unmap at the end is [*base, *base + *len). */
static volatile unsigned long *map_region(int thp, void **base, unsigned long *len)
{
	unsigned long align = thp ? FOLIO_PAGES * PAGE : PAGE;
	char *m;

	*len = PAGES * PAGE + align - PAGE;
	m = mmap(0, *len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return 0;
	*base = m;
	m = (char *)(((unsigned long)m + align - 1) & ~(align - 1));
	if (thp)
		madv(m, PAGES * PAGE, MADV_HUGEPAGE);
	return (volatile unsigned long *)m;
}

int madvise_workload(int thp)
{
	const char *who = thp ? "madvise (64 KiB folios)" : "madvise";
	int cpus = online_cpus(), bad = 0;
	unsigned long swapped, refaults, folios = 0, len;
	struct phase ph;
	char buf[32];
	void *base;

	memset(&mw, 0, sizeof(mw));
	mw.chunk = thp ? FOLIO_PAGES : CHUNK;
	if (thp && enable_mthp()) {
		printf("%s: FAIL: cannot enable 64 KiB folios (%s)\n", who, MTHP);
		return 1;
	}
	folios = strtoul(read_text(MTHP "/stats/anon_fault_alloc", buf, sizeof(buf)), NULL, 10);
	mw.region = map_region(thp, &base, &len);
	if (!mw.region) {
		printf("%s: FAIL: no memory\n", who);
		return 1;
	}
	for (int p = 0; p < PAGES; p++)
		for (int w = 0; w < SLOT; w++)
			mw.region[p * WORDS + w] = pattern(p, w);
	folios = strtoul(read_text(MTHP "/stats/anon_fault_alloc", buf, sizeof(buf)), NULL, 10) - folios;
	if (thp && folios == 0) {
		printf("%s: FAIL: no fault got a 64 KiB folio\n", who);
		return 1;
	}
	pin_to(0);
	for (int c = 1; c < cpus; c++)
		if (spawn_on(c, toucher, (void *)(long)c) < 0) {
			printf("%s: FAIL: cannot start a toucher\n", who);
			return 1;
		}

	swapped = stat_value("/proc/vmstat", "pswpout");
	refaults = stat_value("/proc/vmstat", "pgfault");
	for (int pm = 0; pm < 2; pm++) {
		phase_begin(&ph, phase_name(thp, pm ? "process_madvise-pageout" : "madvise-pageout"));
		for (int round = 0; round < PAGEOUT_ROUNDS; round++)
			if (pageout(pm, round)) {
				printf("%s: FAIL: %s failed\n", who, ph.name);
				return 1;
			}
		pause_touchers(cpus);
		phase_end(&ph);
		bad += bad_pages(cpus, ph.name);
		resume_touchers();
	}
	swapped = stat_value("/proc/vmstat", "pswpout") - swapped;
	refaults = stat_value("/proc/vmstat", "pgfault") - refaults;

	/* DONTNEED and FREE with the touchers paused: the pages' contents
	 * then have a defined value to check. */
	pause_touchers(cpus);
	phase_begin(&ph, phase_name(thp, "madvise-dontneed"));
	for (int p = 0; p < PAGES; p += 2 * mw.chunk) {
		madv((void *)&mw.region[p * WORDS], mw.chunk * PAGE, MADV_DONTNEED);
		for (int i = p; i < p + mw.chunk; i++)
			mark_zeroed(i, cpus);
	}
	phase_end(&ph);
	bad += bad_pages(cpus, ph.name);
	phase_begin(&ph, phase_name(thp, "madvise-free"));
	for (int p = mw.chunk; p < PAGES; p += 2 * mw.chunk)
		madv((void *)&mw.region[p * WORDS], mw.chunk * PAGE, MADV_FREE);
	phase_end(&ph);
	/* MADV_FREE pages may be dropped (then they read zero) or kept. */
	for (int p = mw.chunk; p < PAGES; p += 2 * mw.chunk)
		for (int i = p; i < p + mw.chunk; i++)
			if (mw.region[i * WORDS] == 0)
				mark_zeroed(i, cpus);
	bad += bad_pages(cpus, ph.name);

	/* munmap of the whole range while the touchers are running again
	 * would fault them: stop them first, then unmap. */
	mw.stop = 1;
	if (wait_threads())
		printf("%s: a toucher failed\n", who);
	phase_begin(&ph, phase_name(thp, "munmap"));
	munmap(base, len);
	phase_end(&ph);
	if (thp)
		write_text(MTHP "/enabled", "never");	/* the default again */

	/* A toucher that faults on a page MADV_PAGEOUT has just unmapped holds
	 * it until the fault ends, so reclaim keeps most pages in the swap
	 * cache instead of writing them: the unmaps (and their flushes) are
	 * what this workload is about, and the touchers' faults count them
	 * (a folio found in the swap cache is mapped whole by one fault). */
	printf("%s: %d pages, %lu 64 KiB folios, %d touchers, %lu faults while paging out, "
	       "%lu pages to swap, %d wrong pages\n",
	       who, PAGES, folios, cpus - 1, refaults, swapped, bad);
	if (bad) {
		printf("%s: FAIL: data was lost\n", who);
		return 1;
	}
	/* On average every chunk paged out (half the chunks a round, both
	 * modes) faulted at least once: a 64 KiB folio comes back whole from
	 * the swap cache in one fault. */
	if (refaults < (unsigned long)(PAGEOUT_ROUNDS * PAGES / mw.chunk)) {
		printf("%s: FAIL: the touchers hardly faulted: MADV_PAGEOUT unmapped nothing\n", who);
		return 1;
	}
	return 0;
}
