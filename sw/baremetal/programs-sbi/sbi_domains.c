/*
 * The unit's channel limits follow OpenSBI's domains (issue 30, item 2).
 * Runs on the 4-hart SoC under the firmware of `sw/opensbi/build.sh
 * --domains`, whose device tree (sw/opensbi/domains.dts) splits the harts
 * into two domains that share this image (DRAM_BASE + 2 MiB) and each own
 * 4 MiB of RAM:
 *   A  harts 0 and 1, RAM at A_RAM; hart 0 boots it at _start
 *   B  harts 2 and 3, RAM at B_RAM; hart 2 boots it at _start + 4
 * Each side asks, directly on its channel and through the batched
 * extension, for a flush whose list lies in the other side's RAM and for
 * one that targets a hart of the other side: every one must be refused
 * (the unit answers ERR_DENIED, the extension SBI_ERR_INVALID_ADDRESS and
 * SBI_ERR_INVALID_PARAM), and the same requests within the side's own RAM
 * and harts must succeed. Neither side ever touches the other's RAM: PMP
 * would stop it, and the unit must too.
 *
 * Then B's harts leave a domain with a posted request the unit gave up on
 * (issue 55, item 7), if the firmware has the test hook that switches a
 * hart's domain context through OpenSBI's own functions
 * (sw/opensbi/mutants/domain-switch.patch; hart 3 may visit domain C of
 * domains.dts). Hart 2 caches the translation of region page STUCK_PAGE,
 * then holds its flush agent with a store to the delay RAM that lands
 * STUCK_DELAY cycles later (three of the unit's TIMEOUTs). Hart 3 posts,
 * through the batched extension, a one-page request naming hart 2, whose
 * `end` then waits at the head of the agent's queue for the drain; it
 * moves the page (STUCK_PAGE now maps STUCK_PAGE + 1) and posts one entry
 * of 128 pages naming hart 2: the agent queues 32 of them behind that
 * `end` and takes no more, so the unit gives up on hart 2 before it sends
 * STUCK_PAGE. Before it collects that (SYNC), hart 3
 * leaves B for C and comes back. Its SYNC must still report the timeout,
 * and hart 2's first load once told must see the new page (0xb): the
 * firmware flushed hart 2 by IPI when hart 3 left with the unit's give-up
 * uncollected. Before it did (its domain-switch hook cleared the
 * channel's ERRORS and FAILED), SYNC returned 0 and hart 2 loaded 0xa, a
 * stale translation.
 *
 * Between the two, domain B stalls its own shootdowns while domain A
 * measures its own (issue 55, item 9): hart 2 keeps a store to the delay
 * RAM in flight, each landing ISO_DELAY cycles after it was made, and hart
 * 3 posts one-entry requests naming hart 2, each of which waits for that
 * drain; meanwhile hart 0 times ISO_REQUESTS one-entry requests of its own
 * to hart 1 (post to completion, in cycles) and prints their median, 99th
 * percentile and maximum. Each must stay near A's own cost: the check is a
 * 99th percentile under ISO_BOUND cycles. Until 2026-12-08 the unit
 * completed all requests in the order they started, so A's waited behind
 * B's for up to ISO_DELAY cycles.
 *
 * Hart 0 prints "PASS|FAIL <side>: <what>: <value> (want <value>)" for
 * every check of both sides, then "sbi domains: <n> checks, <k> failed",
 * and ends with status 0, or 1 if a check failed.
 */
#include "runtime.h"
#include "sbi_tlbsd.h"
#include "shootdown.h"
#include "shootdown_paths.h"

#define A_RAM		(DRAM_BASE + 0x400000)
#define B_RAM		(DRAM_BASE + 0x800000)
#define LIST_ENTRIES	4
#define READY		0x600d5eedU

struct side {
	const char *name;
	unsigned long hart, partner, other;	/* the boot hart, its domain's other hart, a hart of the other domain */
	uint64_t *own_list;			/* in the side's own RAM */
	uint64_t other_list;			/* in the other side's RAM: never touched */
};

static const struct side sides[2] = {
	{ "A", 0, 1, 2, (uint64_t *)A_RAM, B_RAM },
	{ "B", 2, 3, 0, (uint64_t *)B_RAM, A_RAM },
};

enum check {
	DIRECT_OWN,
	DIRECT_OTHER_LIST,
	DIRECT_OTHER_TARGET,
	DIRECT_OTHER_TARGET_ONE,
	SBI_OWN,
	SBI_OTHER_LIST,
	SBI_OTHER_TARGET,
	CHECKS
};

static const struct {
	const char *what;
	long want;
} checks[CHECKS] = {
	[DIRECT_OWN] = { "direct, list in its own RAM, its own harts", 0 },
	[DIRECT_OTHER_LIST] = { "direct, list in the other domain's RAM", -TLBSD_ERR_DENIED },
	[DIRECT_OTHER_TARGET] = { "direct, a target in the other domain", -TLBSD_ERR_DENIED },
	[DIRECT_OTHER_TARGET_ONE] = { "direct, one entry for a target in the other domain", -TLBSD_ERR_DENIED },
	[SBI_OWN] = { "SBI FLUSH, list in its own RAM, its own harts", SBI_SUCCESS },
	[SBI_OTHER_LIST] = { "SBI FLUSH, list in the other domain's RAM", SBI_ERR_INVALID_ADDRESS },
	[SBI_OTHER_TARGET] = { "SBI FLUSH, a target in the other domain", SBI_ERR_INVALID_PARAM },
};

#define SBI_EXT_DSWITCH	0x08445357	/* the test hook (sw/opensbi/mutants/domain-switch.patch) */
#define DSWITCH_EXIT	0
#define DSWITCH_ENTER	1
#define STUCK_PAGES	128

#define ISO_DELAY	5000UL	/* cycles each of hart 2's stores takes to land */
#define ISO_REQUESTS	1000
#define ISO_BOUND	1000UL	/* cycles: A's 99th percentile must stay under it */
#define ISO_BUDGET	6000000UL	/* cycles: A stops timing after them, however many it has */

enum switch_check { SW_START, SW_POST_ONE, SW_POST, SW_LEAVE, SW_VISITS, SW_SYNC, SW_LOAD, SWITCH_CHECKS };

static const struct {
	const char *what;
	long want;
} switch_checks[SWITCH_CHECKS] = {
	[SW_START] = { "hart 2 starts hart 3", SBI_SUCCESS },
	[SW_POST_ONE] = { "post of one page naming the held hart 2", SBI_SUCCESS },
	[SW_POST] = { "post of 128 pages naming it", SBI_SUCCESS },
	[SW_LEAVE] = { "hart 3 leaves B for C and comes back", SBI_SUCCESS },
	[SW_VISITS] = { "hart 3's visits to C", 1 },
	[SW_SYNC] = { "sync after the visit", SBI_ERR_TIMEOUT },
	[SW_LOAD] = { "the held hart's load after that (0xb: the new page)", 0xb },
};

/* In .bss of the shared image: hart 0 clears it before it sets `ready`. */
static volatile uint32_t ready;
static volatile long got[2][CHECKS];
static volatile uint32_t done[2];
static volatile long switch_got[SWITCH_CHECKS];
static volatile int step, switch_set_up, switching, switch_done;
/* The isolation phase: B's harts in place (2), A done timing, B's harts out. */
static volatile int iso_go, iso_ready, iso_stop, iso_left;
static volatile uint64_t iso_rounds, iso_errors;
static uint64_t iso_took[ISO_REQUESTS];

static long flush(uint64_t mask, uint64_t list, uint64_t count)
{
	return sbi_ecall(SBI_EXT_TLBSD, SBI_TLBSD_FLUSH, mask, 0, list, 0, count, 0).error;
}

static void run_side(unsigned s)
{
	const struct side *d = &sides[s];
	uint64_t own = 1UL << d->hart | 1UL << d->partner;
	volatile long *r = got[s];

	for (unsigned i = 0; i < LIST_ENTRIES; i++)
		d->own_list[i] = TLBSD_ENTRY(TLBSD_KIND_VA_ALL, TLBSD_SIZE_4K, 1, 0x40000000UL + (i << 12), 0);
	fence();
	r[DIRECT_OWN] = tlbsd_flush(d->hart, own, d->own_list, LIST_ENTRIES);
	r[DIRECT_OTHER_LIST] = tlbsd_flush(d->hart, own, (const uint64_t *)d->other_list, LIST_ENTRIES);
	r[DIRECT_OTHER_TARGET] = tlbsd_flush(d->hart, own | 1UL << d->other, d->own_list, LIST_ENTRIES);
	r[DIRECT_OTHER_TARGET_ONE] = tlbsd_flush_one(d->hart, 1UL << d->other, d->own_list[0]);
	r[SBI_OWN] = flush(own, (uint64_t)d->own_list, LIST_ENTRIES);
	r[SBI_OTHER_LIST] = flush(own, d->other_list, LIST_ENTRIES);
	r[SBI_OTHER_TARGET] = flush(1UL << d->other, (uint64_t)d->own_list, LIST_ENTRIES);
	fence();
	done[s] = 1;
}

/* Hart 2 in the isolation phase: a store to the delay RAM always in flight. */
static void iso_slow_target(void)
{
	volatile uint64_t *delay_reg = (volatile uint64_t *)(DELAY_RAM_BASE + DELAY_RAM_DELAY);

	while (!iso_go)
		;
	*delay_reg = ISO_DELAY;
	(void)*delay_reg;	/* the delay is set before the stores below */
	__atomic_add_fetch(&iso_ready, 1, __ATOMIC_ACQ_REL);
	while (!iso_stop)
		*(volatile uint64_t *)DELAY_RAM_BASE = 1;
	*delay_reg = 0;
	(void)*delay_reg;
	__atomic_add_fetch(&iso_left, 1, __ATOMIC_ACQ_REL);
}

/* Hart 3 in the isolation phase: one-entry requests naming hart 2, each
 * waited for (its drain) before the next. */
static void iso_initiator(void)
{
	uint64_t entry = TLBSD_ENTRY(TLBSD_KIND_VA_ALL, TLBSD_SIZE_4K, 1, 0x40000000UL, 0);

	while (!iso_go)
		;
	__atomic_add_fetch(&iso_ready, 1, __ATOMIC_ACQ_REL);
	while (!iso_stop) {
		long t = tlbsd_post_one(3, 1UL << 2, entry);
		if (t <= 0 || tlbsd_result(3, (uint32_t)t, tlbsd_wait(3, (uint32_t)t)) != 0)
			iso_errors++;
		iso_rounds++;
	}
	__atomic_add_fetch(&iso_left, 1, __ATOMIC_ACQ_REL);
}

static void sort(uint64_t *v, unsigned n)
{
	for (unsigned gap = n / 2; gap > 0; gap /= 2)
		for (unsigned i = gap; i < n; i++)
			for (unsigned j = i; j >= gap && v[j - gap] > v[j]; j -= gap) {
				uint64_t t = v[j];
				v[j] = v[j - gap];
				v[j - gap] = t;
			}
}

/* Hart 0 in the isolation phase: its requests to hart 1 timed while B
 * stalls its own; 1 if the 99th percentile stayed under ISO_BOUND. */
static long iso_measure(void)
{
	uint64_t entry = TLBSD_ENTRY(TLBSD_KIND_VA_ALL, TLBSD_SIZE_4K, 1, 0x40000000UL, 0);
	unsigned n = 0, bad = 0;

	iso_go = 1;
	fence();
	while (iso_ready != 2)
		;
	uint64_t start = rdcycle();
	for (; n < ISO_REQUESTS && rdcycle() - start < ISO_BUDGET; n++) {
		uint64_t t0 = rdcycle();
		long t = tlbsd_post_one(0, 1UL << 1, entry);
		bad += t <= 0 || tlbsd_result(0, (uint32_t)t, tlbsd_wait(0, (uint32_t)t)) != 0;
		iso_took[n] = rdcycle() - t0;
	}
	uint64_t elapsed = rdcycle() - start;
	iso_stop = 1;
	fence();
	while (iso_left != 2)
		;
	if (n == 0)
		return 0;
	sort(iso_took, n);
	uint64_t p99 = iso_took[n * 99 / 100];
	printf("isolation: A's SUBMIT_ONE to hart 1, %u requests in %lu cycles: median %lu, p99 %lu, max %lu cycles; "
	       "B's %lu requests to a hart whose stores take %lu cycles, %lu failed; A's failed %u\n",
	       n, (unsigned long)elapsed, (unsigned long)iso_took[n / 2], (unsigned long)p99,
	       (unsigned long)iso_took[n - 1], (unsigned long)iso_rounds, ISO_DELAY, (unsigned long)iso_errors, bad);
	return n == ISO_REQUESTS && bad == 0 && iso_errors == 0 && p99 < ISO_BOUND;
}

/* Hart 3: its list in B's RAM, past the checks' lists */
static void initiator(void)
{
	uint64_t *list = (uint64_t *)B_RAM + LIST_ENTRIES;

	while (step != 1)
		;
	for (volatile int i = 0; i < 200; i++)	/* the store leaves the target */
		;
	list[0] = TLBSD_ENTRY(TLBSD_KIND_VA_ALL, TLBSD_SIZE_4K, 1, region_va(0), 0);
	fence();
	switch_got[SW_POST_ONE] =
		sbi_ecall(SBI_EXT_TLBSD, SBI_TLBSD_FLUSH, 1UL << 2, 0, (uint64_t)list, 0, 1, SBI_TLBSD_FLUSH_POST).error;
	*region_leaf[STUCK_PAGE] = region_pte[STUCK_PAGE + 1];
	list[1] = TLBSD_ENTRY(TLBSD_KIND_VA_ALL, TLBSD_SIZE_4K, STUCK_PAGES, region_va(0), 0);
	fence();
	switch_got[SW_POST] =
		sbi_ecall(SBI_EXT_TLBSD, SBI_TLBSD_FLUSH, 1UL << 2, 0, (uint64_t)&list[1], 0, 1, SBI_TLBSD_FLUSH_POST)
			.error;
	switch_got[SW_LEAVE] = sbi_ecall(SBI_EXT_DSWITCH, DSWITCH_EXIT, 0, 0, 0, 0, 0, 0).error;
	switch_got[SW_SYNC] = sbi_ecall(SBI_EXT_TLBSD, SBI_TLBSD_SYNC, 0, 0, 0, 0, 0, 0).error;
	step = 2;
	while (step != 3)
		;
	*region_leaf[STUCK_PAGE] = region_pte[STUCK_PAGE];
}

/* Hart 3 in C, untranslated: count the visit and go back to B. */
void other_domain_entry(unsigned long hartid)
{
	(void)hartid;
	switch_got[SW_VISITS]++;
	fence();
	sbi_ecall(SBI_EXT_DSWITCH, DSWITCH_ENTER, 2, 0, 0, 0, 0, 0);	/* returns only if it failed */
}

/* Hart 2, after B's checks: hart 3's posted request and its visit to C */
static void switch_case(void)
{
	paths_setup();
	region_pages[STUCK_PAGE][0] = 0xa;
	region_pages[STUCK_PAGE + 1][0] = 0xb;
	fence();
	paths_enter();
	switch_set_up = 1;
	switch_got[SW_LOAD] = hold_agent_then_load(STUCK_PAGE, STUCK_DELAY, &step);
}

static int report(unsigned s)
{
	int bad = 0;

	for (unsigned c = 0; c < CHECKS; c++) {
		int ok = got[s][c] == checks[c].want;
		printf("%s %s: %s: %ld (want %ld)\n", ok ? "PASS" : "FAIL", sides[s].name, checks[c].what, got[s][c],
		       checks[c].want);
		bad += !ok;
	}
	return bad;
}

int main(unsigned long hartid)
{
	if (hartid == sides[1].hart) {
		while (ready != READY)
			;
		run_side(1);
		switch_got[SW_START] = sbi_start_hart(3);
		iso_slow_target();
		if (switching)
			switch_case();
		return 0;
	}
	if (hartid == 3) {
		iso_initiator();
		if (!switching)
			return 0;
		while (!switch_set_up)
			;
		paths_enter();
		initiator();
		fence();
		switch_done = 1;
		return 0;
	}
	if (hartid != sides[0].hart)
		return 0;

	switching = sbi_ecall(SBI_EXT_BASE, SBI_BASE_PROBE_EXT, SBI_EXT_DSWITCH, 0, 0, 0, 0, 0).value != 0;
	ready = READY;
	fence();
	run_side(0);
	for (unsigned long spins = 0; !done[1]; spins++)
		if (spins == 200000000UL) {
			printf("FAIL B: domain B's harts never finished their checks\n");
			return 1;
		}
	long isolated = iso_measure();
	for (unsigned long spins = 0; switching && !switch_done; spins++)
		if (spins == 200000000UL) {
			printf("FAIL B: domain B's harts never finished (step %d)\n", step);
			return 1;
		}
	fence();
	int bad = report(0) + report(1);
	printf("%s A: SUBMIT_ONE's p99 under %lu cycles while B stalls its own: %ld (want 1)\n",
	       isolated ? "PASS" : "FAIL", ISO_BOUND, isolated);
	bad += !isolated;
	for (unsigned c = 0; switching && c < SWITCH_CHECKS; c++) {
		int ok = switch_got[c] == switch_checks[c].want;
		printf("%s B: %s: %ld (want %ld)\n", ok ? "PASS" : "FAIL", switch_checks[c].what, switch_got[c],
		       switch_checks[c].want);
		bad += !ok;
	}
	printf("sbi domains: %d checks, %d failed\n", 2 * CHECKS + 1 + (switching ? SWITCH_CHECKS : 0), bad);
	return bad != 0;
}
