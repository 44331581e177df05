/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Batched TLB shootdown unit: registers, codes and entry format.
 * GENERATED from hw/devices/ShootdownMap.scala by GenShootdownHeaders;
 * do not edit. Registers are 64-bit wide unless noted; access SUBMIT
 * and SUBMIT_ONE with one 64-bit load, because reading them submits.
 */
#ifndef TLB_SHOOTDOWN_REGS_H
#define TLB_SHOOTDOWN_REGS_H

/* clang-format off */

#define TLBSD_COMPATIBLE                   "tlb-shootdown,batched-v2"
#define TLBSD_VERSION                      2
#define TLBSD_DEFAULT_BASE                 0x4000000UL /* where the SoC configs put it */
#define TLBSD_WINDOW_SIZE                  0x10000
#define TLBSD_MAX_CHANNELS                 15
#define TLBSD_CHANNEL(hart)                (0x1000UL * (1 + (hart))) /* channel page offset */

/* Global registers (page 0, machine mode). */
#define TLBSD_INFO                         0x0     /* R: what this unit is */
#define TLBSD_CEILING                      0x8     /* RW: a request that would flush more pages than this runs as one full flush instead (a value above the most pages a request can name reads back as all ones); reset: the build's crossover */
#define TLBSD_CTR_REQUESTS                 0x10    /* R: requests completed */
#define TLBSD_CTR_ENTRIES                  0x18    /* R: list entries carried out (not those a fallback or an error replaced by a full flush) */
#define TLBSD_CTR_PAGES                    0x20    /* R: page flushes sent to the agents (one per page, whatever the number of targets) */
#define TLBSD_CTR_FALLBACKS                0x28    /* R: requests run as a full flush because of CEILING */
#define TLBSD_CTR_ERRORS                   0x30    /* R: requests refused at submission or completed with an error */
#define TLBSD_TIMEOUT                      0x38    /* RW: cycles a request waits for a target to take a command or acknowledge, then it gives up on that target (FAILED, ERR_TIMEOUT) and goes on without it; cycles a target given up on must then be idle before requests name it again; and cycles the list reader waits for an answer, then it gives the list up (ERR_LIST_TIMEOUT); 0 waits for ever; reset: the build's value */
#define TLBSD_CTR_TIMEOUTS                 0x40    /* R: targets given up on or left out as dead (one per target and request) */
#define TLBSD_CTR_FOREIGN                  0x48    /* R: channel writes and submits refused because another hart made them */
#define TLBSD_AGENT_CYCLES                 0x100   /* R: one register per hart, 8 bytes apart: cycles that hart's flush agent spent busy (flushing or draining) */
#define TLBSD_AGENT_CYCLES_HART(h)         (0x100 + 8 * (h))
#define TLBSD_INFO_VERSION_SHIFT           0
#define TLBSD_INFO_VERSION(v)              (((v) >> 0) & 0xffUL) /* interface version */
#define TLBSD_INFO_CHANNELS_SHIFT          8
#define TLBSD_INFO_CHANNELS(v)             (((v) >> 8) & 0xffUL) /* channels (harts) */
#define TLBSD_INFO_COUNTER_BITS_SHIFT      16
#define TLBSD_INFO_COUNTER_BITS(v)         (((v) >> 16) & 0xffUL) /* width of the counters in bits */
#define TLBSD_INFO_MAX_ENTRIES_SHIFT       32
#define TLBSD_INFO_MAX_ENTRIES(v)          (((v) >> 32) & 0xffffffffUL) /* most entries one request may carry */

/* Channel limits (page 0, offsets inside TLBSD_LIMIT(hart)). */
#define TLBSD_LIMIT(hart)                  (0x200 + 0x20 * (hart))
#define TLBSD_LIMIT_LIST_BASE              0x0     /* RW: lowest address a list of this channel may use; reset 0 (with LIST_LIMIT 0, no list fits) */
#define TLBSD_LIMIT_LIST_LIMIT             0x8     /* RW: a list of this channel must end at or below this address; reset 0 (closed); all ones: up to the end of DRAM */
#define TLBSD_LIMIT_ALLOWED                0x10    /* RW: harts this channel may target (bit h = hart h); reset 0 (closed) */

/* Channel registers (offsets inside TLBSD_CHANNEL(hart)). */
#define TLBSD_CH_TARGETS                   0x0     /* RW: hart mask of the next request (bit h = hart h); a mask naming an absent hart is stored, and reads back, as 0 */
#define TLBSD_CH_LIST                      0x8     /* RW: physical address of the next request's entry list (8-byte aligned, inside DRAM and the channel's LIST_BASE..LIST_LIMIT window); an address above the unit's width is stored, and reads back, as all ones with its low 3 bits kept */
#define TLBSD_CH_COUNT                     0x10    /* RW: entries in the list, 1 to INFO.max_entries; a larger value is stored, and reads back, as INFO.max_entries + 1 */
#define TLBSD_CH_SUBMIT                    0x18    /* R, read has an effect: a 64-bit read submits TARGETS/LIST/COUNT as one request; returns its ticket (never 0), 0 if the channel's queue is full (nothing was submitted: retry), or minus an error code (nothing was submitted); a narrower read submits nothing and answers -ERR_NARROW */
#define TLBSD_CH_STATUS                    0x20    /* R: progress of the channel's requests (requests of a channel complete in order) */
#define TLBSD_CH_ERROR                     0x28    /* RW, any write clears: last error on this channel */
#define TLBSD_CH_ACKED                     0x30    /* R: targets that have acknowledged the channel's oldest request in the unit, or the last one completed */
#define TLBSD_CH_IRQ_ENABLE                0x38    /* RW: 1: raise this channel's interrupt when the channel becomes IDLE */
#define TLBSD_CH_IRQ_PENDING               0x40    /* RW, write 1 to clear: 1: the channel became IDLE since last cleared */
#define TLBSD_CH_FAILED                    0x48    /* RW, write 1 to clear: targets this channel's requests gave up on (ERR_TIMEOUT) since software last cleared them: bits are only added until cleared */
#define TLBSD_CH_ENTRY                     0x50    /* RW: one list entry, for SUBMIT_ONE */
#define TLBSD_CH_SUBMIT_ONE                0x58    /* R, read has an effect: a 64-bit read submits TARGETS and ENTRY as a one-entry request (no list is read); answers as SUBMIT does (a narrower read submits nothing), and refuses a reserved ENTRY with ERR_BAD_ENTRY */
#define TLBSD_CH_ERRORS                    0x60    /* RW, write 1 to clear: sticky error summary: bit c is set when a submission on this channel was refused with code c or one of its requests completed with code c (ERR_FOREIGN and ERR_NARROW are not recorded; a request that gave up on a target sets ERR_TIMEOUT and its list's code, if it had one), and stays set until cleared; ERROR keeps only the last error */
#define TLBSD_STATUS_DONE_SHIFT            0
#define TLBSD_STATUS_DONE(v)               (((v) >> 0) & 0xffffffffUL) /* ticket of the last completed request */
#define TLBSD_STATUS_IDLE                  (1UL << 32) /* every request this channel submitted has completed */
#define TLBSD_STATUS_ERROR                 (1UL << 33) /* ERROR holds an error (a refused submission or a request that completed with one) */
#define TLBSD_ERROR_TICKET_SHIFT           0
#define TLBSD_ERROR_TICKET(v)              (((v) >> 0) & 0xffffffffUL) /* the request's ticket (0 if refused at submission) */
#define TLBSD_ERROR_CODE_SHIFT             32
#define TLBSD_ERROR_CODE(v)                (((v) >> 32) & 0xffUL) /* error code */
#define TLBSD_SUBMIT_BUSY                  0       /* queue full: nothing submitted, retry */

/* Error codes: SUBMIT returns -code, ERROR holds code. */
#define TLBSD_ERR_BAD_TARGETS              1       /* TARGETS is empty or names a hart the SoC does not have */
#define TLBSD_ERR_BAD_COUNT                2       /* COUNT is 0 or above INFO.max_entries */
#define TLBSD_ERR_BAD_ALIGN                3       /* LIST is not 8-byte aligned */
#define TLBSD_ERR_BAD_RANGE                4       /* the list does not lie entirely inside DRAM */
#define TLBSD_ERR_BAD_ENTRY                5       /* an entry uses a reserved encoding: the request ran as a full flush (SUBMIT_ONE: nothing was submitted) */
#define TLBSD_ERR_BUS                      6       /* reading the list returned a bus error; the request ran as a full flush */
#define TLBSD_ERR_TIMEOUT                  7       /* targets (FAILED) did not take a command or acknowledge within TIMEOUT cycles, or were left out at once because an earlier request gave up on them and their agents have not been idle for TIMEOUT cycles since; the request completed for the others */
#define TLBSD_ERR_DENIED                   8       /* TARGETS names a hart outside the channel's ALLOWED mask, or the list leaves its LIST_BASE..LIST_LIMIT window */
#define TLBSD_ERR_FOREIGN                  9       /* another hart read this channel's SUBMIT or SUBMIT_ONE (not recorded in ERROR) */
#define TLBSD_ERR_NARROW                   10      /* SUBMIT or SUBMIT_ONE was read with fewer than its 64 bits (a 32-bit read gets its half of the answer): nothing was submitted (not recorded in ERROR) */
#define TLBSD_ERR_LIST_TIMEOUT             11      /* a read of the list was not answered within TIMEOUT cycles: the request ran as one full flush; the unit uses that read's slot again only once its answer comes */

/* List entry: one 64-bit word, 8-byte aligned. */
#define TLBSD_ENTRY_BYTES                  8
#define TLBSD_ENTRY_KIND_SHIFT             0
#define TLBSD_ENTRY_SIZE_SHIFT             2
#define TLBSD_ENTRY_PAGES_SHIFT            4       /* pages - 1 */
#define TLBSD_ENTRY_NONLEAF                (1UL << 11) /* per-VA kinds: also drop cached non-leaf entries (page-table pages) on the way to these pages; ignored by the other kinds, which always do */
#define TLBSD_ENTRY_ASID_SHIFT             48
#define TLBSD_ENTRY_VA_MASK                0xfffffffff000UL /* VA[47:12], in place */
#define TLBSD_ENTRY_MAX_PAGES              128     /* per entry */
#define TLBSD_KIND_VA_ASID                 0       /* pages at VA in ASID; global mappings may be kept (sfence.vma va, asid) */
#define TLBSD_KIND_VA_ALL                  1       /* pages at VA in every ASID, global ones too (sfence.vma va, x0) */
#define TLBSD_KIND_ASID                    2       /* every non-global mapping of ASID (sfence.vma x0, asid) */
#define TLBSD_KIND_ALL                     3       /* every mapping (sfence.vma x0, x0) */
#define TLBSD_SIZE_4K                      0       /* 4 KiB pages */
#define TLBSD_SIZE_2M                      1       /* 2 MiB pages */
#define TLBSD_SIZE_1G                      2       /* 1 GiB pages */
#define TLBSD_ENTRY(kind, size, pages, va, asid) ((uint64_t)(kind) | (uint64_t)(size) << TLBSD_ENTRY_SIZE_SHIFT | \
	(uint64_t)((pages) - 1) << TLBSD_ENTRY_PAGES_SHIFT | ((uint64_t)(va) & TLBSD_ENTRY_VA_MASK) | \
	(uint64_t)(asid) << TLBSD_ENTRY_ASID_SHIFT)

/* clang-format on */

#endif
