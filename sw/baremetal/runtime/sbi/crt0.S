/*
 * Start-up of an S-mode payload under OpenSBI: the boot hart enters _start
 * with a0 = hartid, a1 = device tree; it starts the others through SBI HSM at
 * _secondary_start. A hart that OpenSBI boots for another domain into the
 * same image (sw/opensbi/domains.dts) enters at _start + 4, which is
 * _secondary_start: it must not set the image up again, and its program
 * waits until the boot hart has. A hart that OpenSBI's domain context
 * switch starts in a domain it visits enters at _start + 8 with a stack of
 * its own (its stack in the domain it left still holds that domain's
 * frames), and runs other_domain_entry().
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
	j	_other_domain_start
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

_other_domain_start:
	.option push
	.option norelax
	la	gp, __global_pointer$
	.option pop
	la	sp, other_domain_stack
	li	t0, OTHER_DOMAIN_STACK_SIZE
	add	sp, sp, t0
	call	other_domain_entry
	j	park
