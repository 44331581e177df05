/*
 * The litmus tests (common/litmus_core.h, docs/litmus.md) through the
 * batched SBI extension (docs/sbi-batched-shootdown.md): a shoot is one
 * FLUSH, a post one FLUSH with POST, a sync one SYNC. Needs the project's
 * OpenSBI with the unit. A sleeping hart waits in S-mode WFI with
 * interrupts off until an SBI IPI.
 */
#define BACKEND "sbi-ext"
#include "litmus_core.h"
#include "litmus_sbi.h"
#include "sbi_tlbsd.h"

static long lt_request(unsigned me, uint64_t targets, const uint64_t *list, unsigned count, int wait)
{
	(void)me;
	return sbi_ecall(SBI_EXT_TLBSD, SBI_TLBSD_FLUSH, targets, 0, (uint64_t)list, 0, count,
			 wait ? 0 : SBI_TLBSD_FLUSH_POST).error;
}

static void lt_sync(unsigned me)
{
	(void)me;
	struct sbiret r = sbi_ecall(SBI_EXT_TLBSD, SBI_TLBSD_SYNC, 0, 0, 0, 0, 0, 0);
	if (r.error) {
		printf("litmus error: hart %u: SYNC failed (%ld)\n", me, r.error);
		errors = 1;
	}
}

