/*
 * Boot ROM of the FPGA SoCs at 0x10000 (Rocket resets to 0x10040): it loads
 * a program over the UART instead of finding one in DRAM (docs/fpga.md).
 *
 * Hart 0 copies the device tree rocket-chip appends after this image to
 * DTB_ADDR, copies the loader (loader.c, linked at LOADER_BASE) to DRAM and
 * runs it. The other harts sleep until hart 0 raises their software
 * interrupt, which it does once the host says "go" and the entry address is
 * in RELEASE_ADDR; then every hart enters the program with a0 = mhartid and
 * a1 = DTB_ADDR, as the simulation ROM and QEMU hand over. A software
 * interrupt, not a flag in DRAM, because DRAM keeps the last run's contents
 * across a reset on a board.
 */
#include "loader.h"
#include "../fdt.inc"

	.section .text.start, "ax", @progbits
	.globl _start
_start:
	j	_reset
	.org	0x40
_reset:
	csrr	a0, mhartid
	bnez	a0, secondary

	la	t0, _dtb
	li	a1, DTB_ADDR
	fdt_totalsize			/* t2 = size in bytes */
	add	a2, t0, t2
	jal	copy			/* t0..a2 -> a1 */

	la	t0, loader_image
	la	a2, loader_image_end
	li	a1, LOADER_BASE
	jal	copy
	fence.i
	li	sp, STACK_TOP
	li	t0, LOADER_BASE
	jr	t0			/* loader_main, never returns */

/* Copies [t0, a2) to a1, a dword at a time; clobbers t0, t3, t4, a1. */
copy:
	ld	t4, 0(t0)
	sd	t4, 0(a1)
	addi	t0, t0, 8
	addi	a1, a1, 8
	bltu	t0, a2, copy
	ret

secondary:
	li	t0, 8			/* MIP_MSIP */
	csrw	mie, t0
1:	wfi
	csrr	t1, mip
	and	t1, t1, t0
	beqz	t1, 1b
	csrw	mie, zero
	li	t1, 0x02000000		/* CLINT msip[hartid] := 0 */
	slli	t2, a0, 2
	add	t1, t1, t2
	sw	zero, 0(t1)
	fence	rw, rw
	li	t1, RELEASE_ADDR
	ld	t1, 0(t1)
	li	a1, DTB_ADDR
	fence.i
	jr	t1

	.align	3
loader_image:
	.incbin	LOADER_BIN
	.align	3
loader_image_end:
	.align	3
_dtb:
