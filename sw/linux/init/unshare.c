// SPDX-License-Identifier: GPL-2.0
/*
 * Workload 7, a shared hugetlb page table that is unshared under the
 * writers' feet. One hugetlbfs file (memfd, MFD_HUGETLB) is mapped twice,
 * MAP_SHARED, at two 1 GiB-aligned addresses, FIRST and SECOND, a whole
 * PUD each: SECOND's first fault finds FIRST's PMD table for the same
 * file offset and shares it (huge_pmd_share(): SECOND's PUD entry points
 * to FIRST's table). Writer threads, one on every CPU but the main
 * thread's, keep storing into the file's first 2 MiB page through SECOND.
 * Then the main thread takes SECOND's PUD entry away:
 *   odd rounds   munmap(SECOND): huge_pmd_unshare() clears the entry;
 *   even rounds  mprotect(PROT_READ) of SECOND's first 2 MiB: the VMA split
 *                unshares the table (hugetlb_unshare_pmds()).
 * Either way the PMD table and its leaf stay, valid, for FIRST, and the
 * kernel flushes SECOND's range without freeing a table (mmu_gather's
 * unshared_tables, not freed_tables). A writer that has seen the main
 * thread's "unshared" flag must fault on every store: one that does not
 * walked through its CPU's cached copy of the cleared PUD entry (Rocket's
 * PTE cache), which only a flush that drops non-leaf entries removes. And
 * the words the writers store, read through FIRST, must not change after
 * the call returned (rule 2: every store translated before completion was
 * performed by then).
 *
 * Each round checks from the kernel's own count (debugfs tlb_flush_kinds:
 * unshared, sw/linux/measure) that its call unshared a PMD table: without
 * sharing the workload would test nothing. On the port with a device, it
 * also checks the port's own count that one of the call's requests carried
 * NONLEAF (nonleaf): a hart whose page walker ignores per-VA flushes of
 * non-leaf entries needs it, whether or not this run's timing showed it. The unit turns a request above
 * its CEILING (512 x 2 MiB here) into a full flush, which would hide a
 * leaf-only flush; make test runs this on a firmware whose ceiling is above
 * any request.
 */
#include <linux/memfd.h>
#include <linux/mman.h>

#include "init.h"

#define ROUNDS		4
#define QUICK_ROUNDS	2	/* one munmap, one mprotect */
#define PUD		(1UL << 30)
#define PMD		(2UL << 20)
#define FIRST		(64UL << 30)
#define SECOND		(65UL << 30)
#define WORDS_APART	64	/* writers' words, 512 bytes apart */
#define MIN_PASSES	16	/* writer stores before the unshare, and after the flag */

static struct {
	volatile int round, unshared, stop;
	volatile int seen[MAX_CPUS];		/* -round: a writer is done with the round */
	volatile unsigned long passes[MAX_CPUS];
	volatile unsigned long stores[MAX_CPUS], faults[MAX_CPUS], late[MAX_CPUS];
} us;

static volatile unsigned long *word(unsigned long base, int writer)
{
	return (volatile unsigned long *)base + writer * WORDS_APART;
}

/* Stores into its word through SECOND until the round's flag has been
 * seen for MIN_PASSES stores; counts the stores that did not fault after. */
static int writer(void *arg)
{
	int me = (int)(long)arg;
	int round = 0;

	for (;;) {
		if (us.round == round)
			continue;
		round = us.round;
		__asm__ volatile("fence r, r" ::: "memory");
		if (us.stop)
			break;
		unsigned long pass = 0, after = 0;
		while (after < MIN_PASSES) {
			int unshared = us.unshared == round;
			__asm__ volatile("fence r, r" ::: "memory");
			if (try_store(word(SECOND, me), (unsigned long)round << 32 | pass)) {
				us.faults[me]++;
			} else {
				us.stores[me]++;
				if (unshared)
					us.late[me]++;
			}
			us.passes[me] = ++pass;
			if (unshared)
				after++;
		}
		us.seen[me] = -round;
	}
	return 0;
}

static unsigned long value(const struct counters *c, const char *name)
{
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->name[i], name))
			return c->value[i];
	return 0;
}

/* What the call changed in counter `name`. */
static unsigned long delta(const struct counters *before, const struct counters *after, const char *name)
{
	return value(after, name) - value(before, name);
}

static int map_file(int fd, unsigned long addr)
{
	long r = (long)mmap((void *)addr, PUD, PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_FIXED_NOREPLACE | MAP_NORESERVE, fd, 0);
	return r == (long)addr ? 0 : -1;
}

int unshare_workload(void)
{
	int cpus = workload_cpus("unshare"), rounds = quick ? QUICK_ROUNDS : ROUNDS, fd;
	unsigned long stores = 0, faults = 0, late = 0, changed = 0, leaf_only = 0, before[MAX_CPUS];
	char buf[16];
	struct phase ph;

	if (!cpus)
		return 1;
	/* One huge page: both mappings use the file's first. */
	if (write_text("/proc/sys/vm/nr_hugepages", "1") ||
	    strcmp(read_text("/proc/sys/vm/nr_hugepages", buf, sizeof(buf)), "1")) {
		say("unshare: FAIL: no 2 MiB huge page for the hugetlbfs file\n");
		return 1;
	}
	fd = my_syscall2(__NR_memfd_create, "unshare", MFD_HUGETLB);
	if (fd < 0 || my_syscall2(__NR_ftruncate, fd, PUD)) {
		say("unshare: FAIL: cannot make a 1 GiB hugetlbfs file\n");
		return 1;
	}
	phase_begin(&ph, "unshare");
	pin_to(0);
	for (int c = 1; c < cpus; c++)
		if (spawn_on(c, writer, (void *)(long)c) < 0) {
			say("unshare: FAIL: cannot start a writer\n");
			return 1;
		}
	for (int n = 1; n <= rounds; n++) {
		if (map_file(fd, FIRST) || map_file(fd, SECOND)) {
			say("unshare: FAIL: cannot map the file at 64 and 65 GiB\n");
			return 1;
		}
		/* FIRST's fault makes the PMD table; SECOND's shares it. */
		*word(FIRST, 0) = n;
		*word(SECOND, 0) = n;
		__asm__ volatile("fence w, w" ::: "memory");
		us.round = n;
		for (int c = 1; c < cpus; c++)
			while (us.passes[c] < MIN_PASSES || us.round != n)
				;
		struct counters c0, c1;
		read_counters(&c0);
		if (n & 1 ? munmap((void *)SECOND, PUD) : my_syscall3(__NR_mprotect, SECOND, PMD, PROT_READ)) {
			say("unshare: FAIL: munmap or mprotect failed\n");
			return 1;
		}
		for (int c = 1; c < cpus; c++)
			before[c] = *word(FIRST, c);
		__asm__ volatile("fence rw, w" ::: "memory");
		us.unshared = n;
		read_counters(&c1);
		if (!delta(&c0, &c1, "unshared")) {
			printf("unshare: FAIL: round %d unshared no PMD table: the mappings did not share one\n", n);
			return 1;
		}
		/* The port's device carried the call's flushes: one of them must
		 * have dropped non-leaf entries (NONLEAF), or a target may walk
		 * the table through its cached copy of the cleared PUD entry. */
		if (delta(&c0, &c1, "requests") + delta(&c0, &c1, "errors") && !delta(&c0, &c1, "nonleaf"))
			leaf_only++;
		for (int c = 1; c < cpus; c++) {
			while (us.seen[c] != -n)
				;
			us.passes[c] = 0;
			changed += *word(FIRST, c) != before[c];
		}
		munmap((void *)FIRST, PUD);
		munmap((void *)SECOND, PUD);
	}
	us.stop = 1;
	__asm__ volatile("fence w, w" ::: "memory");
	us.round = -1;
	if (wait_threads())
		say("unshare: a writer failed\n");
	phase_end(&ph);
	close(fd);
	write_text("/proc/sys/vm/nr_hugepages", "0");
	for (int c = 1; c < cpus; c++) {
		stores += us.stores[c];
		faults += us.faults[c];
		late += us.late[c];
	}
	printf("unshare: %d rounds, %d writers: %lu stores, %lu faults after the unshare, "
	       "%lu stores after seeing it, %lu words of the file changed by them, %lu tables unshared, "
	       "%lu rounds flushed leaf-only\n",
	       rounds, cpus - 1, stores, faults, late, changed, phase_count(&ph, "unshared"), leaf_only);
	if (late || changed) {
		say("unshare: FAIL: a writer stored through an unshared page table\n");
		return 1;
	}
	if (leaf_only) {
		say("unshare: FAIL: the port flushed an unshared page table leaf-only\n");
		return 1;
	}
	if (!faults) {
		say("unshare: FAIL: no writer ever faulted: the unshare was never seen\n");
		return 1;
	}
	return 0;
}
