#!/usr/bin/env python3
"""utilisation.py synth STAT TOP ecp5|xilinx
utilisation.py nextpnr REPORT.json SEED MHZ

synth: a yosys `stat` of a synthesised board top against what the board's
FPGA has (the LFE5U-85F of the ULX3S, the XC7A100T of the Arty A7-100T),
LUTs counted as fpga/synth_blocks.py counts them. Before place and route:
an estimate.

nextpnr: what nextpnr-ecp5's --report says was placed and routed (every
resource in use) and each clock's fmax against its constraint; exits 1 if a
clock misses its constraint."""
import json
import sys

import synth_blocks

# name, what the device has, the cells that use it (with weights)
DEVICES = {
    "ecp5": ("LFE5U-85F", [("LUT4s (carries, LUT RAM as LUTs)", 83640, "luts"), ("flip-flops", 83640, "ffs"),
                           ("DP16KD block RAMs (18 Kb)", 208, {"DP16KD": 1}),
                           ("MULT18X18D multipliers", 156, {"MULT18X18D": 1})]),
    "xilinx": ("XC7A100T", [("LUT6s (LUT RAM, shift registers as LUTs)", 63400, "luts"), ("flip-flops", 126800, "ffs"),
                            ("block RAMs (36 Kb; two RAMB18 as one)", 135, {"RAMB36E1": 1, "RAMB18E1": 0.5}),
                            ("DSP48E1", 240, {"DSP48E1": 1})]),
}


def synth(stat, top, family):
    # The top and the modules synthesis kept apart (fpga/build.sh keeps main
    # memory's AXI4RAM whole), each instantiated once.
    modules = synth_blocks.parse_stat(open(stat).read())
    if top not in modules:
        sys.exit(f"utilisation.py: no module {top} in {stat}")
    cells = {}
    for m in modules.values():
        for c, n in m.items():
            cells[c] = cells.get(c, 0) + n
    f = synth_blocks.figures(family, cells)
    name, rows = DEVICES[family]
    print(f"{top} on the {name} (yosys, before place and route)")
    for what, have, use in rows:
        used = f[use] if isinstance(use, str) else sum(w * cells.get(c, 0) for c, w in use.items())
        print(f"  {what:<42} {used:>8g} of {have:>6} ({100 * used / have:.0f}%)")


def nextpnr(report, seed, mhz):
    r = json.load(open(report))
    print(f"placed and routed on the LFE5U-85F-6 (nextpnr-ecp5, seed {seed}, constraint {mhz} MHz)")
    for what, u in sorted(r["utilization"].items()):
        if u["used"]:
            print(f"  {what:<42} {u['used']:>8} of {u['available']:>6} ({100 * u['used'] / u['available']:.0f}%)")
    missed = 0
    for clock, f in sorted(r["fmax"].items()):
        ok = f["achieved"] >= f["constraint"]
        missed += not ok
        print(f"  fmax {clock}: {f['achieved']:.2f} MHz ({'meets' if ok else 'MISSES'} {f['constraint']:g} MHz)")
    return 1 if missed or not r["fmax"] else 0


if __name__ == "__main__":
    a = sys.argv[1:]
    if len(a) == 4 and a[0] == "synth" and a[3] in DEVICES:
        synth(*a[1:])
    elif len(a) == 4 and a[0] == "nextpnr":
        sys.exit(nextpnr(*a[1:]))
    else:
        sys.exit(__doc__.strip())
