/*
 * The UART loader of the FPGA boot ROM (docs/fpga.md, "Loading programs"):
 * hart 0 runs it from DRAM (the ROM copies it there: the ROM is uncached and
 * a loop run from it could not keep up with the line). It answers framed
 * commands from the host tool, fpga/tools/uartboot.py:
 *
 *   0xb5 TYPE ADDR(8, LE) LEN(4, LE) PAYLOAD(LEN if TYPE is 'W') CRC32(4, LE)
 *
 * the CRC (zlib's) covering TYPE to the end of the payload. TYPE 'P' ping,
 * 'W' write the payload at ADDR, 'Z' write LEN zero bytes at ADDR, 'G' start
 * every hart at ADDR. Each frame is answered 'K' 0 when done, or 'N' CODE
 * (LOADER_E_*) when refused, and after a refusal, once the line has been
 * quiet for a while, 'R': the host sends nothing between a frame and its
 * answer, and retransmits after 'R'.
 */
#include <stdint.h>

#include "loader.h"

#define UART_RBR	0
#define UART_LSR	5
#define UART_RXDATA	0x10	/* hw/devices/Uart.scala: bit 31 empty, else a byte, popped */
#define LSR_DR		0x01
#define LSR_OE		0x02
#define LSR_TEMT	0x40
#define CLINT_MSIP	0x02000000UL
#define MAX_HARTS	8

static volatile uint8_t *const uart = (volatile uint8_t *)UART_BASE;
static uint32_t crc_table[256];

static void put(uint8_t c)
{
	while (!(uart[UART_LSR] & 0x20))
		;
	uart[UART_RBR] = c;
}

static void puts_(const char *s)
{
	while (*s)
		put((uint8_t)*s++);
}

/* A received byte, or -1 if the receiver overran: one bus access a byte
 * while bytes are waiting, LSR only when none is (an overrun needs a full
 * FIFO, so it is seen before the FIFO runs dry). */
static int get(void)
{
	for (;;) {
		uint32_t d = *(volatile uint32_t *)(UART_BASE + UART_RXDATA);
		if (!(d >> 31))
			return d & 0xff;
		if (uart[UART_LSR] & LSR_OE)
			return -1;
	}
}

static uint64_t cycles(void)
{
	uint64_t c;

	__asm__ volatile("rdcycle %0" : "=r"(c));
	return c;
}

/* Drops what is still arriving until the line has been quiet for
 * QUIET_CYCLES, then tells the host it may send again. */
static void resync(void)
{
	uint64_t last = cycles();

	while (cycles() - last < QUIET_CYCLES) {
		if (uart[UART_LSR] & LSR_DR) {
			(void)uart[UART_RBR];
			last = cycles();
		}
	}
	put('R');
}

static uint32_t crc_byte(uint32_t crc, uint8_t b)
{
	return crc_table[(crc ^ b) & 0xff] ^ (crc >> 8);
}

/* Reads n little-endian bytes into the CRC and the value. */
static int field(unsigned n, uint32_t *crc, uint64_t *v)
{
	*v = 0;
	for (unsigned i = 0; i < n; i++) {
		int c = get();
		if (c < 0)
			return -1;
		if (crc)
			*crc = crc_byte(*crc, (uint8_t)c);
		*v |= (uint64_t)c << (8 * i);
	}
	return 0;
}

/* A program's .bss can be megabytes: a dword at a time where aligned. */
static void zero(uint64_t addr, uint64_t len)
{
	uint64_t end = addr + len;

	for (; addr < end && (addr & 7); addr++)
		*(volatile uint8_t *)addr = 0;
	for (; addr + 8 <= end; addr += 8)
		*(volatile uint64_t *)addr = 0;
	for (; addr < end; addr++)
		*(volatile uint8_t *)addr = 0;
}

static int inside(uint64_t addr, uint64_t len)
{
	return addr >= DRAM_BASE && len <= LOADER_BASE - DRAM_BASE && addr - DRAM_BASE <= LOADER_BASE - DRAM_BASE - len;
}

static void start_all(uint64_t entry)
{
	volatile uint64_t *release = (volatile uint64_t *)RELEASE_ADDR;

	while (!(uart[UART_LSR] & LSR_TEMT))
		;
	*release = entry;
	__asm__ volatile("fence rw, rw; fence.i" ::: "memory");
	for (unsigned h = 1; h < MAX_HARTS; h++)
		((volatile uint32_t *)CLINT_MSIP)[h] = 1;
	((void (*)(uint64_t, uint64_t))entry)(0, DTB_ADDR);
}

/* One frame: 0 when done, else the LOADER_E_* code. */
static int frame(uint64_t *go)
{
	static uint8_t buf[LOADER_MAX_PAYLOAD];
	uint32_t crc = ~0u;
	uint64_t type, addr, len, sum;

	if (field(1, &crc, &type) || field(8, &crc, &addr) || field(4, &crc, &len))
		return LOADER_E_OVERRUN;
	if (type == 'W' && len > LOADER_MAX_PAYLOAD)
		return LOADER_E_LENGTH;
	if (type == 'W')
		for (uint64_t i = 0; i < len; i++) {
			int c = get();
			if (c < 0)
				return LOADER_E_OVERRUN;
			crc = crc_byte(crc, (uint8_t)c);
			buf[i] = (uint8_t)c;
		}
	if (field(4, 0, &sum))
		return LOADER_E_OVERRUN;
	if ((uint32_t)sum != ~crc)
		return LOADER_E_CRC;
	switch (type) {
	case 'P':
		return 0;
	case 'W':
	case 'Z':
		if (!inside(addr, len))
			return LOADER_E_ADDRESS;
		if (type == 'W')
			for (uint64_t i = 0; i < len; i++)
				((volatile uint8_t *)addr)[i] = buf[i];
		else
			zero(addr, len);
		return 0;
	case 'G':
		if (!inside(addr, 4))
			return LOADER_E_ADDRESS;
		*go = addr;
		return 0;
	}
	return LOADER_E_TYPE;
}

__attribute__((section(".text.loader_main"), noreturn)) void loader_main(void)
{
	for (unsigned i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crc_table[i] = c;
	}
	puts_("\r\nuartboot: ready\r\n");
	for (;;) {
		int c = get();
		uint64_t go = 0;
		int err;

		if (c < 0)
			err = LOADER_E_OVERRUN;	/* bytes were lost: maybe a frame's */
		else if (c != LOADER_SYNC)
			continue;		/* console noise, or a host that lost its place */
		else
			err = frame(&go);
		if (err) {
			put('N');
			put((uint8_t)err);
			resync();
			continue;
		}
		put('K');
		put(0);
		if (go)
			start_all(go);
	}
}
