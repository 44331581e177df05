"""FPGA checks that need no board: the shootdown unit and one flush agent,
synthesised with yosys for Lattice ECP5 and Xilinx 7-series as the 2-hart
SoC elaborates them, stay within the figures committed in fpga/budget.json
(at most 10% over) and infer no latch (fpga/synth_blocks.py)."""
import subprocess
import sys

from harness import ROOT, verilog

sys.path.insert(0, str(ROOT / "fpga"))
import synth_blocks  # noqa: E402

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
