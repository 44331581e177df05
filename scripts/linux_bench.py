#!/usr/bin/env python3
"""linux_bench.py: what batched shootdown does for Linux, with a spread.

Runs the test kernel's benchmarks (sw/linux/init: /init's phases after its
snapshot point, with /bench in the initramfs: sw/linux/init/bench.c's
tlb-flush2 at 1 and 16 pages a thread, pageout, mprotect, fork and
useonce) on the checked Verilator SoC in these configurations:

  stock        the stock kernel on stock OpenSBI (remote flushes: SBI
               RFENCE over IPIs)
  stock-aa     the same, other seeds: the A/A comparison, the noise floor
  port-rfence  the port on stock OpenSBI: the same kernel code, the flushes
               falling back to RFENCE (no unit in the firmware)
  unit         the port on OpenSBI with the unit (the direct channel)
  unit-sbi     the port on OpenSBI with the unit but no supervisor
               channels: every request an SBI call of the batched extension
               (Linux patch 0006 off): what the direct channel buys
  limit        the port with the unit's firmware and sw/linux/mutants/
               skip-remote.patch: a flush reaches the calling CPU alone, so
               remote flushes cost nothing. A bound, labelled as one, and
               run on LIMIT_BENCHES alone: there each thread flushes only
               its own pages, in a process of the benchmark's own; fork's
               write protection of the whole mm and useonce's reclaim of
               another thread's pages must reach the other CPUs, and a
               kernel that skips them is wrong (/init's stale probe catches
               it). How much of the gap between stock and the limit the
               unit recovers is the measure
  unit-no-nonleaf  the same as unit with sw/linux/mutants/no-nonleaf.patch: no entry
               carries NONLEAF, so what NONLEAF costs (not by default: a
               kernel of its own, and broken where a page table moves)

Each sample is one seed of the harness's memory jitter (+mem-jitter): each
job boots once and forks a child a seed at the snapshot (+fork-seeds), so
the samples of a job share its boot. The boot itself is exact, the same in
every job, unless --boot-seeds jitters it too (+seed, a seed a job): then
each job's kernel reaches the snapshot in a state of its own (its random
pool, where it placed what), and the report, a separate one
(linux-bench-boots.*), asks how far the boots' medians differ against the
spread within a boot. That is the part of the spread that one boot, or
one kernel build, cannot show. Jobs run through scripts/sweep.py (a
LocalCluster unless told otherwise), and a stopped sweep resumes. For each
benchmark and configuration: the median, the spread, and against stock the
ratio of medians with its 95% bootstrap interval and a Holm-corrected
Mann-Whitney p (scripts/results/stats.py). Failed runs are counted and
shown. Writes build/results/linux-bench.csv (every sample), .md (the
summary, stamped with the command, commit, date and machine), .png
(every sample) and, with more than one hart count, -scaling.png (medians
against the hart count).
"""
import argparse
import hashlib
import json
import math
import pathlib
import re
import statistics
import subprocess
import sys

import linux_demo_table
import sweep
from builds import BUILD, model, verilog
from linux_init import BENCHES, LINES, workload_counts
from results import stats, tables
from results.stamp import INPUTS, stamp

ROOT = pathlib.Path(__file__).resolve().parents[1]

# Where a flush from the calling CPU alone is still right: each thread
# flushes only its own pages (bench.c)
LIMIT_BENCHES = ("tlb-flush2", "pageout", "mprotect")
assert set(LIMIT_BENCHES) <= set(BENCHES)
CONFIGS = {  # name: (kernel flags, firmware flags)
    "stock": (["--stock"], ["--stock"]),
    "stock-aa": (["--stock"], ["--stock"]),
    "port-rfence": ([], ["--stock"]),
    "unit": ([], []),
    "unit-sbi": ([], ["--sbi-only"]),
    "limit": (["--mutant", "skip-remote", "--bench=" + ",".join(LIMIT_BENCHES)], []),
    "unit-no-nonleaf": (["--mutant", "no-nonleaf"], []),
}
# In the order their jobs run (a configuration's first seeds before any
# one's next): stock, the unit and the limit first, since a sweep cut short
# should have the comparison it exists for before the controls
DEFAULT_CONFIGS = ["stock", "unit", "limit", "stock-aa", "port-rfence", "unit-sbi"]
# On more harts than 2, by default: the comparison and its bound. The
# controls (the noise floor, the RFENCE path, the SBI path) measure the
# instrument and the paths, which 2 harts show; more harts ask how the gap
# scales
SCALING_CONFIGS = ["stock", "unit", "limit"]
# The configurations whose share of the stock-to-limit gap is measured
GAP_CONFIGS = ("port-rfence", "unit-sbi", "unit", "unit-no-nonleaf")
AA_SEED_BASE = 1000
# +seed of a job's boot with --boot-seeds: this plus the job's first sample seed
BOOT_SEED_BASE = 500
MAX_CYCLES = 2_000_000_000
# Kept in the repository: a sweep takes longer than a machine may live, and
# one stopped goes on, on any machine that builds the same inputs, from the
# jobs kept here (docs/sweeps.md)
SWEEP_RESULTS = ROOT / "docs/results/linux-bench-jobs"


def hash_inputs(*paths):
    """scripts/lib.sh's hash_inputs over `paths` (files or directories)."""
    return subprocess.run(["bash", "-c", 'source "$0" && hash_inputs "$@" </dev/null', str(ROOT / "scripts/lib.sh"),
                           *map(str, paths)], check=True, stdout=subprocess.PIPE, text=True).stdout.strip()


def tool_version(*cmd):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True).stdout.splitlines()[0]


LOCATOR = re.compile(rb"\s*// @\[[^\]]*\]")


def model_file(harts):
    """sweep.File of the checked model, named by the design it simulates: the
    elaborated Verilog without Chisel's source locators (so that a change
    to hw/ that leaves the design alone, or moves its source lines, keeps
    the sweep), the harness's sources and Verilator's version."""
    sim = model(harts)
    h = hashlib.sha256()
    for f in sorted(pathlib.Path(verilog(harts)).iterdir()):
        if f.suffix in (".v", ".sv", ".dts"):
            h.update(f.name.encode() + b"\0" + LOCATOR.sub(b"", f.read_bytes()) + b"\0")
    return sweep.File(sim, built_from=f"{h.hexdigest()[:16]} checked {tool_version('verilator', '--version')} "
                                      f"{hash_inputs(ROOT / 'sim', ROOT / 'sw/include/tlb_shootdown_regs.h', ROOT / 'sw/include/finisher.h')}")


def firmware(config):
    """sweep.File of a configuration's fw_payload.elf, built (cached) if
    needed, named by what it was built from: the kernel's cache entry (its
    inputs' key), OpenSBI's inputs, the flags and the compiler."""
    kflags, fflags = CONFIGS[config]
    mode = [] if any(f.startswith("--bench=") for f in kflags) else ["--bench"]
    image = subprocess.run([str(ROOT / "sw/linux/build.sh"), *kflags, *mode], check=True,
                           stdout=subprocess.PIPE, text=True).stdout.strip()
    out = BUILD / "sw/opensbi" / f"linux-bench-{config.removesuffix('-aa')}"
    subprocess.run([str(ROOT / "sw/opensbi/build.sh"), *fflags, image, str(out)], check=True,
                   stdout=subprocess.DEVNULL)
    return sweep.File(str(out / "fw_payload.elf"), built_from=" ".join([
        pathlib.Path(image).parent.name, *fflags, hash_inputs(ROOT / "sw/opensbi"),
        tool_version("riscv64-linux-gnu-gcc", "--version")]))


def seeds_of(config, n):
    base = AA_SEED_BASE if config.endswith("-aa") else 0
    return [base + s for s in range(1, n + 1)]


def configs_for(harts, chosen):
    """The configurations to run on `harts`: `chosen` (--configs) if given,
    else DEFAULT_CONFIGS on 2 harts and SCALING_CONFIGS on more."""
    return chosen or (DEFAULT_CONFIGS if harts == 2 else SCALING_CONFIGS)


def jobs_for(chosen, harts, seeds, per_boot, jitter, boots=False):
    """[(config, harts, job)], a job a boot of `per_boot` seeds, in the
    order they should run: every configuration's first seeds before any
    configuration's next, so that a sweep cut short has a few samples of
    each to compare rather than all of some. With `boots` each job's boot
    is jittered with a seed of its own (BOOT_SEED_BASE + its first seed),
    which its name carries ("-boot<seed>")."""
    fws = {config: firmware(config) for config in dict.fromkeys(c for h in harts for c in configs_for(h, chosen))}
    jobs = []
    for h in harts:
        sim = model_file(h)
        for i in range(0, seeds, per_boot):
            for config in configs_for(h, chosen):
                mine = seeds_of(config, seeds)[i:i + per_boot]
                chunk = ",".join(map(str, mine))
                boot = BOOT_SEED_BASE + mine[0] if boots else None
                name = f"{config}-{h}harts" + (f"-boot{boot}" if boots else "") + f"-seeds{chunk}"
                jobs.append((config, h, sweep.Job(name, (
                    sim, f"+mem-jitter={jitter}", *([f"+seed={boot}"] if boots else []), "+timestamps", f"+max-cycles={MAX_CYCLES}",
                    f"+fork-seeds={chunk}", "+fork-jobs=1", "+fork-logs={out}", fws[config]))))
    return jobs


def plan_path(harts, boots=False):
    return SWEEP_RESULTS / f"plan-{harts}harts{'-boots' if boots else ''}.json"


def write_plan(harts, jobs, stamp_line, boots=False):
    """The sweep on `harts` as it starts: each job's configuration, name and
    key, and the stamp of the inputs they were made from. --report reads it
    back, so that the tables can be remade from the kept jobs whatever the
    tree has become since (no model or kernel is built for a report). A run
    of other configurations or seeds on the same inputs adds its jobs to the
    plan; a run on other inputs (a job whose key changed) starts a new one."""
    path = plan_path(harts, boots)
    old = json.loads(path.read_text()) if path.exists() else {"jobs": []}
    mine = [{"config": c, "name": j.name, "key": j.key()} for c, j in jobs]
    keys = {j["name"]: j["key"] for j in mine}
    same = all(keys.get(j["name"], j["key"]) == j["key"] for j in old["jobs"])
    if same and old["jobs"]:  # the same inputs: the plan keeps its stamp and order, and gains any new jobs
        names = {j["name"] for j in old["jobs"]}
        plan = {"stamp": old["stamp"], "jobs": old["jobs"] + [j for j in mine if j["name"] not in names]}
    else:
        plan = {"stamp": stamp_line, "jobs": mine}
    path.write_text(json.dumps(plan, indent=1) + "\n")


class _Kept:
    """A job of a plan, by the key it was run under."""
    def __init__(self, name, key):
        self.name, self._key = name, key

    def key(self):
        return self._key


def planned(opts):
    """[(config, harts, job)] of the sweeps last started on opts.harts (their
    plans), restricted to opts.configs if given, and their stamp."""
    jobs, stamps = [], []
    for h in opts.harts:
        path = plan_path(h, opts.boot_seeds)
        if not path.exists():
            sys.exit(f"linux_bench: no sweep on {h} harts has been started here ({path} is missing): "
                     f"make linux-bench HARTS={h}" + (" BOOTS=1" if opts.boot_seeds else ""))
        plan = json.loads(path.read_text())
        stamps.append(plan["stamp"])
        jobs += [(j["config"], h, _Kept(j["name"], j["key"])) for j in plan["jobs"]
                 if not opts.configs or j["config"] in opts.configs]
    return jobs, " ".join(dict.fromkeys(stamps))


def is_bench(phase):
    """(NAME, pages) of a benchmark's phase "NAME-Pp", else None."""
    m = re.fullmatch(r"([a-z0-9-]+)-(\d+)p", phase)
    return (m[1], int(m[2])) if m and m[1] in BENCHES else None


def boot_of(job_name):
    """A --boot-seeds job's boot seed (from its name), else None."""
    m = re.search(r"-boot(\d+)-", job_name)
    return int(m[1]) if m else None


def samples_of(config, harts, result, logs, boot=None):
    """One row per phase of each forked child: its cycles, and as the value
    the cycles or, for a benchmark, loops per million cycles. A child that
    did not pass, or passed without a benchmark's "data intact" line, is one
    row with its status (None: no result) and no value; so is a job whose
    boot never reached the snapshot. `boot`: the job's boot seed, if its
    boot was jittered."""
    rows = []
    for name in sorted(result["files"]):
        m = re.fullmatch(r"seed-(\d+)\.out", name)
        if not m:
            continue
        seed = int(m.group(1))
        text = result["stdout"] + result["files"][name] + result["files"].get(f"seed-{seed}.err", "")
        log = logs / f"{config}-{harts}harts-seed{seed}.log"
        log.write_text(text)
        failed = {"config": config, "harts": harts, "boot": boot, "seed": seed, "phase": "-", "cycles": None,
                  "value": None, "status": linux_demo_table.exit_status(log)}
        if failed["status"] != 0:
            rows.append(failed)
            continue
        loops = {(b, int(p)): int(t) * int(n) for b in BENCHES for t, p, n in LINES[b][0].findall(text)}
        mine = []
        for r in linux_demo_table.parse(log):
            if r["phase"] == "boot":
                continue
            row = {**failed, "phase": r["phase"], "cycles": r["cycles"], "value": r["cycles"],
                   "shootdown_ipis": r.get("shootdown_ipis"), "mmode_cycles": r.get("mmode_cycles"),
                   **{key: r.get(key) for key in linux_demo_table.HART_COUNTERS.values()},
                   "requests": r.get("requests"), "direct": r.get("direct"),
                   "wait_cycles": linux_demo_table.wait_cycles(r)}
            bench = is_bench(r["phase"])
            if bench:
                if bench not in loops:  # its data line is missing: no result
                    mine = None
                    break
                row["value"] = loops[bench] / (r["cycles"] / 1e6)  # loops per M-cycle
                if bench[0] == "useonce":
                    row["reclaimed"] = (workload_counts(text, "useonce-reclaim") or {}).get("reclaimed")
            mine.append(row)
        rows += mine if mine else [{**failed, "status": None}]
    if not rows:  # the boot never reached the snapshot
        rows.append({"config": config, "harts": harts, "boot": boot, "seed": None, "phase": "-", "cycles": None,
                     "value": None, "status": result["status"] or None})
    return rows


def passing_samples(rows):
    """{(phase, config): [values]} of the rows of runs that passed."""
    samples = {}
    for r in rows:
        if r["status"] == 0:
            samples.setdefault((r["phase"], r["config"]), []).append(r["value"])
    return samples


def summary(rows, harts_list, stamp_line, title="Linux benchmarks on the SoC"):
    out = [f"# {title}", "", stamp_line, "", "Benchmark values are loops per million cycles (higher is faster); other phases are cycles "
           "(lower is faster). Ratio = the configuration's median over stock's, with its 95% BCa bootstrap "
           "interval; p = two-sided Mann-Whitney U against stock, Holm-corrected across the benchmarks of a "
           "configuration and hart count.", ""]
    for h in harts_list:
        mine = [r for r in rows if r["harts"] == h]
        samples, lost = passing_samples(mine), {}
        for r in mine:
            if r["status"] != 0:  # a child (or a boot) that did not pass gave no sample of any benchmark
                lost[r["config"]] = lost.get(r["config"], 0) + 1
        failed = {(b, c): lost.get(c, 0) for b, c in samples}
        table = []
        for c in stats.compare(samples, "stock", failed=failed):
            fmt = (lambda v: f"{v:.1f}") if is_bench(c.bench) else (lambda v: f"{v:,.0f}")
            ratio = "-" if c.ratio != c.ratio else (
                f"{c.ratio:.3f}" + ("" if c.ci_low != c.ci_low else f" [{c.ci_low:.3f}, {c.ci_high:.3f}]"))
            p = "-" if c.p_holm != c.p_holm else f"{c.p_holm:.3g}"
            table.append([c.bench, c.config, c.n, c.failed, fmt(c.median), f"{fmt(c.low)}-{fmt(c.high)}", ratio, p])
        out += [f"## {h} harts", ""] + tables.markdown(
            ["benchmark", "config", "n", "failed runs", "median", "min-max", "ratio to stock [95% CI]", "p (Holm)"],
            table)
        out += accounting(mine, h)
        if "limit" in {r["config"] for r in mine}:
            out += gaps(samples)
            out += shortfall(mine, h)
        out += ["", f"Runs that did not pass on {h} harts: {sum(lost.values())}"
                + (f" ({', '.join(f'{c}: {n}' for c, n in sorted(lost.items()))})" if lost else "") + ".", ""]
    return "\n".join(out)


def boot_effect(rows, harts_list):
    """How far a configuration's boots differ (--boot-seeds): per benchmark
    and configuration, the boots' medians, the spread between them and the
    spread within a boot (each a share of the median), and one-way ANOVA's
    p across the boots (scripts/results/stats.py: groups)."""
    out = ["## Between boots", "", "Each boot jittered with a seed of its own (+seed) and forked at the snapshot "
           "into its samples. between = (max - min) of the boots' medians over the median of all samples, "
           "within = the median over boots of a boot's (max - min) over its own median; p = one-way ANOVA across the boots "
           "(a small p: the boots differ by more than their samples spread).", ""]
    for h in harts_list:
        by = {}
        for r in rows:
            if r["harts"] == h and r["status"] == 0 and r["boot"] is not None and is_bench(r["phase"]):
                by.setdefault((r["phase"], r["config"]), {}).setdefault(r["boot"], []).append(r["value"])
        table = []
        for (phase, config), boots in sorted(by.items()):
            g = stats.groups([boots[b] for b in sorted(boots)])
            table.append([phase, config, g.n, sum(map(len, boots.values())),
                          f"{min(g.medians):.1f}-{max(g.medians):.1f}", f"{100 * g.between:.1f}%",
                          f"{100 * g.within:.1f}%", "-" if g.p != g.p else f"{g.p:.3g}"])
        out += [f"### {h} harts", ""] + tables.markdown(
            ["benchmark", "config", "boots", "samples", "boots' medians", "between", "within", "p"], table) + [""]
    return out


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
           "older model has neither: -); for useonce the pages reclaimed (the cgroup's pgsteal) and the "
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
        requests, direct = median_of(rs, "requests"), median_of(rs, "direct")
        sent = "-" if requests is None else f"{requests:g} ({'-' if direct is None else f'{direct:g}'})"
        table.append([phase, config, "-" if ipis is None else f"{ipis:g}", sent, *cells,
                      "-" if reclaimed is None else f"{reclaimed:g}",
                      f"{statistics.median(per_page):,.0f}" if per_page else "-"])
    return out + tables.markdown(["benchmark", "config", "shootdown IPIs", "requests (direct)",
                                  *(heading for _, _, heading in PARTS), "pages reclaimed", "cycles per page"], table)


def gaps(samples):
    """The share of the gap between stock and the limit each configuration
    recovers, per benchmark."""
    out = ["", "Share of the gap between stock and the limit (remote flushes at no cost) recovered, "
           "with its 95% BCa interval; the limit runs " + ", ".join(LIMIT_BENCHES) + " alone, the "
           "benchmarks where a flush of the calling CPU alone is still right:", ""]
    table = []
    for bench in sorted({b for b, _ in samples if is_bench(b) and is_bench(b)[0] in LIMIT_BENCHES}):
        base, bound = samples.get((bench, "stock"), []), samples.get((bench, "limit"), [])
        for config in GAP_CONFIGS:
            if (bench, config) not in samples:
                continue
            g = stats.gap(base, samples[(bench, config)], bound)
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
    configs = [c for c in CONFIGS if any(r["config"] == c for r in ok)]
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
    configs = [c for c in CONFIGS if any(r["config"] == c for r in ok)]
    # each configuration's ratio to stock with its interval, where it has one
    ratios = {(h, c.bench, c.config): c for h in harts
              for c in stats.compare(passing_samples([r for r in ok if r["harts"] == h]), "stock")
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


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--harts", type=int, nargs="+", default=[2], choices=[2, 4, 8])
    ap.add_argument("--seeds", type=int, default=8, help="samples per configuration (default 8)")
    ap.add_argument("--per-boot", type=int, default=4, help="samples forked from one boot (default 4)")
    ap.add_argument("--jitter", type=int, default=16, help="+mem-jitter: up to this many cycles per access")
    ap.add_argument("--configs", nargs="+", choices=list(CONFIGS),
                    help=f"default: {' '.join(DEFAULT_CONFIGS)} on 2 harts, {' '.join(SCALING_CONFIGS)} on more")
    ap.add_argument("--boot-seeds", action="store_true",
                    help="jitter each job's boot with a seed of its own, and report how far boots differ "
                         "(linux-bench-boots.*; a plan of its own)")
    ap.add_argument("--report", action="store_true",
                    help="run nothing: the tables from the jobs a sweep has finished so far")
    sweep.add_cluster_options(ap)
    opts = ap.parse_args(argv)
    if opts.configs and "stock" not in opts.configs:
        ap.error("the comparisons need the stock configuration")
    name = "linux-bench-boots" if opts.boot_seeds else "linux-bench"
    results_dir, logs = BUILD / "results", BUILD / "logs" / name
    results_dir.mkdir(parents=True, exist_ok=True)
    logs.mkdir(parents=True, exist_ok=True)
    if opts.report:
        jobs, stamp_line = planned(opts)
        results = sweep.kept([j for _, _, j in jobs], SWEEP_RESULTS)
    else:
        jobs = jobs_for(opts.configs, opts.harts, opts.seeds, opts.per_boot, opts.jitter, opts.boot_seeds)
        # taken before the sweep, which may outlive commits; results kept
        # from an earlier sweep were made from these very inputs (jobs are
        # keyed by the model's and firmware's contents)
        stamp_line = stamp(" ".join(["scripts/linux_bench.py", *argv]), INPUTS + ("scripts",))
        for h in opts.harts:
            write_plan(h, [(c, j) for c, jh, j in jobs if jh == h], stamp_line, opts.boot_seeds)
        results = sweep.run([j for _, _, j in jobs], SWEEP_RESULTS, opts)
    rows = []
    for config, h, job in jobs:
        if job.key() in results:
            rows += samples_of(config, h, results[job.key()], logs, boot_of(job.name))
    missing = sum(job.key() not in results for _, _, job in jobs)
    if missing:
        stamp_line += (f" A partial sweep: {len(jobs) - missing} of its {len(jobs)} jobs had run; the rest are "
                       f"not in these tables.")
    fields = ["harts", "config", "boot", "seed", "status", "phase", "cycles", "value", "shootdown_ipis", "mmode_cycles",
              "held_cycles", "walk_cycles", "wait_cycles", "reclaimed", "requests", "direct"]
    tables.write_csv(results_dir / f"{name}.csv", rows, fields)
    text = summary(rows, opts.harts, stamp_line,
                   "Linux benchmarks on the SoC" + (", each boot of its own" if opts.boot_seeds else ""))
    if opts.boot_seeds:
        text += "\n" + "\n".join(boot_effect(rows, opts.harts))
    (results_dir / f"{name}.md").write_text(text + "\n")
    plot(rows, results_dir / f"{name}.png")
    plot_scaling(rows, results_dir / f"{name}-scaling.png")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
