/*
 * Hart h spends (h + 1) times as long in S-mode as hart 0, and the rest of
 * the run in M-mode: the harness's count of M-mode cycles per hart
 * (sim/hart_counters.h) must show each hart's S-mode share in that
 * proportion (tests/system/test_harness.py), which it can only do if it
 * reads the right core's privilege for the right hart.
 */
#include "runtime.h"

#define SPINS	4000

static long spin(void *arg)
{
	for (volatile unsigned long i = 0; i < (unsigned long)arg; i++)
		;
	return 0;
}

int main(unsigned long hartid)
{
	barrier();
	run_in_smode(spin, (void *)(SPINS * (hartid + 1)));
	barrier();
	return 0;
}
