// SPDX-License-Identifier: GPL-2.0
/*
 * Workload 1 (seed 004, lru-file-mmap-read): a process under a memory
 * cgroup limit smaller than a file maps the file and reads it from a
 * thread on every CPU, round after round, while each thread also keeps a
 * few anonymous pages of its own. Reclaim must drop file pages that every
 * thread has mapped and push anonymous pages to swap on zram: each
 * try_to_unmap() defers its flush into the reclaiming task's batch, so
 * this is the workload Mel Gorman's series was measured on.
 *
 * Nothing may be lost or stale: every page read must hold its own
 * pattern. A thread that reads a reclaimed file page through a stale
 * translation reads whatever the frame holds now (another file page,
 * an anonymous page, zeroes), not the page's pattern.
 *
 * The file lives on ext2 on a RAM disk (brd): /fs.img in the initramfs
 * is an empty file system, kept sparse (only its non-zero blocks, as
 * "8-byte block number, 4096 bytes" records), since brd starts zeroed.
 */
#include "init.h"

#define PAGE		4096UL
#define WORDS		(PAGE / 8)
/* Small enough for the RTL SoC: every round reads FILE_PAGES pages, of
 * which the limit lets fewer than LIMIT_KB / 4 stay resident. Not much
 * smaller: every reader reclaims on its own and takes up to 32 pages off
 * the LRU at a time, and a reader that finds the rest of the charge
 * isolated by the others gives up and calls the OOM killer (seen on QEMU
 * with four readers, 16 anonymous pages each and a 640 KiB limit). */
#define FILE_PAGES	384
#define ANON_PAGES	8
#define ROUNDS		2	/* 1 in a quick run */
#define LIMIT_KB	1024
#define WORKLOAD_CG	CGROUP "/reclaim"

static struct {
	const volatile unsigned long *file;
	volatile int bad, go;
} rw;

static unsigned long file_word(int p, int w)
{
	return 0xf11e000000000000UL | (unsigned long)p << 16 | w;
}

static unsigned long anon_word(int cpu, int p, int round)
{
	return 0xa000000000000000UL | (unsigned long)cpu << 40 | (unsigned long)round << 20 | p;
}

/* Copies /fs.img's records onto /dev/ram0; 0 or -1. */
static int restore_image(void)
{
	static unsigned char block[PAGE];
	unsigned long nr;
	int in = open("/fs.img", O_RDONLY), out = open("/dev/ram0", O_WRONLY);
	int ok = in >= 0 && out >= 0;

	while (ok && read(in, &nr, sizeof(nr)) == sizeof(nr))
		ok = read(in, block, PAGE) == (ssize_t)PAGE && lseek(out, nr * PAGE, SEEK_SET) == (off_t)(nr * PAGE) &&
		     write(out, block, PAGE) == (ssize_t)PAGE;
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return ok ? 0 : -1;
}

/* ext2 from /fs.img on the RAM disk, mounted at /mnt, once; 0 or -1. */
int ram_fs(void)
{
	static int mounted;

	if (!mounted && (restore_image() || mount("/dev/ram0", "/mnt", "ext2", 0, 0)))
		return -1;
	mounted = 1;
	return 0;
}

/* A memory cgroup at CGROUP/name limited to limit_kb, cgroup2 mounted with
 * the memory controller on the first time; 0 or -1. */
int memory_cgroup(const char *name, int limit_kb)
{
	static int mounted;
	char path[64], limit[24];

	limit[utoa_r(limit_kb * 1024UL, limit)] = 0;
	if (!mounted && (mount("cgroup2", CGROUP, "cgroup2", 0, 0) ||
			 write_text(CGROUP "/cgroup.subtree_control", "+memory")))
		return -1;
	mounted = 1;
	strcpy(path, CGROUP "/");
	strcpy(path + strlen(path), name);
	if (mkdir(path, 0755))
		return -1;
	strcpy(path + strlen(path), "/memory.max");
	return write_text(path, limit);
}

/* ext2 on the RAM disk at /mnt with /mnt/data written, and no page of it
 * in the page cache: the readers fault every page in. The file is written
 * with direct I/O, CHUNK pages a call: ext2 then allocates each call's
 * blocks at once and brd copies them straight from the buffer, where
 * buffered writes went through the page cache one page at a time (from
 * the munmap phase's end to the reclaim phase's start, the 2-hart SoC's
 * quick run took about 36 M cycles with those, 18.2 M with these). */
#define CHUNK		32
static int make_file(void)
{
	static unsigned long chunk[CHUNK * WORDS] __attribute__((aligned(PAGE)));
	int fd;

	if (ram_fs()) {
		say("reclaim: FAIL: cannot put ext2 on /dev/ram0\n");
		return -1;
	}
	fd = open("/mnt/data", O_WRONLY | O_CREAT | O_TRUNC | O_DIRECT, 0644);
	for (int first = 0; fd >= 0 && first < FILE_PAGES; first += CHUNK) {
		int n = FILE_PAGES - first < CHUNK ? FILE_PAGES - first : CHUNK;

		for (int p = 0; p < n; p++)
			for (int w = 0; w < (int)WORDS; w++)
				chunk[p * WORDS + w] = file_word(first + p, w);
		if (write(fd, chunk, n * PAGE) != (ssize_t)(n * PAGE)) {
			close(fd);
			fd = -1;
		}
	}
	if (fd < 0 || fsync(fd) || close(fd) || umount2("/mnt", 0) || mount("/dev/ram0", "/mnt", "ext2", 0, 0)) {
		say("reclaim: FAIL: cannot write /mnt/data\n");
		return -1;
	}
	return 0;
}

/* Every thread: its anonymous pages, then the whole file from its own
 * starting page, rounds() times; a wrong word ends its run. */
static int rounds(void)
{
	return quick ? 1 : ROUNDS;
}

static int reader(void *arg)
{
	int me = (int)(long)arg, cpus = online_cpus();
	volatile unsigned long *anon = mmap(0, ANON_PAGES * PAGE, PROT_READ | PROT_WRITE,
					    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (anon == MAP_FAILED)
		return 1;
	while (!rw.go)
		;
	for (int round = 0; round < rounds() && !rw.bad; round++) {
		for (int p = 0; p < ANON_PAGES; p++) {
			if (round && anon[p * WORDS] != anon_word(me, p, round - 1)) {
				printf("reclaim: cpu %d: anonymous page %d lost its contents\n", me, p);
				rw.bad = 1;
			}
			anon[p * WORDS] = anon_word(me, p, round);
		}
		for (int i = 0; i < FILE_PAGES && !rw.bad; i++) {
			int p = (i + me * FILE_PAGES / cpus) % FILE_PAGES;
			if (rw.file[p * WORDS] != file_word(p, 0) ||
			    rw.file[p * WORDS + WORDS - 1] != file_word(p, WORDS - 1)) {
				printf("reclaim: cpu %d: file page %d reads %lx\n", me, p, rw.file[p * WORDS]);
				rw.bad = 1;
			}
		}
	}
	return rw.bad;
}

/* The workload's process: joins the cgroup, maps the file, reads it from
 * every CPU; its exit status is the verdict. */
static int workload(void)
{
	char pid[16];
	int cpus = online_cpus(), fd, failed;

	pid[utoa_r(getpid(), pid)] = 0;
	if (write_text(WORKLOAD_CG "/cgroup.procs", pid)) {
		say("reclaim: FAIL: cannot join the cgroup\n");
		return 1;
	}
	fd = open("/mnt/data", O_RDONLY);
	rw.file = fd < 0 ? MAP_FAILED : mmap(0, FILE_PAGES * PAGE, PROT_READ, MAP_SHARED, fd, 0);
	if (rw.file == MAP_FAILED) {
		say("reclaim: FAIL: cannot map /mnt/data\n");
		return 1;
	}
	pin_to(0);
	for (int c = 1; c < cpus; c++)
		if (spawn_on(c, reader, (void *)(long)c) < 0) {
			say("reclaim: FAIL: cannot start a reader\n");
			return 1;
		}
	rw.go = 1;
	failed = reader(0);
	failed += wait_threads();
	return failed != 0;
}

int reclaim_workload(void)
{
	struct phase ph;
	int status = -1;
	unsigned long scanned, refaults, swapped = stat_value("/proc/vmstat", "pswpout");

	if (make_file())
		return 1;
	if (memory_cgroup("reclaim", LIMIT_KB)) {
		say("reclaim: FAIL: cannot set up the memory cgroup\n");
		return 1;
	}
	phase_begin(&ph, "reclaim");
	pid_t child = fork();
	if (child == 0)
		exit(workload());
	if (child < 0 || waitpid(child, &status, 0) != child) {
		say("reclaim: FAIL: cannot run the workload\n");
		return 1;
	}
	phase_end(&ph);
	/* The cgroup's own counts: limit reclaim is not in /proc/vmstat's. */
	scanned = stat_value(WORKLOAD_CG "/memory.stat", "pgscan");
	refaults = stat_value(WORKLOAD_CG "/memory.stat", "workingset_refault_file");
	swapped = stat_value("/proc/vmstat", "pswpout") - swapped;
	printf("reclaim: %d file pages read %d times from %d CPUs under a %d KiB limit: %lu pages scanned, "
	       "%lu file refaults, %lu pages to swap\n", FILE_PAGES, rounds(), online_cpus(), LIMIT_KB, scanned,
	       refaults, swapped);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		say("reclaim: FAIL: a page read wrong, or the workload died\n");
		return 1;
	}
	if (!scanned) {
		say("reclaim: FAIL: nothing was reclaimed: the limit did not bite\n");
		return 1;
	}
	return 0;
}
