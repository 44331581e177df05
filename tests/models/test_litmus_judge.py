"""The litmus judge (litmus_lang.judge) fails a run that does not show
it ran what was asked, not only one that saw a forbidden outcome: doctored
logs of an empty run, of fewer schedules than the build asks for, of a
header whose outcome count disagrees with its lines, and of a test skipped
for a reason its file does not give must each fail (issue 31, item 3)."""
import os
import subprocess
import sys

import pytest

from harness import ROOT
from litmus_lang.judge import asked_schedules, judge, parse
from litmus_logs import TESTS, log, whole_run

JUDGE = [sys.executable, "-m", "litmus_lang.judge"]
ONE = "MP+shoot+wait"


def failures(text, name=ONE):
    return judge(TESTS[name], parse(text)[name])["failures"]


def test_an_honest_run_passes():
    assert failures(log(ONE)) == []


@pytest.mark.parametrize("doctored,why", [
    (log(ONE, schedules=0), "schedules run where"),
    (log(ONE, schedules=asked_schedules() // 2), "schedules run where"),
    (log(ONE, distinct=2), "outcome lines where the header counts 2"),
    (log(ONE, lines=2, distinct=1), "outcome lines where the header counts 1"),
], ids=["empty", "fewer-schedules", "header-counts-more", "more-lines-than-counted"])
def test_a_run_that_did_not_do_what_was_asked_fails(doctored, why):
    assert any(why in f for f in failures(doctored)), failures(doctored)


def run_cli(tmp_path, text, *opts):
    path = tmp_path / "run.log"
    path.write_text(text)
    # as docs/litmus.md runs it: the litmus package (scripts/) alone on the path
    return subprocess.run([*JUDGE, *opts, str(path)], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "scripts")})


def test_skips_only_for_the_harts_a_test_needs(tmp_path):
    three = next(n for n, t in TESTS.items() if len(t.harts) == 3)
    assert run_cli(tmp_path, whole_run()).returncode == 0
    assert run_cli(tmp_path, whole_run(three, "needs 3 harts")).returncode == 0
    r = run_cli(tmp_path, whole_run(three, "no time"))
    assert r.returncode == 1 and "skipped: no time" in r.stdout, r.stdout[-2000:]
    r = run_cli(tmp_path, whole_run(ONE, f"needs {len(TESTS[ONE].harts) + 1} harts"))
    assert r.returncode == 1, r.stdout[-2000:]


def test_the_cli_takes_the_schedules_asked(tmp_path):
    assert run_cli(tmp_path, whole_run(), "--schedules", str(asked_schedules())).returncode == 0
    r = run_cli(tmp_path, whole_run(), "--schedules", str(asked_schedules() * 10))
    assert r.returncode == 1 and "schedules run where" in r.stdout
    r = run_cli(tmp_path, whole_run(), "--schedules", "many")
    assert r.returncode == 1 and "takes a number" in r.stderr
