/*
 * Bare-metal runtime: multi-hart start-up, console, exit, locks and barriers,
 * cycle counters, trap recording and M->S mode entry. Every hart enters
 * main(hartid) once start-up is done: in M-mode on the SoC and QEMU
 * (runtime/machine), in S-mode under OpenSBI (runtime/sbi). num_harts() is
 * read from the device tree.
 */
#ifndef RUNTIME_H
#define RUNTIME_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "encoding.h"
#include "platform.h"

int main(unsigned long hartid);

/* Start-up facts. */
unsigned num_harts(void);
unsigned long boot_hart(void);		/* the hart that ran start-up: 0, or OpenSBI's pick */
unsigned long hart_id(void);		/* works in M and S mode */
const void *boot_fdt(void);

/* Console: whole lines stay together across harts. */
void putchar_raw(int c);
int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int vprintf(const char *fmt, va_list ap);

/* Ends the whole run (all harts) with this status; 0 is success. */
void __attribute__((noreturn)) exit(int status);
#define CHECK(cond) do { if (!(cond)) check_failed(__FILE__, __LINE__, #cond); } while (0)
void __attribute__((noreturn)) check_failed(const char *file, int line, const char *what);

/* Synchronisation. */
typedef struct { volatile int locked; } spinlock_t;
void spin_lock(spinlock_t *l);
void spin_unlock(spinlock_t *l);
void barrier(void);			/* all num_harts() harts */

/* Traps. A hart's page faults, and (M-mode runtime) its S-mode access
 * faults, are counted and the faulting instruction is skipped, so a test can
 * probe an address and read the count. */
struct fault_log {
	volatile uint64_t count;
	volatile uint64_t last_cause;
	volatile uint64_t last_tval;
};
struct fault_log *my_faults(void);
int probe_read64(const volatile uint64_t *p, uint64_t *value);	/* 1 if it faulted */
int probe_write64(volatile uint64_t *p, uint64_t value);		/* 1 if it faulted */
/* Calls the code at `code` (it returns a value in a0): 1 if fetching it
 * faulted (S-mode runtimes: the fault returns to the caller). */
int probe_fetch(const void *code, uint64_t *value);

/* M-mode runtime only: drops this hart to S-mode and calls fn(arg) there; if fn returns, the
 * hart's S-mode result comes back to M-mode as the return value. */
long run_in_smode(long (*fn)(void *), void *arg);
/* M-mode runtime only: interrupts taken in M-mode go to fn (mcause as read);
 * without one they are unexpected traps. */
void set_m_interrupt_handler(void (*fn)(unsigned long mcause));
/* M-mode runtime only, from S-mode: runs fn(arg) in M-mode (interrupts off,
 * no translation) and returns its result. */
long call_in_mmode(long (*fn)(void *), void *arg);

/* Device tree: the first `reg` address of the first node whose compatible
 * list holds `compatible`; 0 if there is none. */
uint64_t fdt_reg_of(const char *compatible);
/* 1 if a node with `compatible` in the boot device tree has property `prop`. */
int fdt_has_prop(const char *compatible, const char *prop);
/* The size of the first /memory node's first range; 0 if none. */
uint64_t fdt_memory_size(void);

/* S-mode payload runtime only: an SBI call (a0-a5 arguments). */
struct sbiret {
	long error;
	long value;
};
struct sbiret sbi_ecall(unsigned long ext, unsigned long fid, unsigned long a0, unsigned long a1,
			unsigned long a2, unsigned long a3, unsigned long a4, unsigned long a5);
#define SBI_EXT_BASE		0x10
#define SBI_BASE_PROBE_EXT	3
#define SBI_EXT_IPI		0x735049
#define SBI_EXT_RFENCE		0x52464E43
#define SBI_RFENCE_SFENCE_VMA	1
#define SBI_RFENCE_SFENCE_VMA_ASID	2
/* Under OpenSBI: what a hart runs when the domain context switch starts it
 * in a domain it visits (runtime/sbi/crt0.S); by default nothing. */
void other_domain_entry(unsigned long hartid);
/* Under OpenSBI: start `hart` (of the caller's domain) at the image's
 * secondary entry, as start-up does for the boot hart; the SBI error. */
long sbi_start_hart(unsigned long hart);

/* Small helpers without a libc. */
void *memset(void *d, int c, size_t n);
void *memcpy(void *d, const void *s, size_t n);
int strcmp(const char *a, const char *b);
size_t strlen(const char *s);

#endif
