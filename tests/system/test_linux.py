"""The test kernel (sw/linux: the pinned Debian linux-source, tinyconfig plus
config/*.config, our series for the port, a nolibc /init built in) under
OpenSBI. Its /init runs the user-space stale-TLB probe
(sw/linux/init/stale_probe.c: writer threads on the other CPUs store into a
region while the main thread unmaps it; no store may land after a writer
saw the unmap, nor in the pages the kernel hands out again) and powers off:
the run's exit status is /init's verdict, through the test finisher."""
import re
import subprocess

import pytest

from conftest import BUILD, ROOT, describe, run_qemu, run_sim

PROBE = re.compile(r"stale-probe: (\d+) rounds, (\d+) writers: (\d+) stores, (\d+) faults after unmap, "
                   r"(\d+) stores after seeing it, (\d+) writer words in reused pages")


def kernel(flavor):
    cmd = [str(ROOT / "sw/linux/build.sh")] + (["--stock"] if flavor == "stock" else [])
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.strip()


def firmware_with_kernel(fw_flavor, k_flavor):
    """OpenSBI (our series; "stock": the IPI path; "mutant-NAME": broken on
    purpose) with the kernel as its payload."""
    out = BUILD / f"sw/opensbi/linux-{k_flavor}-{fw_flavor}"
    if fw_flavor.startswith("mutant-"):
        opts = ["--mutant", fw_flavor.removeprefix("mutant-")]
    else:
        opts = ["--stock"] if fw_flavor == "stock" else []
    subprocess.run([str(ROOT / "sw/opensbi/build.sh"), *opts, kernel(k_flavor), str(out)],
                   check=True, capture_output=True)
    return out


def probe(r):
    m = PROBE.search(r.stdout)
    assert m, describe(r)
    return dict(zip(["rounds", "writers", "stores", "faults", "late", "foreign"], map(int, m.groups())))


def counters(r):
    """The port's debugfs counters, as /init printed them."""
    block = r.stdout.split("init: tlb_shootdown counters:\n", 1)
    assert len(block) == 2, describe(r)
    return {k: int(v) for k, v in re.findall(r"^(\w+) (\d+)$", block[1], re.M)}


def test_linux_series_is_clean():
    """Every patch is listed and signed off, the series applies to the pinned
    tarball, and each patch is clean under the tree's scripts/checkpatch.pl."""
    r = subprocess.run([str(ROOT / "sw/linux/check-series.sh")], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    series = [l for l in (ROOT / "sw/linux/series").read_text().splitlines() if l.strip() and not l.startswith("#")]
    assert f"{len(series)} patches apply" in r.stdout, r.stdout
    assert r.stdout.count("clean: ") == len(series), r.stdout


@pytest.mark.parametrize("k_flavor,fw_flavor", [("stock", "stock"), ("port", "unit")])
def test_stale_probe_passes_on_qemu(k_flavor, fw_flavor):
    """QEMU has no unit: both kernels flush by SBI RFENCE over IPIs (the
    port's fallback path), and neither may leave a stale translation."""
    r = run_qemu(4, bios=firmware_with_kernel(fw_flavor, k_flavor) / "fw_payload.bin", timeout=300)
    assert r.status == 0, describe(r)
    p = probe(r)
    assert p["writers"] == 3 and p["faults"] > 0 and p["late"] == 0 and p["foreign"] == 0, describe(r)
    if k_flavor == "port":
        c = counters(r)
        assert c["requests"] == 0 and c["sbi_rfence"] > 0, describe(r)


def test_stale_probe_catches_a_firmware_that_skips_remote_fences():
    """With OpenSBI's targets acknowledging RFENCE without flushing
    (sw/opensbi/mutants/skip-remote-sfence.patch), writers keep storing
    through stale translations: the probe must fail the run."""
    r = run_qemu(4, bios=firmware_with_kernel("mutant-skip-remote-sfence", "port") / "fw_payload.bin",
                 timeout=300)
    assert r.status == 1, describe(r)
    p = probe(r)
    assert p["late"] > 0 or p["foreign"] > 0, describe(r)


def test_port_flushes_by_the_unit_on_the_soc():
    """The port on the 2-hart SoC with the unit's firmware: it boots to /init,
    the probe passes, and every remote flush went to the unit (none by SBI
    RFENCE, no error)."""
    r = run_sim(2, firmware_with_kernel("unit", "port") / "fw_payload.elf", "+max-cycles=400000000",
                timeout=2400)
    assert r.status == 0, describe(r)
    p = probe(r)
    assert p["writers"] == 1 and p["faults"] > 0 and p["late"] == 0 and p["foreign"] == 0, describe(r)
    c = counters(r)
    assert c["requests"] > 0 and c["errors"] == 0 and c["sbi_rfence"] == 0, describe(r)
