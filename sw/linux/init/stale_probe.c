// SPDX-License-Identifier: GPL-2.0
/*
 * Workload 5, the user-space stale-TLB probe. Writer threads, one on every
 * CPU but the main thread's, keep storing into every page of a region
 * while the main thread unmaps it. After munmap() returns, the kernel has
 * shot the region's translations down on every CPU that runs this address
 * space and may reuse its pages at once, so:
 *  - a writer that has seen the main thread's "unmapped" flag must not
 *    complete another store into the region (a store through a stale
 *    translation), and
 *  - the region the main thread maps right after, which the kernel fills
 *    from the pages just freed, must never receive a writer's store.
 * Writers store through try_store(), whose page fault is skipped, so a
 * store after the unmap is either a fault or a failure of the shootdown.
 * A page that faulted once has no translation left on that writer's hart,
 * so the writer skips it for the rest of the round (each fault costs a
 * signal, which is slow on the RTL).
 */
#include "init.h"

#define ROUNDS		24
#define QUICK_ROUNDS	8
#define PAGES		16
#define PAGE		4096UL
#define MARK		0x5a7e000000000000UL	/* what writers store: MARK | writer << 32 | pass */
#define MARK_MASK	0xffff000000000000UL
#define MIN_PASSES	2			/* writer passes over a region before it is unmapped */

static struct {
	volatile unsigned long *region;
	volatile int round, unmapped, stop;
	volatile int seen[MAX_CPUS];		/* the round whose "unmapped" a writer has seen */
	volatile unsigned long passes[MAX_CPUS];
	volatile unsigned long stores[MAX_CPUS], faults[MAX_CPUS], late[MAX_CPUS];
} probe;

static int writer(void *arg)
{
	int me = (int)(long)arg;
	int round = 0;

	for (;;) {
		if (probe.round == round)
			continue;
		round = probe.round;
		__asm__ volatile("fence r, r" ::: "memory");	/* the round's region and stop after the round */
		if (probe.stop)
			break;
		volatile unsigned long *r = probe.region;
		unsigned long pass = 0, faulted = 0;	/* pages that faulted this round */
		while (probe.round == round && probe.seen[me] != round) {
			int unmapped = probe.unmapped == round;
			__asm__ volatile("fence r, w" ::: "memory");
			for (int p = 0; p < PAGES; p++) {
				if (faulted & 1UL << p)
					continue;
				if (try_store(&r[p * PAGE / 8 + me], MARK | (unsigned long)me << 32 | pass)) {
					probe.faults[me]++;
					faulted |= 1UL << p;
				} else {
					probe.stores[me]++;
					probe.late[me] += unmapped;
				}
			}
			probe.passes[me] = ++pass;
			if (unmapped)
				probe.seen[me] = round;
		}
	}
	return 0;
}

/* Words of the fresh region that a writer stored. */
static int foreign_words(volatile unsigned long *r)
{
	int n = 0;
	for (unsigned long i = 0; i < PAGES * PAGE / 8; i++)
		n += (r[i] & MARK_MASK) == MARK;
	return n;
}

int stale_probe(void)
{
	int cpus = workload_cpus("stale-probe"), foreign = 0, rounds = quick ? QUICK_ROUNDS : ROUNDS;
	unsigned long stores = 0, faults = 0, late = 0;

	if (!cpus)
		return 1;
	pin_to(0);
	for (int c = 1; c < cpus; c++)
		if (spawn_on(c, writer, (void *)(long)c) < 0) {
			say("stale-probe: FAIL: cannot start a writer\n");
			return 1;
		}
	for (int n = 1; n <= rounds; n++) {
		volatile unsigned long *r = mmap(0, PAGES * PAGE, PROT_READ | PROT_WRITE,
						 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		for (int p = 0; p < PAGES; p++)
			r[p * PAGE / 8] = 0;
		probe.region = r;
		__asm__ volatile("fence w, w" ::: "memory");
		probe.round = n;
		for (int c = 1; c < cpus; c++)
			while (probe.passes[c] < MIN_PASSES || probe.round != n)
				;
		munmap((void *)r, PAGES * PAGE);
		probe.unmapped = n;
		/* Keep the address range unusable, so that the fresh region
		 * lands elsewhere: a writer's store to the old range must
		 * fault, not reach a new mapping there. */
		void *hole = mmap((void *)r, PAGES * PAGE, PROT_NONE,
				  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
		volatile unsigned long *fresh = mmap(0, PAGES * PAGE, PROT_READ | PROT_WRITE,
						     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (hole != (void *)r || fresh == MAP_FAILED) {
			say("stale-probe: FAIL: cannot map the placeholder and the fresh region\n");
			return 1;
		}
		for (int p = 0; p < PAGES; p++)
			fresh[p * PAGE / 8 + 1] = 0;	/* fault every page in: the freed pages come back */
		for (int c = 1; c < cpus; c++)
			while (probe.seen[c] != n)
				;
		foreign += foreign_words(fresh);
		munmap((void *)fresh, PAGES * PAGE);
		munmap(hole, PAGES * PAGE);
		for (int c = 1; c < cpus; c++)
			probe.passes[c] = 0;
	}
	probe.stop = 1;
	__asm__ volatile("fence w, w" ::: "memory");
	probe.round = -1;
	if (wait_threads())
		say("stale-probe: a writer failed\n");
	for (int c = 1; c < cpus; c++) {
		stores += probe.stores[c];
		faults += probe.faults[c];
		late += probe.late[c];
	}
	printf("stale-probe: %d rounds, %d writers: %lu stores, %lu faults after unmap, "
	       "%lu stores after seeing it, %d writer words in reused pages\n",
	       rounds, cpus - 1, stores, faults, late, foreign);
	if (late || foreign) {
		say("stale-probe: FAIL: a writer stored through a stale translation\n");
		return 1;
	}
	if (!faults) {
		say("stale-probe: FAIL: no writer ever faulted: the unmap was never seen\n");
		return 1;
	}
	return 0;
}
