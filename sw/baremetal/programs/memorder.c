/* memorder: does main memory answer a read with the write the SoC already
 * had acknowledged? The caches write a dirty line back (a PutFull that the
 * memory acknowledges) before the line is read again, and the broadcast
 * hub waits for that acknowledgement before it reads a line another hart
 * held dirty; either read must see the write. Two checks, ITERATIONS each:
 *   - one hart: store to line A (now dirty), load line A + 4 KiB (the same
 *     set of a direct-mapped 4 KiB D$: A is written back), load A again
 *   - two harts, as a litmus test's message passing: hart 1 holds line X
 *     shared; hart 0 stores X = i, then F = i; hart 1 waits for F = i and
 *     loads X (the hub probes hart 0, writes X back, then reads it)
 * A stale value is counted and the first few printed; exits 1 if any.
 * (On the simulated SoC's memory, which serves requests in order, none; the
 * SDRAM board's controller is what this asks about.) */
#include "platform.h"
#include "runtime.h"

#ifndef ITERATIONS
#define ITERATIONS	2000
#endif
#define SET_STRIDE	4096UL			/* one way of a direct-mapped 4 KiB D$ */
#define LINE		64UL
#define LINES		64UL			/* a page of lines, cycled through */

static volatile uint64_t *line(uintptr_t base, unsigned long i) { return (volatile uint64_t *)(base + i * LINE); }

static unsigned long stale;

static void report(const char *what, unsigned long i, uint64_t want, uint64_t got)
{
	if (stale++ < 8)
		printf("memorder: %s: iteration %lu wanted 0x%lx, read 0x%lx\n", what, i, (unsigned long)want,
		       (unsigned long)got);
}

static void one_hart(uintptr_t base)
{
	for (unsigned long i = 0; i < ITERATIONS; i++) {
		unsigned long l = i % LINES;
		uint64_t want = 0x5a000000UL + i;
		*line(base, l) = want;
		(void)*line(base + SET_STRIDE, l);	/* evicts the dirty line */
		uint64_t got = *line(base, l);
		if (got != want)
			report("write-back then read", i, want, got);
	}
}

static volatile uint64_t flag __attribute__((aligned(64)));
static volatile uint64_t done_reading __attribute__((aligned(64)));

static void two_harts(unsigned me, uintptr_t base)
{
	for (unsigned long i = 1; i <= ITERATIONS; i++) {
		volatile uint64_t *x = line(base, i % LINES);
		if (me == 1) {
			(void)*x;			/* hold X shared */
			done_reading = i;
			while (flag != i)
				;
			uint64_t got = *x;
			if (got != 0xa5000000UL + i)
				report("message passing", i, 0xa5000000UL + i, got);
		} else if (me == 0) {
			while (done_reading != i)
				;
			*x = 0xa5000000UL + i;
			flag = i;
		}
	}
}

int main(unsigned long hart)
{
	uintptr_t base = TEST_FRAMES;
	if (hart == 0)
		one_hart(base);
	barrier();
	if (num_harts() >= 2)
		two_harts(hart, base + 2 * SET_STRIDE);
	barrier();
	if (hart != 0)
		return 0;
	printf("memorder: %d harts, %d iterations each check: %lu stale reads\n", (int)num_harts(), ITERATIONS,
	       stale);
	return stale ? 1 : 0;
}
