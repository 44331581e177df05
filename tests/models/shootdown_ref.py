"""Reference model of the batched shootdown unit and its flush agents, in plain
Python, written from docs/shootdown-unit.md and the generated register map
(not from the RTL). The cocotb benches check the RTL against it.

The unit model is transaction-level: it says what a SUBMIT may answer, what
commands a request is documented to broadcast, and how STATUS, ERROR and the
counters must look after each completion. Where the RTL's timing
legitimately decides (a queue that is full or not yet drained, list blocks
answered out of order), it returns every legal outcome instead of one.

Whether a request's commands were enough is judged separately, on
translation state (judge_translations): each target starts with cached
translations in and around what the request names, the commands it received
are applied to them as sfence.vma would, and none that the request covers
(docs/semantics.md rules 1, 5, 6) may remain. Flushing more is allowed
(rule 4); the documented expansion is a precision check on top.
"""
import random
from collections import Counter, deque
from dataclasses import dataclass, field

# Entry format, codes and offsets: the module generated from the unit's
# register map (docs/shootdown-registers.md).
import shootdown_regs as regs
from shootdown_regs import (KIND_VA_ASID, KIND_VA_ALL, KIND_ASID, KIND_ALL, ERR_BAD_TARGETS, ERR_BAD_COUNT,
                            ERR_BAD_ALIGN, ERR_BAD_RANGE, ERR_BAD_ENTRY, ERR_BUS, ERR_TIMEOUT, ERR_DENIED,
                            ERR_FOREIGN, ERR_NARROW, ENTRY_BYTES, CH_ERRORS, CH_TARGETS, CH_LIST, CH_COUNT, CH_SUBMIT, CH_STATUS,
                            CH_ERROR, CH_ACKED, CH_IRQ_ENABLE, CH_IRQ_PENDING, CH_FAILED, CH_ENTRY,
                            CH_SUBMIT_ONE, channel, limit)

SIZE_LOG2 = dict(enumerate(regs.SIZE_LOG2))
VPN_BITS = regs.ENTRY_VA.bits
VPN_MASK = (1 << VPN_BITS) - 1
G_INFO, G_CEILING, G_REQUESTS, G_ENTRIES, G_PAGES, G_FALLBACKS, G_ERRORS, G_TIMEOUT, G_TIMEOUTS, G_FOREIGN = (
    regs.INFO, regs.CEILING, regs.CTR_REQUESTS, regs.CTR_ENTRIES, regs.CTR_PAGES, regs.CTR_FALLBACKS,
    regs.CTR_ERRORS, regs.TIMEOUT, regs.CTR_TIMEOUTS, regs.CTR_FOREIGN)
TICKET_MASK = (1 << regs.CH_STATUS_DONE.bits) - 1
channel_base = channel


def next_ticket(t):
    """Tickets count 1 .. 2^32 - 1 and never 0 (SUBMIT's "queue full")."""
    return 1 if t == TICKET_MASK else t + 1


@dataclass(frozen=True)
class Entry:
    kind: int
    size: int
    pages: int          # 1..ENTRY_MAX_PAGES
    va: int             # VA[47:12] in place
    asid: int
    nonleaf: bool = False

    def encode(self):
        f = regs.ENTRY_VA
        va_mask = ((1 << f.bits) - 1) << f.lsb
        return (self.kind << regs.ENTRY_KIND.lsb | self.size << regs.ENTRY_SIZE.lsb
                | (self.pages - 1) << regs.ENTRY_PAGES.lsb | int(self.nonleaf) << regs.ENTRY_NONLEAF.lsb
                | (self.va & va_mask) | self.asid << regs.ENTRY_ASID.lsb)

    @staticmethod
    def decode(word):
        g = regs.get
        return Entry(kind=g(word, regs.ENTRY_KIND), size=g(word, regs.ENTRY_SIZE),
                     pages=g(word, regs.ENTRY_PAGES) + 1, va=g(word, regs.ENTRY_VA) << regs.ENTRY_VA.lsb,
                     asid=g(word, regs.ENTRY_ASID), nonleaf=bool(g(word, regs.ENTRY_NONLEAF)))

    @property
    def per_va(self):
        return self.kind in (KIND_VA_ASID, KIND_VA_ALL)

    @property
    def reserved(self):
        """A reserved encoding: a per-VA kind with SIZE 3."""
        return self.per_va and self.size not in SIZE_LOG2


@dataclass(frozen=True)
class Cmd:
    """One command as an agent receives it, in canonical form: fields a kind
    does not use are None (the RTL may send anything there)."""
    end: bool
    kind: int = KIND_ALL
    vpn: int = None
    asid: int = None
    nonleaf: bool = None

    @staticmethod
    def of(end, kind, vpn, asid, nonleaf=False):
        if end:
            # An END's kind and ASID scope the agents' ITLB flush (end_cmd).
            return Cmd(True, kind, None, asid if kind == KIND_ASID else None)
        per_va = kind in (KIND_VA_ASID, KIND_VA_ALL)
        return Cmd(False, kind,
                   vpn if per_va else None,
                   asid if kind in (KIND_VA_ASID, KIND_ASID) else None,
                   bool(nonleaf) if per_va else None)


FULL = Cmd(False, KIND_ALL, None, None)


def end_cmd(cmds):
    """The END that must follow a request's commands `cmds`: it scopes the
    agents' ITLB flush to the request's ASID when every command named that
    one ASID (no global mapping, no other ASID), else to everything."""
    asids = {c.asid for c in cmds}
    if cmds and len(asids) == 1 and all(c.kind in (KIND_VA_ASID, KIND_ASID) for c in cmds):
        return Cmd(True, KIND_ASID, None, asids.pop())
    return Cmd(True, KIND_ALL, None, None)


def entry_cmds(e):
    """The commands one well-formed entry expands into."""
    if e.kind in (KIND_VA_ASID, KIND_VA_ALL):
        shift = SIZE_LOG2[e.size] - 12
        vpn = e.va >> 12
        return [Cmd.of(False, e.kind, (vpn + (i << shift)) & VPN_MASK, e.asid, e.nonleaf)
                for i in range(e.pages)]
    return [Cmd.of(False, e.kind, e.va >> 12, e.asid)]


# ---------------------------------------------------------------- translations

@dataclass(frozen=True)
class Translation:
    """A translation a hart may cache: `level` 0 maps a 4 KiB page, 1 a
    2 MiB page, 2 a 1 GiB page, from VPN `vpn` (aligned to its size)."""
    vpn: int
    level: int
    asid: int
    glob: bool

    @property
    def pages(self):
        return 1 << (9 * self.level)

    def contains(self, vpn):
        return self.vpn <= vpn < self.vpn + self.pages


def entry_span(e):
    """The 4 KiB pages a per-VA entry spans: (first VPN, count)."""
    return e.va >> 12, e.pages << (SIZE_LOG2[e.size] - 12)


def named_vpns(e):
    """The pages a per-VA entry names: its first VPN and one per page of its
    size after it (a 2 MiB entry names 2 MiB pages, by their first VPN)."""
    stride = 1 << (SIZE_LOG2[e.size] - 12)
    return [((e.va >> 12) + i * stride) & VPN_MASK for i in range(e.pages)]


def covers(e, t):
    """Entry e covers translation t (docs/semantics.md): a per-VA entry every
    translation that maps one of the pages it names, whatever that
    translation's size (rule 5), an ASID-scoped one only non-global
    translations of its ASID (rule 6)."""
    if e.kind in (KIND_VA_ASID, KIND_ASID) and (t.glob or t.asid != e.asid):
        return False
    if e.kind in (KIND_VA_ASID, KIND_VA_ALL):
        return any(t.contains(v) for v in named_vpns(e))
    return True


def drops(c, t):
    """An agent command drops t as sfence.vma with its operands would: rs1
    (a VA) drops what maps that page, rs2 (an ASID) only non-global
    translations of that ASID."""
    if c.kind in (KIND_VA_ASID, KIND_ASID) and (t.glob or t.asid != c.asid):
        return False
    if c.kind in (KIND_VA_ASID, KIND_VA_ALL):
        return t.contains(c.vpn)
    return True


def cached_translations(entries, rng=random, n_random=8):
    """Translations a target might hold when a request with these entries
    arrives: at and just beyond each per-VA entry's first and last page, the
    superpages around them, in its ASID and another, global and not; the
    same for ASID entries; and a few anywhere."""
    out = set()
    asids = {e.asid for e in entries} | {rng.getrandbits(16)}
    for e in rng.sample(entries, min(len(entries), 16)):   # a long list: some of its entries
        if e.kind in (KIND_VA_ASID, KIND_VA_ALL) and e.size in SIZE_LOG2:
            first, n = entry_span(e)
            for vpn in (first - 1, first, first + rng.randrange(n), first + n - 1, first + n):
                vpn &= VPN_MASK
                for level in (0, 1, 2):
                    base = vpn & ~((1 << (9 * level)) - 1)
                    for asid in (e.asid, rng.choice(sorted(asids))):
                        out.add(Translation(base, level, asid, rng.random() < 0.25))
    for _ in range(n_random):
        level = rng.choice((0, 0, 1, 2))
        vpn = rng.getrandbits(VPN_BITS) & ~((1 << (9 * level)) - 1)
        out.add(Translation(vpn, level, rng.choice(sorted(asids)), rng.random() < 0.25))
    return sorted(out, key=lambda t: (t.vpn, t.level, t.asid, t.glob))


def judge_translations(entries, cmds, translations):
    """None if `cmds` (one target's commands) leave no translation that
    `entries` cover, else the first one left."""
    for t in translations:
        if any(covers(e, t) for e in entries) and not any(drops(c, t) for c in cmds):
            e = next(e for e in entries if covers(e, t))
            return f"{t} survives the commands, and {e} covers it"
    return None


def promised_entries(entries, outcome):
    """What a completed request promises to have flushed: its entries, or
    everything when it ran as a full flush because of an error."""
    if outcome.error:
        return [Entry(KIND_ALL, 0, 1, 0, 0)]
    return [e for e in entries if not e.reserved]


@dataclass
class Outcome:
    """What a request must look like to its targets."""
    exact: list = None          # the command sequence, if fixed
    pages_before_full: set = None  # else: allowed multisets of commands before one final FULL
    error: int = 0
    fallback: bool = False
    entries_done: range = range(0, 1)


def expected_outcome(entries, ceiling, bus_error=False):
    """Commands (without the END) a request with these list entries must
    broadcast, and how it ends. The answer depends only on COUNT, CEILING and
    the list (docs/shootdown-unit.md, "Errors"): a list longer than CEILING
    is not read and runs as one full flush; else a bus error, then a reserved
    entry anywhere in the list, make it a full flush that ends with an
    error; else more pages than CEILING make it a full flush after exactly
    CEILING pages. Blocks of the list may be answered in any order, so apart
    from the fixed cases the check is on multisets."""
    count = len(entries)
    if count > ceiling:
        return Outcome(exact=[FULL], fallback=True, entries_done=range(0, 1))
    good = [e for e in entries if not e.reserved]
    full = [c for e in good for c in entry_cmds(e)]
    pages = sum(1 for c in full if c.kind in (KIND_VA_ASID, KIND_VA_ALL))
    bad = len(good) != count
    if not bad and not bus_error and pages <= ceiling:
        return Outcome(exact=full, entries_done=range(count, count + 1))
    # Any of these may have been executed before the full flush replaced
    # the rest: the pages of well-formed entries, at most `ceiling` per-VA.
    if bad or bus_error:
        err = ERR_BUS if bus_error else ERR_BAD_ENTRY
        return Outcome(pages_before_full=Counter(full), error=err, entries_done=range(0, count + 1))
    return Outcome(pages_before_full=Counter(full), fallback=True, entries_done=range(0, count + 1))


def _short(cmds, n=4):
    return f"{len(cmds)} commands [{', '.join(map(str, cmds[:n]))}{', ...' if len(cmds) > n else ''}]"


def check_stream(outcome, cmds, ceiling):
    """None if `cmds` (a request's commands, END excluded) is legal, else why not."""
    if outcome.exact is not None:
        if outcome.error == 0 and not outcome.fallback:
            if Counter(cmds) != Counter(outcome.exact):
                extra, missing = Counter(cmds) - Counter(outcome.exact), Counter(outcome.exact) - Counter(cmds)
                return (f"{_short(cmds)} are not the expansion ({_short(list(extra.elements()))} extra, "
                        f"{_short(list(missing.elements()))} missing)")
            return None
        return None if cmds == outcome.exact else f"{_short(cmds)}, want {_short(outcome.exact)}"
    if not cmds or cmds[-1] != FULL:
        return f"a request that falls back must end with one full flush, got {_short(cmds[-3:])}"
    before = Counter(cmds[:-1])
    if before - outcome.pages_before_full:
        return f"{_short(list((before - outcome.pages_before_full).elements()))} are not in the list"
    per_va = sum(n for c, n in before.items() if c.kind in (KIND_VA_ASID, KIND_VA_ALL))
    if per_va > ceiling:
        return f"{per_va} per-VA commands before the full flush, above the ceiling {ceiling}"
    if outcome.fallback and outcome.error == 0 and per_va != ceiling:
        return f"a request over the ceiling must flush exactly {ceiling} pages first, not {per_va}"
    return None


@dataclass
class Request:
    chan: int
    ticket: int
    targets: int
    list_addr: int
    count: int
    entries: list = field(default_factory=list)


def open_limits(mem_base):
    """What firmware writes to a channel's limits to open it (the unit resets
    closed): lists anywhere in DRAM (LIST_LIMIT all ones: up to its end),
    every hart a target. [(limit register offset, value)]."""
    return [(regs.LIMIT_ALLOWED, (1 << 64) - 1), (regs.LIMIT_LIST_BASE, mem_base),
            (regs.LIMIT_LIST_LIMIT, (1 << 64) - 1)]


class UnitModel:
    def __init__(self, harts, max_entries, queue_depth, ceiling, mem_base, mem_size, first_ticket=0, waiting=2):
        self.harts, self.max_entries, self.queue_depth, self.waiting = harts, max_entries, queue_depth, waiting
        self.ceiling, self.mem_base, self.mem_size = ceiling, mem_base, mem_size
        self.regs = [{CH_TARGETS: 0, CH_LIST: 0, CH_COUNT: 0, CH_ENTRY: 0} for _ in range(harts)]
        # Per-channel limits on page 0: closed at reset (no list fits, no
        # hart may be targeted) until firmware opens them.
        self.limits = [{regs.LIMIT_LIST_BASE: 0, regs.LIMIT_LIST_LIMIT: 0, regs.LIMIT_ALLOWED: 0}
                       for _ in range(harts)]
        self.posted = [first_ticket] * harts
        self.done = [first_ticket] * harts
        self.err_word = [0] * harts
        self.failed = [0] * harts       # sticky until written 1s clear it
        self.errors = [0] * harts       # ERRORS: sticky, bit c = code c seen
        self.pending = [deque() for _ in range(harts)]   # submitted, not completed
        self.counters = Counter()
        self.entries_lo = self.entries_hi = 0

    def write(self, chan, off, value):
        """A 64-bit register write by the channel's own hart (COUNT is a
        32-bit register: the upper half of the write is not part of it)."""
        self.regs[chan][off] = value & 0xFFFF_FFFF if off == CH_COUNT else value

    def foreign(self):
        """Another hart wrote to or submitted on a channel: only counted."""
        self.counters["foreign"] += 1

    def _addr_bits(self):
        return (self.mem_base + self.mem_size - 1).bit_length() + 1

    def _clamp_addr(self, v):
        addr_bits = self._addr_bits()
        if v >> addr_bits:
            return ((1 << addr_bits) - 1) & ~(ENTRY_BYTES - 1) | v & (ENTRY_BYTES - 1)
        return v

    def open(self):
        """Every channel opened as firmware opens it (open_limits). Returns
        the model."""
        for c in range(self.harts):
            for off, value in open_limits(self.mem_base):
                self.write_limit(c, off, value)
        return self

    def write_limit(self, chan, off, value):
        if off == regs.LIMIT_ALLOWED:
            value &= (1 << self.harts) - 1
        else:
            value = self._clamp_addr(value)
        self.limits[chan][off] = value

    def readback(self, chan, off):
        """What the register reads back to the channel's own hart (anyone
        else reads 0): the unit keeps each one only as wide
        as it must (docs/shootdown-registers.md). Out-of-range values are
        stored in a form that fails the same check."""
        v = self.regs[chan][off]
        if off == CH_TARGETS:
            return 0 if v >> self.harts else v
        if off == CH_COUNT:
            return min(v, self.max_entries + 1)
        if off == CH_ENTRY:
            return v
        return self._clamp_addr(v)

    def _targets_code(self, chan):
        targets = self.readback(chan, CH_TARGETS)
        if targets == 0:
            return ERR_BAD_TARGETS
        if targets & ~self.limits[chan][regs.LIMIT_ALLOWED]:
            return ERR_DENIED
        return 0

    def validate(self, chan, inline=False):
        code = self._targets_code(chan)
        if code or inline:
            return code or (ERR_BAD_ENTRY if Entry.decode(self.regs[chan][CH_ENTRY]).reserved else 0)
        lst, count = self.readback(chan, CH_LIST), self.readback(chan, CH_COUNT)
        if count == 0 or count > self.max_entries:
            return ERR_BAD_COUNT
        if lst % ENTRY_BYTES:
            return ERR_BAD_ALIGN
        end = lst + ENTRY_BYTES * count
        if lst < self.mem_base or end > self.mem_base + self.mem_size:
            return ERR_BAD_RANGE
        lim = self.limits[chan]
        if lst < lim[regs.LIMIT_LIST_BASE] or end > lim[regs.LIMIT_LIST_LIMIT]:
            return ERR_DENIED
        return 0

    def submit_answers(self, chan, inline=False):
        """Every answer SUBMIT (or SUBMIT_ONE) may legally give now."""
        code = self.validate(chan, inline)
        if code:
            return {(1 << 64) - code}
        out = len(self.pending[chan])
        answers = set()
        # Beyond its queue, a channel's requests may already be in the
        # engine: one whose list is being read, one being sent, and up to
        # `waiting` waiting for acknowledgements.
        if out < self.queue_depth + 2 + self.waiting:
            answers.add(next_ticket(self.posted[chan]))
        if out >= self.queue_depth:
            answers.add(0)
        return answers

    def submitted(self, chan, answer, entries, inline=False):
        """Record the answer the RTL gave (one of submit_answers)."""
        if answer >> 63:
            code = (1 << 64) - answer
            self.err_word[chan] = code << 32
            self.errors[chan] |= 1 << code
            self.counters["errors"] += 1
            return None
        if answer == 0:
            return None
        r = self.regs[chan]
        self.posted[chan] = answer
        req = Request(chan, answer, r[CH_TARGETS], None if inline else r[CH_LIST], 1 if inline else r[CH_COUNT],
                      entries)
        self.pending[chan].append(req)
        return req

    def heads(self):
        return [q[0] for q in self.pending if q]

    def completed(self, req, outcome, cmds, failed=0):
        """The RTL completed `req` (the head of its channel) having broadcast
        `cmds` (already judged by the caller), giving up on the targets in
        `failed`; returns None or what is wrong."""
        q = self.pending[req.chan]
        if not q or q[0] is not req:
            return f"channel {req.chan} completed ticket {req.ticket} out of order"
        q.popleft()
        self.done[req.chan] = req.ticket
        error = ERR_TIMEOUT if failed else outcome.error
        if error:
            self.err_word[req.chan] = error << 32 | req.ticket
            # ERROR.CODE holds one code; ERRORS gets the list's too, which
            # a timeout hides there
            self.errors[req.chan] |= 1 << error | (1 << outcome.error if outcome.error else 0)
            self.counters["errors"] += 1
        if failed:
            self.failed[req.chan] |= failed
            self.counters["timeouts"] += bin(failed).count("1")
        self.counters["requests"] += 1
        self.counters["pages"] += len(cmds)
        self.counters["fallbacks"] += int(outcome.fallback and not error)
        self.entries_lo += outcome.entries_done.start
        self.entries_hi += outcome.entries_done.stop - 1
        return None

    def status(self, chan):
        idle = self.posted[chan] == self.done[chan]
        return self.done[chan] | int(idle) << regs.CH_STATUS_IDLE.lsb | int(self.err_word[chan] != 0) << regs.CH_STATUS_ERROR.lsb


# ---------------------------------------------------------------- agent

def agent_events(cmds):
    """What a flush agent must do for a command stream, in order:
    ("flush", rs1, rs2, vpn, asid, ptw_rs1) once per command on the DTLB and
    PTW together (the PTW gets the same flush, but as one naming no VA when
    the command is NONLEAF: Rocket's walker drops its cache of non-leaf
    entries only then), then per END two ("itlb", rs2, asid), scoped as the
    END says (asid None for a full flush), and one ("ack",)."""
    events = []
    for c in cmds:
        kind = c["kind"]
        rs2 = int(kind in (KIND_VA_ASID, KIND_ASID))
        if c["end"]:
            events += [("itlb", rs2, c["asid"] if rs2 else None)] * 2 + [("ack",)]
            continue
        rs1 = int(kind in (KIND_VA_ASID, KIND_VA_ALL))
        events.append(("flush", rs1, rs2, c["vpn"], c["asid"], rs1 & int(not c.get("nonleaf", 0))))
    return events
