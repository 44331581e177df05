"""Reference models for the litmus tests: which outcomes a correct shootdown
may produce (docs/semantics.md, "Litmus tests"). Plain Python; every
reachable state of a small operational machine is explored.

The machine: harts run their litmus programs; memory holds page tables (a
three-level Sv39 tree per address space) and one data word per physical
page. Each hart has a TLB of leaf translations and a cache of non-leaf
entries keyed by the entry's place in a table (Rocket's PTE cache), and may
at any time use any entry it holds or walk the tables instead (evictions are
always allowed). A walk reads each level from memory or from its non-leaf
cache and installs what it read, a fault too: a walk that finds no valid
entry may leave a fault for the pages that entry spans in the TLB, which
RISC-V allows without Svvptc and Rocket 1.2.6 does (TLB.scala refills
whatever the walk answered), so a new mapping is seen once a covering
flush (a local sfence.vma, as Linux's fault path does) or an eviction drops
it. A load needs R, a store W and a set dirty bit (the `c` permission is a
clean page, whose stores fault: Rocket never sets A or D), a fetch X.

A request (post) names targets and entries and is applied to each target
at some later step of its own: the target's TLB and non-leaf cache lose
what the entries cover (rules 1, 5, 6; an entry by VA drops non-leaf
entries only with `+nl`, kinds ASID and ALL drop them all). Accesses are
atomic, so an access that used a translation either happened before the
target's flush (and is visible to all) or after it (rule 2). A request is
complete when every target applied it; `sync` waits until every request
its hart posted is complete; `shoot` is post then sync.

Two models differ in how a hart may order its own accesses:
- X86Model: in program order (an IPI handler's return, or a completed
  request, orders everything after it: what x86's shootdown gives).
- Arm64Model: an access may be performed before earlier accesses to other
  virtual pages unless a fence, sync or other non-access operation lies
  between them (Armv8-A: a reader without a barrier may use a translation
  it made early, so MP+shoot+po is allowed, MP+shoot+fence forbidden).
"""
from litmus_lang import ALL, ASID, FAULT, INVALID, VA_ALL, VA_ASID, Entry, holds
from litmus_lang.layout import Layout

SPAN = (1, 512, 512 * 512)      # pages a leaf covers at level 0, 1, 2


def _index(vpn, level):
    return (vpn >> (9 * level)) & 511


def _build(test, layout):
    """Initial memory: data words, and the page tables of every address
    space and spare table, as {("pte", table, index): pte} where a pte is
    ("T", table) or ("L", ppn, perms, global)."""
    mem = {("data", layout.pa(n)): v for n, v in test.mem.items()}
    levels = {}
    for m in test.maps:
        vpn = layout.vpn[m.va]
        leaf = ("L", layout.pa(m.pa), m.perms, m.glob)
        if m.table:
            mem[("pte", m.table, _index(vpn, 0))] = leaf
            levels[m.table] = 0
            continue
        table = f"root{m.space}"
        for level in (2, 1, 0):
            if level == m.level:
                mem[("pte", table, _index(vpn, level))] = leaf
                break
            key = ("pte", table, _index(vpn, level))
            if key not in mem:
                mem[key] = ("T", f"{m.space}/{level - 1}/{vpn >> (9 * level)}")
            table = mem[key][1]
    return mem


def _fault(vpn, level):
    """The fault a walk that found no valid entry at `level` answers: a
    translation to nothing, with no permission, over the pages that entry
    spans (what Rocket's TLB refills)."""
    return (vpn - vpn % SPAN[level], level, None, INVALID, False)


def _walks(vpn, root, mem, cache):
    """Every (translation, non-leaf reads) a walk of vpn may give, each
    level from memory or from a cached copy of that table entry; a walk
    that finds no valid entry gives a fault (_fault)."""
    out = []

    def walk(table, level, reads):
        key = (table, _index(vpn, level))
        options = {mem.get(("pte",) + key)}
        options |= {pte for (t, i, pte) in cache if (t, i) == key}
        for pte in options:
            if pte is None:
                out.append((_fault(vpn, level), reads))
            elif pte[0] == "L":
                _, ppn, perms, glob = pte
                base = vpn - vpn % SPAN[level]
                out.append(((base, level, ppn, perms, glob), reads))
            elif level > 0:
                walk(pte[1], level - 1, reads | {(table, key[1], pte)})
            else:
                out.append((_fault(vpn, level), reads))
    walk(root, 2, frozenset())
    return out


def _covers(entry, tlb_entry, layout, asid):
    """Whether a request entry must remove a cached leaf (rules 5, 6)."""
    space, base, level, _, _, glob = tlb_entry
    kind = entry.kind
    if kind == ALL:
        return True
    if kind == ASID:
        return not glob and space == entry.asid
    if kind == VA_ASID and (glob or space != asid):
        return False
    start = layout.vpn[entry.va]
    start -= start % SPAN[entry.level]
    for i in range(entry.pages):
        lo = start + i * SPAN[entry.level]
        if lo < base + SPAN[level] and base < lo + SPAN[entry.level]:
            return True
    return False


def _drops_nonleaf(entry, cached, layout):
    if entry.kind in (ALL, ASID):
        return True
    if not entry.nonleaf:
        return False
    table, index, _ = cached
    vpn = layout.vpn[entry.va]
    return any(index == _index(vpn, level) for level in (0, 1, 2))


class Model:
    """Explores every interleaving; `outcomes(test)` is the set of final
    observations, each a frozenset of ((hart, register), value) and
    ((None, physical page), value) pairs."""
    name = None

    def __init__(self, test):
        self.test = test
        self.layout = Layout(test)
        self.progs = [self._expand(ops) for ops in test.harts]
        self.observed = sorted({t.name for c in test.forbidden + test.weak for t in c if t.hart is None})

    @staticmethod
    def _expand(ops):
        out = []
        for op in ops:
            if op.kind == "shoot":
                out += [op.__class__("post", targets=op.targets, entries=op.entries, line=op.line),
                        op.__class__("sync", line=op.line)]
            else:
                out.append(op)
        return out

    def ready(self, hart, i, done):
        """Whether op i of hart may run now (done: a bitmask of its ops)."""
        raise NotImplementedError

    def sync_waits(self, hart, reqs):
        """Whether a sync on hart must still wait: a request it posted is
        not complete."""
        return any(r[0] == hart for r in reqs)

    def applied(self, entries):
        """The entries of a request that a target carries out."""
        return entries

    def covers(self, entry, tlb_entry, asid):
        """Whether a target applying `entry` must drop a cached leaf."""
        return _covers(entry, tlb_entry, self.layout, asid)

    def drops_nonleaf(self, entry, cached):
        """Whether a target applying `entry` must drop a non-leaf entry."""
        return _drops_nonleaf(entry, cached, self.layout)

    def cached(self, translation):
        """Whether a walk's answer goes into the TLB (a fault too)."""
        return True

    def outcomes(self):
        test, lay = self.test, self.layout
        mem = _build(test, lay)
        start_harts = tuple((0, (), test.spaces.get(h, 0)) for h in range(len(test.harts)))
        warm = [self._warm(mem, space) for (_, _, space) in start_harts]
        start = (start_harts, frozenset(mem.items()), tuple(w[0] for w in warm), tuple(w[1] for w in warm), ())
        seen, results, stack = set(), set(), [start]
        while stack:
            state = stack.pop()
            if state in seen:
                continue
            seen.add(state)
            succ = list(self._steps(state))
            if not succ:
                stuck = [h for h, (done, _, _) in enumerate(state[0]) if done != (1 << len(self.progs[h])) - 1]
                assert not stuck, f"{test.name}: harts {stuck} can never finish"
                results.add(self._observe(state))
            stack.extend(succ)
        return results

    def _warm(self, mem, space):
        """A hart starts with what walks of every page its address space
        maps have installed (the back ends touch each page before the
        start; the model may still evict any of it)."""
        tlb, cache = set(), set()
        for name, vpn in self.layout.vpn.items():
            for tr, reads in _walks(vpn, f"root{space}", mem, frozenset()):
                cache |= reads
                if set(tr[3]) & set("rx"):  # what the back ends touch: readable or executable pages
                    tlb.add((space,) + tr)
        return frozenset(tlb), frozenset(cache)

    def _observe(self, state):
        harts, mem = state[0], dict(state[1])
        obs = [((h, r), v) for h, (_, regs, _) in enumerate(harts) for r, v in regs]
        obs += [((None, n), mem.get(("data", self.layout.pa(n)), 0)) for n in self.observed]
        return frozenset(obs)

    def _steps(self, state):
        harts, mem, tlbs, caches, reqs = state
        # A target applies a request.
        for r, (initiator, pending, entries, asid) in enumerate(reqs):
            applied = self.applied(entries)
            for t in pending:
                tlb = frozenset(e for e in tlbs[t] if not any(self.covers(x, e, asid) for x in applied))
                cache = frozenset(c for c in caches[t] if not any(self.drops_nonleaf(x, c) for x in applied))
                rest = pending - {t}
                new_reqs = reqs[:r] + ((initiator, rest, entries, asid),) + reqs[r + 1:] if rest else \
                    reqs[:r] + reqs[r + 1:]
                yield (harts, mem, _put(tlbs, t, tlb), _put(caches, t, cache), new_reqs)
        # A hart runs one of its ready operations.
        for h, (done, regs, space) in enumerate(harts):
            for i, op in enumerate(self.progs[h]):
                if done >> i & 1 or not self.ready(h, i, done):
                    continue
                for nxt in self._run(h, op, state):
                    n_harts, n_mem, n_tlbs, n_caches, n_reqs, n_regs, n_space = nxt
                    n_harts = _put(n_harts, h, (done | 1 << i, n_regs, n_space))
                    yield (n_harts, n_mem, n_tlbs, n_caches, n_reqs)

    def _run(self, h, op, state):
        """Every result of running op on hart h: (harts, mem, tlbs, caches,
        reqs, regs, space)."""
        harts, mem, tlbs, caches, reqs = state
        _, regs, space = harts[h]
        lay = self.layout
        k = op.kind
        if k in ("fence", "wfi"):
            yield harts, mem, tlbs, caches, reqs, regs, space
        elif k == "satp":
            yield harts, mem, tlbs, caches, reqs, regs, op.value
        elif k == "sync":
            if not self.sync_waits(h, reqs):
                yield harts, mem, tlbs, caches, reqs, regs, space
        elif k == "post":
            req = (h, frozenset(op.targets), op.entries, space)
            yield harts, mem, tlbs, caches, reqs + (req,) if op.targets else reqs, regs, space
        elif k == "sfence":
            entry = Entry(VA_ALL, va=op.va) if op.va else Entry(ALL)
            tlb = frozenset(e for e in tlbs[h] if not _covers(entry, e, lay, space))
            cache = frozenset(c for c in caches[h] if not _drops_nonleaf(entry, c, lay))
            yield harts, mem, _put(tlbs, h, tlb), _put(caches, h, cache), reqs, regs, space
        elif k in ("unmap", "remap", "retable"):
            yield harts, self._write_pte(op, mem, space), tlbs, caches, reqs, regs, space
        else:
            yield from self._access(h, op, state)

    def _write_pte(self, op, mem, space):
        """A store to the PTE that maps op.va in the hart's address space:
        the leaf (unmap, remap) or the level-1 entry above it (retable)."""
        lay, m = self.layout, dict(mem)
        vpn = lay.vpn[op.va]
        table = f"root{space}"
        for level in (2, 1, 0):
            key = ("pte", table, _index(vpn, level))
            pte = m.get(key)
            if op.kind == "retable" and level == 1:
                m[key] = ("T", op.table)
                break
            if op.kind == "remap" and level == op.mapping.level:
                mp = op.mapping
                m[key] = ("L", lay.pa(mp.pa), mp.perms, mp.glob)
                break
            if op.kind == "unmap" and (pte is None or pte[0] == "L"):
                m.pop(key, None)
                break
            if pte is None or pte[0] == "L":
                # remap below a missing table: a new, empty table
                pte = m[key] = ("T", f"{space}/{level - 1}/{vpn >> (9 * level)}/new")
            table = pte[1]
        return frozenset(m.items())

    def _access(self, h, op, state):
        harts, mem, tlbs, caches, reqs = state
        _, regs, space = harts[h]
        vpn = self.layout.vpn[op.va]
        m = dict(mem)
        options = []        # (translation, new tlb, new cache)
        for e in tlbs[h]:
            e_space, base, level, ppn, perms, glob = e
            if base <= vpn < base + SPAN[level] and (glob or e_space == space):
                options.append(((base, level, ppn, perms, glob), tlbs[h], caches[h]))
        for tr, reads in _walks(vpn, f"root{space}", m, caches[h]):
            cache = caches[h] | reads
            tlb = tlbs[h] | {(space,) + tr} if self.cached(tr) else tlbs[h]
            options.append((tr, tlb, cache))
        need = {"load": "r", "store": "w", "fetch": "x"}[op.kind]
        for tr, tlb, cache in options:
            n_tlbs, n_caches = _put(tlbs, h, tlb), _put(caches, h, cache)
            ok = need in tr[3] and not (op.kind == "store" and "c" in tr[3])
            if not ok:
                value, n_mem = FAULT, mem
            else:
                base, _, ppn, _, _ = tr
                pa = ppn + (vpn - base)
                if op.kind == "store":
                    m2 = dict(m)
                    m2[("data", pa)] = dict(regs).get(op.value, 0) if isinstance(op.value, str) else op.value
                    value, n_mem = None, frozenset(m2.items())
                else:
                    value, n_mem = m.get(("data", pa), 0), mem
            n_regs = regs
            if op.reg:
                n_regs = tuple(sorted(dict(regs, **{op.reg: value}).items()))
            yield harts, n_mem, n_tlbs, n_caches, reqs, n_regs, space


def _put(tup, i, v):
    return tup[:i] + (v,) + tup[i + 1:]


class X86Model(Model):
    """Submit and wait: every hart runs its program in order."""
    name = "x86"

    def ready(self, hart, i, done):
        return done == (1 << i) - 1


ACCESSES = ("load", "store", "fetch")


class Arm64Model(Model):
    """Post, then sync, with Armv8-A's freedom to perform an access before
    earlier accesses to other pages when nothing orders them."""
    name = "arm64"

    def ready(self, hart, i, done):
        prog = self.progs[hart]
        op = prog[i]
        for j in range(i):
            if done >> j & 1:
                continue
            other = prog[j]
            if op.kind not in ACCESSES or other.kind not in ACCESSES or other.va == op.va:
                return False
            if other.reg is not None and other.reg == op.value:
                return False
        return True


MODELS = {"x86": X86Model, "arm64": Arm64Model}


def outcomes(test, model=None):
    return MODELS[model or test.model](test).outcomes()


def judge(test, model=None):
    """(allowed outcomes, [forbidden conditions the model allows],
    [weak conditions the model forbids]): a test's claims checked against
    the model."""
    allowed = outcomes(test, model)
    bad_forbidden = [c for c in test.forbidden if any(holds(c, dict(o)) for o in allowed)]
    bad_weak = [c for c in test.weak if not any(holds(c, dict(o)) for o in allowed)]
    return allowed, bad_forbidden, bad_weak
