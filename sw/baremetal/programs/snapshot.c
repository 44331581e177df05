/*
 * The harness's snapshot (sim/main.cpp: +fork-seeds, +snapshot-seed): hart 0
 * writes the finisher's snapshot command once every hart is past start-up;
 * then every hart reads and writes its own 256 KiB buffer, each line for the
 * first time, so through DRAM and its jitter, and hart 0 prints the cycles
 * each hart took. What it prints depends on the memory's timing after the
 * snapshot, so a run reseeded there shows it. Elsewhere (QEMU's sifive_test
 * ignores the command) it is one more memory-walking program.
 */
#include "runtime.h"

#define BUF_BYTES	(256 * 1024)
#define LINE		64
#define MAX_HARTS	8

static uint8_t buf[MAX_HARTS][BUF_BYTES] __attribute__((aligned(LINE)));
static volatile unsigned long took[MAX_HARTS];

int main(unsigned long hartid)
{
	CHECK(num_harts() <= MAX_HARTS);
	barrier();
	if (hartid == boot_hart()) {
		printf("snapshot at cycle %lu\n", (unsigned long)rdcycle());
		fence();
		*(volatile uint32_t *)FINISHER_BASE = FINISHER_SNAPSHOT;
		fence();
	}
	barrier();
	unsigned long t0 = rdcycle();
	for (unsigned i = 0; i < BUF_BYTES; i += LINE)
		buf[hartid][i] = (uint8_t)(i / LINE + hartid);
	uint64_t sum = 0;
	for (unsigned i = 0; i < BUF_BYTES; i += LINE)
		sum += buf[hartid][i];
	took[hartid] = rdcycle() - t0;
	uint64_t want = 0;
	for (unsigned i = 0; i < BUF_BYTES; i += LINE)
		want += (uint8_t)(i / LINE + hartid);
	CHECK(sum == want);
	barrier();
	if (hartid == boot_hart())
		for (unsigned h = 0; h < num_harts(); h++)
			printf("hart %u: %lu cycles\n", h, took[h]);
	return 0;
}
