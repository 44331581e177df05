#!/usr/bin/env python3
"""area_table.py AREA.csv : LUTs and flip-flops of the 2-hart SoC without and
with the shootdown unit, side by side (what scripts/area.sh measured)."""
import csv
import sys


def main(path):
    rows = {r["design"]: r for r in csv.DictReader(open(path))}
    b, u = rows["soc-2hart-without-unit"], rows["soc-2hart-with-unit"]
    for k in ("luts", "ffs"):
        print(f"{k:>5}: without {int(b[k]):>7}  with {int(u[k]):>7}  (+{100 * (int(u[k]) / int(b[k]) - 1):.2f}%)")
    print(f"(written to {path})")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip())
    main(sys.argv[1])
