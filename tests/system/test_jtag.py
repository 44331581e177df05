"""The boards' debug port without a board: the exact SDRAM board top
(fpga/sim/build.sh ulx3s) with rocket-chip's debug module and JTAG
transport, its JTAG pins driven by the board simulation's remote bitbang
adapter (`board-sim +jtag=PORT`), and Debian's openocd attached to it with
the configuration a person with a board uses (fpga/openocd/soc.cfg): it
halts a hart in the boot ROM's loader, reads what the boot ROM left in
SDRAM, writes and reads back a word, loads a program and starts it, as
the loader would have (docs/fpga.md, "Debugging"); and the same on a run
restored from a checkpoint, as a run that went wrong hours in is looked
into."""
import re
import socket
import struct
import subprocess
import threading
import time

from harness import ROOT, Run, board_sim, describe, program

DRAM_TOP = 0x8000_0000 + (32 << 20)
DTB_ADDR = DRAM_TOP - 0x4000  # hw/bootrom/uartboot/loader.h
RELEASE_ADDR = DTB_ADDR - 0x40
CLINT_MSIP = 0x0200_0000
SCRATCH = 0x8100_0000
JTAG = re.compile(r"\[board\] jtag: remote bitbang on 127\.0\.0\.1:(\d+)")
UART = re.compile(r"\[sim\] uart: waiting on 127\.0\.0\.1:(\d+)")
# a cycle at which the loader waits for a frame (ready near cycle 120,000)
LOADER_CYCLE = 300_000


def entry_of(elf):
    """A 64-bit ELF's entry address."""
    return struct.unpack_from("<Q", elf.read_bytes(), 24)[0]


def listening(first):
    """(a console socket on the board simulation's serial port, which
    `first`, its stderr's first lines, names; a thread; the list that
    thread fills with what the console hears, until the line closes)."""
    uart = UART.search(first)
    assert uart, f"the board simulation opened no serial port: {first!r}"
    console = socket.create_connection(("127.0.0.1", int(uart[1])))
    heard = []
    reader = threading.Thread(target=lambda: heard.extend(iter(lambda: console.recv(4096), b"")), daemon=True)
    reader.start()
    return console, reader, heard


def loader_checkpoint(path):
    """A checkpoint of the SDRAM board at LOADER_CYCLE, the loader waiting
    on the serial line (+checkpoint; no +jtag, which a checkpointing run
    refuses)."""
    sim = subprocess.Popen([board_sim("ulx3s"), "+uart=0", "+uart-bit-cycles=25", f"+checkpoint={path}",
                            f"+checkpoint-every={LOADER_CYCLE}", f"+max-cycles={LOADER_CYCLE + 1}"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        console, reader, heard = listening(sim.stderr.readline())
        _, err = sim.communicate(timeout=300)
        reader.join(timeout=10)
        console.close()
    finally:
        sim.kill()
    assert f"checkpoint at cycle {LOADER_CYCLE}" in err and b"uartboot: ready" in b"".join(heard), (heard, err)
    return path


def debug_session(elf, max_cycles=60_000_000, timeout=1500, restore=None):
    """The SDRAM board simulated with openocd on its JTAG pins and a console
    reader on its serial port, from its start or from the checkpoint
    `restore`: openocd halts hart 0, reads the device tree's magic, writes
    SCRATCH and reads it back, loads `elf`, verifies it, releases hart 1
    into it as the loader does (RELEASE_ADDR, its software interrupt),
    points hart 0 at it with the loader's arguments and resumes. Returns
    (openocd's Run, the simulation's Run with the console as its stdout)."""
    sim = subprocess.Popen([board_sim("ulx3s"), "+uart=0", "+uart-bit-cycles=25", "+jtag=0",
                            f"+max-cycles={max_cycles}", *([f"+restore={restore}"] if restore else [])],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = sim.stderr.readline() + sim.stderr.readline()
        jtag = JTAG.search(first)
        assert jtag, f"the board simulation opened no JTAG port: {first!r}"
        console, reader, heard = listening(first)
        # A person attaches the debugger to a board that is up: the TAP is
        # reset with the SoC, until the SDRAM's power-up sequence is done.
        deadline = time.monotonic() + 300
        while b"uartboot: ready" not in b"".join(heard) and sim.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        entry = entry_of(elf)
        script = [
            "init", "halt",
            f"mdw {DTB_ADDR:#x}",
            f"mww {SCRATCH:#x} 0x5a5aa5a5", f"mdw {SCRATCH:#x}",
            f"load_image {elf}", f"verify_image {elf}",
            f"mwd {RELEASE_ADDR:#x} {entry:#x}", f"mww {CLINT_MSIP + 4:#x} 1",
            "reg a0 0", f"reg a1 {DTB_ADDR:#x}", f"reg pc {entry:#x}", "resume", "shutdown",
        ]
        # (no gdb, telnet or Tcl server: tests run side by side)
        ocd = subprocess.run(["openocd", "-c", "set RBB_PORT " + jtag[1], "-c", "gdb_port disabled",
                              "-c", "telnet_port disabled", "-c", "tcl_port disabled",
                              "-f", str(ROOT / "fpga/openocd/sim.cfg"),
                              "-f", str(ROOT / "fpga/openocd/soc.cfg"), *(a for c in script for a in ("-c", c))],
                             capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
        if ocd.returncode != 0:
            sim.kill()
        out, err = sim.communicate(timeout=timeout)
        reader.join(timeout=10)
        console.close()
    finally:
        sim.kill()
    return Run(ocd.returncode, ocd.stdout, ocd.stderr), Run(sim.returncode, b"".join(heard).decode(errors="replace"),
                                                          first + err)


def word_read(ocd, addr):
    """The 32-bit word openocd's mdw printed for `addr`."""
    m = re.search(rf"^{addr:#x}: ([0-9a-f]{{8}})\s*$", ocd.stdout + ocd.stderr, re.M)
    return int(m[1], 16) if m else None


def test_openocd_halts_a_hart_reads_and_writes_sdram_and_loads_a_program_over_jtag():
    """openocd finds the TAP (IDCODE 0x00000001) and both harts; it halts
    hart 0 in the loader; the device tree the boot ROM copied to SDRAM
    reads back with its magic (0xd00dfeed, big-endian); a word written
    reads back; hello, loaded over JTAG and verified, runs on both harts
    (its console lines) and passes (led[1]: the simulation's exit 0)."""
    elf = program("board", "hello")
    ocd, run = debug_session(elf)
    both = f"openocd: {describe(ocd)}\nboard: {describe(run)}"
    assert ocd.status == 0, both
    assert word_read(ocd, DTB_ADDR) == 0xedfe0dd0, both
    assert word_read(ocd, SCRATCH) == 0x5a5aa5a5, both
    assert run.status == 0, both
    assert run.stdout.count("hello from hart") == 2 and "all 2 harts said hello" in run.stdout, both


def test_a_program_loaded_over_jtag_that_fails_lights_its_status_on_a_restored_run(tmp_path):
    """The same path with fail (exit 3): led[2] and 3 on led[7:3], so the
    passing run above is the program's doing, not the path's. The board
    runs from a checkpoint taken while the loader waited (+restore with
    +jtag: what docs/fpga.md's Debugging offers for a run that went wrong
    hours in), so the debugger is shown working on a restored run too."""
    ckpt = loader_checkpoint(tmp_path / "loader.ckpt")
    ocd, run = debug_session(program("board", "fail"), restore=ckpt)
    both = f"openocd: {describe(ocd)}\nboard: {describe(run)}"
    assert f"[board] restored at cycle {LOADER_CYCLE} from" in run.stderr, both
    assert ocd.status == 0 and run.status == 64 + 3, both
    assert word_read(ocd, SCRATCH) == 0x5a5aa5a5, both
