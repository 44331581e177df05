/*
 * The litmus tests (common/litmus_core.h, docs/litmus.md) through the
 * unit's channels, each hart posting on its own channel from S-mode; a
 * sleeping hart waits in M-mode WFI with interrupts off and is woken by its
 * MSIP. Exits 1 if a request was refused.
 */
#include "litmus_core.h"

static long lt_request(unsigned me, uint64_t targets, const uint64_t *list, unsigned count, int wait)
{
	long ticket = tlbsd_post(me, targets, list, count);
	if (ticket <= 0)
		return ticket ? ticket : -1;
	if (wait)
		tlbsd_wait(me, (uint32_t)ticket);
	return 0;
}

static void lt_sync(unsigned me) { tlbsd_sync(me); }

static long sleep_in_mmode(void *arg)
{
	unsigned long me = (unsigned long)arg;
	csr_set(mie, MIP_MSIP);
	while (!wake[me])
		wfi();
	csr_clear(mie, MIP_MSIP);
	((volatile uint32_t *)CLINT_BASE)[me] = 0;
	return 0;
}

static void lt_sleep(unsigned me) { call_in_mmode(sleep_in_mmode, (void *)(unsigned long)me); }

static void lt_wake(unsigned hart) { ((volatile uint32_t *)CLINT_BASE)[hart] = 1; }

static long smode_main(void *arg)
{
	(void)arg;
	return litmus_main(hart_id());
}

int main(unsigned long hartid)
{
	if (hartid == 0) {
		base_root = vm_kernel_root();
		printf("litmus-backend unit\n");
	}
	barrier();
	long r = run_in_smode(smode_main, 0);
	if (hartid == 0)
		printf("litmus-done\n");
	return (int)r;
}
