/* Start-up, exit and traps of the bare-metal runtime. */
#include "internal.h"

#define FDT_MAGIC	0xd00dfeed
#define FDT_BEGIN_NODE	1
#define FDT_END_NODE	2
#define FDT_PROP	3
#define FDT_NOP		4
#define FDT_END		9

static unsigned hart_count = 1;
static const void *fdt_addr;
static struct fault_log fault_logs[MAX_HARTS];

static uint32_t be32(const void *p)
{
	const uint8_t *b = p;
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

/* Counts /cpus/cpu@N nodes; 0 when the blob is not a device tree. */
static unsigned fdt_count_cpus(const void *fdt)
{
	const uint8_t *base = fdt;
	if (!fdt || be32(base) != FDT_MAGIC)
		return 0;
	const uint8_t *p = base + be32(base + 8);
	unsigned depth = 0, count = 0;
	int in_cpus = 0;
	for (;;) {
		uint32_t token = be32(p);
		p += 4;
		switch (token) {
		case FDT_BEGIN_NODE: {
			const char *name = (const char *)p;
			depth++;
			if (depth == 2)
				in_cpus = strcmp(name, "cpus") == 0;
			else if (depth == 3 && in_cpus && name[0] == 'c' && name[1] == 'p' &&
				 name[2] == 'u' && name[3] == '@')
				count++;
			p += (strlen(name) + 4) & ~3UL;
			break;
		}
		case FDT_END_NODE:
			depth--;
			break;
		case FDT_PROP:
			p += 8 + ((be32(p) + 3) & ~3U);
			break;
		case FDT_NOP:
			break;
		default:
			return count;
		}
	}
}

/* Hart 0, before any other hart runs C code. */
void runtime_boot(const void *fdt)
{
	fdt_addr = fdt;
	unsigned n = fdt_count_cpus(fdt);
	hart_count = n == 0 ? 1 : n > MAX_HARTS ? MAX_HARTS : n;
}

unsigned num_harts(void) { return hart_count; }
const void *boot_fdt(void) { return fdt_addr; }

/* tp holds the hart id, so S-mode code can find its own data too. */
unsigned long hart_id(void)
{
	unsigned long id;
	__asm__ volatile ("mv %0, tp" : "=r"(id));
	return id;
}

void check_failed(const char *file, int line, const char *what)
{
	printf("FAIL: hart %lu: %s:%d: CHECK(%s)\n", hart_id(), file, line, what);
	exit(1);
}

void __attribute__((noreturn)) unexpected_trap(const char *mode, unsigned long cause,
						      unsigned long epc, unsigned long tval)
{
	printf("FAIL: hart %lu: unexpected %s-mode trap: cause %lu epc 0x%lx tval 0x%lx\n", hart_id(),
	       mode, cause, epc, tval);
	exit(99);
}

static int insn_length(unsigned long epc)
{
	return (*(volatile uint16_t *)epc & 3) == 3 ? 4 : 2;
}

void s_trap(struct trap_frame *f)
{
	(void)f;
	unsigned long cause = csr_read(scause);
	unsigned long epc = csr_read(sepc);
	if (cause == CAUSE_LOAD_PAGE_FAULT || cause == CAUSE_STORE_PAGE_FAULT) {
		csr_write(sepc, record_fault(cause, csr_read(stval), epc));
		return;
	}
	unexpected_trap("S", cause, epc, csr_read(stval));
}

struct fault_log *my_faults(void) { return &fault_logs[hart_id()]; }

unsigned long record_fault(unsigned long cause, unsigned long tval, unsigned long epc)
{
	struct fault_log *log = my_faults();
	log->last_cause = cause;
	log->last_tval = tval;
	log->count++;
	return epc + insn_length(epc);
}

int probe_read64(const volatile uint64_t *p, uint64_t *value)
{
	uint64_t before = my_faults()->count;
	uint64_t v = 0;
	__asm__ volatile ("ld %0, 0(%1)" : "+r"(v) : "r"(p) : "memory");
	*value = v;
	return my_faults()->count != before;
}

int probe_write64(volatile uint64_t *p, uint64_t value)
{
	uint64_t before = my_faults()->count;
	__asm__ volatile ("sd %0, 0(%1)" :: "r"(value), "r"(p) : "memory");
	return my_faults()->count != before;
}
