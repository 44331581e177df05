#!/usr/bin/env python3
"""sim_speed_table.py SIM-SPEED.csv : the table make bench-sim prints, each
model's speed beside the naive model's of the same SoC."""
import csv
import sys


def main(path):
    rows = list(csv.DictReader(open(path)))
    naive = {r["harts"]: float(r["khz"]) for r in rows if r["build"] == "naive"}
    print(f"{'build':<7}{'harts':>6}{'cycles':>10}{'seconds':>9}{'kHz':>8}{'vs naive':>10}")
    for r in rows:
        ratio = float(r["khz"]) / naive[r["harts"]]
        print(f"{r['build']:<7}{r['harts']:>6}{r['cycles']:>10}{float(r['seconds']):>9.2f}"
              f"{float(r['khz']):>8.1f}{ratio:>9.1f}x")
    print(f"written: {path}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip())
    main(sys.argv[1])
