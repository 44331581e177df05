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

/* Opens `hart`'s channel (limits on page 0, which reset closed): lists
 * anywhere in DRAM, every hart a target. The M-mode runtime does it for
 * every hart at start on a machine with a unit, unless the program defines
 * tlbsd_stay_closed as 1 (a program that checks the closed reset). */
void tlbsd_open(unsigned long hart);
extern const int tlbsd_stay_closed;

/* Posts one request on `hart`'s channel (which must be the calling hart's:
 * another hart's channel answers -TLBSD_ERR_FOREIGN): the ticket (> 0) or
 * -TLBSD_ERR_*. Waits while the channel's queue is full. Orders earlier
 * stores (PTEs, the list) before the unit can see the request. */
long tlbsd_post(unsigned long hart, uint64_t targets, const uint64_t *list, uint32_t count);
/* The same for a request of one entry, sent in registers (SUBMIT_ONE): no
 * list in memory, none for the unit to read. */
long tlbsd_post_one(unsigned long hart, uint64_t targets, uint64_t entry);
/* Waits until request `ticket` of `hart`'s channel has completed; returns
 * the STATUS that showed it (TLBSD_STATUS_ERROR: ERROR holds an error). */
uint64_t tlbsd_wait(unsigned long hart, uint32_t ticket);
/* Like tlbsd_wait, but gives up after `cycles`: 0 when done, -1 if not. */
int tlbsd_wait_for(unsigned long hart, uint32_t ticket, uint64_t cycles);
/* Waits until every request `hart`'s channel posted has completed; returns
 * the channel's ERRORS summary (bit c: a submission refused, or a request
 * completed, with code c since the last call) and clears it. */
uint64_t tlbsd_sync(unsigned long hart);
/* 0, or -code if ERROR names request `ticket` (then clears ERROR). */
long tlbsd_result(unsigned long hart, uint32_t ticket, uint64_t status);
/* Submit and wait: 0 or -TLBSD_ERR_* (refused, or completed with an error:
 * -TLBSD_ERR_TIMEOUT means the targets in CH_FAILED were not flushed). */
long tlbsd_flush(unsigned long hart, uint64_t targets, const uint64_t *list, uint32_t count);
/* Submit one entry in registers and wait: as tlbsd_flush. */
long tlbsd_flush_one(unsigned long hart, uint64_t targets, uint64_t entry);

#endif
