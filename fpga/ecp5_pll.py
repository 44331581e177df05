#!/usr/bin/env python3
"""ecp5_pll.py: the ECP5 EHXPLLL's parameters for a board's clock, as
Project Trellis's `ecppll` computes them, so that a board's PLL is made
from the frequency its SoC was elaborated for and cannot disagree with it
(the console's divisor and the timebase come from the same number).

    ecp5_pll.py IN_HZ OUT_HZ [--clkos HZ:DEGREES] > pll_params.vh
    ecp5_pll.py --clock-of SOC.dts

The second form prints the clock, in Hz, a board SoC was elaborated for:
its peripheral bus's (the timebase divides it) after checking that its
console's clock-frequency says the same (16 times it: hw/devices/Uart.scala).

writes Verilog localparams for a top's EHXPLLL with feedback from CLKOP:
PLL_CLKI_DIV, PLL_CLKFB_DIV, PLL_CLKOP_DIV, PLL_CLKOP_CPHASE (and, with
--clkos, PLL_CLKOS_DIV/_CPHASE/_FPHASE for a second output at a phase,
e.g. an SDRAM's clock pin). The output frequency is
IN_HZ / CLKI_DIV * CLKFB_DIV, the VCO that times CLKOP_DIV, kept within
400-800 MHz, the phase detector within 3.125-400 MHz. Exits 1 with a
message when OUT_HZ (or the second output) cannot be made exactly: a
board whose clock is off by any amount has a console at the wrong baud
rate.

The search and the phases follow ecppll (libtrellis/tools/ecppll.cpp):
the smallest error, ties to the VCO nearest 600 MHz, the first found on
equal terms; CLKOP's phase is half its period in VCO cycles (ecppll's
"180 degrees, as Lattice does"), computed in single precision as ecppll
does, whose rounding decides between two counts."""
import argparse
import pathlib
import re
import struct
import sys

PFD = (3.125, 400.0)
VCO = (400.0, 800.0)


def f32(x):
    """x rounded to single precision (C's float)."""
    return struct.unpack("f", struct.pack("f", x))[0]


def primary(in_mhz, out_mhz):
    """(CLKI_DIV, CLKFB_DIV, CLKOP_DIV, CLKOP_CPHASE, fout, fvco) nearest to out_mhz."""
    best, error = None, float("inf")
    in_mhz, out_mhz = f32(in_mhz), f32(out_mhz)
    for clki in range(1, 129):
        fpfd = f32(in_mhz / clki)
        if not PFD[0] <= fpfd <= PFD[1]:
            continue
        for clkfb in range(1, 81):
            for clkop in range(1, 129):
                fvco = f32(f32(fpfd * clkfb) * clkop)
                if not VCO[0] <= fvco <= VCO[1]:
                    continue
                fout = f32(fvco / clkop)
                e = f32(abs(f32(fout - out_mhz)))
                if e < error or (e == error and abs(fvco - 600) < abs(best[5] - 600)):
                    error = e
                    ns_phase = f32(1 / (fout * 1e6) * 0.5)
                    best = (clki, clkfb, clkop, int(ns_phase * (fvco * 1e6)), fout, fvco)
    return best


def secondary(fvco, primary_cphase, out_mhz, degrees):
    """(CLKOS_DIV, CLKOS_CPHASE, CLKOS_FPHASE, fout, actual degrees)."""
    div = int(fvco / f32(out_mhz))
    freq = f32(fvco / div)
    ns_shift = f32(1 / (freq * 1e6) * degrees / 360.0)
    count = f32(ns_shift * (fvco * 1e6))
    cphase = int(count)
    fphase = int((count - cphase) * 8)
    actual = 360 * (1 / (fvco * 1e6) * (cphase + fphase / 8.0)) / (1 / (freq * 1e6))
    return div, cphase + primary_cphase, fphase, freq, actual


def clock_of(dts):
    """The SoC clock an elaborated device tree was made for, in Hz."""
    bus = re.search(r"subsystem_pbus_clock \{[^}]*?clock-frequency = <(\d+)>", dts)
    uart = re.search(r"serial@[0-9a-f]+ \{[^}]*?clock-frequency = <(\d+)>", dts)
    if not bus or not uart:
        raise ValueError("no subsystem_pbus_clock or serial node with a clock-frequency")
    if int(uart[1]) != 16 * int(bus[1]):
        raise ValueError(f"the console's clock-frequency {uart[1]} is not 16 x the bus clock {bus[1]}")
    return int(bus[1])


def exact(mhz, wanted_hz):
    return round(mhz * 1e6) == wanted_hz


def main(argv):
    if argv[:1] == ["--clock-of"] and len(argv) == 2:
        try:
            print(clock_of(pathlib.Path(argv[1]).read_text()))
        except (OSError, ValueError) as e:
            print(f"ecp5_pll.py: {argv[1]}: {e}", file=sys.stderr)
            return 1
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("in_hz", type=int, help="the oscillator, Hz")
    ap.add_argument("out_hz", type=int, help="the core clock (CLKOP), Hz")
    ap.add_argument("--clkos", metavar="HZ:DEGREES", help="a second output (CLKOS) at HZ, shifted by DEGREES")
    opts = ap.parse_args(argv)
    if not 8_000_000 <= opts.in_hz <= 400_000_000:
        ap.error(f"the input clock must be 8-400 MHz, not {opts.in_hz} Hz")
    if not 10_000_000 <= opts.out_hz <= 400_000_000:
        ap.error(f"an EHXPLLL output is 10-400 MHz, not {opts.out_hz} Hz")
    clki, clkfb, clkop, cphase, fout, fvco = primary(opts.in_hz / 1e6, opts.out_hz / 1e6)
    if not exact(fout, opts.out_hz):
        print(f"ecp5_pll.py: {opts.out_hz} Hz cannot be made from {opts.in_hz} Hz (nearest: {fout * 1e6:.0f} Hz); "
              "choose a clock the PLL makes exactly, or the console's divisor is wrong", file=sys.stderr)
        return 1
    lines = [f"// Generated by fpga/ecp5_pll.py {' '.join(argv)}: do not edit.",
             f"// CLKOP {fout:g} MHz from {opts.in_hz / 1e6:g} MHz, VCO {fvco:g} MHz",
             f"localparam PLL_CLKI_DIV = {clki};", f"localparam PLL_CLKFB_DIV = {clkfb};",
             f"localparam PLL_CLKOP_DIV = {clkop};", f"localparam PLL_CLKOP_CPHASE = {cphase};"]
    if opts.clkos:
        try:
            hz, degrees = (float(x) for x in opts.clkos.split(":"))
        except ValueError:
            ap.error(f"--clkos takes HZ:DEGREES, not '{opts.clkos}'")
        div, ccphase, fphase, freq, actual = secondary(fvco, cphase, hz / 1e6, degrees)
        if not exact(freq, round(hz)) or abs(actual - degrees) > 1e-3:
            print(f"ecp5_pll.py: a second output at {hz:.0f} Hz, {degrees:g} degrees cannot be made from a "
                  f"{fvco:g} MHz VCO (nearest: {freq * 1e6:.0f} Hz, {actual:.3f} degrees)", file=sys.stderr)
            return 1
        lines += [f"// CLKOS {freq:g} MHz, {actual:g} degrees",
                  f"localparam PLL_CLKOS_DIV = {div};", f"localparam PLL_CLKOS_CPHASE = {ccphase};",
                  f"localparam PLL_CLKOS_FPHASE = {fphase};"]
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
