#!/usr/bin/env python3
"""demo_table.py SOC_RAW QEMU_RAW OUT_DIR : the `make demo` table.

Reads the DEMO lines sw/baremetal/programs-sbi/shootdown_demo.c printed on
the Verilator SoC (SOC_RAW) and on QEMU (QEMU_RAW), prints one table per
SoC and target count in the style of seed 002 (batch size, latency of each
path, reduction against path (a) in %), then stolen cycles and traps per
target, and writes OUT_DIR/demo.csv and OUT_DIR/demo.png. QEMU's cycle
counts mean nothing; its run is a functional cross-check of paths (a) and
(b): this script fails if the trap counts there are not what the paths
promise (one IPI per page for (a), one per call for (b)).
"""
import pathlib
import re
import sys

from results import tables
from results.stamp import stamp

PATHS = {
    "a": "RFENCE per page, IPIs (stock OpenSBI)",
    "b": "RFENCE per range, IPIs (stock OpenSBI)",
    "c": "RFENCE by the unit",
    "d": "batched SBI extension",
    "e": "unit from S-mode",
}
FIELDS = ["path", "harts", "targets", "batch", "latency_cycles", "stolen_cycles", "target_traps"]
LINE = re.compile(r"^DEMO " + " ".join(f"{f}=(\\S+)" for f in FIELDS) + r"\s*$")


def parse(path):
    rows = []
    for line in pathlib.Path(path).read_text().splitlines():
        m = LINE.match(line.strip())
        if m:
            r = dict(zip(FIELDS, m.groups()))
            rows.append({k: (v if k == "path" else int(v)) for k, v in r.items()})
    return rows


def null_ecalls(path):
    text = pathlib.Path(path).read_text()
    return [(int(h), int(c)) for h, c in re.findall(r"^DEMO_NULL_ECALL harts=(\d+) cycles=(\d+)", text, re.M)]


def fail(msg):
    print(f"error: {msg}", file=sys.stderr)
    sys.exit(1)


def table(rows):
    configs = sorted({(r["harts"], r["targets"]) for r in rows})
    by = {(r["harts"], r["targets"], r["path"], r["batch"]): r for r in rows}
    out = []
    for harts, targets in configs:
        paths = [p for p in PATHS if any(k[:3] == (harts, targets, p) for k in by)]
        batches = sorted({k[3] for k in by if k[:2] == (harts, targets)})
        out.append(f"{harts}-hart SoC, {targets} target{'s' if targets > 1 else ''}: "
                   "initiator latency in cycles, and its reduction against (a) in %")
        head = f"    {'batch':>5}" + "".join(f"  {p:>9}" + ("" if p == "a" else f"  {'red_' + p:>6}") for p in paths)
        out.append(head)
        for b in batches:
            a = by.get((harts, targets, "a", b))
            cells = []
            for p in paths:
                r = by.get((harts, targets, p, b))
                cells.append(f"  {r['latency_cycles'] if r else '-':>9}")
                if p != "a":
                    red = f"{100 * (1 - r['latency_cycles'] / a['latency_cycles']):.1f}" if r and a else "-"
                    cells.append(f"  {red:>6}")
            out.append(f"    {b:>5}" + "".join(cells))
        out.append(f"    cycles stolen from each target / IPIs (traps) each target took")
        out.append(f"    {'batch':>5}" + "".join(f"  {p:>13}" for p in paths))
        for b in batches:
            cells = []
            for p in paths:
                r = by.get((harts, targets, p, b))
                cells.append(f"  {(str(r['stolen_cycles']) + ' / ' + str(r['target_traps'])) if r else '-':>13}")
            out.append(f"    {b:>5}" + "".join(cells))
        out.append("")
    out.append("Paths: " + "; ".join(f"({p}) {d}" for p, d in PATHS.items()) + ".")
    return "\n".join(out)


def cross_check(soc, qemu):
    """QEMU: paths a and b ran for every point, with the traps they promise."""
    if not qemu:
        fail("no DEMO lines from the QEMU run")
    for r in qemu:
        want = r["batch"] if r["path"] == "a" else 1
        if r["path"] not in "ab":
            fail(f"QEMU ran path {r['path']}, which needs the unit")
        if r["target_traps"] != want:
            fail(f"QEMU, path {r['path']}, {r['batch']} pages: {r['target_traps']} traps per target, want {want}")
    points = {(r["harts"], r["targets"], r["path"], r["batch"]) for r in qemu}
    soc_ab = {(r["harts"], r["targets"], r["path"], r["batch"]) for r in soc if r["path"] in "ab"}
    if points != soc_ab:
        fail(f"QEMU and the SoC ran different points: {sorted(points ^ soc_ab)[:4]} ...")
    for r in soc:
        if r["path"] in "cde" and r["target_traps"] != 0:
            fail(f"SoC, path {r['path']}, {r['batch']} pages: targets took {r['target_traps']} traps")
    return (f"QEMU cross-check (functional; QEMU's cycle counts are not comparable): paths (a) and (b) "
            f"ran the same {len(points)} points, with one IPI per page for (a) and one per call for (b), "
            f"as on the SoC.")


def plot(rows, png):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    configs = sorted({(r["harts"], r["targets"]) for r in rows})
    fig, axes = plt.subplots(1, len(configs), figsize=(max(7.5, 5.5 * len(configs)), 4.5), squeeze=False)
    for ax, (harts, targets) in zip(axes[0], configs):
        for p, desc in PATHS.items():
            pts = sorted((r["batch"], r["latency_cycles"]) for r in rows
                         if (r["harts"], r["targets"], r["path"]) == (harts, targets, p))
            if pts:
                ax.plot([b for b, _ in pts], [c for _, c in pts], marker="o", label=f"({p}) {desc}")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("batch size (pages)")
        ax.set_ylabel("initiator latency (cycles)")
        ax.set_title(f"{harts}-hart SoC, {targets} target{'s' if targets > 1 else ''}")
        ax.grid(True, which="both", alpha=0.3)
    axes[0][0].legend(fontsize=7)
    fig.suptitle("Remote TLB shootdown under OpenSBI on Rocket (Verilator), one run")
    fig.tight_layout()
    fig.savefig(png, dpi=120)


def main():
    if len(sys.argv) != 4:
        fail("usage: demo_table.py SOC_RAW QEMU_RAW OUT_DIR")
    soc, qemu = parse(sys.argv[1]), parse(sys.argv[2])
    if not soc:
        fail(f"no DEMO lines in {sys.argv[1]}")
    out = pathlib.Path(sys.argv[3])
    out.mkdir(parents=True, exist_ok=True)
    text = table(soc)
    print(text)
    notes = []
    nulls = null_ecalls(sys.argv[1])
    for harts in sorted({h for h, _ in nulls}):
        c = sorted(cyc for h, cyc in nulls if h == harts)
        notes.append(f"An SBI call that does nothing (trap entry, dispatch, return) takes {c[0]}-{c[-1]} cycles "
                     f"on the {harts}-hart SoC (one measurement per firmware).")
    notes.append(cross_check(soc, qemu))
    print("\n".join(notes))
    tables.write_csv(out / "demo.csv", soc, FIELDS)
    tables.write_fragment(out / "demo.md", "Remote TLB shootdown by five paths (shootdown_demo.c)",
                          stamp("make demo", extra="; one run"),
                          [*tables.code(text), "", *(f"- {n}" for n in notes)])
    plot(soc, out / "demo.png")
    print(f"(written to {out / 'demo.csv'}, {out / 'demo.md'} and {out / 'demo.png'})")


if __name__ == "__main__":
    main()
