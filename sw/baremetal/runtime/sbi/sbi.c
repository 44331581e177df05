/* S-mode payload runtime: console, hart start-up and exit through SBI. */
#include "internal.h"

#define SBI_EXT_LEGACY_PUTCHAR	0x01
#define SBI_EXT_HSM		0x48534D
#define SBI_EXT_SRST		0x53525354
#define SBI_EXT_DBCN		0x4442434E
#define SBI_HSM_HART_START	0
#define SBI_DBCN_WRITE_BYTE	2
#define SBI_SRST_SHUTDOWN	0
#define SBI_SRST_REASON_NONE	0
#define SBI_SRST_REASON_FAILURE	1

extern char _secondary_start[];

struct sbiret sbi_ecall(unsigned long ext, unsigned long fid, unsigned long a0, unsigned long a1,
			unsigned long a2, unsigned long a3, unsigned long a4, unsigned long a5)
{
	register unsigned long r0 __asm__("a0") = a0;
	register unsigned long r1 __asm__("a1") = a1;
	register unsigned long r2 __asm__("a2") = a2;
	register unsigned long r3 __asm__("a3") = a3;
	register unsigned long r4 __asm__("a4") = a4;
	register unsigned long r5 __asm__("a5") = a5;
	register unsigned long r6 __asm__("a6") = fid;
	register unsigned long r7 __asm__("a7") = ext;
	__asm__ volatile ("ecall" : "+r"(r0), "+r"(r1) : "r"(r2), "r"(r3), "r"(r4), "r"(r5), "r"(r6), "r"(r7)
			  : "memory");
	return (struct sbiret){ (long)r0, (long)r1 };
}

static struct sbiret sbi_call(unsigned long ext, unsigned long fid, unsigned long a0, unsigned long a1,
			      unsigned long a2)
{
	return sbi_ecall(ext, fid, a0, a1, a2, 0, 0, 0);
}

static unsigned long boot_hartid;

/* The stack of a hart that enters a domain it visits (crt0.S, _start + 8):
 * one such hart at a time. */
uint8_t other_domain_stack[OTHER_DOMAIN_STACK_SIZE] __attribute__((aligned(16)));

/* What that hart runs, unless its program says otherwise: nothing. */
__attribute__((weak)) void other_domain_entry(unsigned long hartid)
{
	(void)hartid;
}

unsigned long boot_hart(void) { return boot_hartid; }

void putchar_raw(int c)
{
	if (sbi_call(SBI_EXT_DBCN, SBI_DBCN_WRITE_BYTE, (uint8_t)c, 0, 0).error)
		sbi_call(SBI_EXT_LEGACY_PUTCHAR, 0, (uint8_t)c, 0, 0);
}

long sbi_start_hart(unsigned long hart)
{
	return sbi_call(SBI_EXT_HSM, SBI_HSM_HART_START, hart, (unsigned long)_secondary_start, 0).error;
}

/* Boot hart: start every other hart of the device tree, then run main. */
void sbi_boot_hart(unsigned long hartid)
{
	boot_hartid = hartid;
	for (unsigned long h = 0; h < num_harts(); h++) {
		if (h == hartid)
			continue;
		long error = sbi_start_hart(h);
		if (error)
			printf("warning: SBI hart_start(%lu) failed: %ld\n", h, error);
	}
	hart_entry(hartid);
}

void hart_entry(unsigned long hartid)
{
	__asm__ volatile ("mv tp, %0" :: "r"(hartid));
	csr_write(stvec, (unsigned long)s_trap_entry);
	int status = main(hartid);
	if (hartid == boot_hartid)
		exit(status);
}

/* Success goes through SBI system reset (OpenSBI powers off through the
 * finisher); a failure code cannot, so it is written to the finisher. */
void exit(int status)
{
	fence();
	if (status == 0) {
		sbi_call(SBI_EXT_SRST, SBI_SRST_SHUTDOWN, SBI_SRST_REASON_NONE, 0, 0);
	} else {
		*(volatile uint32_t *)FINISHER_BASE = ((uint32_t)status << 16) | FINISHER_FAIL;
		sbi_call(SBI_EXT_SRST, SBI_SRST_SHUTDOWN, SBI_SRST_REASON_FAILURE, 0, 0);
	}
	for (;;)
		wfi();
}
