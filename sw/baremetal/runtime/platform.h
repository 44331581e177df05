/*
 * Addresses of the devices the runtime uses. The simulated SoC places them
 * where QEMU `virt` has them, so both platforms share one set of values; a
 * board port adds its own block here.
 */
#ifndef PLATFORM_H
#define PLATFORM_H

#if defined(PLATFORM_SOC)
#define PLATFORM_NAME "soc"
#elif defined(PLATFORM_QEMU)
#define PLATFORM_NAME "qemu"
#elif defined(PLATFORM_SBI)
#define PLATFORM_NAME "sbi"
#elif defined(PLATFORM_BOARD)
#define PLATFORM_NAME "board"
#else
#error "define PLATFORM_SOC, PLATFORM_QEMU, PLATFORM_SBI or PLATFORM_BOARD"
#endif

#define UART_BASE	0x10000000UL	/* ns16550a, reg-shift 0 */
#define FINISHER_BASE	0x00100000UL	/* sifive,test0 */
#define CLINT_BASE	0x02000000UL
#define DRAM_BASE	0x80000000UL
#define DELAY_RAM_BASE	0x11000000UL	/* SoC only: RAM whose writes land late (hw/soc/SimDelayRam.scala) */
#define DELAY_RAM_NOW		0x1000
#define DELAY_RAM_LAST_WRITE_AT	0x1008
#define DELAY_RAM_DELAY		0x1010

/*
 * The FPGA boards' SoC (docs/fpga.md): 2 harts and 224 KiB of block RAM for
 * a program, its page tables and its stacks. The machine-mode link script
 * reserves the stacks from the Makefile's __max_harts, which must agree.
 */
#if defined(PLATFORM_BOARD)
#define MAX_HARTS	2
#define PT_POOL_PAGES	16
#else
#define MAX_HARTS	8
#define PT_POOL_PAGES	64
#endif
#define STACK_SIZE	8192

#endif
