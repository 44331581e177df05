#!/usr/bin/env python3
"""gen.py OUT_DIR [--clock HZ]: the ULX3S's SDRAM controller, generated
from LiteDRAM (pinned in fpga/litedram/requirements.txt) as one Verilog
module, `litedram_ulx3s`, for the board SoC's memory port:

  AXI4 slave, 64 bits (the SoC's memory port; addresses taken modulo the
  32 MiB)  -> LiteX's AXI2Wishbone (one beat at a time: bursts are split)
  -> a 64-bit Wishbone port, LiteDRAMWishbone2Native, LiteDRAM's native
  down-converter to the chip's 16 bits -> LiteDRAMCore (its bank machines,
  refresher, multiplexer) -> GENSDRPHY at 1:1, CAS latency 2
  -> the pins, with DQ as dq_o / dq_oe / dq_i (the board top makes the
  tristate; the simulation joins it to fpga/sim/sdr_sdram.sv).

This is what LiteX itself builds for a 64-bit CPU on narrow DRAM; the
native 64-bit AXI port (LiteDRAMAXI2Native on a 64-bit crossbar port) is
not used: an earlier attempt through it wrote nothing (docs/fpga.md).

The chip is MT48LC16M16 (IS42S16160 has the same geometry and looser or
equal timings at this clock), except that the refresh interval is taken
as 7.8 us, not LiteDRAM's 64 ms / 8192 = 7812.5 ns: rounded up to cycles
(196 at 25 MHz, 7.84 us) the latter refreshes each row every 64.2 ms, over
the data sheet's 64 ms, which the chip model counts as lost data.

LiteDRAM leaves the power-up sequence to software (the BIOS writes it
through the controller's DFII registers). Here a small sequencer of ours
writes those registers itself after reset, before any CPU runs: software
control with CKE high at once (the controller's own refresher would
otherwise issue commands within the 100 us the chip must be left alone),
200 us of NOP (ISSI's figure, Micron's is 100), PRECHARGE ALL, two AUTO
REFRESH, LOAD MODE REGISTER (CL 2, burst 1, sequential; LiteDRAM's BIOS
sequence first loads it with bit 8 set, a DDR "DLL reset" that the SDR
data sheet reserves), then hands the pins to the controller and raises
init_done, which holds the SoC in reset until then."""
import argparse
import pathlib
import re
import sys

from migen import Array, Cat, Constant, FSM, If, Module, NextState, NextValue, Record, Signal
from migen.fhdl.specials import Tristate
from litex.gen.fhdl import verilog
from litex.soc.interconnect import csr_bus, wishbone
from litex.soc.interconnect.axi import AXIInterface
from litex.soc.interconnect.axi.axi_full_to_wishbone import AXI2Wishbone
from litedram.core import LiteDRAMCore
from litedram.frontend.wishbone import LiteDRAMWishbone2Native
from litedram.modules import MT48LC16M16, _TechnologyTimings
from litedram.phy import GENSDRPHY

MEMORY_BYTES = 32 << 20


class Ulx3sSdram(MT48LC16M16):
    """MT48LC16M16 with a refresh interval that rounds to 64 ms or less."""
    technology_timings = _TechnologyTimings(tREFI=7800, tWTR=MT48LC16M16.technology_timings.tWTR,
                                            tCCD=MT48LC16M16.technology_timings.tCCD,
                                            tRRD=MT48LC16M16.technology_timings.tRRD)


class InitSequencer(Module):
    """Writes the power-up sequence to the DFII registers through the CSR
    bus, then raises `done`."""

    def __init__(self, bus, regs, clock_hz, cl):
        self.done = Signal()
        cycles = lambda ns: max(1, -(-int(ns * clock_hz) // 1_000_000_000))  # noqa: E731
        cmd = {"cs": 1, "we": 2, "cas": 4, "ras": 8}
        mode = (cl << 4) | 0  # burst 1, sequential, standard operation
        steps = [("control", 0b1110, 0)]  # software control, CKE high, (ODT, reset_n: DDR only)
        steps += [("wait", 0, cycles(200_000))]
        steps += [("pi0_address", 0x400, 0), ("pi0_baddress", 0, 0),
                  ("pi0_command", cmd["cs"] | cmd["ras"] | cmd["we"], 0), ("pi0_command_issue", 1, cycles(20) + 1)]
        for _ in range(2):
            steps += [("pi0_address", 0, 0), ("pi0_command", cmd["cs"] | cmd["ras"] | cmd["cas"], 0),
                      ("pi0_command_issue", 1, cycles(66) + 1)]
        steps += [("pi0_address", mode, 0), ("pi0_command", cmd["cs"] | cmd["ras"] | cmd["cas"] | cmd["we"], 0),
                  ("pi0_command_issue", 1, 3)]
        steps += [("control", 0b0001, 0)]  # the controller drives the pins
        addr = Array(Constant(0 if n == "wait" else regs[n], len(bus.adr)) for n, _, _ in steps)
        data = Array(Constant(v, 32) for _, v, _ in steps)
        wait = Array(Constant(w, 32) for _, _, w in steps)
        write = Array(Constant(n != "wait", 1) for n, _, _ in steps)
        step = Signal(max=len(steps) + 1)
        left = Signal(32)
        self.submodules.fsm = fsm = FSM(reset_state="STEP")
        fsm.act("STEP",
            bus.adr.eq(addr[step]), bus.dat_w.eq(data[step]), bus.we.eq(write[step]),
            NextValue(left, wait[step]), NextValue(step, step + 1),
            If(step == len(steps) - 1, NextState("DONE")).Else(NextState("WAIT")))
        fsm.act("WAIT",
            NextValue(left, left - 1),
            If(left <= 1, NextState("STEP")))
        fsm.act("DONE", self.done.eq(1))


class SplitTristate:
    """Lowers the PHY's DQ tristate to separate ports of the top."""
    top = None

    @staticmethod
    def lower(dr):
        m, t, n = Module(), SplitTristate.top, dr.target.start
        m.comb += [t.dq_o[n].eq(dr.o), t.dq_oe[n].eq(dr.oe), dr.i.eq(t.dq_i[n])]
        return m


class Top(Module):
    def __init__(self, clock_hz):
        from migen import ClockDomain
        self.clock_domains.cd_sys = ClockDomain()
        pads = Record([("a", 13), ("ba", 2), ("cs_n", 1), ("cke", 1), ("ras_n", 1), ("cas_n", 1), ("we_n", 1),
                       ("dm", 2), ("dq", 16)])
        self.pads = pads
        self.submodules.phy = GENSDRPHY(pads, clock_hz, cl=2)
        module = Ulx3sSdram(clock_hz, "1:1")
        self.submodules.sdram = LiteDRAMCore(self.phy, module.geom_settings, module.timing_settings, clock_hz)
        # The controller's registers, reachable only by the sequencer.
        csr = csr_bus.Interface(data_width=32, address_width=14)
        self.submodules.csrbanks = csr_bus.CSRBankArray(self, lambda name, memory: {"sdram": 0}.get(name),
                                                        data_width=32, address_width=14)
        self.submodules.csrcon = csr_bus.Interconnect(csr, self.csrbanks.get_buses())
        regs = {}  # "control", "pi0_command", ...: the word each is at (a register of 32 bits or less is "<name>0")
        for _name, _csrs, _map, rmap in self.csrbanks.banks:
            for i, c in enumerate(rmap.simple_csrs):
                regs[re.fullmatch(r"(?:sdram_)?dfii_(.*?)0?", c.name)[1]] = i
        self.submodules.init = InitSequencer(csr, regs, clock_hz, cl=self.phy.settings.cl)
        self.init_done = Signal()
        self.comb += self.init_done.eq(self.init.done)
        # The SoC's port: AXI4 -> Wishbone -> native, 64 to 16 bits.
        port = self.sdram.crossbar.get_port()
        self.axi = AXIInterface(data_width=64, address_width=25, id_width=4)
        bus = wishbone.Interface(data_width=64, adr_width=port.address_width - 2, addressing="word")
        self.submodules.axi2wb = AXI2Wishbone(self.axi, bus)
        self.submodules.wb2native = LiteDRAMWishbone2Native(bus, port)
        self.dq_o, self.dq_oe, self.dq_i = Signal(16), Signal(16), Signal(16)
        # The AXI4 port under AXI's own names (LiteX's streams have more).
        a = self.axi
        self.ports = {}

        def port(name, width, sig, out):
            p = self.ports[name] = Signal(width, name_override=name)
            self.comb += p.eq(sig) if out else sig.eq(p)
        for ch, c in (("aw", a.aw), ("ar", a.ar)):
            port(f"{ch}id", 4, c.id, False)
            port(f"{ch}addr", 25, c.addr, False)
            port(f"{ch}len", 8, c.len, False)
            port(f"{ch}size", 3, c.size, False)
            port(f"{ch}burst", 2, c.burst, False)
            port(f"{ch}valid", 1, c.valid, False)
            port(f"{ch}ready", 1, c.ready, True)
        port("wdata", 64, a.w.data, False)
        port("wstrb", 8, a.w.strb, False)
        port("wlast", 1, a.w.last, False)
        port("wvalid", 1, a.w.valid, False)
        port("wready", 1, a.w.ready, True)
        port("bid", 4, a.b.id, True)
        port("bresp", 2, a.b.resp, True)
        port("bvalid", 1, a.b.valid, True)
        port("bready", 1, a.b.ready, False)
        port("rid", 4, a.r.id, True)
        port("rdata", 64, a.r.data, True)
        port("rresp", 2, a.r.resp, True)
        port("rlast", 1, a.r.last, True)
        port("rvalid", 1, a.r.valid, True)
        port("rready", 1, a.r.ready, False)
        for name in ("a", "ba", "cs_n", "cke", "ras_n", "cas_n", "we_n", "dm"):
            getattr(pads, name).name_override = f"sdram_{name}"

    def ios(self):
        pads = {s for s in self.pads.flatten() if s is not self.pads.dq}
        return pads | set(self.ports.values()) | {self.cd_sys.clk, self.cd_sys.rst, self.init_done, self.dq_o,
                                                  self.dq_oe, self.dq_i}


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=pathlib.Path)
    ap.add_argument("--clock", type=int, default=25_000_000, help="the SoC's clock, Hz (default 25 MHz)")
    opts = ap.parse_args(argv)
    top = Top(opts.clock)
    SplitTristate.top = top
    for s, n in ((top.dq_o, "dq_o"), (top.dq_oe, "dq_oe"), (top.dq_i, "dq_i")):
        s.name_override = n
    out = verilog.convert(top, ios=top.ios(), name="litedram_ulx3s", special_overrides={Tristate: SplitTristate})
    opts.out.mkdir(parents=True, exist_ok=True)
    out.write(str(opts.out / "litedram_ulx3s.v"))
    t = top.sdram.controller.settings.timing
    print(f"litedram_ulx3s: {opts.clock / 1e6:g} MHz, CL {top.phy.settings.cl}, read latency "
          f"{top.phy.settings.read_latency}; tRP {t.tRP} tRCD {t.tRCD} tWR {t.tWR} tRFC {t.tRFC} tREFI {t.tREFI} "
          f"tRAS {t.tRAS} cycles", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
