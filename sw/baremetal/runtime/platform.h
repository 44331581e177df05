/*
 * Addresses of the devices the runtime uses. The simulated SoC places them
 * where QEMU `virt` has them, so both platforms share one set of values; a
 * board port adds its own block here.
 */
#ifndef PLATFORM_H
#define PLATFORM_H

#include "finisher.h"	/* FINISHER_BASE and the commands (generated) */

#if defined(PLATFORM_SOC)
#define PLATFORM_NAME "soc"
#elif defined(PLATFORM_QEMU)
#define PLATFORM_NAME "qemu"
#elif defined(PLATFORM_SBI)
#define PLATFORM_NAME "sbi"
#elif defined(PLATFORM_BOARD)
#define PLATFORM_NAME "board"
#elif defined(PLATFORM_BOARD_SDRAM)
#define PLATFORM_NAME "board-sdram"
#elif defined(PLATFORM_SBI_BOARD)
#define PLATFORM_NAME "sbi-board"
#else
#error "define PLATFORM_SOC, PLATFORM_QEMU, PLATFORM_SBI, PLATFORM_BOARD, PLATFORM_BOARD_SDRAM or PLATFORM_SBI_BOARD"
#endif

#define UART_BASE	0x10000000UL	/* ns16550a, reg-shift 0 */
#define CLINT_BASE	0x02000000UL
#define DRAM_BASE	0x80000000UL
#define DELAY_RAM_BASE	0x11000000UL	/* SoC only: RAM whose writes land late (hw/testing/SimDelayRam.scala) */
#define DELAY_RAM_NOW		0x1000
#define DELAY_RAM_LAST_WRITE_AT	0x1008
#define DELAY_RAM_DELAY		0x1010
#define PLIC_BASE	0x0c000000UL

/*
 * The PLIC source of the shootdown unit's channel 0 (channel h is this + h,
 * as the device tree's tlb-shootdown node lists them). Source 1 is the SoC's
 * external interrupt; on the boards' SoC the serial port takes source 2.
 */
#if defined(PLATFORM_BOARD) || defined(PLATFORM_BOARD_SDRAM)
#define TLBSD_IRQ_SOURCE0	3
#else
#define TLBSD_IRQ_SOURCE0	2
#endif

/*
 * The FPGA boards' SoC (docs/fpga.md): 2 harts and 224 KiB of block RAM for
 * a program, its page tables and its stacks, or under OpenSBI 56 KiB for a
 * payload; with the ULX3S's SDRAM (board-sdram), 8 MiB for the program and
 * TEST_FRAMES for the frames its tests map. The link scripts reserve the
 * stacks from the Makefile's __max_harts, which must agree.
 */
#if defined(PLATFORM_BOARD)
#define MAX_HARTS	2
#define PT_POOL_PAGES	16
#elif defined(PLATFORM_BOARD_SDRAM)
#define MAX_HARTS	2
#define PT_POOL_PAGES	64
#elif defined(PLATFORM_SBI_BOARD)
#define MAX_HARTS	2
#define PT_POOL_PAGES	3	/* the root, and one table a level for REGION_VA */
#else
#define MAX_HARTS	8
#define PT_POOL_PAGES	64
#endif
#define STACK_SIZE	8192
/* The stack of a hart entering a domain it visits (runtime/sbi/crt0.S): no
 * board's firmware has such a domain. */
#if defined(PLATFORM_SBI_BOARD)
#define OTHER_DOMAIN_STACK_SIZE	256
#else
#define OTHER_DOMAIN_STACK_SIZE	4096
#endif

/*
 * Where programs put the physical frames their tests map, 2 MiB-aligned
 * (storm's frames; the litmus tests' arena, LT_ARENA in litmus_core.h): on
 * the SoC 64 MiB into its 256 MiB, on the SDRAM board 8 MiB into its 32
 * MiB, 16 MiB of them, below the loader and its device tree in the last
 * 32 KiB (hw/bootrom/uartboot/loader.h).
 */
#if defined(PLATFORM_BOARD_SDRAM)
#define TEST_FRAMES	(DRAM_BASE + 0x800000UL)
#define TEST_FRAMES_SIZE	0x1000000UL
#else
#define TEST_FRAMES	(DRAM_BASE + 0x4000000UL)
#define TEST_FRAMES_SIZE	0x4000000UL
#endif

#endif
