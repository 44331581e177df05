"""The kill matrix's verdict (scripts/mutants.py) on doctored logs: a kill is
only the check one expects (the program's own failure status, the litmus
judge seeing a forbidden outcome or one outside the model, the scoreboard
naming violations); a hang, a crash, an unexpected status or a litmus run
that could not have caught anything is its own verdict and fails the
matrix (issue 31, item 2)."""
import importlib.util

import pytest

from harness import ROOT
from litmus_logs import TESTS, whole_run

spec = importlib.util.spec_from_file_location("mutants", ROOT / "scripts/mutants.py")
mutants = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mutants)


def sb(violations=0, unexplained=0):
    return (f"\n[sim] scoreboard: 3 requests, 0 local sfence.vma, 100 translated accesses checked, {unexplained} "
            f"unexplained, {violations} violations\n")


HONEST = whole_run()
OUTSIDE = whole_run(doctor=("MP+shoot+wait", {"outcome": "1:r0=1 1:r1=999"}))
EMPTY = whole_run(doctor=("MP+shoot+wait", {"schedules": 0}))


@pytest.mark.parametrize("status,text,prog,want", [
    (0, sb(), "cases", ("-", "-")),
    (1, sb(), "cases", ("killed", "-")),
    (0, sb(4), "storm", ("-", "killed(4)")),
    (71, sb(2), "sbi", ("-", "killed(2)")),
    (1, sb(2), "l2race", ("killed", "killed(2)")),
    (124, sb(), "cases", ("hang", "-")),
    (None, sb(), "cases", ("hang", "-")),
    (70, sb(), "storm", ("crash(70)", "-")),
    (-6, sb(), "sbi", ("crash(-6)", "-")),
    (3, sb(), "cases", ("crash(3)", "-")),
    (0, HONEST + sb(), "litmus", ("-", "-")),
    (0, OUTSIDE + sb(), "litmus", ("killed", "-")),
    (0, EMPTY + sb(), "litmus", ("invalid", "-")),
    (1, HONEST + sb(), "litmus", ("crash(1)", "-")),
    (72, sb(unexplained=5), "cases", ("-", "untraced(5)")),
    (1, sb(unexplained=5), "cases", ("killed", "untraced(5)")),
    (71, sb(2, unexplained=5), "storm", ("-", "killed(2)")),
], ids=["pass", "program-fails", "scoreboard", "scoreboard-71", "both", "hang", "wall-clock", "axi-error",
        "abort", "odd-status", "litmus-pass", "litmus-outside", "litmus-empty", "litmus-refused", "untraced", "untraced-and-failed",
        "violations-and-untraced"])
def test_verdict(status, text, prog, want):
    assert mutants.verdict(status, text, prog) == want


def test_a_log_without_the_scoreboard_summary_is_an_error():
    with pytest.raises(SystemExit, match="no scoreboard summary"):
        mutants.verdict(0, "finisher: pass", "cases")


@pytest.mark.parametrize("cells,control,want", [
    ([("killed", "-"), ("-", "-")], False, None),
    ([("-", "killed(1)"), ("-", "-")], False, None),
    ([("-", "-"), ("-", "-")], False, "not killed"),
    ([("killed", "-"), ("hang", "-")], False, "hang (neither a kill nor a pass)"),
    ([("killed", "-"), ("crash(70)", "-")], False, "crash(70) (neither a kill nor a pass)"),
    ([("-", "-"), ("-", "-")], True, None),
    ([("-", "killed(1)"), ("-", "-")], True, "a control: the real design fails the suite"),
    ([("invalid", "-"), ("-", "-")], True, "invalid (neither a kill nor a pass)"),
    ([("killed", "untraced(3)"), ("-", "-")], False, "untraced(3) (neither a kill nor a pass)"),
    ([("-", "untraced(3)"), ("-", "-")], True, "untraced(3) (neither a kill nor a pass)"),
])
def test_rows(cells, control, want):
    assert mutants.judge_row(cells, control) == want


def test_the_knobs_come_from_the_generated_module():
    import shootdown_regs
    assert "ack-before-drain" in shootdown_regs.MUTANTS and "tickets-near-wrap" in shootdown_regs.AIDS
    assert len(TESTS) > 0
