// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmarks whose work is shootdowns: one thread per CPU, all of one
 * process, each working on its own pages, so that every flush of one
 * thread's pages goes to every CPU the mm may be cached on, which here is
 * all of them: stock sends an RFENCE (an IPI to each other hart), the port
 * one request. No thread touches another's pages, and each benchmark is a
 * process of its own, which is what lets make linux-bench's limit
 * configuration (remote flushes skipped) run tlb-flush2, tlb-flush2-range,
 * cow-zero, pageout and mprotect; fork's and useonce's flushes must reach
 * the other CPUs (fork's write protection of the whole mm, reclaim of
 * another thread's pages), so the limit does not run them.
 *
 * Each is what its name says, and checks it: the kernel counts the flushes
 * it is asked for by kind (debugfs tlb_flush_kinds, sw/linux/measure, on
 * every kernel), and a benchmark whose flushes a loop fall outside the
 * band its loop implies fails, on stock and on the port alike, rather than
 * measuring something else under its name (docs/evaluation.md, "The
 * correction of 2026-12-01").
 *
 * - tlb-flush2: will-it-scale's tests/tlb_flush2.c in threads mode (the
 *   benchmark AMD's INVLPGB was judged by in Linux 6.15), its loop as
 *   there: in a 1 MiB private anonymous region, write a page,
 *   MADV_DONTNEED it, read it back as zero, next page; munmap and mmap
 *   the region again after its 256 pages. One remote single-page flush
 *   an iteration (and a long one a munmap).
 * - tlb-flush2-range: the same with P pages written, one MADV_DONTNEED of
 *   the P, and the P read back as zero: one remote range flush a loop.
 *   P = 16 is below stock's tlb_flush_all_threshold (64: a range of more
 *   entries is flushed whole), 128 above it.
 * - tlb-flush2-processes: tlb-flush2 in will-it-scale's processes mode, a
 *   process forked on each CPU, so that each mm lives on its CPU alone and
 *   every flush is local: what a targeted flush costs against a broadcast
 *   one (make linux-bench's unit-broadcast configuration).
 * - cow-zero: what tlb-flush2 was here until 2026-12-01: read each page
 *   (after the last MADV_DONTNEED, a mapping of the shared zero page),
 *   write it (a copy-on-write fault: wp_page_copy() -> ptep_clear_flush(),
 *   a remote single-page flush with the PTE lock held), MADV_DONTNEED the
 *   P. P + 1 remote flushes a loop.
 * - pageout: the riscv batched-unmap series' benchmark: write the pages,
 *   MADV_PAGEOUT them (zram swap), read them back from swap. Reclaim
 *   flushes the deferred batch before each dirty page's write-back
 *   (try_to_unmap_flush_dirty()), so a batch a page, not one a loop; the
 *   madvise's clearing of the accessed bits is a range flush.
 * - mprotect: write the pages, take write permission away (a flush of the
 *   range), read them, give it back (the kernel flushes again).
 * - fork: thread 0 forks a child that waits; every thread then writes its
 *   pages, each write a copy-on-write fault that replaces a write-protected
 *   entry and flushes it from every CPU of the mm; then the child exits.
 *   Each loop also has fork's own flush of the whole mm.
 * - useonce: vm-scalability's lru-file-mmap-read (Mel Gorman's benchmark
 *   for the deferred flush): each thread maps a sparse file of its own on
 *   ext2 and reads every page once, in a child process whose memory
 *   cgroup holds far less than the files: reclaim drops clean file pages
 *   that the process's mm maps on every CPU, flushing a batch at a time.
 *   The work is fixed (every page read once) and the phase's cycles are
 *   the result; a hole reads zero, which is all a thread can check.
 *
 * Throughput as will-it-scale measures it (every benchmark but useonce):
 * the threads loop until told to stop; after a warm-up, each counts the
 * loops it completes in a window of about `window` cycles of thread 0's,
 * timed on its own cycle counter from its first loop end inside the
 * window to its first one after it, and thread 0 loops on until every
 * thread has left the window, so no thread idles inside another's. Each
 * prints "NAME: thread C: N loops in K cycles"; the loops per cycle of a
 * benchmark are the sum of the threads' N / K.
 */
#include "init.h"

#define PAGE		4096UL
#define MAX_PAGES	16
/* will-it-scale's MEMORYSIZE in tests/tlb_flush2.c */
#define WIS_BYTES	(1UL << 20)
#define WIS_PAGES	(int)(WIS_BYTES / PAGE)
#define MADV_DONTNEED	4
#define MADV_PAGEOUT	21
#define MAX_BANDS	4	/* bands a benchmark's shape has at most */

enum { WARMUP, MEASURE, STOP };

/* The benchmark's state: shared by its threads, or its processes (a
 * shared mapping, made afresh for each benchmark). */
static struct state {
	const struct bench *b;
	int pages, threads;
	long loops;			/* fixed work: loops a thread */
	unsigned long warmup, window;	/* cycles */
	volatile int arrived, generation;	/* barrier() */
	pid_t child;	/* fork's child, as thread 0 saw fork() return */
	volatile int ready, go, state, started, stopped;
	char *region[MAX_CPUS];
	int bad[MAX_CPUS];
	long ran[MAX_CPUS], counted[MAX_CPUS];
	unsigned long span[MAX_CPUS];
} *bw;

/* Flushes one loop of one thread asks for: the sum of the counters named
 * in `counters` ("a+b") lies in [lo, hi] thousandths a loop. */
struct band {
	const char *counters;
	long lo, hi;
};

struct bench {
	const char *name;
	/* One loop of thread `me` over its region *r: how many checks failed. */
	int (*loop)(int me, char **r, int pages, long l);
	/* Thread `me`'s region of `bytes`; NULL: anonymous memory. MAP_FAILED
	 * if it cannot be made. */
	char *(*region)(int me, unsigned long bytes);
	/* The region's bytes for `pages` a loop and `loops` loops. */
	unsigned long (*bytes)(int pages, long loops);
	/* The bands of the flushes a loop asks for: how many it wrote. */
	int (*shape)(int pages, int threads, struct band *b);
	/* Non-NULL: run in a child process in this memory cgroup. */
	const char *cgroup;
	int limit_kb;
	/* Fixed work: bench_workload's `work` is loops, not a window. */
	int fixed;
	/* A process a CPU, each forked there (an mm on its CPU alone),
	 * rather than threads of one process. */
	int processes;
	/* The threads meet at barriers in every loop, so they go in and out
	 * of the window together (bench_thread()). */
	int lockstep;
};

static unsigned long rdcycle(void)
{
	unsigned long c;

	__asm__ volatile("rdcycle %0" : "=r"(c));
	return c;
}

static unsigned long rdtime(void)
{
	unsigned long t;

	__asm__ volatile("rdtime %0" : "=r"(t));
	return t;
}

/* The threads' clock: the cycle counter, or where the kernel's PMU driver
 * has stopped it (mcountinhibit, which QEMU has and Rocket 1.2.6 has not)
 * the time CSR, whose ticks then stand for cycles (QEMU's runs check,
 * they do not measure). */
static unsigned long (*cycles)(void) = rdcycle;

static void choose_clock(const char *name)
{
	unsigned long c[3];

	/* QEMU's first read of a stopped counter may still show it moving */
	for (int n = 0; n < 3; n++) {
		c[n] = rdcycle();
		for (volatile int i = 0; i < 1000; i++)
			;
	}
	if (c[2] == c[1]) {
		cycles = rdtime;
		printf("%s: the cycle counter is stopped: timed by the time CSR\n", name);
	}
}

static unsigned long word(int me, long l)
{
	return 0x7f2ul << 40 | (unsigned long)me << 32 | (unsigned long)(l & 0xffffffff);
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

static char *anonymous(unsigned long bytes)
{
	return mmap(0, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

/* The remote flush kind of `pages` pages at once (stock's rule: more
 * entries than tlb_flush_all_threshold, 64, are flushed whole). */
static const char *kind_of(int pages)
{
	return pages == 1 ? "remote_page" : pages <= 64 ? "remote_range" : "remote_long";
}

static int band(struct band *b, const char *counters, long lo, long hi)
{
	b->counters = counters;
	b->lo = lo;
	b->hi = hi;
	return 1;
}

/* tests/tlb_flush2.c's loop, `pages` at a time: write them, MADV_DONTNEED
 * them, read them back as zero; after the region's WIS_PAGES, munmap it
 * and map it again. */
static int tlb_flush2_loop(int me, char **r, int pages, long l)
{
	long at = l % (WIS_PAGES / pages) * pages;
	char *p;
	int bad = 0;

	if (l && !at) {
		munmap(*r, WIS_BYTES);
		*r = anonymous(WIS_BYTES);
		if (*r == MAP_FAILED)
			return 1;
	}
	p = *r + at * PAGE;
	for (int i = 0; i < pages; i++)
		*(volatile unsigned long *)(p + i * PAGE) = word(me, l);
	bad += madv(p, pages * PAGE, MADV_DONTNEED) != 0;
	return bad + read_pages(p, pages, 0);
}

static unsigned long wis_bytes(int pages, long loops)
{
	(void)pages;
	(void)loops;
	return WIS_BYTES;
}

/*
 * One flush of the kind `pages` make a loop (tlb_end_vma()'s, in the
 * madvise), and a munmap of the region's WIS_PAGES (a long range)
 * every WIS_PAGES / pages loops. On top of that a flush of the whole mm
 * for each madvise that overlapped another thread's: tlb_finish_mmu()
 * flushes everything when mm_tlb_flush_nested() sees two gathers at once
 * (it is threads mode's, on every kernel; how often depends on the
 * timing, so its band is 0 to 1 a loop, and the tables show it).
 */
static int tlb_flush2_shape(int pages, int threads, struct band *b)
{
	long munmaps = 1000L * pages / WIS_PAGES + 20;
	int n = 0;

	(void)threads;
	if (pages == 1) {
		n += band(b + n, "remote_page", 1000, 1050);
		n += band(b + n, "remote_range", 0, 20);
	} else {
		n += band(b + n, "remote_page", 0, 50);
		/* past 64 pages the munmap's long flush is of the same kind */
		n += band(b + n, kind_of(pages), 1000, pages > 64 ? 1000 + munmaps : 1050);
	}
	if (pages <= 64)
		n += band(b + n, "remote_long", 0, munmaps);
	n += band(b + n, "remote_all", 0, 1000 + munmaps);
	return n;
}

/* will-it-scale's processes mode: every mm on its own CPU alone, so each
 * flush is the calling CPU's (the madvise's and the munmap's). */
static int tlb_flush2_processes_shape(int pages, int threads, struct band *b)
{
	int n = 0;

	(void)threads;
	n += band(b + n, "local", 1000, 1050 + 1000L * pages / WIS_PAGES);
	return n + band(b + n, "remote_page+remote_range+remote_long+remote_all", 0, 20);
}

static int cow_zero_loop(int me, char **r, int pages, long l)
{
	return write_pages(*r, pages, 0, word(me, l)) + (madv(*r, pages * PAGE, MADV_DONTNEED) != 0);
}

/* A copy-on-write flush a page, and the MADV_DONTNEED's (with a whole
 * one when it overlapped another thread's, as in tlb-flush2). */
static int cow_zero_shape(int pages, int threads, struct band *b)
{
	int n = 0;

	(void)threads;
	n += band(b + n, "remote_page", 1000L * (pages + (pages == 1)), 1000L * (pages + (pages == 1)) + 50);
	n += band(b + n, "remote_range", pages > 1 ? 1000 : 0, pages > 1 ? 1050 : 20);
	n += band(b + n, "remote_long", 0, 20);
	return n + band(b + n, "remote_all", 0, 1020);
}

static unsigned long max_pages_bytes(int pages, long loops)
{
	(void)pages;
	(void)loops;
	return MAX_PAGES * PAGE;
}

static int pageout_loop(int me, char **r, int pages, long l)
{
	int bad = write_pages(*r, pages, l ? word(me, l - 1) : 0, word(me, l));

	bad += madv(*r, pages * PAGE, MADV_PAGEOUT) != 0;
	return bad + read_pages(*r, pages, word(me, l));
}

/* Reclaim flushes the deferred batch before each dirty page's write-back
 * (try_to_unmap_flush_dirty()), so a batch a page; the madvise flushes a
 * batch another thread's reclaim left pending for the mm
 * (flush_tlb_batched_pending()) each time it takes the page table's lock:
 * once for the pages, again if it dropped the lock to split a folio. */
static int pageout_shape(int pages, int threads, struct band *b)
{
	int n = 0;

	(void)threads;
	n += band(b + n, "batch", 1000L * pages, 1000L * pages + 100);
	return n + band(b + n, "pending", 0, 2100);
}

static long protect(char *r, int pages, int prot)
{
	return my_syscall3(__NR_mprotect, r, pages * PAGE, prot);
}

static int mprotect_loop(int me, char **r, int pages, long l)
{
	int bad = write_pages(*r, pages, l ? word(me, l - 1) : 0, word(me, l));

	bad += protect(*r, pages, PROT_READ) != 0;
	bad += read_pages(*r, pages, word(me, l));
	return bad + (protect(*r, pages, PROT_READ | PROT_WRITE) != 0);
}

/* Two flushes of the range a loop: taking write permission away, and
 * giving it back. */
static int mprotect_shape(int pages, int threads, struct band *b)
{
	(void)threads;
	return band(b, kind_of(pages), 2000, 2050);
}

/* Every thread of the benchmark waits here for the others. */
static void barrier(void)
{
	int generation = bw->generation;

	if (__atomic_add_fetch(&bw->arrived, 1, __ATOMIC_SEQ_CST) == bw->threads) {
		bw->arrived = 0;
		__atomic_add_fetch(&bw->generation, 1, __ATOMIC_SEQ_CST);
	} else {
		while (bw->generation == generation)
			;
	}
}

static int fork_loop(int me, char **r, int pages, long l)
{
	static int fds[2];	/* thread 0's: not in the state the child shares */
	int bad = 0, status = -1;
	pid_t child;
	char c;

	if (me == 0) {
		child = pipe(fds) ? -1 : fork();
		if (child == 0) {
			/* the child only holds the pages until the loop's writes are done */
			close(fds[1]);
			exit(read(fds[0], &c, 1) != 0);
		}
		bw->child = child;
	}
	barrier();
	bad += bw->child < 0;
	bad += write_pages(*r, pages, l ? word(me, l - 1) : 0, word(me, l));
	barrier();
	if (me == 0 && bw->child > 0) {
		close(fds[1]);
		bad += waitpid(bw->child, &status, 0) != bw->child || !WIFEXITED(status) || WEXITSTATUS(status);
		close(fds[0]);
	}
	return bad;
}

/* A copy-on-write flush for each page a thread writes, and for the pages
 * of its own it writes besides (its stack, the benchmark's shared state:
 * up to 3 a thread-loop); fork's flush of the whole mm once a loop of all
 * the threads. */
static int fork_shape(int pages, int threads, struct band *b)
{
	int n = 0;

	n += band(b + n, "remote_page", 1000L * pages, 1000L * (pages + 3));
	return n + band(b + n, "remote_all", 1000 / threads, 1000 / threads + 100);
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

static unsigned long useonce_bytes(int pages, long loops)
{
	return (unsigned long)loops * pages * PAGE;
}

static int useonce_loop(int me, char **r, int pages, long l)
{
	(void)me;
	return read_pages(*r + (unsigned long)l * pages * PAGE, pages, 0);
}

/* Reclaim's deferred batches: at least one, and fewer than a page read
 * each (a batch carries many pages). */
static int useonce_shape(int pages, int threads, struct band *b)
{
	(void)pages;
	(void)threads;
	return band(b, "batch", 1, 500);
}

const struct bench bench_tlb_flush2 = {
	.name = "tlb-flush2", .loop = tlb_flush2_loop, .bytes = wis_bytes, .shape = tlb_flush2_shape,
};
const struct bench bench_tlb_flush2_range = {
	.name = "tlb-flush2-range", .loop = tlb_flush2_loop, .bytes = wis_bytes, .shape = tlb_flush2_shape,
};
const struct bench bench_tlb_flush2_processes = {
	.name = "tlb-flush2-processes", .loop = tlb_flush2_loop, .bytes = wis_bytes,
	.shape = tlb_flush2_processes_shape, .processes = 1,
};
const struct bench bench_cow_zero = {
	.name = "cow-zero", .loop = cow_zero_loop, .bytes = max_pages_bytes, .shape = cow_zero_shape,
};
const struct bench bench_pageout = {
	.name = "pageout", .loop = pageout_loop, .bytes = max_pages_bytes, .shape = pageout_shape,
};
const struct bench bench_mprotect = {
	.name = "mprotect", .loop = mprotect_loop, .bytes = max_pages_bytes, .shape = mprotect_shape,
};
const struct bench bench_fork = {
	.name = "fork", .loop = fork_loop, .bytes = max_pages_bytes, .shape = fork_shape, .lockstep = 1,
};
/* 1 MiB: as reclaim.c's limit, safe from its readers' isolating the
 * whole charge (see there) */
const struct bench bench_useonce = {
	.name = "useonce", .loop = useonce_loop, .region = useonce_file, .bytes = useonce_bytes,
	.shape = useonce_shape, .cgroup = "useonce", .limit_kb = 1024, .fixed = 1,
};

/* Fixed work: `bw->loops` loops, timed whole. */
static int fixed_thread(int me)
{
	unsigned long start = cycles();

	for (long l = 0; l < bw->loops; l++)
		bw->bad[me] += bw->b->loop(me, &bw->region[me], bw->pages, l);
	bw->ran[me] = bw->counted[me] = bw->loops;
	bw->span[me] = cycles() - start;
	return bw->bad[me] != 0;
}

/* Thread 0 keeps the window: MEASURE after bw->warmup cycles of its own,
 * STOP once it has measured bw->window cycles and every thread is in the
 * window (a thread that never gets there keeps the benchmark going until
 * the harness's cycle limit: a hang, never a result). */
static void keep_window(unsigned long start, unsigned long now, unsigned long mine)
{
	int state = __atomic_load_n(&bw->state, __ATOMIC_SEQ_CST);
	int all = __atomic_load_n(&bw->started, __ATOMIC_SEQ_CST) == bw->threads;

	if (state == WARMUP && now - start >= bw->warmup) {
		__atomic_store_n(&bw->state, MEASURE, __ATOMIC_SEQ_CST);
	} else if (state == MEASURE && now - mine >= bw->window && all) {
		__atomic_store_n(&bw->state, STOP, __ATOMIC_SEQ_CST);
	}
}

static int bench_thread(void *arg)
{
	int me = (int)(long)arg, in = 0;
	unsigned long start, now, mine = 0;
	long l = 0, at = 0;

	__atomic_fetch_add(&bw->ready, 1, __ATOMIC_SEQ_CST);
	while (!bw->go)
		;
	if (bw->b->fixed)
		return fixed_thread(me);
	start = cycles();
	for (;;) {
		bw->bad[me] += bw->b->loop(me, &bw->region[me], bw->pages, l++);
		now = cycles();
		/* in lockstep every thread reads the state thread 0 left after
		 * this loop, or some would wait for the others in the next */
		if (bw->b->lockstep)
			barrier();
		if (me == 0)
			keep_window(start, now, mine);
		if (bw->b->lockstep)
			barrier();
		int state = __atomic_load_n(&bw->state, __ATOMIC_SEQ_CST);
		if (!in && state == MEASURE) {
			in = 1;
			mine = now;
			at = l;
			__atomic_fetch_add(&bw->started, 1, __ATOMIC_SEQ_CST);
		} else if (in == 1 && state == STOP) {
			in = 2;
			bw->counted[me] = l - at;
			bw->span[me] = now - mine;
			__atomic_fetch_add(&bw->stopped, 1, __ATOMIC_SEQ_CST);
		}
		/* thread 0 goes on until every thread has left the window */
		if (in == 2 && (me != 0 || bw->b->lockstep ||
				__atomic_load_n(&bw->stopped, __ATOMIC_SEQ_CST) == bw->threads))
			break;
	}
	bw->ran[me] = l;
	return bw->bad[me] != 0;
}

static int run_bench(const struct bench *b, int pages, long work);

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

/* Benchmark `b`, `pages` pages a thread a loop, as phase "NAME-Pp":
 * `work` is loops a thread for fixed work, else the window in thousands
 * of cycles (the warm-up a quarter of it). 0 if every thread's data held
 * and the flushes had the loop's shape, or if bench_list leaves it out.
 * Each benchmark runs in a process of its own (in `b->cgroup` when it has
 * one), forked on CPU 0 alone: a new mm, so no benchmark starts with
 * translations another left behind on a CPU its own flushes would not
 * reach (a benchmark's regions reuse the addresses the last one unmapped;
 * the limit's kernel, which flushes the calling CPU alone, read a stale
 * page through them), and the copy-on-write faults of its start all on
 * the CPU its threads are started from. */
int bench_workload(const struct bench *b, int pages, long work)
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
		exit(run_bench(b, pages, work));
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

/* Thousandths printed as a decimal (nolibc's printf has no widths). */
static void print_milli(const char *before, long milli)
{
	long frac = milli % 1000;

	printf("%s%ld.%s%s%ld", before, milli / 1000, frac < 100 ? "0" : "", frac < 10 ? "0" : "", frac);
}

/* Flushes of a phase that are no loop's: a thread's first touches and its
 * exit (its process's, in processes mode), at most this many a thread,
 * allowed above a band's top (they matter only where a slow run, QEMU's
 * under load, has few loops). */
#define SETUP_FLUSHES	4

/* Whether the phase's flushes, per loop of a thread, lie in the bands
 * b->shape gives (up to SETUP_FLUSHES a thread above the top); prints
 * them either way. */
static int shape_held(const struct bench *b, const struct phase *ph, int pages, long loops)
{
	struct band bands[MAX_BANDS];
	int n = b->shape(pages, bw->threads, bands), held = 1;
	long allowed = SETUP_FLUSHES * bw->threads;

	printf("%s: flushes a loop (%ld loops):", b->name, loops);
	for (int i = 0; i < n; i++) {
		char name[64];
		unsigned long sum = 0;

		strcpy(name, bands[i].counters);
		for (char *c = name, *plus; c; c = plus ? plus + 1 : NULL) {
			plus = strchr(c, '+');
			if (plus)
				*plus = 0;
			sum += phase_count(ph, c);
		}
		long per_loop = (long)(sum * 1000 / loops);
		printf(" %s", bands[i].counters);
		print_milli("=", per_loop);
		print_milli(" [", bands[i].lo);
		print_milli(", ", bands[i].hi);
		printf("]");
		held = held && per_loop >= bands[i].lo && (long)sum * 1000 <= bands[i].hi * loops + 1000 * allowed;
	}
	printf(": %s\n", held ? "the loop's shape" : "FAIL: not the flushes this benchmark's loop asks for");
	return held;
}

static int run_bench(const struct bench *b, int pages, long work)
{
	int cpus = workload_cpus(b->name);
	static char name[32];
	unsigned long bytes;
	long loops = 0;
	struct phase ph;
	int failed;

	if (!cpus)
		return 1;
	if (b->bytes == wis_bytes && (pages < 1 || WIS_PAGES % pages)) {
		printf("%s: FAIL: %d pages a loop do not divide the region's %d\n", b->name, pages, WIS_PAGES);
		return 1;
	}
	if (b->bytes == max_pages_bytes && (pages < 1 || pages > MAX_PAGES)) {
		printf("%s: FAIL: %d pages a loop, 1 to %d\n", b->name, pages, MAX_PAGES);
		return 1;
	}
	if (!b->fixed && write_text("/proc/sys/kernel/perf_user_access", "2")) {
		printf("%s: FAIL: cannot let user space read the cycle counter (kernel.perf_user_access)\n", b->name);
		return 1;
	}
	choose_clock(b->name);
	bytes = b->bytes(pages, work);
	bw = mmap(0, sizeof(*bw), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (bw == MAP_FAILED) {
		printf("%s: FAIL: cannot map its state\n", b->name);
		return 1;
	}
	bw->b = b;
	bw->pages = pages;
	bw->loops = work;
	bw->window = (unsigned long)work * 1000;
	bw->warmup = bw->window / 4;
	bw->threads = cpus;
	for (int c = 0; c < cpus; c++) {
		bw->region[c] = b->region ? b->region(c, bytes) : anonymous(bytes);
		if (bw->region[c] == MAP_FAILED) {
			printf("%s: FAIL: mmap\n", b->name);
			return 1;
		}
	}
	/* threads on CPUs 1.. beside this one, or a process forked on each CPU */
	for (int c = !b->processes; c < cpus; c++) {
		long id = b->processes ? (pin_to(c), fork()) : spawn_on(c, bench_thread, (void *)(long)c);

		if (id == 0)
			exit(bench_thread((void *)(long)c));
		if (id < 0) {
			printf("%s: FAIL: cannot start its threads\n", b->name);
			return 1;
		}
	}
	pin_to(0);
	while (bw->ready != cpus - !b->processes)
		;
	strcpy(name, b->name);
	strcpy(name + strlen(name), "-");
	utoa_r(pages, name + strlen(name));
	strcpy(name + strlen(name), "p");
	phase_begin(&ph, name);
	bw->go = 1;
	failed = !b->processes && bench_thread((void *)0L);
	failed = wait_threads() || failed;
	phase_end(&ph);
	for (int c = 0; c < cpus; c++) {
		munmap(bw->region[c], bytes);
		loops += bw->ran[c];
		printf("%s: thread %d: %ld loops in %lu cycles\n", b->name, c, bw->counted[c], bw->span[c]);
	}
	printf("%s: %d threads, %d pages a loop, %ld loops in all: %s\n", b->name, cpus, pages, loops,
	       failed ? "FAIL: a thread's pages did not read back as written" : "data intact");
	failed = !shape_held(b, &ph, pages, loops) || failed;
	munmap(bw, sizeof(*bw));
	return failed;
}
