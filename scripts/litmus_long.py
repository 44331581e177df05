#!/usr/bin/env python3
"""litmus_long.py [SCHEDULES [BACK-END...]] [WHERE] : every litmus test (tests/litmus)
SCHEDULES times (1,000 unless told) on every back end (or those named), each
run a job of scripts/sweep.py (a LocalCluster of a worker a core, or WHERE:
--scheduler ADDRESS, --slurm N; a finished back end is kept and not run
again while its inputs stay the same): the unit's channels on the 2- and 4-hart
SoCs; on the 2-hart SoC the batched SBI extension and SBI RFENCE carried out
by the unit and, under stock OpenSBI, over IPIs; RFENCE over IPIs on QEMU
with 4 harts. Each run is judged against the reference models and written
to build/results/litmus-<back end>.txt (a litmus7-style report), its log
beside it, and one row per back end to build/results/litmus-long.md
(stamped; `make results PUBLISH=litmus-long` publishes it). A back end fails when its run did not end with status 0 (on the
SoC that includes the co-simulation scoreboard's verdict: 71 for a
violation, 72 for a run it could not trace), when the run did not finish
its tests, or when the judge failed a test. Exits 1 if any back end failed.
A benchmark of hours at 1,000 schedules; the 4-hart SoC is the slowest
(about 90 minutes).
"""
import argparse
import pathlib
import re
import subprocess
import sys

import sweep
from builds import BUILD, model
from litmus_lang.judge import report, tests as litmus_tests
from results import tables
from results.stamp import stamp

ROOT = pathlib.Path(__file__).resolve().parents[1]

BACKENDS = ("unit-4harts", "unit-2harts", "sbi-ext-2harts", "sbi-rfence-unit-2harts", "sbi-rfence-ipi-2harts",
            "qemu-rfence-ipi-4harts")
RESULTS = BUILD / "results"
WALL_SECONDS = 6 * 3600


def usage(msg):
    raise SystemExit(f"litmus-long: {msg}\nusage: litmus_long.py [SCHEDULES [BACK-END...]] (back ends: "
                     f"{', '.join(BACKENDS)})")


def programs(schedules):
    """(soc directory, sbi directory) of the litmus programs built to run
    `schedules` schedules a test."""
    dirs = []
    for platform in ("soc", "sbi"):
        out = BUILD / "sw/baremetal" / f"{platform}-litmus-{schedules}"
        subprocess.run(["make", "-s", "-C", ROOT / "sw/baremetal", f"PLATFORM={platform}", f"O={out}",
                        f"LITMUS_SCHEDULES={schedules}"], check=True)
        dirs.append(out)
    return dirs


def firmware(schedules, flavor, payload):
    """OpenSBI with `payload`, built into a directory of its own."""
    out = BUILD / "sw/opensbi" / f"litmus-{schedules}-{flavor}-{payload.stem}"
    subprocess.run([ROOT / "sw/opensbi/build.sh", *(["--stock"] if flavor == "stock" else []), payload, out],
                   check=True, stdout=subprocess.DEVNULL)
    return out


def commands(schedules, names):
    """{back end: command line} of the back ends asked for."""
    soc, sbi = programs(schedules)
    make = {
        "unit-2harts": lambda: [model(2), soc / "litmus.elf"],
        "unit-4harts": lambda: [model(4), soc / "litmus.elf"],
        "sbi-ext-2harts": lambda: [model(2), firmware(schedules, "unit", sbi / "sbi_litmus_ext.bin") / "fw_payload.elf"],
        "sbi-rfence-unit-2harts": lambda: [model(2), firmware(schedules, "unit", sbi / "sbi_litmus_rfence.bin")
                                           / "fw_payload.elf"],
        "sbi-rfence-ipi-2harts": lambda: [model(2), firmware(schedules, "stock", sbi / "sbi_litmus_rfence.bin")
                                          / "fw_payload.elf"],
        "qemu-rfence-ipi-4harts": lambda: [ROOT / "scripts/qemu-virt.sh", "4", "-bios",
                                           firmware(schedules, "stock", sbi / "sbi_litmus_rfence.bin")
                                           / "fw_payload.bin"],
    }
    return {name: [str(c) for c in make[name]()] for name in names}


def job(name, cmd):
    """The sweep job of one back end: the model and the programs shipped
    by their contents (QEMU's script runs from this clone: a worker that
    runs that back end needs one, and QEMU)."""
    shipped = lambda a: sweep.File(a) if pathlib.Path(a).is_file() and not a.endswith(".sh") else a
    return sweep.Job(f"litmus-{name}", tuple(shipped(a) for a in cmd), timeout=WALL_SECONDS)


def verdict(name, status, log, schedules):
    """None if the back end passed, else why not; writes its report."""
    text = log.read_text(errors="replace")
    if status != 0:
        return f"the run ended with status {status} (log: {log})"
    if not re.search(r"^litmus-done", text, re.M):
        return f"the run did not finish its tests (log: {log})"
    out, failed = report(text, schedules)
    (RESULTS / f"litmus-{name}.txt").write_text(out)
    return f"{failed} tests failed (report: {RESULTS / f'litmus-{name}.txt'})" if failed else None


def summary(name, text, seconds):
    """One row of litmus-long.md from a back end's report: tests failed of
    those run, tests skipped (each for the reason its test file gives), the
    weak outcomes never seen, the wall time."""
    skipped = len(re.findall(r"^Test \S+: skipped", text, re.M))
    m = re.search(r"^(\d+) tests failed; weak outcomes never seen: (\d+)((?:\n  .*)*)", text, re.M)
    failed, unseen = (int(m[1]), [u.strip() for u in m[3].splitlines() if u.strip()]) if m else ("?", [])
    return [name, f"{failed} of {len(litmus_tests()) - skipped}", skipped, "; ".join(unseen) or "none",
            f"{seconds / 60:.0f} min"]


def write_summary(rows, schedules, names):
    command = "make litmus-long" + (f" SCHEDULES={schedules}" if schedules != 1000 else "") + \
        (f" BACKENDS=\"{' '.join(names)}\"" if list(names) != list(BACKENDS) else "")
    tables.write_fragment(RESULTS / "litmus-long.md", f"The litmus tests at {schedules:,} schedules",
                          stamp(command, extra=f"; {schedules} schedules a test"),
                          tables.markdown(["back end", "tests failed", "skipped", "weak outcomes never seen",
                                           "wall"], rows))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("schedules", nargs="?", default="1000", help="schedules a test (default 1000)")
    ap.add_argument("backends", nargs="*", metavar="BACK-END", help=f"of {', '.join(BACKENDS)} (default: all)")
    sweep.add_cluster_options(ap)
    opts = ap.parse_args(argv)
    if not re.fullmatch(r"[1-9]\d*", opts.schedules):
        usage(f"SCHEDULES must be a positive number, not '{opts.schedules}'")
    schedules = int(opts.schedules)
    for name in opts.backends:
        if name not in BACKENDS:
            usage(f"unknown back end '{name}'")
    names = opts.backends or list(BACKENDS)
    RESULTS.mkdir(parents=True, exist_ok=True)
    jobs = {name: job(name, cmd) for name, cmd in commands(schedules, names).items()}
    print(f"==> litmus, {schedules} schedules a test, on {', '.join(names)}, through scripts/sweep.py", flush=True)
    results = sweep.run(list(jobs.values()), BUILD / "sweeps/litmus-long", opts)
    failed, rows = 0, []
    for name in names:
        r = results[jobs[name].key()]
        log = RESULTS / f"litmus-{name}.log"
        log.write_text(r["stdout"] + r["stderr"])
        why = verdict(name, r["status"], log, schedules)
        print(f"    {name}: {why or 'passed'}", flush=True)
        failed += why is not None
        judged = why is None or "tests failed" in why  # the run ended and its report was written
        rows.append(summary(name, (RESULTS / f"litmus-{name}.txt").read_text(), r["seconds"]) if judged
                    else [name, why, "-", "-", f"{r['seconds'] / 60:.0f} min"])
    write_summary(rows, schedules, names)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
