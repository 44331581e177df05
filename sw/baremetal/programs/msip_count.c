/*
 * The boot hart raises every other hart's machine software interrupt a
 * known number of times (hart h: 2 + h), with the interrupt masked so that
 * nobody takes it: test_harness.py checks the harness's count of msip
 * rises against that.
 */
#include "runtime.h"

int main(unsigned long hartid)
{
	volatile uint32_t *msip = (volatile uint32_t *)CLINT_BASE;

	if (hartid == boot_hart())
		for (unsigned h = 0; h < num_harts(); h++)
			for (unsigned n = 0; h != hartid && n < 2 + h; n++) {
				msip[h] = 1;
				(void)msip[h];
				msip[h] = 0;
				(void)msip[h];
			}
	barrier();
	return 0;
}
