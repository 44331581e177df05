#include "vm.h"

#include "runtime.h"

#define PTE_PPN_SHIFT 10

/* Not in .bss: start-up need not clear it, vm_alloc_table zeroes each page. */
static pte_t pool[PT_POOL_PAGES][512] __attribute__((aligned(4096), section(".pagetables")));
static unsigned pool_used;
static spinlock_t pool_lock;

pte_t *vm_alloc_table(void)
{
	pte_t *t = 0;
	spin_lock(&pool_lock);
	if (pool_used < PT_POOL_PAGES)
		t = pool[pool_used++];
	spin_unlock(&pool_lock);
	if (t)
		memset(t, 0, 4096);
	return t;
}

unsigned vm_pool_mark(void) { return pool_used; }

void vm_pool_release(unsigned mark)
{
	spin_lock(&pool_lock);
	if (mark <= pool_used)
		pool_used = mark;
	spin_unlock(&pool_lock);
}

static unsigned vpn(uint64_t va, int level) { return (va >> (12 + 9 * level)) & 511; }
static pte_t *pte_table(pte_t pte) { return (pte_t *)((pte >> PTE_PPN_SHIFT) << 12); }
static int level_of(uint64_t size) { return size == PAGE_1G ? 2 : size == PAGE_2M ? 1 : size == PAGE_4K ? 0 : -1; }

pte_t *vm_slot(pte_t *root, uint64_t va, int level)
{
	pte_t *table = root;
	for (int l = 2; l > level; l--) {
		pte_t *e = &table[vpn(va, l)];
		if (!(*e & PTE_V)) {
			pte_t *next = vm_alloc_table();
			if (!next)
				return 0;
			*e = vm_table_pte(next);
		} else if (*e & (PTE_R | PTE_W | PTE_X)) {
			return 0;	/* a bigger leaf is in the way */
		}
		table = pte_table(*e);
	}
	return &table[vpn(va, level)];
}

pte_t *vm_map(pte_t *root, uint64_t va, uint64_t pa, uint64_t size, uint64_t perm)
{
	int leaf = level_of(size);
	if (leaf < 0 || (va | pa) & (size - 1))
		return 0;
	pte_t *e = vm_slot(root, va, leaf);
	if (e)
		*e = (pa >> 12) << PTE_PPN_SHIFT | perm | PTE_V | PTE_A | ((perm & PTE_W) ? PTE_D : 0);
	return e;
}

pte_t *vm_leaf(pte_t *root, uint64_t va)
{
	pte_t *table = root;
	for (int level = 2; level >= 0; level--) {
		pte_t *e = &table[vpn(va, level)];
		if (!(*e & PTE_V) || (*e & (PTE_R | PTE_W | PTE_X)))
			return e;
		table = pte_table(*e);
	}
	return 0;
}

void vm_map_kernel(pte_t *root)
{
	vm_map(root, 0, 0, PAGE_1G, PTE_R | PTE_W | PTE_G);
	vm_map(root, DRAM_BASE, DRAM_BASE, PAGE_1G, PTE_R | PTE_W | PTE_X | PTE_G);
}

pte_t *vm_kernel_root(void)
{
	pte_t *root = vm_alloc_table();
	CHECK(root);
	vm_map_kernel(root);
	return root;
}

uint64_t vm_satp(pte_t *root, unsigned asid)
{
	return SATP_MODE_SV39 | (uint64_t)asid << 44 | (uint64_t)root >> 12;
}
