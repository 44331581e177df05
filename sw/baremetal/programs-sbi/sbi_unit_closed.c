/*
 * A unit the device tree describes wrongly stays closed to S-mode (issue 55,
 * item 10). Runs under the firmware of `sw/opensbi/build.sh --mutant
 * fdt-small-reg`, which shrinks the unit node's reg to 4 KiB before the
 * drivers probe: the driver must not take the unit and must keep its whole
 * 64 KiB window M-mode only. S-mode here tries the global page (INFO,
 * CEILING) and its own channel page: every access must fault (PMP), CEILING
 * must not change, and the batched extension must not be offered. Before
 * the driver protected such a unit, the accesses went through.
 *
 * The boot hart prints "PASS|FAIL <what>: <value> (want <value>)" for each
 * check, then "sbi unit closed: <n> checks, <k> failed", and ends with
 * status 0, or 1 if a check failed.
 */
#include "runtime.h"
#include "sbi_tlbsd.h"
#include "shootdown.h"

static unsigned checks, failed;

static void expect(const char *what, long got, long want)
{
	int ok = got == want;
	printf("%s %s: %ld (want %ld)\n", ok ? "PASS" : "FAIL", what, got, want);
	checks++;
	failed += !ok;
}

int main(unsigned long hartid)
{
	if (hartid != boot_hart())
		return 0;
	volatile uint64_t *ceiling = (volatile uint64_t *)(TLBSD_BASE + TLBSD_CEILING);
	volatile uint64_t *channel = (volatile uint64_t *)(TLBSD_BASE + TLBSD_CHANNEL(hartid) + TLBSD_CH_STATUS);
	uint64_t before = 0, after = 0, v = 0;

	expect("S-mode reads INFO (faulted)", probe_read64((volatile uint64_t *)(TLBSD_BASE + TLBSD_INFO), &v), 1);
	expect("S-mode reads CEILING (faulted)", probe_read64(ceiling, &before), 1);
	expect("S-mode writes CEILING (faulted)", probe_write64(ceiling, 1), 1);
	expect("S-mode reads CEILING again (faulted)", probe_read64(ceiling, &after), 1);
	expect("CEILING as S-mode read it, unchanged", after == before, 1);
	expect("S-mode reads its channel's STATUS (faulted)", probe_read64(channel, &v), 1);
	expect("the batched extension offered",
	       sbi_ecall(SBI_EXT_BASE, SBI_BASE_PROBE_EXT, SBI_EXT_TLBSD, 0, 0, 0, 0, 0).value != 0, 0);
	printf("sbi unit closed: %u checks, %u failed\n", checks, failed);
	return failed != 0;
}
