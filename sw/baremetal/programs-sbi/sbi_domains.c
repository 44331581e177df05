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
	switch_got[SW_START] = sbi_start_hart(3);
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
		if (switching)
			switch_case();
		return 0;
	}
	if (hartid == 3) {
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
	for (unsigned long spins = 0; !done[1] || (switching && !switch_done); spins++)
		if (spins == 200000000UL) {
			printf("FAIL B: domain B's harts never finished (step %d)\n", step);
			return 1;
		}
	fence();
	int bad = report(0) + report(1);
	for (unsigned c = 0; switching && c < SWITCH_CHECKS; c++) {
		int ok = switch_got[c] == switch_checks[c].want;
		printf("%s B: %s: %ld (want %ld)\n", ok ? "PASS" : "FAIL", switch_checks[c].what, switch_got[c],
		       switch_checks[c].want);
		bad += !ok;
	}
	printf("sbi domains: %d checks, %d failed\n", 2 * CHECKS + (switching ? SWITCH_CHECKS : 0), bad);
	return bad != 0;
}
