"""One way to build a cocotb bench on Verilator and run it from pytest,
for test_benches.py, test_sdram_model.py, test_litedram.py and test_smoke.py,
and which of a run's tests failed on a check of their own."""
import fcntl
import os
import pathlib
import re
import xml.etree.ElementTree as ET

from cocotb.runner import get_results, get_runner

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BUILD = pathlib.Path(os.environ.get("BUILD", ROOT / "build"))
BUILD_ARGS = ["--no-timing", "-Wno-fatal", "-Wno-lint", "-Wno-style", "-O2"]


def run(build_dir, sources, top, tests, test_dir=None, parameters=None, defines=None, seed=None, plusargs=(),
        env=None, pythonpath=(), includes=()):
    """Builds `top` from `sources` into `build_dir` (once, whichever pytest
    worker gets there first) and runs the cocotb module `tests` in
    `test_dir` (default: the build directory). Returns None if every test
    passed, else what went wrong and where its log is."""
    build_dir.mkdir(parents=True, exist_ok=True)
    runner = get_runner("verilator")
    with open(build_dir.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        runner.build(verilog_sources=sources, hdl_toplevel=top, build_dir=build_dir, parameters=parameters or {},
                     defines=defines or {}, includes=list(includes), build_args=BUILD_ARGS, log_file=build_dir / "build.log")
    test_dir = test_dir or build_dir
    test_dir.mkdir(exist_ok=True)
    log = test_dir / "test.log"
    try:
        # Under pytest the runner raises SystemExit when a test fails
        # ("Failed N of M tests") or the simulator does.
        results = runner.test(hdl_toplevel=top, test_module=tests, build_dir=build_dir, test_dir=test_dir, seed=seed,
                              plusargs=list(plusargs), log_file=log,
                              extra_env={"PYTHONPATH": os.pathsep.join([str(HERE), *map(str, pythonpath)]),
                                         **(env or {})})
    except SystemExit as e:
        return f"{e} (log: {log})"
    total, failed = get_results(results)
    return None if total > 0 and failed == 0 else f"{failed} of {total} tests failed (log: {log})"


def failed_tests(test_dir):
    """{test name: why} of the tests the last run in `test_dir` failed, from
    its results file and log: why is the AssertionError a check raised, or
    None if the test failed otherwise (a timeout, an exception in the
    bench, the simulator)."""
    # Under pytest, cocotb names the results file after the pytest test.
    xml = max((f for f in test_dir.iterdir() if f.name != "test.log"), key=lambda f: f.stat().st_mtime)
    root = ET.parse(xml).getroot()
    failed = [tc.get("name") for tc in root.iter("testcase") if tc.find("failure") is not None]
    log = (test_dir / "test.log").read_text(errors="replace")
    out = {}
    for name in failed:
        # cocotb logs "<time> INFO cocotb.regression NAME failed" and the
        # traceback below it, up to the next timestamped line.
        section = re.search(rf"cocotb\.regression\s+{re.escape(name)} failed\n(.*?)(?=^\s*[\d.]+ns |\Z)", log, re.S | re.M)
        found = re.search(r"^\s*AssertionError: (.*)$", section[1] if section else "", re.M)
        out[name] = found[1][:200] if found else None
    return out
