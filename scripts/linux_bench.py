#!/usr/bin/env python3
"""linux_bench.py: what batched shootdown does for Linux, with a spread.

Runs the test kernel's benchmarks (sw/linux/init/bench.c: /init's phases
after its snapshot point, with /bench in the initramfs; each follows its
anchor's loop and checks its flushes against the loop's shape, and a run
whose shape did not hold gives no sample) on the checked Verilator SoC in
these configurations:

  stock        the stock kernel on stock OpenSBI (remote flushes: SBI
               RFENCE over IPIs)
  stock-aa     the same on builds of its own, other boots and seeds: the
               A/A comparison, the noise floor of builds, boots and jitter
  port-rfence  the port on stock OpenSBI: the same kernel code, the flushes
               falling back to RFENCE (no unit in the firmware)
  unit         the port on OpenSBI with the unit (the direct channel)
  unit-sbi     the port on OpenSBI with the unit but no supervisor
               channels: every request an SBI call of the batched extension
               (Linux patch 0006 off): what the direct channel buys
  unit-broadcast  the unit with sw/linux/variants/broadcast.patch: every
               flush to every CPU instead of the mm's mask, on tlb-flush2
               and tlb-flush2-processes (an mm a CPU): what targeting buys
  limit        the port with the unit's firmware and sw/linux/mutants/
               skip-remote.patch: every flush the port would send to the
               device (the kernel's own among them) reaches the calling CPU
               alone, so remote flushes cost nothing. A bound, labelled as
               one, and run on LIMIT_BENCHES alone: there each thread
               flushes only its own pages, in a process of the benchmark's
               own; fork's write protection of the whole mm and useonce's
               reclaim of another thread's pages must reach the other CPUs,
               and a kernel that skips them is wrong (/init's stale probe
               catches it). The share of the gap between stock and the
               limit the unit recovers, on cycles a loop, is the measure
  unit-no-nonleaf  the same as unit with sw/linux/mutants/no-nonleaf.patch: no entry
               carries NONLEAF, so what NONLEAF costs (not by default: a
               kernel of its own, and broken where a page table moves)

On 4 and 8 harts the default is stock, the unit and the limit on
SCALING_BENCHES. Each configuration is measured over --builds kernel
builds (the same inputs built again, sw/linux/build.sh --build N: another
banner, so another layout) x --boots boots of each (a job a boot, its boot
jittered with a seed of its own, +seed) x --per-boot samples forked at the
snapshot (+fork-seeds, one seed of the harness's memory jitter each). The
report (linux_bench_report.py) treats a boot as the unit its intervals
resample and gives the builds' and boots' spreads beside them. Jobs run
through scripts/sweep.py (a LocalCluster unless told otherwise), and a
stopped sweep resumes. Writes build/results/linux-bench.csv (every
sample), .md (the summary, stamped with the command, commit, date and
machine), .png (every sample) and, with more than one hart count,
-scaling.png (medians and ratios against the hart count).
"""
import argparse
import functools
import hashlib
import json
import pathlib
import re
import subprocess
import sys

import linux_demo_table
import sweep
from builds import BUILD, model, verilog
from linux_init import BENCHES, FIXED_WORK, bench_runs, workload_counts
import linux_bench_report as report
from linux_bench_report import LIMIT_BENCHES, is_bench
from results import tables
from results.stamp import INPUTS, stamp

ROOT = pathlib.Path(__file__).resolve().parents[1]

CONFIGS = {  # name: (kernel flags, firmware flags)
    "stock": (["--stock"], ["--stock"]),
    "stock-aa": (["--stock"], ["--stock"]),
    "port-rfence": ([], ["--stock"]),
    "unit": ([], []),
    "unit-sbi": ([], ["--sbi-only"]),
    "unit-broadcast": (["--variant", "broadcast"], []),
    "limit": (["--mutant", "skip-remote"], []),
    "unit-no-nonleaf": (["--mutant", "no-nonleaf"], []),
}
# In the order their jobs run (a configuration's first boots before any
# one's next): stock, the unit and the limit first, since a sweep cut short
# should have the comparison it exists for before the controls
DEFAULT_CONFIGS = ["stock", "unit", "limit", "stock-aa", "unit-broadcast", "port-rfence", "unit-sbi"]
# On more harts than 2, by default: the comparison and its bound, on the
# faithful benchmarks and mprotect. The controls (the noise floor, the
# RFENCE path, the SBI path, broadcasting) measure the instrument and the
# paths, which 2 harts show; more harts ask how the gap scales
SCALING_CONFIGS = ["stock", "unit", "limit"]
SCALING_BENCHES = ("tlb-flush2", "tlb-flush2-range", "mprotect")
# What targeting buys shows where the masks differ: processes on CPUs of
# their own, beside the threads of tlb-flush2
BROADCAST_BENCHES = ("tlb-flush2", "tlb-flush2-processes")
assert set(SCALING_BENCHES + BROADCAST_BENCHES) <= set(BENCHES)
AA_SEED_BASE = 1000
# +seed of a job's boot: this plus the job's first sample seed
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


@functools.lru_cache(maxsize=None)  # jobs_for() and inputs_of() both name it: hash the Verilog once
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


def bench_list(config, harts):
    """The benchmarks `config` runs on `harts` (None: all of them)."""
    mine = SCALING_BENCHES if harts > 2 else BENCHES
    if config == "limit":
        mine = tuple(b for b in mine if b in LIMIT_BENCHES)
    if config == "unit-broadcast":
        mine = tuple(b for b in mine if b in BROADCAST_BENCHES)
    return None if mine == BENCHES else mine


def builds_of(config, builds):
    """The kernel builds (sw/linux/build.sh --build N) of `config`: 1 to
    `builds`; the A/A configuration's are others, so that it compares two
    builds and boots of stock with two more, not one image with itself."""
    first = builds + 1 if config.endswith("-aa") else 1
    return list(range(first, first + builds))


def firmware(config, build, benches):
    """sweep.File of a configuration's fw_payload.elf for kernel build
    `build` running `benches` (None: all), built (cached) if needed, named
    by what it was built from: the kernel's cache entry (its inputs' key),
    OpenSBI's inputs, the flags and the compiler."""
    kflags, fflags = CONFIGS[config]
    mode = ["--bench" + ("=" + ",".join(benches) if benches else "")]
    image = subprocess.run([str(ROOT / "sw/linux/build.sh"), *kflags, *mode, *(["--build", str(build)] if build > 1 else [])],
                           check=True, stdout=subprocess.PIPE, text=True).stdout.strip()
    kernel = pathlib.Path(image).parent.name
    out = BUILD / "sw/opensbi" / f"linux-bench-{kernel}-{config.removesuffix('-aa')}"
    subprocess.run([str(ROOT / "sw/opensbi/build.sh"), *fflags, image, str(out)], check=True,
                   stdout=subprocess.DEVNULL)
    return sweep.File(str(out / "fw_payload.elf"), built_from=" ".join([
        kernel, *fflags, hash_inputs(ROOT / "sw/opensbi"), tool_version("riscv64-linux-gnu-gcc", "--version")]))


def seeds_of(config, n):
    base = AA_SEED_BASE if config.endswith("-aa") else 0
    return [base + s for s in range(1, n + 1)]


def configs_for(harts, chosen):
    """The configurations to run on `harts`: `chosen` (--configs) if given,
    else DEFAULT_CONFIGS on 2 harts and SCALING_CONFIGS on more."""
    return chosen or (DEFAULT_CONFIGS if harts == 2 else SCALING_CONFIGS)


def jobs_for(chosen, harts, builds, boots, per_boot, jitter):
    """[(config, harts, job)]: for each configuration on each hart count,
    `builds` kernel builds x `boots` boots of each, a job a boot, each boot
    jittered with a seed of its own (+seed: BOOT_SEED_BASE + its first
    sample seed) and forking `per_boot` samples at the snapshot, one seed
    of memory jitter each. In the order they should run: every
    configuration's next boot before any configuration's one after (the
    builds taking turns), so that a sweep cut short has a few boots of each
    to compare rather than all of some."""
    wanted = {(c, b, bench_list(c, h)) for h in harts for c in configs_for(h, chosen)
              for b in builds_of(c, builds)}
    fws = {key: firmware(*key) for key in sorted(wanted, key=str)}
    jobs = []
    for h in harts:
        sim = model_file(h)
        for i in range(builds * boots):
            for config in configs_for(h, chosen):
                build = builds_of(config, builds)[i % builds]
                mine = seeds_of(config, builds * boots * per_boot)[i * per_boot:(i + 1) * per_boot]
                chunk = ",".join(map(str, mine))
                boot = BOOT_SEED_BASE + mine[0]
                name = f"{config}-{h}harts-build{build}-boot{boot}-seeds{chunk}"
                jobs.append((config, h, sweep.Job(name, (
                    sim, f"+mem-jitter={jitter}", f"+seed={boot}", "+timestamps", f"+max-cycles={MAX_CYCLES}",
                    f"+fork-seeds={chunk}", "+fork-jobs=1", "+fork-logs={out}",
                    fws[(config, build, bench_list(config, h))]))))
    return jobs


def plan_path(harts):
    return SWEEP_RESULTS / f"plan-{harts}harts.json"


def inputs_of(harts):
    """What every job of a sweep on `harts` is made from, whatever its
    configuration: the model (model_file()'s name for it), the kernel's and
    OpenSBI's sources, series and configurations, and the compiler. Two runs
    with the same inputs are one sweep, even when they share no job."""
    return hashlib.sha256(" ".join([
        model_file(harts).built_from, hash_inputs(ROOT / "sw/linux", ROOT / "sw/opensbi"),
        tool_version("riscv64-linux-gnu-gcc", "--version")]).encode()).hexdigest()[:16]


def write_plan(harts, jobs, stamp_line, inputs):
    """The sweep on `harts` as it starts: each job's configuration, name and
    key, the stamp of the inputs they were made from and `inputs`
    (inputs_of()). --report reads it back, so that the tables can be remade
    from the kept jobs whatever the tree has become since (no model or
    kernel is built for a report). A run of other configurations or seeds
    on the same inputs adds its jobs to the plan; a run on other inputs, or
    one with a job whose key changed, starts a new one (a plan without
    inputs, from before they were recorded, is never the same)."""
    path = plan_path(harts)
    old = json.loads(path.read_text()) if path.exists() else {"jobs": []}
    mine = [{"config": c, "name": j.name, "key": j.key()} for c, j in jobs]
    keys = {j["name"]: j["key"] for j in mine}
    same = old.get("inputs") == inputs and all(keys.get(j["name"], j["key"]) == j["key"] for j in old["jobs"])
    if same and old["jobs"]:  # the same inputs: the plan keeps its stamp and order, and gains any new jobs
        names = {j["name"] for j in old["jobs"]}
        plan = {**old, "jobs": old["jobs"] + [j for j in mine if j["name"] not in names]}
    else:
        plan = {"stamp": stamp_line, "inputs": inputs, "jobs": mine}
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
        path = plan_path(h)
        if not path.exists():
            sys.exit(f"linux_bench: no sweep on {h} harts has been started here ({path} is missing): "
                     f"make linux-bench HARTS={h}")
        plan = json.loads(path.read_text())
        stamps.append(plan["stamp"])
        jobs += [(j["config"], h, _Kept(j["name"], j["key"])) for j in plan["jobs"]
                 if not opts.configs or j["config"] in opts.configs]
    return jobs, " ".join(dict.fromkeys(stamps))


def boot_of(job_name):
    """A job's (build, boot seed), from its name: (None, None) for a job of
    a sweep before each boot had its own (2026-12-01), build None for one
    before builds were counted."""
    build, boot = re.search(r"-build(\d+)-", job_name), re.search(r"-boot(\d+)-", job_name)
    return (int(build[1]) if build else None), (int(boot[1]) if boot else None)


def samples_of(config, harts, result, logs, boot=None, build=None):
    """One row per phase of each forked child: its cycles, and as the value
    the cycles or, for a benchmark, loops per million cycles. A child that
    did not pass, or passed without a benchmark's "data intact" line, is one
    row with its status (None: no result) and no value; so is a job whose
    boot never reached the snapshot. `boot`, `build`: the job's boot seed
    and kernel build, where it had them."""
    rows = []
    for name in sorted(result["files"]):
        m = re.fullmatch(r"seed-(\d+)\.out", name)
        if not m:
            continue
        seed = int(m.group(1))
        text = result["stdout"] + result["files"][name] + result["files"].get(f"seed-{seed}.err", "")
        log = logs / f"{config}-{harts}harts-seed{seed}.log"
        log.write_text(text)
        failed = {"config": config, "harts": harts, "build": build, "boot": boot, "seed": seed, "phase": "-", "cycles": None,
                  "value": None, "status": linux_demo_table.exit_status(log)}
        if failed["status"] != 0:
            rows.append(failed)
            continue
        runs = bench_runs(text)
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
                run = runs.get(bench)
                if not run or not run["shape_held"]:  # its data or its shape did not hold: no result
                    mine = None
                    break
                # loops per M-cycle: over the window, or over the phase for fixed work
                row["value"] = run["loops"] / (r["cycles"] / 1e6) if bench[0] in FIXED_WORK else run["rate"]
                rates = [n / k * 1e6 for n, k in run["threads"] if k]
                row["per_thread"] = " ".join(f"{v:.2f}" for v in rates)
                # the flushes the kernel was asked for (sw/linux/measure), and the loops they came from
                row.update({k: r.get(k) for k in ("remote_page", "remote_range", "remote_long", "remote_all", "local")},
                           loops=run["loops"])
                if bench[0] == "useonce":
                    row["reclaimed"] = (workload_counts(text, "useonce-reclaim") or {}).get("reclaimed")
            mine.append(row)
        rows += mine if mine else [{**failed, "status": None}]
    if not rows:  # the boot never reached the snapshot
        rows.append({"config": config, "harts": harts, "build": build, "boot": boot, "seed": None, "phase": "-", "cycles": None,
                     "value": None, "status": result["status"] or None})
    return rows


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--harts", type=int, nargs="+", default=[2], choices=[2, 4, 8])
    ap.add_argument("--builds", type=int, default=2, help="kernel builds of each configuration (default 2)")
    ap.add_argument("--boots", type=int, default=4, help="boots of each build, each its own seed (default 4)")
    ap.add_argument("--per-boot", type=int, default=2, help="samples forked from each boot (default 2)")
    ap.add_argument("--jitter", type=int, default=16, help="+mem-jitter: up to this many cycles per access")
    ap.add_argument("--configs", nargs="+", choices=list(CONFIGS),
                    help=f"default: {' '.join(DEFAULT_CONFIGS)} on 2 harts, {' '.join(SCALING_CONFIGS)} on more")
    ap.add_argument("--report", action="store_true",
                    help="run nothing: the tables from the jobs a sweep has finished so far")
    sweep.add_cluster_options(ap)
    opts = ap.parse_args(argv)
    if opts.configs and "stock" not in opts.configs:
        ap.error("the comparisons need the stock configuration")
    if min(opts.builds, opts.boots, opts.per_boot) < 1:
        ap.error("--builds, --boots and --per-boot are counts of at least 1")
    name = "linux-bench"
    results_dir, logs = BUILD / "results", BUILD / "logs" / name
    results_dir.mkdir(parents=True, exist_ok=True)
    logs.mkdir(parents=True, exist_ok=True)
    if opts.report:
        jobs, stamp_line = planned(opts)
        results = sweep.kept([j for _, _, j in jobs], SWEEP_RESULTS)
    else:
        jobs = jobs_for(opts.configs, opts.harts, opts.builds, opts.boots, opts.per_boot, opts.jitter)
        # taken before the sweep, which may outlive commits; results kept
        # from an earlier sweep were made from these very inputs (jobs are
        # keyed by the model's and firmware's contents)
        stamp_line = stamp(" ".join(["scripts/linux_bench.py", *argv]), INPUTS + ("scripts",))
        for h in opts.harts:
            write_plan(h, [(c, j) for c, jh, j in jobs if jh == h], stamp_line, inputs_of(h))
        results = sweep.run([j for _, _, j in jobs], SWEEP_RESULTS, opts)
    rows = []
    for config, h, job in jobs:
        if job.key() in results:
            build, boot = boot_of(job.name)
            rows += samples_of(config, h, results[job.key()], logs, boot, build)
    missing = sum(job.key() not in results for _, _, job in jobs)
    if missing:
        stamp_line += (f" A partial sweep: {len(jobs) - missing} of its {len(jobs)} jobs had run; the rest are "
                       f"not in these tables.")
    fields = ["harts", "config", "build", "boot", "seed", "status", "phase", "cycles", "value", "per_thread",
              "remote_page", "remote_range", "remote_long", "remote_all", "local", "loops", "shootdown_ipis",
              "mmode_cycles", "held_cycles", "walk_cycles", "wait_cycles", "reclaimed", "requests", "direct"]
    tables.write_csv(results_dir / f"{name}.csv", rows, fields)
    text = report.summary(rows, opts.harts, stamp_line)
    (results_dir / f"{name}.md").write_text(text + "\n")
    report.plot(rows, results_dir / f"{name}.png")
    report.plot_scaling(rows, results_dir / f"{name}-scaling.png")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
