/*
 * Why remote TLB shootdown exists. Every hart maps the same pages through
 * Sv39 and reads them, filling its TLB. Hart 0 clears the PTEs and flushes
 * only its own TLB: it faults at once. The other harts still read the pages
 * through their stale entries until each runs its own sfence.vma, after which
 * every access faults.
 */
#include "runtime.h"
#include "vm.h"

#define NPAGES	8
#define TEST_VA	0x40000000UL		/* the gigapage slot between devices and DRAM */

static uint64_t pages[NPAGES][512] __attribute__((aligned(4096)));
static pte_t *root;
static pte_t *leaves[NPAGES];

static uint64_t pattern(unsigned i) { return 0x5eed0000UL + i; }
static volatile uint64_t *test_va(unsigned i) { return (volatile uint64_t *)(TEST_VA + i * PAGE_4K); }

/* How many pages read back their pattern without a fault. */
static unsigned readable_pages(void)
{
	unsigned ok = 0;
	for (unsigned i = 0; i < NPAGES; i++) {
		uint64_t v;
		if (!probe_read64(test_va(i), &v) && v == pattern(i))
			ok++;
	}
	return ok;
}

static long smode_main(void *arg)
{
	(void)arg;
	unsigned long me = hart_id();
	csr_write(satp, vm_satp(root, 1));
	sfence_vma_all();

	CHECK(readable_pages() == NPAGES);
	barrier();

	if (me == 0) {
		for (unsigned i = 0; i < NPAGES; i++)
			*leaves[i] = 0;
		fence();
		for (unsigned i = 0; i < NPAGES; i++)
			sfence_vma_va((unsigned long)test_va(i));
		unsigned left = readable_pages();
		printf("hart 0: unmapped %u pages, %u still readable after its own sfence.vma\n", NPAGES, left);
		CHECK(left == 0);
		CHECK(my_faults()->count == NPAGES);
		CHECK(my_faults()->last_tval == (uint64_t)test_va(NPAGES - 1));
	}
	barrier();

	if (me != 0) {
		unsigned stale = readable_pages();
		sfence_vma_all();
		unsigned after = readable_pages();
		printf("hart %lu: %u/%u pages readable through stale TLB entries, %u after sfence.vma\n", me,
		       stale, NPAGES, after);
		CHECK(stale == NPAGES);
		CHECK(after == 0);
		CHECK(my_faults()->count == NPAGES);
	}
	barrier();
	return 0;
}

/* How many ASID bits satp keeps (WARL): write all ones, count what sticks. */
static unsigned satp_asid_bits(void)
{
	csr_write(satp, vm_satp(root, 0xffff));
	unsigned long asid = (csr_read(satp) >> 44) & 0xffff;
	csr_write(satp, 0);
	unsigned n = 0;
	for (; asid; asid >>= 1)
		n += asid & 1;
	return n;
}

int main(unsigned long hartid)
{
	if (hartid == 0) {
		CHECK(num_harts() >= 2);
		root = vm_kernel_root();
		for (unsigned i = 0; i < NPAGES; i++) {
			pages[i][0] = pattern(i);
			leaves[i] = vm_map(root, (uint64_t)test_va(i), (uint64_t)pages[i], PAGE_4K, PTE_R | PTE_W);
			CHECK(leaves[i]);
		}
		fence();
		printf("satp keeps %u ASID bits\n", satp_asid_bits());
	}
	barrier();
	long r = run_in_smode(smode_main, 0);
	if (hartid == 0 && r == 0)
		printf("PASS: stale translations lived until each hart's own sfence.vma\n");
	return (int)r;
}
