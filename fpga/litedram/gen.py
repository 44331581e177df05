#!/usr/bin/env python3
"""gen.py OUT_DIR [--clock HZ]: the ULX3S's SDRAM controller, generated
from LiteDRAM (pinned in fpga/litedram/requirements.txt) as one Verilog
module, `litedram_ulx3s`, for the board SoC's memory port:

  AXI4 slave, 64 bits (the SoC's memory port; addresses taken modulo the
  32 MiB)  -> AXI2Native, below: each burst streamed as commands of the
  chip's 16 bits onto a LiteDRAM native port of that width, one a cycle
  -> LiteDRAMCore (its bank machines, refresher, multiplexer)
  -> GENSDRPHY at 1:1, CAS latency 2 -> the pins, with DQ as dq_o / dq_oe
  / dq_i (the board top makes the tristate; the simulation joins it to
  fpga/sim/sdr_sdram.sv).

Not LiteDRAM's 64-bit AXI port (LiteDRAMAXI2Native through its native
down-converter): an earlier attempt through it wrote nothing. Not LiteX's
path for a 64-bit CPU on narrow DRAM either (AXI2Wishbone,
LiteDRAMWishbone2Native), which the board had first: it takes a burst a
beat at a time and waits out each beat, 118 cycles a cache line read
against 41-44 here, and Linux on the board spent its time in its timer
ticks (docs/fpga.md).

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

from migen import Array, Cat, Constant, FSM, If, Module, Mux, NextState, NextValue, Record, Signal, log2_int
from migen.fhdl.specials import Tristate
from litex.gen.fhdl import verilog
from litex.soc.interconnect import csr_bus, stream
from litex.soc.interconnect.axi import AXIInterface
from litedram.core import LiteDRAMCore
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


class AXI2Native(Module):
    """An AXI4 slave of 64 bits streaming each burst onto a narrower
    LiteDRAM native port (the chip's 16 bits): every beat is `ratio`
    commands of the port's width, issued one a cycle as the controller
    takes them, so that a cache line's 32 accesses follow one another in
    the open row (LiteX's AXI2Wishbone and LiteDRAMWishbone2Native went
    through them a beat at a time, waiting out each beat's latency: a line
    read took 118 cycles, here 40-odd). One burst at a time, reads and
    writes taking turns when both wait, responses in order.

    Reads: the controller pushes read data without flow control, so a
    command is issued only while the read FIFO has room for its data
    (`depth` chunks in flight); four chunks make a beat, the first in the
    low bits. A narrow read gets the whole 64-bit word holding it.
    Writes: each command's chunk and byte enables go into a FIFO as the
    command is taken, which feeds the port's write data in command order;
    the response waits until the port has taken the burst's last chunk.
    INCR bursts, and FIXED or WRAP ones of a single beat (all Rocket's
    TileLink-to-AXI4 bridge issues); another burst, or a beat wider than
    the bus, is answered SLVERR and writes nothing."""

    def __init__(self, axi, port, depth=32):
        dw = len(port.wdata.data)
        ratio = len(axi.w.data) // dw
        ar, aw, w, r, b = axi.ar, axi.aw, axi.w, axi.r, axi.b
        shift = log2_int(len(axi.w.data) // 8)  # bytes a beat, as a shift
        busy, reading, prefer_write = Signal(), Signal(), Signal()
        ident, resp, size = Signal(len(ar.id)), Signal(2), Signal(3)
        byte = Signal(len(ar.addr))
        to_issue, to_answer = Signal(9), Signal(9)  # beats whose commands / whose answers are to come
        chunk = Signal(max=max(ratio, 2))
        inflight = Signal(max=depth + 1)
        self.submodules.rfifo = rfifo = stream.SyncFIFO([("data", dw)], depth)
        self.submodules.wfifo = wfifo = stream.SyncFIFO([("data", dw), ("we", dw // 8)], 4 * ratio)

        # Taking a burst.
        take_ar, take_aw = Signal(), Signal()
        self.comb += [
            take_ar.eq(~busy & ar.valid & (~aw.valid | ~prefer_write)),
            take_aw.eq(~busy & aw.valid & ~take_ar),
            ar.ready.eq(take_ar), aw.ready.eq(take_aw),
        ]
        for take, c, is_read in ((take_ar, ar, 1), (take_aw, aw, 0)):
            bad = ((c.burst != 1) & (c.len != 0)) | (c.size > shift)
            self.sync += If(take,
                busy.eq(1), reading.eq(is_read), prefer_write.eq(is_read), ident.eq(c.id),
                resp.eq(Mux(bad, 2, 0)), size.eq(c.size), byte.eq(c.addr),
                to_issue.eq(c.len + 1), to_answer.eq(c.len + 1), chunk.eq(0))

        # Commands: a beat's `ratio` chunks, then the next beat's address.
        writing = busy & ~reading
        issue = Signal()
        self.comb += [
            issue.eq(busy & (to_issue != 0) & Mux(reading, inflight < depth, w.valid & wfifo.sink.ready)),
            port.cmd.valid.eq(issue),
            port.cmd.we.eq(~reading),
            port.cmd.addr.eq(Cat(chunk, byte[shift:])),
        ]
        taken = port.cmd.valid & port.cmd.ready
        step = Array(Constant(1 << n, len(byte)) for n in range(8))
        self.sync += If(taken,
            chunk.eq(chunk + 1),
            If(chunk == ratio - 1, chunk.eq(0), to_issue.eq(to_issue - 1), byte.eq(byte + step[size])))

        # Write data, in command order; the beat is taken with its last chunk.
        wdata = Array(w.data[i * dw:(i + 1) * dw] for i in range(ratio))
        wstrb = Array(w.strb[i * dw // 8:(i + 1) * dw // 8] for i in range(ratio))
        self.comb += [
            wfifo.sink.valid.eq(taken & writing),
            wfifo.sink.data.eq(wdata[chunk]),
            wfifo.sink.we.eq(Mux(resp == 0, wstrb[chunk], 0)),
            w.ready.eq(taken & writing & (chunk == ratio - 1)),
            port.wdata.valid.eq(wfifo.source.valid),
            port.wdata.data.eq(wfifo.source.data),
            port.wdata.we.eq(wfifo.source.we),
            wfifo.source.ready.eq(port.wdata.ready),
            b.valid.eq(writing & (to_issue == 0) & ~wfifo.source.valid & ~wfifo.sink.valid),
            b.id.eq(ident), b.resp.eq(resp),
        ]

        # Read data: chunks into beats, the next beat filling as one leaves.
        acc, have = Signal(len(r.data)), Signal(max=ratio + 1)
        pop, sent = Signal(), Signal()
        self.comb += [
            port.rdata.ready.eq(1),
            rfifo.sink.valid.eq(port.rdata.valid),
            rfifo.sink.data.eq(port.rdata.data),
            r.valid.eq(have == ratio), r.data.eq(acc), r.id.eq(ident), r.resp.eq(resp), r.last.eq(to_answer == 1),
            sent.eq(r.valid & r.ready),
            pop.eq(rfifo.source.valid & ((have != ratio) | r.ready)),
            rfifo.source.ready.eq(pop),
        ]
        self.sync += [
            If(pop, acc.eq(Cat(acc[dw:], rfifo.source.data)), have.eq(Mux(sent, 1, have + 1))
            ).Elif(sent, have.eq(0)),
            inflight.eq(inflight + (taken & reading) - pop),
        ]
        # A burst ends with its last answer.
        self.sync += If((sent & (to_answer == 1)) | (b.valid & b.ready), busy.eq(0))
        self.sync += If(sent | (b.valid & b.ready), to_answer.eq(to_answer - 1))


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
        # The SoC's port: AXI4 bursts streamed onto the native port, 64 to 16 bits.
        port = self.sdram.crossbar.get_port()
        self.axi = AXIInterface(data_width=64, address_width=25, id_width=4)
        self.submodules.axi2native = AXI2Native(self.axi, port)
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
