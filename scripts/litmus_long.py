#!/usr/bin/env python3
"""litmus_long.py [SCHEDULES [BACK-END...]] : every litmus test (tests/litmus)
SCHEDULES times (1,000 unless told) on every back end (or those named), two
runs at a time on the two cores: the unit's channels on the 2- and 4-hart
SoCs; on the 2-hart SoC the batched SBI extension and SBI RFENCE carried out
by the unit and, under stock OpenSBI, over IPIs; RFENCE over IPIs on QEMU
with 4 harts. Each run is judged against the reference models and written
to build/results/litmus-<back end>.txt (a litmus7-style report), its log
beside it. A back end fails when its run did not end with status 0 (on the
SoC that includes the co-simulation scoreboard's verdict: 71 for a
violation, 72 for a run it could not trace), when the run did not finish
its tests, or when the judge failed a test. Exits 1 if any back end failed.
A benchmark of hours at 1,000 schedules; the 4-hart SoC is the slowest
(about 90 minutes).
"""
import concurrent.futures
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests/litmus")]
from harness import BUILD, model  # noqa: E402
from judge import report  # noqa: E402

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


def run(name, cmd):
    """Runs one back end; returns (name, exit status or None on the wall-clock
    limit, its log)."""
    log = RESULTS / f"litmus-{name}.log"
    with open(log, "w") as f:
        try:
            status = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                    timeout=WALL_SECONDS).returncode
        except subprocess.TimeoutExpired:
            status = None
    return name, status, log


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


def main():
    args = sys.argv[1:]
    schedules = 1000
    if args:
        if not re.fullmatch(r"[1-9]\d*", args[0]):
            usage(f"SCHEDULES must be a positive number, not '{args[0]}'")
        schedules, args = int(args[0]), args[1:]
    for name in args:
        if name not in BACKENDS:
            usage(f"unknown back end '{name}'")
    names = args or list(BACKENDS)
    RESULTS.mkdir(parents=True, exist_ok=True)
    cmds = commands(schedules, names)
    failed = 0
    print(f"==> litmus, {schedules} schedules a test, on {', '.join(names)}, two at a time", flush=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for name, status, log in pool.map(lambda n: run(n, cmds[n]), names):
            why = verdict(name, status, log, schedules)
            print(f"    {name}: {why or 'passed'}", flush=True)
            failed += why is not None
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
