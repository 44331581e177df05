"""python3 -m litmus_lang.compile [--schedules N] OUT.h LITMUS... : the litmus tests as C data
for sw/baremetal/programs/litmus.c, which runs each test N times (100
unless told) on the SoC, with seeded jitter on every hart, through the
unit's channels, and prints the outcomes it saw (docs/litmus.md).

Addresses: the test's k-th virtual page name gets the 1 GiB region at
(9 + k) GiB (below 9 GiB are the runtime's identity maps); `va y = x+N`
is N pages past x. Physical page names get 2 MiB-aligned frames in an
arena at the platform's LT_ARENA (runtime/platform.h's TEST_FRAMES,
through sw/baremetal/common/litmus_core.h); "S+3" is three pages past S.
Address space N is a page
table of its own, all of them with ASID 0 (Rocket 1.2.6 has no ASIDs):
`satp` also flushes the hart's own TLB, as Linux does without ASIDs, and
every entry carries ASID 0, so `asid:N` removes every non-global
translation.
"""
import argparse
import pathlib
import sys

from litmus_lang import ALL, ASID, INVALID, VA_ALL, VA_ASID, LitmusError, load
from litmus_lang.layout import Layout

FRAME = 1 << 21
VA_BASE_GIB = 9
MAX_OPS, MAX_REGS, MAX_HARTS, MAX_OBSERVED, MAX_KEY = 16, 8, 4, 4, 20
KIND = {VA_ASID: "TLBSD_KIND_VA_ASID", VA_ALL: "TLBSD_KIND_VA_ALL", ASID: "TLBSD_KIND_ASID", ALL: "TLBSD_KIND_ALL"}
SIZE = {0: "TLBSD_SIZE_4K", 1: "TLBSD_SIZE_2M", 2: "TLBSD_SIZE_1G"}
OPS = {"unmap": "LT_PTE", "remap": "LT_PTE", "retable": "LT_RETABLE", "shoot": "LT_SHOOT", "post": "LT_POST",
       "sync": "LT_SYNC",
       "load": "LT_LOAD", "store": "LT_STORE", "fetch": "LT_FETCH", "fence": "LT_FENCE", "sfence": "LT_SFENCE",
       "satp": "LT_SATP", "wfi": "LT_WFI"}


class CompileError(Exception):
    pass


def perm_bits(perms, glob):
    if perms == INVALID:
        return "0"
    bits = ["PTE_V", "PTE_A"] + [f"PTE_{p.upper()}" for p in "rwx" if p in perms]
    if "c" not in perms and "w" in perms:
        bits.append("PTE_D")
    if glob:
        bits.append("PTE_G")
    return " | ".join(bits)


class Compiled:
    def __init__(self, test, where):
        self.test, self.where = test, where
        self.layout = Layout(test)
        if len(test.harts) > MAX_HARTS:
            raise CompileError(f"{where}: {len(test.harts)} harts; the back end runs at most {MAX_HARTS}")
        self.frames = {}  # offsets into the arena
        for name in self.layout.ppn:
            self.frames[name] = len(self.frames) * FRAME

    def va(self, name):
        return (self.layout.vpn[name] + ((VA_BASE_GIB - 1) << 18)) << 12

    def pa(self, name):
        """The physical address of page `name`, as C (LT_ARENA is the
        platform's: litmus_core.h)."""
        base, _, off = name.partition("+")
        return f"(LT_ARENA + {self.frames[base] + int(off or 0) * 4096:#x})"

    def arena_bytes(self):
        return len(self.frames) * FRAME

    def code_pages(self):
        """Physical pages some mapping makes executable: they hold code that
        returns the page's word instead of the word itself."""
        maps = list(self.test.maps) + [op.mapping for ops in self.test.harts for op in ops if op.mapping]
        return {m.pa for m in maps if "x" in m.perms}

    def regs(self):
        out = []
        for h, r in self.test.registers():
            if (h, r) not in out:
                out.append((h, r))
        for h, r in out:
            if not r.startswith("r") or not r[1:].isdigit() or int(r[1:]) >= MAX_REGS:
                raise CompileError(f"{self.where}: register {r}: the back end has r0..r{MAX_REGS - 1}")
        return out

    def observed(self):
        return sorted({t.name for c in self.test.forbidden + self.test.weak for t in c if t.hart is None})

    def emit(self, i):
        t, out = self.test, []
        tables = {name: k for k, name in enumerate(t.tables)}
        maps = []
        for m in t.maps:
            if m.level == 2:
                raise CompileError(f"{self.where}: the back end cannot place a 1 GiB page ({m.va})")
            maps.append(f"{{{m.space}, {tables.get(m.table, -1)}, {m.level}, {self.va(m.va):#x}, "
                        f"{self.pa(m.pa)}, {perm_bits(m.perms, m.glob)}}}")
        out.append(f"static const struct lt_map lt_maps_{i}[] = {{ {', '.join(maps)} }};")
        entries, progs = [], []
        for h, ops in enumerate(t.harts):
            space, rows = t.spaces.get(h, 0), []
            for op in ops:
                if len(rows) == MAX_OPS:
                    raise CompileError(f"{self.where}: hart {h} has more than {MAX_OPS} operations")
                rows.append(self.op(op, space, entries, tables))
                if op.kind == "satp":
                    space = op.value
            out.append(f"static const struct lt_op lt_ops_{i}_{h}[] = {{ {', '.join(rows)} }};")
            progs.append(f"{{lt_ops_{i}_{h}, {len(rows)}, {t.spaces.get(h, 0)}}}")
        out.append(f"static const uint64_t lt_entries_{i}[] = {{ {', '.join(entries) or '0'} }};")
        regs = self.regs()
        observed = self.observed()
        if len(observed) > MAX_OBSERVED:
            raise CompileError(f"{self.where}: more than {MAX_OBSERVED} physical pages in its conditions")
        if len(regs) + len(observed) > MAX_KEY:
            raise CompileError(f"{self.where}: an outcome of more than {MAX_KEY} values (registers and pages)")
        code = self.code_pages()
        for n in code:
            if not 0 <= t.mem.get(n, 0) < 2048:
                raise CompileError(f"{self.where}: code page {n} must return a value in 0..2047")
        # Every page the test names starts from its own word (0 unless `mem`
        # says otherwise), whatever the tests before it left there.
        pages = set(t.mem) | code | set(observed) | {m.pa for m in t.maps}
        pages |= {op.mapping.pa for ops in t.harts for op in ops if op.mapping}
        data = [f"{{{self.pa(n)}, {t.mem.get(n, 0)}, {int(n in code)}}}" for n in sorted(pages)]
        out.append(f"static const struct lt_data lt_data_{i}[] = {{ {', '.join(data)} }};")
        out.append(f"static const struct lt_reg lt_regs_{i}[] = {{ {', '.join(f'{{{h}, {r[1:]}}}' for h, r in regs)} }};")
        obs = ", ".join(f"{{\"{n}\", {self.pa(n)}}}" for n in observed)
        out.append(f"static const struct lt_observed lt_observed_{i}[] = {{ {obs or '{0, 0}'} }};")
        spaces = 1 + max([m.space for m in t.maps] + list(t.spaces.values()) +
                         [op.value for ops in t.harts for op in ops if op.kind == "satp"])
        out.append(f"static const struct lt_prog lt_progs_{i}[] = {{ {', '.join(progs)} }};")
        return "\n".join(out), (
            f"{{\"{t.name}\", {len(t.harts)}, {spaces}, {len(t.tables)}, lt_maps_{i}, {len(maps)}, lt_progs_{i}, "
            f"lt_entries_{i}, lt_data_{i}, {len(data)}, lt_regs_{i}, {len(regs)}, lt_observed_{i}, {len(observed)}}}")

    def op(self, op, space, entries, tables):
        k = op.kind
        fields = {"kind": OPS[k], "space": space}
        if op.va:
            fields["va"] = hex(self.va(op.va))
        if op.reg:
            fields["reg"] = op.reg[1:]
        if k == "unmap":
            fields["level"] = -1        # wherever the walk ends: the leaf
        elif k == "remap":
            m = op.mapping
            if m.level == 2:
                raise CompileError(f"{self.where}:{op.line}: the back end cannot place a 1 GiB page")
            fields.update(level=m.level, value=f"({self.pa(m.pa)} >> 12) << 10 | {perm_bits(m.perms, m.glob)}")
        elif k == "retable":
            fields.update(level=1, value=tables[op.table])
        elif k == "store":
            if isinstance(op.value, str):
                fields.update(value=op.value[1:], flags="LT_FROM_REG")
            else:
                fields["value"] = op.value
        elif k == "satp":
            fields["value"] = op.value
        elif k in ("shoot", "post"):
            first = len(entries)
            for e in op.entries:
                if e.nonleaf:
                    raise CompileError(f"{self.where}:{op.line}: the unit has no non-leaf flag yet (+nl)")
                va = self.va(e.va) & ~((4096 << 9 * e.level) - 1) if e.va else 0
                asid = 0        # every address space runs with ASID 0 (module doc)
                entries.append(f"TLBSD_ENTRY({KIND[e.kind]}, {SIZE[e.level]}, {e.pages}, {va:#x}, {asid})")
            mask = sum(1 << h for h in op.targets)
            fields.update(value=hex(mask), first=first, count=len(op.entries))
        body = ", ".join(f".{k} = {v}" for k, v in fields.items())
        return f"{{{body}}}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--schedules", type=int, default=100)
    ap.add_argument("out")
    ap.add_argument("tests", nargs="+")
    args = ap.parse_args()
    if args.schedules < 1:
        ap.error("--schedules must be at least 1")
    bodies, rows, arena = [], [], 0
    try:
        for i, path in enumerate(sorted(args.tests)):
            compiled = Compiled(load(path), path)
            body, row = compiled.emit(i)
            bodies.append(body)
            rows.append(row)
            arena = max(arena, compiled.arena_bytes())
    except (LitmusError, CompileError) as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(1)
    text = ["/* Generated by scripts/litmus_lang/compile.py from the tests in tests/litmus: do not edit. */",
            f"#define LT_SCHEDULES {args.schedules}", f"#define LT_ARENA_BYTES {arena:#x}",
            f"#define LT_MAX_OPS {MAX_OPS}", f"#define LT_MAX_REGS {MAX_REGS}", f"#define LT_MAX_KEY {MAX_KEY}"] + bodies
    text.append(f"static const struct lt_test lt_tests[] = {{\n\t{(',' + chr(10) + chr(9)).join(rows)}\n}};")
    text.append(f"#define LT_NTESTS {len(rows)}")
    pathlib.Path(args.out).write_text("\n".join(text) + "\n")


if __name__ == "__main__":
    main()
