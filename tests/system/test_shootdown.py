"""The batched shootdown unit on the Verilator SoC, against docs/semantics.md.

sw/baremetal/programs/shootdown_cases.c runs every case in one boot: targets
loop over mapped pages while hart 0 unmaps some and issues one request; the
program itself checks that covered pages fault afterwards on every hart, that
no late store overwrote hart 0's sentinels, and that bad requests get their
error codes. It reports each case, and a failing one does not stop the rest:
here each case is its own test, read from one shared run per SoC."""
import re

import pytest

from harness import ROOT, assert_scoreboard_checked, channel_irq_sources, describe, model, program, race_results, run, \
    scoreboard_races, shared_run

PROGRAM = ROOT / "sw/baremetal/programs/shootdown_cases.c"


def case_table():
    """The cases of shootdown_cases.c in the order it runs them: its case
    table, every case in it. The program prints the same list first;
    test_the_program_runs_its_case_table holds the two together."""
    src = PROGRAM.read_text()
    table = src[src.index("static const struct kase cases[] = {"):]
    return re.findall(r'\.name = "([^"]+)"', table[:table.index("};")])


CASES = case_table()
RUN_LINE = re.compile(r"case (\S+): hart (\d+): \d+ entries in \d+ requests?, (\d+) targets acknowledged, (\d+) cycles")


def run_cases(harts, flavor, *plusargs):
    return run([model(harts, flavor), *plusargs, "+max-cycles=30000000", program("soc", "shootdown_cases")],
               timeout=1200)


def cases_run(harts):
    """One run of every case on the checked SoC, shared by the tests below."""
    return shared_run(f"shootdown_cases-{harts}harts", lambda: run_cases(harts, "checked"))


@pytest.mark.parametrize("harts", [2, 4])
def test_the_program_runs_its_case_table(harts):
    r = cases_run(harts)
    table = re.search(r"^cases: (.*)$", r.stdout, re.M)
    assert table and table.group(1).split() == CASES, describe(r)
    assert re.findall(r"^case (\S+): (?:PASS|FAIL)$", r.stdout, re.M) == CASES, describe(r)
    assert r.status == (1 if re.search(r"^case \S+: FAIL$", r.stdout, re.M) else 0), describe(r)


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("harts", [2, 4])
def test_case(harts, case):
    """One case of shootdown_cases.c (its comment says what each checks);
    every hart acknowledged each request (the unit's ACKED register, read
    after completion) and completion took real time."""
    r = cases_run(harts)
    why = "".join(line + "\n" for line in r.stdout.splitlines() if line.startswith(f"FAIL {case}:"))
    assert f"case {case}: PASS\n" in r.stdout, why or describe(r)
    if case in ("clean-pte", "errors"):
        return
    runs = [(int(h), int(t), int(c)) for name, h, t, c in RUN_LINE.findall(r.stdout) if name == case]
    assert {h for h, _, _ in runs} == ({0, 1} if case == "two-initiators" else {0}), describe(r)
    for _, targets, cycles in runs:
        assert targets == harts and 0 < cycles < 100000, (case, targets, cycles)


@pytest.mark.parametrize("harts,flavor", [(2, "debug"), (4, "checked")])
def test_every_case_holds_under_the_scoreboard(harts, flavor):
    """The scoreboard (docs/scoreboard.md) watches every access; on 2 harts
    TileLink monitors watch the unit's list reads and register accesses and
    Rocket's assertions are live too. The racing cases must really race: a
    target's own sfence.vma meeting the agent's flush, and page walks
    answering in a flush cycle, both counted by the scoreboard from the RTL."""
    # The checked models have the scoreboard: their run is the case table's.
    r = cases_run(harts) if flavor == "checked" else run_cases(harts, flavor)
    assert r.status == 0, describe(r)
    assert f"PASS: {len(CASES)} cases" in r.stdout, describe(r)
    assert_scoreboard_checked(r)
    races = scoreboard_races(r)
    assert races["walk-in-flush"] > 0 and races["sfence-deferred"] > 0, races


def test_checks_catch_an_agent_that_acknowledges_before_draining():
    """Mutant ack-before-drain: the agents acknowledge when the request's end arrives,
    before applying their queued flushes and draining: the same program must
    then see an access performed after completion. On Rocket's blocking D$ a
    cacheable access cannot outlive the agent's M_SFENCE, so it is the store
    to the slow I/O page that gives it away."""
    r = run_cases(2, "checked", "+mutant=ack-before-drain", "+no-scoreboard")
    assert r.status == 1, describe(r)
    late = re.search(r"FAIL mmio-store-in-flight: a store to the covered I/O page was performed after "
                     r"completion \(at (\d+), completion seen at (\d+)\)", r.stdout)
    assert late, describe(r)
    assert int(late.group(1)) > int(late.group(2))


@pytest.mark.parametrize("harts", [2, 4])
def test_s_mode_reaches_only_its_own_channel_through_the_pmp(harts):
    """docs/shootdown-unit.md, Privilege: with one PMP window per hart,
    S-mode can use its own channel (a request completes) and faults on other
    harts' channels and on the global page; M-mode reaches everything."""
    r = run([model(harts), "+max-cycles=5000000", program("soc", "shootdown_pmp")], timeout=300)
    assert r.status == 0, describe(r)
    assert "PASS: S-mode reaches only its own channel, M-mode all of the unit" in r.stdout, describe(r)


@pytest.mark.parametrize("harts", [2, 4])
def test_completion_interrupt_reaches_the_hart_through_the_plic(harts):
    """shootdown_irq.c sleeps in WFI until channel 0's completion interrupt;
    the PLIC source it expects must be the one the device tree gives the
    unit's first channel."""
    sim = model(harts)
    sources = channel_irq_sources(sim)
    assert len(sources) == harts
    r = run([sim, "+max-cycles=5000000", program("soc", "shootdown_irq")], timeout=300)
    assert r.status == 0, describe(r)
    assert f"interrupt from source {sources[0]} after" in r.stdout, describe(r)
    assert "PASS: completion interrupt" in r.stdout, describe(r)


@pytest.mark.parametrize("harts", [2, 4])
def test_asid_request_leaves_no_stale_l2_tlb_entry(harts):
    """Issue 10: a kind-ASID request whose PTW flush meets an L2 TLB refill
    in the same cycle (sw/baremetal/common/l2_refill_race.h). Every round a
    target walks X through a level-1 entry the initiator has just replaced;
    its first load of X after completion must see the new page. The program
    checks the loaded values and exits 1 on a stale one; on the RTL before
    the tile's refill guard (ab0873e) 18 of 600 rounds were stale on 2
    harts, 57 of 1,800 target-rounds on 4."""
    r = run([model(harts), "+max-cycles=50000000", program("soc", "l2_refill_race")], timeout=900)
    assert r.status == 0, describe(r)
    rounds, racing, stale = race_results(r)["unit"]
    assert rounds == 600 and stale == 0 and racing > 0, describe(r)


def test_race_is_caught_without_the_l2_refill_guard():
    """The same program on tiles without the guard (mutant no-refill-guard)
    must see stale loads: the check can fail."""
    r = run([model(2, "checked"), "+mutant=no-refill-guard", "+no-scoreboard", "+max-cycles=50000000",
             program("soc", "l2_refill_race")], timeout=900)
    assert r.status == 1, describe(r)
    _, racing, stale = race_results(r)["unit"]
    assert stale > 0 and racing > 0, describe(r)


def test_the_unit_resets_closed():
    """sw/baremetal/programs/shootdown_reset.c, which keeps the runtime from
    opening the channels: at reset every channel's limits read 0 and a
    request on a channel nobody opened is refused with ERR_DENIED, by list
    and by SUBMIT_ONE (the program checks the answers, ERROR, CTR_ERRORS and
    CTR_REQUESTS, and exits 1 otherwise); once opened, the same requests
    complete. Before the unit reset closed, both requests were taken."""
    r = run([model(2, "checked"), "+max-cycles=2000000", program("soc", "shootdown_reset")], timeout=300)
    assert r.status == 0, describe(r)


@pytest.mark.parametrize("harts", [2, 4])
def test_a_target_that_never_drains_is_given_up_on(harts):
    """Rule 9 (liveness), sw/baremetal/programs/shootdown_timeout.c: hart 1's
    store to the delay RAM is never performed, so its agent can never
    acknowledge. A request naming it must complete after TIMEOUT with
    ERR_TIMEOUT and hart 1 in CH_FAILED (the program checks ERROR, FAILED and
    CTR_TIMEOUTS and exits 1 otherwise), requests to the other harts must
    complete at once, and the scoreboard (checked model) must find no target
    it promised using a stale translation. Before the unit had a timeout,
    the first request never completed and the program failed."""
    r = run([model(harts, "checked"), "+max-cycles=5000000", program("soc", "shootdown_timeout")], timeout=300)
    assert r.status == 0, describe(r)
