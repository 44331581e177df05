#!/usr/bin/env python3
"""utilisation.py STAT TOP ecp5|xilinx : a yosys `stat` of a synthesised
board top against what the board's FPGA has (the LFE5U-85F of the ULX3S, the
XC7A100T of the Arty A7-100T), LUTs counted as fpga/synth_blocks.py counts
them. Before place and route: an estimate."""
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


def main(stat, top, family):
    cells = synth_blocks.parse_stat(open(stat).read())[top]
    f = synth_blocks.figures(family, cells)
    name, rows = DEVICES[family]
    print(f"{top} on the {name} (yosys, before place and route)")
    for what, have, use in rows:
        used = f[use] if isinstance(use, str) else sum(w * cells.get(c, 0) for c, w in use.items())
        print(f"  {what:<42} {used:>8g} of {have:>6} ({100 * used / have:.0f}%)")


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[3] not in DEVICES:
        sys.exit(__doc__.strip())
    main(*sys.argv[1:])
