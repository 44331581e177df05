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

/* Walks the structure block: calls node(name, depth, ctx) at each node start
 * and prop(name, value, len, depth, ctx) at each property; stops when one
 * returns nonzero. */
struct fdt_walk {
	int (*node)(const char *name, unsigned depth, void *ctx);
	int (*prop)(const char *name, const uint8_t *value, uint32_t len, unsigned depth, void *ctx);
	void *ctx;
};

static int fdt_walk(const void *fdt, const struct fdt_walk *w)
{
	const uint8_t *base = fdt;
	if (!fdt || be32(base) != FDT_MAGIC)
		return -1;
	const uint8_t *p = base + be32(base + 8);
	const char *strings = (const char *)base + be32(base + 12);
	unsigned depth = 0;
	for (;;) {
		uint32_t token = be32(p);
		p += 4;
		switch (token) {
		case FDT_BEGIN_NODE: {
			const char *name = (const char *)p;
			depth++;
			if (w->node && w->node(name, depth, w->ctx))
				return 0;
			p += (strlen(name) + 4) & ~3UL;
			break;
		}
		case FDT_END_NODE:
			depth--;
			break;
		case FDT_PROP: {
			uint32_t len = be32(p);
			if (w->prop && w->prop(strings + be32(p + 4), p + 8, len, depth, w->ctx))
				return 0;
			p += 8 + ((len + 3) & ~3U);
			break;
		}
		case FDT_NOP:
			break;
		default:
			return 0;
		}
	}
}

struct cpu_count { int in_cpus; unsigned count; };

static int count_cpu_node(const char *name, unsigned depth, void *ctx)
{
	struct cpu_count *c = ctx;
	if (depth == 2)
		c->in_cpus = strcmp(name, "cpus") == 0;
	else if (depth == 3 && c->in_cpus && name[0] == 'c' && name[1] == 'p' && name[2] == 'u' && name[3] == '@')
		c->count++;
	return 0;
}

/* Counts /cpus/cpu@N nodes; 0 when the blob is not a device tree. */
static unsigned fdt_count_cpus(const void *fdt)
{
	struct cpu_count c = { 0, 0 };
	const struct fdt_walk w = { count_cpu_node, NULL, &c };
	fdt_walk(fdt, &w);
	return c.count;
}

#define FDT_MAX_DEPTH 16

/* Whether a "compatible" value (a list of strings) names `compatible`. */
static int has_compatible(const uint8_t *value, uint32_t len, const char *compatible)
{
	for (uint32_t off = 0; off < len; off += strlen((const char *)value + off) + 1)
		if (strcmp((const char *)value + off, compatible) == 0)
			return 1;
	return 0;
}

struct reg_search {
	const char *compatible;
	unsigned depth;
	int matched;
	uint32_t address_cells[FDT_MAX_DEPTH];	/* of the node at each depth */
	int has_reg;
	uint64_t node_reg, reg;
};

static int reg_search_node(const char *name, unsigned depth, void *ctx)
{
	(void)name;
	struct reg_search *s = ctx;
	s->depth = depth;
	s->matched = s->has_reg = 0;
	if (depth < FDT_MAX_DEPTH)
		s->address_cells[depth] = 2;	/* the default */
	return 0;
}

/* Properties come before subnodes, so a node's compatible, reg and
 * #address-cells are all seen before its children's. */
static int reg_search_prop(const char *name, const uint8_t *value, uint32_t len, unsigned depth, void *ctx)
{
	struct reg_search *s = ctx;
	if (depth != s->depth || depth >= FDT_MAX_DEPTH)
		return 0;
	if (strcmp(name, "#address-cells") == 0 && len == 4) {
		s->address_cells[depth] = be32(value);
	} else if (strcmp(name, "compatible") == 0) {
		s->matched = has_compatible(value, len, s->compatible);
	} else if (strcmp(name, "reg") == 0) {
		uint32_t cells = depth > 0 ? s->address_cells[depth - 1] : 2;
		s->has_reg = (cells == 1 && len >= 4) || (cells == 2 && len >= 8);
		s->node_reg = cells == 1 ? be32(value) : (uint64_t)be32(value) << 32 | be32(value + 4);
	}
	if (s->matched && s->has_reg) {
		s->reg = s->node_reg;
		return 1;
	}
	return 0;
}

uint64_t fdt_reg_of(const char *compatible)
{
	struct reg_search s = { .compatible = compatible };
	const struct fdt_walk w = { reg_search_node, reg_search_prop, &s };
	fdt_walk(fdt_addr, &w);
	return s.reg;
}

struct prop_search {
	const char *compatible, *prop;
	uint8_t matched[FDT_MAX_DEPTH], has[FDT_MAX_DEPTH];
	int found;
};

static int prop_search_node(const char *name, unsigned depth, void *ctx)
{
	(void)name;
	struct prop_search *s = ctx;
	if (depth < FDT_MAX_DEPTH)
		s->matched[depth] = s->has[depth] = 0;
	return 0;
}

static int prop_search_prop(const char *name, const uint8_t *value, uint32_t len, unsigned depth, void *ctx)
{
	struct prop_search *s = ctx;
	if (depth >= FDT_MAX_DEPTH)
		return 0;
	if (strcmp(name, "compatible") == 0) {
		s->matched[depth] = has_compatible(value, len, s->compatible);
	} else if (strcmp(name, s->prop) == 0) {
		s->has[depth] = 1;
	}
	s->found = s->matched[depth] && s->has[depth];
	return s->found;
}

int fdt_has_prop(const char *compatible, const char *prop)
{
	struct prop_search s = { .compatible = compatible, .prop = prop };
	const struct fdt_walk w = { prop_search_node, prop_search_prop, &s };
	fdt_walk(fdt_addr, &w);
	return s.found;
}

struct memory_search { uint32_t cells[2]; int in_memory; uint64_t size; };

static int memory_search_node(const char *name, unsigned depth, void *ctx)
{
	struct memory_search *s = ctx;
	static const char memory[] = "memory";
	unsigned i = 0;
	while (i < 6 && name[i] == memory[i])
		i++;
	s->in_memory = depth == 2 && i == 6 && (name[6] == 0 || name[6] == '@');
	return 0;
}

/* The root's #address-cells and #size-cells come before its subnodes. */
static int memory_search_prop(const char *name, const uint8_t *value, uint32_t len, unsigned depth, void *ctx)
{
	struct memory_search *s = ctx;
	if (depth == 1 && len == 4 && strcmp(name, "#address-cells") == 0)
		s->cells[0] = be32(value);
	else if (depth == 1 && len == 4 && strcmp(name, "#size-cells") == 0)
		s->cells[1] = be32(value);
	else if (depth == 2 && s->in_memory && strcmp(name, "reg") == 0 && s->cells[1] >= 1 && s->cells[1] <= 2 &&
		 len >= 4 * (s->cells[0] + s->cells[1])) {
		const uint8_t *size = value + 4 * s->cells[0];
		s->size = s->cells[1] == 1 ? be32(size) : (uint64_t)be32(size) << 32 | be32(size + 4);
		return 1;
	}
	return 0;
}

uint64_t fdt_memory_size(void)
{
	struct memory_search s = { { 2, 1 }, 0, 0 };
	const struct fdt_walk w = { memory_search_node, memory_search_prop, &s };
	fdt_walk(fdt_addr, &w);
	return s.size;
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

static void log_fault(unsigned long cause, unsigned long tval)
{
	struct fault_log *log = my_faults();
	log->last_cause = cause;
	log->last_tval = tval;
	log->count++;
}

void s_trap(struct trap_frame *f)
{
	unsigned long cause = csr_read(scause);
	unsigned long epc = csr_read(sepc);
	/* Access faults reach S-mode when the firmware redirects them (OpenSBI
	 * does, for a PMP-denied access). */
	if (cause == CAUSE_LOAD_PAGE_FAULT || cause == CAUSE_STORE_PAGE_FAULT || cause == CAUSE_LOAD_ACCESS ||
	    cause == CAUSE_STORE_ACCESS) {
		csr_write(sepc, record_fault(cause, csr_read(stval), epc));
		return;
	}
	/* probe_fetch's call faulted on its target: nothing there ran, so
	 * go back to the caller (and never read the instruction). */
	if (cause == CAUSE_FETCH_PAGE_FAULT) {
		log_fault(cause, csr_read(stval));
		csr_write(sepc, f->regs[1]);
		return;
	}
	unexpected_trap("S", cause, epc, csr_read(stval));
}

struct fault_log *my_faults(void) { return &fault_logs[hart_id()]; }

unsigned long record_fault(unsigned long cause, unsigned long tval, unsigned long epc)
{
	log_fault(cause, tval);
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

int probe_fetch(const void *code, uint64_t *value)
{
	uint64_t before = my_faults()->count;
	uint64_t v = ((uint64_t (*)(void))code)();
	*value = v;
	return my_faults()->count != before;
}

int probe_write64(volatile uint64_t *p, uint64_t value)
{
	uint64_t before = my_faults()->count;
	__asm__ volatile ("sd %0, 0(%1)" :: "r"(value), "r"(p) : "memory");
	return my_faults()->count != before;
}
