"""Launches the cocotb benches (agent_tb.py, unit_tb.py) on Verilator from
pytest, each with COCOTB_SEEDS fresh random seeds (5 unless told; `make
cocotb-long` runs 200). COCOTB_SEED=<seed> runs just that seed; a failure
names its seed, which replays it. Each bench must also fail with a mutant
switched on that breaks what it checks (hw/testing/Mutants.scala)."""
import os
import pathlib
import random
import subprocess

import pytest

from verilator_run import BUILD, ROOT, failed_tests, run

BENCHES = {
    # bench top: (Verilog top module, cocotb test module)
    "agent": ("AgentBench", "agent_tb"),
    "unit": ("UnitBench", "unit_tb"),
}


# bench -> {mutant in its module: the bench's tests that must fail with it}
MUST_CATCH = {
    "agent": {"ack-before-drain": ["random_stream"], "ack-before-ordered": ["random_stream"]},
    "unit": {"drop-last-entry": ["random_requests"], "superpage-4k-stride": ["random_requests", "long_lists"],
             "sync-one-early": ["random_requests"]},
}


def bench_sources(top):
    out = subprocess.run([str(ROOT / "scripts/build-bench.sh"), top], check=True, capture_output=True, text=True)
    d = pathlib.Path(out.stdout.strip())
    return sorted(d.glob("*.v")), d


SEEDS = int(os.environ.get("COCOTB_SEEDS", "5"))


def run_bench(top, run_name, seed, plusargs=()):
    """Builds the bench (once) and runs its tests with `seed`. Returns None
    if every test passed, else what went wrong."""
    module, tests = BENCHES[top]
    sources, vdir = bench_sources(top)
    build_dir = BUILD / "cocotb" / f"{top}-{vdir.name}"
    return run(build_dir, sources, module, tests, test_dir=build_dir / f"run-{run_name}", defines={"MUTANT_PLUSARGS": 1},
               seed=seed, plusargs=plusargs, env={"BENCH_PARAMS": str(vdir / "params.json")},
               pythonpath=[ROOT / "tests/models", ROOT / "scripts"])


@pytest.mark.parametrize("run", range(1 if "COCOTB_SEED" in os.environ else SEEDS))
@pytest.mark.parametrize("top", sorted(BENCHES))
def test_bench(top, run):
    seed = int(os.environ.get("COCOTB_SEED", random.randrange(1 << 31)))
    why = run_bench(top, run, seed)
    assert why is None, f"{top} bench with seed {seed} (replay: COCOTB_SEED={seed}): {why}"


@pytest.mark.parametrize("top,mutant", [(t, m) for t, ms in sorted(MUST_CATCH.items()) for m in sorted(ms)])
def test_bench_catches_mutant(top, mutant):
    """The tests named in MUST_CATCH fail, each on one of its checks (an
    AssertionError), not by a timeout or a crash."""
    seed = int(os.environ.get("COCOTB_SEED", random.randrange(1 << 31)))
    why = run_bench(top, f"mutant-{mutant}", seed, [f"+mutant={mutant}"])
    where = f"the {top} bench with mutant {mutant} switched on (seed {seed}, replay: COCOTB_SEED={seed})"
    assert why, f"{where}: every test passed"
    failed = failed_tests(BUILD / "cocotb" / f"{top}-{bench_sources(top)[1].name}" / f"run-mutant-{mutant}")
    for name in MUST_CATCH[top][mutant]:
        assert name in failed, f"{where}: {name} passed (failed: {sorted(failed) or 'none'}; {why})"
        assert failed[name], f"{where}: {name} failed, but on no check of its own ({why})"


def test_unit_bench_across_the_ticket_wrap():
    """The unit bench again with every channel's tickets starting 16 below
    2^32 (test aid tickets-near-wrap): the random traffic crosses the wrap,
    and tickets_skip_zero checks it directly."""
    seed = int(os.environ.get("COCOTB_SEED", random.randrange(1 << 31)))
    why = run_bench("unit", "tickets-near-wrap", seed, ["+mutant=tickets-near-wrap"])
    assert why is None, f"unit bench across the ticket wrap, seed {seed} (replay: COCOTB_SEED={seed}): {why}"
