// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmarks whose work is shootdowns: one thread per CPU, all of one
 * process, each working on its own few pages LOOPS times, so that every
 * flush of one thread's pages goes to every CPU the mm may be cached on,
 * which here is all of them: stock sends an RFENCE (an IPI to each other
 * hart), the port one request. The work is fixed, so a phase's cycles give
 * loops per million cycles. No thread touches another's pages, and each
 * benchmark is a process of its own, which is what lets make linux-bench's
 * limit configuration (remote flushes skipped) run tlb-flush2, pageout and
 * mprotect; fork's and useonce's flushes must reach the other CPUs
 * (fork's write protection of the whole mm, reclaim of another thread's
 * pages), so the limit does not run them (/bench lists what runs).
 *
 * - tlb-flush2: shaped like will-it-scale's tlb_flush2 in threads mode
 *   (the benchmark AMD's INVLPGB was judged by in Linux 6.15): touch the
 *   pages, drop them with MADV_DONTNEED. A dropped anonymous page must
 *   read zero when touched again.
 * - pageout: the riscv batched-unmap series' benchmark: write the pages,
 *   MADV_PAGEOUT them (reclaim unmaps them into the deferred batch, the
 *   flush comes once for the batch; zram swap), read them back from swap.
 *   Each must come back with what the loop wrote.
 * - mprotect: write the pages, take write permission away (a flush of the
 *   range), read them, give it back (the kernel flushes again).
 * - fork: thread 0 forks a child that waits; every thread then writes its
 *   pages, each write a copy-on-write fault that replaces a write-protected
 *   entry and flushes it from every CPU of the mm; then the child exits.
 *   Each loop also has fork's own flush of the whole mm.
 * - useonce: shaped like vm-scalability's lru-file-mmap-read (Mel
 *   Gorman's benchmark for the deferred flush): each thread maps a sparse
 *   file of its own on ext2 and reads every page once, in a child process
 *   whose memory cgroup holds far less than the files: reclaim drops clean
 *   file pages that the process's mm maps on every CPU, flushing a batch
 *   at a time. The work is fixed (every page read once); the cgroup's
 *   pgsteal gives the pages reclaimed. A hole reads zero, which is all
 *   a thread can check: a stale translation to a reused frame would mostly
 *   read zero too, so this one measures and the reclaim workload checks.
 *
 * Each thread checks its own data; a benchmark prints "NAME: T threads,
 * P pages a loop, L loops each: data intact" when every check held.
 */
#include "init.h"

#define PAGE		4096UL
#define MAX_PAGES	16
#define MADV_DONTNEED	4
#define MADV_PAGEOUT	21

static struct {
	const struct bench *b;
	int pages, loops, threads;
	volatile int arrived, generation;	/* barrier() */
	pid_t child;
	int pipe[2];
	volatile int ready, go;
	char *region[MAX_CPUS];
	int bad[MAX_CPUS];
} bw;

struct bench {
	const char *name;
	/* One loop of thread `me` over its region: how many checks failed. */
	int (*loop)(int me, char *r, int pages, int l);
	/* Thread `me`'s region of `bytes` (pages x loops); NULL: MAX_PAGES
	 * of anonymous memory. MAP_FAILED if it cannot be made. */
	char *(*region)(int me, unsigned long bytes);
	/* Non-NULL: run in a child process in this memory cgroup. */
	const char *cgroup;
	int limit_kb;
};

static unsigned long word(int me, int l)
{
	return 0x7f2ul << 40 | (unsigned long)me << 32 | l;
}

/* Write each page's first word; 1 if a page did not read `before` first. */
static int write_pages(char *r, int pages, unsigned long before, unsigned long v)
{
	int bad = 0;

	for (int p = 0; p < pages; p++) {
		volatile unsigned long *w = (volatile unsigned long *)(r + p * PAGE);

		bad += *w != before;
		*w = v;
		bad += *w != v;
	}
	return bad;
}

static int read_pages(char *r, int pages, unsigned long v)
{
	int bad = 0;

	for (int p = 0; p < pages; p++)
		bad += *(volatile unsigned long *)(r + p * PAGE) != v;
	return bad;
}

static int tlb_flush2_loop(int me, char *r, int pages, int l)
{
	return write_pages(r, pages, 0, word(me, l)) + (madv(r, pages * PAGE, MADV_DONTNEED) != 0);
}

static int pageout_loop(int me, char *r, int pages, int l)
{
	int bad = write_pages(r, pages, l ? word(me, l - 1) : 0, word(me, l));

	bad += madv(r, pages * PAGE, MADV_PAGEOUT) != 0;
	return bad + read_pages(r, pages, word(me, l));
}

static long protect(char *r, int pages, int prot)
{
	return my_syscall3(__NR_mprotect, r, pages * PAGE, prot);
}

static int mprotect_loop(int me, char *r, int pages, int l)
{
	int bad = write_pages(r, pages, l ? word(me, l - 1) : 0, word(me, l));

	bad += protect(r, pages, PROT_READ) != 0;
	bad += read_pages(r, pages, word(me, l));
	return bad + (protect(r, pages, PROT_READ | PROT_WRITE) != 0);
}

/* Every thread of the benchmark waits here for the others. */
static void barrier(void)
{
	int generation = bw.generation;

	if (__atomic_add_fetch(&bw.arrived, 1, __ATOMIC_SEQ_CST) == bw.threads) {
		bw.arrived = 0;
		__atomic_add_fetch(&bw.generation, 1, __ATOMIC_SEQ_CST);
	} else {
		while (bw.generation == generation)
			;
	}
}

static int fork_loop(int me, char *r, int pages, int l)
{
	int bad = 0, status = -1;
	char c;

	if (me == 0) {
		bw.child = pipe(bw.pipe) ? -1 : fork();
		if (bw.child == 0) {
			/* the child only holds the pages until the loop's writes are done */
			close(bw.pipe[1]);
			exit(read(bw.pipe[0], &c, 1) != 0);
		}
	}
	barrier();
	bad += bw.child < 0;
	bad += write_pages(r, pages, l ? word(me, l - 1) : 0, word(me, l));
	barrier();
	if (me == 0 && bw.child > 0) {
		close(bw.pipe[1]);
		bad += waitpid(bw.child, &status, 0) != bw.child || !WIFEXITED(status) || WEXITSTATUS(status);
		close(bw.pipe[0]);
	}
	return bad;
}

static char *useonce_file(int me, unsigned long bytes)
{
	char path[32] = "/mnt/useonce-";
	char *r = MAP_FAILED;
	int fd;

	path[strlen(path) + utoa_r(me, path + strlen(path))] = 0;
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return MAP_FAILED;
	if (!my_syscall2(__NR_ftruncate, fd, bytes))
		r = mmap(0, bytes, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	return r;
}

static int useonce_loop(int me, char *r, int pages, int l)
{
	(void)me;
	return read_pages(r + (unsigned long)l * pages * PAGE, pages, 0);
}

const struct bench bench_tlb_flush2 = { .name = "tlb-flush2", .loop = tlb_flush2_loop };
const struct bench bench_pageout = { .name = "pageout", .loop = pageout_loop };
const struct bench bench_mprotect = { .name = "mprotect", .loop = mprotect_loop };
const struct bench bench_fork = { .name = "fork", .loop = fork_loop };
/* 1 MiB: as reclaim.c's limit, safe from its readers' isolating the
 * whole charge (see there) */
const struct bench bench_useonce = {
	.name = "useonce", .loop = useonce_loop, .region = useonce_file, .cgroup = "useonce", .limit_kb = 1024,
};

static int bench_thread(void *arg)
{
	int me = (int)(long)arg;

	__atomic_fetch_add(&bw.ready, 1, __ATOMIC_SEQ_CST);
	while (!bw.go)
		;
	for (int l = 0; l < bw.loops; l++)
		bw.bad[me] += bw.b->loop(me, bw.region[me], bw.pages, l);
	return bw.bad[me] != 0;
}

static int run_bench(const struct bench *b, int pages, int loops);

/* Whether bench_list names `name` (an empty list names every benchmark). */
static int listed(const char *name)
{
	size_t n = strlen(name);

	if (!bench_list[0])
		return 1;
	for (const char *l = bench_list; *l; l++)
		if ((l == bench_list || strchr(" ,\n", l[-1])) && !strncmp(l, name, n) && (!l[n] || strchr(" ,\n", l[n])))
			return 1;
	return 0;
}

/* Benchmark `b`, `pages` pages a thread, `loops` loops, as phase
 * "NAME-Pp": 0 if every thread's data held, or if bench_list leaves it
 * out. Each benchmark runs in a process of its own (in `b->cgroup` when it
 * has one), forked on CPU 0 alone: a new mm, so no benchmark starts with
 * translations another left behind on a CPU its own flushes would not
 * reach (a benchmark's regions reuse the addresses the last one unmapped;
 * the limit's kernel, which flushes the calling CPU alone, read a stale
 * page through them), and the copy-on-write faults of its start all on
 * the CPU its threads are started from. */
int bench_workload(const struct bench *b, int pages, int loops)
{
	char procs[64], pid[16];
	unsigned long reclaimed;
	int status = -1;
	pid_t child;

	if (!listed(b->name)) {
		printf("%s: skipped: not in /bench's list\n", b->name);
		return 0;
	}
	if (b->cgroup && (ram_fs() || memory_cgroup(b->cgroup, b->limit_kb))) {
		printf("%s: FAIL: cannot set up ext2 and the memory cgroup\n", b->name);
		return 1;
	}
	strcpy(procs, CGROUP "/");
	strcpy(procs + strlen(procs), b->cgroup ? b->cgroup : "");
	strcpy(procs + strlen(procs), "/cgroup.procs");
	pin_to(0);
	child = fork();
	if (child == 0) {
		pid[utoa_r(getpid(), pid)] = 0;
		if (b->cgroup && write_text(procs, pid)) {
			printf("%s: FAIL: cannot join the cgroup\n", b->name);
			exit(1);
		}
		exit(run_bench(b, pages, loops));
	}
	if (child < 0 || waitpid(child, &status, 0) != child) {
		printf("%s: FAIL: cannot run the benchmark\n", b->name);
		return 1;
	}
	if (b->cgroup) {
		strcpy(procs + strlen(procs) - strlen("cgroup.procs"), "memory.stat");
		reclaimed = stat_value(procs, "pgsteal");
		printf("%s: %lu pages reclaimed under a %d KiB limit\n", b->name, reclaimed, b->limit_kb);
		if (!reclaimed) {
			printf("%s: FAIL: nothing was reclaimed: the limit did not bite\n", b->name);
			return 1;
		}
	}
	return !WIFEXITED(status) || WEXITSTATUS(status);
}

static int run_bench(const struct bench *b, int pages, int loops)
{
	unsigned long bytes = b->region ? (unsigned long)loops * pages * PAGE : MAX_PAGES * PAGE;
	int cpus = workload_cpus(b->name);
	static char name[32];
	struct phase ph;
	int failed;

	if (!cpus)
		return 1;
	if (!b->region && pages > MAX_PAGES) {
		printf("%s: FAIL: %d pages a loop, at most %d\n", b->name, pages, MAX_PAGES);
		return 1;
	}
	bw.b = b;
	bw.pages = pages;
	bw.loops = loops;
	bw.ready = bw.go = bw.arrived = 0;
	bw.threads = cpus;
	for (int c = 0; c < cpus; c++) {
		bw.region[c] = b->region ? b->region(c, bytes) :
			mmap(0, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		bw.bad[c] = 0;
		if (bw.region[c] == MAP_FAILED) {
			printf("%s: FAIL: mmap\n", b->name);
			return 1;
		}
	}
	pin_to(0);
	for (int c = 1; c < cpus; c++)
		if (spawn_on(c, bench_thread, (void *)(long)c) < 0) {
			printf("%s: FAIL: cannot start its threads\n", b->name);
			return 1;
		}
	while (bw.ready != cpus - 1)
		;
	strcpy(name, b->name);
	strcpy(name + strlen(name), "-");
	utoa_r(pages, name + strlen(name));
	strcpy(name + strlen(name), "p");
	phase_begin(&ph, name);
	bw.go = 1;
	failed = bench_thread((void *)0L);
	failed = wait_threads() || failed;
	phase_end(&ph);
	for (int c = 0; c < cpus; c++)
		munmap(bw.region[c], bytes);
	printf("%s: %d threads, %d pages a loop, %d loops each: %s\n", b->name, cpus, pages, loops,
	       failed ? "FAIL: a thread's pages did not read back as written" : "data intact");
	return failed;
}
