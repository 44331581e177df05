"""The ULX3S smoke top (fpga/ulx3s/smoke.v, the first bitstream for a new
board: make fpga BOARD=ulx3s-smoke) simulated at its pins with the ECP5
stand-ins: reset, the heartbeat and the serial echo (smoke_tb.py). A host
at the wrong rate must see its bytes come back wrong."""
import subprocess

from verilator_run import BUILD, ROOT, failed_tests, run

HEARTBEAT_BIT = 8  # a blink every 512 cycles, not 2^24
SOURCES = [ROOT / "fpga/sim/ecp5_stubs.v", ROOT / "fpga/common/board_reset.v", ROOT / "fpga/common/uart_echo.v",
           ROOT / "fpga/ulx3s/pll.v", ROOT / "fpga/ulx3s/smoke.v"]


def bench(name, env=None):
    build = BUILD / "cocotb" / "smoke"
    build.mkdir(parents=True, exist_ok=True)
    pll = subprocess.run(["python3", ROOT / "fpga/ecp5_pll.py", "25000000", "25000000", "--clkos", "25000000:90"],
                         check=True,
                         capture_output=True, text=True).stdout
    (build / "pll_params.vh").write_text(pll)
    return run(build, SOURCES, "ulx3s_smoke", "smoke_tb", test_dir=build / f"run-{name}",
               parameters={"HEARTBEAT_BIT": HEARTBEAT_BIT}, includes=[build],
               env={"SMOKE_HEARTBEAT_BIT": str(HEARTBEAT_BIT), **(env or {})})


def test_smoke_top_echoes_at_its_rate():
    why = bench("board-rate")
    assert why is None, why


def test_a_host_at_another_rate_is_not_echoed():
    why = bench("wrong-rate", env={"SMOKE_BIT_CYCLES": "20"})
    failed = failed_tests(BUILD / "cocotb" / "smoke" / "run-wrong-rate")
    assert why and "the board sent back" in (failed.get("echo") or ""), (why, failed)
