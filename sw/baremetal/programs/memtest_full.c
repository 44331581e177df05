/* memtest over all of the memory beyond the program in one window (the
 * long target's: tens of millions of cycles on the simulated board). */
#define MEMTEST_WINDOW (~0UL)
#include "memtest.c"
