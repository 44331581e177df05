"""The debug model keeps rocket-chip's TileLink monitors and every RTL
assertion live, with random initial state, and runs the co-simulation
scoreboard: programs that use our sim devices, VM and all harts must pass
there (a failed assertion stops the run with a non-zero status, a
scoreboard violation with 71)."""
import pytest

from harness import describe, model, program, run


@pytest.mark.parametrize("name", ["hello", "sv39_unmap"])
def test_program_passes_with_monitors_and_assertions(name):
    r = run([model(2, "debug"), "+max-cycles=2000000", program("soc", name)], timeout=900)
    assert r.status == 0, describe(r)
