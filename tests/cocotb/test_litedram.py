"""The ULX3S's SDRAM path (the LiteDRAM controller fpga/litedram/gen.py
generates, on the SDRAM model fpga/sim/sdr_sdram.sv) under its cocotb
bench, litedram_tb.py, on Verilator."""
import pathlib
import subprocess

from verilator_run import BUILD, HERE, ROOT, run


def test_litedram_on_the_sdram_model():
    ctrl = pathlib.Path(subprocess.run([str(ROOT / "fpga/litedram/build.sh")], check=True, capture_output=True,
                                       text=True).stdout.strip())
    why = run(BUILD / "cocotb" / f"litedram-{ctrl.name}",
              [ctrl / "litedram_ulx3s.v", ROOT / "fpga/sim/sdr_sdram.sv", HERE / "litedram_top.sv"],
              "litedram_top", "litedram_tb")
    assert why is None, why
