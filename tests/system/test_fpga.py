"""FPGA checks that need no board: the shootdown unit and one flush agent,
synthesised with yosys for Lattice ECP5 and Xilinx 7-series as the 2-hart
SoC elaborates them, stay within the figures committed in fpga/budget.json
(at most 10% over) and infer no latch (fpga/synth_blocks.py); the board
flow's own checks (its timing verdict, programs that fit a board)."""
import subprocess
import sys

import pytest

import synth_blocks
from harness import ROOT, verilog

BUDGET = ROOT / "fpga/budget.json"


def test_unit_and_agent_fit_their_budgets_on_ecp5_and_xilinx():
    r = subprocess.run([sys.executable, str(ROOT / "fpga/synth_blocks.py"), verilog(2), "--check", str(BUDGET)],
                       capture_output=True, text=True, timeout=1200)
    assert r.returncode == 0, r.stdout + r.stderr
    assert len(r.stdout.splitlines()) == 4, r.stdout  # unit and agent, ECP5 and Xilinx


def test_the_budget_check_reports_growth_and_latches():
    """The check itself, on made-up figures: a block 11% over its budget
    fails, 10% over passes, and any latch fails."""
    import json
    budget = json.loads(BUDGET.read_text())
    stats = {(f, b): dict(v) for f, blocks in budget.items() if not f.startswith("_") for b, v in blocks.items()}
    assert synth_blocks.check(stats, {}, BUDGET) == []
    grown = dict(stats)
    grown[("ecp5", "unit")] = {"luts": int(budget["ecp5"]["unit"]["luts"] * 1.11), "ffs": budget["ecp5"]["unit"]["ffs"]}
    problems = synth_blocks.check(grown, {}, BUDGET)
    assert len(problems) == 1 and "unit on ecp5" in problems[0], problems
    edge = dict(stats)
    edge[("xilinx", "agent")] = {"luts": budget["xilinx"]["agent"]["luts"], "ffs": int(budget["xilinx"]["agent"]["ffs"] * 1.1)}
    assert synth_blocks.check(edge, {}, BUDGET) == []


def test_a_latch_fails_the_check(tmp_path):
    """Blocks with a latch in one of them (a tiny made-up design under the
    SoC's module names): the script finds it and exits 1."""
    (tmp_path / "SimTop.v").write_text("""
module FlushAgent(input clock, input en, input [3:0] d, output reg [3:0] q);
  always @(*) if (en) q = d;   // a latch: q keeps its value when !en
endmodule
module ShootdownUnit(input clock, input [3:0] d, output reg [3:0] q);
  always @(posedge clock) q <= d;
endmodule
""")
    r = subprocess.run([sys.executable, str(ROOT / "fpga/synth_blocks.py"), str(tmp_path), "--check", str(BUDGET)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "agent: synthesis inferred latches" in r.stderr and "unit:" not in r.stderr, r.stderr


def test_the_place_and_route_report_fails_a_missed_clock(tmp_path):
    """fpga/utilisation.py on nextpnr reports (the shape nextpnr-ecp5
    --report writes): a clock under its constraint exits 1 and is named, one
    that meets it exits 0, a report without any clock exits 1."""
    import json

    def run(fmax):
        report = tmp_path / "report.json"
        report.write_text(json.dumps({"utilization": {"TRELLIS_COMB": {"used": 60000, "available": 83640}},
                                      "fmax": fmax, "critical_paths": []}))
        return subprocess.run([sys.executable, str(ROOT / "fpga/utilisation.py"), "nextpnr", str(report), "1", "25"],
                              capture_output=True, text=True)
    met = run({"clk": {"achieved": 31.5, "constraint": 25}})
    assert met.returncode == 0 and "TRELLIS_COMB" in met.stdout and "meets" in met.stdout, met.stdout
    missed = run({"clk": {"achieved": 21.0, "constraint": 25}})
    assert missed.returncode == 1 and "clk: 21.00 MHz (MISSES 25 MHz)" in missed.stdout, missed.stdout
    assert run({}).returncode == 1


def test_board_programs_fit_the_boards_memory_or_fail_to_link(tmp_path):
    """PLATFORM=board links every program the boards run into the 224 KiB
    below the UART loader; one that does not fit is an error at link time,
    not a program that overwrites the loader."""
    from harness import program
    elf = program("board", "hello")
    end = subprocess.run(["riscv64-unknown-elf-nm", str(elf)], capture_output=True, text=True, check=True).stdout
    top = int(next(l.split()[0] for l in end.splitlines() if l.endswith(" _end")), 16)
    assert 0x80000000 < top <= 0x80000000 + 224 * 1024, hex(top)
    big = subprocess.run(["make", "-s", "-C", str(ROOT / "sw/baremetal"), "PLATFORM=board", f"O={tmp_path}",
                          f"{tmp_path}/shootdown_cases.elf"], capture_output=True, text=True)
    assert big.returncode != 0 and "does not fit the platform's memory" in big.stderr, big.stderr


# ecppll's own output for these (in MHz: input, output -> CLKI_DIV,
# CLKFB_DIV, CLKOP_DIV, CLKOP_CPHASE), as published beside the commands that
# made them; the phases show ecppll's single-precision rounding (half of
# CLKOP_DIV, truncated after a product that may land just below it).
ECPPLL = [(25, 25, (1, 1, 24, 11)), (12, 16, (3, 4, 37, 18)), (25, 302.325, (6, 73, 2, 0)),
          (25, 120, (5, 24, 5, 2)), (25, 100, (1, 4, 6, 2)), (25, 95, (5, 19, 6, 3)), (25, 90, (5, 18, 7, 3)),
          (25, 75, (1, 3, 8, 4)), (25, 60, (5, 12, 10, 4)), (25, 50, (1, 2, 12, 5))]


def test_the_pll_dividers_are_ecppll_s():
    import ecp5_pll
    assert [ecp5_pll.primary(i, o)[:4] for i, o, _ in ECPPLL] == [want for *_, want in ECPPLL]


def test_the_ulx3s_pll_comes_from_the_clock_its_soc_was_elaborated_for(tmp_path):
    """The board SoC's device tree says 25 MHz (bus and console agree);
    fpga/ecp5_pll.py makes the header top.v includes, and yosys elaborates
    top.v with it (the SoC and the FPGA's cells as black boxes). A clock
    the PLL cannot make exactly, or a device tree whose console disagrees
    with its bus, is refused."""
    import pathlib
    dts = (pathlib.Path(verilog(2, "board")) / "SimTop.dts").read_text()
    pll = ROOT / "fpga/ecp5_pll.py"
    (tmp_path / "soc.dts").write_text(dts)
    hz = subprocess.run([sys.executable, str(pll), "--clock-of", str(tmp_path / "soc.dts")],
                        capture_output=True, text=True, check=True).stdout.strip()
    assert hz == "25000000", hz
    vh = subprocess.run([sys.executable, str(pll), "25000000", hz, "--clkos", f"{hz}:90"],  # as fpga/build.sh
                        capture_output=True, text=True, check=True).stdout
    (tmp_path / "pll_params.vh").write_text(vh)
    assert "PLL_CLKOP_DIV = 24;" in vh and "PLL_CLKFB_DIV = 1;" in vh, vh
    stub = "module FpgaTop(" + ", ".join(f"{d} {n}" for d, n in (
        ("input", "clock"), ("input", "reset"), ("output", "uart_tx"), ("input", "uart_rx"), ("output", "status_done"),
        ("output", "status_passed"), ("output [15:0]", "status_code"))) + ");\nendmodule\n"
    (tmp_path / "stub.v").write_text(stub)
    r = subprocess.run(["yosys", "-q", "-p", f"read_verilog -lib +/ecp5/cells_bb.v; read_verilog -lib {tmp_path}/stub.v; "
                        f"read_verilog -I{tmp_path} {ROOT}/fpga/ulx3s/top.v {ROOT}/fpga/ulx3s/pll.v {ROOT}/fpga/common/board_reset.v "
                        f"{ROOT}/fpga/common/status_leds.v; "
                        "hierarchy -check -top ulx3s_top"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    off = subprocess.run([sys.executable, str(pll), "25000000", "33000000"], capture_output=True, text=True)
    assert off.returncode == 1 and "cannot be made" in off.stderr and not off.stdout, off
    (tmp_path / "bad.dts").write_text(dts.replace("clock-frequency = <400000000>", "clock-frequency = <800000000>"))
    bad = subprocess.run([sys.executable, str(pll), "--clock-of", str(tmp_path / "bad.dts")], capture_output=True, text=True)
    assert bad.returncode == 1 and "not 16 x the bus clock" in bad.stderr, bad


@pytest.mark.long
def test_the_gate_level_cell_models_answer_as_the_mapped_verilog(tmp_path):
    """fpga/gatesim/ecp5_models.v (DP16KD in the 9-, 18- and 36-bit modes
    the ULX3S netlists use, MULT18X18D of each signedness) simulates the
    netlists yosys maps onto them as their behavioural Verilog does
    (check_models.py); a model that swaps the halves of an 18-bit row is
    caught by the 9-bit memory. make test-long."""
    check = [sys.executable, str(ROOT / "fpga/gatesim/check_models.py"), "--cycles", "20000"]
    r = subprocess.run(check, capture_output=True, text=True, timeout=1800)
    assert r.returncode == 0 and r.stdout.count(": 0 of 20000 cycles differ") == 6, r.stdout + r.stderr
    model = (ROOT / "fpga/gatesim/ecp5_models.v").read_text()
    swapped = "ad[3] ? row[8:0] : row[17:9]"
    assert model.count("ad[3] ? row[17:9] : row[8:0]") == 1
    (tmp_path / "bad.v").write_text(model.replace("ad[3] ? row[17:9] : row[8:0]", swapped))
    r = subprocess.run(check + ["--model", str(tmp_path / "bad.v")], capture_output=True, text=True, timeout=1800)
    assert r.returncode == 1 and "ram9:" in r.stdout.split("check_models:")[-1], r.stdout + r.stderr
