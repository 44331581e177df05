"""Files generated from hw/devices/ShootdownMap.scala and committed (the C
header the software includes, the Python module the tests import, the
register table in docs/) and the finisher's header (hw/testing/SimDevices.scala)
must match what the Scala sources generate now."""
from harness import ROOT, mill

GENERATED = {"--header": "sw/include/tlb_shootdown_regs.h", "--doc": "docs/shootdown-registers.md",
             "--python": "scripts/shootdown_regs.py", "--finisher": "sw/include/finisher.h"}


def test_generated_files_are_fresh(tmp_path):
    args = []
    for flag, path in GENERATED.items():
        args += [flag, str(tmp_path / pathlib_name(path))]
    p = mill("-j", "1", "hw.runMain", "shootdown.devices.GenShootdownHeaders", *args)
    assert p.returncode == 0, p.stdout + p.stderr
    for flag, path in GENERATED.items():
        fresh = (tmp_path / pathlib_name(path)).read_text()
        assert (ROOT / path).read_text() == fresh, (
            f"{path} is stale: regenerate it with make generated")


def pathlib_name(path):
    return path.rsplit("/", 1)[-1]
