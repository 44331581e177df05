#include "platform.h"
#include "shootdown.h"

const int tlbsd_stay_closed __attribute__((weak)) = 0;

void tlbsd_open(unsigned long hart)
{
	*tlbsd_global(TLBSD_LIMIT(hart) + TLBSD_LIMIT_LIST_BASE) = DRAM_BASE;
	*tlbsd_global(TLBSD_LIMIT(hart) + TLBSD_LIMIT_LIST_LIMIT) = ~0UL;
	*tlbsd_global(TLBSD_LIMIT(hart) + TLBSD_LIMIT_ALLOWED) = ~0UL;
}

static long submit(unsigned long hart, unsigned long reg)
{
	for (;;) {
		int64_t r = (int64_t)*tlbsd_chan(hart, reg);
		if (r != TLBSD_SUBMIT_BUSY)
			return r;
	}
}

long tlbsd_post(unsigned long hart, uint64_t targets, const uint64_t *list, uint32_t count)
{
	*tlbsd_chan(hart, TLBSD_CH_TARGETS) = targets;
	*tlbsd_chan(hart, TLBSD_CH_LIST) = (uint64_t)list;
	*tlbsd_chan(hart, TLBSD_CH_COUNT) = count;
	/* PTE and list stores (w) and the register writes (o) before the
	 * SUBMIT load (i): fence w,i would leave the register writes out. */
	__asm__ volatile("fence ow, i" ::: "memory");
	return submit(hart, TLBSD_CH_SUBMIT);
}

long tlbsd_post_one(unsigned long hart, uint64_t targets, uint64_t entry)
{
	*tlbsd_chan(hart, TLBSD_CH_TARGETS) = targets;
	*tlbsd_chan(hart, TLBSD_CH_ENTRY) = entry;
	/* PTE stores (w) and the register writes (o) before the SUBMIT_ONE load (i). */
	__asm__ volatile("fence ow, i" ::: "memory");
	return submit(hart, TLBSD_CH_SUBMIT_ONE);
}

uint64_t tlbsd_wait(unsigned long hart, uint32_t ticket)
{
	uint64_t s;
	/* Tickets count modulo 2^32 and skip 0. */
	while ((int32_t)(TLBSD_STATUS_DONE(s = *tlbsd_chan(hart, TLBSD_CH_STATUS)) - ticket) < 0)
		;
	/* Nothing after this point may run before completion was seen. */
	__asm__ volatile("fence i, rw" ::: "memory");
	return s;
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

uint64_t tlbsd_sync(unsigned long hart)
{
	while (!(*tlbsd_chan(hart, TLBSD_CH_STATUS) & TLBSD_STATUS_IDLE))
		;
	__asm__ volatile("fence i, rw" ::: "memory");
	uint64_t errors = *tlbsd_chan(hart, TLBSD_CH_ERRORS);
	if (errors)
		*tlbsd_chan(hart, TLBSD_CH_ERRORS) = errors;
	return errors;
}

long tlbsd_result(unsigned long hart, uint32_t ticket, uint64_t status)
{
	if (!(status & TLBSD_STATUS_ERROR))
		return 0;
	uint64_t e = *tlbsd_chan(hart, TLBSD_CH_ERROR);
	if (TLBSD_ERROR_TICKET(e) != ticket)
		return 0;	/* an older request's error */
	*tlbsd_chan(hart, TLBSD_CH_ERROR) = 0;
	return -(long)TLBSD_ERROR_CODE(e);
}

long tlbsd_flush(unsigned long hart, uint64_t targets, const uint64_t *list, uint32_t count)
{
	long t = tlbsd_post(hart, targets, list, count);
	if (t <= 0)
		return t;
	return tlbsd_result(hart, (uint32_t)t, tlbsd_wait(hart, (uint32_t)t));
}

long tlbsd_flush_one(unsigned long hart, uint64_t targets, uint64_t entry)
{
	long t = tlbsd_post_one(hart, targets, entry);
	if (t <= 0)
		return t;
	return tlbsd_result(hart, (uint32_t)t, tlbsd_wait(hart, (uint32_t)t));
}
