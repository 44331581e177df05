/*
 * make bench: the batched shootdown unit against a lean software shootdown,
 * both from M-mode with warm caches (a benchmark, not a test).
 *
 * Software path (what OpenSBI's RFENCE does, without its bookkeeping): hart 0
 * writes the VAs to memory and raises each target's machine software
 * interrupt through the CLINT; each target traps, runs one sfence.vma per
 * page, writes its acknowledgement and returns; hart 0 waits for all acks.
 * Hardware path: hart 0 submits one request (hart mask + list) to the unit
 * and polls until it completes; targets take no trap.
 *
 * Targets run a fixed loop of loads and stores meanwhile; the cycles it takes
 * beyond the same loop with no shootdown are the cycles stolen from it.
 * Per point: the initiator's median over REPS runs, and per target the
 * fastest loop with a shootdown minus the fastest without. One line per point:
 *   BENCH path=P harts=H targets=T entries=N initiator_cycles=C stolen_cycles_per_target=S target_traps=X
 */
#include "runtime.h"
#include "shootdown.h"

#define REPS		3
#define WORK_ITERS	6000
#define MAX_ENTRIES	256
#define VA_BASE		0x40000000UL
#define CLINT_MSIP(h)	((volatile uint32_t *)(CLINT_BASE + 4 * (h)))
#define MSTATUS_MIE_BIT	(1UL << 3)

static uint64_t entries[MAX_ENTRIES] __attribute__((aligned(64)));
static uint64_t vas[MAX_ENTRIES];
static volatile uint64_t work_buf[MAX_HARTS][128] __attribute__((aligned(64)));

static volatile unsigned sw_count;
static volatile uint64_t sw_gen;
static volatile uint64_t sw_ack[MAX_HARTS];
static volatile uint64_t traps[MAX_HARTS];
static volatile int started[MAX_HARTS];
static volatile uint64_t quiet[MAX_HARTS], busy[MAX_HARTS];

static void msip_handler(unsigned long cause)
{
	unsigned long me = hart_id();
	if ((cause & 0xff) != 3) {
		printf("FAIL: hart %lu: unexpected interrupt %lx\n", me, cause);
		exit(99);
	}
	*CLINT_MSIP(me) = 0;
	traps[me]++;
	unsigned n = sw_count;
	for (unsigned i = 0; i < n; i++)
		sfence_vma_va(vas[i]);
	__atomic_store_n(&sw_ack[me], sw_gen, __ATOMIC_RELEASE);
}

/* The targets' workload: loads and stores to a warm buffer. */
static uint64_t work(unsigned long me)
{
	volatile uint64_t *a = work_buf[me];
	uint64_t sum = 0;
	uint64_t t0 = rdcycle();
	for (unsigned i = 0; i < WORK_ITERS; i++) {
		sum += a[i & 127];
		a[(i * 7) & 127] = sum;
	}
	return rdcycle() - t0;
}

static uint64_t sw_shootdown(unsigned targets, unsigned n)
{
	sw_count = n;
	uint64_t gen = sw_gen + 1;
	sw_gen = gen;
	fence();
	uint64_t t0 = rdcycle();
	for (unsigned h = 1; h <= targets; h++)
		*CLINT_MSIP(h) = 1;
	for (unsigned h = 1; h <= targets; h++)
		while (__atomic_load_n(&sw_ack[h], __ATOMIC_ACQUIRE) != gen)
			;
	return rdcycle() - t0;
}

static uint64_t hw_shootdown(unsigned targets, unsigned n)
{
	uint64_t mask = ((1UL << targets) - 1) << 1;
	uint64_t t0 = rdcycle();
	CHECK(tlbsd_flush(0, mask, entries, n) == 0);
	return rdcycle() - t0;
}

static uint64_t median3(uint64_t a, uint64_t b, uint64_t c)
{
	if (a > b) { uint64_t t = a; a = b; b = t; }
	if (b > c) { uint64_t t = b; b = c; c = t; }
	return a > b ? a : b;
}

/* One point: every hart calls it. */
static void point(unsigned long me, int hw, unsigned targets, unsigned n)
{
	uint64_t lat[REPS], q[REPS][MAX_HARTS], b[REPS][MAX_HARTS];
	uint64_t traps_before[MAX_HARTS];
	int target = me >= 1 && me <= targets;
	for (unsigned h = 0; h < num_harts(); h++)
		traps_before[h] = traps[h];
	for (unsigned r = 0; r < REPS; r++) {
		/* The loop without a shootdown, then with one, the other harts
		 * doing the same in both (hart 0 waits for the targets to start;
		 * the rest wait in the barrier), so that the shootdown is the
		 * only difference: the loop's speed depends on what the other
		 * harts do (a barrier's spinning made it 8% slower). */
		for (int shoot = 0; shoot < 2; shoot++) {
			barrier();
			if (target) {
				started[me] = 1;
				uint64_t c = work(me);
				if (shoot)
					busy[me] = c;
				else
					quiet[me] = c;
			} else if (me == 0) {
				for (unsigned h = 1; h <= targets; h++)
					while (!started[h])
						;
				if (shoot)
					lat[r] = hw ? hw_shootdown(targets, n) : sw_shootdown(targets, n);
			}
			barrier();
			if (me == 0)
				for (unsigned h = 1; h <= targets; h++)
					started[h] = 0;
		}
		if (me == 0)
			for (unsigned h = 1; h <= targets; h++) {
				q[r][h] = quiet[h];
				b[r][h] = busy[h];
			}
	}
	barrier();
	if (me != 0)
		return;
	uint64_t l = median3(lat[0], lat[1], lat[2]);
	uint64_t s = 0, t = 0;
	for (unsigned h = 1; h <= targets; h++) {
		/* Noise only ever adds cycles: the fastest loop with a shootdown
		 * minus the fastest without. */
		uint64_t qm = q[0][h], bm = b[0][h];
		for (unsigned r = 1; r < REPS; r++) {
			qm = q[r][h] < qm ? q[r][h] : qm;
			bm = b[r][h] < bm ? b[r][h] : bm;
		}
		s += bm > qm ? bm - qm : 0;
		t += traps[h] - traps_before[h];
	}
	printf("BENCH path=%s harts=%u targets=%u entries=%u initiator_cycles=%lu stolen_cycles_per_target=%lu "
	       "target_traps=%lu quiet_cycles=%lu\n", hw ? "hw" : "sw", num_harts(), targets, n, (unsigned long)l,
	       (unsigned long)(s / targets), (unsigned long)(t / targets / REPS), (unsigned long)quiet[1]);
}

int main(unsigned long hartid)
{
	static const unsigned sizes[] = { 1, 8, 32, 256 };
	if (hartid == 0) {
		for (unsigned i = 0; i < MAX_ENTRIES; i++) {
			vas[i] = VA_BASE + i * 0x1000UL;
			entries[i] = TLBSD_ENTRY(TLBSD_KIND_VA_ASID, TLBSD_SIZE_4K, 1, vas[i], 0);
		}
	} else {
		set_m_interrupt_handler(msip_handler);
		csr_set(mie, MIP_MSIP);
		csr_set(mstatus, MSTATUS_MIE_BIT);
	}
	barrier();
	/* 1, 3 and 7 targets, as many as the SoC has */
	for (unsigned targets = 1; targets < num_harts(); targets = 2 * targets + 1)
		for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
			for (int hw = 0; hw < 2; hw++)
				point(hartid, hw, targets, sizes[i]);
	if (hartid == 0)
		printf("ceiling %lu: the unit turns requests of more pages into one full flush\n",
		       (unsigned long)*tlbsd_global(TLBSD_CEILING));
	barrier();
	return 0;
}
