#!/usr/bin/env python3
"""mutants.py [MUTANT...] : the kill matrix. Runs the suite on the 2-hart tuned
model once per debug knob (every one unless named; the model has them all,
`+mutant=NAME` turns one on), once on the real design (row "none", the
control) and once per test aid (controls too: an aid breaks no rule), two
runs at a time, and writes the matrix to build/results/mutants.md and .csv:
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

The knobs come from the generated tests/models/shootdown_regs.py (MUTANTS,
AIDS), which GenShootdownHeaders writes from hw/devices/Mutants.scala.
"""
import concurrent.futures
import csv
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests/models"), str(ROOT / "tests/litmus")]
from harness import BUILD, firmware, model, program  # noqa: E402
from judge import judge, parse, skip_reason_ok, tests as litmus_tests  # noqa: E402
import shootdown_regs  # noqa: E402

PROGRAMS = ("cases", "l2race", "litmus", "sbi", "storm")
FAIL_STATUS = 1           # what every program of the suite ends with when its checks fail
UNTRACED_STATUS = 72      # sim: the scoreboard could not trace the run (and the program passed)
HANG_STATUS = 124         # sim: +max-cycles reached
MAX_CYCLES = 400_000_000
WALL_SECONDS = 4 * 3600
SCOREBOARD = re.compile(r"^\[sim\] scoreboard: .*?(\d+) unexplained, (\d+) violations$", re.M)
RESULTS = BUILD / "results"


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


def run_one(sim, design, prog, elf, logs):
    """Runs one program on one design; its log starts with 'status N'."""
    knob = [] if design == "none" else [f"+mutant={design}"]
    try:
        p = subprocess.run([sim, *knob, f"+max-cycles={MAX_CYCLES}", str(elf)], capture_output=True, text=True,
                           timeout=WALL_SECONDS, stdin=subprocess.DEVNULL)
        status, text = p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired as e:
        status, text = None, (e.stdout or b"").decode(errors="replace") + (e.stderr or b"").decode(errors="replace")
    (logs / f"{design}-{prog}.log").write_text(f"status {status}\n{text}")
    return design, prog, status, text


def read_log(path):
    head, _, text = path.read_text(errors="replace").partition("\n")
    status = head.removeprefix("status ")
    return (None if status == "None" else int(status)), text


def main(argv):
    mutants, aids = sorted(shootdown_regs.MUTANTS), sorted(shootdown_regs.AIDS)
    unknown = [m for m in argv if m not in mutants]
    if unknown:
        raise SystemExit(f"mutants: unknown mutant {', '.join(unknown)} (known: {', '.join(mutants)})")
    designs = ["none", *(argv or mutants), *aids]
    order = ["none", *mutants, *aids]
    logs = RESULTS / "mutants"
    logs.mkdir(parents=True, exist_ok=True)
    elfs, sim = programs(), model(2, "tuned")
    print(f"==> running {' '.join(PROGRAMS)} on {len(designs)} designs, two at a time", file=sys.stderr)
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        # The longest programs first, so that no core idles at the end.
        jobs = [pool.submit(run_one, sim, d, p, elfs[p], logs)
                for p in ("litmus", "sbi", "storm", "l2race", "cases") for d in designs]
        for job in concurrent.futures.as_completed(jobs):
            d, p, status, _ = job.result()
            print(f"    {d} {p}: status {status}", file=sys.stderr)

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
    md = ["| mutant | " + " | ".join(f"{p}: checks | {p}: scoreboard" for p in PROGRAMS) + " | verdict |",
          "|---|" + "---|---|" * len(PROGRAMS) + "---|"]
    md += ["| " + " | ".join(rows[d]) + " |" for d in order if d in rows]
    (RESULTS / "mutants.md").write_text("\n".join(md) + "\n")
    print("\n".join(md))
    if problems:
        print("mutants: " + "; ".join(problems), file=sys.stderr)
        return 1
    print(f"mutants: all {len(designs) - 1 - len(aids)} killed, the controls clean (logs in {logs})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
