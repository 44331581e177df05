"""The reference model on its own: its constants agree with the generated C
header (written from the Scala register map), and its expansion rules say
what docs/shootdown-unit.md says."""
import pathlib
import random
import re

import pytest

import shootdown_ref as ref
from shootdown_ref import (FULL, KIND_ASID, KIND_VA_ALL, KIND_VA_ASID, Cmd, Entry, cached_translations,
                           entry_cmds, judge_translations)

ROOT = pathlib.Path(__file__).resolve().parents[2]


def header_defines():
    text = (ROOT / "sw/include/tlb_shootdown_regs.h").read_text()
    return {m[0]: int(m[1], 0) for m in re.findall(r"#define TLBSD_(\w+)\s+(0x[0-9a-f]+|\d+)(?:UL)?\b", text)}


def test_model_constants_match_the_generated_header():
    h = header_defines()
    assert (h["KIND_VA_ASID"], h["KIND_VA_ALL"], h["KIND_ASID"], h["KIND_ALL"]) == (
        ref.KIND_VA_ASID, ref.KIND_VA_ALL, ref.KIND_ASID, ref.KIND_ALL)
    assert (h["ERR_BAD_TARGETS"], h["ERR_BAD_COUNT"], h["ERR_BAD_ALIGN"], h["ERR_BAD_RANGE"],
            h["ERR_BAD_ENTRY"], h["ERR_BUS"]) == (
        ref.ERR_BAD_TARGETS, ref.ERR_BAD_COUNT, ref.ERR_BAD_ALIGN, ref.ERR_BAD_RANGE,
        ref.ERR_BAD_ENTRY, ref.ERR_BUS)
    for name, off in [("CH_TARGETS", ref.CH_TARGETS), ("CH_LIST", ref.CH_LIST), ("CH_COUNT", ref.CH_COUNT),
                      ("CH_SUBMIT", ref.CH_SUBMIT), ("CH_STATUS", ref.CH_STATUS), ("CH_ERROR", ref.CH_ERROR),
                      ("CH_ACKED", ref.CH_ACKED), ("CTR_PAGES", ref.G_PAGES), ("CEILING", ref.G_CEILING)]:
        assert h[name] == off, name
    assert h["ENTRY_VA_MASK"] == 0xFFFFFFFFF000
    assert (h["ENTRY_SIZE_SHIFT"], h["ENTRY_PAGES_SHIFT"], h["ENTRY_ASID_SHIFT"]) == (2, 4, 48)


def test_entry_round_trip():
    for pages, nonleaf in [(1, False), (ref.regs.ENTRY_MAX_PAGES, True)]:
        e = ref.Entry(ref.KIND_VA_ASID, 1, pages, 0x7F_FFE0_0000, 0xABCD, nonleaf)
        assert ref.Entry.decode(e.encode()) == e


def test_range_entry_steps_by_its_page_size():
    e = ref.Entry(ref.KIND_VA_ALL, 1, 3, 0x4000_0000, 7)
    vpns = [c.vpn for c in ref.entry_cmds(e)]
    assert vpns == [0x40000, 0x40200, 0x40400]
    assert all(c.asid is None for c in ref.entry_cmds(e))   # VA_ALL names no ASID


def test_ceiling_rules():
    page = ref.Entry(ref.KIND_VA_ASID, 0, 1, 0x1000, 1)
    assert ref.expected_outcome([page] * 5, ceiling=4).exact == [ref.FULL]       # more entries than the ceiling
    o = ref.expected_outcome([ref.Entry(ref.KIND_VA_ASID, 0, 6, 0x1000, 1)], ceiling=4)
    cmds = ref.entry_cmds(ref.Entry(ref.KIND_VA_ASID, 0, 4, 0x1000, 1)) + [ref.FULL]
    assert ref.check_stream(o, cmds, 4) is None                                   # 4 pages, then all
    assert ref.check_stream(o, cmds[1:], 4) is not None                           # 3 pages is wrong
    assert ref.expected_outcome([page] * 4, ceiling=4).exact == [page_cmd for page_cmd in ref.entry_cmds(page)] * 4


def test_bad_size_becomes_a_full_flush_with_an_error():
    o = ref.expected_outcome([ref.Entry(ref.KIND_VA_ASID, 3, 1, 0x1000, 1)], ceiling=64)
    assert o.error == ref.ERR_BAD_ENTRY
    assert ref.check_stream(o, [ref.FULL], 64) is None
    assert ref.check_stream(o, [], 64) is not None


@pytest.mark.parametrize("code,regs", [
    (ref.ERR_BAD_TARGETS, {ref.CH_TARGETS: 0}),
    (ref.ERR_BAD_TARGETS, {ref.CH_TARGETS: 1 << 4}),
    (ref.ERR_BAD_COUNT, {ref.CH_COUNT: 0}),
    (ref.ERR_BAD_COUNT, {ref.CH_COUNT: 4097}),
    (ref.ERR_BAD_ALIGN, {ref.CH_LIST: 0x8000_0004}),
    (ref.ERR_BAD_RANGE, {ref.CH_LIST: 0x1000}),
    (ref.ERR_BAD_RANGE, {ref.CH_LIST: 0x9000_0000 - 8, ref.CH_COUNT: 2}),
])
def test_submit_errors(code, regs):
    m = ref.UnitModel(harts=4, max_entries=4096, queue_depth=4, ceiling=64, mem_base=0x8000_0000,
                      mem_size=0x1000_0000).open()
    m.regs[0].update({ref.CH_TARGETS: 1, ref.CH_LIST: 0x8000_0000, ref.CH_COUNT: 1})
    m.regs[0].update(regs)
    assert m.submit_answers(0) == {(1 << 64) - code}


def test_a_channel_is_closed_until_opened():
    """At reset no list fits a channel's window and it may target no hart."""
    m = ref.UnitModel(harts=2, max_entries=4096, queue_depth=2, ceiling=64, mem_base=0x8000_0000,
                      mem_size=0x1000_0000)
    m.regs[0].update({ref.CH_TARGETS: 1, ref.CH_LIST: 0x8000_0000, ref.CH_COUNT: 1,
                      ref.CH_ENTRY: Entry(ref.KIND_ALL, 0, 1, 0, 0).encode()})
    assert m.submit_answers(0) == m.submit_answers(0, inline=True) == {(1 << 64) - ref.ERR_DENIED}
    m.open()
    assert m.submit_answers(0) == m.submit_answers(0, inline=True) == {1}


def test_queue_pushes_back_only_when_full():
    m = ref.UnitModel(harts=2, max_entries=4096, queue_depth=2, ceiling=64, mem_base=0x8000_0000,
                      mem_size=0x1000_0000).open()
    m.regs[1].update({ref.CH_TARGETS: 3, ref.CH_LIST: 0x8000_0000, ref.CH_COUNT: 1})
    assert m.submit_answers(1) == {1}
    m.submitted(1, 1, [])
    m.submitted(1, 2, [])
    # Beyond the queue's two, the engine may hold up to four more (one
    # being read, one being sent, two waiting), or none yet.
    for t in range(3, 7):
        assert m.submit_answers(1) == {t, 0}
        m.submitted(1, t, [])
    assert m.submit_answers(1) == {0}
    assert m.status(1) == 0                # nothing done, not idle


# ---------------------------------------------------------------- translation judge

def test_judge_accepts_the_expansion_and_more():
    """The documented expansion of every entry kind and size leaves nothing
    covered; so does a full flush instead (rule 4: more is allowed)."""
    rng = random.Random(5)
    entries = [Entry(KIND_VA_ASID, 0, 3, 0x12345000, 7), Entry(KIND_VA_ALL, 1, 2, 0x40000000, 0),
               Entry(KIND_VA_ASID, 2, 1, 0x80000000, 9), Entry(KIND_ASID, 0, 1, 0, 3)]
    translations = cached_translations(entries, rng)
    cmds = [c for e in entries for c in entry_cmds(e)]
    assert judge_translations(entries, cmds, translations) is None
    assert judge_translations(entries, [FULL], translations) is None


@pytest.mark.parametrize("broken", ["drop-last", "4k-stride", "asid-as-va", "wrong-asid"])
def test_judge_catches_what_flushes_less(broken):
    """Commands that flush less than the entries cover leave a covered
    translation behind, for each way of getting the expansion wrong."""
    rng = random.Random(11)
    entries = [Entry(KIND_VA_ASID, 0, 2, 0x5000, 4), Entry(KIND_VA_ALL, 1, 3, 0x7fe00000, 0),
               Entry(KIND_ASID, 0, 1, 0, 4)]
    cmds = {
        "drop-last": [c for e in entries[:-1] for c in entry_cmds(e)],
        "4k-stride": [Cmd.of(False, e.kind, (e.va >> 12) + i, e.asid) for e in entries[:2] for i in range(e.pages)]
                     + entry_cmds(entries[2]),
        "asid-as-va": [c for e in entries[:2] for c in entry_cmds(e)] + [Cmd.of(False, KIND_VA_ASID, 0, 4)],
        "wrong-asid": [Cmd.of(c.end, c.kind, c.vpn, 5 if c.asid is not None else None)
                       for e in entries for c in entry_cmds(e)],
    }[broken]
    assert judge_translations(entries, cmds, cached_translations(entries, rng)) is not None
