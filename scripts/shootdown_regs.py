"""The shootdown unit's software interface, GENERATED from
hw/devices/ShootdownMap.scala by GenShootdownHeaders; do not edit."""
from collections import namedtuple

Field = namedtuple("Field", "lsb bits")
Reg = namedtuple("Reg", "name bits access semantics reset")


def get(value, field):
    return value >> field.lsb & ((1 << field.bits) - 1)


COMPATIBLE = "tlb-shootdown,batched-v2"
VERSION = 2
DEFAULT_BASE = 0x4000000
PAGE_BYTES = 0x1000
WINDOW_BYTES = 0x10000
MAX_CHANNELS = 15


def channel(hart):
    return PAGE_BYTES * (1 + hart)


def limit(hart):
    return 0x200 + 0x20 * hart


# Global registers (page 0)
INFO = 0  # R: what this unit is
INFO_VERSION = Field(0, 8)  # interface version
INFO_CHANNELS = Field(8, 8)  # channels (harts)
INFO_COUNTER_BITS = Field(16, 8)  # width of the counters in bits
INFO_MAX_ENTRIES = Field(32, 32)  # most entries one request may carry
CEILING = 8  # RW: a request that would flush more pages than this runs as one full flush instead (a value above the most pages a request can name reads back as all ones); reset: the build's crossover
CTR_REQUESTS = 16  # R: requests completed
CTR_ENTRIES = 24  # R: list entries carried out (not those a fallback or an error replaced by a full flush)
CTR_PAGES = 32  # R: page flushes sent to the agents (one per page, whatever the number of targets)
CTR_FALLBACKS = 40  # R: requests run as a full flush because of CEILING
CTR_ERRORS = 48  # R: requests refused at submission or completed with an error
TIMEOUT = 56  # RW: cycles a request waits for a target to take a command or acknowledge, then it gives up on that target (FAILED, ERR_TIMEOUT) and goes on without it; cycles a target given up on must then be idle before requests name it again; and cycles the list reader waits for an answer, then it gives the list up (ERR_LIST_TIMEOUT); 0 waits for ever; reset: the build's value
CTR_TIMEOUTS = 64  # R: targets given up on or left out as dead (one per target and request)
CTR_FOREIGN = 72  # R: channel writes and submits refused because another hart made them
AGENT_CYCLES = 0x100  # R: one register per hart, 8 bytes apart: cycles that hart's flush agent spent busy (flushing or draining)
# Channel limits (page 0, inside limit(hart))
LIMIT_LIST_BASE = 0  # RW: lowest address a list of this channel may use; reset 0 (with LIST_LIMIT 0, no list fits)
LIMIT_LIST_LIMIT = 8  # RW: a list of this channel must end at or below this address; reset 0 (closed); all ones: up to the end of DRAM
LIMIT_ALLOWED = 16  # RW: harts this channel may target (bit h = hart h); reset 0 (closed)
# Channel registers (inside channel(hart))
CH_TARGETS = 0  # RW: hart mask of the next request (bit h = hart h); a mask naming an absent hart is stored, and reads back, as 0
CH_LIST = 8  # RW: physical address of the next request's entry list (8-byte aligned, inside DRAM and the channel's LIST_BASE..LIST_LIMIT window); an address above the unit's width is stored, and reads back, as all ones with its low 3 bits kept
CH_COUNT = 16  # RW: entries in the list, 1 to INFO.max_entries; a larger value is stored, and reads back, as INFO.max_entries + 1
CH_SUBMIT = 24  # R, read has an effect: a 64-bit read submits TARGETS/LIST/COUNT as one request; returns its ticket (never 0), 0 if the channel's queue is full (nothing was submitted: retry), or minus an error code (nothing was submitted); a narrower read submits nothing and answers -ERR_NARROW
CH_STATUS = 32  # R: progress of the channel's requests (requests of a channel complete in order)
CH_STATUS_DONE = Field(0, 32)  # ticket of the last completed request
CH_STATUS_IDLE = Field(32, 1)  # every request this channel submitted has completed
CH_STATUS_ERROR = Field(33, 1)  # ERROR holds an error (a refused submission or a request that completed with one)
CH_ERROR = 40  # RW, any write clears: last error on this channel
CH_ERROR_TICKET = Field(0, 32)  # the request's ticket (0 if refused at submission)
CH_ERROR_CODE = Field(32, 8)  # error code
CH_ACKED = 48  # R: targets that have acknowledged the channel's oldest request in the unit, or the last one completed
CH_IRQ_ENABLE = 56  # RW: 1: raise this channel's interrupt when the channel becomes IDLE
CH_IRQ_PENDING = 64  # RW, write 1 to clear: 1: the channel became IDLE since last cleared
CH_FAILED = 72  # RW, write 1 to clear: targets this channel's requests gave up on (ERR_TIMEOUT) since software last cleared them: bits are only added until cleared
CH_ENTRY = 80  # RW: one list entry, for SUBMIT_ONE
CH_SUBMIT_ONE = 88  # R, read has an effect: a 64-bit read submits TARGETS and ENTRY as a one-entry request (no list is read); answers as SUBMIT does (a narrower read submits nothing), and refuses a reserved ENTRY with ERR_BAD_ENTRY
CH_ERRORS = 96  # RW, write 1 to clear: sticky error summary: bit c is set when a submission on this channel was refused with code c or one of its requests completed with code c (ERR_FOREIGN and ERR_NARROW are not recorded; a request that gave up on a target sets ERR_TIMEOUT and its list's code, if it had one), and stays set until cleared; ERROR keeps only the last error
SUBMIT_BUSY = 0  # SUBMIT's answer when the queue is full
# Error codes: SUBMIT returns -code, ERROR.CODE holds code
ERR_BAD_TARGETS = 1  # TARGETS is empty or names a hart the SoC does not have
ERR_BAD_COUNT = 2  # COUNT is 0 or above INFO.max_entries
ERR_BAD_ALIGN = 3  # LIST is not 8-byte aligned
ERR_BAD_RANGE = 4  # the list does not lie entirely inside DRAM
ERR_BAD_ENTRY = 5  # an entry uses a reserved encoding: the request ran as a full flush (SUBMIT_ONE: nothing was submitted)
ERR_BUS = 6  # reading the list returned a bus error; the request ran as a full flush
ERR_TIMEOUT = 7  # targets (FAILED) did not take a command or acknowledge within TIMEOUT cycles, or were left out at once because an earlier request gave up on them and their agents have not been idle for TIMEOUT cycles since; the request completed for the others
ERR_DENIED = 8  # TARGETS names a hart outside the channel's ALLOWED mask, or the list leaves its LIST_BASE..LIST_LIMIT window
ERR_FOREIGN = 9  # another hart read this channel's SUBMIT or SUBMIT_ONE (not recorded in ERROR)
ERR_NARROW = 10  # SUBMIT or SUBMIT_ONE was read with fewer than its 64 bits (a 32-bit read gets its half of the answer): nothing was submitted (not recorded in ERROR)
ERR_LIST_TIMEOUT = 11  # a read of the list was not answered within TIMEOUT cycles: the request ran as one full flush; the unit uses that read's slot again only once its answer comes
# List entries
ENTRY_BYTES = 8
ENTRY_ASID = Field(48, 16)  # ASID
ENTRY_VA = Field(12, 36)  # VA[47:12], in place
ENTRY_NONLEAF = Field(11, 1)  # per-VA kinds: also drop cached non-leaf entries (page-table pages) on the way to these pages; ignored by the other kinds, which always do
ENTRY_PAGES = Field(4, 7)  # pages - 1 (1 to 128 pages of SIZE, from VA up)
ENTRY_SIZE = Field(2, 2)  # SIZE
ENTRY_KIND = Field(0, 2)  # KIND
ENTRY_MAX_PAGES = 128
KIND_VA_ASID = 0  # pages at VA in ASID; global mappings may be kept (sfence.vma va, asid)
KIND_VA_ALL = 1  # pages at VA in every ASID, global ones too (sfence.vma va, x0)
KIND_ASID = 2  # every non-global mapping of ASID (sfence.vma x0, asid)
KIND_ALL = 3  # every mapping (sfence.vma x0, x0)
SIZE_4K = 0  # 4 KiB pages
SIZE_2M = 1  # 2 MiB pages
SIZE_1G = 2  # 1 GiB pages
SIZE_LOG2 = (12, 21, 30)

GLOBAL_REGS = {
    INFO: Reg("INFO", 64, "R", "", None),
    CEILING: Reg("CEILING", 32, "RW", "", None),
    CTR_REQUESTS: Reg("CTR_REQUESTS", 64, "R", "", 0),
    CTR_ENTRIES: Reg("CTR_ENTRIES", 64, "R", "", 0),
    CTR_PAGES: Reg("CTR_PAGES", 64, "R", "", 0),
    CTR_FALLBACKS: Reg("CTR_FALLBACKS", 64, "R", "", 0),
    CTR_ERRORS: Reg("CTR_ERRORS", 64, "R", "", 0),
    TIMEOUT: Reg("TIMEOUT", 32, "RW", "", None),
    CTR_TIMEOUTS: Reg("CTR_TIMEOUTS", 64, "R", "", 0),
    CTR_FOREIGN: Reg("CTR_FOREIGN", 64, "R", "", 0),
    AGENT_CYCLES: Reg("AGENT_CYCLES", 64, "R", "", 0),
}
LIMIT_REGS = {
    LIMIT_LIST_BASE: Reg("LIST_BASE", 64, "RW", "", 0),
    LIMIT_LIST_LIMIT: Reg("LIST_LIMIT", 64, "RW", "", 0),
    LIMIT_ALLOWED: Reg("ALLOWED", 64, "RW", "", 0),
}
CHANNEL_REGS = {
    CH_TARGETS: Reg("TARGETS", 64, "RW", "", 0),
    CH_LIST: Reg("LIST", 64, "RW", "", 0),
    CH_COUNT: Reg("COUNT", 32, "RW", "", 0),
    CH_SUBMIT: Reg("SUBMIT", 64, "R", "read has an effect", 0),
    CH_STATUS: Reg("STATUS", 64, "R", "", 0),
    CH_ERROR: Reg("ERROR", 64, "RW", "any write clears", 0),
    CH_ACKED: Reg("ACKED", 64, "R", "", 0),
    CH_IRQ_ENABLE: Reg("IRQ_ENABLE", 1, "RW", "", 0),
    CH_IRQ_PENDING: Reg("IRQ_PENDING", 1, "RW", "write 1 to clear", 0),
    CH_FAILED: Reg("FAILED", 64, "RW", "write 1 to clear", 0),
    CH_ENTRY: Reg("ENTRY", 64, "RW", "", 0),
    CH_SUBMIT_ONE: Reg("SUBMIT_ONE", 64, "R", "read has an effect", 0),
    CH_ERRORS: Reg("ERRORS", 16, "RW", "write 1 to clear", 0),
}

# Debug knobs (hw/testing/Mutants.scala, `sim +mutant=NAME`): each of
# MUTANTS breaks the rule it names, so a check must catch it; AIDS break none.
MUTANTS = {
    "ack-before-drain": "agents acknowledge when the request's end arrives, before flushing and draining (rules 1, 2)",
    "ack-before-ordered": "agents acknowledge after holding the core two cycles, without waiting for the D$ to drain (rule 2)",
    "drop-last-entry": "the unit ignores the last entry of a list with more than one (rule 1)",
    "itlb-unconnected": "the agent's ITLB flush is not connected (rule 1, instruction fetches)",
    "lose-local-sfence": "the agent takes the ITLB and page walker inputs in the cycle the hart's own sfence.vma needs them (rule 7)",
    "no-refill-guard": "the tile no longer turns a non-global flush into a full one when a refill lands in its cycle (rule 1)",
    "ptw-flush-late": "the agent flushes the page walker four cycles after the DTLB (rule 1: a walk in between is answered from the L2 TLB)",
    "skip-nonleaf": "the page walker sees ASID and full flushes as flushes of one VA, so its cache of non-leaf entries survives (rule 1)",
    "skip-ptw-flush": "the agent never flushes the page walker (L2 TLB, PTE cache) (rule 1)",
    "superpage-4k-stride": "the unit steps through 2 MiB and 1 GiB entries in 4 KiB pages (rules 1, 5)",
    "sync-one-early": "STATUS.IDLE turns on when the channel's last posted request starts, not when it completes (post, then sync)",
}
AIDS = {
    "tickets-near-wrap": "every channel's ticket counter starts 16 below 2^32, so that a run crosses the wrap",
}
