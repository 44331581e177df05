#!/usr/bin/env python3
"""area_table.py AREA.csv : LUTs and flip-flops of the 2-hart SoC without and
with the shootdown unit, side by side (what scripts/area.sh measured), also as AREA.md, stamped."""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from results import tables  # noqa: E402
from results.stamp import stamp  # noqa: E402


def main(path):
    rows = {r["design"]: r for r in tables.read_csv(path)}
    b, u = rows["soc-2hart-without-unit"], rows["soc-2hart-with-unit"]
    text = tables.text(["", "without", "with", "growth"],
                       [[k, b[k], u[k], f"+{100 * (int(u[k]) / int(b[k]) - 1):.2f}%"] for k in ("luts", "ffs")])
    print(text)
    md = pathlib.Path(path).with_suffix(".md")
    tables.write_fragment(md, "Area: the 2-hart SoC without and with the unit (yosys synth_xilinx)",
                          stamp("make bench"), tables.code(text))
    print(f"(written to {path} and {md})")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip())
    main(sys.argv[1])
