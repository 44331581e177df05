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


def test_a_bus_master_that_is_no_hart_is_foreign():
    """Issue 30, item 4: the debug SoC's extra bus master
    (hw/testing/ForeignMaster.scala) writes and submits on hart 0's channel at
    reset; its expected reads are RTL assertions (the unit's answers: 0,
    -ERR_FOREIGN, CTR_FOREIGN 2), and foreign_master.c finds on hart 0 that
    both accesses were counted as foreign and changed nothing."""
    r = run([model(2, "debug"), "+max-cycles=3000000", program("soc", "foreign_master")], timeout=900)
    assert r.status == 0, describe(r)
