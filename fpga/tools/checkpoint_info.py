#!/usr/bin/env python3
"""checkpoint_info.py CHECKPOINT [--console N]

What a board simulator's checkpoint (fpga/sim/board_main.cpp, +checkpoint)
holds, without running it: the model that wrote it, the cycle it was taken
at (and what that is in seconds of the board's time at 25 MHz), and the
last N bytes (default 2,000) of the console the serial line had carried:
how far a run of hours (Linux on the simulated ULX3S) has come.

Exit status: 0, or 2 with a message for a file that is not a checkpoint.
"""
import argparse
import struct
import sys

BOARD_HZ = 25_000_000
TAG = b"board-sim checkpoint 1"
BRIDGE_TAG = b"uart-bridge-1\0"
# sim/uart_bridge.cpp UartBridge::state(): after its tag, bit_cycles (u32),
# cycle (u64), rx_bit, rx_wait (u32), rx_byte (u8), tx_frame (u16),
# tx_bits, tx_wait (u32), then the bytes queued for the SoC and those
# recorded from it, each a u64 count and the bytes
BRIDGE_FIXED = "<IQIIBHII"


class NotACheckpoint(Exception):
    pass


def read(path, head=64 << 20):
    """(model key, cycle, console bytes) of the checkpoint at `path`. Only
    its head is read: the board's state comes after the console."""
    with open(path, "rb") as f:
        data = f.read(head)
    at = 16  # Verilator's header line
    if not data.startswith(b"verilatorsave"):
        raise NotACheckpoint("no Verilator save header")

    def string():
        nonlocal at
        if len(data) < at + 4:
            raise NotACheckpoint("cut short")
        (n,) = struct.unpack_from("<I", data, at)
        if len(data) < at + 4 + n:
            raise NotACheckpoint("cut short")
        at += 4 + n
        return data[at - n:at]

    if string() != TAG:
        raise NotACheckpoint("not a board-sim checkpoint")
    key = string().decode()
    (cycle,) = struct.unpack_from("<Q", data, at)
    at += 8
    bridge = string()
    if not bridge.startswith(BRIDGE_TAG):
        raise NotACheckpoint("no serial bridge state")
    b = len(BRIDGE_TAG) + struct.calcsize(BRIDGE_FIXED)
    (queued,) = struct.unpack_from("<Q", bridge, b)
    b += 8 + queued
    (recorded,) = struct.unpack_from("<Q", bridge, b)
    b += 8
    if len(bridge) - b != recorded:
        raise NotACheckpoint("the serial bridge's state is cut short")
    return key, cycle, bridge[b:]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("checkpoint")
    ap.add_argument("--console", type=int, default=2000, metavar="N", help="bytes of the console's end (2,000)")
    a = ap.parse_args()
    try:
        key, cycle, console = read(a.checkpoint)
    except (OSError, NotACheckpoint) as e:
        print(f"checkpoint_info: {a.checkpoint}: {e}", file=sys.stderr)
        return 2
    print(f"model {key}, cycle {cycle:,} ({cycle / BOARD_HZ:.1f} s of the board at 25 MHz), "
          f"{len(console):,} bytes of console; its end:")
    sys.stdout.write(console[-a.console:].decode(errors="replace"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
