/* S-mode trap entry, shared by both runtimes. */
#include "trap_frame.inc"

	.text
/* S-mode traps run on the interrupted stack (identity-mapped DRAM). */
	.align	2
	.globl	s_trap_entry
s_trap_entry:
	addi	sp, sp, -FRAME_BYTES
	SAVE_FRAME
	addi	t0, sp, FRAME_BYTES
	sd	t0, 2*8(sp)
	mv	a0, sp
	call	s_trap
	RESTORE_FRAME
	addi	sp, sp, FRAME_BYTES
	sret

