/*
 * A kind-ASID shootdown racing an L2 TLB refill (issue 10), shared by
 * programs/l2_refill_race.c (the unit's channel, from S-mode under the M-mode
 * runtime) and programs-sbi/sbi_l2_refill_race.c (the batched SBI extension
 * and SBI RFENCE under OpenSBI).
 *
 * Rocket's L2 TLB is direct-mapped and flushes "every non-global entry"
 * (sfence rs1 = 0, rs2 = 1) as `valid & g`, from the g bits of the cycle
 * before. A refill in the flush's own cycle into a slot that held a global
 * entry therefore stays valid, non-global and stale. The set-up makes such a
 * refill stale and likely:
 *
 *   X   non-global, mapped by level-0 table A (X -> OLD) until the initiator
 *       swaps the level-1 entry above it for table B (X -> NEW), as a kernel
 *       replacing or freeing a page-table page does;
 *   Y   in the same table: loading it puts "level-1 entry -> A" in the
 *       target's PTE cache, so a later walk of X reads A after the swap;
 *   G   global, 2 MiB above X: the same L2 TLB slot, so it is global when
 *       X's walk refills it;
 *   F   64 filler pages a sector apart (Rocket's TLB sectors hold 4 pages),
 *       loaded first to evict X, Y and G from the target's 32-entry DTLB.
 *
 * Each round the targets (every hart but the initiator) load F, Y and G, then
 * wait for "go", spin a round-dependent delay and load X: its walk goes
 * through the stale PTE cache entry and, for some delays, its refill lands
 * in the cycle the shootdown reaches the target. The initiator swaps A for B
 * and shoots down the ASID on every target, then raises "done". The first
 * load of X after a target sees "done" must read NEW (rule 1 of
 * docs/semantics.md); OLD is a stale translation.
 */
#ifndef L2_REFILL_RACE_H
#define L2_REFILL_RACE_H

#include "runtime.h"
#include "vm.h"

#define RACE_REGION	0x40000000UL		/* level-2 slot 1: free in vm_kernel_root */
#define RACE_X		(RACE_REGION + 300 * PAGE_4K)	/* L2 TLB slot 300: no filler's */
#define RACE_Y		(RACE_X + PAGE_4K)
#define RACE_G		(RACE_X + PAGE_2M)
#define RACE_FILL	(RACE_REGION + 2 * PAGE_2M)
#define RACE_FILLERS	64
#define RACE_FILL_STRIDE (4 * PAGE_4K)		/* one TLB sector each */
#define RACE_SPAN	400			/* cycles the targets' delays sweep */
#define RACE_OLD_VALUE	0x01d01d01d01d01dUL
#define RACE_NEW_VALUE	0x4e44e44e44e44e4UL

struct race_result {
	unsigned rounds;
	unsigned through_old;	/* racing loads that read OLD: the walk used table A */
	unsigned stale;		/* loads after completion that read OLD */
};

static uint64_t race_old[512] __attribute__((aligned(4096)));
static uint64_t race_new[512] __attribute__((aligned(4096)));
static uint64_t race_other[512] __attribute__((aligned(4096)));	/* Y, G and the fillers */
static pte_t *race_l1e;			/* the level-1 entry above X */
static pte_t race_table_a, race_table_b;	/* its two values */
static pte_t *race_leaf_x;		/* X's PTE in table A */

static struct {
	volatile unsigned round;	/* the initiator starts round n */
	volatile unsigned go;		/* ... swaps the tables at round n */
	volatile unsigned done;		/* ... saw the shootdown of round n complete */
	volatile uint64_t window;	/* where the targets' delays start (cycles after "go") */
	volatile unsigned ready[MAX_HARTS], finished[MAX_HARTS];
	volatile unsigned through_old[MAX_HARTS], stale[MAX_HARTS];
} race;

static inline pte_t race_table_pte(const pte_t *table)
{
	return ((uint64_t)table >> 12) << 10 | PTE_V;
}

/* The initiator, before any hart uses `root`: maps X, Y, G and the fillers,
 * and builds table B beside A. */
static inline void race_setup(pte_t *root)
{
	race_old[0] = RACE_OLD_VALUE;
	race_new[0] = RACE_NEW_VALUE;
	race_leaf_x = vm_map(root, RACE_X, (uint64_t)race_old, PAGE_4K, PTE_R | PTE_W);
	CHECK(race_leaf_x);
	CHECK(vm_map(root, RACE_Y, (uint64_t)race_other, PAGE_4K, PTE_R | PTE_W));
	CHECK(vm_map(root, RACE_G, (uint64_t)race_other, PAGE_4K, PTE_R | PTE_W | PTE_G));
	for (unsigned i = 0; i < RACE_FILLERS; i++)
		CHECK(vm_map(root, RACE_FILL + i * RACE_FILL_STRIDE, (uint64_t)race_other, PAGE_4K, PTE_R | PTE_W));
	/* Table A is the one vm_map made for X; B maps X to NEW, Y as A does. */
	pte_t *a = (pte_t *)(((uint64_t)race_leaf_x & ~(PAGE_4K - 1)));
	pte_t *b = vm_alloc_table();
	CHECK(b);
	memcpy(b, a, PAGE_4K);
	b[(RACE_X >> 12) & 511] = (*race_leaf_x & ((1UL << 10) - 1)) | ((uint64_t)race_new >> 12) << 10;
	pte_t *l1 = (pte_t *)((root[(RACE_X >> 30) & 511] >> 10) << 12);
	race_l1e = &l1[(RACE_X >> 21) & 511];
	race_table_a = *race_l1e;
	CHECK(race_table_a == race_table_pte(a));
	race_table_b = race_table_pte(b);
	fence();
}

static inline void race_spin(uint64_t cycles)
{
	uint64_t t = rdcycle();
	while (rdcycle() - t < cycles)
		;
}

/* Every hart, between two runs of rounds: numbering starts again. */
static inline void race_reset(unsigned long initiator)
{
	barrier();
	if (hart_id() == initiator)
		memset((void *)&race, 0, sizeof(race));
	barrier();
}

static inline uint64_t race_load(uint64_t va)
{
	return *(volatile uint64_t *)va;
}

/* A target's part of `rounds` rounds: the delay before its racing load
 * sweeps RACE_SPAN cycles, one cycle a round, from the window the initiator
 * sets. */
static inline void race_target(unsigned long me, unsigned rounds)
{
	for (unsigned n = 1; n <= rounds; n++) {
		while (race.round != n)
			;
		/* Forget the previous round's walks: its check load left
		 * "level-1 entry -> B" in the PTE cache. */
		sfence_vma_all();
		for (unsigned i = 0; i < RACE_FILLERS; i++)
			race_load(RACE_FILL + i * RACE_FILL_STRIDE);
		race_load(RACE_Y);
		race_load(RACE_G);
		race.ready[me] = n;
		while (race.go != n)
			;
		race_spin(race.window + (n + me * 7) % RACE_SPAN);
		if (race_load(RACE_X) == RACE_OLD_VALUE)
			race.through_old[me]++;
		while (race.done != n)
			;
		uint64_t v = race_load(RACE_X);
		if (v != RACE_NEW_VALUE) {
			race.stale[me]++;
			if (v != RACE_OLD_VALUE)
				printf("FAIL l2-refill-race: hart %lu read %lx at X, neither page's value\n", me,
				       (unsigned long)v);
		}
		race.finished[me] = n;
	}
}

/* The initiator's part. flush(targets) shoots down every non-global
 * translation on the harts in `targets` and returns 0 once complete. The
 * request reaches the targets shortly before it completes, so the targets'
 * delays sweep the RACE_SPAN cycles before the quickest completion seen so
 * far (a direct request takes a few hundred cycles, an SBI call thousands). */
static inline struct race_result race_initiate(unsigned long me, unsigned rounds,
					       long (*flush)(uint64_t targets))
{
	uint64_t targets = ((1UL << num_harts()) - 1) & ~(1UL << me);
	uint64_t quickest = ~0UL;
	for (unsigned n = 1; n <= rounds; n++) {
		*race_l1e = race_table_a;
		fence();
		race.round = n;
		for (unsigned h = 0; h < num_harts(); h++)
			while (h != me && race.ready[h] != n)
				;
		/* Own X's PTE line, so a target's walk of X misses and waits. */
		*race_leaf_x = *race_leaf_x;
		*race_l1e = race_table_b;
		fence();
		race.go = n;
		uint64_t t0 = rdcycle();
		long r = flush(targets);
		uint64_t took = rdcycle() - t0;
		if (r) {
			printf("FAIL l2-refill-race: the shootdown returned %ld\n", r);
			exit(1);
		}
		race.done = n;
		if (took < quickest) {
			quickest = took;
			race.window = quickest > RACE_SPAN ? quickest - RACE_SPAN : 0;
		}
		for (unsigned h = 0; h < num_harts(); h++)
			while (h != me && race.finished[h] != n)
				;
	}
	struct race_result res = { rounds, 0, 0 };
	for (unsigned h = 0; h < num_harts(); h++) {
		res.through_old += race.through_old[h];
		res.stale += race.stale[h];
	}
	return res;
}

/* Prints the result line the tests read; 0 if it passed. */
static inline int race_report(const char *path, struct race_result r)
{
	printf("l2-refill-race %s: %u rounds, %u racing walks through the replaced table, "
	       "%u stale loads after completion\n", path, r.rounds, r.through_old, r.stale);
	if (r.stale) {
		printf("FAIL l2-refill-race %s: a target used a stale translation after completion\n", path);
		return 1;
	}
	if (!r.through_old) {
		printf("FAIL l2-refill-race %s: no racing walk went through the replaced table: "
		       "the set-up no longer makes the race\n", path);
		return 1;
	}
	return 0;
}

#endif
