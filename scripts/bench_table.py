"""Turns bench_shootdown's BENCH and CEIL lines into CSV files, a table on
stdout and the same table stamped as a Markdown fragment beside the CSV
(what `make results` publishes).

  bench_table.py RAW OUT.csv            software path vs the unit (make bench)
  bench_table.py --ceiling RAW OUT.csv  page by page vs one full flush (make bench)
  bench_table.py --scaling RAW OUT_DIR  cost against the number of targets
                                        (make bench-scaling: OUT_DIR/scaling.csv,
                                        .md and .png)"""
import pathlib
import re
import sys

from results import tables
from results.stamp import stamp

FIELDS = ["path", "harts", "targets", "entries", "initiator_cycles", "stolen_cycles_per_target", "target_traps"]


def lines(raw, tag):
    """The key=value pairs of RAW's lines that start with `tag`, as dicts."""
    found = [dict(re.findall(r"(\w+)=(\S+)", line)) for line in open(raw) if line.startswith(tag + " ")]
    if not found:
        sys.exit(f"bench_table: no {tag} lines in {raw}")
    return found


def publish(out_csv, rows, fields, title, command, table, note=()):
    """The CSV, the table on stdout and the stamped fragment OUT.md."""
    out_csv = pathlib.Path(out_csv)
    tables.write_csv(out_csv, rows, fields)
    print(table)
    for line in note:
        print(line)
    md = out_csv.with_suffix(".md")
    tables.write_fragment(md, title, stamp(command, extra="; one run"), [*tables.code(table), "", *note])
    print(f"(written to {out_csv} and {md})")


def ratio(a, b):
    a, b = int(a), int(b)
    return f"{a / b:.1f}x" if b else "inf"


def main(raw, out):
    rows = [{k: kv[k] for k in FIELDS} for kv in lines(raw, "BENCH")]
    key = lambda r: (int(r["harts"]), int(r["targets"]), int(r["entries"]))
    hw = {key(r): r for r in rows if r["path"] == "hw"}
    body = []
    for k, s in sorted((key(r), r) for r in rows if r["path"] == "sw"):
        h = hw.get(k)
        if h:
            body.append([*k, s["initiator_cycles"], h["initiator_cycles"],
                         ratio(s["initiator_cycles"], h["initiator_cycles"]),
                         s["stolen_cycles_per_target"], h["stolen_cycles_per_target"],
                         ratio(s["stolen_cycles_per_target"], h["stolen_cycles_per_target"]),
                         s["target_traps"], h["target_traps"]])
    head = ["harts", "targets", "entries", "initiator: software", "unit", "ratio",
            "stolen/target: software", "unit", "ratio", "traps: software", "unit"]
    publish(out, rows, FIELDS, "The unit against a software shootdown (bench_shootdown.c)", "make bench",
            tables.text(head, body),
            ["Initiator cycles until hart 0 sees completion, cycles stolen from each target and the traps "
             "each took; median of 3, M-mode, warm."])


def ceiling(raw, out):
    """CEIL lines: cost of flushing N pages page by page vs one full flush."""
    pts = {}
    for kv in lines(raw, "CEIL"):
        pts.setdefault(int(kv["entries"]), {})[kv["path"]] = (int(kv["initiator_cycles"]), int(kv["stolen_cycles"]))
    rows, body, crossover = [], [], None
    for n in sorted(pts):
        for path, (i, s) in sorted(pts[n].items()):
            rows.append({"entries": n, "path": path, "initiator_cycles": i, "stolen_cycles": s,
                         "total_cycles": i + s})
        (pi, ps), (fi, fs) = pts[n]["per-page"], pts[n]["full"]
        better = "page by page" if pi + ps <= fi + fs else "full flush"
        if better == "full flush" and crossover is None:
            crossover = n
        body.append([n, pi, ps, pi + ps, fi, fs, fi + fs, better])
    head = ["pages", "page by page: initiator", "stolen", "total", "full flush: initiator", "stolen", "total",
            "cheaper"]
    publish(out, rows, ["entries", "path", "initiator_cycles", "stolen_cycles", "total_cycles"],
            "Page by page against one full flush (bench_ceiling)", "make bench", tables.text(head, body),
            [f"First size where one full flush is cheaper: {crossover} pages."])


def scaling(raw, out_dir):
    """Initiator latency and stolen cycles against 1, 3, 7 targets."""
    out = pathlib.Path(out_dir)
    rows = [{k: kv[k] for k in FIELDS} for kv in lines(raw, "BENCH")]
    pts = {}  # (path, entries) -> {targets: (initiator, stolen)}
    for r in rows:
        pts.setdefault((r["path"], int(r["entries"])), {})[int(r["targets"])] = (
            int(r["initiator_cycles"]), int(r["stolen_cycles_per_target"]))
    targets = sorted({t for p in pts.values() for t in p})
    body = []
    for (path, n), p in sorted(pts.items(), key=lambda kv: (kv[0][1], kv[0][0] != "sw")):
        ts = [t for t in targets if t in p]
        body.append(["software" if path == "sw" else "unit", n, *(p[t][0] for t in ts),
                     f"{p[ts[-1]][0] / p[ts[0]][0]:.2f}x", *(p[t][1] for t in ts)])
    head = ["path", "pages", *(f"initiator: {t} tgt" for t in targets), "growth",
            *(f"stolen/target: {t} tgt" for t in targets)]
    publish(out / "scaling.csv", rows, FIELDS, "Cost against the number of targets (8-hart SoC)",
            "make bench-scaling", tables.text(head, body),
            [f"Growth: initiator latency with {targets[-1]} targets over 1 target."])
    plot_scaling(pts, targets, out / "scaling.png")
    print(f"(and {out / 'scaling.png'})")


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
    if len(sys.argv) != 4 and not (len(sys.argv) == 3 and not sys.argv[1].startswith("--")):
        sys.exit(__doc__.strip())
    if sys.argv[1] == "--ceiling":
        ceiling(*sys.argv[2:4])
    elif sys.argv[1] == "--scaling":
        scaling(*sys.argv[2:4])
    else:
        main(*sys.argv[1:3])
