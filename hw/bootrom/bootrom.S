/*
 * Boot ROM at 0x10000. Rocket resets to 0x10040 (BootROMParams.hang).
 *
 * rocket-chip appends the device tree right after this image. Hart 0
 * copies it to the last 64 KiB of DRAM, where QEMU `virt` also puts its
 * device tree, and every hart jumps to DRAM with a0 = mhartid, a1 = that
 * copy. Parsing it in place would cost a bus round trip per byte: the ROM is
 * uncached, and OpenSBI spent over 10 M cycles reading it there.
 *
 * Hart 0 writes the header's first dword last; the other harts wait until the
 * copy's first dword equals the ROM's. (Copying on every hart at once made
 * the harts fight over each cache line for millions of cycles.)
 */
#include "fdt.inc"

#define DRAM_BASE	0x80000000
#define DTB_COPY	0x8fff0000	/* DRAM_BASE + 256 MiB - 64 KiB */

	.section .text.start, "ax", @progbits
	.globl _start
_start:
	j	_reset
	.org	0x40
_reset:
	la	t0, _dtb
	li	a1, DTB_COPY
	csrr	a0, mhartid
	bnez	a0, wait_for_copy

	fdt_totalsize			/* t2 = size in bytes */
	add	t2, t0, t2		/* end of the ROM copy */
	addi	t1, t0, 8
	addi	t3, a1, 8
1:	ld	t4, 0(t1)
	sd	t4, 0(t3)
	addi	t1, t1, 8
	addi	t3, t3, 8
	bltu	t1, t2, 1b
	fence	rw, rw
	ld	t4, 0(t0)
	sd	t4, 0(a1)		/* publish: magic and totalsize */
	fence	rw, rw
	j	enter_dram

wait_for_copy:
	ld	t4, 0(t0)
1:	ld	t5, 0(a1)
	bne	t4, t5, 1b
	fence	rw, rw

enter_dram:
	li	t0, DRAM_BASE
	jr	t0
	.align	3
_dtb:
