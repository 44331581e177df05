"""Every shootdown path an S-mode kernel has under OpenSBI
(sw/baremetal/programs-sbi/sbi_shootdown_cases.c) passes the stale-use
checks: (a) and (b) with stock OpenSBI on the SoC and QEMU (and with our
series on QEMU, which has no unit), (c), (d) and (e) with our series on the
SoC; two harts call the batched extension at once;
the extension returns every error its ABI (docs/sbi-batched-shootdown.md)
names for bad input; and a target stuck past the unit's TIMEOUT neither
makes RFENCE fail nor keeps a stale translation after it returned (the
firmware flushes it by IPI), while SYNC still reports the timeout."""
import re
import subprocess

import pytest

from harness import ROOT, describe, firmware, race_results, run_qemu, run_sim

BATCHES = (1, 16, 200)

# What the payload's error cases must get, by the ABI.
ERRORS = {
    "GET_INFO error": 0,
    "GET_INFO max entries (the SoC's unit takes 4096)": 4096,
    "reserved flag": -3,
    "count 0": -3,
    "count above the maximum": -3,
    "hart mask naming hart 40": -3,
    "misaligned list": -5,
    "list_addr_hi set": -5,
    "list in firmware memory": -5,
    "list outside DRAM": -5,
    "tickets consumed by the refused calls": 0,
    "unknown function": -2,
    "empty hart mask": 0,
    "hart mask base -1 (all harts)": 0,
    "reserved entry, submit and wait": -3,
    "reserved entry, post": 0,
    "sync after it": -3,
    "sync again": 0,
    "concurrent FLUSH, first caller": 0,
    "concurrent FLUSH, second caller": 0,
    # A target stuck longer than two TIMEOUTs (sbi_shootdown_cases.c,
    # timeout_case): RFENCE completes it by IPI, and SYNC still reports the
    # post that timed out before it (as -1: OpenSBI 1.6 passes -12 on so).
    "post naming a stuck hart": 0,
    "RFENCE naming a stuck hart": 0,
    "the stuck hart's load after RFENCE (0xb: the new page)": 0xb,
    "sync after a post that timed out": -1,
    "sync after that": 0,
}


def check_paths(r, harts, paths):
    assert r.status == 0, describe(r)
    for p in paths:
        for n in BATCHES:
            line = f"PASS path {p}, {n} pages: {harts - 1} targets faulted on every page, no late store"
            assert line in r.stdout, describe(r)
    assert "sbi shootdown cases: all passed" in r.stdout, describe(r)


@pytest.mark.parametrize("harts,flavor", [(2, "stock"), (2, "unit"), (4, "unit")])
def test_paths_on_soc(harts, flavor):
    r = run_sim(harts, firmware(flavor) / "fw_payload.elf", "+max-cycles=400000000", timeout=1500)
    check_paths(r, harts, "ab" if flavor == "stock" else "cde")
    assert f"{'stock (IPI)' if flavor == 'stock' else 'unit'} firmware" in r.stdout, describe(r)
    if flavor == "unit":
        got = dict(re.findall(r"^PASS (.+): (-?\d+)$", r.stdout, re.M))
        for what, want in ERRORS.items():
            assert what in got, f"no result for '{what}'\n{describe(r)}"
            assert int(got[what]) == want, f"{what}: {got[what]}, ABI says {want}\n{describe(r)}"


@pytest.mark.parametrize("harts", [2, 4])
def test_asid_shootdown_through_the_firmware_leaves_no_stale_l2_tlb_entry(harts):
    """Issue 10 through OpenSBI: the l2-refill-race rounds
    (sw/baremetal/common/l2_refill_race.h) with the kind-ASID entry sent by
    (d) the batched extension and (c) SBI RFENCE sfence.vma.asid over the
    whole address space. The payload checks what each target loads after
    completion and exits 1 on a stale translation."""
    r = run_sim(harts, firmware("unit", "sbi_l2_refill_race") / "fw_payload.elf", "+max-cycles=200000000",
                timeout=1500)
    assert r.status == 0, describe(r)
    got = race_results(r)
    assert set(got) == {"c", "d"}, describe(r)
    for path, (rounds, racing, stale) in got.items():
        assert rounds == 400 and stale == 0 and racing > 0, (path, describe(r))


@pytest.mark.parametrize("harts,flavor", [(2, "stock"), (4, "stock"), (4, "unit")])
def test_ipi_paths_on_qemu(harts, flavor):
    """QEMU has no unit: with our series OpenSBI keeps the IPI path (and
    offers no batched extension), so the payload runs paths (a) and (b)."""
    r = run_qemu(harts, bios=firmware(flavor) / "fw_payload.bin", timeout=300)
    check_paths(r, harts, "ab")
    assert "stock (IPI) firmware" in r.stdout, describe(r)


# What each side of sbi_domains.c must get (the unit's -ERR_DENIED is -8).
DOMAIN_CHECKS = {
    "direct, list in its own RAM, its own harts": 0,
    "direct, list in the other domain's RAM": -8,
    "direct, a target in the other domain": -8,
    "direct, one entry for a target in the other domain": -8,
    "SBI FLUSH, list in its own RAM, its own harts": 0,
    "SBI FLUSH, list in the other domain's RAM": -5,
    "SBI FLUSH, a target in the other domain": -3,
}


def test_channel_limits_follow_opensbi_domains():
    """Issue 30, item 2: with the 4-hart SoC split into two OpenSBI domains
    (sw/opensbi/domains.dts), each domain's supervisor is refused, directly
    on its channel and through the batched extension, a list in the other
    domain's RAM and a target in the other domain, and gets its own
    (sw/baremetal/programs-sbi/sbi_domains.c). Firmware that opened every
    channel to all harts and all memory above itself let the direct
    requests through (0 where -8 is due)."""
    r = run_sim(4, firmware("unit", "sbi_domains", domains=True) / "fw_payload.elf", "+max-cycles=60000000",
                timeout=900)
    got = {(side, what): int(v) for side, what, v in re.findall(r"^(?:PASS|FAIL) (A|B): (.+): (-?\d+)$", r.stdout, re.M)}
    for side in "AB":
        for what, want in DOMAIN_CHECKS.items():
            assert (side, what) in got, f"no result for {side}: '{what}'\n{describe(r)}"
            assert got[side, what] == want, f"{side}: {what}: {got[side, what]}, want {want}\n{describe(r)}"
    assert r.status == 0, describe(r)


def test_opensbi_series_is_clean():
    """The series applies with git am, is signed off, adds only lines clean
    under OpenSBI's .clang-format, and carries the generated register header."""
    r = subprocess.run([str(ROOT / "sw/opensbi/check-series.sh")], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    series = [l for l in (ROOT / "sw/opensbi/series").read_text().splitlines() if l.strip() and not l.startswith("#")]
    assert f"{len(series)} patches apply" in r.stdout, r.stdout
