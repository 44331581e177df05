/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The test finisher (sifive,test0, at QEMU virt's address): a word written
 * to it ends the run. GENERATED from hw/testing/SimDevices.scala by
 * GenShootdownHeaders; do not edit.
 */
#ifndef FINISHER_H
#define FINISHER_H

#define FINISHER_BASE       0x100000UL
#define FINISHER_PASS       0x5555       /* status 0 */
#define FINISHER_FAIL       0x3333       /* (code << 16) | FAIL: status code */
#define FINISHER_RESET      0x7777       /* a reboot: the harness ends with 1 */
#define FINISHER_SNAPSHOT   0x5a5a       /* the harness's snapshot point */

#endif
