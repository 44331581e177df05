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
