"""The SDRAM model the board simulation runs its controller against
(fpga/sim/sdr_sdram.sv), checked by its cocotb bench (sdram_tb.py) on
Verilator: a data-sheet controller keeps its data with no error counted,
and each rule the model checks counts one error when broken, retention in
a build small enough to wait out (16 rows, 100 us)."""
import pytest

from verilator_run import BUILD, HERE, ROOT, run

SOURCES = [ROOT / "fpga/sim/sdr_sdram.sv", HERE / "sdram_top.sv"]
BUILDS = {"data-sheet": {}, "retention": {"ROW_BITS": 4, "T_REF_US": 100}}


@pytest.mark.parametrize("build", sorted(BUILDS))
def test_sdram_model(build):
    why = run(BUILD / "cocotb" / f"sdram-{build}", SOURCES, "sdram_top", "sdram_tb", parameters=BUILDS[build],
              env={"SDRAM_BUILD": build})
    assert why is None, why
