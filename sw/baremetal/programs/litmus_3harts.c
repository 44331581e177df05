/*
 * litmus.c on the tests of three harts or more only: make test runs the
 * others on the 2-hart SoC and these on the 4-hart one
 * (tests/system/test_litmus.py); make litmus-long runs every test on both.
 */
#define LITMUS_MIN_HARTS 3
#include "litmus.c"
