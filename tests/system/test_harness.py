"""The Verilator harness: the cycle limit, and a clear one-line error with a
non-zero status for every kind of bad input."""
import re
import struct

import pytest

from harness import describe, model, per_hart, program, run, run_sim, sim_summary, unit_requests
from models.elf import EM_X86_64, make_elf

EXIT_TIMEOUT, EXIT_USAGE, EXIT_BAD_ELF = 124, 64, 65


def test_max_cycles_stops_a_run_with_a_clear_message():
    r = run_sim(2, program("soc", "hello"), "+max-cycles=3000")
    assert r.status == EXIT_TIMEOUT, describe(r)
    assert "sim: timeout: no exit after 3000 cycles" in r.stderr, describe(r)


def test_a_finished_run_reports_cycles_and_speed():
    """The summary line the benchmark scripts read (harness.sim_summary),
    and the per-hart counts: hello runs in M-mode without paging and sends
    no request, so no agent held a core and no walker walked (storm's
    test, in test_scoreboard.py, sees both busy)."""
    r = run_sim(2, program("soc", "hello"))
    assert r.status == 0, describe(r)
    s = sim_summary(r.stderr)
    assert s and s[:2] == ("finisher: pass", 0) and s[2] > 0 and s[4] > 0, describe(r)
    assert per_hart(r, "held") == per_hart(r, "walk") == [0, 0], describe(r)
    assert unit_requests(r) == 0, describe(r)


@pytest.mark.parametrize("harts", [2, 4])
def test_the_harness_counts_every_msip_rise(harts):
    """sw/baremetal/programs/msip_count.c raises hart h's msip 2 + h times
    (none on the boot hart): the harness's per-hart count, read from the
    CLINT's registers, must be exactly that."""
    r = run_sim(harts, program("soc", "msip_count"))
    assert r.status == 0, describe(r)
    want = " ".join(str(0 if h == 0 else 2 + h) for h in range(harts))
    assert f"[sim] msip raised per hart: {want}\n" in r.stderr, describe(r)


BAD_ELVES = {
    "not-an-elf": (b"#!/bin/sh\necho hello\n", "not an ELF file"),
    "x86": (make_elf(machine=EM_X86_64), "wrong ISA: ELF machine 62, not RISC-V"),
    "rv32": (make_elf(elf_class=1), "wrong ISA: 32-bit ELF"),
    "hard-float": (make_elf(flags=0x4), "hard-float ABI"),
    "entry-not-dram": (make_elf(entry=0x80001000), "entry point 0x80001000 is not 0x80000000"),
    "segment-below-dram": (make_elf(segments=((0x80000000, b"\0" * 8), (0x1000, b"\0" * 8))),
                           "[0x1000, 0x1008) is outside memory [0x80000000, 0x90000000)"),
    "segment-past-dram": (make_elf(segments=((0x80000000, b"\0" * 8), (0x8ffffffc, b"\0" * 8))),
                          "is outside memory"),
    "truncated": (make_elf()[:70], "truncated"),
}


@pytest.mark.parametrize("name", BAD_ELVES)
def test_bad_elf_gets_one_line_error(tmp_path, name):
    blob, message = BAD_ELVES[name]
    path = tmp_path / f"{name}.elf"
    path.write_bytes(blob)
    r = run([model(2), path], timeout=60)
    assert r.status == EXIT_BAD_ELF, describe(r)
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("sim: "), describe(r)
    assert message in r.stderr, describe(r)


def test_missing_program_file(tmp_path):
    r = run([model(2), tmp_path / "nope.elf"], timeout=60)
    assert r.status == EXIT_BAD_ELF, describe(r)
    assert "cannot open: No such file or directory" in r.stderr, describe(r)


@pytest.mark.parametrize("args,message", [
    ([], "no program given"),
    (["+bogus=1"], "unknown option '+bogus=1'"),
    (["+max-cycles=lots"], "+max-cycles wants a non-negative number, not 'lots'"),
    (["+waves=x.fst", "prog.elf"], "built without waveform support"),
    (["a.elf", "b.elf"], "more than one program given"),
    (["+seed=3", "a.elf"], "perturb nothing without +mem-jitter"),
    (["+mem-jitter=200000", "a.elf"], "want at most 100000 cycles"),
    (["+mem-jitter=4", "+fork-seeds=1,x", "a.elf"], "+fork-seeds wants a non-negative number, not 'x'"),
    (["+mem-jitter=4", "+fork-seeds=1", "+snapshot-seed=2", "a.elf"], "give one"),
    (["+mem-jitter=4", "+fork-seeds=1", "+uart=0"], "run without +waves and +uart"),
])
def test_bad_usage(args, message):
    r = run([model(2), *args], timeout=60)
    assert r.status == EXIT_USAGE, describe(r)
    assert message in r.stderr, describe(r)


def test_waves_cover_only_the_requested_window(tmp_path):
    sim = model(2, "debug")
    elf = program("soc", "hello")
    full, window = tmp_path / "full.fst", tmp_path / "window.fst"
    assert run([sim, f"+waves={full}", elf], timeout=300).status == 0
    r = run([sim, f"+waves={window}", "+waves-from=5000", "+waves-to=6000", elf], timeout=300)
    assert r.status == 0, describe(r)
    # The times the files cover, from their FST header blocks (block type 0,
    # section length, then start and end time, big-endian); the harness
    # dumps cycle c at times 2c and 2c + 1.
    (_, full_start, full_end), (_, start, end) = fst_times(full), fst_times(window)
    assert (start, end) == (2 * 5000, 2 * 6000 + 1), (start, end)
    assert full_start == 0 and full_end > end, (full_start, full_end)


def fst_times(path):
    """(section length, start time, end time) of an FST file's header block."""
    head = path.read_bytes()[:25]
    assert head[:1] == b"\x00", f"{path} does not start with an FST header block"
    return struct.unpack(">QQQ", head[1:25])


def jittered(seed, prog="storm"):
    r = run_sim(2, program("soc", prog), "+timestamps", "+mem-jitter=16", f"+seed={seed}")
    assert r.status == 0, describe(r)
    return r


def test_memory_jitter_repeats_with_its_seed_and_varies_across_seeds():
    """+mem-jitter with one seed gives the same run, cycle for cycle (the
    console with its timestamps, the cycle count, the scoreboard's counts);
    two other seeds give runs of other lengths, and every run still passes
    (its own checks and the scoreboard's)."""
    a, b = jittered(3), jittered(3)
    summary = lambda r: sim_summary(r.stderr)[2]
    counts = lambda r: [line for line in r.stderr.splitlines() if "scoreboard:" in line or "msip raised" in line]
    assert a.stdout == b.stdout and summary(a) == summary(b) and counts(a) == counts(b), describe(b)
    lengths = {summary(a), summary(jittered(4)), summary(jittered(5))}
    assert len(lengths) == 3, f"three seeds, run lengths {sorted(lengths)}"


def test_forked_children_run_as_a_reseeded_run_would(tmp_path):
    """programs/snapshot.c writes the snapshot command after start-up; with
    +fork-seeds the harness forks a child a seed there. Each child's console
    and cycle count must be those of a straight run with +snapshot-seed (so
    the copy carried the whole simulation), the seeds must differ from each
    other, and the parent exits 0 with every child passing."""
    elf = program("soc", "snapshot")
    seeds = (7, 8)
    r = run_sim(2, elf, "+mem-jitter=16", f"+fork-seeds={','.join(map(str, seeds))}", f"+fork-logs={tmp_path}")
    assert r.status == 0, describe(r)
    outs = {}
    for seed in seeds:
        out, err = (tmp_path / f"seed-{seed}.out").read_text(), (tmp_path / f"seed-{seed}.err").read_text()
        straight = run_sim(2, elf, "+mem-jitter=16", f"+snapshot-seed={seed}")
        assert straight.status == 0, describe(straight)
        assert r.stdout + out == straight.stdout, f"seed {seed}: forked\n{r.stdout + out}\nstraight\n{straight.stdout}"
        assert sim_summary(err)[1:3] == sim_summary(straight.stderr)[1:3], err
        board = lambda text: [line for line in text.splitlines() if "scoreboard:" in line or "msip raised" in line]
        assert board(err) and board(err) == board(straight.stderr), err
        outs[seed] = out
    assert len(set(outs.values())) == len(seeds), outs


def test_a_boot_seed_jitters_the_boot_before_the_snapshot(tmp_path):
    """+seed=B with +fork-seeds jitters the boot too: the guest reaches its
    snapshot at a cycle (rdcycle, what programs/snapshot.c prints) that
    depends on B and not on the children's seeds, and differs from the
    exact boot's; a child runs as a straight +seed=B +snapshot-seed=N run."""
    elf = program("soc", "snapshot")
    reached = lambda text: re.search(r"^snapshot at cycle (\d+)$", text, re.M).group(1)
    exact = run_sim(2, elf, "+mem-jitter=16", "+snapshot-seed=7")
    assert exact.status == 0, describe(exact)
    boots = {}
    for boot in (1, 2):
        logs = tmp_path / f"boot-{boot}"
        logs.mkdir()
        r = run_sim(2, elf, "+mem-jitter=16", f"+seed={boot}", "+fork-seeds=7", f"+fork-logs={logs}")
        assert r.status == 0, describe(r)
        boots[boot] = reached(r.stdout)
        straight = run_sim(2, elf, "+mem-jitter=16", f"+seed={boot}", "+snapshot-seed=7")
        assert straight.status == 0, describe(straight)
        assert r.stdout + (logs / "seed-7.out").read_text() == straight.stdout, describe(straight)
    assert len({reached(exact.stdout), *boots.values()}) == 3, (reached(exact.stdout), boots)


def test_a_failing_child_fails_the_forked_run(tmp_path):
    """The parent's status is the first failing child's: with a cycle limit
    between the snapshot and the program's end, every child times out."""
    r = run_sim(2, program("soc", "snapshot"), "+mem-jitter=16", "+fork-seeds=1,2", f"+fork-logs={tmp_path}",
                "+max-cycles=4000000")  # the snapshot comes at about 3.6 M cycles, the end 0.7 M later
    assert r.status == EXIT_TIMEOUT, describe(r)
    for seed in (1, 2):
        assert sim_summary((tmp_path / f"seed-{seed}.err").read_text())[1] == EXIT_TIMEOUT


@pytest.mark.parametrize("harts", [2, 4])
def test_the_harness_counts_each_harts_m_mode_cycles(harts):
    """programs/smode_share.c keeps hart h in S-mode (h + 1) times as long as
    hart 0 and in M-mode otherwise: the harness's per-hart count of M-mode
    cycles (from each core's privilege register) must leave S-mode shares in
    that proportion, hart by hart, within a few percent."""
    r = run_sim(harts, program("soc", "smode_share"))
    assert r.status == 0, describe(r)
    cycles = sim_summary(r.stderr)[2]
    m = re.search(r"^\[sim\] M-mode cycles per hart: ([\d ]+)$", r.stderr, re.M)
    assert m, describe(r)
    smode = [cycles - int(n) for n in m.group(1).split()]
    assert len(smode) == harts and smode[0] > 10_000, smode
    for h in range(1, harts):
        assert abs(smode[h] / smode[0] - (h + 1)) < 0.1 * (h + 1), smode
