"""cocotb bench of the ULX3S smoke top (fpga/ulx3s/smoke.v) with the ECP5
stand-ins of fpga/sim/ecp5_stubs.v, driven at its pins as a host on the
FTDI lines would: FIRE1 held resets it, the LEDs say it left reset and
blink, and every byte sent at 1 Mbit/s (25 cycles a bit at 25 MHz) comes
back, its low bits on the LEDs. SMOKE_BIT_CYCLES sends at another rate (a
host at the wrong speed), which the bench must fail."""
import os

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge

BIT = int(os.environ.get("SMOKE_BIT_CYCLES", "25"))  # the host's rate; the board's is 25
HEARTBEAT_BIT = int(os.environ["SMOKE_HEARTBEAT_BIT"])  # the parameter the bench was built with
RESET_CYCLES = 1 << 16  # fpga/common/board_reset.v holds reset this long after the PLL locks


async def send(dut, byte):
    for level in [0, *((byte >> i) & 1 for i in range(8)), 1]:
        dut.ftdi_txd.value = level
        await ClockCycles(dut.clk_25mhz, BIT)


async def receive(dut, timeout):
    """The next byte on ftdi_rxd, sampled mid-bit at the board's rate."""
    for _ in range(timeout):
        await RisingEdge(dut.clk_25mhz)
        if dut.ftdi_rxd.value == 0:
            break
    else:
        raise AssertionError(f"no start bit on ftdi_rxd in {timeout} cycles")
    await ClockCycles(dut.clk_25mhz, 25 + 12)
    byte = 0
    for i in range(8):
        byte |= int(dut.ftdi_rxd.value) << i
        await ClockCycles(dut.clk_25mhz, 25)
    assert dut.ftdi_rxd.value == 1, "no stop bit"
    return byte


@cocotb.test()
async def echo(dut):
    cocotb.start_soon(Clock(dut.clk_25mhz, 40, units="ns").start())
    dut.ftdi_txd.value = 1
    dut.btn.value = 0b10  # FIRE1 pressed
    await ClockCycles(dut.clk_25mhz, 200)
    assert dut.led.value.integer >> 1 & 1 == 0, "out of reset with FIRE1 pressed"
    dut.btn.value = 0
    await ClockCycles(dut.clk_25mhz, RESET_CYCLES + 200)
    assert dut.led.value.integer >> 1 & 1 == 1, "still in reset after FIRE1 was let go"
    for byte in (0x55, 0xA3, 0x00, 0xFF, 0x3C):
        got = cocotb.start_soon(receive(dut, 40 * BIT))
        await send(dut, byte)
        got = await got
        assert got == byte, f"sent {byte:#04x}, the board sent back {got:#04x}"
        await FallingEdge(dut.clk_25mhz)
        assert dut.led.value.integer >> 2 == byte & 0x3F, f"led[7:2] {dut.led.value.integer >> 2:#x}"
    beat = set()
    for _ in range(4 << HEARTBEAT_BIT):  # two blinks
        await FallingEdge(dut.clk_25mhz)
        beat.add(dut.led.value.integer & 1)
    assert beat == {0, 1}, "the heartbeat did not blink"
