/*
 * make fw-profile: where OpenSBI's cycles go in one shootdown call, read from
 * the debug model's commit trace by scripts/fw_profile.py.
 *
 * The boot hart makes each call three times from S-mode, each time from a
 * function of its own named profile_<call>; the script takes the last call
 * (caches and TLBs warm) and splits the cycles between the ecall and the
 * return among OpenSBI's functions. The calls: an SBI call that does nothing
 * (BASE get_spec_version), SBI RFENCE of 32 pages on up to 3 targets (path c
 * of the demo: the unit behind RFENCE) and the batched extension with the
 * same pages as a list (path d). The other harts spin in S-mode; the unit
 * flushes them without a trap.
 */
#include "shootdown_paths.h"

#define PAGES		32
#define CALLS		3

static volatile int finished;

long profile_null(void);
long profile_rfence(uint64_t targets);
long profile_batched(uint64_t targets);

__attribute__((noinline)) long profile_null(void)
{
	return sbi_ecall(SBI_EXT_BASE, 0, 0, 0, 0, 0, 0, 0).error;
}

__attribute__((noinline)) long profile_rfence(uint64_t targets)
{
	return flush_region(PATH_C, targets, 0, PAGES);
}

__attribute__((noinline)) long profile_batched(uint64_t targets)
{
	return flush_region(PATH_D, targets, 0, PAGES);
}

int main(unsigned long hartid)
{
	if (hartid == boot_hart()) {
		CHECK(num_harts() >= 2);
		CHECK(unit_firmware());
		paths_setup();
	}
	barrier();
	paths_enter();
	barrier();
	if (hartid != boot_hart()) {
		while (!finished)
			;
		return 0;
	}
	unsigned harts[3], n = 0;
	for (unsigned h = 0; h < num_harts() && n < 3; h++)
		if (h != hartid)
			harts[n++] = h;
	uint64_t targets = hart_mask_of(harts, n);
	for (unsigned i = 0; i < CALLS; i++) {
		CHECK(profile_null() == 0);
		CHECK(profile_rfence(targets) == 0);
		CHECK(profile_batched(targets) == 0);
	}
	finished = 1;
	printf("fw_profile: %u calls each of null, rfence and batched, %u pages on %u targets\n", CALLS, PAGES, n);
	return 0;
}
