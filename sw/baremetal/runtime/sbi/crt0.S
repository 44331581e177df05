/*
 * Start-up of an S-mode payload under OpenSBI: the boot hart enters _start
 * with a0 = hartid, a1 = device tree; it starts the others through SBI HSM at
 * _secondary_start. A hart that OpenSBI boots for another domain into the
 * same image (sw/opensbi/domains.dts) enters at _start + 4, which is
 * _secondary_start: it must not set the image up again, and its program
 * waits until the boot hart has.
 */
#include "platform.h"
#include "start.inc"

	.section .text.init, "ax", @progbits
	.globl _start
_start:
	.option push
	.option norvc
	j	1f
	j	_secondary_start
	.option pop
1:	li	t0, MAX_HARTS
	bgeu	a0, t0, park
	SETUP_GP_AND_STACK
	CLEAR_BSS
	mv	s0, a0
	mv	a0, a1
	call	runtime_boot
	mv	a0, s0
	call	sbi_boot_hart
	j	park

	.globl	_secondary_start
_secondary_start:
	li	t0, MAX_HARTS
	bgeu	a0, t0, park
	SETUP_GP_AND_STACK
	call	hart_entry
park:
	wfi
	j	park
