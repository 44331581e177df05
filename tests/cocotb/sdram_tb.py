"""cocotb bench of the SDRAM model (fpga/sim/sdr_sdram.sv) through
sdram_top.sv, at 133 MHz (CLK_PS 7500, the -75 part's fastest clock, where
every gap of the data sheet is more than one cycle and can be broken): a
controller written here by the data sheet keeps its data and counts no
error, and each rule the model checks counts exactly one error when a
sequence breaks it, so that a board simulation whose controller breaks one
fails. Every test starts from the state the one before left (one
simulation), so each compares error counts before and after."""
import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge

PERIOD_PS = 7500
CMD = {"NOP": 0b0111, "ACT": 0b0011, "READ": 0b0101, "WRITE": 0b0100, "PRE": 0b0010, "REF": 0b0001,
       "LMR": 0b0000, "BST": 0b0110}
# The data sheet's gaps in cycles at 7.5 ns (MT48LC16M16A2-75: tRCD 20 ns,
# tRP 20, tRAS 44, tRC 66, tRRD 15, tWR 15, tRFC 66, tMRD 2 clocks) and
# 100 us of power-up.
RCD, RP, RAS, RC, RRD, WR, RFC, MRD = 3, 3, 6, 9, 2, 2, 9, 2
INIT = 13334
A10 = 1 << 10


class Chip:
    """A controller: each command is sampled at the next rising edge (the
    pins change between edges, as a controller's registers would)."""

    def __init__(self, dut):
        self.dut = dut
        self.cl, self.bl = 2, 1

    async def start(self):
        cocotb.start_soon(Clock(self.dut.clk, PERIOD_PS, units="ps").start())
        for name, v in (("cke", 1), ("cs_n", 0), ("ras_n", 1), ("cas_n", 1), ("we_n", 1), ("ba", 0), ("a", 0),
                        ("dqm", 0), ("dq_in", 0), ("dq_oe", 0)):
            getattr(self.dut, name).value = v
        await FallingEdge(self.dut.clk)

    def pins(self, name, ba=0, a=0):
        c = CMD[name]
        d = self.dut
        d.cs_n.value, d.ras_n.value, d.cas_n.value, d.we_n.value = c >> 3 & 1, c >> 2 & 1, c >> 1 & 1, c & 1
        d.ba.value, d.a.value = ba, a

    async def cmd(self, name, ba=0, a=0, dq=None, dqm=0):
        """`name` at the next rising edge; NOP after it."""
        self.pins(name, ba, a)
        self.dut.dqm.value = dqm
        self.dut.dq_oe.value, self.dut.dq_in.value = dq is not None, dq or 0
        await FallingEdge(self.dut.clk)
        self.pins("NOP")
        self.dut.dq_oe.value, self.dut.dqm.value = 0, 0

    async def nop(self, n=1):
        for _ in range(n):
            await FallingEdge(self.dut.clk)

    async def mode(self, cl, bl):
        await self.cmd("LMR", a=(cl << 4) | {1: 0, 2: 1, 4: 2, 8: 3}[bl])
        await self.nop(MRD - 1)
        self.cl, self.bl = cl, bl

    async def power_up(self, cl=2, bl=1):
        await self.nop(INIT)
        await self.cmd("PRE", a=A10)
        await self.nop(RP - 1)
        for _ in range(2):
            await self.cmd("REF")
            await self.nop(RFC - 1)
        await self.mode(cl, bl)
        assert int(self.dut.initialised.value) == 1

    def errors(self):
        return int(self.dut.errors.value)

    async def write(self, ba, row, col, words, masks):
        """ACTIVE, a burst written, PRECHARGE, each after its gap."""
        await self.cmd("ACT", ba=ba, a=row)
        await self.nop(RCD - 1)
        for i, (w, m) in enumerate(zip(words, masks)):
            if i == 0:
                await self.cmd("WRITE", ba=ba, a=col, dq=w, dqm=m)
            else:
                self.dut.dq_oe.value, self.dut.dq_in.value, self.dut.dqm.value = 1, w, m
                await self.nop(1)
                self.dut.dq_oe.value, self.dut.dqm.value = 0, 0
        await self.nop(max(WR - 1, RAS - RCD - len(words)))
        await self.cmd("PRE", ba=ba)
        await self.nop(RP - 1)

    async def read(self, ba, row, col, dqm=0):
        """ACTIVE, a burst read, PRECHARGE; the burst's words as the bus
        carries them between the edges they are valid at, per byte lane
        (None where the chip did not drive it). DQM is held at `dqm`."""
        await self.cmd("ACT", ba=ba, a=row)
        await self.nop(RCD - 1)
        self.dut.dqm.value = dqm
        self.pins("READ", ba, col)
        await self.nop(1)
        self.pins("NOP")
        self.dut.dqm.value = dqm
        await self.nop(self.cl - 1)  # now between the edges beat 0 is valid at
        out = []
        for _ in range(self.bl):
            out.append(self.sample())
            await self.nop(1)
        self.dut.dqm.value = 0
        await self.nop(max(0, RAS - RCD - self.cl - self.bl))
        await self.cmd("PRE", ba=ba)
        await self.nop(RP - 1)
        return out

    def sample(self):
        driven = int(self.dut.dq_driven.value)
        bus = int(self.dut.dq_bus.value) if driven else 0
        return (bus & 0xff if driven & 1 else None, bus >> 8 if driven & 2 else None)


if os.environ.get("SDRAM_BUILD") != "retention":
    @cocotb.test()
    async def power_up_must_be_complete(dut):
        """A command within 100 us of power-up counts; so does an ACTIVE
        after one refresh only."""
        chip = Chip(dut)
        await chip.start()
        await chip.nop(10)
        await chip.cmd("PRE", a=A10)
        await chip.nop(1)
        assert chip.errors() == 1, chip.errors()
        await chip.nop(INIT)
        await chip.cmd("PRE", a=A10)
        await chip.nop(RP - 1)
        await chip.cmd("REF")
        await chip.nop(RFC - 1)
        await chip.mode(2, 1)
        await chip.cmd("ACT", a=1)
        await chip.nop(RAS)
        await chip.cmd("PRE", a=A10)
        await chip.nop(RP)
        assert chip.errors() == 2 and int(dut.initialised.value) == 0, chip.errors()

    @cocotb.test()
    async def a_data_sheet_controller_keeps_its_data(dut):
        """Writes and reads across banks, rows and columns: bursts of 1 with
        CAS latency 2, of 8 with CAS latency 3, of 4 with 2; each burst
        written whole, then again with random byte masks; a masked lane on
        reads is not driven. Every byte read is the last one written there
        unmasked, and no error is counted."""
        rng = random.Random(int(os.environ.get("RANDOM_SEED", "1")))
        chip = Chip(dut)
        await chip.start()
        await chip.power_up()
        before = chip.errors()
        for cl, bl in ((2, 1), (3, 8), (2, 4)):
            await chip.mode(cl, bl)
            for _ in range(30):
                ba, row, col = rng.randrange(4), rng.randrange(8192), rng.randrange(0, 512, bl)
                first = [rng.getrandbits(16) for _ in range(bl)]
                await chip.write(ba, row, col, first, [0] * bl)
                words = [rng.getrandbits(16) for _ in range(bl)]
                masks = [rng.choice((0, 0, 1, 2, 3)) for _ in range(bl)]
                await chip.write(ba, row, col, words, masks)
                for i, got in enumerate(await chip.read(ba, row, col)):
                    want = tuple((first[i] if masks[i] >> lane & 1 else words[i]) >> 8 * lane & 0xff for lane in (0, 1))
                    assert got == want, f"bank {ba} row {row} column {col + i}: read {got}, wrote {want}"
            lo_only = await chip.read(ba, row, col, dqm=2)
            assert all(lo is not None and hi is None for lo, hi in lo_only), lo_only
        assert chip.errors() == before, f"{chip.errors() - before} errors"

    async def _open(chip):
        await chip.cmd("ACT", a=1)

    async def _open_long(chip):
        await chip.cmd("ACT", a=1)
        await chip.nop(RC)

    async def _open_for_read(chip):
        await chip.cmd("ACT", a=1)
        await chip.nop(RCD - 1)

    async def _pre_late(chip):  # tRC met by the next ACTIVE, tRP not
        await chip.cmd("ACT", a=1)
        await chip.nop(RC - 2)
        await chip.cmd("PRE", a=0)

    async def _written(chip):
        await chip.cmd("ACT", a=1)
        await chip.nop(RAS)
        await chip.cmd("WRITE", a=0, dq=0x1234)

    async def _read_due(chip):
        await _open_for_read(chip)
        await chip.cmd("READ", a=0)

    async def _cke_low(chip):
        chip.dut.cke.value = 0
        await chip.nop(1)
        chip.dut.cke.value = 1

    # name: (what comes first, the breaking step)
    BREACHES = {
        "tRCD": (_open, lambda c: c.cmd("READ", a=0)),
        "tRAS": (_open, lambda c: c.cmd("PRE", a=0)),
        "tRRD": (_open, lambda c: c.cmd("ACT", ba=1, a=1)),
        "tRP": (_pre_late, lambda c: c.cmd("ACT", a=1)),
        "tWR": (_written, lambda c: c.cmd("PRE", a=0)),
        "tRFC": (lambda c: c.cmd("REF"), lambda c: c.cmd("ACT", a=1)),
        "tMRD": (lambda c: c.cmd("LMR", a=0x20), lambda c: c.cmd("ACT", a=1)),
        "ACTIVE to an open bank": (_open_long, lambda c: c.cmd("ACT", a=2)),
        "READ to a closed bank": (None, lambda c: c.cmd("READ", ba=2, a=0)),
        "AUTO REFRESH with a bank open": (_open_long, lambda c: c.cmd("REF")),
        "LOAD MODE REGISTER with a bank open": (_open_long, lambda c: c.cmd("LMR", a=0x20)),
        "mode register: CAS latency 4": (None, lambda c: c.cmd("LMR", a=0x40)),
        "mode register: burst length 16": (None, lambda c: c.cmd("LMR", a=0x24)),
        "mode register: interleaved": (None, lambda c: c.cmd("LMR", a=0x28)),
        "auto precharge": (_open_for_read, lambda c: c.cmd("READ", a=A10)),
        "WRITE while read data is due": (_read_due, lambda c: c.cmd("WRITE", a=0, dq=1)),
        "CKE low": (None, _cke_low),
        "a row open past tRAS max": (_open, lambda c: c.nop(16001)),  # 120 us
    }

    @cocotb.test()
    async def each_breach_counts_one_error(dut):
        """From a chip powered up and quiet (every bank closed, every gap
        long past), each sequence breaks one rule: the model counts exactly
        one error. tRC has no case: at every clock, tRAS + tRP covers it
        for this part."""
        chip = Chip(dut)
        await chip.start()
        await chip.power_up()
        for name, (before, breach) in BREACHES.items():
            if before:
                await before(chip)
            errors = chip.errors()
            await breach(chip)
            await chip.nop(1)
            assert chip.errors() == errors + 1, f"{name}: {chip.errors() - errors} errors counted, not 1"
            await chip.nop(RC)
            await chip.cmd("PRE", a=A10)
            await chip.nop(RC)
            await chip.mode(2, 1)
            await chip.nop(RC)
            assert chip.errors() == errors + 1, f"after {name}: the quiet chip counted more"
else:
    @cocotb.test()
    async def rows_must_be_refreshed(dut):
        """A build with 16 rows a bank and 100 us of retention: a row
        written, then refreshed by AUTO REFRESH (one row of every bank
        each) within the time, reads back without error after more than
        the retention time; a row written and not refreshed since counts
        one error when opened again."""
        chip = Chip(dut)
        await chip.start()
        await chip.power_up()
        before = chip.errors()
        await chip.write(0, 5, 8, [0xbeef], [0])
        for _ in range(16):  # every row once, in 16 x 6.25 us
            await chip.cmd("REF")
            await chip.nop(833)
        assert await chip.read(0, 5, 8) == [(0xef, 0xbe)]
        assert chip.errors() == before, chip.errors()
        await chip.write(1, 7, 0, [0x1111], [0])
        await chip.nop(13334)  # 100 us with no refresh
        await chip.read(1, 7, 0)
        assert chip.errors() == before + 1, chip.errors()
