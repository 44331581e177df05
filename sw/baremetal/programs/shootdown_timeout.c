/*
 * Rule 9 (docs/semantics.md), liveness: a target that can never
 * acknowledge does not hold the unit. Hart 1 stores to the delay RAM with
 * its delay set to 2^32 - 1 cycles, so its D$ never drains and its agent
 * never acknowledges. A request naming hart 1 must still complete, after
 * TIMEOUT cycles without progress, with ERR_TIMEOUT in ERROR and hart 1 in
 * FAILED; requests that do not name it must complete at once and without
 * error; naming it again leaves it out at once (it is dead until its agent
 * is idle), with ERR_TIMEOUT again. ERRORS, the channel's sticky
 * error summary, keeps that timeout after a refused submission replaced it
 * in ERROR, and FAILED keeps the hart until written 1 clears it.
 */
#include "runtime.h"
#include "shootdown.h"

#define STUCK		1
#define TIMEOUT		5000
#define ENOUGH		400000	/* cycles: a request that takes longer is stuck */

static volatile uint64_t stuck_ready;
static unsigned failures;

#define FAIL(...) do { printf("FAIL: " __VA_ARGS__); failures++; } while (0)

static volatile uint64_t *delay_ram(unsigned long off)
{
	return (volatile uint64_t *)(DELAY_RAM_BASE + off);
}

static uint64_t cycles(void)
{
	uint64_t c;
	__asm__ volatile("rdcycle %0" : "=r"(c));
	return c;
}

/* Submits one full flush to `targets` on hart 0's channel and waits at most
 * ENOUGH cycles: the flush's result (0 or -code), with *took its cycles. */
static long flush(uint64_t targets, uint64_t *took)
{
	uint64_t start = cycles();
	long t = tlbsd_post_one(0, targets, TLBSD_ENTRY(TLBSD_KIND_ALL, 0, 1, 0, 0));
	CHECK(t > 0);
	if (tlbsd_wait_for(0, (uint32_t)t, ENOUGH) != 0) {
		printf("FAIL: a request to harts 0x%lx did not complete in %u cycles\n", (unsigned long)targets,
		       ENOUGH);
		exit(1);
	}
	*took = cycles() - start;
	return tlbsd_result(0, (uint32_t)t, *tlbsd_chan(0, TLBSD_CH_STATUS));
}

int main(unsigned long hartid)
{
	if (hartid == STUCK) {
		*delay_ram(DELAY_RAM_DELAY) = 0xffffffffUL;
		(void)*delay_ram(DELAY_RAM_DELAY);	/* the delay is set before the store below */
		stuck_ready = 1;
		fence();
		*delay_ram(0) = 1;	/* never performed: this hart's D$ never drains */
		for (;;)
			;
	}
	if (hartid != 0)
		return 0;
	CHECK(num_harts() >= 2);
	uint64_t others = ((1UL << num_harts()) - 1) & ~(1UL << STUCK);
	while (!stuck_ready)
		;
	for (volatile int i = 0; i < 200; i++)	/* let the store leave hart 1 */
		;
	uint64_t timeouts = *tlbsd_global(TLBSD_CTR_TIMEOUTS);
	*tlbsd_global(TLBSD_TIMEOUT) = TIMEOUT;
	uint64_t took;

	long r = flush(others | 1UL << STUCK, &took);
	if (r != -TLBSD_ERR_TIMEOUT)
		FAIL("a request naming the stuck hart ended with %ld, want %d\n", r, -TLBSD_ERR_TIMEOUT);
	CHECK(*tlbsd_chan(0, TLBSD_CH_FAILED) == 1UL << STUCK);
	CHECK(*tlbsd_global(TLBSD_CTR_TIMEOUTS) == timeouts + 1);
	printf("a request naming the stuck hart: ERR_TIMEOUT after %lu cycles, FAILED 0x%lx\n",
	       (unsigned long)took, (unsigned long)*tlbsd_chan(0, TLBSD_CH_FAILED));

	r = flush(others, &took);
	if (r != 0 || took >= TIMEOUT)
		FAIL("a request to the other harts ended with %ld after %lu cycles\n", r, (unsigned long)took);
	printf("a request to the other harts: done after %lu cycles\n", (unsigned long)took);

	/* ERRORS keeps every error until cleared, FAILED every hart given up
	 * on: the refused submission below replaces ERROR's timeout, not
	 * theirs. */
	tlbsd_sync(0);
	/* Dead until its agent is idle again, the stuck hart is left out of
	 * the next request naming it at once, not after another TIMEOUT. */
	r = flush(1UL << STUCK, &took);
	if (r != -TLBSD_ERR_TIMEOUT || took >= TIMEOUT / 2)
		FAIL("naming the stuck hart again ended with %ld after %lu cycles\n", r, (unsigned long)took);
	printf("naming the stuck hart again: ERR_TIMEOUT after %lu cycles\n", (unsigned long)took);
	CHECK(*tlbsd_global(TLBSD_CTR_TIMEOUTS) == timeouts + 2);
	r = tlbsd_post_one(0, 0, TLBSD_ENTRY(TLBSD_KIND_ALL, 0, 1, 0, 0));
	if (r != -TLBSD_ERR_BAD_TARGETS)
		FAIL("a request to no hart answered %ld\n", r);
	uint64_t errors = tlbsd_sync(0), want = 1UL << TLBSD_ERR_TIMEOUT | 1UL << TLBSD_ERR_BAD_TARGETS;
	if (errors != want || *tlbsd_chan(0, TLBSD_CH_ERRORS))
		FAIL("ERRORS held 0x%lx (want 0x%lx) and 0x%lx once cleared\n", (unsigned long)errors,
		     (unsigned long)want, (unsigned long)*tlbsd_chan(0, TLBSD_CH_ERRORS));
	CHECK(*tlbsd_chan(0, TLBSD_CH_FAILED) == 1UL << STUCK);
	*tlbsd_chan(0, TLBSD_CH_FAILED) = 1UL << STUCK;	/* write 1 to clear */
	if (*tlbsd_chan(0, TLBSD_CH_FAILED))
		FAIL("FAILED is 0x%lx after it was cleared\n", (unsigned long)*tlbsd_chan(0, TLBSD_CH_FAILED));
	if (failures)
		return 1;
	printf("PASS: the unit gave up on the stuck hart twice and served the others\n");
	return 0;
}
