"""Files generated from hw/devices/ShootdownMap.scala and committed (the C
header the software includes, the Python module the tests import, the
register table in docs/) must match what
the Scala register map generates now."""
import subprocess

from harness import ROOT

GENERATED = {"--header": "sw/include/tlb_shootdown_regs.h", "--doc": "docs/shootdown-registers.md",
             "--python": "tests/models/shootdown_regs.py"}


def test_generated_files_are_fresh(tmp_path):
    args = []
    for flag, path in GENERATED.items():
        args += [flag, str(tmp_path / pathlib_name(path))]
    p = subprocess.run([str(ROOT / "mill"), "--no-server", "-j", "1", "hw.runMain",
                        "shootdown.devices.GenShootdownHeaders", *args],
                       cwd=ROOT, capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)
    assert p.returncode == 0, p.stdout + p.stderr
    for flag, path in GENERATED.items():
        fresh = (tmp_path / pathlib_name(path)).read_text()
        assert (ROOT / path).read_text() == fresh, (
            f"{path} is stale: regenerate it with make generated")


def pathlib_name(path):
    return path.rsplit("/", 1)[-1]
