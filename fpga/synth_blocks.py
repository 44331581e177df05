#!/usr/bin/env python3
"""synth_blocks.py VERILOG_DIR [--check BUDGET.json] [--csv OUT.csv] [--breakdown]

Synthesises the shootdown unit and one flush agent, as the 2-hart SoC
elaborates them (VERILOG_DIR: `VERILOG_ONLY=1 scripts/build-model.sh 2
checked`), with yosys for Lattice ECP5 (synth_ecp5, LUT4) and Xilinx 7-series
(synth_xilinx, LUT6), and prints LUTs and flip-flops per block and family.

--check BUDGET.json  exit 1 if a block grew more than 10% over its committed
                     figure, or if synthesis inferred a latch anywhere in it
--csv OUT.csv        also write the figures
--breakdown          the unit's submodules too (not flattened), Xilinx only

LUTs are counted as the vendors' utilisation reports count them: on ECP5 a
CCU2C (carry) is two LUT4s and a TRELLIS_DPR16X4 (distributed RAM) four; on
Xilinx a RAM32M/RAM64M is four LUTs, a RAM32X1D/RAM64X1D two, a shift
register one (as scripts/area.sh counts the whole SoC).
"""
import argparse
import csv
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

BLOCKS = {"unit": "ShootdownUnit", "agent": "FlushAgent"}
FAMILIES = {"ecp5": "synth_ecp5 -top {top}", "xilinx": "synth_xilinx -top {top} -flatten"}
GROWTH = 0.10  # a block may grow this much over its budget
LUT_WEIGHTS = {
    "ecp5": {"LUT4": 1, "CCU2C": 2, "TRELLIS_DPR16X4": 4},
    "xilinx": {**{f"LUT{i}": 1 for i in range(1, 7)}, "RAM32M": 4, "RAM64M": 4, "RAM32X1D": 2, "RAM64X1D": 2,
               "SRL16E": 1, "SRLC32E": 1},
}
FF_CELLS = {"ecp5": re.compile(r"TRELLIS_FF$"), "xilinx": re.compile(r"FD[CPRS]E?$")}


def parse_stat(text):
    """Per module: {cell type: count}, from yosys `stat` output, as yosys
    0.23 (Debian: "LUT4 123") and 0.70 (PyPI: "123 LUT4") print it."""
    modules, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"=== (.+) ===$", line.strip())
        if m:
            # "design hierarchy" (totals over submodules) is not a module
            cur = None if " " in m.group(1) else modules.setdefault(m.group(1), {})
            continue
        if cur is None:
            continue
        old = re.match(r"\s+([A-Za-z_$]\S*)\s+(\d+)$", line)
        new = re.match(r"\s+(\d+)\s+([A-Za-z_$]\S*)$", line)
        if old and not old.group(1).startswith("Number"):
            cur[old.group(1)] = int(old.group(2))
        elif new:
            cur[new.group(2)] = int(new.group(1))
    return modules


def figures(family, cells):
    luts = sum(w * cells.get(c, 0) for c, w in LUT_WEIGHTS[family].items())
    ffs = sum(n for c, n in cells.items() if FF_CELLS[family].match(c))
    return {"luts": luts, "ffs": ffs}


def yosys(script, log):
    r = subprocess.run(["yosys", "-q", "-l", str(log), "-p", script], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"synth_blocks: yosys failed (log: {log}):\n{r.stderr[-2000:]}")


def verilog_files(vdir):
    files = sorted(Path(vdir).glob("*.v"))
    if not any(f.name == "SimTop.v" for f in files):
        sys.exit(f"synth_blocks: {vdir} has no SimTop.v (give the directory an elaboration wrote)")
    return " ".join(str(f) for f in files)


def synthesise(vdir, work, breakdown):
    """{(family, block): figures}, the latches found, and the breakdown text."""
    stats, script = {}, [f"read_verilog -DSYNTHESIS {verilog_files(vdir)}", "design -save soc"]
    for block, top in BLOCKS.items():
        # Latches: what proc infers from the block's processes, before any
        # technology mapping could hide them.
        script += ["design -load soc", f"hierarchy -top {top}", "proc", "flatten",
                   f"tee -q -o {work}/{block}-latches.txt select -list t:$dlatch t:$adlatch t:$dlatchsr t:$_DLATCH*"]
        for family, synth in FAMILIES.items():
            script += ["design -load soc", synth.format(top=top), f"tee -q -o {work}/{block}-{family}.stat stat"]
    if breakdown:
        script += ["design -load soc", f"synth_xilinx -top {BLOCKS['unit']}", f"tee -q -o {work}/breakdown.stat stat"]
    yosys("; ".join(script), work / "yosys.log")
    latches = {}
    for block in BLOCKS:
        found = [l for l in (work / f"{block}-latches.txt").read_text().split() if "$" in l or "/" in l]
        if found:
            latches[block] = found
        for family in FAMILIES:
            mods = parse_stat((work / f"{block}-{family}.stat").read_text())
            stats[(family, block)] = figures(family, mods[BLOCKS[block]])
    text = ""
    if breakdown:
        mods = parse_stat((work / "breakdown.stat").read_text())
        rows = sorted(((figures("xilinx", c), m) for m, c in mods.items()), key=lambda r: -r[0]["luts"])
        text = "\n".join(f"  {m:<40} {f['luts']:>6} LUTs {f['ffs']:>6} FFs" for f, m in rows if f["luts"] or f["ffs"])
    return stats, latches, text


def check(stats, latches, budget_path):
    budget = json.loads(Path(budget_path).read_text())
    problems = [f"{block}: synthesis inferred latches: {' '.join(l[:5])}" for block, l in latches.items()]
    for (family, block), got in sorted(stats.items()):
        want = budget.get(family, {}).get(block)
        if want is None:
            problems.append(f"{budget_path} has no {family} figures for {block}")
            continue
        for k in ("luts", "ffs"):
            if got[k] > want[k] * (1 + GROWTH):
                problems.append(f"{block} on {family}: {got[k]} {k}, over {int(GROWTH * 100)}% more than the "
                                f"committed {want[k]} ({budget_path})")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("verilog_dir")
    ap.add_argument("--check", metavar="BUDGET.json")
    ap.add_argument("--csv", metavar="OUT.csv")
    ap.add_argument("--breakdown", action="store_true")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="synth-blocks-") as tmp:
        stats, latches, text = synthesise(a.verilog_dir, Path(tmp), a.breakdown)
    for (family, block), f in sorted(stats.items()):
        print(f"{block:<6} {family:<7} {f['luts']:>6} LUTs {f['ffs']:>6} FFs")
    if text:
        print("the unit's modules, Xilinx, not flattened:\n" + text)
    if a.csv:
        with open(a.csv, "w", newline="") as out:
            w = csv.writer(out)
            w.writerow(["block", "family", "luts", "ffs"])
            for (family, block), f in sorted(stats.items()):
                w.writerow([block, family, f["luts"], f["ffs"]])
    if a.check:
        problems = check(stats, latches, a.check)
        for p in problems:
            print(f"synth_blocks: {p}", file=sys.stderr)
        sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
