/*
 * The litmus tests (common/litmus_core.h, docs/litmus.md) through SBI
 * RFENCE: one call per entry, which returns when every target has flushed
 * (so a post is as good as a wait, and a sync has nothing to do). Under
 * stock OpenSBI the targets are interrupted and flush themselves; under
 * the project's series the unit carries the calls out. A sleeping hart
 * waits in S-mode WFI with interrupts off until an SBI IPI.
 */
#define BACKEND "sbi-rfence"
#include "litmus_core.h"
#include "litmus_sbi.h"

static long lt_request(unsigned me, uint64_t targets, const uint64_t *list, unsigned count, int wait)
{
	(void)me;
	(void)wait;
	for (unsigned i = 0; i < count; i++) {
		uint64_t e = list[i];
		unsigned kind = e & 3, size = (e >> TLBSD_ENTRY_SIZE_SHIFT) & 3;
		uint64_t pages = ((e >> TLBSD_ENTRY_PAGES_SHIFT) & 0xff) + 1, va = e & TLBSD_ENTRY_VA_MASK;
		uint64_t asid = e >> TLBSD_ENTRY_ASID_SHIFT, bytes = pages << (12 + 9 * size);
		struct sbiret r;
		if (kind == TLBSD_KIND_VA_ASID)
			r = sbi_ecall(SBI_EXT_RFENCE, SBI_RFENCE_SFENCE_VMA_ASID, targets, 0, va, bytes, asid, 0);
		else if (kind == TLBSD_KIND_VA_ALL)
			r = sbi_ecall(SBI_EXT_RFENCE, SBI_RFENCE_SFENCE_VMA, targets, 0, va, bytes, 0, 0);
		else if (kind == TLBSD_KIND_ASID)
			r = sbi_ecall(SBI_EXT_RFENCE, SBI_RFENCE_SFENCE_VMA_ASID, targets, 0, 0, -1UL, asid, 0);
		else
			r = sbi_ecall(SBI_EXT_RFENCE, SBI_RFENCE_SFENCE_VMA, targets, 0, 0, -1UL, 0, 0);
		if (r.error)
			return r.error;
	}
	return 0;
}

static void lt_sync(unsigned me) { (void)me; }

