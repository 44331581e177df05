/* What the runtime's own files share and programs do not need. */
#ifndef INTERNAL_H
#define INTERNAL_H

#include "runtime.h"

struct trap_frame {
	unsigned long regs[32];	/* x0 slot unused; x2 holds the interrupted sp */
};

extern char s_trap_entry[];
void hart_entry(unsigned long hartid);
void runtime_boot(const void *fdt);
/* Counts a fault a probe expects in this hart's fault log; returns the pc
 * after the faulting instruction. */
unsigned long record_fault(unsigned long cause, unsigned long tval, unsigned long epc);
void __attribute__((noreturn)) unexpected_trap(const char *mode, unsigned long cause, unsigned long epc,
					       unsigned long tval);

#endif
