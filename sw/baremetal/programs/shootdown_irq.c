/*
 * Completion by interrupt: hart 0 enables its channel's interrupt in the
 * unit and the PLIC, posts a request to every hart and sleeps in WFI. The
 * PLIC must deliver the channel's source (TLBSD_IRQ_SOURCE0 + channel,
 * runtime/platform.h; the system tests check that against the device tree) once the request has
 * completed, and claiming it plus clearing IRQ_PENDING must quiet the line.
 */
#include "runtime.h"
#include "shootdown.h"

#define PLIC_PRIORITY(s)	((volatile uint32_t *)(PLIC_BASE + 4 * (s)))
#define PLIC_PENDING(s)		((volatile uint32_t *)(PLIC_BASE + 0x1000 + 4 * ((s) / 32)))
#define PLIC_ENABLE(ctx, s)	((volatile uint32_t *)(PLIC_BASE + 0x2000 + 0x80 * (ctx) + 4 * ((s) / 32)))
#define PLIC_THRESHOLD(ctx)	((volatile uint32_t *)(PLIC_BASE + 0x200000 + 0x1000 * (ctx)))
#define PLIC_CLAIM(ctx)		((volatile uint32_t *)(PLIC_BASE + 0x200004 + 0x1000 * (ctx)))
#define MIP_MEIP		(1UL << 11)
#define MSTATUS_MIE_BIT		(1UL << 3)

static uint64_t list[1] __attribute__((aligned(64)));
static volatile uint32_t claimed;
static volatile uint64_t status_at_irq;

static void irq_handler(unsigned long cause)
{
	if ((cause & 0xff) != 11) {
		printf("FAIL: unexpected interrupt, mcause %lx\n", cause);
		exit(99);
	}
	uint32_t src = *PLIC_CLAIM(0);
	status_at_irq = *tlbsd_chan(0, TLBSD_CH_STATUS);
	*tlbsd_chan(0, TLBSD_CH_IRQ_PENDING) = 1;
	*PLIC_CLAIM(0) = src;
	claimed = src;
}

int main(unsigned long hartid)
{
	if (hartid != 0) {
		barrier();
		return 0;
	}
	unsigned src = TLBSD_IRQ_SOURCE0 + 0;
	*PLIC_PRIORITY(src) = 1;
	*PLIC_ENABLE(0, src) = 1u << (src % 32);
	*PLIC_THRESHOLD(0) = 0;
	*tlbsd_chan(0, TLBSD_CH_IRQ_PENDING) = 1;	/* start clean */
	CHECK((*PLIC_PENDING(src) & (1u << (src % 32))) == 0);
	*tlbsd_chan(0, TLBSD_CH_IRQ_ENABLE) = 1;
	set_m_interrupt_handler(irq_handler);
	csr_set(mie, MIP_MEIP);
	list[0] = TLBSD_ENTRY(TLBSD_KIND_ALL, 0, 1, 0, 0);
	long t = tlbsd_post(0, (1UL << num_harts()) - 1, list, 1);
	CHECK(t > 0);
	uint64_t t0 = rdcycle();
	/* WFI wakes on a pending, enabled interrupt even with mstatus.MIE
	 * clear; the interrupt is taken in the window that sets it. */
	while (!claimed) {
		wfi();
		csr_set(mstatus, MSTATUS_MIE_BIT);
		csr_clear(mstatus, MSTATUS_MIE_BIT);
		CHECK(rdcycle() - t0 < 1000000);
	}
	csr_clear(mie, MIP_MEIP);
	printf("interrupt from source %u after %lu cycles\n", claimed, (unsigned long)(rdcycle() - t0));
	CHECK(claimed == src);
	/* The interrupt meant: every request of the channel had completed. */
	CHECK(TLBSD_STATUS_DONE(status_at_irq) == (uint32_t)t && (status_at_irq & TLBSD_STATUS_IDLE));
	CHECK(*tlbsd_chan(0, TLBSD_CH_IRQ_PENDING) == 0);
	CHECK((*PLIC_PENDING(src) & (1u << (src % 32))) == 0);
	printf("PASS: completion interrupt\n");
	barrier();
	return 0;
}
