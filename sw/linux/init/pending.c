// SPDX-License-Identifier: GPL-2.0
/*
 * Workload 7, flush_tlb_batched_pending() with pages to flush. The main
 * thread pages out a region of clean pages (swapped out once and read back,
 * so they sit clean in the swap cache): reclaim unmaps them with deferred
 * flushes and, since no page needs writing, flushes its batch only at the
 * end of its folio list, so the pages stay in the mm's pending-page log for
 * a while. Meanwhile a zapper thread on every other CPU keeps reading the
 * clean region (its hart caches those translations, which is why reclaim
 * defers) and empties a few pages of its own with MADV_DONTNEED, which
 * holds mmap_lock for read, as reclaim does, and meets the pending flush:
 * the port's pending path then has pages to send (pending_requests), where
 * the madvise workload's callers find them flushed already.
 *
 * Checked: every read of the clean region sees its page's pattern (a read
 * through a stale translation after reclaim freed the frame would see
 * whatever the frame holds now), and after each MADV_DONTNEED every word of
 * the zapper's pages reads zero.
 */
#include "init.h"

#define CLEAN_PAGES	32
#define ZAP_PAGES	4		/* per zapper */
#define PAGE		4096UL
#define WORDS		(PAGE / 8)
#define ROUNDS		6
#define QUICK_ROUNDS	1

static struct {
	volatile unsigned long *clean, *zap;
	volatile int stop, broken;
	volatile unsigned long zaps[MAX_CPUS], wrong[MAX_CPUS], unzeroed[MAX_CPUS];
} pw;

static unsigned long pattern(int p)
{
	return 0x70656e6400000000UL | p;	/* "pend" | page */
}

static int zapper(void *arg)
{
	int me = (int)(long)arg;
	volatile unsigned long *z = pw.zap + (me - 1) * ZAP_PAGES * WORDS;

	while (!pw.stop) {
		for (int p = 0; p < CLEAN_PAGES; p++)
			pw.wrong[me] += pw.clean[p * WORDS] != pattern(p);
		for (int p = 0; p < ZAP_PAGES; p++)
			z[p * WORDS] = pattern(p) | (unsigned long)me << 16;
		if (madv(z, ZAP_PAGES * PAGE, MADV_DONTNEED)) {
			pw.broken = 1;
			return 1;
		}
		for (int p = 0; p < ZAP_PAGES; p++)
			pw.unzeroed[me] += z[p * WORDS] != 0;
		pw.zaps[me]++;
	}
	return 0;
}

/* Every clean page read back (faulted in from swap, clean); how many held
 * the wrong value. */
static int read_back(void)
{
	int wrong = 0;

	for (int p = 0; p < CLEAN_PAGES; p++)
		wrong += pw.clean[p * WORDS] != pattern(p);
	return wrong;
}

int pending_workload(void)
{
	int cpus = workload_cpus("pending"), rounds = quick ? QUICK_ROUNDS : ROUNDS, wrong = 0;
	unsigned long zaps = 0, unzeroed = 0;
	struct phase ph;

	if (!cpus)
		return 1;
	pin_to(0);
	pw.clean = mmap(0, CLEAN_PAGES * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pw.zap = mmap(0, (cpus - 1) * ZAP_PAGES * PAGE, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pw.clean == MAP_FAILED || pw.zap == MAP_FAILED) {
		say("pending: FAIL: no memory\n");
		return 1;
	}
	for (int p = 0; p < CLEAN_PAGES; p++)
		pw.clean[p * WORDS] = pattern(p);
	/* Out to swap once and read back: clean pages in the swap cache. */
	if (madv(pw.clean, CLEAN_PAGES * PAGE, MADV_PAGEOUT)) {
		say("pending: FAIL: MADV_PAGEOUT failed\n");
		return 1;
	}
	wrong += read_back();

	phase_begin(&ph, "pending");
	for (int c = 1; c < cpus; c++)
		if (spawn_on(c, zapper, (void *)(long)c) < 0) {
			say("pending: FAIL: cannot start a zapper\n");
			return 1;
		}
	for (int n = 0; n < rounds; n++) {
		if (madv(pw.clean, CLEAN_PAGES * PAGE, MADV_PAGEOUT)) {
			say("pending: FAIL: MADV_PAGEOUT failed\n");
			return 1;
		}
		wrong += read_back();
	}
	/* Every zapper through at least one round, however the CPUs were
	 * shared (QEMU's vCPUs are host threads). */
	for (int c = 1; c < cpus; c++)
		while (!pw.zaps[c] && !pw.broken)
			;
	pw.stop = 1;
	int failed = wait_threads();
	phase_end(&ph);
	for (int c = 1; c < cpus; c++) {
		zaps += pw.zaps[c];
		wrong += pw.wrong[c];
		unzeroed += pw.unzeroed[c];
	}
	printf("pending: %d rounds, %d zappers: %lu zaps, %d wrong reads of the clean pages, "
	       "%lu zapped pages not zero\n", rounds, cpus - 1, zaps, wrong, unzeroed);
	munmap((void *)pw.clean, CLEAN_PAGES * PAGE);
	munmap((void *)pw.zap, (cpus - 1) * ZAP_PAGES * PAGE);
	if (failed || wrong || unzeroed) {
		say("pending: FAIL: a page held the wrong data\n");
		return 1;
	}
	if (!zaps) {
		say("pending: FAIL: no zapper ever finished a round\n");
		return 1;
	}
	return 0;
}
