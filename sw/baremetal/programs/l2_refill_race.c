/*
 * A kind-ASID request racing an L2 TLB refill (common/l2_refill_race.h), with
 * the unit driven from S-mode through the initiator's own channel. Hart 0
 * initiates, every other hart is a target. Exits 0 when no target used a
 * stale translation after completion and some racing walk went through the
 * replaced table; 1 otherwise.
 */
#include "l2_refill_race.h"
#include "shootdown.h"

#define ASID	1
#define ROUNDS	600

static pte_t *root;
static uint64_t list[1] __attribute__((aligned(64)));

static long flush_by_unit(uint64_t targets)
{
	list[0] = TLBSD_ENTRY(TLBSD_KIND_ASID, TLBSD_SIZE_4K, 1, 0, ASID);
	return tlbsd_flush(hart_id(), targets, list, 1);
}

static long smode_main(void *arg)
{
	(void)arg;
	unsigned long me = hart_id();
	csr_write(satp, vm_satp(root, ASID));
	sfence_vma_all();
	barrier();
	if (me != 0) {
		race_target(me, ROUNDS);
		return 0;
	}
	return race_report("unit", race_initiate(me, ROUNDS, flush_by_unit));
}

int main(unsigned long hartid)
{
	if (hartid == 0) {
		CHECK(num_harts() >= 2);
		root = vm_kernel_root();
		race_setup(root);
	}
	barrier();
	long r = run_in_smode(smode_main, 0);
	if (hartid == 0 && r == 0)
		printf("PASS: l2-refill-race\n");
	return (int)r;
}
