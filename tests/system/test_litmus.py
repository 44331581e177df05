"""The litmus tests (tests/litmus, docs/litmus.md) on the Verilator SoC,
through the unit's channels from S-mode: sw/baremetal/programs/litmus.c runs
every test 100 times with seeded jitter on every hart and prints the
outcomes it saw; each test here judges one litmus test's outcomes against
its reference model (judge.py). A forbidden outcome, or any outcome the
model does not allow, fails it; a weak outcome never seen is reported in
the test's output. Each run is shared by the xdist workers (one per
program, SoC and pytest session)."""
import fcntl
import os

import pytest

from conftest import BUILD, model, program, run
from judge import judge, parse, tests

TESTS = tests()


def litmus_run(harts, name="litmus"):
    """The console output of one run of program `name` on the SoC, made
    once per pytest session (the first worker to ask runs it)."""
    uid = os.environ.get("PYTEST_XDIST_TESTRUNUID") or f"pid{os.getpid()}"
    log = BUILD / "litmus" / f"{name}-{harts}harts-{uid}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not log.exists():
            r = run([model(harts), "+max-cycles=400000000", program("soc", name)], timeout=1800)
            log.write_text(f"status {r.status}\n{r.stdout}\n--- stderr ---\n{r.stderr}")
    text = log.read_text()
    assert text.startswith("status 0\n"), text[-3000:]
    return text


@pytest.mark.parametrize("name", sorted(TESTS))
def test_litmus(name):
    """A test of two harts runs on the 2-hart SoC, one of more on the 4-hart
    SoC (litmus_3harts.c); make litmus-long runs every test on both."""
    run_log = litmus_run(2) if len(TESTS[name].harts) <= 2 else litmus_run(4, "litmus_3harts")
    found = parse(run_log).get(name)
    assert found and "skipped" not in found, f"{name} did not run: {found}"
    verdict = judge(TESTS[name], found)
    print(verdict["report"])
    assert not verdict["failures"], verdict["report"]


def test_litmus_catches_a_request_missing_its_last_entry():
    """litmus_droplast.c leaves out the last entry of every request of more
    than one: BatchTearing must see y still mapped after the flag."""
    verdict = judge(TESTS["BatchTearing"], parse(litmus_run(2, "litmus_droplast"))["BatchTearing"])
    assert any(f.startswith("forbidden outcome seen") for f in verdict["failures"]), verdict["report"]
