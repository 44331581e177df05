"""The co-simulation scoreboard (sim/scoreboard.h, docs/scoreboard.md): a
translation-lifetime checker in the checked and debug models, fed by the
RTL's probes. On the real design it must stay silent through every system
program; with a mutant switched on (+mutant=NAME, hw/testing/Mutants.scala)
it must catch the broken rule on its own, with the programs' own checks
ignored (+scoreboard-only: the exit status is the scoreboard's verdict
alone)."""
import re
import subprocess

import pytest

from harness import ROOT, UNTRACED_STATUS, assert_scoreboard_checked, describe, model, per_hart, program, run, \
    scoreboard_races, scoreboard_summary, unit_requests

EXIT_SCOREBOARD = 71


def test_l2_refill_race_passes_under_the_scoreboard():
    """Assertions, TileLink monitors (the debug config) and the scoreboard
    are live; a violation would exit 71, a failed assertion non-zero. The
    refill guard must have fired (the race it guards against happened)."""
    r = run([model(2, "debug"), "+max-cycles=50000000", program("soc", "l2_refill_race")], timeout=1800)
    assert r.status == 0, describe(r)
    assert_scoreboard_checked(r)
    assert scoreboard_races(r)["guard"] > 0, describe(r)


@pytest.mark.parametrize("harts,flavor", [(2, "debug"), (4, "checked")])
def test_storm_passes_under_the_scoreboard(harts, flavor):
    """sw/baremetal/programs/storm.c: a million cycles of random requests
    (sizes, kinds, styles, targets) from every hart while all of them load,
    store, execute and remap; every request completes, and the scoreboard
    finds no use of a covered translation. The harness's per-hart counts
    see it too: every hart's walker busy (all translate) and its agent
    holding it (all are targets), in all at least the 3 cycles a request's
    drain holds each of its targets (hw/tile/FlushAgent.scala)."""
    r = run([model(harts, flavor), "+max-cycles=20000000", program("soc", "storm")], timeout=1800)
    assert r.status == 0, describe(r)
    m = re.search(r"storm: \d+ harts, (\d+) cycles: \d+ operations, (\d+) requests", r.stdout)
    assert m and int(m.group(1)) >= 1_000_000 and int(m.group(2)) > 100, describe(r)
    sb = assert_scoreboard_checked(r, requests=int(m.group(2)))
    # The unit's own count (CTR_REQUESTS, read by the harness at the end)
    # agrees with the scoreboard's, and covers storm's.
    assert unit_requests(r) == sb["requests"] >= int(m.group(2)), (unit_requests(r), sb, m.group(2))
    held, walk = per_hart(r, "held"), per_hart(r, "walk")
    assert len(held) == len(walk) == harts and min(held) > 0 and min(walk) > 0, (held, walk)
    assert sum(held) >= 3 * int(m.group(2)), (held, m.group(2))


def test_scoreboard_alone_catches_an_agent_that_acknowledges_before_draining():
    """Mutant ack-before-drain: the agents acknowledge before flushing. The
    scoreboard sees a hart use a translation the completed request covered."""
    r = run([model(2, "checked"), "+mutant=ack-before-drain", "+scoreboard-only", "+max-cycles=30000000",
             program("soc", "shootdown_cases")], timeout=1200)
    assert r.status == EXIT_SCOREBOARD, describe(r)


def test_scoreboard_alone_catches_the_missing_refill_guard():
    """Mutant no-refill-guard: an L2 TLB refill in the cycle of a kind-ASID
    flush survives it; the scoreboard dates the refilled PTE before the
    request and flags the load through it."""
    r = run([model(2, "checked"), "+mutant=no-refill-guard", "+scoreboard-only", "+max-cycles=50000000",
             program("soc", "l2_refill_race")], timeout=1200)
    assert r.status == EXIT_SCOREBOARD, describe(r)


@pytest.mark.parametrize("probe,status", [("refill", UNTRACED_STATUS), ("pte-read", EXIT_SCOREBOARD)])
def test_a_disconnected_probe_fails_the_run(probe, status):
    """A run the scoreboard cannot trace is no pass. With the TLB refill probe
    disconnected in the harness, the same program that passes checked
    (test_baremetal.py) ends with status 72, the summary counting what the
    scoreboard could not trace. Without the walker's PTE reads, every walk
    answers "without reading memory", untraced, and the translations it
    fills count as read at cycle 0, before the program's own sfence.vma:
    violations, status 71."""
    r = run([model(2, "checked"), f"+scoreboard-disconnect={probe}", "+max-cycles=20000000",
             program("soc", "sv39_unmap")], timeout=300)
    assert r.status == status, describe(r)
    sb = scoreboard_summary(r)
    assert sb["unexplained"] > 0 and (sb["violations"] > 0) == (status == EXIT_SCOREBOARD), sb


def test_scoreboard_options_are_checked():
    r = run([model(2, "debug"), "+scoreboard-only", "+no-scoreboard", program("soc", "hello")], timeout=60)
    assert r.status == 64 and "contradict" in r.stderr, describe(r)
    r = run([model(2, "uart"), "+scoreboard-only", program("soc", "hello")], timeout=60)
    assert r.status == 64 and "needs a model with the scoreboard" in r.stderr, describe(r)
    r = run([model(2, "checked"), "+scoreboard-disconnect=refil", program("soc", "hello")], timeout=60)
    assert r.status == 64 and "no probe 'refil'" in r.stderr, describe(r)


def test_mutant_switches_are_checked():
    """A mistyped knob must not run the real design as if it were the
    mutant; a model without the switches says so."""
    r = run([model(2, "checked"), "+mutant=ack-before-drainn", program("soc", "hello")], timeout=60)
    assert r.status == 64 and "unknown mutant 'ack-before-drainn'" in r.stderr, describe(r)
    assert "ack-before-drain" in r.stderr.split("this model has:")[1], describe(r)
    r = run([model(2, "uart"), "+mutant=ack-before-drain", program("soc", "hello")], timeout=60)
    assert r.status == 64 and "needs a model with the mutant switches" in r.stderr, describe(r)


@pytest.mark.parametrize("case,violations", [("reuse", 0), ("cached", 1), ("mid", 0)])
def test_a_reused_root_page_has_no_age(tmp_path, case, violations):
    """The scoreboard alone, on synthetic events (tests/scoreboard/
    table_reuse.cpp): a new process whose root is a page that was another's
    level-1 table walks from its root after a full sfence.vma, and its load
    is clean; a walk that takes its upper levels from the walker's PTE
    cache after that sfence is a violation. The first make linux-bench
    sweep failed 3 of 8 runs on the first case (the root's page kept the
    age of its old life) until the root was given no age; the sweep after
    each benchmark got a process of its own failed 2 of 8 on the third
    (mid): a walk that read its root but took a lower level from the PTE
    cache was taken for one that began below the root."""
    exe = tmp_path / "table_reuse"
    subprocess.run(["g++", "-std=c++17", "-O1", "-I", str(ROOT / "sim"), "-I", str(ROOT / "sw/include"), "-o",
                    str(exe), str(ROOT / "tests/scoreboard/table_reuse.cpp"), str(ROOT / "sim/scoreboard.cpp")],
                   check=True)
    r = subprocess.run([str(exe), case], capture_output=True, text=True)
    assert r.returncode == violations, r.stderr
