/*
 * Who may use the shootdown unit: M-mode always; an S-mode hart only through
 * the window M-mode opens for it with the PMP, its own channel page. Each hart
 * gets: PMP entry 0 = its channel (read/write), entry 1 = the rest of the unit
 * (no access), entry 2 = everything else. From S-mode its own channel then
 * works (a real request completes), while another hart's channel and the
 * global page (CEILING, counters) raise access faults. The unit itself
 * cannot see privilege (TileLink carries none), so the PMP is the gate.
 */
#include "runtime.h"
#include "shootdown.h"

#define PMP_NAPOT	0x18
#define PMP_R		0x01
#define PMP_W		0x02
#define PMP_X		0x04

static uint64_t list[1] __attribute__((aligned(64)));
static volatile int failures;

static unsigned long napot(unsigned long base, unsigned long size) { return (base + size / 2 - 1) >> 2; }

static void fail(const char *what)
{
	printf("FAIL: hart %lu: %s\n", hart_id(), what);
	__atomic_add_fetch(&failures, 1, __ATOMIC_ACQ_REL);
}

static long smode_main(void *arg)
{
	(void)arg;
	unsigned long me = hart_id(), other = (me + 1) % num_harts();
	uint64_t v;
	if (probe_read64(tlbsd_chan(me, TLBSD_CH_STATUS), &v))
		fail("its own channel is closed to S-mode");
	if (!probe_read64(tlbsd_chan(other, TLBSD_CH_STATUS), &v) || my_faults()->last_cause != CAUSE_LOAD_ACCESS)
		fail("another hart's channel is open to S-mode");
	if (!probe_write64(tlbsd_chan(other, TLBSD_CH_TARGETS), 1) || my_faults()->last_cause != CAUSE_STORE_ACCESS)
		fail("another hart's channel takes S-mode writes");
	if (!probe_write64(tlbsd_global(TLBSD_CEILING), 0) || my_faults()->last_cause != CAUSE_STORE_ACCESS)
		fail("the global page takes S-mode writes");
	if (!probe_read64(tlbsd_global(TLBSD_CTR_REQUESTS), &v))
		fail("the global page is readable from S-mode");
	barrier();
	/* A whole request through the window, to every hart. */
	if (tlbsd_flush(me, (1UL << num_harts()) - 1, list, 1) != 0)
		fail("a request through its window did not complete");
	barrier();
	return 0;
}

int main(unsigned long hartid)
{
	unsigned long chan = TLBSD_BASE + TLBSD_CHANNEL(hartid);
	csr_write(pmpaddr0, napot(chan, 0x1000));
	csr_write(pmpaddr1, napot(TLBSD_BASE, TLBSD_WINDOW_SIZE));
	csr_write(pmpaddr2, ~0UL >> 10);
	csr_write(pmpcfg0, (unsigned long)(PMP_NAPOT | PMP_R | PMP_W) | (unsigned long)PMP_NAPOT << 8 |
			   (unsigned long)(PMP_NAPOT | PMP_R | PMP_W | PMP_X) << 16);
	if (hartid == 0)
		list[0] = TLBSD_ENTRY(TLBSD_KIND_ALL, 0, 1, 0, 0);
	barrier();
	long r = run_in_smode(smode_main, 0);
	barrier();
	/* M-mode is not bound by unlocked PMP entries. */
	if (hartid == 0) {
		uint64_t ceiling = *tlbsd_global(TLBSD_CEILING);
		*tlbsd_global(TLBSD_CEILING) = ceiling;
		if (failures == 0 && r == 0)
			printf("PASS: S-mode reaches only its own channel, M-mode all of the unit\n");
	}
	return failures ? 1 : (int)r;
}
