/*
 * make demo: an S-mode kernel's remote TLB shootdown under OpenSBI, by every
 * path the firmware offers (shootdown_paths.h), for batches of 1 to 256
 * pages and 1 or 3 target harts. A benchmark, not a test.
 *
 * The boot hart is the initiator. Each target first touches the batch's
 * pages (so its TLBs hold them) and then its working set of 16 pages of its
 * own, which the shootdown does not cover; then it loops over the working
 * set until the initiator says stop. The initiator clears the batch's PTEs and shoots them down; the
 * latency is the cycles the shootdown call(s) took. A target's stolen
 * cycles are the cycles its loop took beyond what the same iterations take
 * in a quiet round (no shootdown), so they include the TLB refills a full
 * flush causes. Traps are the IPIs the target took (SBI PMU firmware
 * counter). Per point: the initiator's median over REPS runs; per target the
 * smallest stolen count over the runs, averaged over the targets. One line
 * per point:
 *   DEMO path=P harts=H targets=T batch=N latency_cycles=C stolen_cycles=S target_traps=X
 * and, to tell trap entry and exit apart from the rest, the median cost of
 * an SBI call that does nothing (base extension, get_spec_version):
 *   DEMO_NULL_ECALL harts=H cycles=C
 */
#include "shootdown_paths.h"

#define REPS		3
#define QUIET_REPS	3
#define GAP_CYCLES	2000
#define WORK_PAGES	16
#define WORK_VA		(REGION_VA + 0x200000UL)	/* the next 2 MiB */

static uint64_t work_pages[MAX_HARTS][WORK_PAGES][512] __attribute__((aligned(4096)));

/* The round the initiator announces, and what targets report back. */
static struct {
	volatile unsigned gen;
	volatile uint64_t targets;
	volatile unsigned batch;
	volatile int go, stop, exit;
	volatile unsigned ready, done;
} round_ctl;
static volatile uint64_t elapsed[MAX_HARTS], iterations[MAX_HARTS], traps[MAX_HARTS];

static volatile uint64_t *work_va(unsigned long hart, unsigned k)
{
	return (volatile uint64_t *)(WORK_VA + ((uint64_t)hart * WORK_PAGES + k) * PAGE_4K);
}

static void spin_cycles(uint64_t n)
{
	uint64_t t0 = rdcycle();
	while (rdcycle() - t0 < n)
		;
}

/* A target's side of every round, until the initiator says exit. */
static void target_loop(unsigned long me)
{
	long counter = pmu_ipi_counter();
	unsigned gen = 0;
	for (;;) {
		while (round_ctl.gen == gen)
			;
		gen = round_ctl.gen;
		if (round_ctl.exit)
			return;
		if (!(round_ctl.targets >> me & 1))
			continue;
		for (unsigned i = 0; i < round_ctl.batch; i++)
			(void)*(volatile uint64_t *)region_va(i);
		/* The working set back in the TLB after the batch pushed it out. */
		for (unsigned r = 0; r < 4; r++)
			for (unsigned k = 0; k < WORK_PAGES; k++)
				*work_va(me, k) += 1;
		uint64_t ipis = pmu_read(counter);
		__atomic_add_fetch(&round_ctl.ready, 1, __ATOMIC_ACQ_REL);
		while (!round_ctl.go)
			;
		uint64_t n = 0, t0 = rdcycle();
		while (!round_ctl.stop) {
			for (unsigned k = 0; k < WORK_PAGES; k++)
				*work_va(me, k) += 1;
			n++;
		}
		elapsed[me] = rdcycle() - t0;
		iterations[me] = n;
		traps[me] = pmu_read(counter) - ipis;
		__atomic_add_fetch(&round_ctl.done, 1, __ATOMIC_ACQ_REL);
	}
}

/* One round: returns the initiator's latency; targets fill their arrays. */
static uint64_t run_round(int path, uint64_t targets, unsigned ntargets, unsigned batch)
{
	round_ctl.targets = targets;
	round_ctl.batch = batch;
	round_ctl.ready = round_ctl.done = 0;
	round_ctl.go = round_ctl.stop = 0;
	__atomic_add_fetch(&round_ctl.gen, 1, __ATOMIC_ACQ_REL);
	while (round_ctl.ready != ntargets)
		;
	round_ctl.go = 1;
	spin_cycles(GAP_CYCLES);
	uint64_t latency = 0;
	if (path >= 0) {
		region_unmap(0, batch);
		uint64_t t0 = rdcycle();
		long err = flush_region(path, targets, 0, batch);
		latency = rdcycle() - t0;
		if (err) {
			printf("FAIL: path %s, %u pages: error %ld\n", path_name[path], batch, err);
			exit(1);
		}
	}
	spin_cycles(GAP_CYCLES);
	round_ctl.stop = 1;
	while (round_ctl.done != ntargets)
		;
	if (path >= 0)
		region_remap(0, batch);
	return latency;
}

static void sort(uint64_t *v, unsigned n)
{
	for (unsigned i = 1; i < n; i++)
		for (unsigned j = i; j > 0 && v[j - 1] > v[j]; j--) {
			uint64_t t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

static void null_ecall(void)
{
	uint64_t c[9];
	for (unsigned i = 0; i < 9; i++) {
		uint64_t t0 = rdcycle();
		sbi_ecall(SBI_EXT_BASE, 0, 0, 0, 0, 0, 0, 0);
		c[i] = rdcycle() - t0;
	}
	sort(c, 9);
	printf("DEMO_NULL_ECALL harts=%u cycles=%lu\n", num_harts(), c[4]);
}

static void measure(unsigned long me, unsigned ntargets)
{
	unsigned harts[MAX_HARTS], n = 0;
	for (unsigned h = 0; h < num_harts() && n < ntargets; h++)
		if (h != me)
			harts[n++] = h;
	uint64_t targets = hart_mask_of(harts, n);

	/* Cycles per iteration of each target's loop undisturbed (x 1024). */
	uint64_t cpi[MAX_HARTS];
	for (unsigned i = 0; i < n; i++)
		cpi[i] = ~0UL;
	for (unsigned r = 0; r < QUIET_REPS; r++) {
		run_round(-1, targets, n, 0);
		for (unsigned i = 0; i < n; i++) {
			uint64_t c = elapsed[harts[i]] * 1024 / iterations[harts[i]];
			cpi[i] = c < cpi[i] ? c : cpi[i];
		}
	}

	for (int p = 0; p < NPATHS; p++) {
		if (!path_available(p))
			continue;
		for (unsigned batch = 1; batch <= REGION_PAGES; batch *= 2) {
			uint64_t lat[REPS], stolen[MAX_HARTS], trapsum = 0;
			for (unsigned i = 0; i < n; i++)
				stolen[i] = ~0UL;
			run_round(p, targets, n, batch);	/* warm-up */
			for (unsigned r = 0; r < REPS; r++) {
				lat[r] = run_round(p, targets, n, batch);
				for (unsigned i = 0; i < n; i++) {
					uint64_t h = harts[i], quiet = iterations[h] * cpi[i] / 1024;
					uint64_t s = elapsed[h] > quiet ? elapsed[h] - quiet : 0;
					stolen[i] = s < stolen[i] ? s : stolen[i];
					trapsum += traps[h];
				}
			}
			sort(lat, REPS);
			uint64_t stolen_sum = 0;
			for (unsigned i = 0; i < n; i++)
				stolen_sum += stolen[i];
			printf("DEMO path=%s harts=%u targets=%u batch=%u latency_cycles=%lu stolen_cycles=%lu "
			       "target_traps=%lu\n", path_name[p], num_harts(), n, batch, lat[REPS / 2],
			       stolen_sum / n, (trapsum + REPS * n / 2) / (REPS * n));
		}
	}
}

int main(unsigned long hartid)
{
	if (hartid == boot_hart()) {
		CHECK(num_harts() >= 2);
		paths_setup();
		for (unsigned h = 0; h < num_harts(); h++)
			for (unsigned k = 0; k < WORK_PAGES; k++)
				CHECK(vm_map(paths_root, (uint64_t)work_va(h, k), (uint64_t)work_pages[h][k], PAGE_4K,
					     PTE_R | PTE_W));
		printf("shootdown demo: %u harts, %s firmware\n", num_harts(),
		       unit_firmware() ? "unit" : "stock (IPI)");
	}
	barrier();
	paths_enter();
	barrier();
	if (hartid != boot_hart()) {
		target_loop(hartid);
		return 0;
	}
	null_ecall();
	measure(hartid, 1);
	if (num_harts() >= 4)
		measure(hartid, 3);
	round_ctl.exit = 1;
	__atomic_add_fetch(&round_ctl.gen, 1, __ATOMIC_ACQ_REL);
	printf("shootdown demo: done\n");
	return 0;
}
