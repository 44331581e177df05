/*
 * A broken shootdown on purpose: litmus.c leaving out the last entry of
 * every request of more than one, on the tests whose requests have more
 * than one. tests/system/test_litmus.py requires them to fail.
 */
#define LITMUS_MUTANT_DROP_LAST
#define LITMUS_ONLY "BatchTearing"
#include "litmus.c"
