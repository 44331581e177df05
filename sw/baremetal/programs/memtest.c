/* memtest: main memory between this program's 256 KiB and the device tree
 * the boot ROM left at the top (boards' SoCs: hw/bootrom/uartboot), checked
 * by the boot hart while the others wait:
 *   - the data lines: each of the 64 bits alone set, and alone clear
 *   - the address lines: the region's start and start + 2^k for each k
 *     that stays inside it each hold their own address, so that no two alias
 *   - the byte lanes: bytes, halves and words stored at every aligned offset
 *     of a doubleword over a known background
 *   - windows spread over the region (start, a third, two thirds, the end)
 *     filled with a xorshift pattern seeded by the address, then read back
 *     (MEMTEST_WINDOW bytes each; memtest_full: one window, all of it)
 * Each check writes everything first, then reads 64 KiB elsewhere (more
 * than any L1 cache here) so that what is read back comes from memory, not
 * from the cache. Prints what it checked and exits 0, or the first
 * mismatch (address, wanted, read) and exits 1. */
#include "runtime.h"

#ifndef MEMTEST_WINDOW
#define MEMTEST_WINDOW (64UL << 10)
#endif
#define PROGRAM_BYTES (256UL << 10)
#define EVICT_BYTES (64UL << 10)

static uintptr_t start, end;
static unsigned long checked;

static void evict(uintptr_t away)
{
	volatile uint64_t *p = (volatile uint64_t *)away;
	for (unsigned long i = 0; i < EVICT_BYTES / 8; i += 8)
		(void)p[i];
}

static void expect(uintptr_t addr, uint64_t want, uint64_t got, const char *what)
{
	checked++;
	if (want != got) {
		printf("memtest: %s: at 0x%lx wanted 0x%lx, read 0x%lx\n", what, (unsigned long)addr,
		       (unsigned long)want, (unsigned long)got);
		exit(1);
	}
}

static uint64_t xorshift(uint64_t x)
{
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return x;
}

/* Evicts from somewhere the check did not write: the other end of the region. */
static uintptr_t elsewhere(uintptr_t lo, uintptr_t hi)
{
	return lo - start >= EVICT_BYTES ? start : hi + EVICT_BYTES <= end ? hi : end - EVICT_BYTES;
}

static void data_lines(void)
{
	volatile uint64_t *p = (volatile uint64_t *)start;
	for (unsigned i = 0; i < 64; i++) {	/* a line (64 bytes) a pattern */
		p[16 * i] = 1UL << i;
		p[16 * i + 8] = ~(1UL << i);
	}
	evict(elsewhere(start, start + 128 * 64));
	for (unsigned i = 0; i < 64; i++) {
		expect(start + 128 * i, 1UL << i, p[16 * i], "data line, one bit set");
		expect(start + 128 * i + 64, ~(1UL << i), p[16 * i + 8], "data line, one bit clear");
	}
}

static void address_lines(void)
{
	*(volatile uint64_t *)start = start;
	for (uintptr_t k = 8; start + k + 8 <= end; k <<= 1)
		*(volatile uint64_t *)(start + k) = start + k;
	evict(end - EVICT_BYTES);
	expect(start, start, *(volatile uint64_t *)start, "address lines");
	for (uintptr_t k = 8; start + k + 8 <= end; k <<= 1)
		expect(start + k, start + k, *(volatile uint64_t *)(start + k), "address lines");
}

static void byte_lanes(void)
{
	uintptr_t base = start + 0x10000;	/* a line per store */
	unsigned n = 0;
	for (unsigned width = 1; width <= 4; width <<= 1)
		for (unsigned off = 0; off < 8; off += width, n++) {
			uintptr_t a = base + 64 * n;
			*(volatile uint64_t *)a = 0x0123456789abcdefUL;
			if (width == 1) *(volatile uint8_t *)(a + off) = 0x5a;
			else if (width == 2) *(volatile uint16_t *)(a + off) = 0x5aa5;
			else *(volatile uint32_t *)(a + off) = 0x5aa5c33cU;
		}
	evict(elsewhere(base, base + 64 * n));
	n = 0;
	for (unsigned width = 1; width <= 4; width <<= 1)
		for (unsigned off = 0; off < 8; off += width, n++) {
			uint64_t mask = (width == 8 ? ~0UL : (1UL << 8 * width) - 1) << 8 * off;
			uint64_t value = (uint64_t)(width == 1 ? 0x5a : width == 2 ? 0x5aa5 : 0x5aa5c33cU) << 8 * off;
			uint64_t want = (0x0123456789abcdefUL & ~mask) | value;
			expect(base + 64 * n, want, *(volatile uint64_t *)(base + 64 * n), "byte lane");
		}
}

static void windows(void)
{
	unsigned long size = end - start, w = MEMTEST_WINDOW < size ? MEMTEST_WINDOW : size;
	uintptr_t at[4] = { start, start + (size / 3 & ~63UL), start + (2 * size / 3 & ~63UL), end - w };
	unsigned count = w == size ? 1 : 4;
	for (unsigned i = 0; i < count; i++)
		for (uintptr_t a = at[i]; a < at[i] + w; a += 8)
			*(volatile uint64_t *)a = xorshift(a ^ 0x9e3779b97f4a7c15UL);
	for (unsigned i = 0; i < count; i++)
		for (uintptr_t a = at[i]; a < at[i] + w; a += 8)
			expect(a, xorshift(a ^ 0x9e3779b97f4a7c15UL), *(volatile uint64_t *)a, "pattern");
	printf("memtest: %u window%s of %lu KiB\n", count, count == 1 ? "" : "s", w >> 10);
}

int main(unsigned long hartid)
{
	if (hartid != boot_hart())
		return 0;
	uint64_t bytes = fdt_memory_size();
	start = DRAM_BASE + PROGRAM_BYTES;
	end = (uintptr_t)boot_fdt() & ~0xfffUL;
	if (!bytes || end > DRAM_BASE + bytes)
		end = DRAM_BASE + bytes;
	if (end < start + 4 * EVICT_BYTES) {
		printf("memtest: %lu bytes of memory: too little beyond this program to test\n", (unsigned long)bytes);
		return 2;
	}
	printf("memtest: %lu MiB of memory; testing 0x%lx-0x%lx\n", (unsigned long)(bytes >> 20), (unsigned long)start,
	       (unsigned long)end);
	data_lines();
	address_lines();
	byte_lanes();
	windows();
	printf("memtest: passed: %lu doublewords checked in %lu cycles\n", checked, (unsigned long)rdcycle());
	return 0;
}
