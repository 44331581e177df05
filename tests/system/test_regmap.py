"""The unit's software interface against the RTL's own register map.

GenShootdownHeaders writes the register map every piece of software uses
(sw/include/tlb_shootdown_regs.h, scripts/shootdown_regs.py) from
hw/devices/ShootdownMap.scala; the elaboration writes, from the register
fields the unit really instantiates, rocket-chip's regmap JSON
(SimTop.0x4000000.0.regmap.json). The two could differ (a field wired at
another offset, of another width or access, one left out or added): every
register of the generated map must be in the RTL at its offset for every
channel, with its access type, width and reset value, and every RTL field
must be in the map (issue 31, item 5)."""
import copy
import json
from pathlib import Path

import pytest

from harness import verilog

import shootdown_regs as regs

HARTS = 2
COUNTERS = {"CTR_REQUESTS", "CTR_ENTRIES", "CTR_PAGES", "CTR_FALLBACKS", "CTR_ERRORS", "CTR_TIMEOUTS",
            "CTR_FOREIGN", "AGENT_CYCLES"}


def expected(harts, counter_bits):
    """{offset: (rtl name, Reg, width)} of every register the generated map
    says a unit serving `harts` harts has."""
    want = {}
    for off, reg in regs.GLOBAL_REGS.items():
        width = counter_bits if reg.name in COUNTERS else reg.bits
        if reg.name == "AGENT_CYCLES":       # one per hart, 8 bytes apart
            for h in range(harts):
                want[off + 8 * h] = (f"hart{h}_agent_cycles", reg, width)
        else:
            want[off] = (reg.name.lower(), reg, width)
    for h in range(harts):
        for off, reg in regs.LIMIT_REGS.items():
            want[regs.limit(h) + off] = (f"ch{h}_{reg.name.lower()}", reg, reg.bits)
        for off, reg in regs.CHANNEL_REGS.items():
            want[regs.channel(h) + off] = (f"ch{h}_{reg.name.lower()}", reg, reg.bits)
    return want


def mismatches(fields, harts):
    """What differs between the RTL's regmap fields (rocket-chip's JSON
    "regfields" list) and the generated map, as readable lines."""
    rtl, bad = {}, []
    for item in fields:
        (name, f), = item.items()
        off = int(f["byteOffset"], 16)
        if off in rtl:
            bad.append(f"{name} at {off:#x}: the RTL has {rtl[off]['name']} there too")
        rtl[off] = dict(f, name=name)
    info = rtl.get(regs.INFO, {}).get("resetValue")
    if info is None:
        return bad + ["the RTL has no INFO register at 0"]
    if regs.get(info, regs.INFO_VERSION) != regs.VERSION or regs.get(info, regs.INFO_CHANNELS) != harts:
        bad.append(f"INFO resets to {info:#x}: version {regs.get(info, regs.INFO_VERSION)}, "
                   f"{regs.get(info, regs.INFO_CHANNELS)} channels")
    want = expected(harts, regs.get(info, regs.INFO_COUNTER_BITS))
    for off, (name, reg, width) in sorted(want.items()):
        f = rtl.get(off)
        if f is None:
            bad.append(f"{name} at {off:#x}: not in the RTL")
            continue
        got = (f["name"], f["bitOffset"], f["bitWidth"], f["accessType"])
        if got != (name, 0, width, reg.access):
            bad.append(f"{name} at {off:#x}: the RTL has {got}, the map says {(name, 0, width, reg.access)}")
        if reg.reset is not None and f.get("resetValue") != reg.reset:
            bad.append(f"{name} at {off:#x}: resets to {f.get('resetValue')} in the RTL, {reg.reset} in the map")
    bad += [f"{f['name']} at {off:#x}: in the RTL, not in the map" for off, f in sorted(rtl.items()) if off not in want]
    return bad


@pytest.fixture(scope="module")
def rtl_fields():
    path = Path(verilog(HARTS)) / f"SimTop.{regs.DEFAULT_BASE:#x}.0.regmap.json"
    return json.loads(path.read_text())["peripheral"]["regfields"]


def test_generated_register_map_is_the_rtls(rtl_fields):
    assert mismatches(rtl_fields, HARTS) == []


def test_a_moved_or_missing_field_is_found(rtl_fields):
    """The comparison can fail: the RTL's map doctored, one field moved, one
    narrowed, one left out."""
    doctored = copy.deepcopy(rtl_fields)
    names = [next(iter(item)) for item in doctored]
    moved = doctored[names.index("ch1_count")]["ch1_count"]
    moved["byteOffset"] = "0x2ff8"
    doctored[names.index("ch0_errors")]["ch0_errors"]["bitWidth"] = 8
    del doctored[names.index("ctr_foreign")]
    found = "\n".join(mismatches(doctored, HARTS))
    for what in ("ch1_count at 0x2010: not in the RTL", "ch1_count at 0x2ff8: in the RTL, not in the map",
                 "ch0_errors at 0x1060", "ctr_foreign at 0x48: not in the RTL"):
        assert what in found, found
