/*
 * The batched shootdown unit against docs/semantics.md, one case after another.
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
 *
 * Hart 0 first prints the case table ("cases: NAME ..."), then one line per
 * case, "case NAME: PASS" or "case NAME: FAIL" after the FAIL lines that
 * say why; a failing case does not stop the ones after it (only a broken
 * set-up, CHECK, or a request that never completes does). The exit status
 * is 1 if any case failed.
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

enum { TARGETS_LOOP, TARGETS_PARK, TARGETS_SFENCE };

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
	unsigned initiators;	/* harts 0.. each flush their share of the covered pages at once (0 = 1) */
	int targets;		/* what the other harts do meanwhile */
	int post_each;		/* one posted request per entry, then one sync (arm64 style) */
	unsigned repeat;	/* post_each: post the whole list this many times (0: once) */
	unsigned ceiling;	/* CEILING during the case (0: CASE_CEILING) */
	void (*special)(unsigned long me);	/* a case of its own kind: every hart runs this instead */
};

static void clean_pte_case(unsigned long me);
static void errors_case(unsigned long me);

/* K4 gives the defaults (4 KiB pages, per-VA entries); later fields override. */
#define K4 .size = PAGE_4K, .kind = TLBSD_KIND_VA_ASID, .entry_size = TLBSD_SIZE_4K
#pragma GCC diagnostic ignored "-Woverride-init"
static const struct kase cases[] = {
	{ .name = "4k-pages", K4, .nmaps = 8, .ncovered = 6 },
	{ .name = "4k-range", K4, .nmaps = 8, .ncovered = 6, .one_range = 1 },
	{ .name = "2m-by-4k-entry", K4, .size = PAGE_2M, .nmaps = 2, .ncovered = 1, .inner = 0x1a5000 },
	{ .name = "2m-range", K4, .size = PAGE_2M, .entry_size = TLBSD_SIZE_2M, .nmaps = 3, .ncovered = 2,
	  .one_range = 1 },
	{ .name = "1g-by-4k-entry", K4, .size = PAGE_1G, .nmaps = 2, .ncovered = 1, .inner = 0x2345000 },
	{ .name = "global-va-all", K4, .kind = TLBSD_KIND_VA_ALL, .nmaps = 4, .ncovered = 2, .global = 1 },
	{ .name = "asid", K4, .kind = TLBSD_KIND_ASID, .nmaps = 4, .ncovered = 4, .one_range = 1 },
	{ .name = "all-global", K4, .kind = TLBSD_KIND_ALL, .nmaps = 4, .ncovered = 4, .global = 1, .one_range = 1 },
	{ .name = "over-ceiling", K4, .nmaps = 80, .ncovered = 80 },
	{ .name = "mmio-store-in-flight", K4, .nmaps = 2, .ncovered = 1, .mmio = 1 },
	{ .name = "two-initiators", K4, .nmaps = 16, .ncovered = 12, .initiators = 2 },
	{ .name = "targets-in-m-mode-wfi", K4, .nmaps = 8, .ncovered = 6, .targets = TARGETS_PARK },
	{ .name = "racing-local-sfence", K4, .nmaps = 72, .ncovered = 64, .targets = TARGETS_SFENCE, .post_each = 1,
	  .repeat = 4 },
	{ .name = "racing-page-walks", K4, .nmaps = 90, .ncovered = 88, .ceiling = 128 },
	{ .name = "post-then-sync", K4, .nmaps = 12, .ncovered = 10, .post_each = 1 },
	{ .name = "clean-pte", .special = clean_pte_case },
	{ .name = "errors", .special = errors_case },
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))
#define PRIV_VA		REGION2_VA		/* racing-local-sfence: private pages per hart */
#define PRIV_PAGES	16
#define CASE_CEILING	64	/* CEILING in every case that sets none */

/* The case pages, then two frames per private page (racing-local-sfence). */
static uint64_t pages4k[MAX_MAPS + 2 * PRIV_PAGES * MAX_HARTS][512] __attribute__((aligned(4096)));
static volatile uint8_t missbuf[MAX_HARTS][MISS_BYTES] __attribute__((aligned(64)));
static uint64_t lists[MAX_HARTS][MAX_MAPS] __attribute__((aligned(64)));
static pte_t *root;
static struct map maps[MAX_MAPS];
static unsigned nmaps;
static pte_t *priv_leaf[MAX_HARTS][PRIV_PAGES];
static pte_t priv_pte[MAX_HARTS][PRIV_PAGES][2];	/* each private page on either frame */

static uint64_t *priv_frame(unsigned long h, unsigned j, unsigned f)
{
	return pages4k[MAX_MAPS + (h * PRIV_PAGES + j) * 2 + f];
}

static uint64_t priv_va(unsigned long h, unsigned j)
{
	return PRIV_VA + (h * PRIV_PAGES + j) * PAGE_4K;
}

static volatile int stop, go, release;
static volatile uint64_t iters[MAX_HARTS];
static volatile uint64_t mmio_writes[MAX_HARTS];
static volatile int parked[MAX_HARTS];
static volatile unsigned inits_ready, inits_done, reqs_made, fallbacks_made;
static uint64_t mmio_done_at;	/* delay RAM clock when hart 0 saw completion */
static volatile int case_failed;	/* some check of the current case failed */
static unsigned failed_cases;

/* Hart 0, once every hart is done with the case: its verdict. */
static void case_verdict(const char *name)
{
	printf("case %s: %s\n", name, case_failed ? "FAIL" : "PASS");
	failed_cases += case_failed;
	case_failed = 0;
}

static volatile uint64_t *delay_ram(unsigned long off) { return (volatile uint64_t *)(DELAY_RAM_BASE + off); }
static int is_mmio(unsigned m) { return maps[m].pa == DELAY_RAM_BASE; }
static uint64_t sentinel(unsigned m, unsigned h) { return 0x5e47000000000000UL | (uint64_t)m << 8 | h; }
static volatile uint64_t *slot_va(unsigned m, unsigned h) { return (volatile uint64_t *)(maps[m].va + SLOT_OFF + 8 * h); }
static volatile uint64_t *slot_pa(unsigned m, unsigned h) { return (volatile uint64_t *)(maps[m].pa + SLOT_OFF + 8 * h); }
static uint64_t all_harts(void) { return (1UL << num_harts()) - 1; }
static unsigned initiators(const struct kase *k) { return k->initiators ? k->initiators : 1; }
/* Which initiator unmaps and flushes covered map m. */
static unsigned owner(const struct kase *k, unsigned m) { return m % initiators(k); }

/* A check that failed in the current case: reported, the case goes on. */
#define FAIL(...) do { printf("FAIL " __VA_ARGS__); case_failed = 1; } while (0)

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
	if (k->targets == TARGETS_SFENCE)
		for (unsigned h = 0; h < num_harts(); h++)
			for (unsigned j = 0; j < PRIV_PAGES; j++)
				for (unsigned f = 0; f < 2; f++) {
					uint64_t *frame = priv_frame(h, j, f);
					frame[0] = (uint64_t)frame;	/* each frame holds its own address */
					priv_leaf[h][j] = vm_map(root, priv_va(h, j), (uint64_t)frame, PAGE_4K,
								 PTE_R | PTE_W);
					CHECK(priv_leaf[h][j]);
					priv_pte[h][j][f] = *priv_leaf[h][j];
				}
	*tlbsd_global(TLBSD_CEILING) = k->ceiling ? k->ceiling : CASE_CEILING;
	*delay_ram(DELAY_RAM_DELAY) = k->mmio ? DELAY_RAM_SLOW : 400;
}

/* How many bits of m are set (libgcc's popcount is built for hard float). */
static unsigned bits_set(uint64_t m)
{
	unsigned n = 0;
	for (; m; m &= m - 1)
		n++;
	return n;
}

/* The entries initiator `me` sends for its share; returns the count. */
static unsigned build_list(const struct kase *k, unsigned long me, uint64_t *list)
{
	if (k->kind == TLBSD_KIND_ASID || k->kind == TLBSD_KIND_ALL) {
		list[0] = TLBSD_ENTRY(k->kind, 0, 1, 0, ASID);
		return 1;
	}
	if (k->one_range) {
		list[0] = TLBSD_ENTRY(k->kind, k->entry_size, k->ncovered, maps[0].va & ~(k->size - 1), ASID);
		return 1;
	}
	unsigned n = 0;
	for (unsigned m = 0; m < k->ncovered; m++)
		if (owner(k, m) == me)
			list[n++] = TLBSD_ENTRY(k->kind, k->entry_size, 1, (maps[m].va & ~(k->size - 1)) + k->inner, ASID);
	return n;
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

/* A hart's own sfence.vma racing the agent's flushes on the same ITLB/PTW
 * input. Each round the hart moves its private pages between two frames,
 * issues one sfence.vma per page back to back, then loads each page: if the
 * agent ever dropped a local sfence, the L2 TLB would keep that page's old
 * frame and its load would read it (a page's sfence.vma clears only its own
 * L2 TLB set). The moves need no trap and the sfence.vma come in a row, so
 * some meet the agent's flushes (the scoreboard counts how many did); a few
 * cycles of random delay per round keep the rounds from locking to the
 * requests' rhythm (every request stalls the target the same way; with one
 * page and no delay, no sfence.vma met a flush on the 4-hart SoC). With 4
 * pages whether any met a flush on the 4-hart SoC came down to where the
 * code fell (none once the runtime's exit() grew by a few instructions);
 * with 16, 20 did there and 4 on 2 harts (debug model). Each page gets one
 * sfence.vma a round, so a lost one shows (a burst over 4 pages raised the
 * count but let mutant lose-local-sfence through: the next sfence.vma of
 * the same page made up for the lost one). Last, the pages are unmapped:
 * their sfence.vma must make them fault. */
static void local_sfence_check(unsigned long me)
{
	static uint64_t seed[MAX_HARTS];
	uint64_t v;
	if (!seed[me])
		seed[me] = 0x9e3779b97f4a7c15ull * (me + 1);
	for (unsigned round = 0; round < 32; round++) {
		unsigned f = round & 1;
		seed[me] ^= seed[me] << 13;
		seed[me] ^= seed[me] >> 7;
		seed[me] ^= seed[me] << 17;
		for (unsigned n = seed[me] % 8; n; n--)
			__asm__ volatile("nop");
		for (unsigned j = 0; j < PRIV_PAGES; j++)
			*priv_leaf[me][j] = priv_pte[me][j][f];
		for (unsigned j = 0; j < PRIV_PAGES; j++)
			sfence_vma_va(priv_va(me, j));
		for (unsigned j = 0; j < PRIV_PAGES; j++) {
			v = *(volatile uint64_t *)priv_va(me, j);
			if (v != (uint64_t)priv_frame(me, j, f))
				FAIL("racing-local-sfence: hart %lu: page %u read frame 0x%lx after its sfence.vma "
				     "moved it (a local sfence.vma was lost)\n", me, j, (unsigned long)v);
		}
	}
	for (unsigned j = 0; j < PRIV_PAGES; j++)
		*priv_leaf[me][j] = 0;
	for (unsigned j = 0; j < PRIV_PAGES; j++)
		sfence_vma_va(priv_va(me, j));
	for (unsigned j = 0; j < PRIV_PAGES; j++)
		if (!probe_read64((volatile uint64_t *)priv_va(me, j), &v))
			FAIL("racing-local-sfence: hart %lu: its own unmapped page %u still reads after its "
			     "sfence.vma (a local sfence.vma was lost)\n", me, j);
}

/* M-mode, interrupts off (the trap cleared mstatus.MIE): sleep in WFI until
 * hart 0 releases us; the timer only ends each WFI. */
static long park_in_m(void *arg)
{
	(void)arg;
	unsigned long me = hart_id();
	volatile uint64_t *mtimecmp = (volatile uint64_t *)(CLINT_BASE + 0x4000 + 8 * me);
	volatile uint64_t *mtime = (volatile uint64_t *)(CLINT_BASE + 0xbff8);
	csr_set(mie, 1UL << 7);		/* MTIE: wakes WFI, never traps with MIE = 0 */
	parked[me] = 1;
	while (!release) {
		*mtimecmp = *mtime + 20;
		wfi();
	}
	*mtimecmp = ~0UL;
	csr_clear(mie, 1UL << 7);
	parked[me] = 0;
	return 0;
}

static void verify_after(unsigned long me, const char *name)
{
	for (unsigned m = 0; m < nmaps; m++) {
		uint64_t v;
		int rf = probe_read64(slot_va(m, me), &v);
		int wf = probe_write64(slot_va(m, me), 0xbad0000 + me);
		if (maps[m].covered && (!rf || !wf))
			FAIL("%s: hart %lu still %s covered page %u (va %lx) after completion\n", name, me,
			     !rf ? "reads" : "writes", m, (unsigned long)maps[m].va);
		if (!maps[m].covered && (rf || wf))
			FAIL("%s: hart %lu faults on uncovered page %u\n", name, me, m);
	}
}

/* A request that never completes: say what the unit shows, then fail. */
static void __attribute__((noreturn)) stuck(const struct kase *k, unsigned long me, uint32_t ticket)
{
	printf("FAIL %s: hart %lu: ticket %u not complete after 1M cycles: STATUS %lx ACKED %lx\n", k->name, me,
	       ticket, (unsigned long)*tlbsd_chan(me, TLBSD_CH_STATUS), (unsigned long)*tlbsd_chan(me, TLBSD_CH_ACKED));
	for (unsigned h = 0; h < num_harts(); h++) {
		uint64_t a = *tlbsd_global(TLBSD_AGENT_CYCLES_HART(h));
		for (volatile int i = 0; i < 1000; i++)
			;
		printf("  agent %u busy cycles %lu, then %lu\n", h, (unsigned long)a,
		       (unsigned long)*tlbsd_global(TLBSD_AGENT_CYCLES_HART(h)));
	}
	printf("  requests %lu entries %lu pages %lu\n", (unsigned long)*tlbsd_global(TLBSD_CTR_REQUESTS),
	       (unsigned long)*tlbsd_global(TLBSD_CTR_ENTRIES), (unsigned long)*tlbsd_global(TLBSD_CTR_PAGES));
	exit(2);
}

/* An initiator's part: unmap its share, flush it, mark the pages reused. */
static void initiate(const struct kase *k, unsigned long me)
{
	uint64_t *list = lists[me];
	unsigned count = build_list(k, me, list);
	while (!go)		/* hart 0: the TLBs are warm */
		;
	__atomic_add_fetch(&inits_ready, 1, __ATOMIC_ACQ_REL);
	while (inits_ready != initiators(k))	/* all initiators submit at once */
		;
	for (unsigned m = 0; m < nmaps; m++)
		if (maps[m].covered && owner(k, m) == me)
			*vm_leaf(root, maps[m].va) = 0;
	__asm__ volatile("fence rw, rw" ::: "memory");
	uint64_t t0 = rdcycle();
	unsigned reqs = 0, falls = 0;
	unsigned ceiling = k->ceiling ? k->ceiling : CASE_CEILING;
	if (k->post_each) {
		for (unsigned rep = 0; rep < (k->repeat ? k->repeat : 1); rep++)
			for (unsigned i = 0; i < count; i++, reqs++)
				CHECK(tlbsd_post(me, all_harts(), &list[i], 1) > 0);
		tlbsd_sync(me);
	} else {
		long t = tlbsd_post(me, all_harts(), list, count);
		CHECK(t > 0);
		if (tlbsd_wait_for(me, (uint32_t)t, 1000000))
			stuck(k, me, (uint32_t)t);
		reqs = 1;
		falls = count > ceiling;
	}
	uint64_t t1 = rdcycle();
	uint64_t seen_done = *delay_ram(DELAY_RAM_NOW);
	/* The covered pages may be reused now: mark the targets' slots. */
	for (unsigned m = 0; m < nmaps; m++)
		if (maps[m].covered && owner(k, m) == me && !is_mmio(m))
			for (unsigned h = 0; h < num_harts(); h++)
				*slot_pa(m, h) = sentinel(m, h);
	/* ACKED: the harts that acknowledged the channel's last request, as
	 * the unit saw them. */
	uint64_t acked = *tlbsd_chan(me, TLBSD_CH_ACKED);
	if (!k->post_each)
		CHECK(acked == all_harts());
	if (k->mmio)
		mmio_done_at = seen_done;
	__atomic_add_fetch(&reqs_made, reqs, __ATOMIC_ACQ_REL);
	__atomic_add_fetch(&fallbacks_made, falls, __ATOMIC_ACQ_REL);
	printf("case %s: hart %lu: %u entries in %u request%s, %u targets acknowledged, %lu cycles to completion\n",
	       k->name, me, count, reqs, reqs == 1 ? "" : "s", bits_set(acked),
	       (unsigned long)(t1 - t0));
	__atomic_add_fetch(&inits_done, 1, __ATOMIC_ACQ_REL);
}

static void run_case(unsigned long me, const struct kase *k)
{
	unsigned miss = 0;
	unsigned ninit = initiators(k);
	CHECK(ninit <= num_harts());
	if (me == 0) {
		setup(k);
		stop = go = release = 0;
		inits_ready = inits_done = reqs_made = fallbacks_made = 0;
		for (unsigned h = 0; h < num_harts(); h++)
			iters[h] = 0;
	}
	barrier();
	sfence_vma_all();	/* drop the previous case's region */
	barrier();

	if (me >= ninit) {
		/* A target that does not initiate. */
		while (!stop) {
			if (k->targets == TARGETS_PARK && iters[me] == 3)
				call_in_mmode(park_in_m, 0);
			/* Racing its own sfence.vma with the agent: once warm, the
			 * hart does nothing else, so that its sfences meet the
			 * requests' flushes (the debug-model test counts them). */
			if (k->targets != TARGETS_SFENCE || iters[me] < 3)
				touch(me, iters[me], &miss);
			if (k->targets == TARGETS_SFENCE)
				local_sfence_check(me);
			iters[me]++;
		}
	} else {
		/* Warm every TLB: the initiators through their own accesses,
		 * the other harts by looping a few times (and parking). */
		touch(me, 0, &miss);
		if (me == 0) {
			for (unsigned h = ninit; h < num_harts(); h++) {
				while (iters[h] < 3)
					;
				if (k->targets == TARGETS_PARK)
					while (!parked[h])
						;
			}
			if (k->mmio) {
				/* Start right after hart 1 has issued a store to the
				 * covered I/O page: it stays in flight for
				 * DELAY_RAM_SLOW cycles. */
				uint64_t w = mmio_writes[1];
				while (mmio_writes[1] == w)
					;
			}
		}
		uint64_t requests = *tlbsd_global(TLBSD_CTR_REQUESTS);
		uint64_t fallbacks = *tlbsd_global(TLBSD_CTR_FALLBACKS);
		if (me == 0)
			go = 1;
		initiate(k, me);
		if (me == 0) {
			while (inits_done != ninit)
				;
			CHECK(*tlbsd_global(TLBSD_CTR_REQUESTS) == requests + reqs_made);
			CHECK(*tlbsd_global(TLBSD_CTR_FALLBACKS) == fallbacks + fallbacks_made);
			if (k->targets == TARGETS_PARK)
				for (unsigned h = ninit; h < num_harts(); h++)
					CHECK(parked[h]);	/* still asleep: completion did not need them awake */
			release = 1;
			/* Let the targets run on (and fault) for a while. */
			uint64_t seen[MAX_HARTS] = { 0 };
			for (unsigned h = ninit; h < num_harts(); h++)
				seen[h] = iters[h];
			for (unsigned h = ninit; h < num_harts(); h++)
				while (iters[h] < seen[h] + 3)
					;
			stop = 1;
		}
	}
	barrier();
	verify_after(me, k->name);
	barrier();
	if (me == 0) {
		if (k->mmio && *delay_ram(DELAY_RAM_LAST_WRITE_AT) >= mmio_done_at)
			FAIL("%s: a store to the covered I/O page was performed after completion "
			     "(at %lu, completion seen at %lu)\n", k->name,
			     (unsigned long)*delay_ram(DELAY_RAM_LAST_WRITE_AT), (unsigned long)mmio_done_at);
		for (unsigned m = 0; m < nmaps; m++)
			if (maps[m].covered && !is_mmio(m))
				for (unsigned h = 0; h < num_harts(); h++)
					if (*slot_pa(m, h) != sentinel(m, h))
						FAIL("%s: a late store from hart %u landed on covered page %u after completion\n",
						     k->name, h, m);
		case_verdict(k->name);
	}
	barrier();
}

/* Rule 8 of docs/semantics.md: a write through a cached *clean* entry (D = 0) traps,
 * so Linux may clear a clean PTE and flush later. Every hart caches clean
 * translations by reading; hart 0 clears the PTEs without any flush; reads
 * still hit the stale entries, but every write faults. Then one request
 * flushes them and reads fault too. */
static void clean_pte_case(unsigned long me)
{
	static const struct kase k = { .name = "clean-pte", K4, .nmaps = 4, .ncovered = 4 };
	if (me == 0) {
		setup(&k);
		for (unsigned m = 0; m < nmaps; m++)
			*vm_leaf(root, maps[m].va) &= ~PTE_D;
	}
	barrier();
	sfence_vma_all();
	barrier();
	uint64_t v;
	for (unsigned m = 0; m < nmaps; m++)
		CHECK(!probe_read64(slot_va(m, me), &v));
	barrier();
	if (me == 0) {
		for (unsigned m = 0; m < nmaps; m++)
			*vm_leaf(root, maps[m].va) = 0;
		__asm__ volatile("fence rw, rw" ::: "memory");
	}
	barrier();
	unsigned stale_reads = 0;
	for (unsigned m = 0; m < nmaps; m++) {
		stale_reads += !probe_read64(slot_va(m, me), &v);
		if (!probe_write64(slot_va(m, me), 1))
			FAIL("clean-pte: hart %lu wrote page %u through a clean cached entry\n", me, m);
	}
	CHECK(stale_reads == nmaps);	/* the entries really were cached */
	barrier();
	if (me == 0) {
		uint64_t *list = lists[0];
		CHECK(tlbsd_flush(0, all_harts(), list, build_list(&k, 0, list)) == 0);
	}
	barrier();
	for (unsigned m = 0; m < nmaps; m++)
		CHECK(probe_read64(slot_va(m, me), &v));
	barrier();
	if (me == 0)
		case_verdict("clean-pte");
}

/* Rule 9: every bad request is refused with its code, and a good one after
 * it still completes. */
static void error_cases(void)
{
	uint64_t *list = lists[0];
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
			FAIL("errors: %s gave %ld, want %ld\n", bad[i].what, r, bad[i].want);
			if (r > 0)	/* it was queued after all: let it finish */
				tlbsd_wait(0, (uint32_t)r);
			continue;
		}
		uint64_t e = *tlbsd_chan(0, TLBSD_CH_ERROR);
		CHECK(TLBSD_ERROR_CODE(e) == (uint64_t)-bad[i].want && TLBSD_ERROR_TICKET(e) == 0);
		/* Nothing was queued: the channel is idle. */
		CHECK(*tlbsd_chan(0, TLBSD_CH_STATUS) & TLBSD_STATUS_IDLE);
		CHECK(tlbsd_flush(0, all_harts(), list, 1) == 0);
	}
	if (*tlbsd_global(TLBSD_CTR_ERRORS) != errors + sizeof(bad) / sizeof(bad[0]))
		FAIL("errors: the ERRORS counter went from %lu to %lu over %u refused requests\n",
		     (unsigned long)errors, (unsigned long)*tlbsd_global(TLBSD_CTR_ERRORS),
		     (unsigned)(sizeof(bad) / sizeof(bad[0])));
	/* A reserved SIZE runs as a full flush and completes with an error,
	 * which STATUS shows next to the completion; also when it comes after
	 * the list has passed the ceiling. */
	uint64_t ceiling = *tlbsd_global(TLBSD_CEILING);
	*tlbsd_global(TLBSD_CEILING) = 4;
	for (unsigned n = 1; n <= 3; n += 2) {
		for (unsigned i = 0; i < n - 1; i++)
			list[i] = TLBSD_ENTRY(TLBSD_KIND_VA_ASID, TLBSD_SIZE_4K, 4, REGION_VA, ASID);
		list[n - 1] = TLBSD_ENTRY(TLBSD_KIND_VA_ASID, 3, 1, REGION_VA, ASID);
		long t = tlbsd_post(0, all_harts(), list, n);
		CHECK(t > 0);
		uint64_t s = tlbsd_wait(0, (uint32_t)t);
		CHECK(s & TLBSD_STATUS_ERROR);
		uint64_t e = *tlbsd_chan(0, TLBSD_CH_ERROR);
		if (TLBSD_ERROR_CODE(e) != TLBSD_ERR_BAD_ENTRY || TLBSD_ERROR_TICKET(e) != (uint64_t)t)
			FAIL("errors: a reserved entry after %u others: ERROR %#lx\n", n - 1, (unsigned long)e);
		*tlbsd_chan(0, TLBSD_CH_ERROR) = 0;
		CHECK(*tlbsd_chan(0, TLBSD_CH_ERROR) == 0);
		CHECK(!(*tlbsd_chan(0, TLBSD_CH_STATUS) & TLBSD_STATUS_ERROR));
	}
	*tlbsd_global(TLBSD_CEILING) = ceiling;
	/* SUBMIT_ONE refuses a reserved entry and carries a good one. */
	CHECK(tlbsd_post_one(0, all_harts(), TLBSD_ENTRY(TLBSD_KIND_VA_ALL, 3, 1, REGION_VA, 0)) ==
	      -TLBSD_ERR_BAD_ENTRY);
	*tlbsd_chan(0, TLBSD_CH_ERROR) = 0;
	CHECK(tlbsd_flush_one(0, all_harts(), TLBSD_ENTRY(TLBSD_KIND_VA_ALL, TLBSD_SIZE_4K, 1, REGION_VA, 0)) == 0);
	/* A read of SUBMIT or SUBMIT_ONE narrower than 64 bits submits
	 * nothing: each 32-bit half answers its half of -ERR_NARROW, and the
	 * next whole read takes the ticket after the last completed. */
	uint32_t done = (uint32_t)*tlbsd_chan(0, TLBSD_CH_STATUS);
	*tlbsd_chan(0, TLBSD_CH_TARGETS) = all_harts();
	*tlbsd_chan(0, TLBSD_CH_ENTRY) = TLBSD_ENTRY(TLBSD_KIND_VA_ALL, TLBSD_SIZE_4K, 1, REGION_VA, 0);
	volatile int32_t *one = (volatile int32_t *)tlbsd_chan(0, TLBSD_CH_SUBMIT_ONE);
	volatile int32_t *by_list = (volatile int32_t *)tlbsd_chan(0, TLBSD_CH_SUBMIT);
	int32_t narrow[3] = { one[0], one[1], by_list[0] };
	if (narrow[0] != -TLBSD_ERR_NARROW || narrow[1] != -1 || narrow[2] != -TLBSD_ERR_NARROW)
		FAIL("errors: 32-bit reads of SUBMIT_ONE and SUBMIT answered %d, %d and %d\n",
		     narrow[0], narrow[1], narrow[2]);
	long next = tlbsd_post_one(0, all_harts(), TLBSD_ENTRY(TLBSD_KIND_VA_ALL, TLBSD_SIZE_4K, 1, REGION_VA, 0));
	if (next != (done == 0xffffffffu ? 1 : (long)done + 1))
		FAIL("errors: after the 32-bit reads the next ticket is %ld, the last completed %u\n", next,
		     (unsigned)done);
	tlbsd_sync(0);
	/* The limits firmware sets on page 0: harts the channel may target, and
	 * where its lists may lie. */
	*tlbsd_global(TLBSD_LIMIT(0) + TLBSD_LIMIT_ALLOWED) = 1;
	CHECK(tlbsd_post(0, all_harts(), list, 1) == -TLBSD_ERR_DENIED);
	CHECK(tlbsd_post_one(0, all_harts(), list[0]) == -TLBSD_ERR_DENIED);
	*tlbsd_global(TLBSD_LIMIT(0) + TLBSD_LIMIT_ALLOWED) = (1UL << num_harts()) - 1;
	uint64_t base = *tlbsd_global(TLBSD_LIMIT(0) + TLBSD_LIMIT_LIST_BASE);
	*tlbsd_global(TLBSD_LIMIT(0) + TLBSD_LIMIT_LIST_BASE) = (uint64_t)list + 8;
	CHECK(tlbsd_post(0, all_harts(), list, 1) == -TLBSD_ERR_DENIED);
	*tlbsd_global(TLBSD_LIMIT(0) + TLBSD_LIMIT_LIST_BASE) = base;
	*tlbsd_chan(0, TLBSD_CH_ERROR) = 0;
	/* Another hart's channel takes nothing from this one and shows it
	 * nothing: every register reads 0, though hart 1 left TARGETS and
	 * ENTRY set (smode_main; hart 1 checks afterwards that they kept what
	 * it wrote). */
	static const unsigned long theirs[] = {
		TLBSD_CH_TARGETS, TLBSD_CH_LIST, TLBSD_CH_COUNT, TLBSD_CH_STATUS, TLBSD_CH_ERROR,
		TLBSD_CH_ACKED, TLBSD_CH_IRQ_ENABLE, TLBSD_CH_IRQ_PENDING, TLBSD_CH_FAILED, TLBSD_CH_ENTRY,
	};
	uint64_t foreign = *tlbsd_global(TLBSD_CTR_FOREIGN);
	for (unsigned i = 0; i < sizeof(theirs) / sizeof(theirs[0]); i++)
		if (*tlbsd_chan(1, theirs[i]))
			FAIL("errors: hart 1's register 0x%lx reads 0x%lx on hart 0\n", theirs[i],
			     (unsigned long)*tlbsd_chan(1, theirs[i]));
	*tlbsd_chan(1, TLBSD_CH_TARGETS) = 1;
	*tlbsd_chan(1, TLBSD_CH_ENTRY) = 0;
	CHECK((int64_t)*tlbsd_chan(1, TLBSD_CH_SUBMIT) == -TLBSD_ERR_FOREIGN);
	CHECK((int64_t)*tlbsd_chan(1, TLBSD_CH_SUBMIT_ONE) == -TLBSD_ERR_FOREIGN);
	CHECK(*tlbsd_global(TLBSD_CTR_FOREIGN) == foreign + 4);
	case_verdict("errors");
}

static long smode_main(void *arg)
{
	(void)arg;
	unsigned long me = hart_id();
	csr_write(satp, vm_satp(root, ASID));
	sfence_vma_all();
	if (me == 0) {
		printf("cases:");
		for (unsigned i = 0; i < NCASES; i++)
			printf(" %s", cases[i].name);
		printf("\n");
	}
	for (unsigned i = 0; i < NCASES; i++) {
		if (cases[i].special)
			cases[i].special(me);
		else
			run_case(me, &cases[i]);
	}
	return 0;
}

static void errors_case(unsigned long me)
{
	/* A request each hart's channel holds and never submits: error_cases
	 * reads hart 1's from hart 0 and must see none of it. */
	uint64_t mark = TLBSD_ENTRY(TLBSD_KIND_ASID, TLBSD_SIZE_4K, 1, 0, 0x700 + me);
	*tlbsd_chan(me, TLBSD_CH_TARGETS) = all_harts();
	*tlbsd_chan(me, TLBSD_CH_ENTRY) = mark;
	barrier();
	if (me == 0)
		error_cases();
	barrier();
	if (me != 0) {
		CHECK(*tlbsd_chan(me, TLBSD_CH_TARGETS) == all_harts());
		CHECK(*tlbsd_chan(me, TLBSD_CH_ENTRY) == mark);
	}
	barrier();	/* hart 0 ends the run only after those checks */
}

int main(unsigned long hartid)
{
	if (hartid == 0) {
		CHECK(num_harts() >= 2);
		root = vm_kernel_root();
		fence();
	}
	barrier();
	long r = run_in_smode(smode_main, 0);
	if (hartid == 0 && r == 0) {
		if (failed_cases) {
			printf("FAIL: %u of %u cases\n", failed_cases, (unsigned)NCASES);
			return 1;
		}
		printf("PASS: %u cases\n", (unsigned)NCASES);
	}
	return (int)r;
}
