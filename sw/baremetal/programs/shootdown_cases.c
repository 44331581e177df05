/*
 * The batched shootdown unit against SEMANTICS.md, one case after another.
 *
 * In every case all harts map a test region in S-mode and the targets loop
 * over it (loads and stores, plus a stream of cache misses so their D$ is
 * busy, as a real workload's is). Hart 0 clears the PTEs of the covered
 * pages and issues ONE request naming every hart, itself included. Then:
 *  - rule 1: every target takes a page fault on every covered page, through
 *    loads and stores; uncovered pages still work;
 *  - rule 2: hart 0 writes a sentinel into each covered physical page right
 *    after completion and checks at the end that no target store landed on
 *    it later (a store translated before the flush must be performed before
 *    completion);
 *  - rule 2 for I/O: in the mmio case a covered page maps the SoC's delay
 *    RAM, whose writes take effect 2000 cycles late, and hart 0 starts right
 *    after hart 1 issued such a store; the RAM's clock must show the last
 *    target store performed before hart 0 saw completion;
 *  - rule 3: ACKED names every target.
 * The request kinds, page sizes and list shapes vary per case; the run ends
 * with the error cases of rule 9.
 */
#include "runtime.h"
#include "shootdown.h"
#include "vm.h"

#define ASID		1
#define REGION_VA	0x40000000UL		/* level-2 slots 1 and 3 are free */
#define REGION2_VA	0xc0000000UL
#define SLOT_OFF	0x5a8UL			/* where in a page the harts' slots are */
#define MISS_BYTES	(64 * 1024)		/* bigger than the 16 KiB D$ */
#define MAX_MAPS	96
#define PHYS_2M		(DRAM_BASE + 0x8000000UL)	/* 128 MiB into DRAM */
#define DELAY_RAM_SLOW	2000			/* cycles a delay RAM write takes in the mmio case */

struct map { uint64_t va, pa, size; int covered; };

struct kase {
	const char *name;
	uint64_t size;		/* mapping size */
	unsigned nmaps, ncovered;
	int global;		/* mappings have G=1 */
	int kind;		/* TLBSD_KIND_* */
	int entry_size;		/* TLBSD_SIZE_* of the entries */
	int one_range;		/* one entry for all covered pages */
	uint64_t inner;		/* entries name this offset inside each page */
	int mmio;		/* map 0 is the delay RAM */
};

static const struct kase cases[] = {
	{ "4k-pages",        PAGE_4K, 8, 6, 0, TLBSD_KIND_VA_ASID, TLBSD_SIZE_4K, 0, 0, 0 },
	{ "4k-range",        PAGE_4K, 8, 6, 0, TLBSD_KIND_VA_ASID, TLBSD_SIZE_4K, 1, 0, 0 },
	{ "2m-by-4k-entry",  PAGE_2M, 2, 1, 0, TLBSD_KIND_VA_ASID, TLBSD_SIZE_4K, 0, 0x1a5000, 0 },
	{ "2m-range",        PAGE_2M, 3, 2, 0, TLBSD_KIND_VA_ASID, TLBSD_SIZE_2M, 1, 0, 0 },
	{ "1g-by-4k-entry",  PAGE_1G, 2, 1, 0, TLBSD_KIND_VA_ASID, TLBSD_SIZE_4K, 0, 0x2345000, 0 },
	{ "global-va-all",   PAGE_4K, 4, 2, 1, TLBSD_KIND_VA_ALL,  TLBSD_SIZE_4K, 0, 0, 0 },
	{ "asid",            PAGE_4K, 4, 4, 0, TLBSD_KIND_ASID,    TLBSD_SIZE_4K, 1, 0, 0 },
	{ "all-global",      PAGE_4K, 4, 4, 1, TLBSD_KIND_ALL,     TLBSD_SIZE_4K, 1, 0, 0 },
	{ "over-ceiling",    PAGE_4K, 80, 80, 0, TLBSD_KIND_VA_ASID, TLBSD_SIZE_4K, 0, 0, 0 },
	{ "mmio-store-in-flight", PAGE_4K, 2, 1, 0, TLBSD_KIND_VA_ASID, TLBSD_SIZE_4K, 0, 0, 1 },
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

static uint64_t pages4k[MAX_MAPS][512] __attribute__((aligned(4096)));
static volatile uint8_t missbuf[MAX_HARTS][MISS_BYTES] __attribute__((aligned(64)));
static uint64_t list[MAX_MAPS] __attribute__((aligned(64)));
static pte_t *root;
static struct map maps[MAX_MAPS];
static unsigned nmaps;

static volatile int stop;
static uint64_t mmio_done_at;	/* delay RAM clock when hart 0 saw completion */
static volatile uint64_t iters[MAX_HARTS];
static volatile uint64_t mmio_writes[MAX_HARTS];

static volatile uint64_t *delay_ram(unsigned long off) { return (volatile uint64_t *)(DELAY_RAM_BASE + off); }
static int is_mmio(unsigned m) { return maps[m].pa == DELAY_RAM_BASE; }
static uint64_t sentinel(unsigned m, unsigned h) { return 0x5e47000000000000UL | (uint64_t)m << 8 | h; }
static volatile uint64_t *slot_va(unsigned m, unsigned h) { return (volatile uint64_t *)(maps[m].va + SLOT_OFF + 8 * h); }
static volatile uint64_t *slot_pa(unsigned m, unsigned h) { return (volatile uint64_t *)(maps[m].pa + SLOT_OFF + 8 * h); }
static uint64_t all_harts(void) { return (1UL << num_harts()) - 1; }

/* Hart 0, S-mode: a fresh test region for case k. */
static void setup(const struct kase *k)
{
	root[1] = 0;
	root[3] = 0;
	nmaps = k->nmaps;
	for (unsigned m = 0; m < nmaps; m++) {
		struct map *mp = &maps[m];
		mp->size = k->size;
		mp->covered = m < k->ncovered;
		if (k->size == PAGE_1G) {
			/* Both gigapages alias DRAM; slots at different offsets. */
			mp->va = (m ? REGION2_VA : REGION_VA) + 0x8400000UL + m * 0x100000UL;
			mp->pa = DRAM_BASE + 0x8400000UL + m * 0x100000UL;
			CHECK(vm_map(root, m ? REGION2_VA : REGION_VA, DRAM_BASE, PAGE_1G,
				     PTE_R | PTE_W | (k->global ? PTE_G : 0)));
		} else {
			mp->va = REGION_VA + m * k->size;
			mp->pa = k->size == PAGE_2M ? PHYS_2M + m * PAGE_2M : (uint64_t)pages4k[m];
			if (k->mmio && m == 0)
				mp->pa = DELAY_RAM_BASE;
			CHECK(vm_map(root, mp->va, mp->pa, k->size, PTE_R | PTE_W | (k->global ? PTE_G : 0)));
		}
	}
}

/* The covered pages' entries; returns the count. */
static unsigned build_list(const struct kase *k)
{
	if (k->kind == TLBSD_KIND_ASID || k->kind == TLBSD_KIND_ALL) {
		list[0] = TLBSD_ENTRY(k->kind, 0, 1, 0, ASID);
		return 1;
	}
	if (k->one_range) {
		list[0] = TLBSD_ENTRY(k->kind, k->entry_size, k->ncovered, maps[0].va & ~(k->size - 1), ASID);
		return 1;
	}
	for (unsigned m = 0; m < k->ncovered; m++)
		list[m] = TLBSD_ENTRY(k->kind, k->entry_size, 1, (maps[m].va & ~(k->size - 1)) + k->inner, ASID);
	return k->ncovered;
}

/* One pass over every slot, and a few cache misses. */
static void touch(unsigned long me, uint64_t value, unsigned *miss)
{
	for (unsigned m = 0; m < nmaps; m++) {
		uint64_t v;
		probe_read64(slot_va(m, me), &v);
		probe_write64(slot_va(m, me), value);
		if (is_mmio(m))
			mmio_writes[me]++;	/* a store to the delay RAM is in flight */
		*miss = (*miss + 64) % MISS_BYTES;
		(void)missbuf[me][*miss];
	}
}

static void unmap_covered(void)
{
	for (unsigned m = 0; m < nmaps; m++)
		if (maps[m].covered)
			*vm_leaf(root, maps[m].va) = 0;
	__asm__ volatile("fence rw, rw" ::: "memory");
}

static void verify_after(unsigned long me, const char *name)
{
	for (unsigned m = 0; m < nmaps; m++) {
		uint64_t v;
		int rf = probe_read64(slot_va(m, me), &v);
		int wf = probe_write64(slot_va(m, me), 0xbad0000 + me);
		if (maps[m].covered && (!rf || !wf)) {
			printf("FAIL %s: hart %lu still %s covered page %u (va %lx) after completion\n", name, me,
			       !rf ? "reads" : "writes", m, (unsigned long)maps[m].va);
			exit(1);
		}
		if (!maps[m].covered && (rf || wf)) {
			printf("FAIL %s: hart %lu faults on uncovered page %u\n", name, me, m);
			exit(1);
		}
	}
}

static void run_case(unsigned long me, const struct kase *k)
{
	unsigned miss = 0;
	if (me == 0) {
		setup(k);
		*delay_ram(DELAY_RAM_DELAY) = k->mmio ? DELAY_RAM_SLOW : 400;
		stop = 0;
		for (unsigned h = 0; h < num_harts(); h++)
			iters[h] = 0;
	}
	barrier();
	sfence_vma_all();	/* drop the previous case's region */
	barrier();

	if (me != 0) {
		while (!stop) {
			touch(me, iters[me], &miss);
			iters[me]++;
		}
	} else {
		/* Warm every TLB: hart 0 through its own accesses, the targets
		 * by looping a few times. */
		touch(0, 0, &miss);
		for (unsigned h = 1; h < num_harts(); h++)
			while (iters[h] < 3)
				;
		if (k->mmio) {
			/* Start right after hart 1 has issued a store to the covered
			 * I/O page: it stays in flight for DELAY_RAM_SLOW cycles. */
			uint64_t w = mmio_writes[1];
			while (mmio_writes[1] == w)
				;
		}
		unsigned count = build_list(k);
		uint64_t fallbacks = *tlbsd_global(TLBSD_CTR_FALLBACKS);
		uint64_t requests = *tlbsd_global(TLBSD_CTR_REQUESTS);
		unmap_covered();
		uint64_t t0 = rdcycle();
		long r = tlbsd_flush(0, all_harts(), list, count);
		uint64_t t1 = rdcycle();
		uint64_t seen_done = *delay_ram(DELAY_RAM_NOW);
		/* The covered pages may be reused now: mark the targets' slots. */
		for (unsigned m = 0; m < nmaps; m++)
			if (maps[m].covered && !is_mmio(m))
				for (unsigned h = 0; h < num_harts(); h++)
					*slot_pa(m, h) = sentinel(m, h);
		CHECK(r == 0);
		CHECK(*tlbsd_chan(0, TLBSD_CH_ACKED) == all_harts());
		CHECK(*tlbsd_global(TLBSD_CTR_REQUESTS) == requests + 1);
		int over = count > *tlbsd_global(TLBSD_CEILING);
		CHECK(*tlbsd_global(TLBSD_CTR_FALLBACKS) == fallbacks + (over ? 1 : 0));
		/* Let the targets run on (and fault) for a while. */
		uint64_t seen[MAX_HARTS];
		for (unsigned h = 1; h < num_harts(); h++)
			seen[h] = iters[h];
		for (unsigned h = 1; h < num_harts(); h++)
			while (iters[h] < seen[h] + 3)
				;
		stop = 1;
		printf("case %s: %u entries, %u targets, %lu cycles to completion\n", k->name, count, num_harts(),
		       (unsigned long)(t1 - t0));
		if (k->mmio)
			mmio_done_at = seen_done;
	}
	barrier();
	verify_after(me, k->name);
	barrier();
	if (me == 0) {
		if (k->mmio && *delay_ram(DELAY_RAM_LAST_WRITE_AT) >= mmio_done_at) {
			printf("FAIL %s: a store to the covered I/O page was performed after completion "
			       "(at %lu, completion seen at %lu)\n", k->name,
			       (unsigned long)*delay_ram(DELAY_RAM_LAST_WRITE_AT), (unsigned long)mmio_done_at);
			exit(1);
		}
		for (unsigned m = 0; m < nmaps; m++)
			if (maps[m].covered && !is_mmio(m))
				for (unsigned h = 0; h < num_harts(); h++)
					if (*slot_pa(m, h) != sentinel(m, h)) {
						printf("FAIL %s: a late store from hart %u landed on covered page %u after completion\n",
						       k->name, h, m);
						exit(1);
					}
		printf("case %s: PASS\n", k->name);
	}
	barrier();
}

/* Rule 9: every bad request is refused with its code, and a good one after
 * it still completes. */
static void error_cases(void)
{
	uint64_t info = *tlbsd_global(TLBSD_INFO);
	uint64_t max = TLBSD_INFO_MAX_ENTRIES(info);
	CHECK(TLBSD_INFO_CHANNELS(info) == num_harts());
	list[0] = TLBSD_ENTRY(TLBSD_KIND_ALL, 0, 1, 0, 0);
	struct { const char *what; uint64_t targets; const uint64_t *list; uint64_t count; long want; } bad[] = {
		{ "empty hart mask", 0, list, 1, -TLBSD_ERR_BAD_TARGETS },
		{ "absent hart", 1UL << num_harts(), list, 1, -TLBSD_ERR_BAD_TARGETS },
		{ "zero count", 1, list, 0, -TLBSD_ERR_BAD_COUNT },
		{ "oversized count", 1, list, max + 1, -TLBSD_ERR_BAD_COUNT },
		{ "misaligned list", 1, (const uint64_t *)((uintptr_t)list + 4), 1, -TLBSD_ERR_BAD_ALIGN },
		{ "list outside DRAM", 1, (const uint64_t *)0x1000UL, 1, -TLBSD_ERR_BAD_RANGE },
		{ "list running off DRAM", 1, (const uint64_t *)(DRAM_BASE + 0x10000000UL - 8), 2, -TLBSD_ERR_BAD_RANGE },
	};
	uint64_t errors = *tlbsd_global(TLBSD_CTR_ERRORS);
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		long r = tlbsd_post(0, bad[i].targets, bad[i].list, (uint32_t)bad[i].count);
		if (r != bad[i].want) {
			printf("FAIL errors: %s gave %ld, want %ld\n", bad[i].what, r, bad[i].want);
			exit(1);
		}
		uint64_t e = *tlbsd_chan(0, TLBSD_CH_ERROR);
		CHECK(TLBSD_ERROR_CODE(e) == (uint64_t)-bad[i].want && TLBSD_ERROR_TICKET(e) == 0);
		/* Nothing was queued: the channel is idle. */
		CHECK(*tlbsd_chan(0, TLBSD_CH_STATUS) & TLBSD_STATUS_IDLE);
		CHECK(tlbsd_flush(0, all_harts(), list, 1) == 0);
	}
	CHECK(*tlbsd_global(TLBSD_CTR_ERRORS) == errors + sizeof(bad) / sizeof(bad[0]));
	/* A reserved SIZE runs as a full flush and completes with an error. */
	list[0] = TLBSD_ENTRY(TLBSD_KIND_VA_ASID, 3, 1, REGION_VA, ASID);
	long t = tlbsd_post(0, all_harts(), list, 1);
	CHECK(t > 0);
	tlbsd_wait(0, (uint32_t)t);
	uint64_t e = *tlbsd_chan(0, TLBSD_CH_ERROR);
	CHECK(TLBSD_ERROR_CODE(e) == TLBSD_ERR_BAD_ENTRY && TLBSD_ERROR_TICKET(e) == (uint64_t)t);
	*tlbsd_chan(0, TLBSD_CH_ERROR) = 0;
	CHECK(*tlbsd_chan(0, TLBSD_CH_ERROR) == 0);
	printf("case errors: PASS\n");
}

static long smode_main(void *arg)
{
	(void)arg;
	unsigned long me = hart_id();
	csr_write(satp, vm_satp(root, ASID));
	sfence_vma_all();
	for (unsigned i = 0; i < NCASES; i++)
		run_case(me, &cases[i]);
	if (me == 0)
		error_cases();
	barrier();
	return 0;
}

int main(unsigned long hartid)
{
	if (hartid == 0) {
		CHECK(num_harts() >= 2);
		root = vm_alloc_table();
		vm_map_kernel(root);
		fence();
	}
	barrier();
	long r = run_in_smode(smode_main, 0);
	if (hartid == 0 && r == 0)
		printf("PASS: %u cases\n", (unsigned)NCASES + 1);
	return (int)r;
}
