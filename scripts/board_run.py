"""A program run on a simulated board the way a person runs it on a real
one: the simulator (a model with a UART on its pins, `+uart=0`: the SoC
with the boards' console, the exact board tops of fpga/sim, the gate-level
netlist of fpga/gatesim) with its serial lines on a free TCP port, and the
host tool, fpga/tools/uartboot.py, loading the program through it and then
serving as its console. tests/system/test_uartboot.py and scripts/gatesim.py
run their programs through it."""
import hashlib
import pathlib
import re
import subprocess
import sys
from collections import namedtuple

import sweep

ROOT = pathlib.Path(__file__).resolve().parents[1]
TOOL = ROOT / "fpga/tools/uartboot.py"
WAITING = re.compile(r"\[sim\] uart: waiting on 127\.0\.0\.1:(\d+)")
# board_main.cpp's last line: what the LEDs said, after how many cycles
BOARD_END = re.compile(r"\[board\] (?:led\[1\]: passed|led\[2\]: failed, led\[7:3\] = \d+,|timeout: .*?) after "
                       r"(\d+) cycles")

Ran = namedtuple("Ran", "status stdout stderr")


def boot(sim, elf, *tool_args, max_cycles=200_000_000, timeout=900, bit_cycles=5, preload=False,
         answer_timeout=300, checkpoint=None, checkpoint_every=None, restore=None):
    """Starts the simulator `sim` (a path) at `bit_cycles` a bit with its
    UART on a free port, and the host tool against it; returns (the tool's
    Ran, the simulator's Ran). With `preload` (the SDRAM boards) the
    program is in memory from the start (+load) and the tool only starts
    it. The simulation is ended if the tool gives up first. `timeout`:
    seconds for the whole run; `answer_timeout`: for each answer of the
    loader (a 4 KiB frame is 1 M cycles of line at 25 cycles a bit).
    The exact board tops (fpga/sim/board_main.cpp) can write a
    `checkpoint` file every `checkpoint_every` cycles, and go on from one
    (`restore`: the program runs already, the tool is only its console)."""
    args = [str(sim), "+uart=0", f"+uart-bit-cycles={bit_cycles}", f"+max-cycles={max_cycles}"]
    if checkpoint:
        args += [f"+checkpoint={checkpoint}", *([f"+checkpoint-every={checkpoint_every}"] if checkpoint_every else [])]
    if restore:
        args.append(f"+restore={restore}")
        tool_args += ("--attach",)
    elif preload:
        args.append(f"+load={elf}")
        tool_args += ("--preloaded",)
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = proc.stderr.readline()
    m = WAITING.search(first)
    if not m:
        proc.kill()
        out, err = proc.communicate()
        return Ran(-1, "", "the simulator did not open its UART"), Ran(proc.returncode, out, first + err)
    try:
        # A simulated SoC runs some 1,000 times slower than a board (the
        # gate-level ULX3S 12,500 times: 2 kHz for 25 MHz), slower still
        # beside other simulations: a 4 KiB frame's answer can take minutes.
        t = subprocess.run([sys.executable, str(TOOL), f"socket://127.0.0.1:{m.group(1)}", str(elf), "--timeout",
                            str(answer_timeout), *tool_args],
                           capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    if t.returncode != 0:
        proc.kill()
    out, err = proc.communicate(timeout=timeout)
    return Ran(t.returncode, t.stdout, t.stderr), Ran(proc.returncode, out, first + err)


def checkpoint_for(sim, elf):
    """Where a run of `elf` on the board simulator `sim` keeps its
    checkpoint: in the project's cache, keyed by the model (the key of
    what Verilator read, which fpga/sim/build.sh writes beside it and the
    checkpoint carries: a harness edit keeps it) and the program's bytes,
    so that a run of hours stopped with its process (a session's end)
    goes on from there when started again with the same inputs, and a
    changed input starts afresh."""
    model = (pathlib.Path(sim).parent / "model-key").read_text().strip()
    key = hashlib.sha256(model.encode() + b"\0" + pathlib.Path(elf).read_bytes()).hexdigest()[:16]
    d = sweep.cache_root() / "board-checkpoints"
    d.mkdir(parents=True, exist_ok=True)
    return d / f"{model}-{key}.ckpt"


def board_cycles(stderr):
    """The cycles a board simulator ran (its last line), None if it said
    nothing."""
    found = BOARD_END.findall(stderr)
    return int(found[-1]) if found else None
