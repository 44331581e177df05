/*
 * make bench, part 2: where should the unit stop flushing page by page and
 * flush everything (CEILING)? A benchmark, not a test.
 *
 * Hart 1 runs an S-mode loop over a working set of WS pages (it fits in the
 * 32-entry L1 DTLB). Hart 0 flushes N other pages on hart 1, once page by page
 * (CEILING above N) and once as one full flush (CEILING 0). A page-by-page
 * flush costs list reading and one D$ slot per page; a full flush costs
 * nothing up front but hart 1 then refills its whole working set (and the
 * global code and data mappings). Cost = initiator cycles + cycles hart 1
 * lost: the initiator's median over REPS runs, and the fastest run of hart 1's
 * loop with a flush minus its fastest run without. One line per point:
 *   CEIL entries=N path=per-page|full initiator_cycles=C stolen_cycles=S
 */
#include "runtime.h"
#include "shootdown.h"
#include "vm.h"

#define REPS		5
#define WS		24
#define ITERS		1000
#define WS_VA		0x40000000UL
#define FLUSH_VA	0x40800000UL
#define MAX_N		1024

static uint64_t ws_pages[WS][512] __attribute__((aligned(4096)));
static uint64_t list[MAX_N] __attribute__((aligned(64)));
static pte_t *root;
static volatile int started;
static volatile uint64_t quiet, busy;

/* One line per page (at different cache sets), so the loop is bound by its
 * TLB, not by cache misses that would vary from run to run. */
static uint64_t work(void)
{
	uint64_t sum = 0;
	unsigned page = 0;
	uint64_t t0 = rdcycle();
	for (unsigned i = 0; i < ITERS; i++) {
		volatile uint64_t *p = (volatile uint64_t *)(WS_VA + page * PAGE_4K + page * 64);
		sum += *p;
		*p = sum;
		if (++page == WS)
			page = 0;
	}
	return rdcycle() - t0;
}

static uint64_t median(uint64_t *v)
{
	for (unsigned i = 1; i < REPS; i++)
		for (unsigned j = i; j > 0 && v[j - 1] > v[j]; j--) {
			uint64_t t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return v[REPS / 2];
}

static uint64_t min_of(const uint64_t *v)
{
	uint64_t m = v[0];
	for (unsigned i = 1; i < REPS; i++)
		m = v[i] < m ? v[i] : m;
	return m;
}

static void point(unsigned long me, unsigned n, int full)
{
	uint64_t lat[REPS], quiets[REPS], busys[REPS];
	if (me == 0)
		*tlbsd_global(TLBSD_CEILING) = full ? 0 : MAX_N;
	for (unsigned r = 0; r < REPS; r++) {
		barrier();
		if (me == 1) {
			work();			/* warm the TLBs */
			quiet = work();
		}
		barrier();
		if (me == 1) {
			started = 1;
			busy = work();
		} else if (me == 0) {
			while (!started)
				;
			uint64_t t0 = rdcycle();
			CHECK(tlbsd_flush(0, 1UL << 1, list, n) == 0);
			lat[r] = rdcycle() - t0;
		}
		barrier();
		if (me == 0) {
			quiets[r] = quiet;
			busys[r] = busy;
			started = 0;
		}
	}
	/* Noise only ever adds cycles: compare the best runs of each kind. */
	if (me == 0) {
		uint64_t q = min_of(quiets), b = min_of(busys);
		printf("CEIL entries=%u path=%s initiator_cycles=%lu stolen_cycles=%lu\n", n, full ? "full" : "per-page",
		       (unsigned long)median(lat), (unsigned long)(b > q ? b - q : 0));
	}
}

static long smode_main(void *arg)
{
	(void)arg;
	unsigned long me = hart_id();
	csr_write(satp, vm_satp(root, 1));
	sfence_vma_all();
	static const unsigned sizes[] = { 16, 64, 128, 160, 192, 224, 256, 512 };
	for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		point(me, sizes[i], 0);
		point(me, sizes[i], 1);
	}
	barrier();
	return 0;
}

int main(unsigned long hartid)
{
	if (hartid == 0) {
		CHECK(num_harts() >= 2);
		root = vm_kernel_root();
		for (unsigned i = 0; i < WS; i++)
			CHECK(vm_map(root, WS_VA + i * PAGE_4K, (uint64_t)ws_pages[i], PAGE_4K, PTE_R | PTE_W));
		for (unsigned i = 0; i < MAX_N; i++)
			list[i] = TLBSD_ENTRY(TLBSD_KIND_VA_ASID, TLBSD_SIZE_4K, 1, FLUSH_VA + i * PAGE_4K, 1);
		fence();
	}
	uint64_t ceiling = *tlbsd_global(TLBSD_CEILING);
	barrier();
	long r = run_in_smode(smode_main, 0);
	if (hartid == 0)
		*tlbsd_global(TLBSD_CEILING) = ceiling;
	return (int)r;
}
