"""The SDRAM model the board simulation runs its controller against
(fpga/sim/sdr_sdram.sv), checked by its cocotb bench (sdram_tb.py) on
Verilator: a data-sheet controller keeps its data with no error counted,
and each rule the model checks counts one error when broken, retention in
a build small enough to wait out (16 rows, 100 us)."""
import fcntl
import os
import pathlib

import pytest
from cocotb.runner import get_results, get_runner

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BUILD = pathlib.Path(os.environ.get("BUILD", ROOT / "build"))
SOURCES = [ROOT / "fpga/sim/sdr_sdram.sv", HERE / "sdram_top.sv"]
BUILDS = {"data-sheet": {}, "retention": {"ROW_BITS": 4, "T_REF_US": 100}}


@pytest.mark.parametrize("build", sorted(BUILDS))
def test_sdram_model(build):
    build_dir = BUILD / "cocotb" / f"sdram-{build}"
    build_dir.mkdir(parents=True, exist_ok=True)
    runner = get_runner("verilator")
    with open(build_dir.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        runner.build(verilog_sources=SOURCES, hdl_toplevel="sdram_top", build_dir=build_dir,
                     parameters=BUILDS[build], build_args=["--no-timing", "-Wno-fatal", "-O2"],
                     log_file=build_dir / "build.log")
    log = build_dir / "test.log"
    try:
        results = runner.test(hdl_toplevel="sdram_top", test_module="sdram_tb", build_dir=build_dir,
                              test_dir=build_dir, extra_env={"PYTHONPATH": str(HERE), "SDRAM_BUILD": build},
                              log_file=log)
    except SystemExit as e:
        pytest.fail(f"{e} (log: {log})")
    total, failed = get_results(results)
    assert total > 0 and failed == 0, f"{failed} of {total} tests failed (log: {log})"
