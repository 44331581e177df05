/*
 * A kind-ASID shootdown racing an L2 TLB refill (common/l2_refill_race.h),
 * requested through the firmware: (d) the batched SBI extension with one
 * kind-ASID entry, then (c) SBI RFENCE sfence.vma.asid over the whole
 * address space, which the unit's driver sends as the same entry. The boot
 * hart initiates, every other hart is a target. Needs the unit's firmware.
 * Exits 0 when neither path left a stale translation and each made the race.
 */
#include "l2_refill_race.h"
#include "shootdown_paths.h"

#define ROUNDS	400

static pte_t *root;
static uint64_t list[MAX_HARTS][1] __attribute__((aligned(64)));

static long flush_by_extension(uint64_t targets)
{
	uint64_t *l = list[hart_id()];
	l[0] = TLBSD_ENTRY(TLBSD_KIND_ASID, TLBSD_SIZE_4K, 1, 0, ASID);
	return sbi_ecall(SBI_EXT_TLBSD, SBI_TLBSD_FLUSH, targets, 0, (uint64_t)l, 0, 1, 0).error;
}

static long flush_by_rfence(uint64_t targets)
{
	return sbi_ecall(SBI_EXT_RFENCE, SBI_RFENCE_SFENCE_VMA_ASID, targets, 0, 0, -1UL, ASID, 0).error;
}

int main(unsigned long hartid)
{
	static const struct { const char *path; long (*flush)(uint64_t); } paths[] = {
		{ "d", flush_by_extension },
		{ "c", flush_by_rfence },
	};
	unsigned long init = boot_hart();
	if (hartid == init) {
		CHECK(num_harts() >= 2);
		if (!unit_firmware()) {
			printf("FAIL l2-refill-race: the firmware has no unit driver\n");
			return 1;
		}
		root = vm_kernel_root();
		race_setup(root);
	}
	barrier();
	csr_write(satp, vm_satp(root, ASID));
	sfence_vma_all();
	int failed = 0;
	for (unsigned p = 0; p < sizeof(paths) / sizeof(paths[0]); p++) {
		race_reset(init);
		if (hartid == init)
			failed |= race_report(paths[p].path, race_initiate(hartid, ROUNDS, paths[p].flush));
		else
			race_target(hartid, ROUNDS);
	}
	barrier();
	if (hartid == init && !failed)
		printf("PASS: l2-refill-race\n");
	return failed;
}
