"""OpenSBI (pinned 1.6 + sw/opensbi/series) boots an S-mode payload on every
hart, through HSM, on the Verilator SoC and on QEMU with the same build."""
import pytest

from harness import TARGETS, describe, firmware as build_firmware, run_qemu, run_sim


@pytest.fixture(scope="module")
def firmware():
    """Built (or brought up to date) for this session, never an old one."""
    return build_firmware("unit", "sbi_hello")


# The 4-hart SoC boots the same series in test_sbi_shootdown's
# test_channel_limits_follow_opensbi_domains, whose payload needs every hart
# started (and test_paths_on_soc[4-unit] in make test-long): not run here.
BOOTS = [t for t in TARGETS if t != ("soc", 4)]


@pytest.mark.parametrize("platform,harts", BOOTS, ids=[f"{t}-{h}harts" for t, h in BOOTS])
def test_opensbi_starts_payload_on_every_hart(firmware, platform, harts):
    if platform == "soc":
        r = run_sim(harts, firmware / "fw_payload.elf", "+max-cycles=30000000")
    else:
        r = run_qemu(harts, bios=firmware / "fw_payload.bin")
    assert r.status == 0, describe(r)
    assert "OpenSBI v1.6" in r.stdout, describe(r)
    for h in range(harts):
        assert f"S-mode hello from hart {h} of {harts}\n" in r.stdout, describe(r)
    assert f"all {harts} harts running in S-mode under SBI" in r.stdout, describe(r)
    if platform == "soc":
        assert "Platform Shutdown Device    : syscon-poweroff" in r.stdout, describe(r)
        assert "Platform Console Device     : uart8250" in r.stdout, describe(r)
