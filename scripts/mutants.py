#!/usr/bin/env python3
"""mutants.py [MUTANT...] [WHERE] : the kill matrix. Runs the suite on the 2-hart checked
model once per debug knob (every one unless named; the model has them all,
`+mutant=NAME` turns one on), once on the real design (row "none", the
control) and once per test aid (controls too: an aid breaks no rule), each
run a job of scripts/sweep.py (a LocalCluster of a worker a core, or
WHERE: --scheduler ADDRESS, --slurm N), and writes the matrix to build/results/mutants.md and .csv:
for every design and program, what the program's own checks said ("checks")
and what the co-simulation scoreboard said ("scoreboard"). Long: a few
minutes a design.

The suite: shootdown_cases.c (every case, bare metal), l2_refill_race.c, the
litmus tests on the unit's channels (judged against the reference models),
sbi_shootdown_cases.c under OpenSBI with the project's series, and storm.c (a
million cycles of random requests from every hart).

A cell is one of
  killed      the check caught it: the program ended with its own failure
              status (1), or, for the litmus program, the judge saw a
              forbidden outcome or one outside the model; the scoreboard
              named violations (`killed(N)`)
  -           nothing caught (the program passed; status 71 alone is the
              scoreboard's, in its own column)
  hang        no exit within +max-cycles (status 124) or the wall-clock limit
  crash(N)    any other status: the harness's internal (AXI) error 70, an
              RTL assertion or another signal, bad usage or ELF
  invalid     litmus: the judge found the run incomplete (schedules, counts,
              skips, errors), so it could not have caught anything
  untraced(N) the scoreboard met N events it could not trace and named no
              violation (status 72 when the program passed): it could not
              check the run
A mutant must be killed in some cell and have no hang, crash or invalid
one; a control must have "-" everywhere. Anything else makes the script
exit 1, as does a log without the scoreboard's summary.

Each cell's log is kept in the cache (~/.cache/tlb-shootdown/mutant-cells,
as the models are), keyed by the model (its path carries the key of its
inputs), what the program loads (its segments and entry, not its debugging
sections, which name the work tree), the design and the cycle limit: a
matrix cut short (a session's end) goes on where it stopped, in any clone,
and a cell reruns only when what it ran changed.

build/results/mutants.md starts with the command, commit, date and machine
that made it, and how many cells ran and how many came from the cache.

The knobs come from the generated scripts/shootdown_regs.py (MUTANTS,
AIDS), which GenShootdownHeaders writes from hw/testing/Mutants.scala.
"""
import argparse
import csv
import hashlib
import os
import struct
import time
import pathlib
import re
import subprocess
import sys

import shootdown_regs
import sweep
from builds import BUILD, firmware, model, program
from litmus_lang.judge import judge, parse, skip_reason_ok, tests as litmus_tests
from results import tables
from results.stamp import INPUTS, inputs_rev, stamp as results_stamp

ROOT = pathlib.Path(__file__).resolve().parents[1]

PROGRAMS = ("cases", "l2race", "litmus", "sbi", "storm")
FAIL_STATUS = 1           # what every program of the suite ends with when its checks fail
UNTRACED_STATUS = 72      # sim: the scoreboard could not trace the run (and the program passed)
HANG_STATUS = 124         # sim: +max-cycles reached
MAX_CYCLES = 400_000_000
WALL_SECONDS = 4 * 3600
SCOREBOARD = re.compile(r"^\[sim\] scoreboard: .*?(\d+) unexplained, (\d+) violations$", re.M)
RESULTS = BUILD / "results"
CELLS = sweep.cache_root() / "mutant-cells"
SWEEP_RESULTS = BUILD / "sweeps/mutants"


def programs():
    """{program: file the model runs}, built if needed."""
    soc = {name: program("soc", elf) for name, elf in
           (("cases", "shootdown_cases"), ("l2race", "l2_refill_race"), ("litmus", "litmus"), ("storm", "storm"))}
    return {**soc, "sbi": firmware("unit", "sbi_shootdown_cases") / "fw_payload.elf"}


def litmus_verdict(text):
    """'killed' if the judge saw what a broken shootdown shows, 'invalid' if
    the run could not have shown it, '-' if it passed."""
    runs, verdict = parse(text), "-"
    for name, test in litmus_tests().items():
        found = runs.get(name)
        if found is None:
            return "invalid"
        if "skipped" in found and skip_reason_ok(test, found["skipped"]):
            continue
        failures = judge(test, found)["failures"]
        caught = [f for f in failures if f.startswith(("forbidden outcome seen", "outcome outside"))]
        if len(caught) < len(failures):
            return "invalid"
        if caught:
            verdict = "killed"
    return verdict


def verdict(status, text, prog):
    """(checks, scoreboard) for one finished run: its exit status (None: the
    wall-clock limit), its output, and which program it was."""
    if status is None or status == HANG_STATUS:
        checks = "hang"
    elif status == FAIL_STATUS and prog != "litmus":
        checks = "killed"
    elif status in (0, 71, UNTRACED_STATUS):
        checks = litmus_verdict(text) if prog == "litmus" else "-"
    else:
        checks = f"crash({status})"
    found = SCOREBOARD.findall(text)
    if not found:
        raise SystemExit(f"mutants: a {prog} run has no scoreboard summary (was the model built with the scoreboard?)")
    unexplained, violations = map(int, found[-1])
    if violations:
        return checks, f"killed({violations})"
    return checks, f"untraced({unexplained})" if unexplained else "-"


def judge_row(cells, control):
    """None if the row is what it must be, else why not."""
    flat = [c for pair in cells for c in pair]
    bad = [c for c in flat if c == "hang" or c.startswith(("crash", "untraced")) or c == "invalid"]
    if bad:
        return f"{', '.join(sorted(set(bad)))} (neither a kill nor a pass)"
    killed = any(c.startswith("killed") for c in flat)
    if control and killed:
        return "a control: the real design fails the suite"
    if not control and not killed:
        return "not killed"
    return None


def loaded_bytes(elf):
    """A hash of what the harness loads from an ELF64: its entry and each
    PT_LOAD segment's address and bytes."""
    data = pathlib.Path(elf).read_bytes()
    if data[:4] != b"\x7fELF" or data[4] != 2:
        raise SystemExit(f"mutants: {elf} is not an ELF64 file")
    entry, phoff = struct.unpack_from("<QQ", data, 24)
    phentsize, phnum = struct.unpack_from("<HH", data, 54)
    h = hashlib.sha256(struct.pack("<Q", entry))
    for i in range(phnum):
        ptype, _, offset, vaddr, _, filesz, memsz = struct.unpack_from("<IIQQQQQ", data, phoff + i * phentsize)
        if ptype == 1:
            h.update(struct.pack("<QQ", vaddr, memsz) + data[offset:offset + filesz])
    return h.hexdigest()


def cell_key(sim, design, elf):
    """What a cell's log depends on: the model, the design, the limit and
    what the program loads."""
    h = hashlib.sha256()
    for part in (str(sim), design, str(MAX_CYCLES), loaded_bytes(elf)):
        h.update(part.encode() + b"\0")
    return h.hexdigest()[:16]


STAMPED = INPUTS + ("scripts",)


def stamp(argv, ran, cached, seconds, rev):
    """The line that says what made the matrix (`rev`: inputs_rev(STAMPED)
    when it began)."""
    named = f' MUTANTS="{" ".join(argv)}"' if argv else ""
    return results_stamp(f"make mutants{named}", STAMPED,
                         f": {ran} cells ran ({seconds / 60:.0f} min), {cached} from the cache", rev=rev)


def cell_job(sim, design, prog, elf):
    """The sweep job of one program on one design."""
    knob = () if design == "none" else (f"+mutant={design}",)
    return sweep.Job(f"{design}-{prog}", (sweep.File(str(sim)), *knob, f"+max-cycles={MAX_CYCLES}",
                                          sweep.File(str(elf))), timeout=WALL_SECONDS)


def run_cells(cells, sim, elfs, logs, opts):
    """Writes each (design, program) cell's log to `logs` (first line
    'status N'), from the cache where it has the cell, the rest run as
    sweep jobs. Returns how many ran and how many came from the cache."""
    todo = []
    for design, prog in cells:
        cached = CELLS / f"{design}-{prog}-{cell_key(sim, design, elfs[prog])}.log"
        if cached.exists():
            (logs / f"{design}-{prog}.log").write_bytes(cached.read_bytes())
        else:
            todo.append((design, prog, cached, cell_job(sim, design, prog, elfs[prog])))
    if todo:
        results = sweep.run([job for *_, job in todo], SWEEP_RESULTS, opts)
        for design, prog, cached, job in todo:
            r = results[job.key()]
            text = f"status {r['status']}\n{r['stdout']}{r['stderr']}"
            (logs / f"{design}-{prog}.log").write_text(text)
            if r["status"] is None:  # a wall-clock timeout may be the machine's, not the design's: run it again
                continue
            CELLS.mkdir(parents=True, exist_ok=True)
            tmp = cached.with_suffix(f".tmp{os.getpid()}")
            tmp.write_text(text)
            tmp.replace(cached)
    return len(todo), len(cells) - len(todo)


def read_log(path):
    head, _, text = path.read_text(errors="replace").partition("\n")
    status = head.removeprefix("status ")
    return (None if status == "None" else int(status)), text


def main(args):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mutants", nargs="*", metavar="MUTANT", help="the knobs to run (default: all)")
    sweep.add_cluster_options(ap)
    opts = ap.parse_args(args)
    argv = opts.mutants
    mutants, aids = sorted(shootdown_regs.MUTANTS), sorted(shootdown_regs.AIDS)
    unknown = [m for m in argv if m not in mutants]
    if unknown:
        raise SystemExit(f"mutants: unknown mutant {', '.join(unknown)} (known: {', '.join(mutants)})")
    designs = ["none", *(argv or mutants), *aids]
    order = ["none", *mutants, *aids]
    logs = RESULTS / "mutants"
    logs.mkdir(parents=True, exist_ok=True)
    elfs, sim = programs(), model(2, "checked")
    print(f"==> running {' '.join(PROGRAMS)} on {len(designs)} designs through scripts/sweep.py", file=sys.stderr)
    started, rev = time.monotonic(), inputs_rev(STAMPED)
    # The longest programs first, so that no worker idles at the end.
    ran, from_cache = run_cells([(d, p) for p in ("litmus", "sbi", "storm", "l2race", "cases") for d in designs],
                                sim, elfs, logs, opts)

    csv_path = RESULTS / "mutants.csv"
    header = ["mutant", *(f"{p}-{col}" for p in PROGRAMS for col in ("checks", "sb")), "verdict"]
    rows = {}
    if csv_path.exists():
        with open(csv_path) as f:
            old = list(csv.reader(f))
        if old and old[0] == header:
            rows = {r[0]: r for r in old[1:]}
    problems = []
    for d in designs:
        cells = [verdict(*read_log(logs / f"{d}-{p}.log"), p) for p in PROGRAMS]
        control = d == "none" or d in aids
        why = judge_row(cells, control)
        rows[d] = [d, *(c for pair in cells for c in pair), why or ("clean" if control else "killed")]
        if why:
            problems.append(f"{d}: {why}")
    with open(csv_path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows[d] for d in order if d in rows)
    md = ["# The kill matrix", "", stamp(argv, ran, from_cache, time.monotonic() - started, rev), ""]
    md += tables.markdown(["mutant", *(f"{p}: {what}" for p in PROGRAMS for what in ("checks", "scoreboard")), "verdict"],
                          [rows[d] for d in order if d in rows])
    (RESULTS / "mutants.md").write_text("\n".join(md) + "\n")
    print("\n".join(md))
    if problems:
        print("mutants: " + "; ".join(problems), file=sys.stderr)
        return 1
    print(f"mutants: all {len(designs) - 1 - len(aids)} killed, the controls clean (logs in {logs})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
