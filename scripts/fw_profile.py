#!/usr/bin/env python3
"""fw_profile.py --payload PAYLOAD.elf --firmware FW.elf [--out FILE.md] < TRACE

Where OpenSBI's cycles go in an SBI call, from Rocket's commit trace (the
debug model with +verbose prints one line per hart and cycle:
"C<hart>: <cycle> [<retired>] pc=[<pc>] ...").

The payload (sw/baremetal/programs-sbi/fw_profile.c) makes its calls from
functions named profile_<call>. For each, this script takes the last time the
hart that ran it went into the firmware from inside it (or a function it
called), and splits the cycles from the last instruction retired before the
ecall to the first retired after the return among the firmware's functions:
each retired instruction is charged the cycles since the one before it, so a
stall counts against the instruction that waited. The first firmware
instruction also carries the ecall's trap; "(back in S-mode)" is the mret.

Prints a table per call and writes them to FILE.md when asked. Exits 1 with a
message if no profiled call is found in the trace.
"""
import argparse
import bisect
import pathlib
import re
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from results import tables  # noqa: E402
from results.stamp import stamp  # noqa: E402

LINE = re.compile(rb"^C\s*(\d+):\s+(\d+) \[1\] pc=\[([0-9a-f]+)\]")  # Verilog pads %d with spaces
TIMER_MASK = (1 << 32) - 1  # the trace prints the low 32 bits of the cycle counter


class Symbols:
    """Function symbols of an ELF, as [start, end) ranges at run addresses."""

    def __init__(self, syms):
        syms = sorted(syms)
        self.starts = [a for a, _ in syms]
        self.names = [n for _, n in syms]

    @classmethod
    def from_elf(cls, elf, nm, base=0):
        """The ELF's function symbols; those below `base` (a position-independent
        build) are moved up by it."""
        out = subprocess.run([nm, "-n", "--defined-only", elf], check=True, capture_output=True, text=True).stdout
        syms = []
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "tTwW":
                addr = int(parts[0], 16)
                syms.append((addr + base if addr < base else addr, parts[2]))
        if not syms:
            sys.exit(f"fw_profile: {elf} has no function symbols")
        return cls(syms)

    def name(self, pc):
        i = bisect.bisect_right(self.starts, pc) - 1
        return self.names[i] if i >= 0 else f"?{pc:x}"

    def range_of(self, name):
        i = self.names.index(name)
        return self.starts[i], (self.starts[i + 1] if i + 1 < len(self.starts) else 1 << 64)


def profile(trace, payload, firmware):
    """{call: (total cycles, [(function, instructions, cycles)] in order of first use)}
    for the last excursion into the firmware from each profile_<call>."""
    calls = {n[len("profile_"):]: payload.range_of(n) for n in payload.names if n.startswith("profile_")}
    if not calls:
        sys.exit("fw_profile: the payload has no profile_<call> functions")
    main_range = payload.range_of("main")
    pay_lo = payload.starts[0]
    ctx = {}        # hart -> call whose function (or a callee) runs now
    last_s = {}     # hart -> cycle of its last retired S-mode instruction
    trip = {}       # hart -> (call, start cycle, [(pc, delta)]) while in the firmware
    prev = {}       # hart -> cycle of its last retired instruction
    result = {}
    for raw in trace:
        m = LINE.match(raw)
        if not m:
            continue
        hart, t, pc = int(m.group(1)), int(m.group(2)), int(m.group(3), 16)
        delta = (t - prev.get(hart, t)) & TIMER_MASK
        prev[hart] = t
        if pc >= pay_lo:  # the payload (S-mode)
            if hart in trip:
                call, start, steps = trip.pop(hart)
                steps.append((None, delta))
                result[call] = ((t - start) & TIMER_MASK, steps)
            if main_range[0] <= pc < main_range[1]:
                ctx.pop(hart, None)
            for call, (lo, hi) in calls.items():
                if lo <= pc < hi:
                    ctx[hart] = call
            last_s[hart] = t
        elif hart in trip:
            trip[hart][2].append((pc, delta))
        elif hart in ctx and hart in last_s:
            trip[hart] = (ctx[hart], last_s[hart], [(pc, delta)])
    out = {}
    for call, (total, steps) in result.items():
        funcs = {}
        for pc, delta in steps:
            name = "(back in S-mode)" if pc is None else firmware.name(pc)
            n, c = funcs.get(name, (0, 0))
            funcs[name] = (n + (pc is not None), c + delta)
        out[call] = (total, [(f, n, c) for f, (n, c) in funcs.items()])
    return out


def table(call, total, funcs):
    lines = [f"### {call}: {total} cycles from the ecall to the return", ""]
    lines += tables.markdown(["function", "instructions", "cycles", "share"],
                             [[f"`{f}`", n, c, f"{100 * c / total:.1f}%"] for f, n, c in funcs], align="lrrr")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[1])
    ap.add_argument("--payload", required=True)
    ap.add_argument("--firmware", required=True)
    ap.add_argument("--firmware-base", type=lambda s: int(s, 0), default=0x80000000,
                    help="where the (position-independent) firmware runs")
    ap.add_argument("--nm", default="riscv64-unknown-elf-nm")
    ap.add_argument("--out")
    a = ap.parse_args()
    payload = Symbols.from_elf(a.payload, a.nm)
    firmware = Symbols.from_elf(a.firmware, a.nm, a.firmware_base)
    res = profile(sys.stdin.buffer, payload, firmware)
    if not res:
        sys.exit("fw_profile: no profiled call went into the firmware in this trace "
                 "(was it the debug model, run with +verbose?)")
    order = sorted(res, key=lambda c: payload.range_of("profile_" + c)[0])  # as the payload defines them
    text = "\n".join(table(c, *res[c]) for c in order)
    print(text)
    if a.out:
        tables.write_fragment(a.out, "Where the firmware's cycles go in one SBI call (debug model's commit trace)",
                              stamp("make fw-profile", extra="; one run"), tables.code(text))


if __name__ == "__main__":
    main()
