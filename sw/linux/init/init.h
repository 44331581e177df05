/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the test kernel's /init and its workloads share: output, the exit
 * status, small files in /proc and /sys, and threads pinned to CPUs (nolibc
 * has no pthreads: a thread is a clone() sharing the address space).
 */
#ifndef INIT_H
#define INIT_H

#define MAX_CPUS	8

void say(const char *s);
/* The file (or directory) can be opened: 1, else 0. */
int file_exists(const char *path);
/* Ends the run with `code` (0: success) as the exit status; never returns. */
void __attribute__((noreturn)) finish(int code);
/* A small text file's contents without the trailing newline, or "?". */
const char *read_text(const char *path, char *buf, int size);
/* Writes `text` to a file in /proc or /sys; 0 or -1. */
int write_text(const char *path, const char *text);
/* The value of the "name value" line of a file such as /proc/vmstat, or 0. */
unsigned long stat_value(const char *path, const char *name);
int online_cpus(void);
/* madvise(2) (nolibc has none); 0 or -errno. */
long madv(volatile void *addr, unsigned long len, int advice);
/* The online CPUs for a workload that runs threads on all but CPU 0: their
 * number, or 0 after printing why `who` cannot run (fewer than 2, more than
 * MAX_CPUS). */
int workload_cpus(const char *who);
/* Moves the calling thread to `cpu`; 0 or -errno. */
long pin_to(int cpu);
/* Runs fn(arg) on `cpu` in a thread sharing the address space; its id or -errno. */
long spawn_on(int cpu, int (*fn)(void *), void *arg);
/* Waits for every thread spawn_on started; how many failed (non-zero exit). */
int wait_threads(void);

/* Stores v at *p: 0, or 1 if the store faulted (the fault is skipped). */
int try_store(volatile unsigned long *p, unsigned long v);
/* Loads *p into *v: 0, or 1 if the load faulted (the fault is skipped). */
int try_load(volatile unsigned long *p, unsigned long *v);
/* Faults other than try_store's and try_load's end the run. */
void catch_store_faults(void);

/* The kernel's counters: the port's (debugfs riscv/tlb_shootdown; none on
 * a stock kernel), then the flushes asked for by kind (debugfs
 * tlb_flush_kinds, sw/linux/measure: on every kernel). */
#define MAX_COUNTERS	32
struct counters {
	int n;
	char name[MAX_COUNTERS][24];
	unsigned long value[MAX_COUNTERS];
};
void read_counters(struct counters *c);

/* A measured phase of a workload. phase_begin() reads the counters, then
 * prints "phase NAME begin"; phase_end() prints "phase NAME done" (the
 * phase's end, before any counter is read), then "phase NAME end
 * linux_ipis=N sbi_rfence_calls=N" and what the phase changed in the
 * shootdown counters. The SoC harness's +timestamps prefix puts the
 * cycle and the IPIs raised so far on both lines: scripts/linux-demo.sh
 * turns them into the side-by-side table. */
struct phase {
	const char *name;
	unsigned long linux_ipis;
	unsigned long sbi_rfence_calls;
	struct counters counters;
};
void phase_begin(struct phase *ph, const char *name);
/* ... and leaves in ph->counters what the phase changed. */
void phase_end(struct phase *ph);
/* After phase_end(): what the phase changed in the counter `name` (0 if
 * the kernel has no such counter). */
unsigned long phase_count(const struct phase *ph, const char *name);

/* Swap of `mbytes` on /dev/zram0; 0 or -1. */
int setup_swap(unsigned long mbytes);

/* Set when the initramfs holds /quick (build.sh --quick, for make test) or
 * /checks (build.sh --checks: the same without the benchmarks, for debug
 * kernels, whose own flushes the benchmarks' shape checks would refuse):
 * the workloads run shorter (fewer probe rounds, one round of the
 * moved-table and pending workloads, no 64 KiB folio phases, one reclaim
 * round), and every check stays. */
extern int quick;
/* The benchmarks /bench names, one or more separated by spaces, commas or
 * newlines (build.sh --bench=LIST); empty (--bench, or no /bench): all. */
extern char bench_list[128];

/* Workloads: each returns 0 when it passed and prints what it measured. */
int stale_probe(void);
/* thp: over 64 KiB folios (mTHP) instead of small pages. */
int madvise_workload(int thp);
int reclaim_workload(void);
int nonleaf_workload(void);
int unshare_workload(void);
int pending_workload(void);
/* reclaim.c's set-up, shared with the benchmarks: ext2 on the RAM disk at
 * /mnt, and a memory cgroup CGROUP/NAME limited to limit_kb; 0 or -1. */
#define CGROUP		"/sys/fs/cgroup"
int ram_fs(void);
int memory_cgroup(const char *name, int limit_kb);

/* Benchmarks (bench.c): loops counted over a window of cycles (useonce:
 * fixed work, the phase's cycles), checked data, the flushes a loop asks
 * for checked against the loop's shape. A benchmark bench_list leaves out
 * is skipped (returns 0). */
struct bench;
extern const struct bench bench_tlb_flush2, bench_tlb_flush2_range, bench_tlb_flush2_processes, bench_cow_zero, bench_pageout, bench_mprotect,
	bench_fork, bench_useonce;
/* `work`: the window in thousands of cycles, or loops a thread for a
 * fixed-work benchmark (useonce). */
int bench_workload(const struct bench *b, int pages, long work);

#endif
