// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the project's test kernel: a static, soft-float program built
 * against the kernel tree's own nolibc (tools/include/nolibc). It mounts
 * what the workloads need, runs them, prints the kernel's shootdown
 * counters (debugfs, when the kernel has them) and powers off.
 * The run's outcome is an exit status: success powers off through the
 * kernel (SBI system reset, which OpenSBI sends to the test finisher), a
 * failure writes its code to the finisher itself (QEMU virt and the SoC
 * both have it at FINISHER_BASE), so the harness or QEMU exits with it.
 */
#include <linux/perf_event.h>
#include <linux/reboot.h>
#include <linux/sched.h>
#include <asm/ioctls.h>

#include "finisher.h"	/* sw/include: FINISHER_BASE and the commands (generated) */
#include "init.h"

#define STACK_BYTES	(64 * 1024)

int quick;
static int bench, checks;
char bench_list[128];

int file_exists(const char *path)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

void say(const char *s)
{
	write(1, s, strlen(s));
}

/* The test finisher's register, mapped through /dev/mem; NULL if it cannot be. */
static volatile unsigned int *finisher(void)
{
	static volatile unsigned int *f;
	int fd;

	if (f)
		return f;
	fd = open("/dev/mem", O_RDWR | O_SYNC);
	if (fd >= 0) {
		void *m = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, FINISHER_BASE);
		if (m != MAP_FAILED)
			f = m;
		close(fd);
	}
	return f;
}

/*
 * Where the benchmarks' samples begin: the SoC harness may fork here, a
 * child per seed of its memory jitter (+fork-seeds), so that every sample
 * shares the boot and the correctness workloads. QEMU ignores the command;
 * a harness without fork options only notes it.
 */
static void snapshot(void)
{
	volatile unsigned int *f = finisher();

	ioctl(1, TCSBRK, (void *)1);
	if (f)
		*f = FINISHER_SNAPSHOT;
	say("init: snapshot\n");
}

void __attribute__((noreturn)) finish(int code)
{
	volatile unsigned int *f;

	if (code == 0) {
		reboot(LINUX_REBOOT_CMD_POWER_OFF);
		say("init: power-off failed\n");
		code = 2;
	}
	/* The console buffers what it cannot send at once; the finisher ends
	 * the machine, so let the console drain first (tcdrain). */
	ioctl(1, TCSBRK, (void *)1);
	f = finisher();
	if (f)
		*f = (unsigned int)code << 16 | FINISHER_FAIL;
	say("init: cannot reach the test finisher; halting\n");
	reboot(LINUX_REBOOT_CMD_HALT);
	for (;;)
		sched_yield();
}

const char *read_text(const char *path, char *buf, int size)
{
	int fd = open(path, O_RDONLY);
	int n = fd < 0 ? -1 : read(fd, buf, size - 1);
	if (fd >= 0)
		close(fd);
	if (n < 0)
		return "?";
	while (n > 0 && buf[n - 1] == '\n')
		n--;
	buf[n] = 0;
	return buf;
}

int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	int ok = fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

unsigned long stat_value(const char *path, const char *name)
{
	static char buf[8192];
	const char *s = read_text(path, buf, sizeof(buf));
	size_t n = strlen(name);

	for (const char *l = s; *l; ) {
		if (!strncmp(l, name, n) && l[n] == ' ')
			return strtoul(l + n + 1, NULL, 10);
		const char *nl = strchr(l, '\n');
		if (!nl)
			break;
		l = nl + 1;
	}
	return 0;
}

int online_cpus(void)
{
	char buf[32];
	const char *s = read_text("/sys/devices/system/cpu/online", buf, sizeof(buf));
	const char *dash = strchr(s, '-');
	return dash ? atoi(dash + 1) + 1 : 1;	/* "0" or "0-N" */
}

long madv(volatile void *addr, unsigned long len, int advice)
{
	return my_syscall3(__NR_madvise, addr, len, advice);
}

int workload_cpus(const char *who)
{
	int cpus = online_cpus();

	if (cpus >= 2 && cpus <= MAX_CPUS)
		return cpus;
	printf("%s: FAIL: needs 2 to %d CPUs, has %d\n", who, MAX_CPUS, cpus);
	return 0;
}

long pin_to(int cpu)
{
	unsigned long mask = 1UL << cpu;
	return my_syscall3(__NR_sched_setaffinity, 0, sizeof(mask), &mask);
}

/* The new thread starts on its own stack with fn and arg on it, calls
 * fn(arg) and exits with its result: it never returns into C frames. */
long spawn_on(int cpu, int (*fn)(void *), void *arg)
{
	char *stack = mmap(0, STACK_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (stack == MAP_FAILED)
		return -1;
	unsigned long *sp = (unsigned long *)(stack + STACK_BYTES - 32);
	sp[0] = (unsigned long)fn;
	sp[1] = (unsigned long)arg;
	sp[2] = (unsigned long)cpu;
	register long a0 __asm__("a0") = CLONE_VM | CLONE_FS | CLONE_FILES | SIGCHLD;
	register long a1 __asm__("a1") = (long)sp;
	register long a2 __asm__("a2") = 0;
	register long a3 __asm__("a3") = 0;
	register long a4 __asm__("a4") = 0;
	register long a7 __asm__("a7") = __NR_clone;
	__asm__ volatile("ecall\n"
			 "bnez a0, 1f\n"
			 /* the child: pin itself, run fn(arg), exit with its result */
			 "ld a1, 16(sp)\n"
			 "li a0, 1\n"
			 "sll a0, a0, a1\n"
			 "sd a0, 24(sp)\n"
			 "li a0, 0\n"
			 "li a1, 8\n"
			 "addi a2, sp, 24\n"
			 "li a7, %[setaff]\n"
			 "ecall\n"
			 "ld a1, 0(sp)\n"
			 "ld a0, 8(sp)\n"
			 "jalr a1\n"
			 "li a7, %[exit]\n"
			 "ecall\n"
			 "1:\n"
			 : "+r"(a0)
			 : "r"(a1), "r"(a2), "r"(a3), "r"(a4), "r"(a7),
			   [setaff] "i"(__NR_sched_setaffinity), [exit] "i"(__NR_exit)
			 : "memory");
	return a0;
}

int wait_threads(void)
{
	int status, failed = 0;
	while (waitpid(-1, &status, 0) > 0)
		failed += !WIFEXITED(status) || WEXITSTATUS(status) != 0;
	return failed;
}

/* try_store, try_load: one uncompressed access whose fault the handler
 * skips (to the *_faulted label after it). */
__asm__(".text\n"
	".balign 4\n"
	".option push\n"
	".option norvc\n"
	".globl try_store\n"
	"try_store:\n"
	"	sd a1, 0(a0)\n"
	"	li a0, 0\n"
	"	ret\n"
	"try_store_faulted:\n"
	"	li a0, 1\n"
	"	ret\n"
	".globl try_load\n"
	"try_load:\n"
	"	ld a2, 0(a0)\n"
	"	sd a2, 0(a1)\n"
	"	li a0, 0\n"
	"	ret\n"
	"try_load_faulted:\n"
	"	li a0, 1\n"
	"	ret\n"
	".option pop\n");
extern char try_store_faulted[], try_load_faulted[];

/* The kernel's riscv signal frame, as far as the handler needs it. */
struct sigaction_k {
	void (*handler)(int, void *, void *);
	unsigned long flags;
	unsigned long mask;
};
#define UC_PC_OFFSET	176	/* struct ucontext: uc_mcontext.sc_regs.pc */

static void on_segv(int sig, void *info, void *uc)
{
	unsigned long *pc = (unsigned long *)((char *)uc + UC_PC_OFFSET);
	(void)sig;
	(void)info;
	if (*pc == (unsigned long)try_store) {
		*pc = (unsigned long)try_store_faulted;
		return;
	}
	if (*pc == (unsigned long)try_load) {
		*pc = (unsigned long)try_load_faulted;
		return;
	}
	say("init: unexpected SIGSEGV\n");
	finish(4);
}

void catch_store_faults(void)
{
	struct sigaction_k act = { on_segv, 0x4 /* SA_SIGINFO */, 0 };
	if (my_syscall4(__NR_rt_sigaction, SIGSEGV, &act, 0, sizeof(act.mask))) {
		say("init: cannot install the SIGSEGV handler\n");
		finish(3);
	}
}

/* Appends the "name value" lines of a debugfs file to `c`. */
static void read_counter_file(struct counters *c, const char *path)
{
	char buf[1024];
	const char *s = read_text(path, buf, sizeof(buf));

	if (!strcmp(s, "?"))
		return;
	for (const char *l = s; *l && c->n < MAX_COUNTERS; ) {
		const char *sp = strchr(l, ' ');
		const char *nl = strchr(l, '\n');
		if (!sp || (nl && sp > nl) || sp - l >= (long)sizeof(c->name[0]))
			break;
		memcpy(c->name[c->n], l, sp - l);
		c->name[c->n][sp - l] = 0;
		c->value[c->n++] = strtoul(sp + 1, NULL, 10);
		if (!nl)
			break;
		l = nl + 1;
	}
}

void read_counters(struct counters *c)
{
	c->n = 0;
	read_counter_file(c, "/sys/kernel/debug/riscv/tlb_shootdown");
	read_counter_file(c, "/sys/kernel/debug/tlb_flush_kinds");
}

unsigned long phase_count(const struct phase *ph, const char *name)
{
	for (int i = 0; i < ph->counters.n; i++)
		if (!strcmp(ph->counters.name[i], name))
			return ph->counters.value[i];
	return 0;
}

/* IPIs the kernel sent for its own reasons (rescheduling, function calls,
 * ...): the sum of /proc/interrupts' IPI rows over every CPU. */
static unsigned long linux_ipis(void)
{
	static char buf[4096];
	const char *s = read_text("/proc/interrupts", buf, sizeof(buf));
	unsigned long sum = 0;

	for (const char *l = s; *l; ) {
		while (*l == ' ')
			l++;
		if (!strncmp(l, "IPI", 3)) {
			char *end;
			const char *colon = strchr(l, ':');
			for (l = colon ? colon + 1 : l + 3; ; l = end) {
				unsigned long v = strtoul(l, &end, 10);
				if (end == l)
					break;
				sum += v;
			}
		}
		const char *nl = strchr(l, '\n');
		if (!nl)
			break;
		l = nl + 1;
	}
	return sum;
}

/*
 * OpenSBI's own count of the remote SFENCE.VMA requests (SBI RFENCE calls)
 * each hart made: the SBI PMU firmware events SFENCE_VMA_SENT and
 * SFENCE_VMA_ASID_SENT, which sbi_tlb_request() counts for every request,
 * whether IPIs or the unit carry it out. Read through perf as raw events
 * of type "SBI firmware" (config bits 63:62 = 2), one per CPU and event.
 */
#define SBI_FW_EVENT(code)	(2ULL << 62 | (code))
#define SBI_PMU_FW_SFENCE_VMA_SENT		10
#define SBI_PMU_FW_SFENCE_VMA_ASID_SENT		12
static int fence_fd[MAX_CPUS][2];
static int fence_cpus;

static int open_fence_counters(void)
{
	static const unsigned long long events[2] = {
		SBI_FW_EVENT(SBI_PMU_FW_SFENCE_VMA_SENT), SBI_FW_EVENT(SBI_PMU_FW_SFENCE_VMA_ASID_SENT),
	};
	int cpus = online_cpus();

	for (int cpu = 0; cpu < cpus && cpu < MAX_CPUS; cpu++) {
		for (int e = 0; e < 2; e++) {
			struct perf_event_attr attr = {
				.type = PERF_TYPE_RAW, .size = sizeof(attr), .config = events[e],
			};
			long fd = my_syscall5(__NR_perf_event_open, &attr, -1, cpu, -1, 0);
			if (fd < 0) {
				printf("init: cannot count OpenSBI's RFENCE calls on cpu %d (perf_event_open: "
				       "error %ld); the phases report no sbi_rfence_calls\n", cpu, -fd);
				return -1;
			}
			fence_fd[cpu][e] = fd;
		}
	}
	fence_cpus = cpus;
	return 0;
}

/* Reading another CPU's counter sends it a function-call IPI: call this
 * before linux_ipis(), so that the IPIs it causes are the kernel's own. */
static unsigned long sbi_rfence_calls(void)
{
	unsigned long sum = 0;

	for (int cpu = 0; cpu < fence_cpus; cpu++) {
		for (int e = 0; e < 2; e++) {
			unsigned long long v = 0;
			if (read(fence_fd[cpu][e], &v, sizeof(v)) == sizeof(v))
				sum += v;
		}
	}
	return sum;
}

void phase_begin(struct phase *ph, const char *name)
{
	ph->name = name;
	read_counters(&ph->counters);
	ph->sbi_rfence_calls = sbi_rfence_calls();
	ph->linux_ipis = linux_ipis();
	printf("phase %s begin\n", name);
}

void phase_end(struct phase *ph)
{
	unsigned long rfence_calls, ipis;
	struct counters after;

	/* The harness stamps this line when it starts: the phase ends here,
	 * before reading the counters (which sends IPIs and, on the port,
	 * reads debugfs) adds to it. */
	printf("phase %s done\n", ph->name);
	rfence_calls = sbi_rfence_calls();
	ipis = linux_ipis();
	read_counters(&after);
	printf("phase %s end linux_ipis=%lu", ph->name, ipis - ph->linux_ipis);
	if (fence_cpus)
		printf(" sbi_rfence_calls=%lu", rfence_calls - ph->sbi_rfence_calls);
	for (int i = 0; i < after.n; i++) {
		after.value[i] -= i < ph->counters.n ? ph->counters.value[i] : 0;
		printf(" %s=%lu", after.name[i], after.value[i]);
	}
	printf("\n");
	ph->counters = after;
}

/* The kernel's shootdown counters, when it has them. */
static void print_counters(void)
{
	char buf[1024];
	const char *s = read_text("/sys/kernel/debug/riscv/tlb_shootdown", buf, sizeof(buf));
	if (strcmp(s, "?") != 0)
		printf("init: tlb_shootdown counters:\n%s\n", s);
}

/*
 * A kernel warning or bug report during the run (the series' WARN_ON_ONCE
 * checks among them: a flush from interrupt context, an IPI fallback with
 * interrupts off) fails it: the kernel's own log, read back whole.
 */
static const char *find(const char *s, const char *word)
{
	size_t n = strlen(word);

	for (; *s; s++)
		if (!strncmp(s, word, n))
			return s;
	return NULL;
}

static int kernel_log_clean(void)
{
	static char log[1 << 17];
	static const char *const bad[] = { "WARNING: ", "BUG: ", "Oops" };
	long n = my_syscall3(__NR_syslog, 3 /* SYSLOG_ACTION_READ_ALL */, log, sizeof(log) - 1);

	if (n < 0) {
		say("init: FAIL: cannot read the kernel log\n");
		return 0;
	}
	log[n] = 0;
	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *at = find(log, bad[i]);
		if (at) {
			const char *nl = strchr(at, '\n');
			printf("init: FAIL: the kernel reported: %.*s\n", nl ? (int)(nl - at) : 120, at);
			return 0;
		}
	}
	return 1;
}

int main(void)
{
	char cpus[64];
	struct phase ph;
	int failed, fd;

	if (mount("proc", "/proc", "proc", 0, 0) || mount("sysfs", "/sys", "sysfs", 0, 0) ||
	    mount("debugfs", "/sys/kernel/debug", "debugfs", 0, 0) ||
	    mount("devtmpfs", "/dev", "devtmpfs", 0, 0)) {
		say("init: cannot mount /proc, /sys, debugfs and /dev\n");
		finish(3);
	}
	printf("init: running on cpus %s\n", read_text("/sys/devices/system/cpu/online", cpus, sizeof(cpus)));
	checks = file_exists("/checks");
	if (checks)
		say("init: checks only: the quick workloads, no benchmark\n");
	quick = file_exists("/quick") || checks;
	if (quick) {
		say("init: quick run: fewer probe rounds, one round of the moved-table and pending workloads, no 64 KiB folio phases, one reclaim round\n");
	}
	fd = open("/bench", O_RDONLY);
	bench = fd >= 0;
	if (bench) {
		close(fd);
		read_text("/bench", bench_list, sizeof(bench_list));
		printf("init: benchmark run: the benchmarks alone, after the snapshot: %s\n",
		       bench_list[0] ? bench_list : "all of them");
	}
	catch_store_faults();
	open_fence_counters();
	if (setup_swap(16))
		finish(3);
	/* A stale translation makes every later result meaningless (and can
	 * keep a later workload from ending): stop at the first failure. A
	 * benchmark kernel (/bench) runs the benchmarks alone. */
	failed = 0;
	if (!bench) {
		phase_begin(&ph, "stale-probe");
		failed = stale_probe();
		phase_end(&ph);
		failed = failed || nonleaf_workload() || unshare_workload() || pending_workload() || madvise_workload(0) ||
			 (!quick && madvise_workload(1)) || reclaim_workload();
	}
	/* The benchmarks' samples begin here (the harness may fork a child a
	 * seed); a failure before this point stops the run first. */
	if (!failed && !checks) {
		snapshot();
		/* Windows in thousands of cycles (a quarter of it more as the
		 * warm-up), long enough on the 2-hart SoC for tens of loops a
		 * thread at one page and a few at 128. */
		failed = bench_workload(&bench_tlb_flush2, 1, quick ? 1500 : 4000);
		if (!quick)
			failed = failed || bench_workload(&bench_tlb_flush2_range, 16, 6000) ||
				 bench_workload(&bench_tlb_flush2_range, 128, 10000) ||
				 bench_workload(&bench_tlb_flush2_processes, 1, 4000) ||
				 bench_workload(&bench_cow_zero, 1, 4000) || bench_workload(&bench_pageout, 16, 8000) ||
				 bench_workload(&bench_mprotect, 1, 4000) || bench_workload(&bench_fork, 4, 6000) ||
				 bench_workload(&bench_useonce, 1, 256);
	}
	print_counters();
	/* Against the harness's count of machine software interrupts: what
	 * is not the kernel's own IPIs is the firmware's (boot, RFENCE). */
	printf("init: kernel IPIs since boot: %lu\n", linux_ipis());
	failed = !kernel_log_clean() || failed;
	finish(failed ? 1 : 0);
}
