/*
 * Start-up for every hart, in M-mode at DRAM_BASE with a0 = hartid and
 * a1 = device tree (from the boot ROM or QEMU's reset vector). Hart 0 clears
 * .bss and reads the device tree; the others wait for it, then all call
 * hart_entry(hartid).
 */
#include "encoding.h"
#include "platform.h"
#include "start.inc"
#include "trap_frame.inc"


	.section .text.init, "ax", @progbits
	.globl _start
_start:
	csrr	a0, mhartid
	li	t0, MAX_HARTS
	bgeu	a0, t0, park

	SETUP_GP_AND_STACK
	/* mscratch = top of this hart's trap stack */
	la	t2, _trap_stacks_end
	sub	t2, t2, t1
	csrw	mscratch, t2
	la	t0, m_trap_entry
	csrw	mtvec, t0

	bnez	a0, wait_boot
	CLEAR_BSS
	mv	a0, a1
	call	runtime_boot
	fence	rw, rw
	la	t0, boot_done
	li	t1, 1
	sw	t1, 0(t0)
	j	enter

wait_boot:
	la	t0, boot_done
	lw	t1, 0(t0)
	beqz	t1, wait_boot
	fence	rw, rw
enter:
	csrr	a0, mhartid
	call	hart_entry
park:
	wfi
	j	park

/* M-mode traps run on the per-hart trap stack held in mscratch. */
	.align	2
	.globl	m_trap_entry
m_trap_entry:
	csrrw	sp, mscratch, sp
	addi	sp, sp, -FRAME_BYTES
	SAVE_FRAME
	csrr	t0, mscratch		/* the interrupted sp */
	sd	t0, 2*8(sp)
	mv	a0, sp
	call	m_trap
	ld	t0, 2*8(sp)
	addi	t1, sp, FRAME_BYTES
	csrw	mscratch, t1
	RESTORE_FRAME
	ld	sp, 2*8(sp)
	mret

/*
 * long run_in_smode(long (*fn)(void *), void *arg): saves the M-mode
 * callee-saved state, mrets to smode_trampoline, and comes back through
 * smode_return when fn returns (its ecall lands in m_trap).
 */
	.globl	run_in_smode
run_in_smode:
	csrr	t0, mhartid
	slli	t0, t0, 7		/* 16 words per hart */
	la	t1, m_context
	add	t1, t1, t0
	sd	ra, 0*8(t1)
	sd	sp, 1*8(t1)
	sd	s0, 2*8(t1)
	sd	s1, 3*8(t1)
	sd	s2, 4*8(t1)
	sd	s3, 5*8(t1)
	sd	s4, 6*8(t1)
	sd	s5, 7*8(t1)
	sd	s6, 8*8(t1)
	sd	s7, 9*8(t1)
	sd	s8, 10*8(t1)
	sd	s9, 11*8(t1)
	sd	s10, 12*8(t1)
	sd	s11, 13*8(t1)
	sd	gp, 14*8(t1)
	la	t0, smode_trampoline
	csrw	mepc, t0
	li	t0, MSTATUS_MPP
	csrc	mstatus, t0
	li	t0, MSTATUS_MPP_S
	csrs	mstatus, t0
	mret

smode_trampoline:
	mv	t0, a0			/* fn(arg): fn came in a0, arg in a1 */
	mv	a0, a1
	jalr	t0
	mv	a1, a0
	li	a7, 0x0b7e0		/* RT_ECALL_RETURN_TO_M */
	ecall
1:	j	1b

/* void smode_return(long value): called from m_trap on the trap stack. */
	.globl	smode_return
smode_return:
	csrr	t0, mhartid
	slli	t1, t0, 7
	la	t2, m_context
	add	t2, t2, t1
	/* reset mscratch to the top of this hart's trap stack */
	la	t3, _trap_stacks_end
	li	t4, STACK_SIZE
	mul	t4, t0, t4
	sub	t3, t3, t4
	csrw	mscratch, t3
	ld	ra, 0*8(t2)
	ld	sp, 1*8(t2)
	ld	s0, 2*8(t2)
	ld	s1, 3*8(t2)
	ld	s2, 4*8(t2)
	ld	s3, 5*8(t2)
	ld	s4, 6*8(t2)
	ld	s5, 7*8(t2)
	ld	s6, 8*8(t2)
	ld	s7, 9*8(t2)
	ld	s8, 10*8(t2)
	ld	s9, 11*8(t2)
	ld	s10, 12*8(t2)
	ld	s11, 13*8(t2)
	ld	gp, 14*8(t2)
	ret

	.data
	.globl	boot_done
	.align	2
boot_done:
	.word	0

	.bss
	.align	3
m_context:
	.skip	MAX_HARTS * 16 * 8
