/*
 * make bench: back-to-back requests (a benchmark, not a test). Every hart
 * posts REQUESTS requests to all the other harts, as fast as its channel's
 * queue takes them, then waits for its channel to go idle: first as lists
 * of ENTRIES one-page entries, then the same pages as one SUBMIT_ONE entry.
 * One line each:
 *   BENCH path=throughput-list|throughput-inline harts=H initiators=H requests=R pages=N cycles=C cycles_per_request=Q
 * (C: from the first submission to the last completion, on hart 0's clock.)
 */
#include "runtime.h"
#include "shootdown.h"

#define REQUESTS	64
#define ENTRIES		8
#define VA_BASE		0x40000000UL

static uint64_t lists[MAX_HARTS][ENTRIES] __attribute__((aligned(64)));
static volatile uint64_t go_at, done_at[MAX_HARTS];

static void run(unsigned long hartid, int inline_entry)
{
	unsigned n = num_harts();
	uint64_t others = ((1UL << n) - 1) & ~(1UL << hartid);
	uint64_t va = VA_BASE + ((hartid * ENTRIES) << 12);
	barrier();
	if (hartid == 0)
		go_at = rdcycle() + 2000;
	barrier();
	while (rdcycle() < go_at)
		;
	for (unsigned r = 0; r < REQUESTS; r++) {
		long t = inline_entry ? tlbsd_post_one(hartid, others,
						       TLBSD_ENTRY(TLBSD_KIND_VA_ASID, TLBSD_SIZE_4K, ENTRIES, va, 0))
				      : tlbsd_post(hartid, others, lists[hartid], ENTRIES);
		CHECK(t > 0);
	}
	tlbsd_sync(hartid);
	done_at[hartid] = rdcycle();
	barrier();
	if (hartid == 0) {
		uint64_t last = 0;
		for (unsigned h = 0; h < n; h++)
			if (done_at[h] > last)
				last = done_at[h];
		uint64_t cycles = last - go_at;
		unsigned total = n * REQUESTS;
		printf("BENCH path=throughput-%s harts=%u initiators=%u requests=%u pages=%u cycles=%lu "
		       "cycles_per_request=%lu\n", inline_entry ? "inline" : "list", n, n, total, ENTRIES,
		       (unsigned long)cycles, (unsigned long)(cycles / total));
	}
}

int main(unsigned long hartid)
{
	for (unsigned i = 0; i < ENTRIES; i++)
		lists[hartid][i] = TLBSD_ENTRY(TLBSD_KIND_VA_ASID, TLBSD_SIZE_4K, 1,
					       VA_BASE + ((hartid * ENTRIES + i) << 12), 0);
	fence();
	run(hartid, 0);
	run(hartid, 1);
	return 0;
}
