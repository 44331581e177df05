/*
 * Bare-metal driver for the batched shootdown unit. Each hart uses its own
 * channel, so no lock is needed. The list must be in DRAM and visible at the
 * same address physically (the runtime identity-maps DRAM).
 */
#ifndef SHOOTDOWN_H
#define SHOOTDOWN_H

#include <stdint.h>

#include "tlb_shootdown_regs.h"

#define TLBSD_BASE TLBSD_DEFAULT_BASE

static inline volatile uint64_t *tlbsd_global(unsigned long off)
{
	return (volatile uint64_t *)(TLBSD_BASE + off);
}

static inline volatile uint64_t *tlbsd_chan(unsigned long hart, unsigned long off)
{
	return (volatile uint64_t *)(TLBSD_BASE + TLBSD_CHANNEL(hart) + off);
}

/* Posts one request on `hart`'s channel: the ticket (> 0) or -TLBSD_ERR_*.
 * Waits while the channel's queue is full. Orders earlier stores (PTEs, the
 * list) before the unit can see the request. */
long tlbsd_post(unsigned long hart, uint64_t targets, const uint64_t *list, uint32_t count);
/* Waits until request `ticket` of `hart`'s channel has completed. */
void tlbsd_wait(unsigned long hart, uint32_t ticket);
/* Like tlbsd_wait, but gives up after `cycles`: 0 when done, -1 on timeout. */
int tlbsd_wait_for(unsigned long hart, uint32_t ticket, uint64_t cycles);
/* Waits until every request `hart`'s channel posted has completed. */
void tlbsd_sync(unsigned long hart);
/* Submit and wait: 0 or -TLBSD_ERR_*. */
long tlbsd_flush(unsigned long hart, uint64_t targets, const uint64_t *list, uint32_t count);

#endif
