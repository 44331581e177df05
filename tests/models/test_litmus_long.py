"""make litmus-long's verdict per back end (scripts/litmus_long.py) on
doctored logs: a run passes only with status 0 (on the SoC the scoreboard's
71 and 72 count), every test finished ("litmus-done") and judged right."""
import importlib.util

import pytest

from harness import ROOT
from litmus_logs import whole_run

spec = importlib.util.spec_from_file_location("litmus_long", ROOT / "scripts/litmus_long.py")
litmus_long = importlib.util.module_from_spec(spec)
spec.loader.exec_module(litmus_long)

DONE = "litmus-done\n"


@pytest.mark.parametrize("status,text,want", [
    (0, whole_run() + DONE, None),
    (71, whole_run() + DONE, "status 71"),
    (72, whole_run() + DONE, "status 72"),
    (None, whole_run(), "status None"),
    (0, whole_run(), "did not finish"),
    (0, whole_run(doctor=("MP+shoot+wait", {"outcome": "1:r0=1 1:r1=999"})) + DONE, "1 tests failed"),
], ids=["pass", "scoreboard-violation", "untraced", "wall-clock", "unfinished", "outcome-outside-the-model"])
def test_verdict(tmp_path, monkeypatch, status, text, want):
    monkeypatch.setattr(litmus_long, "RESULTS", tmp_path)
    log = tmp_path / "litmus-x.log"
    log.write_text(text)
    got = litmus_long.verdict("x", status, log, None)
    assert (got is None) if want is None else (want in got), got


def test_summary_row_from_a_report(tmp_path, monkeypatch):
    """The row litmus-long.md gets: failures of the tests run, the skipped
    ones apart, every weak outcome never seen."""
    monkeypatch.setattr(litmus_long, "RESULTS", tmp_path)
    log = tmp_path / "litmus-x.log"
    log.write_text(whole_run(doctor=("MP+shoot+wait", {"outcome": "1:r0=1 1:r1=999"})) + DONE)
    litmus_long.verdict("x", 0, log, None)
    row = litmus_long.summary("x", (tmp_path / "litmus-x.txt").read_text(), 1800)
    assert row[:3] == ["x", f"1 of {len(litmus_long.litmus_tests())}", 0] and row[4] == "30 min", row
    litmus_long.write_summary([row], 1000, litmus_long.BACKENDS)
    text = (tmp_path / "litmus-long.md").read_text()
    assert text.startswith("# The litmus tests at 1,000 schedules\n\n`make litmus-long`: ") and "| x | 1 of " in text
