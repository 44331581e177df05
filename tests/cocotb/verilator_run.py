"""One way to build a cocotb bench on Verilator and run it from pytest,
for test_benches.py, test_sdram_model.py and test_litedram.py."""
import fcntl
import os
import pathlib

from cocotb.runner import get_results, get_runner

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BUILD = pathlib.Path(os.environ.get("BUILD", ROOT / "build"))
BUILD_ARGS = ["--no-timing", "-Wno-fatal", "-Wno-lint", "-Wno-style", "-O2"]


def run(build_dir, sources, top, tests, test_dir=None, parameters=None, defines=None, seed=None, plusargs=(),
        env=None, pythonpath=()):
    """Builds `top` from `sources` into `build_dir` (once, whichever pytest
    worker gets there first) and runs the cocotb module `tests` in
    `test_dir` (default: the build directory). Returns None if every test
    passed, else what went wrong and where its log is."""
    build_dir.mkdir(parents=True, exist_ok=True)
    runner = get_runner("verilator")
    with open(build_dir.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        runner.build(verilog_sources=sources, hdl_toplevel=top, build_dir=build_dir, parameters=parameters or {},
                     defines=defines or {}, build_args=BUILD_ARGS, log_file=build_dir / "build.log")
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
