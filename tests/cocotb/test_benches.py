"""Launches the cocotb benches (agent_tb.py, unit_tb.py) on Verilator from
pytest, each with COCOTB_SEEDS fresh random seeds (5 unless told; `make
cocotb-long` runs 200). COCOTB_SEED=<seed> runs just that seed; a failure
names its seed, which replays it."""
import fcntl
import os
import pathlib
import random
import subprocess

import pytest
from cocotb.runner import get_results, get_runner

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BUILD = pathlib.Path(os.environ.get("BUILD", ROOT / "build"))

BENCHES = {
    # bench top: (Verilog top module, cocotb test module)
    "agent": ("FlushAgent", "agent_tb"),
    "unit": ("UnitBench", "unit_tb"),
}


def bench_sources(top):
    out = subprocess.run([str(ROOT / "scripts/build-bench.sh"), top], check=True, capture_output=True, text=True)
    d = pathlib.Path(out.stdout.strip())
    return sorted(d.glob("*.v")), d


SEEDS = int(os.environ.get("COCOTB_SEEDS", "5"))


@pytest.mark.parametrize("run", range(1 if "COCOTB_SEED" in os.environ else SEEDS))
@pytest.mark.parametrize("top", sorted(BENCHES))
def test_bench(top, run):
    module, tests = BENCHES[top]
    sources, vdir = bench_sources(top)
    build_dir = BUILD / "cocotb" / f"{top}-{vdir.name}"
    build_dir.mkdir(parents=True, exist_ok=True)
    runner = get_runner("verilator")
    # One build per bench, whichever pytest worker gets there first.
    with open(build_dir.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        runner.build(verilog_sources=sources, hdl_toplevel=module, build_dir=build_dir,
                     build_args=["--no-timing", "-Wno-fatal", "-Wno-lint", "-Wno-style", "-O2"],
                     log_file=build_dir / "build.log")
    seed = int(os.environ.get("COCOTB_SEED", random.randrange(1 << 31)))
    test_dir = build_dir / f"run-{run}"
    test_dir.mkdir(exist_ok=True)
    results = runner.test(hdl_toplevel=module, test_module=tests, build_dir=build_dir,
                          test_dir=test_dir, seed=seed,
                          extra_env={"PYTHONPATH": os.pathsep.join([str(HERE), str(ROOT / "tests/models")])},
                          log_file=test_dir / "test.log")
    total, failed = get_results(results)
    assert total > 0 and failed == 0, (
        f"{failed} of {total} {top} bench tests failed with seed {seed} "
        f"(replay: COCOTB_SEED={seed}); log: {test_dir / 'test.log'}")
