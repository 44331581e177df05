"""The litmus tests (tests/litmus, docs/litmus.md) on the Verilator SoC and
on QEMU: a back end runs every test 100 times with seeded jitter on every
hart and prints the outcomes it saw; each test here judges one litmus
test's outcomes on one back end against its reference model (litmus_lang.judge). A
forbidden outcome, or any outcome the model does not allow, fails it; a
weak outcome never seen is reported in the test's output.

Back ends (sw/baremetal/common/litmus_core.h):
- unit: the unit's channels from S-mode (programs/litmus.c), tests of two
  harts on the 2-hart SoC, the others on the 4-hart SoC (litmus_3harts.c);
- sbi-ext: the batched SBI extension under the project's OpenSBI, 2-hart
  SoC (programs-sbi/sbi_litmus_ext.c);
- qemu-rfence: SBI RFENCE over IPIs under stock OpenSBI on QEMU virt with
  4 harts (programs-sbi/sbi_litmus_rfence.c).
make litmus-long runs more schedules and the other SoC paths.

Each run is made once per pytest session, by the first xdist worker that
asks for it."""

import pytest

from harness import assert_scoreboard_checked, describe, firmware, model, program, run, run_qemu, run_sim, shared_run
from litmus_lang.judge import judge, parse, tests as litmus_tests

TESTS = litmus_tests()


def shared(key, make_run, scoreboard=False):
    """The stdout of make_run(), made once per session (harness.shared_run);
    the run itself must have succeeded and, on the SoC, the scoreboard must
    have checked it (requests seen, accesses checked, nothing untraced)."""
    r = shared_run(key, make_run)
    assert r.status == 0, describe(r)[-3000:]
    if scoreboard:
        assert_scoreboard_checked(r)
    return r.stdout


def unit_run(harts, name="litmus"):
    return shared(f"{name}-{harts}harts",
                  lambda: run([model(harts), "+max-cycles=400000000", program("soc", name)], timeout=1800),
                  scoreboard=True)


BACKENDS = {
    "unit": lambda test: unit_run(2) if len(test.harts) <= 2 else unit_run(4, "litmus_3harts"),
    "sbi-ext": lambda test: shared("sbi-ext-2harts", lambda: run_sim(
        2, firmware("unit", "sbi_litmus_ext") / "fw_payload.elf", "+max-cycles=600000000", timeout=1800),
        scoreboard=True),
    "qemu-rfence": lambda test: shared("qemu-rfence-4harts", lambda: run_qemu(
        4, bios=firmware("stock", "sbi_litmus_rfence") / "fw_payload.bin", timeout=900)),
}
CASES = [(b, n) for b in BACKENDS for n in sorted(TESTS)
         if not (b == "sbi-ext" and len(TESTS[n].harts) > 2)]
# Through the firmware's extension the tests run on the same unit as the
# "unit" backend's, behind OpenSBI's checks: make test-long.
LONG = {"sbi-ext"}


@pytest.mark.parametrize("backend,name", [pytest.param(b, n, marks=pytest.mark.long) if b in LONG else (b, n)
                                          for b, n in CASES], ids=[f"{b}-{n}" for b, n in CASES])
def test_litmus(backend, name):
    found = parse(BACKENDS[backend](TESTS[name])).get(name)
    assert found and "skipped" not in found, f"{name} did not run: {found}"
    verdict = judge(TESTS[name], found)
    print(verdict["report"])
    assert not verdict["failures"], verdict["report"]


def test_litmus_catches_a_request_missing_its_last_entry():
    """litmus_droplast.c leaves out the last entry of every request of more
    than one: BatchTearing must see y still mapped after the flag."""
    verdict = judge(TESTS["BatchTearing"], parse(unit_run(2, "litmus_droplast"))["BatchTearing"])
    assert any(f.startswith("forbidden outcome seen") for f in verdict["failures"]), verdict["report"]
