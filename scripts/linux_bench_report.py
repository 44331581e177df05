"""The tables and plots of make linux-bench (scripts/linux_bench.py) from
its samples' rows: per benchmark and configuration, over the boots (each
boot of each build is one unit: the samples forked from a boot are not
independent of each other, so a boot's median is what the intervals
resample, scipy.stats.bootstrap over the boots; scripts/results/stats.py),
the ratio to stock, the builds' and boots' spreads beside it, the share of
the stock-to-limit gap each configuration recovers on cycles a loop,
where the cycles go, and every sample plotted."""
import math
import re
import statistics

from linux_init import BENCHES
from results import stats, tables

# Where a flush from the calling CPU alone is still right: each thread
# flushes only its own pages (bench.c)
LIMIT_BENCHES = ("tlb-flush2", "tlb-flush2-range", "cow-zero", "pageout", "mprotect")
assert set(LIMIT_BENCHES) <= set(BENCHES)
# The configurations whose share of the stock-to-limit gap is measured
GAP_CONFIGS = ("port-rfence", "unit-sbi", "unit", "unit-broadcast", "unit-no-nonleaf")
# In the order the tables and plots show them
CONFIG_ORDER = ("stock", "stock-aa", "port-rfence", "unit", "unit-sbi", "unit-broadcast", "limit", "unit-no-nonleaf")


def is_bench(phase):
    """(NAME, pages) of a benchmark's phase "NAME-Pp", else None."""
    m = re.fullmatch(r"([a-z0-9-]+)-(\d+)p", phase)
    return (m[1], int(m[2])) if m and m[1] in BENCHES else None


def passing_samples(rows):
    """{(phase, config): [values]} of the rows of runs that passed."""
    samples = {}
    for r in rows:
        if r["status"] == 0:
            samples.setdefault((r["phase"], r["config"]), []).append(r["value"])
    return samples


def cluster_of(row):
    """The boot a sample was forked from: (build, boot), or the sample alone
    where its job's boot was not its own (sweeps before 2026-12-01 forked
    every sample of a configuration from one boot, and gave no boot)."""
    return (row.get("build"), row["boot"]) if row.get("boot") is not None else ("sample", row["seed"])


def clustered(rows):
    """{(phase, config): {cluster: [values]}} of the passing rows."""
    by = {}
    for r in rows:
        if r["status"] == 0:
            by.setdefault((r["phase"], r["config"]), {}).setdefault(cluster_of(r), []).append(r["value"])
    return by


def boot_medians(rows, transform=None):
    """{(phase, config): [each boot's median]}: the units the intervals
    resample (with `transform`, of the transformed values)."""
    f = transform or (lambda v: v)
    return {key: [statistics.median(map(f, vs)) for _, vs in sorted(boots.items(), key=lambda kv: str(kv[0]))]
            for key, boots in clustered(rows).items()}


def summary(rows, harts_list, stamp_line, title="Linux benchmarks on the SoC"):
    out = [f"# {title}", "", stamp_line, "", "Benchmark values are loops per million cycles (higher is faster); other "
           "phases are cycles (lower is faster). Each boot (of each kernel build) is one unit: its forked samples "
           "enter as their median, so n counts boots and the interval resamples boots, not samples forked from one "
           "(a cluster bootstrap; the builds' and boots' spreads are in the next table). Ratio = the configuration's "
           "median over stock's, with its 95% BCa bootstrap interval; p = two-sided Mann-Whitney U against stock "
           "over the boots, Holm-corrected across the benchmarks of a configuration and hart count.", ""]
    for h in harts_list:
        mine = [r for r in rows if r["harts"] == h]
        units, counts, lost = boot_medians(mine), passing_samples(mine), {}
        for r in mine:
            if r["status"] != 0:  # a child (or a boot) that did not pass gave no sample of any benchmark
                lost[r["config"]] = lost.get(r["config"], 0) + 1
        failed = {(b, c): lost.get(c, 0) for b, c in units}
        table = []
        for c in stats.compare(units, "stock", failed=failed):
            fmt = (lambda v: f"{v:.1f}") if is_bench(c.bench) else (lambda v: f"{v:,.0f}")
            ratio = "-" if c.ratio != c.ratio else (
                f"{c.ratio:.3f}" + ("" if c.ci_low != c.ci_low else f" [{c.ci_low:.3f}, {c.ci_high:.3f}]"))
            p = "-" if c.p_holm != c.p_holm else f"{c.p_holm:.3g}"
            values = counts[(c.bench, c.config)]
            table.append([c.bench, c.config, c.n, len(values), c.failed, fmt(c.median),
                          f"{fmt(min(values))}-{fmt(max(values))}", ratio, p])
        out += [f"## {h} harts", ""] + tables.markdown(
            ["benchmark", "config", "n", "samples", "failed runs", "median", "min-max", "ratio to stock [95% CI]",
             "p (Holm)"], table)
        out += spreads(mine)
        out += accounting(mine, h)
        if "limit" in {r["config"] for r in mine}:
            out += gaps(mine)
            out += shortfall(mine, h)
        out += ["", f"Runs that did not pass on {h} harts: {sum(lost.values())}"
                + (f" ({', '.join(f'{c}: {n}' for c, n in sorted(lost.items()))})" if lost else "") + ".", ""]
    return "\n".join(out)


def spreads(rows):
    """How far a configuration's builds and boots differ, against the spread
    within a boot, per benchmark: each a share of the median (stats.groups:
    between = (max - min) of the groups' medians over the median of all,
    within = the median over boots of a boot's (max - min) over its own
    median), and one-way ANOVA's p across the boots. Nothing where the
    samples had no boots of their own."""
    table = []
    for (phase, config), boots in sorted(clustered(rows).items()):
        if not is_bench(phase) or any(k[0] == "sample" for k in boots):
            continue
        builds = {}
        for (build, _), vs in boots.items():
            builds.setdefault(build, []).extend(vs)
        by_boot = stats.groups([boots[k] for k in sorted(boots, key=str)])
        by_build = stats.groups([builds[k] for k in sorted(builds, key=str)])
        table.append([phase, config, by_build.n, by_boot.n, sum(map(len, boots.values())),
                      f"{100 * by_build.between:.1f}%" if by_build.n > 1 else "-", f"{100 * by_boot.between:.1f}%",
                      f"{100 * by_boot.within:.1f}%", "-" if by_boot.p != by_boot.p else f"{by_boot.p:.3g}"])
    if not table:
        return []
    return ["", "Builds and boots: between builds and between boots = (max - min) of their medians over the median "
            "of all samples; within a boot = the median over boots of a boot's (max - min) over its own median; "
            "p = one-way ANOVA across the boots (small: the boots differ by more than their samples spread).", ""] + \
        tables.markdown(["benchmark", "config", "builds", "boots", "samples", "between builds", "between boots",
                         "within a boot", "p"], table)


def median_of(rows, key):
    vs = [r[key] for r in rows if r.get(key) is not None]
    return statistics.median(vs) if vs else None


# The per-phase cycle counts the accounting and shortfall() split a phase
# into: (key, the samples' column, the table's heading)
PARTS = [("mmode", "mmode_cycles", "M-mode"), ("wait", "wait_cycles", "wait"), ("held", "held_cycles", "held"),
         ("walk", "walk_cycles", "walks")]


def accounting(rows, harts):
    """Where each configuration's cycles go, medians over its samples:
    shootdown IPIs (the harness's machine software interrupts less the
    kernel's own IPIs), the harts' M-mode cycles, the port's wait for its
    requests, the cycles the flush agents held their cores and the page
    walkers' busy cycles, each as a share of every hart's cycles in the
    phase."""
    out = ["", "Where the cycles go (medians): shootdown IPIs; M-mode = all harts' cycles in the firmware, "
           "wait = the port's CPUs waiting for their requests, held = the cycles the flush agents kept their "
           "cores off the D$ (the unit's direct cost to a target), walks = the page walkers' busy cycles "
           "(refills), each a share of all harts' cycles (the harness counts held and walks; a log from an "
           "older model has neither: -); the threads' spread, (max - min) / mean of the threads' loops per cycle in "
           "their windows; for useonce the pages reclaimed (the cgroup's pgsteal) and the "
           "phase's cycles per page reclaimed.", ""]
    table = []
    groups = {}
    for r in rows:
        if r["status"] == 0:
            groups.setdefault((r["phase"], r["config"]), []).append(r)
    for (phase, config), rs in sorted(groups.items()):
        ipis = median_of(rs, "shootdown_ipis")
        cells = []
        for _, key, _ in PARTS:
            shares = [r[key] / (harts * r["cycles"]) for r in rs if r.get(key) is not None and r["cycles"]]
            cells.append(f"{100 * statistics.median(shares):.2f}%" if shares else "-")
        reclaimed = median_of(rs, "reclaimed")
        per_page = [r["cycles"] / r["reclaimed"] for r in rs if r.get("reclaimed")]
        spread = [(max(v) - min(v)) / statistics.mean(v) for v in (list(map(float, r["per_thread"].split()))
                                                                  for r in rs if r.get("per_thread")) if v]
        requests, direct = median_of(rs, "requests"), median_of(rs, "direct")
        sent = "-" if requests is None else f"{requests:g} ({'-' if direct is None else f'{direct:g}'})"
        table.append([phase, config, "-" if ipis is None else f"{ipis:g}", sent, *cells,
                      f"{100 * statistics.median(spread):.1f}%" if spread else "-",
                      "-" if reclaimed is None else f"{reclaimed:g}",
                      f"{statistics.median(per_page):,.0f}" if per_page else "-"])
    return out + tables.markdown(["benchmark", "config", "shootdown IPIs", "requests (direct)",
                                  *(heading for _, _, heading in PARTS), "threads' spread", "pages reclaimed",
                                  "cycles per page"], table)


def gaps(rows):
    """The share of the gap between stock and the limit each configuration
    recovers, per benchmark, on cycles a loop (what the limit bounds: time,
    not its reciprocal), over the boots of each, the limit's own builds and
    boots included."""
    units = boot_medians(rows, transform=lambda v: 1e6 / v)  # cycles a loop, each boot's median
    out = ["", "Share of the gap between stock and the limit recovered, on cycles a loop: (stock's - the "
           "configuration's) / (stock's - the limit's), each a median over boots, with its 95% BCa interval over "
           "the three configurations' boots. The limit (sw/linux/mutants/skip-remote.patch) skips every remote "
           "flush the port sends to the device, the kernel's own among them, so it is a bound, and runs "
           + ", ".join(LIMIT_BENCHES) + " alone, where a flush of the calling CPU alone keeps each thread's own "
           "pages right:", ""]
    table = []
    for bench in sorted({b for b, _ in units if is_bench(b) and is_bench(b)[0] in LIMIT_BENCHES}):
        base, bound = units.get((bench, "stock"), []), units.get((bench, "limit"), [])
        for config in GAP_CONFIGS:
            if (bench, config) not in units:
                continue
            g = stats.gap(base, units[(bench, config)], bound)
            ci = "" if g.ci_low != g.ci_low else f" [{g.ci_low:.2f}, {g.ci_high:.2f}]"
            table.append([bench, config, ("-" if g.share != g.share else f"{g.share:.2f}") + ci])
    return out + tables.markdown(["benchmark", "config", "share [95% CI]"], table)


def shortfall(rows, harts):
    """Where each configuration's cycles above the limit's go, a loop at a
    time: the medians of all harts' cycles a loop (harts x the phase's
    cycles / its loops) and of each of PARTS a loop, against the limit's;
    what they leave is the rest. Held and walks count the waiting CPU's
    own too, which its wait already holds: the rest is then a little low."""
    per_loop = {}
    for r in rows:
        bench = is_bench(r["phase"])
        if r["status"] != 0 or not bench or bench[0] not in LIMIT_BENCHES or not r["value"]:
            continue
        loops = r["value"] * r["cycles"] / 1e6
        got = per_loop.setdefault((r["phase"], r["config"]), {"all": [], **{k: [] for k, _, _ in PARTS}})
        got["all"].append(harts * r["cycles"] / loops)
        for key, col, _ in PARTS:
            if r.get(col) is not None:
                got[key].append(r[col] / loops)
    med = lambda phase, config, key: (statistics.median(per_loop[(phase, config)][key])
                                      if per_loop[(phase, config)][key] else None)
    table = []
    for phase, config in sorted(per_loop):
        if config not in GAP_CONFIGS or (phase, "limit") not in per_loop:
            continue
        extra = {}
        for key in ["all"] + [k for k, _, _ in PARTS]:
            mine, bound = med(phase, config, key), med(phase, "limit", key)
            extra[key] = None if mine is None or bound is None else mine - bound
        rest = extra["all"] - sum(v for k, v in extra.items() if k != "all" and v is not None)
        table.append([phase, config, f"{med(phase, config, 'all'):,.0f}", f"{med(phase, 'limit', 'all'):,.0f}",
                      *("-" if extra[k] is None else f"{extra[k]:+,.0f}" for k in ["all"] + [k for k, _, _ in PARTS]),
                      f"{rest:+,.0f}"])
    if not table:
        return []
    return ["", "Where the cycles above the limit go, a loop at a time (medians; all harts' cycles): the "
            "configuration's and the limit's cycles a loop, the difference, and of it the firmware's (M-mode), "
            "the port's wait for its requests, the cycles the flush agents held their cores (held) and the "
            "page walkers' busy cycles (walks: the refills), and the rest (what no counter here sees: the "
            "targets' pipelines and caches after a flush, the initiator outside its wait). Held and walks "
            "count the waiting CPU's too, which its wait already holds:", ""] + tables.markdown(
        ["benchmark", "config", "cycles a loop", "limit's", "above the limit", *(h for _, _, h in PARTS), "rest"],
        table)


def plot(rows, png):
    """Every sample: a panel per benchmark (columns) and hart count (rows),
    a column of dots per configuration, split into a narrow column per
    boot where the boots are the samples' own (--boot-seeds)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    ok = [r for r in rows if r["status"] == 0]
    harts, phases = sorted({r["harts"] for r in ok}), sorted({r["phase"] for r in ok})
    if not ok:
        return
    configs = [c for c in CONFIG_ORDER if any(r["config"] == c for r in ok)]
    boots = sorted({r["boot"] for r in ok if r.get("boot") is not None})
    fig, axes = plt.subplots(len(harts), len(phases), figsize=(2.6 * len(phases), 3.4 * len(harts)), squeeze=False)
    for row, h in zip(axes, harts):
        for ax, phase in zip(row, phases):
            for i, config in enumerate(configs):
                mine = [r for r in ok if (r["harts"], r["phase"], r["config"]) == (h, phase, config)]
                xs = [i + (0.1 * (boots.index(r["boot"]) - (len(boots) - 1) / 2) if boots else 0) for r in mine]
                ax.scatter(xs, [r["value"] for r in mine], s=12, alpha=0.7)
            ax.set_xticks(range(len(configs)))
            ax.set_xticklabels(configs, rotation=30, ha="right", fontsize=7)
            ax.set_title(f"{phase}, {h} harts", fontsize=8)
            ax.set_ylabel("loops / M-cycle" if is_bench(phase) else "cycles", fontsize=7)
            ax.tick_params(labelsize=7)
    fig.suptitle("Linux benchmarks on Rocket (Verilator): every sample, one seed of memory jitter each" +
                 (f"; a narrow column per boot ({len(boots)} a configuration)" if boots else ""), fontsize=9)
    fig.tight_layout()
    fig.savefig(png, dpi=120)
    plt.close(fig)


def plot_scaling(rows, png):
    """Against the hart count, a column per benchmark: above, every sample's
    loops per M-cycle and a line through each configuration's medians (the
    plot INVLPGB's tlb_flush2 figures are compared with); below, each
    configuration's ratio to stock with its 95% interval. Nothing with one
    hart count."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    ok = [r for r in rows if r["status"] == 0 and is_bench(r["phase"])]
    harts, phases = sorted({r["harts"] for r in ok}), sorted({r["phase"] for r in ok})
    if len(harts) < 2:
        return
    configs = [c for c in CONFIG_ORDER if any(r["config"] == c for r in ok)]
    # each configuration's ratio to stock with its interval, where it has one
    ratios = {(h, c.bench, c.config): c for h in harts
              for c in stats.compare(boot_medians([r for r in ok if r["harts"] == h]), "stock")
              if not math.isnan(c.ratio)}
    fig, axes = plt.subplots(2, len(phases), figsize=(2.8 * len(phases), 5.6), squeeze=False)
    for col, phase in enumerate(phases):
        top, bottom = axes[0][col], axes[1][col]
        for i, config in enumerate(configs):
            colour = f"C{i}"
            xs, ys, medians = [], [], []
            for h in harts:
                vs = [r["value"] for r in ok if (r["harts"], r["phase"], r["config"]) == (h, phase, config)]
                xs += [h] * len(vs)
                ys += vs
                if vs:
                    medians.append((h, statistics.median(vs)))
            top.scatter(xs, ys, s=8, alpha=0.5, color=colour)
            if medians:
                top.plot(*zip(*medians), marker="o", color=colour, label=config)
            cs = [(h, ratios[(h, phase, config)]) for h in harts if (h, phase, config) in ratios]
            if cs:
                lo = [0 if math.isnan(c.ci_low) else c.ratio - c.ci_low for _, c in cs]
                hi = [0 if math.isnan(c.ci_high) else c.ci_high - c.ratio for _, c in cs]
                bottom.errorbar([h for h, _ in cs], [c.ratio for _, c in cs], yerr=[lo, hi], marker="o", capsize=3,
                                color=colour, label=config)
        bottom.axhline(1.0, color="grey", linewidth=0.8)
        for ax, label in ((top, "loops / M-cycle"), (bottom, "ratio to stock [95% CI]")):
            ax.set_xticks(harts)
            ax.set_xlabel("harts", fontsize=7)
            ax.set_ylabel(label, fontsize=7)
            ax.tick_params(labelsize=7)
        top.set_title(phase, fontsize=8)
    handles = {}
    for ax in axes[0]:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(label, handle)
    fig.legend(handles.values(), handles.keys(), loc="upper center", ncol=len(handles), fontsize=7)
    fig.tight_layout(rect=(0, 0, 1, 0.94))
    fig.savefig(png, dpi=120)
    plt.close(fig)


