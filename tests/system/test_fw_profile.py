"""scripts/fw_profile.py on a made-up commit trace: it must find the last
excursion into the firmware from each profile_<call> function and charge
every cycle of it to the function that retired the instruction."""
import importlib.util
import io

import pytest

from harness import ROOT

spec = importlib.util.spec_from_file_location("fw_profile", ROOT / "scripts" / "fw_profile.py")
fw_profile = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fw_profile)

PAYLOAD = fw_profile.Symbols([(0x80200000, "_start"), (0x80200100, "main"), (0x80200200, "profile_rfence"),
                              (0x80200240, "sbi_ecall"), (0x80200280, "other")])
FIRMWARE = fw_profile.Symbols([(0x80000000, "_trap_handler"), (0x80000100, "sbi_ecall_handler"),
                               (0x80000200, "unit_wait"), (0x80000300, "_trap_exit")])


def trace(*commits):
    """Lines as the debug model prints them; (hart, cycle, pc), retired unless pc is None."""
    out = []
    for hart, t, pc in commits:
        retired, pc = (0, 0) if pc is None else (1, pc)
        out.append(f"C{hart}: {t:10d} [{retired}] pc=[{pc:016x}] W[r0=0000000000000000] R[r0=0] R[r0=0] "
                   f"inst=[00000013] DASM(00000013)\n".encode())
    return io.BytesIO(b"".join(out))


def excursion(hart, t0):
    """profile_rfence calls sbi_ecall, which traps into the firmware for 100 cycles."""
    return [(hart, t0, 0x80200200), (hart, t0 + 1, 0x80200240), (hart, t0 + 2, None),
            (hart, t0 + 11, 0x80000000),            # the ecall trap: 10 cycles charged to _trap_handler
            (hart, t0 + 20, 0x80000104),            # dispatch
            (hart, t0 + 80, 0x80000208),            # a 60-cycle wait
            (hart, t0 + 90, 0x80000300),
            (hart, t0 + 101, 0x80200244),           # back: the mret's 11 cycles
            (hart, t0 + 102, 0x80200210), (hart, t0 + 103, 0x80200100)]


def test_charges_every_cycle_of_the_last_call():
    early = excursion(1, 1000)
    early[4] = (1, 1020, 0x80000200)               # a different first call: must be ignored
    noise = [(0, 1500, 0x80000000), (0, 1510, 0x80200280)]   # another hart, outside any profile_ call
    res = fw_profile.profile(trace(*early, *noise, *excursion(1, 2000)), PAYLOAD, FIRMWARE)
    assert set(res) == {"rfence"}
    total, funcs = res["rfence"]
    assert total == 100
    assert funcs == [("_trap_handler", 1, 10), ("sbi_ecall_handler", 1, 9), ("unit_wait", 1, 60),
                     ("_trap_exit", 1, 10), ("(back in S-mode)", 0, 11)]
    assert sum(c for _, _, c in funcs) == total


def test_cycle_counter_wrap():
    res = fw_profile.profile(trace(*excursion(0, (1 << 32) - 50)), PAYLOAD, FIRMWARE)
    assert res["rfence"][0] == 100


def test_no_profiled_call_is_an_empty_result():
    assert fw_profile.profile(trace((0, 5, 0x80000000), (0, 9, 0x80200100)), PAYLOAD, FIRMWARE) == {}
