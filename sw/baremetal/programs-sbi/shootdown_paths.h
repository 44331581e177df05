/*
 * The ways an S-mode kernel can shoot down translations under OpenSBI, and
 * the page-table set-up the S-mode shootdown payloads share
 * (shootdown_demo.c, sbi_shootdown_cases.c).
 *
 *   a  SBI RFENCE, one call per page, over IPIs   (stock OpenSBI)
 *   b  SBI RFENCE, one call per range, over IPIs  (stock OpenSBI)
 *   c  SBI RFENCE, one call per range, carried out by the unit
 *   d  the batched SBI extension: one call, a list of entries
 *   e  the unit's channel, from S-mode directly
 *
 * Which firmware runs decides which paths exist: a, b with the stock build
 * (no unit driver), c, d, e with the unit's driver.
 */
#ifndef SHOOTDOWN_PATHS_H
#define SHOOTDOWN_PATHS_H

#include "runtime.h"
#include "sbi_tlbsd.h"
#include "shootdown.h"
#include "vm.h"

#define SBI_EXT_PMU			0x504D55
#define SBI_PMU_NUM_COUNTERS		0
#define SBI_PMU_COUNTER_CFG_MATCH	2
#define SBI_PMU_COUNTER_FW_READ		5
#define SBI_PMU_CFG_CLEAR_AUTO_START	(1UL << 1 | 1UL << 2)
#define SBI_PMU_FW_IPI_RECVD_EVENT	(0xfUL << 16 | 7)

#define ASID		0		/* Rocket 1.2.6 has no ASIDs; QEMU ignores them in flushes */
#define REGION_VA	0x40000000UL	/* level-2 slot 1: free in vm_kernel_root */
#ifdef PLATFORM_SBI_BOARD
#define REGION_PAGES	2		/* the boards' payload has 56 KiB (docs/fpga.md) */
#else
#define REGION_PAGES	256		/* pages a batch may cover */
#endif

enum path { PATH_A, PATH_B, PATH_C, PATH_D, PATH_E, NPATHS };

static const char *const path_name[NPATHS] = { "a", "b", "c", "d", "e" };

static uint64_t region_pages[REGION_PAGES][512] __attribute__((aligned(4096)));
static pte_t *region_leaf[REGION_PAGES];
static pte_t region_pte[REGION_PAGES];
static pte_t *paths_root;
static uint64_t path_lists[MAX_HARTS][REGION_PAGES] __attribute__((aligned(64)));

static inline uint64_t region_va(unsigned i) { return REGION_VA + (uint64_t)i * PAGE_4K; }

/* 1 when the firmware has the unit's driver: it offers the batched extension. */
static inline int unit_firmware(void)
{
	return sbi_ecall(SBI_EXT_BASE, SBI_BASE_PROBE_EXT, SBI_EXT_TLBSD, 0, 0, 0, 0, 0).value != 0;
}

static inline int path_available(enum path p)
{
	return (p <= PATH_B) != unit_firmware();
}

/* Boot hart: one page table for every hart, the region mapped non-global. */
static inline void paths_setup(void)
{
	paths_root = vm_kernel_root();
	for (unsigned i = 0; i < REGION_PAGES; i++) {
		region_leaf[i] = vm_map(paths_root, region_va(i), (uint64_t)region_pages[i], PAGE_4K, PTE_R | PTE_W);
		CHECK(region_leaf[i]);
		region_pte[i] = *region_leaf[i];
	}
	if (unit_firmware())
		CHECK(fdt_reg_of(TLBSD_COMPATIBLE) == TLBSD_BASE);
}

/* Every hart, after paths_setup. */
static inline void paths_enter(void)
{
	csr_write(satp, vm_satp(paths_root, ASID));
	sfence_vma_all();
}

static inline void region_unmap(unsigned first, unsigned n)
{
	for (unsigned i = first; i < first + n; i++)
		*region_leaf[i] = 0;
}

/* Local only: the caller must make sure no hart still caches the old
 * (invalid) entry, which RISC-V allows to stay cached. */
static inline void region_remap(unsigned first, unsigned n)
{
	for (unsigned i = first; i < first + n; i++)
		*region_leaf[i] = region_pte[i];
	sfence_vma_all();
}

static inline uint64_t hart_mask_of(const unsigned *harts, unsigned n)
{
	uint64_t m = 0;
	for (unsigned i = 0; i < n; i++)
		m |= 1UL << harts[i];
	return m;
}

/* Fills this hart's list with one single-page entry per page. */
static inline uint64_t *page_list(unsigned first, unsigned n)
{
	uint64_t *list = path_lists[hart_id()];
	for (unsigned i = 0; i < n; i++)
		list[i] = TLBSD_ENTRY(TLBSD_KIND_VA_ASID, TLBSD_SIZE_4K, 1, region_va(first + i), ASID);
	return list;
}

/* Shoots down pages [first, first + n) of the region on `targets` by path
 * p; returns 0 or the first error (an SBI error, or -TLBSD_ERR_* for e). */
static inline long flush_region(enum path p, uint64_t targets, unsigned first, unsigned n)
{
	struct sbiret r = { 0, 0 };
	switch (p) {
	case PATH_A:
		for (unsigned i = 0; i < n && !r.error; i++)
			r = sbi_ecall(SBI_EXT_RFENCE, SBI_RFENCE_SFENCE_VMA_ASID, targets, 0, region_va(first + i),
				      PAGE_4K, ASID, 0);
		return r.error;
	case PATH_B:
	case PATH_C:
		r = sbi_ecall(SBI_EXT_RFENCE, SBI_RFENCE_SFENCE_VMA_ASID, targets, 0, region_va(first),
			      n * PAGE_4K, ASID, 0);
		return r.error;
	case PATH_D: {
		uint64_t *list = page_list(first, n);
		r = sbi_ecall(SBI_EXT_TLBSD, SBI_TLBSD_FLUSH, targets, 0, (uint64_t)list, 0, n, 0);
		return r.error;
	}
	case PATH_E:
		return tlbsd_flush(hart_id(), targets, page_list(first, n), n);
	default:
		return SBI_ERR_NOT_SUPPORTED;
	}
}

#ifndef PLATFORM_SBI_BOARD
/* A page of the region a held target has cached, and a hold of three of
 * the unit's TIMEOUTs (2^20 cycles, the SoC's reset value). */
#define STUCK_PAGE	100
#define STUCK_DELAY	(3UL << 20)

/*
 * A target whose flush agent cannot acknowledge for `delay` cycles: it
 * caches the translation of region page `page`, then makes a store to the
 * delay RAM that lands `delay` cycles later, which the agent must drain
 * before it acknowledges (an `end` waits at the head of its queue, and the
 * commands after it queue up behind). Handshake through *step: sets 1 once
 * the store is under way, waits for 2, loads the page and returns what it
 * saw after setting 3.
 */
static inline uint64_t hold_agent_then_load(unsigned page, uint64_t delay, volatile int *step)
{
	volatile uint64_t *delay_reg = (volatile uint64_t *)(DELAY_RAM_BASE + DELAY_RAM_DELAY);
	uint64_t saw;

	(void)*(volatile uint64_t *)region_va(page);	/* its translation is now cached */
	*delay_reg = delay;
	(void)*delay_reg;	/* the delay is set before the store below */
	*step = 1;
	fence();
	*(volatile uint64_t *)DELAY_RAM_BASE = 1;	/* no drain for `delay` cycles */
	while (*step != 2)
		;
	saw = *(volatile uint64_t *)region_va(page);
	fence();
	*step = 3;
	return saw;
}
#endif

/* This hart's count of IPIs taken (each one a trap into M-mode), through an
 * SBI PMU firmware counter started by pmu_ipi_counter(). */
static inline long pmu_ipi_counter(void)
{
	struct sbiret n = sbi_ecall(SBI_EXT_PMU, SBI_PMU_NUM_COUNTERS, 0, 0, 0, 0, 0, 0);
	CHECK(n.error == 0 && n.value > 0 && n.value < 64);
	struct sbiret r = sbi_ecall(SBI_EXT_PMU, SBI_PMU_COUNTER_CFG_MATCH, 0, (1UL << n.value) - 1,
				    SBI_PMU_CFG_CLEAR_AUTO_START, SBI_PMU_FW_IPI_RECVD_EVENT, 0, 0);
	CHECK(r.error == 0);
	return r.value;
}

static inline uint64_t pmu_read(long counter)
{
	struct sbiret r = sbi_ecall(SBI_EXT_PMU, SBI_PMU_COUNTER_FW_READ, counter, 0, 0, 0, 0, 0);
	CHECK(r.error == 0);
	return r.value;
}

#endif
