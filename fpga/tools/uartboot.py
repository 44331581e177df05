#!/usr/bin/env python3
"""uartboot.py PORT PROGRAM.elf [--baud N] [--no-console] [--retries N] [--preloaded | --attach]

Loads an ELF program (a bare-metal test, or OpenSBI's fw_payload.elf) into
an FPGA SoC through its boot ROM's UART loader (hw/bootrom/uartboot), starts
it on every hart, and then becomes its console: what the SoC prints goes to
standard output, what you type goes to the SoC, until the line closes or
Ctrl-] (or Ctrl-C).

PORT is a serial device (/dev/ttyUSB0 for the ULX3S or the Arty's USB
serial) or a pyserial URL: socket://127.0.0.1:PORT reaches the simulated
SoC (`sim +uart=PORT`, docs/fpga.md).

With --preloaded the program is in memory already (the simulated SDRAM
board's +load: fpga/sim/board_main.cpp) and only its start is sent. With
--attach it runs already (a simulation restored from a checkpoint, +restore)
and nothing is sent: the tool is only its console.

Exit status: 0 once the program is started and the console is done; 1 if
the board refused the program or never answered; 2 for bad usage or a bad
ELF.
"""
import argparse
import os
import struct
import sys
import time
import zlib

SYNC = 0xB5
# Seconds between pings while the loader is not yet listening: 0.5, then
# twice as long each time up to 8. A ping takes 180 bit times on the wire;
# pinged faster than a slow simulation puts them on the line (a gate-level
# one, at a few thousand cycles a second), the pings would queue, and the
# loader, which after a broken frame waits for a quiet line, would wait for
# all of them.
PING_WAIT, PING_WAIT_MAX = 0.5, 8.0
MAX_PAYLOAD = 4096
REFUSALS = {
    1: "a frame arrived corrupted (checksum mismatch)",
    2: "the loader does not know this frame type",
    3: "the address lies outside the memory the loader may write (DRAM below the loader's top 32 KiB)",
    4: "the frame is longer than the loader takes",
    5: "the loader's receiver overran: the line is faster than it can read (lower --baud)",
}
PT_LOAD = 1
ET_DYN = 3
DRAM_BASE = 0x8000_0000


def die(msg):
    print(f"uartboot: {msg}", file=sys.stderr)
    sys.exit(2)


class Refused(Exception):
    pass


def segments(path):
    """The entry point and [(address, bytes, memsz)] of an ELF's loadable
    segments, at their physical addresses; a position-independent image
    (OpenSBI's) at DRAM's base, as the simulator's loader puts it."""
    try:
        data = open(path, "rb").read()
    except OSError as e:
        die(f"cannot read '{path}': {e.strerror}")
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        die(f"'{path}' is not a 64-bit little-endian ELF file")
    bias = DRAM_BASE if struct.unpack_from("<H", data, 16)[0] == ET_DYN else 0
    entry, phoff = struct.unpack_from("<QQ", data, 24)
    phentsize, phnum = struct.unpack_from("<HH", data, 54)
    out = []
    for i in range(phnum):
        p_type, _, p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, _ = struct.unpack_from(
            "<IIQQQQQQ", data, phoff + i * phentsize)
        if p_type == PT_LOAD and p_memsz:
            out.append((p_paddr + bias, data[p_offset:p_offset + p_filesz], p_memsz))
    if not out:
        die(f"'{path}' has no loadable segment")
    return entry + bias, out


class Loader:
    def __init__(self, port, timeout, retries, log):
        self.port, self.timeout, self.retries, self.log = port, timeout, retries, log
        self.retransmissions = 0

    def read_exact(self, n, deadline):
        buf = b""
        while len(buf) < n:
            if time.monotonic() > deadline:
                return None
            buf += self.port.read(n - len(buf))
        return buf

    def answer(self, wait=None):
        """'K' or the refusal code, skipping what the SoC printed before;
        None if nothing came in `wait` seconds."""
        deadline = time.monotonic() + (wait or self.timeout)
        while True:
            c = self.read_exact(1, deadline)
            if c is None and wait:
                return None
            if c is None:
                raise Refused(f"no answer from the loader in {self.timeout:.0f} s")
            if c in (b"K", b"N"):
                # Its second byte is on its way: give it the full timeout
                # (a ping's short wait may end between the two).
                code = self.read_exact(1, time.monotonic() + self.timeout)
                if code is None:
                    raise Refused("the loader's answer broke off")
                return "K" if c == b"K" else code[0]

    def wait_ready(self):
        deadline = time.monotonic() + self.timeout
        while True:
            c = self.read_exact(1, deadline)
            if c is None:
                raise Refused("the loader refused a frame and then fell silent")
            if c == b"R":
                return

    def send(self, kind, addr, length, payload=b"", corrupt=False):
        body = struct.pack("<BQI", ord(kind), addr, length) + payload
        crc = zlib.crc32(body)
        frame = bytes([SYNC]) + body + struct.pack("<I", crc ^ (1 if corrupt else 0))
        for attempt in range(self.retries + 1):
            self.port.write(frame)
            a = self.answer()
            if a == "K":
                return
            why = REFUSALS.get(a, f"refusal code {a}")
            if a not in (1, 5) or attempt == self.retries:
                raise Refused(f"the loader refused '{kind}' at {addr:#x} (+{length} bytes): {why}")
            self.log(f"uartboot: {why}; sending it again")
            self.retransmissions += 1
            self.wait_ready()
            frame = bytes([SYNC]) + body + struct.pack("<I", crc)

    def hello(self):
        """Pings until the loader answers: it may still be starting, and
        what was sent before it listened is lost."""
        body = struct.pack("<BQI", ord("P"), 0, 0)
        ping = bytes([SYNC]) + body + struct.pack("<I", zlib.crc32(body))
        deadline = time.monotonic() + self.timeout
        wait = PING_WAIT
        while time.monotonic() < deadline:
            self.port.write(ping)
            a = self.answer(wait=wait)
            wait = min(2 * wait, PING_WAIT_MAX)
            if a == "K":
                return
            if a is not None:  # it took the ping for part of a broken frame
                self.wait_ready()
        raise Refused(f"no answer from the loader in {self.timeout:.0f} s: is the board in its boot ROM "
                      "(press reset), on this port, at this baud rate?")

    def load(self, entry, segs, corrupt_frame=None):
        """Sends the segments and then the start; with no segments (a
        preloaded program) only the start."""
        self.hello()
        frames = 0
        for addr, data, memsz in segs:
            for off in range(0, len(data), MAX_PAYLOAD):
                chunk = data[off:off + MAX_PAYLOAD]
                if chunk.strip(b"\0"):
                    self.send("W", addr + off, len(chunk), chunk, corrupt=frames == corrupt_frame)
                else:
                    self.send("Z", addr + off, len(chunk))
                frames += 1
            if memsz > len(data):
                self.send("Z", addr + len(data), memsz - len(data))
        self.send("G", entry, 0)
        return frames


def console(port):
    """The SoC's output to stdout until the line closes; stdin to the SoC
    when it is a terminal."""
    import select
    interactive = sys.stdin.isatty()
    if interactive:
        import termios
        import tty
        saved = termios.tcgetattr(sys.stdin)
        tty.setraw(sys.stdin)
    try:
        while True:
            try:
                data = port.read(max(1, port.in_waiting))
            except Exception:
                return  # the line closed (the simulation ended)
            if data:
                os.write(sys.stdout.fileno(), data)
            if interactive and select.select([sys.stdin], [], [], 0)[0]:
                c = os.read(sys.stdin.fileno(), 1)
                if c == b"\x1d":  # Ctrl-]
                    return
                port.write(c)
    finally:
        if interactive:
            termios.tcsetattr(sys.stdin, termios.TCSADRAIN, saved)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("port", help="serial device or pyserial URL (socket://127.0.0.1:PORT for the simulation)")
    ap.add_argument("program", help="ELF file to load and start")
    ap.add_argument("--baud", type=int, default=1_000_000, help="line rate of a serial device (1,000,000)")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for each answer (10)")
    ap.add_argument("--retries", type=int, default=3, help="times to resend a corrupted frame (3)")
    ap.add_argument("--no-console", action="store_true", help="exit once the program is started")
    ap.add_argument("--preloaded", action="store_true",
                    help="the program is in memory already (a simulation's +load): only start it")
    ap.add_argument("--attach", action="store_true",
                    help="the program runs already (a simulation's +restore): send nothing, only be its console")
    ap.add_argument("--corrupt-frame", type=int, metavar="N", help=argparse.SUPPRESS)  # tests: break frame N once
    a = ap.parse_args()
    if a.attach and a.preloaded:
        die("--attach and --preloaded: a program is either started (--preloaded) or running already (--attach)")
    entry, segs = segments(a.program)
    try:
        import serial
    except ImportError:
        die("needs pyserial (pip install pyserial; the project's venv has it)")
    try:
        port = serial.serial_for_url(a.port, baudrate=a.baud, timeout=0.05, do_not_open=True)
        if a.attach:
            # pyserial's socket:// opens by discarding what has arrived,
            # which for a restored simulation is the console's replay.
            port.reset_input_buffer = lambda: None
        port.open()
    except (serial.SerialException, ValueError) as e:
        die(f"cannot open '{a.port}': {e}")

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    if a.attach:
        log("uartboot: attached to the running program")
        console(port)
        return 0
    loader = Loader(port, a.timeout, a.retries, log)
    size = sum(len(d) for _, d, _ in segs)
    t0 = time.monotonic()
    try:
        frames = loader.load(entry, [] if a.preloaded else segs, a.corrupt_frame)
    except Refused as e:
        log(f"uartboot: {e}")
        return 1
    if a.preloaded:
        log(f"uartboot: started the preloaded program at {entry:#x}")
    else:
        log(f"uartboot: loaded {size} bytes in {frames} frames ({loader.retransmissions} sent again) "
            f"in {time.monotonic() - t0:.1f} s; started at {entry:#x}")
    if not a.no_console:
        console(port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
