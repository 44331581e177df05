/*
 * Start-up of an S-mode payload under OpenSBI: the boot hart enters _start
 * with a0 = hartid, a1 = device tree; it starts the others through SBI HSM at
 * _secondary_start.
 */
#include "platform.h"

	.section .text.init, "ax", @progbits
	.globl _start
_start:
	li	t0, MAX_HARTS
	bgeu	a0, t0, park
	call	setup_hart
	la	t0, __bss_start
	la	t1, __bss_end
1:	bgeu	t0, t1, 2f
	sd	zero, 0(t0)
	addi	t0, t0, 8
	j	1b
2:	mv	s0, a0
	mv	a0, a1
	call	runtime_boot
	mv	a0, s0
	call	sbi_boot_hart
	j	park

	.globl	_secondary_start
_secondary_start:
	li	t0, MAX_HARTS
	bgeu	a0, t0, park
	call	setup_hart
	call	hart_entry
park:
	wfi
	j	park

/* gp and this hart's stack; keeps a0/a1. */
setup_hart:
	.option push
	.option norelax
	la	gp, __global_pointer$
	.option pop
	la	sp, _stacks_end
	li	t0, STACK_SIZE
	mul	t1, a0, t0
	sub	sp, sp, t1
	ret
