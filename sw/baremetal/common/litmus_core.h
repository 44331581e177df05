/*
 * The litmus interpreter (docs/litmus.md): the tests of tests/litmus,
 * compiled by scripts/litmus_lang/compile.py into litmus_tests.h, run in S-mode,
 * each LT_SCHEDULES times, every hart waiting a seeded random number of
 * cycles before each of its operations. Before each schedule the test's
 * page tables and data are restored and every hart's TLB is flushed and
 * then warmed by touching every page its address space maps (the models
 * start warm too). Prints, per test, the outcomes seen and how often:
 *
 *   litmus NAME schedules N outcomes K
 *   outcome COUNT: 1:r0=1 1:r1=fault A=2
 *
 * and "litmus NAME skipped: ..." for a test that needs more harts than the
 * machine has; scripts/litmus_lang/judge.py judges them against the models.
 *
 * A back end includes this file after defining how requests go out:
 *   long lt_request(unsigned me, uint64_t targets, const uint64_t *list,
 *                   unsigned count, int wait)   0, or an error to report
 *   void lt_sync(unsigned me)     wait for every request this hart posted
 *   void lt_sleep(unsigned me)    WFI, interrupts off, until wake[me]
 *   void lt_wake(unsigned hart)   end that sleep (wake[hart] is set)
 * and calls litmus_main() on every hart in S-mode after setting base_root.
 *
 * A build may define LITMUS_ONLY as a list of test names to run,
 * LITMUS_MIN_HARTS to run only the tests of at least that many harts, and
 * LITMUS_MUTANT_DROP_LAST to leave out the last entry of every request of
 * more than one (the suite must catch it).
 */
#ifndef LITMUS_CORE_H
#define LITMUS_CORE_H

#include "runtime.h"
#include "shootdown.h"
#include "vm.h"

static long lt_request(unsigned me, uint64_t targets, const uint64_t *list, unsigned count, int wait);
static void lt_sync(unsigned me);
static void lt_sleep(unsigned me);
static void lt_wake(unsigned hart);

enum { LT_PTE, LT_RETABLE, LT_SHOOT, LT_POST, LT_SYNC, LT_LOAD, LT_STORE, LT_FETCH, LT_FENCE, LT_SFENCE,
       LT_SATP, LT_WFI };
#define LT_FROM_REG 1

struct lt_map {
	uint8_t space;
	int8_t table;		/* a spare table, or -1: the space's own tables */
	uint8_t level;
	uint64_t va, pa, bits;
};
struct lt_op {
	uint8_t kind, space, reg, flags;
	int8_t level;		/* PTE writes: the slot's level; -1, the leaf */
	uint16_t first, count;	/* requests: their entries */
	uint64_t va, value;
};
struct lt_prog {
	const struct lt_op *ops;
	unsigned n, space;
};
struct lt_data {
	uint64_t pa, value;
	int code;		/* the page holds code returning value */
};
struct lt_reg {
	uint8_t hart, reg;
};
struct lt_observed {
	const char *name;
	uint64_t pa;
};
struct lt_test {
	const char *name;
	unsigned nharts, nspaces, ntables;
	const struct lt_map *maps;
	unsigned nmaps;
	const struct lt_prog *progs;
	const uint64_t *entries;
	const struct lt_data *data;
	unsigned ndata;
	const struct lt_reg *regs;
	unsigned nregs;
	const struct lt_observed *observed;
	unsigned nobserved;
};

/* The tests' 2 MiB frames (scripts/litmus_lang/compile.py numbers them from here) */
#define LT_ARENA	TEST_FRAMES
#include "litmus_tests.h"
_Static_assert(LT_ARENA_BYTES <= TEST_FRAMES_SIZE, "the litmus tests' frames do not fit the platform's TEST_FRAMES");

#define MAX_SPACES	4
#define MAX_TABLES	4
#define MAX_OUTCOMES	48
#define FAULTED		(~0UL)
#define INSN_RET	0x00008067u
#define INSN_LI_A0(v)	(0x00000513u | (uint32_t)(v) << 20)

static pte_t *base_root, *roots[MAX_SPACES], *spare[MAX_TABLES];
static pte_t *slots[MAX_HARTS][LT_MAX_OPS];
static uint64_t slot_init[MAX_HARTS][LT_MAX_OPS];
static uint64_t regs[MAX_HARTS][LT_MAX_REGS];
static uint64_t lists[MAX_HARTS][16] __attribute__((aligned(64)));
static volatile int wake[MAX_HARTS];
static volatile unsigned awake_ended;
static volatile int errors;

struct outcome {
	uint64_t key[LT_MAX_KEY];
	unsigned count;
};
static struct outcome outcomes[MAX_OUTCOMES];
static unsigned noutcomes, overflow;

static unsigned vpn_index(uint64_t va, int level) { return (va >> (12 + 9 * level)) & 511; }

/* The PTE slot an operation writes: the leaf (level -1: where a walk of va
 * ends) or the entry at `level` on va's path, making missing tables. */
static pte_t *slot_of(pte_t *root, uint64_t va, int level)
{
	pte_t *e = level < 0 ? vm_leaf(root, va) : vm_slot(root, va, level);
	CHECK(e);
	return e;
}

static void setup(const struct lt_test *t)
{
	CHECK(t->nspaces <= MAX_SPACES && t->ntables <= MAX_TABLES);
	for (unsigned s = 0; s < t->nspaces; s++)
		roots[s] = vm_kernel_root();
	for (unsigned k = 0; k < t->ntables; k++)
		CHECK(spare[k] = vm_alloc_table());
	/* Tables for every slot an operation writes, before the mappings. */
	for (unsigned h = 0; h < t->nharts; h++)
		for (unsigned i = 0; i < t->progs[h].n; i++) {
			const struct lt_op *op = &t->progs[h].ops[i];
			if (op->kind == LT_PTE && op->level >= 0)
				slot_of(roots[op->space], op->va, op->level);
		}
	for (unsigned m = 0; m < t->nmaps; m++) {
		const struct lt_map *mp = &t->maps[m];
		pte_t *e = mp->table >= 0 ? &spare[mp->table][vpn_index(mp->va, 0)]
					  : slot_of(roots[mp->space], mp->va, mp->level);
		*e = (mp->pa >> 12) << 10 | mp->bits;
	}
	for (unsigned h = 0; h < t->nharts; h++)
		for (unsigned i = 0; i < t->progs[h].n; i++) {
			const struct lt_op *op = &t->progs[h].ops[i];
			slots[h][i] = 0;
			if (op->kind == LT_PTE || op->kind == LT_RETABLE) {
				slots[h][i] = slot_of(roots[op->space], op->va, op->level);
				slot_init[h][i] = *slots[h][i];
			}
		}
	for (unsigned d = 0; d < t->ndata; d++)
		if (t->data[d].code) {
			volatile uint32_t *code = (volatile uint32_t *)t->data[d].pa;
			code[0] = INSN_LI_A0(t->data[d].value);
			code[1] = INSN_RET;
		}
}

/* Page tables and data as the test starts. */
static void reset(const struct lt_test *t)
{
	for (unsigned h = 0; h < t->nharts; h++)
		for (unsigned i = 0; i < t->progs[h].n; i++)
			if (slots[h][i])
				*slots[h][i] = slot_init[h][i];
	for (unsigned d = 0; d < t->ndata; d++)
		if (!t->data[d].code)
			*(volatile uint64_t *)t->data[d].pa = t->data[d].value;
	for (unsigned h = 0; h < MAX_HARTS; h++)
		wake[h] = 0;
	awake_ended = 0;
	fence();
}

static void enter_space(unsigned space)
{
	csr_write(satp, vm_satp(roots[space], 0));
	sfence_vma_all();
}

static void warm(const struct lt_test *t, unsigned space)
{
	for (unsigned m = 0; m < t->nmaps; m++) {
		const struct lt_map *mp = &t->maps[m];
		uint64_t v;
		if (mp->table >= 0 || mp->space != space)
			continue;
		if (mp->bits & PTE_R)
			probe_read64((volatile uint64_t *)mp->va, &v);
		if (mp->bits & PTE_X)
			probe_fetch((const void *)mp->va, &v);
	}
}

static uint64_t next_random(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void delay(uint64_t cycles)
{
	uint64_t start = rdcycle();
	while (rdcycle() - start < cycles)
		;
}

static int sleeps(const struct lt_prog *p)
{
	for (unsigned i = 0; i < p->n; i++)
		if (p->ops[i].kind == LT_WFI)
			return 1;
	return 0;
}

/* The last hart that does not sleep to end its program wakes the others. */
static void end_program(const struct lt_test *t)
{
	unsigned awake = 0;
	for (unsigned h = 0; h < t->nharts; h++)
		awake += !sleeps(&t->progs[h]);
	if (__atomic_add_fetch(&awake_ended, 1, __ATOMIC_ACQ_REL) != awake)
		return;
	for (unsigned h = 0; h < t->nharts; h++)
		if (sleeps(&t->progs[h])) {
			wake[h] = 1;
			fence();
			lt_wake(h);
		}
}

/* Copies a request's entries into this hart's list and hands them to the
 * back end; a refusal is reported and counted. */
static void request(const struct lt_test *t, const struct lt_op *op, unsigned me, int wait)
{
	uint64_t *list = lists[me];
	CHECK(op->count <= sizeof(lists[me]) / sizeof(list[0]));
	for (unsigned e = 0; e < op->count; e++)
		list[e] = t->entries[op->first + e];
	unsigned count = op->count;
#ifdef LITMUS_MUTANT_DROP_LAST
	count -= count > 1;
#endif
	long r = lt_request(me, op->value, list, count, wait);
	if (r) {
		printf("litmus %s error: hart %u: the request was refused (%ld)\n", t->name, me, r);
		errors = 1;
	}
}

static void run(const struct lt_test *t, unsigned me, uint64_t seed, unsigned span)
{
	const struct lt_prog *p = &t->progs[me];

	for (unsigned i = 0; i < p->n; i++) {
		const struct lt_op *op = &p->ops[i];
		uint64_t v = 0;
		delay(next_random(&seed) % span);
		switch (op->kind) {
		case LT_PTE:
			*slots[me][i] = op->value;
			break;
		case LT_RETABLE:
			*slots[me][i] = vm_table_pte(spare[op->value]);
			break;
		case LT_SHOOT:
		case LT_POST:
			request(t, op, me, op->kind == LT_SHOOT);
			break;
		case LT_SYNC:
			lt_sync(me);
			break;
		case LT_LOAD:
			regs[me][op->reg] = probe_read64((volatile uint64_t *)op->va, &v) ? FAULTED : v;
			break;
		case LT_STORE:
			probe_write64((volatile uint64_t *)op->va,
				      op->flags & LT_FROM_REG ? regs[me][op->value] : op->value);
			break;
		case LT_FETCH:
			regs[me][op->reg] = probe_fetch((const void *)op->va, &v) ? FAULTED : v;
			break;
		case LT_FENCE:
			__asm__ volatile("fence rw, rw\n\tfence.i" ::: "memory");
			break;
		case LT_SFENCE:
			if (op->va)
				__asm__ volatile("sfence.vma %0, zero" :: "r"(op->va) : "memory");
			else
				sfence_vma_all();
			break;
		case LT_SATP:
			enter_space(op->value);
			break;
		case LT_WFI:
			lt_sleep(me);
			break;
		}
	}
	if (!sleeps(p))
		end_program(t);
}

static void record(const struct lt_test *t)
{
	uint64_t key[LT_MAX_KEY];
	unsigned n = 0;
	for (unsigned r = 0; r < t->nregs; r++)
		key[n++] = regs[t->regs[r].hart][t->regs[r].reg];
	for (unsigned o = 0; o < t->nobserved; o++)
		key[n++] = *(volatile uint64_t *)t->observed[o].pa;
	for (unsigned k = 0; k < noutcomes; k++) {
		unsigned same = 0;
		while (same < n && outcomes[k].key[same] == key[same])
			same++;
		if (same == n) {
			outcomes[k].count++;
			return;
		}
	}
	if (noutcomes == MAX_OUTCOMES) {
		overflow++;
		return;
	}
	memcpy(outcomes[noutcomes].key, key, n * sizeof(key[0]));
	outcomes[noutcomes++].count = 1;
}

static void print_value(uint64_t v)
{
	if (v == FAULTED)
		printf("fault");
	else
		printf("%lu", v);
}

static void report(const struct lt_test *t)
{
	printf("litmus %s schedules %u outcomes %u\n", t->name, LT_SCHEDULES, noutcomes);
	for (unsigned k = 0; k < noutcomes; k++) {
		unsigned n = 0;
		printf("outcome %u:", outcomes[k].count);
		for (unsigned r = 0; r < t->nregs; r++) {
			printf(" %u:r%u=", t->regs[r].hart, t->regs[r].reg);
			print_value(outcomes[k].key[n++]);
		}
		for (unsigned o = 0; o < t->nobserved; o++) {
			printf(" %s=", t->observed[o].name);
			print_value(outcomes[k].key[n++]);
		}
		printf("\n");
	}
	if (overflow)
		printf("litmus %s error: more than %u distinct outcomes\n", t->name, MAX_OUTCOMES);
}

static const unsigned spans[] = { 1, 16, 64, 256, 1024, 4096, 8192 };

static int selected(const struct lt_test *t)
{
#ifdef LITMUS_MIN_HARTS
	if (t->nharts < LITMUS_MIN_HARTS)
		return 0;
#endif
#ifdef LITMUS_ONLY
	static const char *const only[] = { LITMUS_ONLY };
	for (unsigned i = 0; i < sizeof(only) / sizeof(only[0]); i++)
		if (!strcmp(only[i], t->name))
			return 1;
	return 0;
#else
	(void)t;
	return 1;
#endif
}

/* Every hart, in S-mode, once hart 0 has made base_root: runs every
 * selected test; 1 if a request was refused. */
static int litmus_main(unsigned me)
{
	csr_write(satp, vm_satp(base_root, 0));
	sfence_vma_all();
	for (unsigned i = 0; i < LT_NTESTS; i++) {
		const struct lt_test *t = &lt_tests[i];
		if (!selected(t))
			continue;
		if (t->nharts > num_harts()) {
			if (me == 0)
				printf("litmus %s skipped: needs %u harts\n", t->name, t->nharts);
			continue;
		}
		unsigned mark = 0;
		if (me == 0) {
			mark = vm_pool_mark();
			setup(t);
			noutcomes = overflow = 0;
		}
		barrier();
		for (unsigned s = 0; s < LT_SCHEDULES; s++) {
			if (me == 0)
				reset(t);
			barrier();
			if (me < t->nharts) {
				enter_space(t->progs[me].space);
				__asm__ volatile("fence.i" ::: "memory");
				warm(t, t->progs[me].space);
			}
			barrier();
			if (me < t->nharts) {
				/* Each hart draws its own span, so that one hart
				 * runs ahead of another in some schedules. */
				uint64_t seed = (uint64_t)(i + 1) * 0x9e3779b97f4a7c15UL ^ (uint64_t)(s + 1) << 20 ^ (me + 1);
				next_random(&seed);
				run(t, me, seed, spans[next_random(&seed) % (sizeof(spans) / sizeof(spans[0]))]);
			}
			barrier();
			csr_write(satp, vm_satp(base_root, 0));
			sfence_vma_all();
			if (me == 0)
				record(t);
		}
		if (me == 0) {
			report(t);
			vm_pool_release(mark);
		}
		barrier();
	}
	return errors;
}

#endif
