"""The litmus format for TLB-shootdown tests (tests/litmus/*.litmus), parsed
into plain data that the reference models (model.py) and the
back ends share: the compiler to C data (compile.py, which the bare-metal
build runs) and the catalogue in docs/litmus.md (catalogue.py). The
package is the build's, not the tests': `python3 -m litmus_lang.compile`
with scripts/ on the path. docs/semantics.md says what the rules are; docs/litmus.md, the
format. A test looks like this:

    litmus MP+shoot+wait
    model x86
    map x -> A rw
    map f -> F rw
    mem A=1
    hart 0
      unmap x
      shoot 1 x
      store f 1
    hart 1
      r0 = load f
      r1 = load x
    forbidden 1:r0=1 & 1:r1=1
    weak 1:r0=0 & 1:r1=1

Names of virtual pages (x, f) and of physical pages (A, F) are the test's
own; the models and the back ends give them addresses. Every page holds one
word of interest (its first). Values are integers or `fault`.
"""
from dataclasses import dataclass, field
import re

FAULT = "fault"
SIZES = {"4K": 0, "2M": 1, "1G": 2}     # leaf level
PERMS = set("rwxc")                     # c: clean (D = 0), stores fault
INVALID = "-"                           # a PTE without V that still names its page

# Entry kinds, as the unit has them (docs/shootdown-registers.md).
VA_ASID, VA_ALL, ASID, ALL = "va", "va-all", "asid", "all"


class LitmusError(Exception):
    """A test file that does not parse: the message names file and line."""


@dataclass(frozen=True)
class Mapping:
    va: str
    pa: str
    perms: str
    level: int = 0          # 0: 4 KiB leaf, 1: 2 MiB, 2: 1 GiB
    glob: bool = False
    space: int = 0          # address space (ASID) the mapping is in
    table: str = None       # a spare table this mapping lives in (retable), not a root


@dataclass(frozen=True)
class Entry:
    """One entry of a request: kind VA_ASID/VA_ALL name `va` and `pages`
    pages of size `level`; ASID names `asid`; ALL names everything.
    `nonleaf`: drop cached non-leaf entries on the way to the pages too."""
    kind: str
    va: str = None
    pages: int = 1
    level: int = 0
    asid: int = None
    nonleaf: bool = False


@dataclass(frozen=True)
class Op:
    """One line of a hart's program. `kind` is one of: unmap, remap,
    retable, shoot, post, sync, load, store, fetch, fence, sfence, satp, wfi."""
    kind: str
    va: str = None
    reg: str = None
    value: int = None
    mapping: Mapping = None
    table: str = None
    targets: tuple = ()
    entries: tuple = ()
    line: int = 0


@dataclass(frozen=True)
class Term:
    hart: int           # None for a memory location
    name: str           # register, or physical page ("A", "S+3")
    value: object       # int or FAULT


@dataclass
class Test:
    name: str
    model: str = "x86"
    doc: str = ""
    vas: dict = field(default_factory=dict)         # name -> (base name, offset) or None
    maps: list = field(default_factory=list)        # Mapping
    tables: list = field(default_factory=list)      # spare table names
    mem: dict = field(default_factory=dict)         # physical page name -> value
    harts: list = field(default_factory=list)       # [[Op]]
    spaces: dict = field(default_factory=dict)      # hart -> address space it starts in
    forbidden: list = field(default_factory=list)   # [[Term]]: conjunctions
    weak: list = field(default_factory=list)        # [[Term]]: allowed outcomes to look for

    def registers(self):
        """(hart, register) pairs the programs write, in program order."""
        return [(h, op.reg) for h, ops in enumerate(self.harts) for op in ops if op.reg]


def holds(cond, outcome):
    """Whether an outcome (a dict of (hart, name) -> value, hart None for
    memory) satisfies a conjunction of terms."""
    return all(outcome.get((t.hart, t.name)) == t.value for t in cond)


def show(cond):
    return " & ".join(f"{'' if t.hart is None else f'{t.hart}:'}{t.name}={t.value}" for t in cond)


def _value(text, where):
    if text == FAULT:
        return FAULT
    try:
        return int(text, 0)
    except ValueError:
        raise LitmusError(f"{where}: '{text}' is neither a number nor 'fault'") from None


def _mapping(words, where, space=0, table=None):
    # x -> A rw [2M|1G] [global]; x -> A - is an invalid PTE naming A (as a
    # swapped-out page's PTE has bits beside a clear V)
    if len(words) < 4 or words[1] != "->":
        raise LitmusError(f"{where}: a mapping reads 'VA -> PA PERMS [2M|1G] [global]'")
    va, pa, perms = words[0], words[2], words[3]
    if perms != INVALID and not set(perms) <= PERMS:
        raise LitmusError(f"{where}: permissions '{perms}' are not made of r, w, x, c (or '-', invalid)")
    level, glob = 0, False
    for w in words[4:]:
        if w in SIZES:
            level = SIZES[w]
        elif w == "global":
            glob = True
        else:
            raise LitmusError(f"{where}: '{w}' is not a page size (4K, 2M, 1G) or 'global'")
    return Mapping(va, pa, perms, level, glob, space, table)


def _entry(text, where):
    if text == "all":
        return Entry(ALL)
    m = re.fullmatch(r"asid:(\d+)", text)
    if m:
        return Entry(ASID, asid=int(m.group(1)))
    m = re.fullmatch(r"(\*?)([A-Za-z_]\w*)(?::(\d+))?(?:@(4K|2M|1G))?(\+nl)?", text)
    if not m:
        raise LitmusError(f"{where}: '{text}' is not an entry (x, x:N, x@2M, *x, x+nl, asid:N, all)")
    return Entry(VA_ALL if m.group(1) else VA_ASID, va=m.group(2), pages=int(m.group(3) or 1),
                 level=SIZES[m.group(4) or "4K"], nonleaf=bool(m.group(5)))


def _targets(text, hart, nharts, where):
    if text == "others":
        return tuple(h for h in range(nharts) if h != hart)
    if text == "all":
        return tuple(range(nharts))
    try:
        return tuple(int(t) for t in text.split(","))
    except ValueError:
        raise LitmusError(f"{where}: targets '{text}' are not 'others', 'all' or a list of harts") from None


def _op(words, hart, where, line):
    w = words
    if len(w) >= 2 and w[1] == "=":
        if len(w) != 4 or w[2] not in ("load", "fetch"):
            raise LitmusError(f"{where}: 'REG = load VA' or 'REG = fetch VA'")
        return Op(w[2], va=w[3], reg=w[0], line=line)
    k = w[0]
    if k == "store" and len(w) == 3:
        if re.fullmatch(r"r\d+", w[2]):        # the value a load of this hart read
            return Op(k, va=w[1], value=w[2], line=line)
        return Op(k, va=w[1], value=_value(w[2], where), line=line)
    if k == "unmap" and len(w) == 2:
        return Op(k, va=w[1], line=line)
    if k == "remap":
        m = _mapping(w[1:], where)
        return Op(k, va=m.va, mapping=m, line=line)
    if k == "retable" and len(w) == 3:
        return Op(k, va=w[1], table=w[2], line=line)
    if k in ("shoot", "post") and len(w) >= 3:
        return Op(k, targets=w[1], entries=tuple(_entry(e, where) for e in ",".join(w[2:]).split(",") if e),
                  line=line)
    if k in ("sync", "fence", "wfi") and len(w) == 1:
        return Op(k, line=line)
    if k == "sfence" and len(w) <= 2:
        return Op(k, va=w[1] if len(w) == 2 else None, line=line)
    if k == "satp" and len(w) == 2:
        return Op(k, value=int(w[1]), line=line)
    raise LitmusError(f"{where}: '{' '.join(w)}' is not an operation")


def _condition(text, where):
    terms = []
    for t in text.split("&"):
        m = re.fullmatch(r"\s*(?:(\d+):)?([A-Za-z_][\w+]*)=(\S+)\s*", t)
        if not m:
            raise LitmusError(f"{where}: '{t.strip()}' is not 'HART:REG=VALUE' or 'PA=VALUE'")
        terms.append(Term(int(m.group(1)) if m.group(1) else None, m.group(2), _value(m.group(3), where)))
    return terms


def parse(text, filename="<litmus>"):
    test, hart, raw_ops = None, None, []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        where = f"{filename}:{n}"
        if not line:
            continue
        w = line.split()
        if w[0] == "litmus" and len(w) == 2 and test is None:
            test = Test(w[1])
            continue
        if test is None:
            raise LitmusError(f"{where}: a test starts with 'litmus NAME'")
        if w[0] == "model" and len(w) == 2 and w[1] in ("x86", "arm64"):
            test.model = w[1]
        elif w[0] == "doc":
            test.doc = (test.doc + " " + line[3:].strip()).strip()
        elif w[0] == "va" and len(w) == 2:
            test.vas[w[1]] = None
        elif w[0] == "va" and len(w) == 4 and w[2] == "=":
            m = re.fullmatch(r"([A-Za-z_]\w*)\+(\d+)", w[3])
            if not m:
                raise LitmusError(f"{where}: 'va NAME' or 'va NAME = BASE+PAGES'")
            test.vas[w[1]] = (m.group(1), int(m.group(2)))
        elif w[0] == "map":
            space, rest, table = 0, w[1:], None
            if rest and rest[0].endswith(":"):
                table, rest = rest[0][:-1], rest[1:]
                if table not in test.tables:
                    raise LitmusError(f"{where}: table '{table}' is not declared ('table NAME' first)")
            if len(rest) > 2 and rest[-2] == "as":
                space, rest = int(rest[-1]), rest[:-2]
            test.maps.append(_mapping(rest, where, space, table))
        elif w[0] == "table" and len(w) == 2:
            test.tables.append(w[1])
        elif w[0] == "mem":
            for kv in w[1:]:
                k, _, v = kv.partition("=")
                test.mem[k] = _value(v, where)
        elif w[0] == "hart" and len(w) in (2, 4):
            hart = int(w[1])
            if hart != len(test.harts):
                raise LitmusError(f"{where}: harts are numbered from 0 in order")
            test.harts.append([])
            if len(w) == 4:
                test.spaces[hart] = int(w[3])
        elif w[0] in ("forbidden", "weak"):
            getattr(test, w[0]).append(_condition(line[len(w[0]):], where))
        elif hart is not None:
            raw_ops.append((hart, w, where, n))
            test.harts[hart].append(None)
        else:
            raise LitmusError(f"{where}: '{line}' is outside any hart")
    if test is None:
        raise LitmusError(f"{filename}: empty")
    done = [0] * len(test.harts)
    for hart, w, where, n in raw_ops:
        op = _op(w, hart, where, n)
        if op.kind in ("shoot", "post"):
            op = Op(op.kind, targets=_targets(op.targets, hart, len(test.harts), where), entries=op.entries, line=n)
        test.harts[hart][done[hart]] = op
        done[hart] += 1
    _check(test, filename)
    return test


def _check(test, filename):
    names = {m.va for m in test.maps} | set(test.vas)
    for h, ops in enumerate(test.harts):
        for op in ops:
            where = f"{filename}:{op.line}"
            if op.va and op.va not in names:
                raise LitmusError(f"{where}: virtual page '{op.va}' is neither mapped nor declared")
            for e in op.entries:
                if e.va and e.va not in names:
                    raise LitmusError(f"{where}: virtual page '{e.va}' is neither mapped nor declared")
            for t in op.targets:
                if not 0 <= t < len(test.harts):
                    raise LitmusError(f"{where}: hart {t} is not in the test")
            if op.table and op.table not in test.tables:
                raise LitmusError(f"{where}: table '{op.table}' is not declared")
    for base, _ in filter(None, test.vas.values()):
        if base not in names:
            raise LitmusError(f"{filename}: 'va' names '{base}', which is neither mapped nor declared")


def load(path):
    with open(path) as f:
        return parse(f.read(), str(path))
