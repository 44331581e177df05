#include "shootdown.h"

long tlbsd_post(unsigned long hart, uint64_t targets, const uint64_t *list, uint32_t count)
{
	*tlbsd_chan(hart, TLBSD_CH_TARGETS) = targets;
	*tlbsd_chan(hart, TLBSD_CH_LIST) = (uint64_t)list;
	*tlbsd_chan(hart, TLBSD_CH_COUNT) = count;
	/* PTE and list stores before the SUBMIT load reaches the device. */
	__asm__ volatile("fence w, i" ::: "memory");
	for (;;) {
		int64_t r = (int64_t)*tlbsd_chan(hart, TLBSD_CH_SUBMIT);
		if (r != TLBSD_SUBMIT_BUSY)
			return r;
	}
}

void tlbsd_wait(unsigned long hart, uint32_t ticket)
{
	while ((int32_t)(TLBSD_STATUS_DONE(*tlbsd_chan(hart, TLBSD_CH_STATUS)) - ticket) < 0)
		;
	/* Nothing after this point may run before completion was seen. */
	__asm__ volatile("fence i, rw" ::: "memory");
}

int tlbsd_wait_for(unsigned long hart, uint32_t ticket, uint64_t cycles)
{
	uint64_t start;
	__asm__ volatile("rdcycle %0" : "=r"(start));
	while ((int32_t)(TLBSD_STATUS_DONE(*tlbsd_chan(hart, TLBSD_CH_STATUS)) - ticket) < 0) {
		uint64_t now;
		__asm__ volatile("rdcycle %0" : "=r"(now));
		if (now - start > cycles)
			return -1;
	}
	__asm__ volatile("fence i, rw" ::: "memory");
	return 0;
}

void tlbsd_sync(unsigned long hart)
{
	while (!(*tlbsd_chan(hart, TLBSD_CH_STATUS) & TLBSD_STATUS_IDLE))
		;
	__asm__ volatile("fence i, rw" ::: "memory");
}

long tlbsd_flush(unsigned long hart, uint64_t targets, const uint64_t *list, uint32_t count)
{
	long t = tlbsd_post(hart, targets, list, count);
	if (t > 0) {
		tlbsd_wait(hart, (uint32_t)t);
		return 0;
	}
	return t;
}
