"""make linux-demo's table (scripts/linux_demo_table.py) on doctored logs:
each phase's cycles, IPIs and M-mode cycles come from the harness's
timestamps of its begin and end lines (with or without the M-mode counts),
the kernel's counters from the end line; a run that did not pass, a log
without timestamps or a pair without the port is refused."""
import csv
import subprocess
import sys

import pytest

import linux_demo_table
from harness import ROOT

SCRIPT = ROOT / "scripts/linux_demo_table.py"


def log(cycles, mmode=True, status=0):
    """A run: boot, one madvise phase of `cycles` cycles (2 IPIs on hart 1,
    M-mode cycles 300 and 200 in it when `mmode`), the harness's end."""
    stamp = lambda c, msip, mm: f"[{c:>10} msip {msip}{' mmode ' + mm if mmode else ''}] "
    return (stamp(1000, "0 0", "900 900") + "init: running on cpus 0-1\n"
            + stamp(2000, "0 1", "1000 1000") + "phase madvise begin\n"
            + stamp(2000 + cycles, "0 3", "1300 1200")
            + "phase madvise end linux_ipis=1 requests=4 direct=4 entries=9 wait_ticks=5\n"
            + f"[sim] finisher: pass, status {status}: {3000 + cycles} cycles in 1.00 s (3.0 kHz)\n")


def test_the_done_line_ends_a_phase(tmp_path):
    """/init's "phase NAME done" line, printed before it reads the counters,
    ends the phase; the end line after it only carries the counters."""
    done = lambda text: text.replace("phase madvise end", "phase madvise done\n[      9999 msip 0 9 mmode 9 9] phase madvise end")
    r = make(tmp_path, {"stock": done(log(5000)), "port": done(log(4000))})
    assert r.returncode == 0, r.stderr
    port = rows(tmp_path / "out/linux-demo.csv")[("port", "madvise")]
    assert (port["cycles"], port["msip"], port["mmode_cycles"], port["requests"]) == ("4000", "2", "500", "4")
    # the kernel read its IPI count after the done line: the harness's count
    # to set against it runs to the end line (8 raised, 1 the kernel's)
    assert port["shootdown_ipis"] == "7", port


def rows(path):
    with open(path) as f:
        return {(r["kernel"], r["phase"]): r for r in csv.DictReader(f)}


def make(tmp_path, logs):
    paths = []
    for name, text in logs.items():
        paths.append(tmp_path / f"linux-demo-2-{name}.log")
        paths[-1].write_text(text)
    return subprocess.run([sys.executable, str(SCRIPT), str(tmp_path / "out"), *map(str, paths)],
                          capture_output=True, text=True)


@pytest.mark.parametrize("mmode", [True, False], ids=["with-mmode", "without-mmode"])
def test_phases_come_from_the_timestamps(tmp_path, mmode):
    r = make(tmp_path, {"stock": log(5000, mmode), "port": log(4000, mmode)})
    assert r.returncode == 0, r.stderr
    got = rows(tmp_path / "out/linux-demo.csv")
    stock, port = got[("stock", "madvise")], got[("port", "madvise")]
    assert (stock["cycles"], port["cycles"], port["msip"], port["shootdown_ipis"]) == ("5000", "4000", "2", "1")
    assert (port["requests"], port["entries"], port["wait_ticks"]) == ("4", "9", "5")
    assert port["mmode_cycles"] == ("500" if mmode else "")
    assert got[("port", "boot")]["cycles"] == "1000"


def test_a_mutant_pair_gets_its_own_files(tmp_path):
    r = make(tmp_path, {"no-nonleaf": log(3900), "port": log(4000)})
    assert r.returncode == 0, r.stderr
    got = rows(tmp_path / "out/linux-demo-no-nonleaf.csv")
    assert got[("no-nonleaf", "madvise")]["cycles"] == "3900" and got[("port", "madvise")]["cycles"] == "4000"
    assert "1.0256" in r.stdout  # port / no-nonleaf
    assert not (tmp_path / "out/linux-demo.csv").exists()


@pytest.mark.parametrize("logs,message", [
    ({"stock": log(5000), "port": log(4000, status=1)}, "did not pass (status 1)"),
    ({"stock": log(5000), "port": "[sim] finisher: pass, status 0: 9 cycles in 1.00 s (3.0 kHz)\n"},
     "no timestamped console lines"),
    ({"stock": log(5000), "no-nonleaf": log(4000)}, "need the port's run"),
], ids=["failed-run", "no-timestamps", "no-port"])
def test_bad_logs_are_refused(tmp_path, logs, message):
    r = make(tmp_path, logs)
    assert r.returncode == 1 and message in r.stderr, r.stderr


def test_wait_in_cycles_or_in_timer_ticks():
    """Kernels count their waits in cycles (wait_cycles); the logs of older
    ones in timer ticks of 100 cycles (wait_ticks) read the same."""
    assert linux_demo_table.wait_cycles({"wait_cycles": 627}) == 627
    assert linux_demo_table.wait_cycles({"wait_ticks": 5}) == 500
    assert linux_demo_table.wait_cycles({}) is None
    assert linux_demo_table.wait_share(2, {"cycles": 1000, "wait_cycles": 500}) == "25.00%"
