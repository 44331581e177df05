"""The co-simulation scoreboard (sim/scoreboard.h, docs/scoreboard.md): a
translation-lifetime checker in the debug and checked models, fed by the
RTL's probes. On the real design it must stay silent through every system
program on the debug models; on the mutants the CI builds it must catch the
broken rule on its own, with the programs' own checks ignored
(+scoreboard-only: the exit status is the scoreboard's verdict alone)."""
import pytest

from conftest import describe, firmware, model, program, run

EXIT_SCOREBOARD = 71


@pytest.mark.parametrize("harts,name,cycles", [
    (2, "l2_refill_race", 50_000_000),
    (4, "shootdown_cases", 40_000_000),
    (4, "l2_refill_race", 80_000_000),
], ids=["2harts-l2_refill_race", "4harts-shootdown_cases", "4harts-l2_refill_race"])
def test_debug_model_program_passes_under_the_scoreboard(harts, name, cycles):
    """Assertions, TileLink monitors (the debug config) and the scoreboard
    are live; a violation would exit 71, a failed assertion non-zero."""
    r = run([model(harts, "debug"), f"+max-cycles={cycles}", program("soc", name)], timeout=1800)
    assert r.status == 0, describe(r)


def test_sbi_cases_pass_under_the_scoreboard():
    """Every S-mode path of the OpenSBI series (RFENCE and the batched
    extension carried out by the unit) on the debug model."""
    fw = firmware("unit") / "fw_payload.elf"
    r = run([model(2, "debug"), "+max-cycles=60000000", fw], timeout=1800)
    assert r.status == 0, describe(r)


def test_scoreboard_alone_catches_an_agent_that_acknowledges_before_draining():
    """Mutant ack-before-drain: the agents acknowledge before flushing. The
    scoreboard sees a hart use a translation the completed request covered."""
    r = run([model(2, "ackearly"), "+scoreboard-only", "+max-cycles=30000000",
             program("soc", "shootdown_cases")], timeout=1200)
    assert r.status == EXIT_SCOREBOARD, describe(r)


def test_scoreboard_alone_catches_the_missing_refill_guard():
    """Mutant no-refill-guard: an L2 TLB refill in the cycle of a kind-ASID
    flush survives it; the scoreboard dates the refilled PTE before the
    request and flags the load through it."""
    r = run([model(2, "noguard"), "+scoreboard-only", "+max-cycles=50000000",
             program("soc", "l2_refill_race")], timeout=1200)
    assert r.status == EXIT_SCOREBOARD, describe(r)


def test_scoreboard_options_are_checked():
    r = run([model(2, "debug"), "+scoreboard-only", "+no-scoreboard", program("soc", "hello")], timeout=60)
    assert r.status == 64 and "contradict" in r.stderr, describe(r)
    r = run([model(2, "tuned"), "+scoreboard-only", program("soc", "hello")], timeout=60)
    assert r.status == 64 and "needs a model with the scoreboard" in r.stderr, describe(r)
