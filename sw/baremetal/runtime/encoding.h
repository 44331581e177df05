/* CSR numbers, bits and accessors used by the runtime. */
#ifndef ENCODING_H
#define ENCODING_H

#define MSTATUS_SIE	(1UL << 1)
#define MSTATUS_MIE	(1UL << 3)
#define MSTATUS_SPP	(1UL << 8)
#define MSTATUS_MPP	(3UL << 11)
#define MSTATUS_MPP_S	(1UL << 11)
#define MSTATUS_SUM	(1UL << 18)

#define CAUSE_LOAD_ACCESS	5
#define CAUSE_STORE_ACCESS	7
#define CAUSE_FETCH_PAGE_FAULT	12
#define CAUSE_LOAD_PAGE_FAULT	13
#define CAUSE_STORE_PAGE_FAULT	15
#define CAUSE_ECALL_S		9
#define CAUSE_INTERRUPT		(1UL << 63)
#define IRQ_M_SOFT		3
#define MIP_MSIP		(1UL << IRQ_M_SOFT)

#define SATP_MODE_SV39	(8UL << 60)

#ifndef __ASSEMBLER__
#include <stdint.h>

#define csr_read(csr) ({ unsigned long __v; \
	__asm__ volatile ("csrr %0, " #csr : "=r"(__v) :: "memory"); __v; })
#define csr_write(csr, val) \
	__asm__ volatile ("csrw " #csr ", %0" :: "rK"((unsigned long)(val)) : "memory")
#define csr_set(csr, val) \
	__asm__ volatile ("csrs " #csr ", %0" :: "rK"((unsigned long)(val)) : "memory")
#define csr_clear(csr, val) \
	__asm__ volatile ("csrc " #csr ", %0" :: "rK"((unsigned long)(val)) : "memory")

static inline void sfence_vma_all(void) { __asm__ volatile ("sfence.vma" ::: "memory"); }
static inline void sfence_vma_va(unsigned long va)
{
	__asm__ volatile ("sfence.vma %0, zero" :: "r"(va) : "memory");
}
static inline void fence(void) { __asm__ volatile ("fence rw, rw" ::: "memory"); }
static inline void wfi(void) { __asm__ volatile ("wfi"); }
static inline uint64_t rdcycle(void)
{
	uint64_t c;
	__asm__ volatile ("rdcycle %0" : "=r"(c));
	return c;
}
#endif
#endif
