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
 * Hart 0 prints "PASS|FAIL <side>: <what>: <value> (want <value>)" for
 * every check of both sides, then "sbi domains: <n> checks, <k> failed",
 * and ends with status 0, or 1 if a check failed.
 */
#include "runtime.h"
#include "sbi_tlbsd.h"
#include "shootdown.h"

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

/* In .bss of the shared image: hart 0 clears it before it sets `ready`. */
static volatile uint32_t ready;
static volatile long got[2][CHECKS];
static volatile uint32_t done[2];

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
		return 0;
	}
	if (hartid != sides[0].hart)
		return 0;

	ready = READY;
	fence();
	run_side(0);
	for (unsigned long spins = 0; !done[1]; spins++)
		if (spins == 100000000UL) {
			printf("FAIL B: domain B's boot hart never finished\n");
			return 1;
		}
	fence();
	int bad = report(0) + report(1);
	printf("sbi domains: %d checks, %d failed\n", 2 * CHECKS, bad);
	return bad != 0;
}
