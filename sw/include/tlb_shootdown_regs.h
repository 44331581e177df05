/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Batched TLB shootdown unit: registers, codes and entry format.
 * GENERATED from hw/devices/ShootdownMap.scala by GenShootdownHeaders;
 * do not edit. Registers are 64-bit wide unless noted; access SUBMIT
 * with one 64-bit load, because reading it submits a request.
 */
#ifndef TLB_SHOOTDOWN_REGS_H
#define TLB_SHOOTDOWN_REGS_H

/* clang-format off */

#define TLBSD_COMPATIBLE                   "tlb-shootdown,batched-v1"
#define TLBSD_VERSION                      1
#define TLBSD_DEFAULT_BASE                 0x4000000UL /* where the SoC configs put it */
#define TLBSD_WINDOW_SIZE                  0x10000
#define TLBSD_MAX_CHANNELS                 15
#define TLBSD_CHANNEL(hart)                (0x1000UL * (1 + (hart))) /* channel page offset */

/* Global registers (page 0). */
#define TLBSD_INFO                         0x0     /* R: [7:0] interface version, [15:8] channels (harts), [23:16] width of the counters in bits, [63:32] most entries one request may carry */
#define TLBSD_CEILING                      0x8     /* RW: a request that would flush more pages than this runs as one full flush instead (a value above the most pages a request can name reads back as all ones) */
#define TLBSD_CTR_REQUESTS                 0x10    /* R: requests completed */
#define TLBSD_CTR_ENTRIES                  0x18    /* R: list entries carried out (not those a fallback or an error replaced by a full flush) */
#define TLBSD_CTR_PAGES                    0x20    /* R: page flushes sent to the agents (one per page, whatever the number of targets) */
#define TLBSD_CTR_FALLBACKS                0x28    /* R: requests turned into a full flush by CEILING */
#define TLBSD_CTR_ERRORS                   0x30    /* R: requests refused at submission or completed with an error */
#define TLBSD_AGENT_CYCLES                 0x100   /* R: one register per hart, 8 bytes apart: cycles that hart's flush agent spent busy (flushing or draining) */
#define TLBSD_AGENT_CYCLES_HART(h)         (0x100 + 8 * (h))
#define TLBSD_INFO_CHANNELS(info)          (((info) >> 8) & 0xff)
#define TLBSD_INFO_COUNTER_BITS(info)      (((info) >> 16) & 0xff)
#define TLBSD_INFO_MAX_ENTRIES(info)       ((info) >> 32)

/* Channel registers (offsets inside TLBSD_CHANNEL(hart)). */
#define TLBSD_CH_TARGETS                   0x0     /* RW: hart mask of the next request (bit h = hart h); a mask naming an absent hart is stored, and reads back, as 0 */
#define TLBSD_CH_LIST                      0x8     /* RW: physical address of the next request's entry list (8-byte aligned, inside DRAM); an address above the unit's width is stored, and reads back, as all ones with its low 3 bits kept */
#define TLBSD_CH_COUNT                     0x10    /* RW: entries in the list, 1 to INFO.max_entries; a larger value is stored, and reads back, as INFO.max_entries + 1 */
#define TLBSD_CH_SUBMIT                    0x18    /* R: a 64-bit read submits TARGETS/LIST/COUNT as one request; returns its ticket (> 0), 0 if the channel's queue is full (nothing was submitted: retry), or minus an error code (nothing was submitted) */
#define TLBSD_CH_STATUS                    0x20    /* R: [31:0] ticket of the last completed request (requests of a channel complete in order), [32] IDLE: every request this channel submitted has completed */
#define TLBSD_CH_ERROR                     0x28    /* RW: last error on this channel: [31:0] ticket (0 if refused at submission), [39:32] error code; any write clears it */
#define TLBSD_CH_ACKED                     0x30    /* R: targets that have acknowledged the request in progress, or the last one completed */
#define TLBSD_CH_IRQ_ENABLE                0x38    /* RW: 1: raise this channel's interrupt when the channel becomes IDLE */
#define TLBSD_CH_IRQ_PENDING               0x40    /* RW: 1: the channel became IDLE since last cleared; write 1 to clear */
#define TLBSD_STATUS_DONE(s)               ((uint32_t)(s)) /* ticket of the last completed request */
#define TLBSD_STATUS_IDLE                  (1UL << 32) /* all submitted requests completed */
#define TLBSD_ERROR_TICKET(e)              ((uint32_t)(e))
#define TLBSD_ERROR_CODE(e)                (((e) >> 32) & 0xff)
#define TLBSD_SUBMIT_BUSY                  0       /* queue full: nothing submitted, retry */

/* Error codes: SUBMIT returns -code, ERROR holds code. */
#define TLBSD_ERR_BAD_TARGETS              1       /* TARGETS is empty or names a hart the SoC does not have */
#define TLBSD_ERR_BAD_COUNT                2       /* COUNT is 0 or above INFO.max_entries */
#define TLBSD_ERR_BAD_ALIGN                3       /* LIST is not 8-byte aligned */
#define TLBSD_ERR_BAD_RANGE                4       /* the list does not lie entirely inside DRAM */
#define TLBSD_ERR_BAD_ENTRY                5       /* an entry uses a reserved encoding; the request ran as a full flush */
#define TLBSD_ERR_BUS                      6       /* reading the list returned a bus error; the request ran as a full flush */

/* List entry: one 64-bit word, 8-byte aligned. */
#define TLBSD_ENTRY_BYTES                  8
#define TLBSD_ENTRY_KIND_SHIFT             0
#define TLBSD_ENTRY_SIZE_SHIFT             2
#define TLBSD_ENTRY_PAGES_SHIFT            4       /* pages - 1 */
#define TLBSD_ENTRY_ASID_SHIFT             48
#define TLBSD_ENTRY_VA_MASK                0xfffffffff000UL /* VA[47:12], in place */
#define TLBSD_ENTRY_MAX_PAGES              256     /* per entry */
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
