/* Spinlocks and a barrier across all harts, built on the A extension. */
#include "runtime.h"

void spin_lock(spinlock_t *l)
{
	while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE))
		while (l->locked)
			;
}

void spin_unlock(spinlock_t *l) { __atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE); }

static volatile unsigned barrier_count, barrier_generation;

void barrier(void)
{
	unsigned gen = __atomic_load_n(&barrier_generation, __ATOMIC_ACQUIRE);
	if (__atomic_add_fetch(&barrier_count, 1, __ATOMIC_ACQ_REL) == num_harts()) {
		barrier_count = 0;
		__atomic_store_n(&barrier_generation, gen + 1, __ATOMIC_RELEASE);
	} else {
		while (__atomic_load_n(&barrier_generation, __ATOMIC_ACQUIRE) == gen)
			;
	}
}
