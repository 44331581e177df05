/*
 * The debug SoCs have a bus master that belongs to no hart
 * (hw/testing/ForeignMaster.scala): at reset it writes TARGETS = 3 on hart 0's
 * channel and reads its SUBMIT_ONE. The unit must take both as foreign:
 * count them (CTR_FOREIGN), keep hart 0's TARGETS as it was (0 after
 * reset) and submit nothing (no ticket handed out on the channel). The
 * master's own expected reads are RTL assertions; this checks, from hart 0,
 * that it ran and changed nothing. Only for the debug models: on the others
 * no master is there and the wait below fails.
 */
#include "runtime.h"
#include "shootdown.h"

#define FOREIGN_ACCESSES	2	/* the write of TARGETS and the read of SUBMIT_ONE */
#define FAIL(...) do { printf("FAIL " __VA_ARGS__); exit(1); } while (0)

int main(unsigned long hartid)
{
	if (hartid != 0)
		return 0;
	uint64_t start = rdcycle();
	while (*tlbsd_global(TLBSD_CTR_FOREIGN) < FOREIGN_ACCESSES)
		if (rdcycle() - start > 1000000)
			FAIL("the foreign master never reached the unit: CTR_FOREIGN %lu\n",
			     (unsigned long)*tlbsd_global(TLBSD_CTR_FOREIGN));
	uint64_t foreign = *tlbsd_global(TLBSD_CTR_FOREIGN);
	uint64_t targets = *tlbsd_chan(0, TLBSD_CH_TARGETS);
	uint64_t done = TLBSD_STATUS_DONE(*tlbsd_chan(0, TLBSD_CH_STATUS));
	printf("foreign master: CTR_FOREIGN %lu, hart 0's TARGETS 0x%lx, tickets done %lu\n",
	       (unsigned long)foreign, (unsigned long)targets, (unsigned long)done);
	CHECK(foreign == FOREIGN_ACCESSES);
	CHECK(targets == 0);
	CHECK(done == 0);
	/* The channel still works for its own hart. */
	CHECK(tlbsd_flush_one(0, 1, TLBSD_ENTRY(TLBSD_KIND_ALL, TLBSD_SIZE_4K, 1, 0, 0)) == 0);
	return 0;
}
