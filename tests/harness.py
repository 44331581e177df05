"""The tests' harness helpers: running models and programs on the
Verilator SoC or QEMU and reading what the harness reports. Finding and
building them is scripts/builds.py's (imported here, so the tests take
everything from one place)."""
import fcntl
import json
import os
import pathlib
import re
import subprocess
from dataclasses import asdict, dataclass

from builds import BUILD, ROOT, board_sim, firmware, firmware_with_kernel, kernel, mill, model, program, sim_summary, \
    verilog  # noqa: F401
from linux_init import workload_counts

TARGETS = [("soc", 2), ("soc", 4), ("qemu", 2), ("qemu", 4)]


@dataclass
class Run:
    status: int
    stdout: str
    stderr: str


def channel_irq_sources(sim):
    """The PLIC sources of the shootdown unit's channels, in channel order,
    from the device tree elaborated with model `sim`."""
    dts = (pathlib.Path(sim).parent / "SimTop.dts").read_text()
    node = re.search(r"tlb-shootdown@[0-9a-f]+ \{(.*?)\};", dts, re.S)
    assert node, f"no tlb-shootdown node in {sim}'s device tree"
    return [int(x) for x in re.search(r"interrupts = <([0-9 ]+)>", node.group(1)).group(1).split()]


def shared_run(key, make_run):
    """make_run() (a Run) once per pytest session, shared by the xdist
    workers through a file under build/shared-runs/: tests that each read
    one part of a long run's output wait for the first to make it."""
    uid = os.environ.get("PYTEST_XDIST_TESTRUNUID") or f"pid{os.getpid()}"
    path = BUILD / "shared-runs" / f"{key}-{uid}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not path.exists():
            path.write_text(json.dumps(asdict(make_run())))
    return Run(**json.loads(path.read_text()))


def run(cmd, timeout):
    p = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=timeout,
                       stdin=subprocess.DEVNULL)
    return Run(p.returncode, p.stdout, p.stderr)


def run_sim(harts, elf, *plusargs, timeout=900):
    return run([model(harts), *plusargs, elf], timeout)


def run_qemu(harts, kernel=None, bios=None, timeout=120):
    cmd = [ROOT / "scripts/qemu-virt.sh", str(harts), *(["-bios", bios] if bios else ["-kernel", kernel])]
    return run(cmd, timeout)


def run_on(target, harts, name):
    """Runs bare-metal program `name` on the SoC or QEMU."""
    if target == "soc":
        return run_sim(harts, program("soc", name), "+max-cycles=20000000")
    return run_qemu(harts, kernel=program("qemu", name))


def describe(r):
    return f"status {r.status}\n--- stdout ---\n{r.stdout}\n--- stderr ---\n{r.stderr}"


RACE = re.compile(r"l2-refill-race (\S+): (\d+) rounds, (\d+) racing walks through the replaced table, "
                  r"(\d+) stale loads after completion")


def race_results(r):
    """What sw/baremetal/common/l2_refill_race.h reports, by path:
    {path: (rounds, racing walks through the replaced table, stale loads)}."""
    return {m.group(1): tuple(int(g) for g in m.groups()[1:]) for m in RACE.finditer(r.stdout)}


RACES = re.compile(r"^\[sim\] scoreboard races: (.*)$", re.M)


def scoreboard_races(r):
    """The race counters the scoreboard (sim/scoreboard.h) printed at the end
    of a run on a model that has it: {"sfence-deferred": n, ...}."""
    m = RACES.search(r.stderr)
    assert m, "no scoreboard race counters in the run's output (a model without the scoreboard?)"
    return {name: int(n) for name, n in (item.rsplit(" ", 1) for item in m.group(1).split(", "))}


SCOREBOARD = re.compile(r"^\[sim\] scoreboard: (\d+) requests, (\d+) local sfence.vma, (\d+) translated accesses "
                        r"checked, (\d+) unexplained, (\d+) violations$", re.M)
UNTRACED_STATUS = 72  # sim: the scoreboard met events it could not trace (sim/main.cpp)


def scoreboard_summary(r):
    """The scoreboard's own summary line of a run on a model that has it:
    {"requests", "sfences", "checked", "unexplained", "violations"}."""
    found = SCOREBOARD.findall(r.stderr)
    assert found, "no scoreboard summary in the run's output (a model without the scoreboard?)"
    return dict(zip(("requests", "sfences", "checked", "unexplained", "violations"), map(int, found[-1])))


def assert_scoreboard_checked(r, requests=1, translated=True):
    """The scoreboard checked the run and found it clean: translated accesses
    checked (unless the program runs untranslated: `translated` False), at
    least `requests` unit requests seen, nothing it could not trace, no
    violation (its own counts, not the exit status alone)."""
    sb = scoreboard_summary(r)
    assert (sb["checked"] > 0) == translated and sb["requests"] >= requests, sb
    assert sb["unexplained"] == 0 and sb["violations"] == 0, sb
    return sb


# The firmware's own IPIs in a run: starting the harts (and OpenSBI's
# wake-ups at boot). Measured: 3 on the 2-hart SoC under the unit's
# firmware with the SBI payload; the same bound serves the Linux run.
BOOT_IPIS_PER_HART = 2


# The harness's per-hart counts over a whole run (sim/hart_counters.h), as
# its last lines name them
HART_COUNTS = {"msip": "msip raised", "mmode": "M-mode cycles", "held": "cycles the flush agent held the core",
               "walk": "page-walker busy cycles"}


def per_hart(r, counter):
    """The harness's own count of `counter` (a key of HART_COUNTS) on each
    hart over the whole run."""
    m = re.search(rf"^\[sim\] {HART_COUNTS[counter]} per hart: ([\d ]+)$", r.stderr, re.M)
    assert m, describe(r)
    return [int(n) for n in m.group(1).split()]


UNIT_REQUESTS = re.compile(r"^\[sim\] requests the shootdown unit completed \(CTR_REQUESTS\): (\d+)$", re.M)


def unit_requests(r):
    """The unit's own count of the requests it completed (its CTR_REQUESTS
    register, which the harness reads at the end of the run)."""
    found = UNIT_REQUESTS.findall(r.stderr)
    assert found, "no CTR_REQUESTS line in the run's output (a model without the unit?)"
    return int(found[-1])


def msip_per_hart(r):
    """The machine software interrupts (IPIs) raised on each hart."""
    return per_hart(r, "msip")


def probe(r):
    """The user-space stale-TLB probe's counts, as /init printed them."""
    p = workload_counts(r.stdout, "stale-probe")
    assert p, describe(r)
    return p


def nonleaf(r):
    """The moved-page-table workload's counts: readers must fault on the old
    address once the move was seen, and never load through the old table."""
    n = workload_counts(r.stdout, "nonleaf")
    assert n, describe(r)
    return n


def assert_no_stale_translation(r, writers):
    """The test kernel's /init (sw/linux/init) ran its user-space probes,
    which saw their unmaps, moves and unshared tables and found nothing
    stale, and the pending-flush workload's data held."""
    p = probe(r)
    assert p["writers"] == writers and p["faults"] > 0 and p["late"] == 0 and p["foreign"] == 0, describe(r)
    n = nonleaf(r)
    assert n["readers"] == writers and n["loads"] > 0 and n["faults"] > 0, describe(r)
    assert n["stale"] == 0 and n["wrong"] == 0 and n["wrong_new"] == 0, describe(r)
    # Each round's munmap or mprotect unshared a PMD table (the kernel's
    # count), and no writer stored through it after the call returned...
    u = workload_counts(r.stdout, "unshare")
    assert u and u["writers"] == writers and u["unshared"] >= u["rounds"] > 0, describe(r)
    assert u["stores"] > 0 and u["faults"] > 0 and u["late"] == 0 and u["changed"] == 0, describe(r)
    # ... and where the port's device carried the flushes, one of each
    # call's requests dropped non-leaf entries (the port's own count)
    assert u["leaf_only"] == 0, describe(r)
    z = workload_counts(r.stdout, "pending")
    assert z and z["zappers"] == writers and z["zaps"] > 0, describe(r)
    assert z["wrong"] == 0 and z["unzeroed"] == 0, describe(r)


def counters(r):
    """The port's debugfs counters, as /init printed them."""
    block = r.stdout.split("init: tlb_shootdown counters:\n", 1)
    assert len(block) == 2, describe(r)
    return {k: int(v) for k, v in re.findall(r"^(\w+) (\d+)$", block[1], re.M)}
