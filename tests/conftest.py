"""pytest fixtures; the helpers the tests import live in harness.py, which
the benchmark scripts use too."""
import pytest

from harness import TARGETS


@pytest.fixture(params=TARGETS, ids=[f"{t}-{h}harts" for t, h in TARGETS])
def target(request):
    return request.param


# The longest tests, measured (make test PYTEST_ARGS=--durations=40), start
# first: with two workers the suite takes as long as its longest test only
# if that test does not start late. Longest first.
LONG_FIRST = [
    "system/test_linux.py::test_port_flushes_by_the_unit_on_the_soc",
    "system/test_litmus.py::test_litmus[sbi-ext-",
    "system/test_linux.py::test_stale_probe_passes_on_qemu",
    "system/test_sbi_shootdown.py::test_asid_shootdown_through_the_firmware_leaves_no_stale_l2_tlb_entry",
    "system/test_sbi_shootdown.py::test_paths_on_soc",
    "system/test_uartboot.py::test_opensbi_and_a_shootdown_payload_load_over_the_uart",
    "system/test_linux.py::test_stale_probe_catches_a_firmware_that_skips_remote_fences",
    "system/test_opensbi.py::test_opensbi_starts_payload_on_every_hart",
]


def pytest_collection_modifyitems(config, items):
    def rank(item):
        return next((i for i, prefix in enumerate(LONG_FIRST) if item.nodeid.startswith(prefix)), len(LONG_FIRST))
    items.sort(key=rank)   # stable: the rest keep their order
