/* Sv39 page tables for bare-metal tests. */
#ifndef VM_H
#define VM_H

#include <stdint.h>

typedef uint64_t pte_t;

#define PTE_V (1UL << 0)
#define PTE_R (1UL << 1)
#define PTE_W (1UL << 2)
#define PTE_X (1UL << 3)
#define PTE_U (1UL << 4)
#define PTE_G (1UL << 5)
#define PTE_A (1UL << 6)
#define PTE_D (1UL << 7)
/* The two bits reserved for supervisor software (RSW): the hardware ignores
 * them (Linux keeps _PAGE_SPECIAL there, on the zero page's mappings). */
#define PTE_RSW(n) ((unsigned long)((n) & 3) << 8)

#define PAGE_4K (1UL << 12)
#define PAGE_2M (1UL << 21)
#define PAGE_1G (1UL << 30)

/* A zeroed page-table page from a static pool; NULL when it is used up. */
pte_t *vm_alloc_table(void);
/* How many tables the pool has handed out; vm_pool_release(mark) takes
 * back every table handed out since (none of them may be in use). */
unsigned vm_pool_mark(void);
void vm_pool_release(unsigned mark);
/* The PTE at `level` (0: 4 KiB leaves) on va's path, making the tables
 * above it; NULL if a leaf above is in the way or the pool is used up. */
pte_t *vm_slot(pte_t *root, uint64_t va, int level);
/* A non-leaf PTE pointing to `table`. */
static inline pte_t vm_table_pte(const pte_t *table) { return ((uint64_t)table >> 12) << 10 | PTE_V; }
/* Maps [va, va+size) to pa with one leaf of `size` (4K, 2M or 1G); returns
 * the leaf PTE, or NULL if the range is misaligned or a table is missing. */
pte_t *vm_map(pte_t *root, uint64_t va, uint64_t pa, uint64_t size, uint64_t perm);
/* The leaf PTE that maps va, or NULL. */
pte_t *vm_leaf(pte_t *root, uint64_t va);
/* Identity-maps the device gigapage [0, 1G) and DRAM [2G, 3G) as global RWX. */
void vm_map_kernel(pte_t *root);
/* A fresh root table with the vm_map_kernel mappings. */
pte_t *vm_kernel_root(void);
uint64_t vm_satp(pte_t *root, unsigned asid);

#endif
