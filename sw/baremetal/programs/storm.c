/*
 * A storm: for STORM_CYCLES (a million unless told) every hart, in S-mode,
 * loads, stores and executes through a shared page table while posting
 * random requests to the unit on its own channel: random entry counts,
 * kinds and sizes, random target masks, both completion styles (submit and
 * wait, post then sync), random local sfence.vma, and remaps of its own
 * pages followed by a request and a check that it reads the new frame.
 * Nothing here judges what a target may still cache: that is the
 * co-simulation scoreboard's work (sim/scoreboard.h), which watches every
 * access of the run on the checked and debug models. The program checks
 * what it can see: no load faults or reads a frame its page never mapped,
 * code runs, every request completes within a bound (no hang), and every
 * request submitted was completed by the unit (its REQUESTS counter).
 * Page i's leaf PTE carries i % 4 in its software bits (RSW), as Linux's
 * PTEs do: Rocket's L2 TLB drops them, so what it answers differs from the
 * PTE in memory there, and the scoreboard must still match it to its walk.
 */
#include "platform.h"
#include "runtime.h"
#include "shootdown.h"
#include "vm.h"

#ifndef STORM_CYCLES
#define STORM_CYCLES	1000000UL
#endif
#ifndef STORM_SEED
#define STORM_SEED	1UL
#endif

#define STORM_VA	0x280000000UL		/* 10 GiB: its own level-1 table */
#define NPAGES		64
#define FRAMES		TEST_FRAMES		/* page i: frames FRAMES + (2i or 2i+1) * 4 KiB */
#define SUPER_VA	(STORM_VA + 0x400000UL)	/* two 2 MiB pages */
#define SUPER_PA	(FRAMES + 0x200000UL)
#define CODE_VA		(STORM_VA + 0x100000UL)
#define CODE_PA		(FRAMES + 0x600000UL)
#define CODE_VALUE	7
#define MAX_ENTRIES	8
#define MAX_POSTS	3			/* posts before a sync (a channel queues 4) */
#define WAIT_BOUND	2000000UL		/* cycles a request may take before it counts as hung */

#define INSN_LI_A0(v)	(0x00000513u | ((uint32_t)(v) << 20))
#define INSN_RET	0x00008067u

static pte_t *root;
static volatile uint64_t storm_end;
static uint64_t lists[MAX_HARTS][MAX_POSTS][MAX_ENTRIES] __attribute__((aligned(64)));
static unsigned long made[MAX_HARTS], remaps[MAX_HARTS], entries_sent[MAX_HARTS], ops[MAX_HARTS];

static uint64_t page_va(unsigned i) { return STORM_VA + (uint64_t)i * PAGE_4K; }
static uint64_t frame(unsigned i, unsigned which) { return FRAMES + (2 * (uint64_t)i + which) * PAGE_4K; }

static uint64_t next(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void fail(const char *what, unsigned long me, uint64_t a, uint64_t b)
{
	printf("FAIL storm: hart %lu: %s (0x%lx, 0x%lx)\n", me, what, (unsigned long)a, (unsigned long)b);
	exit(1);
}

static void wait_done(unsigned long me, long ticket)
{
	if (ticket <= 0)
		fail("a good request was refused", me, (uint64_t)ticket, 0);
	if (tlbsd_wait_for(me, (uint32_t)ticket, WAIT_BOUND))
		fail("request did not complete (hang)", me, (uint64_t)ticket, *tlbsd_chan(me, TLBSD_CH_STATUS));
}

/* A random list of 1..MAX_ENTRIES entries over the storm's pages. */
static unsigned random_list(uint64_t *x, uint64_t *list)
{
	unsigned n = 1 + next(x) % MAX_ENTRIES;
	for (unsigned e = 0; e < n; e++) {
		uint64_t r = next(x);
		unsigned pick = r % 20;
		if (pick < 12) {	/* pages of 4 KiB */
			unsigned pages = 1 + (r >> 8) % 4, i = (r >> 16) % (NPAGES - pages + 1);
			list[e] = TLBSD_ENTRY(pick & 1 ? TLBSD_KIND_VA_ALL : TLBSD_KIND_VA_ASID, TLBSD_SIZE_4K, pages,
					      page_va(i), 0);
		} else if (pick < 15) {	/* a 2 MiB page named by its size or by a 4 KiB page inside */
			unsigned s = (r >> 8) & 1;
			list[e] = (r >> 9) & 1 ? TLBSD_ENTRY(TLBSD_KIND_VA_ASID, TLBSD_SIZE_2M, 1, SUPER_VA + s * PAGE_2M, 0)
					       : TLBSD_ENTRY(TLBSD_KIND_VA_ASID, TLBSD_SIZE_4K, 1,
							     SUPER_VA + s * PAGE_2M + ((r >> 12) % 512) * PAGE_4K, 0);
		} else if (pick < 17) {
			list[e] = TLBSD_ENTRY(TLBSD_KIND_VA_ALL, TLBSD_SIZE_4K, 1, CODE_VA, 0);
		} else if (pick < 19) {
			list[e] = TLBSD_ENTRY(TLBSD_KIND_ASID, TLBSD_SIZE_4K, 1, 0, 0);
		} else {
			list[e] = TLBSD_ENTRY(TLBSD_KIND_ALL, TLBSD_SIZE_4K, 1, 0, 0);
		}
	}
	return n;
}

static long storm(void *arg)
{
	(void)arg;
	unsigned long me = hart_id();
	unsigned n = num_harts();
	uint64_t all = (1UL << n) - 1, x = (STORM_SEED + 1) * 0x9e3779b97f4a7c15UL ^ (me + 1) * 0x2545f4914f6cdd1dUL;
	unsigned posts = 0;
	csr_write(satp, vm_satp(root, 0));
	sfence_vma_all();
	__asm__ volatile("fence.i" ::: "memory");
	barrier();
	while (rdcycle() < storm_end) {
		uint64_t r = next(&x), v;
		unsigned i = (r >> 8) % NPAGES;
		ops[me]++;
		switch (r % 16) {
		case 0: case 1: case 2: case 3: case 4: case 5:
			if (probe_read64((volatile uint64_t *)page_va(i), &v))
				fail("a load from a mapped page faulted", me, page_va(i), 0);
			if (v != frame(i, 0) && v != frame(i, 1))
				fail("a load read a frame its page never mapped", me, page_va(i), v);
			break;
		case 6: case 7: case 8:
			if (probe_write64((volatile uint64_t *)(page_va(i) + 8 + 8 * me), r))
				fail("a store to a mapped page faulted", me, page_va(i), 0);
			break;
		case 9:
			if (probe_read64((volatile uint64_t *)(SUPER_VA + (r >> 16) % (2 * PAGE_2M) / 8 * 8), &v))
				fail("a load from a 2 MiB page faulted", me, SUPER_VA, 0);
			break;
		case 10:
			if (probe_fetch((const void *)CODE_VA, &v) || v != CODE_VALUE)
				fail("the code page did not run", me, CODE_VA, v);
			break;
		case 11:
			if (r & 0x100)
				sfence_vma_all();
			else
				__asm__ volatile("sfence.vma %0, zero" ::"r"(page_va(i)) : "memory");
			break;
		case 12: case 13: case 14: {
			uint64_t targets = (r >> 20) & all;
			if (!targets)
				targets = all;
			uint64_t *list = lists[me][posts];
			unsigned count = random_list(&x, list);
			long t = tlbsd_post(me, targets, list, count);
			if (t <= 0)
				fail("a good request was refused", me, (uint64_t)t, 0);
			made[me]++;
			entries_sent[me] += count;
			if (r & 0x80) {	/* arm64 style: post now, sync later */
				if (++posts == MAX_POSTS) {
					tlbsd_sync(me);
					posts = 0;
				}
			} else {
				wait_done(me, t);
			}
			break;
		}
		case 15: {	/* remap one of my pages to its other frame */
			unsigned mine = (unsigned)(me + n * ((r >> 8) % (NPAGES / n)));
			pte_t *leaf = vm_leaf(root, page_va(mine));
			unsigned to = (*leaf >> 10) == (frame(mine, 0) >> 12);
			*leaf = (frame(mine, to) >> 12) << 10 | PTE_V | PTE_R | PTE_W | PTE_A | PTE_D | PTE_RSW(mine);
			uint64_t *list = lists[me][posts];
			list[0] = TLBSD_ENTRY(TLBSD_KIND_VA_ASID, TLBSD_SIZE_4K, 1, page_va(mine), 0);
			wait_done(me, tlbsd_post(me, all, list, 1));
			made[me]++;
			entries_sent[me]++;
			remaps[me]++;
			if (probe_read64((volatile uint64_t *)page_va(mine), &v) || v != frame(mine, to))
				fail("after its own request, a hart read the old frame", me, page_va(mine), v);
			break;
		}
		}
	}
	tlbsd_sync(me);
	barrier();
	return 0;
}

int main(unsigned long hartid)
{
	static uint64_t requests_before;
	if (hartid == 0) {
		unsigned n = num_harts();
		CHECK(n >= 2 && n <= MAX_HARTS && NPAGES % n == 0);
		root = vm_kernel_root();
		for (unsigned i = 0; i < NPAGES; i++) {
			for (unsigned f = 0; f < 2; f++)
				*(volatile uint64_t *)frame(i, f) = frame(i, f);
			CHECK(vm_map(root, page_va(i), frame(i, 0), PAGE_4K, PTE_R | PTE_W | PTE_A | PTE_D | PTE_RSW(i)));
		}
		CHECK(vm_map(root, SUPER_VA, SUPER_PA, PAGE_2M, PTE_R | PTE_W | PTE_A | PTE_D));
		CHECK(vm_map(root, SUPER_VA + PAGE_2M, SUPER_PA + PAGE_2M, PAGE_2M, PTE_R | PTE_W | PTE_A | PTE_D));
		volatile uint32_t *code = (volatile uint32_t *)CODE_PA;
		code[0] = INSN_LI_A0(CODE_VALUE);
		code[1] = INSN_RET;
		CHECK(vm_map(root, CODE_VA, CODE_PA, PAGE_4K, PTE_R | PTE_X | PTE_A));
		__asm__ volatile("fence rw, rw\n\tfence.i" ::: "memory");
		requests_before = *tlbsd_global(TLBSD_CTR_REQUESTS);
		storm_end = rdcycle() + STORM_CYCLES;
	}
	barrier();
	long r = run_in_smode(storm, 0);
	/* Each hart's channel is idle (only its own hart may read its STATUS). */
	CHECK(*tlbsd_chan(hartid, TLBSD_CH_STATUS) & TLBSD_STATUS_IDLE);
	barrier();
	if (hartid == 0 && r == 0) {
		unsigned long reqs = 0, ents = 0, flips = 0, steps = 0;
		for (unsigned h = 0; h < num_harts(); h++) {
			reqs += made[h];
			ents += entries_sent[h];
			flips += remaps[h];
			steps += ops[h];
		}
		uint64_t completed = *tlbsd_global(TLBSD_CTR_REQUESTS) - requests_before;
		printf("storm: %u harts, %lu cycles: %lu operations, %lu requests (%lu entries, %lu remaps), "
		       "%lu completed by the unit\n", num_harts(), (unsigned long)STORM_CYCLES, steps, reqs, ents, flips,
		       (unsigned long)completed);
		if (completed != reqs)
			fail("the unit completed a different number of requests than were submitted", 0, completed, reqs);
		printf("PASS: storm\n");
	}
	return (int)r;
}
