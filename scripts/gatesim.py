#!/usr/bin/env python3
"""gatesim.py [--netlist JSON] : the ULX3S SDRAM board's synthesised netlist
simulated at gate level (fpga/gatesim/build.sh: synthesised first unless
--netlist names one), running board programs loaded over its serial pins
as a person would load them (fpga/tools/uartboot.py): hello (each hart
prints, led[1]), shootdown_timeout (the unit's requests, its timeout and
the firmware's recovery, led[1]) and fail (led[2] with status 3: the
LEDs are read, not assumed). The same programs on the RTL model of the
same board top give the speed to compare. Writes
build/results/gatesim.{md,csv} (the build's time, each run's cycles,
seconds and speed); exits 1 if a program does not end as it should."""
import argparse
import os
import pathlib
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import board_run  # noqa: E402
from builds import BUILD, ROOT, board_sim, program  # noqa: E402
from results import stamp, tables  # noqa: E402

# (program, the status the LEDs must give, what its console must show)
PROGRAMS = [
    ("hello", 0, lambda out: out.count("hello from hart") == 2),
    ("shootdown_timeout", 0,
     lambda out: out.endswith("PASS: the unit gave up on the stuck hart twice and served the others\n")),
    ("fail", 64 + 3, lambda out: True),
]
RUN_SECONDS = 6 * 3600  # wall-clock bound on one program's run
FIELDS = ["model", "program", "status", "expected", "cycles", "seconds", "khz", "ok"]


def gate_sim(netlist):
    """(path of the gate-level model, the seconds its build took when it was
    built: build.sh keeps them beside it)."""
    r = subprocess.run([str(ROOT / "fpga/gatesim/build.sh"), *([str(netlist)] if netlist else [])],
                       stdout=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit("gatesim: the gate-level model did not build (above)")
    path = pathlib.Path(r.stdout.strip())
    return path, (path.parent / "build-seconds").read_text().split()


def run_all(name, sim, elfs, programs):
    """The rows of `programs` run on `sim`, as many at a time as there are
    cores (each run is one simulator process)."""
    with ThreadPoolExecutor(max_workers=os.cpu_count()) as pool:
        return list(pool.map(lambda p: run_one(name, sim, elfs, *p), [p for p in PROGRAMS if p[0] in programs]))


def run_one(name, sim, elfs, prog, expected, shows):
    begin = time.monotonic()
    # A 4 KiB frame is 1 M cycles of line: at gate level, beside other
    # simulations, its answer took more than an hour once. The tool waits
    # as long as the run may take; the simulator's +max-cycles bounds a
    # hang, and the tool ends when the simulator closes the line.
    tool, run = board_run.boot(sim, elfs[prog], bit_cycles=25, max_cycles=20_000_000, timeout=RUN_SECONDS,
                               answer_timeout=RUN_SECONDS)
    seconds = time.monotonic() - begin
    cycles = board_run.board_cycles(run.stderr)
    ok = run.status == expected and (expected != 0 or tool.status == 0) and shows(tool.stdout)
    print(f"{name} {prog}: status {run.status} (wanted {expected}), {cycles} cycles in {seconds:.0f} s"
          + ("" if ok else f"\n  tool: {tool.stderr.strip()[-300:]}\n  sim: {run.stderr.strip()[-300:]}"),
          flush=True)
    return {"model": name, "program": prog, "status": run.status, "expected": expected, "cycles": cycles or 0,
            "seconds": f"{seconds:.1f}", "khz": f"{(cycles or 0) / seconds / 1e3:.2f}", "ok": "yes" if ok else "NO"}


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--netlist", type=pathlib.Path, help="a netlist (JSON) synth_ecp5 wrote, instead of "
                    "synthesising the board now")
    ap.add_argument("--programs", nargs="+", choices=[p for p, _, _ in PROGRAMS], default=[p for p, _, _ in PROGRAMS])
    opts = ap.parse_args(argv)
    rev = stamp.inputs_rev(("hw", "sim", "sw", "fpga"))
    # a netlist made before names itself: it may be older than the inputs' commit
    netlist = "the netlist synthesised now by fpga/build.sh"
    if opts.netlist:
        written = time.strftime("%Y-%m-%d %H:%M", time.gmtime(opts.netlist.stat().st_mtime))
        netlist = f"the netlist {opts.netlist} (written {written} UTC)"
    elfs = {prog: program("board", prog) for prog, _, _ in PROGRAMS}
    gate, (build_s, cells) = gate_sim(opts.netlist)
    rows = run_all("gate-level", gate, elfs, opts.programs) + run_all("RTL", board_sim("ulx3s"), elfs, opts.programs)
    out = BUILD / "results"
    out.mkdir(parents=True, exist_ok=True)
    tables.write_csv(out / "gatesim.csv", rows, FIELDS)
    speed = {(r["model"], r["program"]): r for r in rows}
    body = [f"The synthesised netlist ({cells} cells), built into a Verilator model in {int(float(build_s)) // 60} "
            "min; each program loaded over the serial pins at 1 Mbit/s (25 cycles a bit) and judged by the LEDs.",
            "", *tables.markdown(
                ["program", "LEDs' status (wanted)", "cycles", "gate-level s", "gate-level kHz", "RTL kHz",
                 "RTL / gate-level"],
                [[p, f"{speed['gate-level', p]['status']} ({e})", speed["gate-level", p]["cycles"],
                  speed["gate-level", p]["seconds"], speed["gate-level", p]["khz"], speed["RTL", p]["khz"],
                  f"{float(speed['RTL', p]['khz']) / max(float(speed['gate-level', p]['khz']), 1e-9):.0f}x"]
                 for p, e, _ in PROGRAMS if p in opts.programs])]
    tables.write_fragment(out / "gatesim.md", "The ULX3S netlist at gate level",
                          stamp.stamp("make gatesim", ("hw", "sim", "sw", "fpga"), rev=rev,
                                      extra=f"; {netlist}, yosys's ECP5 cell models and fpga/gatesim/ecp5_models.v"),
                          body)
    print((out / "gatesim.md").read_text())
    bad = [f"{r['model']} {r['program']}" for r in rows if r["ok"] != "yes"]
    if bad:
        print(f"gatesim: did not end as they should: {', '.join(bad)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
