// SPDX-License-Identifier: GPL-2.0
/*
 * Workload 6, a page-table page that moves under a ranged flush. mremap()
 * of a whole 2 MiB-aligned region to a 2 MiB-aligned address moves the
 * region's PTE page as it is (move_normal_pmd(): one non-leaf entry
 * cleared, another set) and flushes the old range, 512 pages, per VA.
 * Reader threads, one on every CPU but the main thread's, keep loading
 * from the region's pages at the old address meanwhile. After mremap()
 * returns, nothing is mapped there, so a reader that has seen the main
 * thread's "moved" flag must fault on every load from the old address: a
 * load that does not fault walked through a cached non-leaf entry (the
 * old level-1 entry, still pointing to the moved PTE page), which only a
 * flush that drops non-leaf entries removes. The new address must read
 * what was written at the old one. Then MADV_DONTNEED frees the pages at
 * the new address, and the readers, still loading from the old one, must
 * keep faulting: the frames are gone.
 *
 * The unit turns a request for more pages than its CEILING into a full
 * flush, which would hide a missing NONLEAF; make test runs this on a
 * firmware whose ceiling is above any request (sw/opensbi/build.sh
 * --ceiling).
 */
#include <linux/mman.h>

#include "init.h"

#define ROUNDS		4
#define QUICK_ROUNDS	1
#define PAGES		16
#define PAGE		4096UL
#define PMD		(2UL << 20)
#define PATTERN		0x6e6f6e6c00000000UL	/* "nonl" | round << 16 | page */
#define MIN_PASSES	2	/* reader passes before the move, and after the flag */

static struct {
	volatile unsigned long *old;
	volatile int round, moved, freed, stop;
	volatile int seen[MAX_CPUS];		/* the last round's "moved"/"freed" a reader saw */
	volatile unsigned long passes[MAX_CPUS];
	volatile unsigned long loads[MAX_CPUS], faults[MAX_CPUS], stale[MAX_CPUS], wrong[MAX_CPUS];
} nl;

static unsigned long pattern(int round, int page)
{
	return PATTERN | (unsigned long)round << 16 | page;
}

static void *mremap_fixed(volatile void *old, unsigned long len, volatile void *new)
{
	return (void *)my_syscall5(__NR_mremap, old, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, new);
}

/* Loads every page of the old region until the round's flag has been seen
 * for MIN_PASSES passes; counts loads that did not fault after the flag. */
static int reader(void *arg)
{
	int me = (int)(long)arg;
	int round = 0;

	for (;;) {
		if (nl.round == round)
			continue;
		round = nl.round;
		__asm__ volatile("fence r, r" ::: "memory");
		if (nl.stop)
			break;
		volatile unsigned long *r = nl.old;
		unsigned long pass = 0, after = 0, v;
		while (after < 2 * MIN_PASSES) {
			/* after counts passes begun with "moved" seen, then with "freed" */
			int moved = nl.moved == round, freed = nl.freed == round;
			__asm__ volatile("fence r, r" ::: "memory");
			for (int p = 0; p < PAGES; p++) {
				if (try_load(&r[p * PAGE / 8], &v)) {
					nl.faults[me]++;
					continue;
				}
				nl.loads[me]++;
				if (moved)
					nl.stale[me]++;
				else if (v != pattern(round, p))
					nl.wrong[me]++;
			}
			nl.passes[me] = ++pass;
			if (freed || (moved && after < MIN_PASSES))
				after++;
			if (moved)
				nl.seen[me] = round;
		}
		nl.seen[me] = -round;	/* done with the round */
	}
	return 0;
}

/* Transparent huge pages are in the kernel (not in a PREEMPT_RT one):
 * without them nothing can fold the region into one huge page, and the
 * MADV_NOHUGEPAGE that keeps it from that is refused, needlessly. */
static int thp_in_kernel(void)
{
	return file_exists("/sys/kernel/mm/transparent_hugepage");
}

/* A 2 MiB-aligned address with 2 MiB free around it: a PROT_NONE
 * reservation of 4 MiB, of which the aligned middle is returned. */
static volatile unsigned long *reserve_pmd(void)
{
	char *r = mmap(0, 2 * PMD, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED)
		return 0;
	char *a = (char *)(((unsigned long)r + PMD - 1) & ~(PMD - 1));
	if (a > r)
		munmap(r, a - r);
	munmap(a + PMD, r + 2 * PMD - (a + PMD));
	return (volatile unsigned long *)a;
}

int nonleaf_workload(void)
{
	int cpus = workload_cpus("nonleaf"), rounds = quick ? QUICK_ROUNDS : ROUNDS, wrong_new = 0;
	unsigned long loads = 0, faults = 0, stale = 0, wrong = 0;
	struct phase ph;

	if (!cpus)
		return 1;
	phase_begin(&ph, "nonleaf-mremap");
	pin_to(0);
	for (int c = 1; c < cpus; c++)
		if (spawn_on(c, reader, (void *)(long)c) < 0) {
			say("nonleaf: FAIL: cannot start a reader\n");
			return 1;
		}
	for (int n = 1; n <= rounds; n++) {
		volatile unsigned long *old = reserve_pmd(), *new = reserve_pmd();
		if (!old || !new ||
		    mmap((void *)old, PMD, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
			 -1, 0) != (void *)old ||
		    (madv(old, PMD, MADV_NOHUGEPAGE) && thp_in_kernel())) {
			say("nonleaf: FAIL: cannot map a 2 MiB-aligned region\n");
			return 1;
		}
		for (int p = 0; p < PAGES; p++)
			old[p * PAGE / 8] = pattern(n, p);
		nl.old = old;
		__asm__ volatile("fence w, w" ::: "memory");
		nl.round = n;
		for (int c = 1; c < cpus; c++)
			while (nl.passes[c] < MIN_PASSES || nl.round != n)
				;
		/* The whole PMD at once, to a PMD with no page table yet:
		 * move_normal_pmd() moves the PTE page. */
		if (mremap_fixed(old, PMD, new) != (void *)new) {
			say("nonleaf: FAIL: mremap failed\n");
			return 1;
		}
		nl.moved = n;
		for (int p = 0; p < PAGES; p++)
			wrong_new += new[p * PAGE / 8] != pattern(n, p);
		for (int c = 1; c < cpus; c++)
			while (nl.seen[c] != n && nl.seen[c] != -n)
				;
		madv(new, PMD, MADV_DONTNEED);
		nl.freed = n;
		for (int c = 1; c < cpus; c++) {
			while (nl.seen[c] != -n)
				;
			nl.passes[c] = 0;
		}
		munmap((void *)new, PMD);
	}
	nl.stop = 1;
	__asm__ volatile("fence w, w" ::: "memory");
	nl.round = -1;
	if (wait_threads())
		say("nonleaf: a reader failed\n");
	phase_end(&ph);
	for (int c = 1; c < cpus; c++) {
		loads += nl.loads[c];
		faults += nl.faults[c];
		stale += nl.stale[c];
		wrong += nl.wrong[c];
	}
	printf("nonleaf: %d rounds, %d readers: %lu loads, %lu faults after the move, "
	       "%lu loads through the moved table, %lu wrong values, %d wrong at the new address\n",
	       rounds, cpus - 1, loads, faults, stale, wrong, wrong_new);
	if (stale || wrong || wrong_new) {
		say("nonleaf: FAIL: a reader walked through a moved page table\n");
		return 1;
	}
	if (!faults) {
		say("nonleaf: FAIL: no reader ever faulted: the move was never seen\n");
		return 1;
	}
	return 0;
}
