"""Where the project's built things are, built (cached) if missing: the
Verilator models and their Verilog, the bare-metal programs, OpenSBI with
a payload, the boards' exact-top models; and the simulator's summary line.
The tests (tests/harness.py) and the scripts (sweeps, mutants, benches)
share them. Run as a script it answers the shell scripts' questions:

  python3 scripts/builds.py model HARTS FLAVOR    path of a model (built if missing)
  python3 scripts/builds.py speed LOG             "cycles seconds kHz" of a run's [sim] summary
"""
import fcntl
import os
import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[1]
BUILD = pathlib.Path(os.environ.get("BUILD", ROOT / "build"))


def model(harts, flavor="checked"):
    """Path of a Verilator model; builds it (cached) if needed."""
    out = subprocess.run([str(ROOT / "scripts/build-model.sh"), str(harts), flavor],
                         check=True, capture_output=True, text=True)
    return out.stdout.strip()


def verilog(harts, flavor="checked"):
    """Directory of the elaborated Verilog behind a model (SimTop.v and the
    black boxes' files); elaborates it (cached) if needed."""
    out = subprocess.run([str(ROOT / "scripts/build-model.sh"), str(harts), flavor], env={**os.environ, "VERILOG_ONLY": "1"},
                         check=True, capture_output=True, text=True)
    return out.stdout.strip()


def mill(*args, timeout=600):
    """./mill --no-server ARGS in the tree, waiting for any elaboration of
    the build scripts to finish first (they hold the same lock: a second
    Mill in one tree refuses to start)."""
    (ROOT / "out").mkdir(exist_ok=True)
    with open(ROOT / "out/.elaborate.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return subprocess.run([str(ROOT / "mill"), "--no-server", *args], cwd=ROOT, capture_output=True, text=True,
                              timeout=timeout, stdin=subprocess.DEVNULL)


def program(platform, name):
    """Path of a bare-metal program (platform soc, qemu, sbi or board)."""
    out = BUILD / "sw/baremetal" / platform
    subprocess.run(["make", "-s", "-C", str(ROOT / "sw/baremetal"), f"PLATFORM={platform}", f"O={out}"],
                   check=True, capture_output=True, text=True)
    return out / f"{name}.elf"


def board_sim(board):
    """The Verilator model of a board's exact top (fpga/sim/build.sh)."""
    return subprocess.run([str(ROOT / "fpga/sim/build.sh"), board], check=True, capture_output=True,
                          text=True).stdout.strip()


# A firmware whose unit runs every request as asked, never as a full flush
# because of its CEILING (sw/opensbi/build.sh --ceiling): what the kernel's
# entries cover is then all that is flushed.
CEILING_ABOVE_ANY_REQUEST = 1 << 20
LAYOUTS = (None, "board", "board-sdram", "domains")


def opensbi(flavor, layout, payload, out):
    """sw/opensbi/build.sh: our series ("unit"), stock ("stock": the IPI
    path), "unit-ceiling" (the unit's CEILING above any request) or
    "mutant-NAME" (broken on purpose), laid out by `layout` (build.sh's
    option of that name, None for the simulated SoC's), with `payload`,
    into `out`, which it returns."""
    assert layout in LAYOUTS, layout
    if flavor.startswith("mutant-"):
        opts = ["--mutant", flavor.removeprefix("mutant-")]
    elif flavor == "unit-ceiling":
        opts = ["--ceiling", str(CEILING_ABOVE_ANY_REQUEST)]
    else:
        opts = ["--stock"] if flavor == "stock" else []
    subprocess.run([str(ROOT / "sw/opensbi/build.sh"), *([f"--{layout}"] if layout else []), *opts, str(payload),
                    str(out)], check=True, capture_output=True)
    return out


def firmware(flavor, payload_name="sbi_shootdown_cases", layout=None):
    """OpenSBI (opensbi's flavours and layouts: "board", both laid out for
    the FPGA boards' block RAM; "board-sdram", for the ULX3S's SDRAM;
    "domains", the 4-hart SoC split into the two domains of
    sw/opensbi/domains.dts) with an S-mode payload of
    sw/baremetal/programs-sbi. Its directory holds fw_payload.elf and
    fw_payload.bin."""
    payload = program("sbi-board" if layout == "board" else "sbi", payload_name).with_suffix(".bin")
    return opensbi(flavor, layout, payload, BUILD / f"sw/opensbi/{payload_name}-{flavor}{'-' + layout if layout else ''}")


def kernel(flavor):
    """The test kernel's Image: "stock", "port" (our series), "quick" (the
    port with /init's shorter workloads), "rt" or "pagealloc" (the port
    with the shorter workloads and no benchmark, on PREEMPT_RT or with
    DEBUG_PAGEALLOC: sw/linux/config/rt.config, pagealloc.config)."""
    cmd = [str(ROOT / "sw/linux/build.sh")] + {"stock": ["--stock"], "quick": ["--quick"], "port": [],
                                               "rt": ["--checks", "--config", "rt"],
                                               "pagealloc": ["--checks", "--config", "pagealloc"]}[flavor]
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.strip()


def firmware_with_kernel(fw_flavor, k_flavor, layout=None):
    """OpenSBI (opensbi's flavours; `layout` None or "board-sdram", for the
    ULX3S's SDRAM) with the test kernel as its payload."""
    assert layout in (None, "board-sdram"), layout
    return opensbi(fw_flavor, layout, kernel(k_flavor),
                   BUILD / f"sw/opensbi/linux-{k_flavor}-{fw_flavor}{'-' + layout if layout else ''}")


SUMMARY = re.compile(r"^\[sim\] (.*?), status (-?\d+): (\d+) cycles in ([\d.]+) s \(([\d.]+) kHz\)$", re.M)


def sim_summary(stderr):
    """The harness's last "[sim] WHY, status N: C cycles in S s (K kHz)" line
    as (why, status, cycles, seconds, khz), or None."""
    found = SUMMARY.findall(stderr)
    if not found:
        return None
    why, status, cycles, secs, khz = found[-1]
    return why, int(status), int(cycles), float(secs), float(khz)


def _main(argv):
    import sys
    if len(argv) == 3 and argv[0] == "model":
        print(model(int(argv[1]), argv[2]))
        return 0
    if len(argv) == 2 and argv[0] == "speed":
        s = sim_summary(pathlib.Path(argv[1]).read_text(errors="replace"))
        if s is None:
            print(f"builds.py: no [sim] summary line in {argv[1]}", file=sys.stderr)
            return 1
        print(s[2], s[3], s[4])
        return 0
    print(__doc__.split("\n\n", 1)[1].rstrip(), file=sys.stderr)
    return 64


if __name__ == "__main__":
    import sys
    sys.exit(_main(sys.argv[1:]))
