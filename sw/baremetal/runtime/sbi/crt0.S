/*
 * Start-up of an S-mode payload under OpenSBI: the boot hart enters _start
 * with a0 = hartid, a1 = device tree; it starts the others through SBI HSM at
 * _secondary_start.
 */
#include "platform.h"
#include "start.inc"

	.section .text.init, "ax", @progbits
	.globl _start
_start:
	li	t0, MAX_HARTS
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
