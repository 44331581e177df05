#!/usr/bin/env python3
"""goals_table.py RESULTS_DIR COMMAND : unit v2's goals (issue 13) against what the
last `make demo` and `make bench` measured (RESULTS_DIR/demo.csv,
shootdown.csv, throughput.txt, area.csv). Every row: the number before v2
(4-hart SoC, 32 pages, 3 targets, from the demo and bench runs of unit v1),
now, the goal, and whether it is met; a row whose run is missing says which
target makes it. Also written, stamped with COMMAND (the make target that
ran it), to RESULTS_DIR/goals.md. A benchmark report, not a test: exits 0
either way."""
import pathlib
import re
import sys

from results import tables
from results.stamp import stamp

# (what, before v2, goal); lower is better except where HIGHER_IS_BETTER says
GOALS = [
    ("(c) RFENCE by the unit, cycles", 2453, 1200),
    ("(d) batched SBI, cycles", 2367, 1200),
    ("(e) direct from S-mode, cycles", 825, 400),
    ("unit vs lean software path (M-mode bench), x", 5.8, 8.0),
    ("stolen cycles per target (M-mode bench)", 53, 48),
    ("area, 2-hart SoC: LUTs, % over no unit", 3.9, 3.0),
    ("area, 2-hart SoC: flip-flops, % over no unit", 5.1, 3.0),
    ("back-to-back, 4 initiators x 8 pages, cycles/request", 66, 33),
]
HIGHER_IS_BETTER = {"unit vs lean software path (M-mode bench), x"}


def rows(path):
    return tables.read_csv(path) if path.exists() else None


def measured(results):
    """{label: value or None, ...} and {label: which target makes it}."""
    got, source = {}, {}
    demo = rows(results / "demo.csv")
    for path, label in (("c", GOALS[0][0]), ("d", GOALS[1][0]), ("e", GOALS[2][0])):
        source[label] = "make demo"
        pick = [r for r in demo or [] if r["path"] == path and r["harts"] == "4" and r["targets"] == "3"
                and r["batch"] == "32"]
        got[label] = int(pick[0]["latency_cycles"]) if pick else None
    bench = rows(results / "shootdown.csv")
    pick = {r["path"]: r for r in bench or []
            if r["harts"] == "4" and r["targets"] == "3" and r["entries"] == "32"}
    for label in (GOALS[3][0], GOALS[4][0]):
        source[label] = "make bench"
        got[label] = None
    if "sw" in pick and "hw" in pick:
        got[GOALS[3][0]] = round(int(pick["sw"]["initiator_cycles"]) / int(pick["hw"]["initiator_cycles"]), 1)
        got[GOALS[4][0]] = int(pick["hw"]["stolen_cycles_per_target"])
    area = {r["design"]: r for r in rows(results / "area.csv") or []}
    for label, key in ((GOALS[5][0], "luts"), (GOALS[6][0], "ffs")):
        source[label] = "make bench"
        got[label] = None
        if {"soc-2hart-without-unit", "soc-2hart-with-unit"} <= area.keys():
            b, u = int(area["soc-2hart-without-unit"][key]), int(area["soc-2hart-with-unit"][key])
            got[label] = round(100 * (u / b - 1), 1)
    label = GOALS[7][0]
    source[label] = "make bench"
    got[label] = None
    tp = results / "throughput.txt"
    if tp.exists():
        m = re.search(r"path=throughput-list .*cycles_per_request=(\d+)", tp.read_text())
        got[label] = int(m.group(1)) if m else None
    return got, source


def main(results, command):
    results = pathlib.Path(results)
    got, source = measured(results)
    out = []
    for label, before, goal in GOALS:
        now = got[label]
        if now is None:
            out.append([label, before, "-", goal, f"(run {source[label]})"])
            continue
        met = now >= goal if label in HIGHER_IS_BETTER else now <= goal
        out.append([label, before, now, goal, "yes" if met else "no"])
    text = tables.text(["unit v2 goal (4-hart SoC, 32 pages, 3 targets)", "v1", "now", "goal", "met"], out,
                       align="lrrrl")
    print(text)
    tables.write_fragment(results / "goals.md", "Unit v2's goals", stamp(command, extra=(
        "; from the last make demo and make bench runs in the same results directory")), tables.code(text))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip())
    main(*sys.argv[1:])
