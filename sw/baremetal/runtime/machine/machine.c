/* M-mode start-up, exit and console for the SoC and QEMU virt. */
#include "internal.h"
#include "shootdown.h"

#define RT_ECALL_RETURN_TO_M 0x0b7e0	/* must match machine/crt0.S */
#define RT_ECALL_CALL_M 0x0b7e1
#define UART_THR 0
#define UART_LSR 5
#define UART_LSR_THRE 0x20
#define UART_LSR_TEMT 0x40

void smode_return(long value) __attribute__((noreturn));

/* Every hart runs start-up in M-mode; hart 0 reads the device tree. */
unsigned long boot_hart(void) { return 0; }

void putchar_raw(int c)
{
	volatile uint8_t *uart = (volatile uint8_t *)UART_BASE;
	while (!(uart[UART_LSR] & UART_LSR_THRE))
		;
	uart[UART_THR] = (uint8_t)c;
}

void hart_entry(unsigned long hartid)
{
	__asm__ volatile ("mv tp, %0" :: "r"(hartid));
	/* S and U may use all of memory; only page tables restrict them. */
	csr_write(pmpaddr0, ~0UL >> 10);
	csr_write(pmpcfg0, 0x1f);	/* NAPOT, R W X */
	csr_write(mcounteren, 7);
	csr_write(scounteren, 7);
	csr_write(medeleg, (1UL << CAUSE_FETCH_PAGE_FAULT) | (1UL << CAUSE_LOAD_PAGE_FAULT) |
			   (1UL << CAUSE_STORE_PAGE_FAULT));
	csr_write(mideleg, 0);
	/* Rocket resets neither mie nor mip: a random SSIP/SSIE would trap an
	 * S-mode program into M-mode (the debug model's random state found it). */
	csr_write(mie, 0);
	csr_write(mip, 0);
	csr_write(stvec, (unsigned long)s_trap_entry);
	csr_write(satp, 0);
	sfence_vma_all();
#if defined(PLATFORM_SOC) || defined(PLATFORM_BOARD) || defined(PLATFORM_BOARD_SDRAM)
	if (!tlbsd_stay_closed)
		tlbsd_open(hartid);
#endif
	int status = main(hartid);
	if (hartid == boot_hart())
		exit(status);
}

void exit(int status)
{
	volatile uint32_t *finisher = (volatile uint32_t *)FINISHER_BASE;
	volatile uint8_t *uart = (volatile uint8_t *)UART_BASE;
	/* A real serial port (the FPGA SoCs) may still be sending the last
	 * line, and the finisher ends a simulation at once. */
	while (!(uart[UART_LSR] & UART_LSR_TEMT))
		;
	fence();
	*finisher = status == 0 ? FINISHER_PASS : ((uint32_t)status << 16) | FINISHER_FAIL;
	for (;;)
		wfi();
}

static void (*m_interrupt_handler)(unsigned long cause);

void set_m_interrupt_handler(void (*fn)(unsigned long mcause)) { m_interrupt_handler = fn; }

void m_trap(struct trap_frame *f)
{
	unsigned long cause = csr_read(mcause);
	if ((long)cause < 0 && m_interrupt_handler) {
		m_interrupt_handler(cause);
		return;
	}
	/* Rocket cannot delegate access faults: record S-mode ones here, as the
	 * S-mode handler records page faults, and skip the access. */
	if ((cause == CAUSE_LOAD_ACCESS || cause == CAUSE_STORE_ACCESS) &&
	    (csr_read(mstatus) & MSTATUS_MPP) == MSTATUS_MPP_S) {
		csr_write(mepc, record_fault(cause, csr_read(mtval), csr_read(mepc)));
		return;
	}
	if (cause == CAUSE_ECALL_S && f->regs[17] == RT_ECALL_RETURN_TO_M)
		smode_return((long)f->regs[11]);
	if (cause == CAUSE_ECALL_S && f->regs[17] == RT_ECALL_CALL_M) {
		long (*fn)(void *) = (long (*)(void *))f->regs[10];
		f->regs[10] = (unsigned long)fn((void *)f->regs[11]);
		csr_write(mepc, csr_read(mepc) + 4);
		return;
	}
	unexpected_trap("M", cause, csr_read(mepc), csr_read(mtval));
}


long call_in_mmode(long (*fn)(void *), void *arg)
{
	register long a0 __asm__("a0") = (long)fn;
	register long a1 __asm__("a1") = (long)arg;
	register long a7 __asm__("a7") = RT_ECALL_CALL_M;
	__asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a7) : "memory");
	return a0;
}
