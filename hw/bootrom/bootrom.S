/*
 * Boot ROM at 0x10000. Rocket resets to 0x10040 (BootROMParams.hang). Every
 * hart jumps to DRAM with a0 = mhartid and a1 = the device tree, which
 * rocket-chip appends right after this image.
 */
	.section .text.start, "ax", @progbits
	.globl _start
_start:
	j	_reset
	.org	0x40
_reset:
	csrr	a0, mhartid
	la	a1, _dtb
	li	t0, 1
	slli	t0, t0, 31		/* DRAM base 0x8000_0000 */
	jr	t0
	.align	3
_dtb:
