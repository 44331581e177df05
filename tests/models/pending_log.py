"""A model of the Linux port's pending-page log (sw/linux patch 0004),
explored over every interleaving of a reclaiming task (the owner of a
deferred-flush batch) and N callers of flush_tlb_batched_pending().

The property a caller must keep (upstream 3ea277194daa): when it returns,
every page whose PTE was cleared before it looked has been flushed by a
request that has completed, not only sent. The model has the log's parts
that decide this: entries that a batch's next page extends, a sequence
number per page logged, a log that loses pages once full (then a caller
sends a whole-ASID entry), the owner's send, completion and retire, and a
caller's copy, request and removal. Two protocols:

- "fixed" (0004): a caller removes what it copied only after its request
  completed, and only entries not logged since its copy;
- "emptied" (0004 before a review found the race): a caller empties the log when it copies it;
- "unnumbered": as fixed, but the caller removes every entry once its
  request completed, the sequence numbers ignored (an entry the owner
  extended after the copy goes with its new page unflushed).

explore() visits every reachable state by depth-first search and returns the
first violation as the list of steps that led to it, or None.
"""
from dataclasses import dataclass, replace

PROTOCOLS = ("fixed", "emptied", "unnumbered")


@dataclass(frozen=True)
class Entry:
    first: int   # pages first..last of the owner's batch generation gen
    last: int
    gen: int
    seq: int     # sequence number of the entry's newest page


@dataclass(frozen=True)
class Caller:
    pc: str = "look"            # look -> complete -> remove -> done
    copied: frozenset = frozenset()
    whole: bool = False         # sent one whole-ASID entry (the log had lost pages)
    seq: int = 0                # the log's sequence number at the copy
    owed: frozenset = frozenset()   # pages cleared before the look


@dataclass(frozen=True)
class State:
    stale: frozenset = frozenset()      # cleared and not covered by a completed flush
    log: tuple = ()                     # Entry, oldest first
    lost: int = 0                       # seq of the last page that did not fit; 0: none
    seq: int = 0
    owner_pc: int = 0
    gen: int = 0
    batch: frozenset = frozenset()      # pages of the owner's current generation
    in_flight: frozenset = frozenset()  # the owner's request, sent and not completed
    callers: tuple = ()


def owner_program(pages):
    """Clear pages (two generations when there are more than two), flushing
    and retiring after each generation."""
    half = (len(pages) + 1) // 2 if len(pages) > 2 else len(pages)
    steps = []
    for gen_pages in (pages[:half], pages[half:]):
        if gen_pages:
            steps += [("clear", p) for p in gen_pages] + [("send",), ("complete",), ("retire",)]
    return steps


def log_add(s, page, capacity):
    seq = s.seq + 1
    log = list(s.log)
    if s.lost:
        return replace(s, seq=seq, lost=seq)
    if log and log[-1].gen == s.gen and log[-1].last + 1 == page:
        log[-1] = replace(log[-1], last=page, seq=seq)
        return replace(s, seq=seq, log=tuple(log))
    if len(log) == capacity:
        return replace(s, seq=seq, lost=seq)
    return replace(s, seq=seq, log=tuple(log + [Entry(page, page, s.gen, seq)]))


def pages_of(entries):
    return frozenset(p for e in entries for p in range(e.first, e.last + 1))


def owner_step(s, program, capacity):
    step = program[s.owner_pc]
    s = replace(s, owner_pc=s.owner_pc + 1)
    if step[0] == "clear":
        s = replace(s, stale=s.stale | {step[1]}, batch=s.batch | {step[1]})
        return log_add(s, step[1], capacity)
    if step[0] == "send":
        return replace(s, in_flight=s.batch)
    if step[0] == "complete":
        return replace(s, stale=s.stale - s.in_flight, in_flight=frozenset())
    # retire: the generation's entries leave the log, the next begins
    return replace(s, log=tuple(e for e in s.log if e.gen != s.gen), gen=s.gen + 1, batch=frozenset())


def caller_step(s, i, protocol):
    """One step of caller i; returns the new state and whether it broke the
    property (by returning with a page it owed still stale)."""
    c = s.callers[i]
    if c.pc == "look":
        owed = s.stale
        copied, whole = pages_of(s.log), bool(s.lost)
        c = replace(c, owed=owed, copied=copied, whole=whole, seq=s.seq)
        if protocol == "emptied":
            s = replace(s, log=(), lost=0)
        if not copied and not whole:
            c = replace(c, pc="done")
            return replace(s, callers=_set(s.callers, i, c)), bool(owed & s.stale)
        return replace(s, callers=_set(s.callers, i, replace(c, pc="complete"))), False
    if c.pc == "complete":
        # the request covered the copy, or every page of the ASID
        flushed = s.stale if c.whole else c.copied
        s = replace(s, stale=s.stale - flushed)
        return replace(s, callers=_set(s.callers, i, replace(c, pc="remove"))), False
    # remove what the completed request covered, then return
    if protocol == "fixed":
        s = replace(s, log=tuple(e for e in s.log if e.seq > c.seq),
                    lost=0 if s.lost <= c.seq else s.lost)
    elif protocol == "unnumbered":
        s = replace(s, log=(), lost=0)
    s = replace(s, callers=_set(s.callers, i, replace(c, pc="done")))
    return s, bool(c.owed & s.stale)


def _set(t, i, v):
    return t[:i] + (v,) + t[i + 1:]


@dataclass
class Result:
    violation: list = None      # the steps to the first violation, or None
    states: int = 0
    requests: int = 0           # caller steps that sent a non-empty request


def explore(protocol, callers=2, pages=(1, 2, 3), capacity=1):
    """Every interleaving of the owner (clearing `pages`) and `callers`
    callers, each looking once, with a log of `capacity` entries."""
    assert protocol in PROTOCOLS
    program = owner_program(list(pages))
    start = State(callers=tuple(Caller() for _ in range(callers)))
    seen, result = set(), Result()
    stack = [(start, [])]
    while stack:
        s, path = stack.pop()
        if s in seen:
            continue
        seen.add(s)
        moves = []
        if s.owner_pc < len(program):
            moves.append((f"owner {program[s.owner_pc]}", owner_step(s, program, capacity), False))
        for i, c in enumerate(s.callers):
            if c.pc != "done":
                nxt, bad = caller_step(s, i, protocol)
                if c.pc == "look" and nxt.callers[i].pc == "complete":
                    result.requests += 1
                moves.append((f"caller {i} {c.pc}", nxt, bad))
        for label, nxt, bad in moves:
            if bad and result.violation is None:
                result.violation = path + [label]
            stack.append((nxt, path + [label]))
    result.states = len(seen)
    return result
