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

from harness import BOOT_IPIS_PER_HART, ROOT, assert_scoreboard_checked, describe, firmware, msip_per_hart, race_results, \
    run_qemu, run_sim

def passed_paths(r, harts, paths):
    """{(path, pages): IPIs the targets took} for every path named and
    every batch size the payload says it ran; fails unless each passed the
    stale-use checks."""
    batches = re.search(r"^sbi shootdown cases: batches((?: \d+)+)$", r.stdout, re.M)
    assert batches, describe(r)
    ipis = {}
    for p in paths:
        for n in batches[1].split():
            line = re.search(rf"^PASS path {p}, {n} pages: {harts - 1} targets faulted on every page, no late store, "
                             r"(\d+) IPIs taken$", r.stdout, re.M)
            assert line, describe(r)
            ipis[p, int(n)] = int(line[1])
    return ipis


def check_paths(r, harts, paths):
    """Every path the run had, at every batch size the payload says it
    ran, passed the stale-use checks; the unit's paths (c, d, e) without
    interrupting a target."""
    assert r.status == 0, describe(r)
    ipis = passed_paths(r, harts, paths)
    assert all(n == 0 for (p, _), n in ipis.items() if p in "cde"), (ipis, describe(r))
    assert "sbi shootdown cases: all passed" in r.stdout, describe(r)


def checked_answers(r):
    """The payload's checked answers, as it printed them: [(what, got, want)],
    and how many it says it checked."""
    found = re.findall(r"^PASS (.+): (-?\d+) \(want (-?\d+)\)$", r.stdout, re.M)
    total = re.search(r"^sbi shootdown cases: all passed \((\d+) checked answers\)$", r.stdout, re.M)
    return [(w, int(g), int(x)) for w, g, x in found], int(total[1]) if total else None


@pytest.mark.parametrize("harts,flavor", [(2, "stock"), (2, "unit"), pytest.param(4, "unit", marks=pytest.mark.long)])
def test_paths_on_soc(harts, flavor):
    r = run_sim(harts, firmware(flavor) / "fw_payload.elf", "+max-cycles=400000000", timeout=1500)
    check_paths(r, harts, "ab" if flavor == "stock" else "cde")
    assert_scoreboard_checked(r, requests=0 if flavor == "stock" else 1)
    # The harness's own IPI count (msip raised per hart): stock OpenSBI
    # delivers every remote fence by IPI, at least one to each target per
    # path (a, b) and batch size (measured on 2 harts: 222 on hart 1); with
    # the unit none of the paths needs one, only the firmware's boot does
    # (measured: 3 in all).
    msip = msip_per_hart(r)
    shootdowns = 2 * len(re.search(r"^sbi shootdown cases: batches((?: \d+)+)$", r.stdout, re.M)[1].split())
    if flavor == "stock":
        assert len(msip) == harts and all(n >= shootdowns for n in msip[1:]), (msip, shootdowns)
    else:
        assert len(msip) == harts and sum(msip) <= BOOT_IPIS_PER_HART * harts, msip
    assert f"{'stock (IPI)' if flavor == 'stock' else 'unit'} firmware" in r.stdout, describe(r)
    if flavor == "unit":
        # The extension's answers (docs/sbi-batched-shootdown.md), each as
        # the payload expects it: every error of the ABI, the concurrent
        # callers, and a target stuck past TIMEOUT that RFENCE still flushes.
        answers, total = checked_answers(r)
        assert total and len(answers) == total, describe(r)
        assert all(got == want for _, got, want in answers), describe(r)
        errors = {want for _, _, want in answers}
        assert {-2, -3, -5, -12} <= errors, f"the payload checks no SBI error among {errors}\n{describe(r)}"


def test_rfence_is_carried_out_when_the_unit_refuses():
    """Issue 55, item 6: a unit that refuses a request (the firmware
    mutant deny-one-target closes each channel to the next hart, so every
    request naming it gets ERR_DENIED) must not lose an SBI RFENCE: the
    firmware carries it out by IPIs, and path (c) passes its stale-use
    checks at every batch size, its targets interrupted. Before the
    firmware fell back on every device error, path (c) returned -4
    (SBI_ERR_DENIED) and flushed nothing. The batched extension (path d)
    then reports the refusal to its caller, as its ABI says, which ends the
    run."""
    r = run_sim(2, firmware("mutant-deny-one-target") / "fw_payload.elf", "+max-cycles=200000000", timeout=1200)
    assert "unit firmware" in r.stdout, describe(r)
    ipis = passed_paths(r, 2, "c")
    assert all(n > 0 for n in ipis.values()), (ipis, describe(r))
    assert r.status == 1 and re.search(r"^FAIL path d, 1 pages: the shootdown returned -4$", r.stdout, re.M), \
        describe(r)


@pytest.mark.parametrize("harts", [2, pytest.param(4, marks=pytest.mark.long)])
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
    assert_scoreboard_checked(r)


@pytest.mark.parametrize("harts,flavor", [(2, "stock"), (4, "stock"), (4, "unit")])
def test_ipi_paths_on_qemu(harts, flavor):
    """QEMU has no unit: with our series OpenSBI keeps the IPI path (and
    offers no batched extension), so the payload runs paths (a) and (b)."""
    r = run_qemu(harts, bios=firmware(flavor) / "fw_payload.bin", timeout=300)
    check_paths(r, harts, "ab")
    assert "stock (IPI) firmware" in r.stdout, describe(r)


def test_channel_limits_follow_opensbi_domains():
    """Issue 30, item 2: with the 4-hart SoC split into two OpenSBI domains
    (sw/opensbi/domains.dts), each domain's supervisor is refused, directly
    on its channel and through the batched extension, a list in the other
    domain's RAM and a target in the other domain, and gets its own
    (sw/baremetal/programs-sbi/sbi_domains.c). Firmware that opened every
    channel to all harts and all memory above itself let the direct
    requests through (0 where -8 is due).

    Issue 55, item 7, in the same boot (the firmware has the test hook
    sw/opensbi/mutants/domain-switch.patch, an SBI call that switches the
    caller's domain context): hart 3 of domain B posts a request naming
    hart 2, whose agent a store to the delay RAM holds for three of the
    unit's TIMEOUTs, so the unit gives up on hart 2; before its SYNC hart 3
    visits domain C and comes back. SYNC must report the timeout and hart
    2's next load must see the page the request moved. Before the firmware
    flushed the given-up targets by IPI and kept the errors when a hart
    left a domain, SYNC returned 0 and hart 2 loaded 0xa, the old page.

    Issue 55, item 9, between the two: hart 2 keeps a store to the delay
    RAM in flight (each lands 5,000 cycles after it was made) and hart 3
    posts one-entry requests naming it, each waiting for that drain, while
    hart 0 of domain A times 1,000 one-entry requests of its own to hart 1:
    their 99th percentile must stay under 1,000 cycles. Before the unit
    completed requests in order per channel (all in one order), A's waited
    behind B's."""
    r = run_sim(4, firmware("mutant-domain-switch", "sbi_domains", layout="domains") / "fw_payload.elf",
                "+max-cycles=60000000", timeout=900)
    checks = re.findall(r"^(PASS|FAIL) ([AB]): (.+): (-?\d+) \(want (-?\d+)\)$", r.stdout, re.M)
    total = re.search(r"^sbi domains: (\d+) checks, (\d+) failed$", r.stdout, re.M)
    assert total and len(checks) == int(total[1]) > 0, describe(r)
    assert {side for _, side, *_ in checks} == {"A", "B"}, describe(r)
    wrong = [c for c in checks if c[3] != c[4]]
    assert not wrong and total[2] == "0" and r.status == 0, f"{wrong}\n{describe(r)}"
    # The refusals are there: every request into the other domain got an error.
    assert all(int(got) < 0 for _, _, what, got, _ in checks if "other domain" in what), describe(r)
    # The domain switch ran (its checks passed with the others), and the
    # firmware's flush of the given-up target went by IPI: the held hart 2
    # took one more than hart 3, which was started by IPI as it was.
    assert any(what == "sync after the visit" for _, _, what, _, _ in checks), describe(r)
    # The isolation phase timed all of A's requests while B's stalled ones ran.
    iso = re.search(r"^isolation: A's SUBMIT_ONE to hart 1, (\d+) requests .* B's (\d+) requests to a hart",
                    r.stdout, re.M)
    assert iso and int(iso[1]) == 1000 and int(iso[2]) >= 5, describe(r)
    msip = msip_per_hart(r)
    assert msip[2] > msip[3], (msip, describe(r))
    # The scoreboard saw the requests the domains let through, and B's
    # translated accesses (the switch case's) all explained.
    assert_scoreboard_checked(r)


def test_a_unit_the_device_tree_describes_wrongly_stays_closed():
    """Issue 55, item 10 (the firmware's part): a firmware whose device
    tree gives the unit a reg of 4 KiB, less than its 64 KiB window
    (sw/opensbi/mutants/fdt-small-reg.patch), must leave the unit closed
    and its whole window M-mode only, so that S-mode cannot set the
    channels' limits on the global page
    (sw/baremetal/programs-sbi/sbi_unit_closed.c: every access faults,
    CEILING keeps its value, no batched extension). Before the driver
    protected such a unit, S-mode read and wrote the global page."""
    r = run_sim(2, firmware("mutant-fdt-small-reg", "sbi_unit_closed") / "fw_payload.elf", "+max-cycles=60000000",
                timeout=900)
    checks = re.findall(r"^(PASS|FAIL) (.+): (-?\d+) \(want (-?\d+)\)$", r.stdout, re.M)
    total = re.search(r"^sbi unit closed: (\d+) checks, (\d+) failed$", r.stdout, re.M)
    assert total and len(checks) == int(total[1]) > 0, describe(r)
    wrong = [c for c in checks if c[2] != c[3]]
    assert not wrong and total[2] == "0" and r.status == 0, f"{wrong}\n{describe(r)}"


def test_opensbi_series_is_clean():
    """The series applies with git am, is signed off, adds only lines clean
    under OpenSBI's .clang-format, and carries the generated register header."""
    r = subprocess.run([str(ROOT / "sw/opensbi/check-series.sh")], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    series = [l for l in (ROOT / "sw/opensbi/series").read_text().splitlines() if l.strip() and not l.startswith("#")]
    assert f"{len(series)} patches apply" in r.stdout, r.stdout
