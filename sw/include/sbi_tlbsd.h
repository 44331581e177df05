/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The batched TLB shootdown SBI extension (experimental extension space):
 * function IDs and flags. The ABI is specified in
 * docs/sbi-batched-shootdown.md; the list entries are the unit's own
 * (tlb_shootdown_regs.h, TLBSD_ENTRY).
 */
#ifndef SBI_TLBSD_H
#define SBI_TLBSD_H

#define SBI_EXT_TLBSD			0x08544C42	/* "\x08TLB" */
#define SBI_TLBSD_GET_INFO		0	/* -> value: most entries one FLUSH may carry */
#define SBI_TLBSD_FLUSH			1	/* (hart_mask, hart_mask_base, list_lo, list_hi, count, flags) */
#define SBI_TLBSD_SYNC			2	/* wait for every request this hart posted */
#define SBI_TLBSD_FLUSH_POST		(1UL << 0)	/* FLUSH returns once the request is accepted */

/* Standard SBI error codes, as the extension returns them. */
#define SBI_SUCCESS			0
#define SBI_ERR_FAILED			-1
#define SBI_ERR_NOT_SUPPORTED		-2
#define SBI_ERR_INVALID_PARAM		-3
#define SBI_ERR_DENIED			-4
#define SBI_ERR_INVALID_ADDRESS		-5
#define SBI_ERR_TIMEOUT			-12
#define SBI_ERR_IO			-13

#endif
