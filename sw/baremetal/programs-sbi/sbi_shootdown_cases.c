/*
 * Stale-use checks for every shootdown path an S-mode kernel has under
 * OpenSBI (shootdown_paths.h), plus, with the unit's firmware, two harts
 * calling the batched extension at once and every error the extension
 * returns. Run by tests/system/test_sbi_shootdown.py on the Verilator SoC
 * (stock and unit firmware) and on QEMU (stock firmware).
 *
 * Per path and batch size: every other hart stores into each covered page
 * through the region mapping, over and over; the boot hart clears the PTEs
 * and shoots the pages down by that path. Once the path reports completion:
 *   - no target store may succeed once the target has seen the boot hart's
 *     "completed" flag (raised the moment the path returned), nor may a
 *     later load probe of any covered page, and
 *   - the boot hart writes a sentinel into each target's slot of each page
 *     through its own (identity) mapping; no later store from a target may
 *     overwrite it (a store translated before the shootdown must have been
 *     performed before completion).
 * The IPI paths must interrupt the targets (SBI PMU IPI counter); for the
 * unit's paths the PASS line says how many IPIs the targets took, which the
 * tests want to be none (but for a firmware told to fall back to IPIs).
 *
 * Prints its batch sizes ("sbi shootdown cases: batches ..."), "PASS path
 * ..." per path and batch, "PASS <what>: <got> (want <want>)" per checked
 * answer, and ends with "sbi shootdown cases: all passed (<n> checked
 * answers)" and status 0, or "FAIL ..." and 1: the tests read what to
 * expect from it, not from a copy.
 */
#include "shootdown_paths.h"

#define SLOT_OFF	0x300UL
#define MIN_PASSES	2	/* target passes over the pages before the shootdown */

#if REGION_PAGES >= 200
static const unsigned batches[] = { 1, 16, 200 };
#else
static const unsigned batches[] = { 1, REGION_PAGES };	/* the boards' payload */
#endif
#define PAIR_PAGES	(REGION_PAGES >= 16 ? 8 : REGION_PAGES / 2)	/* each caller's, concurrent FLUSH */

static struct {
	volatile unsigned gen;
	volatile unsigned first, n;
	volatile int completed, verify, exit;
	volatile unsigned done;
} ctl;
static volatile uint64_t passes[MAX_HARTS], probe_faults[MAX_HARTS], ipis[MAX_HARTS], late_stores[MAX_HARTS];
static long ipi_counter[MAX_HARTS];

#define FAIL(...) do { printf("FAIL " __VA_ARGS__); exit(1); } while (0)

static volatile uint64_t *slot_va(unsigned page, unsigned long hart)
{
	return (volatile uint64_t *)(region_va(page) + SLOT_OFF + 8 * hart);
}

static volatile uint64_t *slot_pa(unsigned page, unsigned long hart)
{
	return (volatile uint64_t *)((uint64_t)region_pages[page] + SLOT_OFF + 8 * hart);
}

static uint64_t sentinel(unsigned page, unsigned long hart) { return 0x5e47000000000000UL | page << 8 | hart; }

/* A target: store into every covered page until told to verify, then
 * probe each one, which must fault. */
static void target_loop(unsigned long me)
{
	unsigned gen = 0;
	for (;;) {
		while (ctl.gen == gen)
			;
		gen = ctl.gen;
		if (ctl.exit)
			return;
		uint64_t before = pmu_read(ipi_counter[me]);
		unsigned first = ctl.first, n = ctl.n;
		uint64_t pass = 0, late = 0;
		while (!ctl.verify) {
			for (unsigned i = first; i < first + n; i++) {
				int completed = ctl.completed;
				__asm__ volatile ("fence r, w" ::: "memory");
				if (!probe_write64(slot_va(i, me), pass << 8 | me) && completed)
					late++;
			}
			passes[me] = ++pass;
		}
		late_stores[me] = late;
		uint64_t faults = 0, v;
		for (unsigned i = first; i < first + n; i++)
			faults += probe_read64(slot_va(i, me), &v);
		probe_faults[me] = faults;
		ipis[me] = pmu_read(ipi_counter[me]) - before;
		__atomic_add_fetch(&ctl.done, 1, __ATOMIC_ACQ_REL);
	}
}

static void start_round(unsigned first, unsigned n)
{
	ctl.first = first;
	ctl.n = n;
	ctl.completed = 0;
	ctl.verify = 0;
	ctl.done = 0;
	for (unsigned h = 0; h < num_harts(); h++)
		passes[h] = 0;
	__atomic_add_fetch(&ctl.gen, 1, __ATOMIC_ACQ_REL);
}

static void wait_passes(unsigned long me)
{
	for (unsigned h = 0; h < num_harts(); h++)
		if (h != me)
			while (passes[h] < MIN_PASSES)
				;
}

static void stale_use(unsigned long me, enum path p, unsigned n)
{
	uint64_t others = ((1UL << num_harts()) - 1) & ~(1UL << me);
	uint64_t ipis_taken = 0;
	start_round(0, n);
	wait_passes(me);
	region_unmap(0, n);
	long err = flush_region(p, others, 0, n);
	ctl.completed = 1;
	if (err)
		FAIL("path %s, %u pages: the shootdown returned %ld\n", path_name[p], n, err);
	for (unsigned i = 0; i < n; i++)
		for (unsigned h = 0; h < num_harts(); h++)
			if (h != me)
				*slot_pa(i, h) = sentinel(i, h);
	ctl.verify = 1;
	while (ctl.done != num_harts() - 1)
		;
	for (unsigned h = 0; h < num_harts(); h++) {
		if (h == me)
			continue;
		if (late_stores[h])
			FAIL("path %s, %u pages: hart %u stored through a stale translation %lu times after completion\n",
			     path_name[p], n, h, late_stores[h]);
		if (probe_faults[h] != n)
			FAIL("path %s, %u pages: hart %u could still use %lu of the pages after completion\n",
			     path_name[p], n, h, n - probe_faults[h]);
		if (p < PATH_C && ipis[h] == 0)
			FAIL("path %s, %u pages: hart %u took no IPI\n", path_name[p], n, h);
		ipis_taken += ipis[h];
		for (unsigned i = 0; i < n; i++)
			if (*slot_pa(i, h) != sentinel(i, h))
				FAIL("path %s, %u pages: a late store from hart %u landed in page %u: %lx\n",
				     path_name[p], n, h, i, *slot_pa(i, h));
	}
	region_remap(0, n);
	printf("PASS path %s, %u pages: %u targets faulted on every page, no late store, %lu IPIs taken\n",
	       path_name[p], n, num_harts() - 1, ipis_taken);
}

/* Two harts call FLUSH at once, each for its own pages, all harts targets. */
static volatile unsigned both_ready, both_done;
static volatile long both_err[2];

static void concurrent_flush(unsigned long me, unsigned rank)
{
	unsigned first = rank * PAIR_PAGES;
	region_unmap(first, PAIR_PAGES);
	__atomic_add_fetch(&both_ready, 1, __ATOMIC_ACQ_REL);
	while (both_ready != 2)
		;
	both_err[rank] = flush_region(PATH_D, (1UL << num_harts()) - 1, first, PAIR_PAGES);
	__atomic_add_fetch(&both_done, 1, __ATOMIC_ACQ_REL);
	while (both_done != 2)
		;
	uint64_t v;
	for (unsigned i = 0; i < 2 * PAIR_PAGES; i++)
		if (!probe_read64((volatile uint64_t *)region_va(i), &v))
			FAIL("concurrent FLUSH: hart %lu can still use page %u\n", me, i);
}

static long flush_raw(uint64_t mask, uint64_t base, uint64_t lo, uint64_t hi, uint64_t count, uint64_t flags)
{
	return sbi_ecall(SBI_EXT_TLBSD, SBI_TLBSD_FLUSH, mask, base, lo, hi, count, flags).error;
}

static long sync_raw(void)
{
	return sbi_ecall(SBI_EXT_TLBSD, SBI_TLBSD_SYNC, 0, 0, 0, 0, 0, 0).error;
}

static unsigned answers_checked;

static void expect(const char *what, long got, long want)
{
	if (got != want)
		FAIL("%s: got %ld, want %ld\n", what, got, want);
	printf("PASS %s: %ld (want %ld)\n", what, got, want);
	answers_checked++;
}

/* Every error of the extension. Those found before submission must leave
 * the unit untouched: the channel's next ticket shows nothing was submitted. */
static void error_cases(unsigned long me)
{
	uint64_t *list = page_list(0, 4);
	uint64_t targets = (1UL << num_harts()) - 1;
	struct sbiret info = sbi_ecall(SBI_EXT_TLBSD, SBI_TLBSD_GET_INFO, 0, 0, 0, 0, 0, 0);
	expect("GET_INFO error", info.error, SBI_SUCCESS);
	uint64_t max = info.value;
	expect("GET_INFO max entries (the SoC's unit takes 4096)", max, 4096);

	long t1 = tlbsd_post(me, targets, list, 4);
	CHECK(t1 > 0);
	tlbsd_wait(me, t1);
	expect("reserved flag", flush_raw(targets, 0, (uint64_t)list, 0, 4, 2), SBI_ERR_INVALID_PARAM);
	expect("count 0", flush_raw(targets, 0, (uint64_t)list, 0, 0, 0), SBI_ERR_INVALID_PARAM);
	expect("count above the maximum", flush_raw(targets, 0, (uint64_t)list, 0, max + 1, 0), SBI_ERR_INVALID_PARAM);
	expect("hart mask naming hart 40", flush_raw(1, 40, (uint64_t)list, 0, 4, 0), SBI_ERR_INVALID_PARAM);
	expect("misaligned list", flush_raw(targets, 0, (uint64_t)list + 4, 0, 4, 0), SBI_ERR_INVALID_ADDRESS);
	expect("list_addr_hi set", flush_raw(targets, 0, (uint64_t)list, 1, 4, 0), SBI_ERR_INVALID_ADDRESS);
	expect("list in firmware memory", flush_raw(targets, 0, DRAM_BASE, 0, 4, 0), SBI_ERR_INVALID_ADDRESS);
	expect("list outside DRAM", flush_raw(targets, 0, FINISHER_BASE, 0, 4, 0), SBI_ERR_INVALID_ADDRESS);
	long t2 = tlbsd_post(me, targets, list, 4);
	tlbsd_wait(me, t2);
	expect("tickets consumed by the refused calls", t2 - t1 - 1, 0);

	expect("unknown function", sbi_ecall(SBI_EXT_TLBSD, 7, 0, 0, 0, 0, 0, 0).error, SBI_ERR_NOT_SUPPORTED);
	expect("empty hart mask", flush_raw(0, 0, (uint64_t)list, 0, 4, 0), SBI_SUCCESS);
	expect("hart mask base -1 (all harts)", flush_raw(0, -1UL, (uint64_t)list, 0, 4, 0), SBI_SUCCESS);

	list[1] |= 3UL << TLBSD_ENTRY_SIZE_SHIFT;	/* the reserved SIZE */
	expect("reserved entry, submit and wait", flush_raw(targets, 0, (uint64_t)list, 0, 4, 0), SBI_ERR_INVALID_PARAM);
	expect("reserved entry, post", flush_raw(targets, 0, (uint64_t)list, 0, 4, SBI_TLBSD_FLUSH_POST), SBI_SUCCESS);
	expect("sync after it", sync_raw(), SBI_ERR_INVALID_PARAM);
	expect("sync again", sync_raw(), SBI_SUCCESS);
	list[1] &= ~(3UL << TLBSD_ENTRY_SIZE_SHIFT);

	page_list(0, 4);
	expect("post", flush_raw(targets, 0, (uint64_t)list, 0, 4, SBI_TLBSD_FLUSH_POST), SBI_SUCCESS);
	expect("post", flush_raw(targets, 0, (uint64_t)list, 0, 4, SBI_TLBSD_FLUSH_POST), SBI_SUCCESS);
	expect("sync", sync_raw(), SBI_SUCCESS);
}

#ifndef PLATFORM_SBI_BOARD
/*
 * A target that cannot acknowledge for longer than two of the unit's
 * TIMEOUTs (2^20 cycles, the SoC's reset value): its store to the delay RAM
 * lands STUCK_DELAY cycles after it was made, and its agent waits for it.
 * Meanwhile the boot hart (1) posts a flush naming it through the
 * extension, which times out, then (2) moves a page the target has cached
 * (region page STUCK_PAGE now maps STUCK_PAGE + 1) and shoots pages
 * [0, 128) down by SBI RFENCE, one entry the unit sends page by page. The
 * target's agent, still draining for (1), queues the first 32 of (2)'s
 * pages and no more, so the unit gives up on it before it sends
 * STUCK_PAGE: only the firmware's own flush by IPI can complete (2).
 * RFENCE must return 0 (never a timeout), the target's first load after
 * RFENCE returned must see the new page, and SYNC must report (1)'s
 * timeout though (2) completed after it.
 */
#define STUCK_RANGE	128
static volatile int stuck_step;
static volatile uint64_t stuck_saw;

static void stuck_target(void)
{
	stuck_saw = hold_agent_then_load(STUCK_PAGE, STUCK_DELAY, &stuck_step);
}

static void timeout_case(unsigned long stuck)
{
	region_pages[STUCK_PAGE][0] = 0xa;
	region_pages[STUCK_PAGE + 1][0] = 0xb;
	region_remap(0, REGION_PAGES);
	while (stuck_step != 1)
		;
	for (volatile int i = 0; i < 200; i++)	/* the store leaves the target */
		;
	expect("post naming a stuck hart", flush_raw(1UL << stuck, 0, (uint64_t)page_list(0, 1), 0, 1,
						       SBI_TLBSD_FLUSH_POST), SBI_SUCCESS);
	*region_leaf[STUCK_PAGE] = region_pte[STUCK_PAGE + 1];
	/* As Linux does, go on whatever RFENCE answered; judge it after. */
	long rfence = flush_region(PATH_C, 1UL << stuck, 0, STUCK_RANGE);
	stuck_step = 2;
	while (stuck_step != 3)
		;
	expect("the stuck hart's load after RFENCE (0xb: the new page)", stuck_saw, 0xb);
	expect("RFENCE naming a stuck hart", rfence, SBI_SUCCESS);
	/* As itself: the series' patch 0008 lets OpenSBI 1.6's ecall layer
	 * pass SBI_ERR_TIMEOUT on (it made it SBI_ERR_FAILED before). */
	expect("sync after a post that timed out", sync_raw(), SBI_ERR_TIMEOUT);
	expect("sync after that", sync_raw(), SBI_SUCCESS);
	*region_leaf[STUCK_PAGE] = region_pte[STUCK_PAGE];
	sfence_vma_all();
}
#endif

int main(unsigned long hartid)
{
	if (hartid == boot_hart()) {
		CHECK(num_harts() >= 2);
		paths_setup();
		printf("sbi shootdown cases: %u harts, %s firmware\n", num_harts(),
		       unit_firmware() ? "unit" : "stock (IPI)");
		printf("sbi shootdown cases: batches");
		for (unsigned b = 0; b < sizeof(batches) / sizeof(batches[0]); b++)
			printf(" %u", batches[b]);
		printf("\n");
	}
	barrier();
	paths_enter();
	ipi_counter[hartid] = pmu_ipi_counter();
	barrier();
	if (hartid != boot_hart()) {
		target_loop(hartid);
	} else {
		for (int p = 0; p < NPATHS; p++)
			if (path_available(p))
				for (unsigned b = 0; b < sizeof(batches) / sizeof(batches[0]); b++)
					stale_use(hartid, p, batches[b]);
		ctl.exit = 1;
		__atomic_add_fetch(&ctl.gen, 1, __ATOMIC_ACQ_REL);
	}
	barrier();

	if (unit_firmware()) {
		/* The boot hart and the next one call FLUSH at once. */
		unsigned long other = (boot_hart() + 1) % num_harts();
		if (hartid == boot_hart() || hartid == other)
			concurrent_flush(hartid, hartid == boot_hart() ? 0 : 1);
		barrier();
		if (hartid == boot_hart()) {
			expect("the device tree offers the supervisor channels",
			       fdt_has_prop(TLBSD_COMPATIBLE, "tlb-shootdown,supervisor-channels"), 1);
			expect("concurrent FLUSH, first caller", both_err[0], SBI_SUCCESS);
			expect("concurrent FLUSH, second caller", both_err[1], SBI_SUCCESS);
			region_remap(0, 2 * PAIR_PAGES);
			error_cases(hartid);
		}
		barrier();
#ifndef PLATFORM_SBI_BOARD
		if (hartid == other)
			stuck_target();
		else if (hartid == boot_hart())
			timeout_case(other);
		barrier();
#endif
	}
	if (hartid == boot_hart())
		printf("sbi shootdown cases: all passed (%u checked answers)\n", answers_checked);
	return 0;
}
