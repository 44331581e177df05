#!/usr/bin/env python3
"""sim_speed_table.py SIM-SPEED.csv : the table make bench-sim prints, each
model's speed beside the naive model's of the same SoC; also as
SIM-SPEED.md, stamped."""
import pathlib
import sys

from results import tables
from results.stamp import stamp


def main(path):
    rows = tables.read_csv(path)
    naive = {r["harts"]: float(r["khz"]) for r in rows if r["build"] == "naive"}
    text = tables.text(["build", "harts", "cycles", "seconds", "kHz", "vs naive"],
                       [[r["build"], r["harts"], r["cycles"], f"{float(r['seconds']):.2f}", f"{float(r['khz']):.1f}",
                         f"{float(r['khz']) / naive[r['harts']]:.1f}x"] for r in rows])
    print(text)
    md = pathlib.Path(path).with_suffix(".md")
    tables.write_fragment(md, "Simulation speed of the model flavours", stamp("make bench-sim", extra="; one run"),
                          tables.code(text))
    print(f"written: {path} and {md}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip())
    main(sys.argv[1])
