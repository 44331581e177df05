"""Turns bench_shootdown's BENCH lines into build/results/shootdown.csv and a
side-by-side table (software path vs the unit) on stdout.

  bench_table.py RAW OUT.csv            the table
  bench_table.py --ceiling RAW OUT.csv  bench_ceiling's crossover
  bench_table.py --scaling RAW OUT_DIR  cost against the number of targets
                                        (OUT_DIR/scaling.csv and scaling.png)"""
import csv
import re
import sys

FIELDS = ["path", "harts", "targets", "entries", "initiator_cycles", "stolen_cycles_per_target", "target_traps"]


def bench_rows(raw, out):
    """The BENCH lines of RAW, also written to the CSV file OUT."""
    rows = []
    for line in open(raw):
        if line.startswith("BENCH "):
            kv = dict(re.findall(r"(\w+)=(\S+)", line))
            rows.append({k: kv[k] for k in FIELDS})
    if not rows:
        sys.exit(f"bench_table: no BENCH lines in {raw}")
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, FIELDS)
        w.writeheader()
        w.writerows(rows)
    return rows


def main(raw, out):
    rows = bench_rows(raw, out)
    key = lambda r: (int(r["harts"]), int(r["targets"]), int(r["entries"]))
    sw = {key(r): r for r in rows if r["path"] == "sw"}
    hw = {key(r): r for r in rows if r["path"] == "hw"}
    print(f"{'harts':>5} {'targets':>7} {'entries':>7} | {'initiator cycles':^24} | "
          f"{'stolen cycles / target':^24} | {'traps / target':^14}")
    print(f"{'':>5} {'':>7} {'':>7} | {'software':>8} {'unit':>6} {'ratio':>8} | "
          f"{'software':>8} {'unit':>6} {'ratio':>8} | {'sw':>6} {'unit':>6}")
    for k in sorted(sw):
        s, h = sw[k], hw.get(k)
        if h is None:
            continue
        def ratio(a, b):
            a, b = int(a), int(b)
            return f"{a / b:.1f}x" if b else "inf"
        print(f"{k[0]:>5} {k[1]:>7} {k[2]:>7} | {s['initiator_cycles']:>8} {h['initiator_cycles']:>6} "
              f"{ratio(s['initiator_cycles'], h['initiator_cycles']):>8} | {s['stolen_cycles_per_target']:>8} "
              f"{h['stolen_cycles_per_target']:>6} {ratio(s['stolen_cycles_per_target'], h['stolen_cycles_per_target']):>8} | "
              f"{s['target_traps']:>6} {h['target_traps']:>6}")
    print(f"(written to {out})")


def ceiling(raw, out):
    """CEIL lines: cost of flushing N pages page by page vs one full flush."""
    pts = {}
    for line in open(raw):
        if line.startswith("CEIL "):
            kv = dict(re.findall(r"(\w+)=(\S+)", line))
            pts.setdefault(int(kv["entries"]), {})[kv["path"]] = (int(kv["initiator_cycles"]), int(kv["stolen_cycles"]))
    if not pts:
        sys.exit(f"bench_table: no CEIL lines in {raw}")
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["entries", "path", "initiator_cycles", "stolen_cycles", "total_cycles"])
        for n in sorted(pts):
            for path, (i, s) in sorted(pts[n].items()):
                w.writerow([n, path, i, s, i + s])
    print(f"{'pages':>6} | {'page by page':^22} | {'full flush':^22} | cheaper")
    print(f"{'':>6} | {'initiator':>9} {'stolen':>6} {'total':>5} | {'initiator':>9} {'stolen':>6} {'total':>5} |")
    crossover = None
    for n in sorted(pts):
        (pi, ps), (fi, fs) = pts[n]["per-page"], pts[n]["full"]
        better = "page by page" if pi + ps <= fi + fs else "full flush"
        if better == "full flush" and crossover is None:
            crossover = n
        print(f"{n:>6} | {pi:>9} {ps:>6} {pi + ps:>5} | {fi:>9} {fs:>6} {fi + fs:>5} | {better}")
    print(f"first size where one full flush is cheaper: {crossover} pages (written to {out})")


def scaling(raw, out_dir):
    """Initiator latency and stolen cycles against 1, 3, 7 targets."""
    import pathlib
    out = pathlib.Path(out_dir)
    rows = bench_rows(raw, out / "scaling.csv")
    pts = {}  # (path, entries) -> {targets: (initiator, stolen)}
    for r in rows:
        pts.setdefault((r["path"], int(r["entries"])), {})[int(r["targets"])] = (
            int(r["initiator_cycles"]), int(r["stolen_cycles_per_target"]))
    targets = sorted({t for p in pts.values() for t in p})
    print(f"{'path':>8} {'pages':>5} | " + " ".join(f"{f'{t} tgt':>7}" for t in targets) +
          f" | {'growth':>6} | stolen/target: " + " ".join(f"{f'{t} tgt':>7}" for t in targets))
    for (path, n), p in sorted(pts.items(), key=lambda kv: (int(kv[0][1]), kv[0][0] != "sw")):
        lat = [p[t][0] for t in targets if t in p]
        name = "software" if path == "sw" else "unit"
        print(f"{name:>8} {n:>5} | " + " ".join(f"{v:>7}" for v in lat) +
              f" | {lat[-1] / lat[0]:>5.2f}x | " + " ".join(f"{p[t][1]:>7}" for t in targets if t in p))
    print(f"growth: initiator latency with {targets[-1]} targets over 1 target")
    plot_scaling(pts, targets, out / "scaling.png")
    print(f"(written to {out / 'scaling.csv'} and {out / 'scaling.png'})")


def plot_scaling(pts, targets, png):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (lat, stolen) = plt.subplots(1, 2, figsize=(11, 4.2))
    for (path, n), p in sorted(pts.items()):
        ts = [t for t in targets if t in p]
        style = dict(marker="o" if path == "sw" else "s", linestyle="--" if path == "sw" else "-",
                     label=f"{'IPIs + sfence.vma' if path == 'sw' else 'unit'}, {n} pages")
        lat.plot(ts, [p[t][0] for t in ts], **style)
        stolen.plot(ts, [p[t][1] for t in ts], **style)
    for ax, title in ((lat, "initiator latency (cycles)"), (stolen, "cycles stolen per target")):
        ax.set_xlabel("targets (8-hart SoC, M-mode)")
        ax.set_xticks(targets)
        ax.set_yscale("symlog", linthresh=10)  # the unit steals 0 cycles at some points
        ax.set_ylim(bottom=0)
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
    lat.legend(fontsize=7)
    fig.suptitle("bench_shootdown.c, one run")
    fig.tight_layout()
    fig.savefig(png, dpi=120)


if __name__ == "__main__":
    if sys.argv[1] == "--ceiling":
        ceiling(*sys.argv[2:4])
    elif sys.argv[1] == "--scaling":
        scaling(*sys.argv[2:4])
    else:
        main(*sys.argv[1:3])
