"""The FPGA boards' boot path, without a board: the SoC with the boards'
serial console and boot ROM (model flavour uart, Uart2HartConfig) in
Verilator, its pins bridged to a TCP socket (`sim +uart=0`), and the host
tool, fpga/tools/uartboot.py, loading programs through it as it would
through a board's USB serial cable and then serving as their console."""
import re
import struct
import subprocess
import sys

import pytest

import board_run
import checkpoint_info
from harness import BUILD, ROOT, Run, assert_no_stale_translation, board_sim, channel_irq_sources, counters, describe, \
    firmware, firmware_with_kernel, model, program
from litmus_lang.judge import judge, parse, tests as litmus_tests

TOOL = board_run.TOOL
TIMEOUT_PASSED = "PASS: the unit gave up on the stuck hart twice and served the others\n"  # shootdown_timeout


def boot(elf, *tool_args, max_cycles=200_000_000, timeout=900, flavor="uart", bit_cycles=5, sim=None, **kw):
    """board_run.boot on the model of `flavor` (uart, or board for the
    ULX3S's SoC) or the simulator `sim`, which takes the same arguments
    (and the board simulators' preload, checkpoint and restore); returns
    (tool's Run, simulation's Run)."""
    tool, run = board_run.boot(sim or model(2, flavor), elf, *tool_args, max_cycles=max_cycles, timeout=timeout,
                               bit_cycles=bit_cycles, **kw)
    assert tool.status != -1, f"{tool.stderr}: {run.stderr!r}"
    return Run(*tool), Run(*run)


def both(tool, sim):
    return f"uartboot: {describe(tool)}\nsim: {describe(sim)}"


def test_a_bare_metal_shootdown_test_loads_and_passes_over_the_uart():
    """A shootdown test built for the boards' memory (PLATFORM=board: 2
    harts, 224 KiB) and loaded over the wire runs as it does when the
    simulator preloads it: it passes (the finisher's status), and what it
    prints reaches the host tool over the wire."""
    tool, sim = boot(program("board", "shootdown_timeout"))
    assert tool.status == 0 and sim.status == 0, both(tool, sim)
    # Its last line came whole through the wire (exit waits for the port to
    # drain before the finisher ends the simulation), and nowhere else.
    assert tool.stdout.endswith(TIMEOUT_PASSED), both(tool, sim)
    assert sim.stdout == "", both(tool, sim)


def test_the_ulx3s_soc_runs_a_board_shootdown_test_loaded_over_the_uart():
    """The SoC the ULX3S bitstream is built from (Ulx3sConfig: shrunk harts,
    256 KiB of memory, its loader, 25 cycles a bit as at 25 MHz and
    1 Mbit/s), simulated: a board build of a shootdown test loads over the
    wire and passes."""
    tool, sim = boot(program("board", "shootdown_timeout"), flavor="board", bit_cycles=25)
    assert tool.status == 0 and sim.status == 0, both(tool, sim)
    assert tool.stdout.endswith(TIMEOUT_PASSED), both(tool, sim)


def test_the_ulx3s_soc_delivers_a_completion_interrupt_on_its_own_plic_source():
    """On the boards' SoC the serial port takes a PLIC source before the
    unit's channels: the board build of shootdown_irq must wait for the
    source the board's device tree gives channel 0, and get it."""
    sources = channel_irq_sources(model(2, "board"))
    # It sleeps for good if the interrupt never comes: end such a run soon.
    tool, sim = boot(program("board", "shootdown_irq"), flavor="board", bit_cycles=25, max_cycles=30_000_000)
    assert tool.status == 0 and sim.status == 0, both(tool, sim)
    assert f"interrupt from source {sources[0]} after" in tool.stdout, both(tool, sim)


def test_opensbi_and_a_shootdown_payload_load_over_the_uart():
    """OpenSBI with the project's series and an S-mode shootdown payload:
    fw_payload.elf is position independent and loads at DRAM's base."""
    tool, sim = boot(firmware("unit", "sbi_hello") / "fw_payload.elf")
    assert tool.status == 0 and sim.status == 0, both(tool, sim)
    assert "OpenSBI" in tool.stdout, both(tool, sim)


@pytest.mark.long
def test_the_ulx3s_soc_boots_opensbi_and_passes_the_sbi_shootdown_cases_from_block_ram():
    """First light with firmware: OpenSBI with the project's series, laid
    out for the boards' 256 KiB (build.sh --board), and the S-mode stale-use
    checks of every shootdown path (sbi_shootdown_cases, PLATFORM=sbi-board:
    batches of 1 and 2 pages) load over the wire into the ULX3S's SoC and
    pass: the payload's exit status reaches the finisher through SBI. Seven
    minutes: make test-long. make test loads OpenSBI over the wire on the
    uart model (above) and runs the ULX3S's SoC on a bare-metal shootdown
    test and, at its pins with the SDRAM, memtest (below)."""
    tool, sim = boot(firmware("unit", "sbi_shootdown_cases", layout="board") / "fw_payload.elf", flavor="board", bit_cycles=25)
    assert tool.status == 0 and sim.status == 0, both(tool, sim)
    assert "OpenSBI" in tool.stdout, both(tool, sim)


def test_a_corrupted_frame_is_refused_and_sent_again():
    tool, sim = boot(program("soc", "hello"), "--corrupt-frame", "1")
    assert tool.status == 0 and sim.status == 0, both(tool, sim)
    assert "(1 sent again)" in tool.stderr, both(tool, sim)


def test_the_tool_gives_up_with_a_clear_error_when_a_frame_keeps_failing():
    tool, sim = boot(program("soc", "hello"), "--corrupt-frame", "1", "--retries", "0")
    assert tool.status == 1, both(tool, sim)
    assert "checksum mismatch" in tool.stderr, both(tool, sim)


def tiny_elf(path, addr, entry=None):
    """An RV64 ELF of one instruction (j .) at `addr`, entered at `entry`
    (default `addr`)."""
    code = b"\x6f\x00\x00\x00"
    phoff = 64
    ehdr = (b"\x7fELF\x02\x01\x01" + bytes(9) +
            struct.pack("<HHIQQQIHHHHHH", 2, 243, 1, entry or addr, phoff, 0, 0, 64, 56, 1, 0, 0, 0))
    phdr = struct.pack("<IIQQQQQQ", 1, 5, 0x1000, addr, addr, len(code), len(code), 0x1000)
    path.write_bytes(ehdr + phdr + bytes(0x1000 - 64 - 56) + code)
    return path


def test_a_program_outside_memory_is_refused(tmp_path):
    """An ELF whose segment lies past DRAM: the loader refuses it, nothing is
    started, and the tool says why."""
    tool, sim = boot(tiny_elf(tmp_path / "far.elf", 0x9000_0000))
    assert tool.status == 1, both(tool, sim)
    assert "outside the memory the loader may write" in tool.stderr, both(tool, sim)


def test_a_bad_elf_is_refused_before_anything_is_sent(tmp_path):
    bad = tmp_path / "bad.elf"
    bad.write_bytes(b"not an elf")
    r = subprocess.run([sys.executable, str(TOOL), "socket://127.0.0.1:9", str(bad)], capture_output=True, text=True)
    assert r.returncode == 2 and "not a 64-bit little-endian ELF" in r.stderr, describe(Run(r.returncode, r.stdout, r.stderr))


@pytest.mark.long
def test_the_exact_ulx3s_top_runs_programs_over_its_pins():
    """What goes into the ULX3S bitstream, simulated whole: top.v with its
    PLL (a stand-in at the input's frequency, from the same generated
    dividers), board_reset.v and FpgaTop with its block RAM and boot ROM,
    driven only at the board's pins. A board program loaded over the FTDI
    lines prints through them and lights led[1]; one that fails (status 3)
    lights led[2] with 3 on led[7:3] (the simulator's exit status says
    what the LEDs show: 0, or 64 + led[7:3]). make test-long: make test
    runs the SDRAM board's top, below, which shares all but main memory."""
    sim = board_sim("ulx3s-bram")
    tool, run = boot(program("board", "hello"), sim=sim, bit_cycles=25, max_cycles=10_000_000)
    assert tool.status == 0 and run.status == 0, both(tool, run)
    assert tool.stdout.count("hello from hart") == 2, both(tool, run)
    tool, run = boot(program("board", "fail"), sim=sim, bit_cycles=25, max_cycles=10_000_000)
    assert run.status == 64 + 3, both(tool, run)


def test_the_exact_ulx3s_sdram_top_runs_memtest_from_its_sdram():
    """The SDRAM board as it would be built (top_sdram.v, the generated
    LiteDRAM controller, FpgaTop with its memory port out) with the chip's
    model on the board's wires, driven at its pins: the loader puts memtest
    in SDRAM over the FTDI lines, and memtest finds 32 MiB in the device
    tree and checks the data lines, the address lines, the byte lanes and
    four 64 KiB windows beyond itself, lighting led[1]; the chip's model
    counts no breach of its timing, power-up or 64 ms retention over the
    run's 5.7 M cycles (one would end the run: exit 5). A program that
    fails lights led[2] with its status."""
    sim = board_sim("ulx3s")
    tool, run = boot(program("board", "memtest"), sim=sim, bit_cycles=25, max_cycles=30_000_000)
    assert tool.status == 0 and run.status == 0, both(tool, run)
    checked = re.search(r"memtest: passed: (\d+) doublewords checked", tool.stdout)
    assert checked and int(checked[1]) > 30000, both(tool, run)
    tool, run = boot(program("board", "fail"), sim=sim, bit_cycles=25, max_cycles=10_000_000)
    assert run.status == 64 + 3, both(tool, run)


def test_opensbi_and_a_payload_preloaded_into_the_sdram_boot_from_it(tmp_path):
    """The SDRAM board started with OpenSBI (laid out for its 32 MiB:
    build.sh --board-sdram) and sbi_hello in the chip already (board-sim
    +load, where the controller's row-bank-column mapping puts each word:
    the firmware in rows 0-29 of the four banks, the payload 2 MiB up from
    row 512), the tool sending only the start: OpenSBI boots the payload on
    the device tree the boot ROM hands over, and the payload's status
    reaches the finisher through SBI, lighting led[1]. A word put anywhere
    else breaks the firmware or the payload (shown with the bank and row
    fields swapped: the run timed out, exit 3). What the Linux run from the
    SDRAM (make test-long, below) rests on.
    The run writes a checkpoint every 4 M cycles (+checkpoint), and a run
    restored from the last one (+restore: the model, the chip's contents,
    the serial line) ends as the whole run did, at the same cycle, with the
    same console, OpenSBI's banner included (the checkpoint keeps what the
    line carried, so the restored run's console hears the loader's answers
    to the start frame first): what lets Linux's hours on this board span
    sessions."""
    fw = firmware("unit", "sbi_hello", layout="board-sdram") / "fw_payload.elf"
    sim = board_sim("ulx3s")
    ckpt = tmp_path / "run.ckpt"
    tool, run = boot(fw, sim=sim, bit_cycles=25, max_cycles=40_000_000, preload=True, checkpoint=ckpt,
                     checkpoint_every=4_000_000)
    assert tool.status == 0 and run.status == 0, both(tool, run)
    saved = [int(c) for c in re.findall(r"\[board\] checkpoint at cycle (\d+):", run.stderr)]
    assert len(saved) >= 2, both(tool, run)
    _, cycle, console = checkpoint_info.read(ckpt)  # what fpga/tools/checkpoint_info.py shows
    assert cycle == saved[-1] and b"OpenSBI" in console, (cycle, console)
    again_tool, again = boot(fw, sim=sim, bit_cycles=25, max_cycles=40_000_000, restore=ckpt)
    assert again_tool.status == 0 and again.status == 0, both(again_tool, again)
    assert f"[board] restored at cycle {saved[-1]} from" in again.stderr, both(again_tool, again)
    assert board_run.board_cycles(again.stderr) == board_run.board_cycles(run.stderr), both(again_tool, again)
    assert "OpenSBI" in tool.stdout and again_tool.stdout.endswith(tool.stdout), both(again_tool, again)
    # (the tool's output read as text: its line ends made "\n")
    assert again_tool.stdout.startswith(console.decode().replace("\r\n", "\n")), both(again_tool, again)


def test_the_board_refuses_to_preload_where_its_loader_lives(tmp_path):
    """+load into the top 32 KiB of the SDRAM, which the boot ROM takes for
    its loader and would overwrite: the simulator refuses before it runs
    (exit 2) and says why."""
    top = tiny_elf(tmp_path / "top.elf", 0x8000_0000 + (32 << 20) - 0x1000, entry=0x8000_0000)
    r = subprocess.run([board_sim("ulx3s"), "+uart=0", f"+load={top}"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "is outside memory" in r.stderr, describe(Run(r.returncode, r.stdout, r.stderr))


def test_the_board_refuses_to_restore_what_is_not_its_checkpoint(tmp_path):
    """+restore of a file that is not a checkpoint, or one another model
    wrote: refused before anything runs (exit 2), saying which."""
    sim = board_sim("ulx3s")
    elf = tiny_elf(tmp_path / "x.elf", 0x8000_0000)
    for name, data, why in [("elf", elf.read_bytes(), "is not a board-sim checkpoint"),
                            ("other", other_models_checkpoint(), "was made by another model")]:
        (tmp_path / name).write_bytes(data)
        r = subprocess.run([sim, "+uart=0", f"+restore={tmp_path / name}"], capture_output=True, text=True, timeout=60)
        assert r.returncode == 2 and why in r.stderr, describe(Run(r.returncode, r.stdout, r.stderr))


def other_models_checkpoint():
    """The start of a checkpoint as board_main.cpp writes it (Verilator's
    header, then a length and its string: the tag, the model's key), from
    a model of another key."""
    def string(s):
        return struct.pack("<I", len(s)) + s.encode()
    return b"verilatorsave02\n" + string("board-sim checkpoint 1") + string("ulx3s-0123456789abcdef") + bytes(64)


def resumable_board_run(fw, max_cycles, timeout):
    """`fw` started from the SDRAM of the exact board top (+load), for runs
    that outlive a session: a checkpoint every 25 M cycles (a second of the
    board's time) in the cache, keyed by the model and the firmware
    (board_run.checkpoint_for), and a run of the same inputs goes on from
    it; a run that ended, passed or not, removes it and the next starts
    afresh. The run's console and the simulator's last words (its cycles)
    are kept in build/logs/board-<firmware's directory>.log, passed or
    not: what docs/fpga.md quotes. Returns boot()'s (tool's Run,
    simulation's Run): the restored run's console from the line's start."""
    sim = board_sim("ulx3s")
    ckpt = board_run.checkpoint_for(sim, fw)
    tool, run = boot(fw, sim=sim, bit_cycles=25, max_cycles=max_cycles, timeout=timeout, preload=True,
                     checkpoint=ckpt, restore=ckpt if ckpt.exists() else None)
    ckpt.unlink(missing_ok=True)
    log = BUILD / "logs" / f"board-{fw.parent.name}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text(both(tool, run))
    return tool, run


@pytest.mark.long
def test_linux_runs_its_quick_workloads_from_the_ulx3s_sdram():
    """The test kernel with /init's short workloads (make test's Linux run on
    the SoC) under OpenSBI with the project's series, laid out for the
    board's 32 MiB, started from the SDRAM of the exact board top (+load:
    3.5 MB would take 900 M cycles of serial line): Linux boots on the
    board's shrunk harts at the board's clock, its workloads find nothing
    stale, and every remote flush went to the unit through the harts'
    channels (none by SBI RFENCE, no error); /init's verdict lights led[1].
    No scoreboard and no harness counters here: what the kernel counts.
    Hours of simulation (the boot alone is past 262 M cycles, docs/fpga.md):
    make test-long."""
    fw = firmware_with_kernel("unit-ceiling", "quick", layout="board-sdram") / "fw_payload.elf"
    tool, run = resumable_board_run(fw, max_cycles=4_000_000_000, timeout=10 * 3600)
    assert tool.status == 0 and run.status == 0, both(tool, run)
    r = Run(run.status, tool.stdout, run.stderr)
    assert_no_stale_translation(r, writers=1)
    c = counters(r)
    assert c["requests"] > 0 and c["errors"] == 0 and c["sbi_rfence"] == 0 and c["direct"] == c["requests"], describe(r)


@pytest.mark.long
def test_the_demo_payload_runs_from_the_ulx3s_sdram():
    """make demo's payload (shootdown_demo: batches of 1 to 256 pages, a
    target hart on this SoC) under OpenSBI with the series, laid out for
    the SDRAM and started from the exact SDRAM board top: every path the
    unit's firmware offers (c: RFENCE by the unit, d: the batched
    extension, e: the unit's channel from S-mode) takes every batch (a
    refused call ends the payload with status 1, led[2]) and each point is
    measured. make test-long."""
    fw = firmware("unit", "shootdown_demo", layout="board-sdram") / "fw_payload.elf"
    tool, run = resumable_board_run(fw, max_cycles=2_000_000_000, timeout=6 * 3600)
    assert tool.status == 0 and run.status == 0, both(tool, run)
    points = set(re.findall(r"^DEMO path=(\w) harts=2 targets=1 batch=(\d+) ", tool.stdout, re.M))
    assert points == {(p, str(1 << k)) for p in "cde" for k in range(9)}, both(tool, run)


@pytest.mark.long
def test_storm_runs_from_the_ulx3s_sdram():
    """storm (a million cycles of random requests from both harts while
    they load, store, execute and remap) built for the SDRAM board
    (PLATFORM=board-sdram: its frames 8 MiB into the 32 MiB) and loaded
    over the FTDI lines into the exact SDRAM board top: every request
    completes and no access faults or reads a frame its page never mapped
    (the board has no scoreboard: storm's own checks). make test-long."""
    tool, run = boot(program("board-sdram", "storm"), sim=board_sim("ulx3s"), bit_cycles=25,
                     max_cycles=200_000_000, timeout=3600)
    assert tool.status == 0 and run.status == 0, both(tool, run)
    m = re.search(r"storm: 2 harts, (\d+) cycles: \d+ operations, (\d+) requests", tool.stdout)
    assert m and int(m[1]) >= 1_000_000 and int(m[2]) > 100, both(tool, run)


@pytest.mark.long
def test_memory_reads_what_it_acknowledged_on_the_ulx3s_sdram():
    """memorder (PLATFORM=board-sdram) on the exact SDRAM board top: a line
    written back and read again at once, and a line passed from hart to
    hart through the broadcast hub (written back, then read), always read
    as last written. make test-long."""
    tool, run = boot(program("board-sdram", "memorder"), sim=board_sim("ulx3s"), bit_cycles=25,
                     max_cycles=100_000_000, timeout=3000)
    assert tool.status == 0 and run.status == 0, both(tool, run)
    m = re.search(r"memorder: 2 harts, (\d+) iterations each check: 0 stale reads", tool.stdout)
    assert m and int(m[1]) >= 1000, both(tool, run)


@pytest.mark.long
def test_the_litmus_tests_run_from_the_ulx3s_sdram():
    """The litmus tests of two harts (programs/litmus.c, its frames in the
    board's SDRAM) loaded over the wire into the exact SDRAM board top:
    each judged against its model as on the SoC (litmus_lang.judge: every schedule
    run, no forbidden outcome or one outside the model). This board keeps
    a fault in the TLB where the SoC's harts drop it (docs/fpga.md, 'The
    board simulated'): the models allow it, as RISC-V does. make test-long."""
    tool, run = boot(program("board-sdram", "litmus"), sim=board_sim("ulx3s"), bit_cycles=25,
                     max_cycles=2_000_000_000, timeout=7200)
    assert tool.status == 0 and run.status == 0, both(tool, run)
    found, failed = parse(tool.stdout), {}
    two_harts = {name: t for name, t in litmus_tests().items() if len(t.harts) <= 2}
    for name, test in two_harts.items():
        verdict = judge(test, found.get(name, {}))
        if verdict["failures"]:
            failed[name] = verdict["report"]
    assert two_harts and not failed, "\n\n".join(failed.values()) or "no litmus test of two harts"
