/*
 * What the litmus back ends under OpenSBI share (sbi_litmus_*.c): sleeping
 * in S-mode WFI with interrupts off until an SBI IPI, and main().
 */
#ifndef LITMUS_SBI_H
#define LITMUS_SBI_H

#define SIP_SSIP			(1UL << 1)

static void lt_sleep(unsigned me)
{
	csr_set(sie, SIP_SSIP);
	while (!wake[me])
		wfi();
	csr_clear(sie, SIP_SSIP);
	csr_clear(sip, SIP_SSIP);
}

static void lt_wake(unsigned hart) { sbi_ecall(SBI_EXT_IPI, 0, 1UL << hart, 0, 0, 0, 0, 0); }

int main(unsigned long hartid)
{
	if (hartid == boot_hart()) {
		base_root = vm_kernel_root();
		printf("litmus-backend %s\n", BACKEND);
	}
	barrier();
	int r = litmus_main(hart_id());
	barrier();
	if (hartid == boot_hart())
		printf("litmus-done\n");
	return r;
}

#endif
