"""The ULX3S's SDRAM path (the LiteDRAM controller fpga/litedram/gen.py
generates, on the SDRAM model fpga/sim/sdr_sdram.sv) under its cocotb
bench, litedram_tb.py, on Verilator."""
import fcntl
import os
import pathlib
import subprocess

import pytest
from cocotb.runner import get_results, get_runner

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BUILD = pathlib.Path(os.environ.get("BUILD", ROOT / "build"))


def test_litedram_on_the_sdram_model():
    ctrl = pathlib.Path(subprocess.run([str(ROOT / "fpga/litedram/build.sh")], check=True, capture_output=True,
                                       text=True).stdout.strip())
    build_dir = BUILD / "cocotb" / f"litedram-{ctrl.name}"
    build_dir.mkdir(parents=True, exist_ok=True)
    runner = get_runner("verilator")
    with open(build_dir.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        runner.build(verilog_sources=[ctrl / "litedram_ulx3s.v", ROOT / "fpga/sim/sdr_sdram.sv", HERE / "litedram_top.sv"],
                     hdl_toplevel="litedram_top", build_dir=build_dir,
                     build_args=["--no-timing", "-Wno-fatal", "-Wno-lint", "-Wno-style", "-O2"],
                     log_file=build_dir / "build.log")
    log = build_dir / "test.log"
    try:
        results = runner.test(hdl_toplevel="litedram_top", test_module="litedram_tb", build_dir=build_dir,
                              test_dir=build_dir, extra_env={"PYTHONPATH": str(HERE)}, log_file=log)
    except SystemExit as e:
        pytest.fail(f"{e} (log: {log})")
    total, failed = get_results(results)
    assert total > 0 and failed == 0, f"{failed} of {total} tests failed (log: {log})"
