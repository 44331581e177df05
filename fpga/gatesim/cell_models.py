#!/usr/bin/env python3
"""cell_models.py CELLS_SIM.V DIR : puts yosys's ECP5 cell models into DIR
for a gate-level simulation: cells_sim.v less the block RAM's black box
(DP16KD: fpga/gatesim/ecp5_models.v models it) and the headers it
includes. fpga/gatesim/build.sh and check_models.py both use it."""
import pathlib
import shutil
import sys


def install(cells_sim, into):
    cells_sim, into = pathlib.Path(cells_sim), pathlib.Path(into)
    cells = cells_sim.read_text()
    start = cells.index("(* blackbox *)\nmodule DP16KD(")
    (into / "cells_sim.v").write_text(cells[:start] + cells[cells.index("endmodule", start) + len("endmodule"):])
    for vh in cells_sim.parent.glob("*.vh"):
        shutil.copy(vh, into)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: cell_models.py CELLS_SIM.V DIR")
    install(*sys.argv[1:])
