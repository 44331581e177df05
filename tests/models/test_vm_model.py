"""The litmus reference models (litmus_lang.model) on their own: every test in
tests/litmus/ says what it forbids and which weak outcomes it allows, and
the model of its style must agree; models broken on purpose must let a
forbidden outcome through, so the tests can tell a broken shootdown."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from litmus_lang import INVALID, LitmusError, holds, load, parse
from litmus_lang.model import Arm64Model, X86Model, judge

LITMUS = sorted((Path(__file__).parent.parent / "litmus").glob("*.litmus"))


@pytest.mark.parametrize("path", LITMUS, ids=[p.stem for p in LITMUS])
def test_model_agrees_with_the_tests_claims(path):
    test = load(path)
    assert test.forbidden or test.weak, f"{path.name} claims nothing"
    allowed, bad_forbidden, bad_weak = judge(test)
    assert not bad_forbidden, f"{test.model} model allows what {path.name} forbids: {bad_forbidden}"
    assert not bad_weak, f"{test.model} model forbids what {path.name} calls allowed: {bad_weak}"


def violations(model_class, name):
    """The forbidden conditions of a test that a model lets through."""
    test = load(LITMUS[[p.stem for p in LITMUS].index(name)])
    allowed = model_class(test).outcomes()
    return [c for c in test.forbidden if any(holds(c, dict(o)) for o in allowed)]


class NoFlush(X86Model):
    """Acknowledges without flushing anything."""
    def covers(self, entry, tlb_entry, asid):
        return False


class LeafOnly(X86Model):
    """Never drops cached non-leaf entries."""
    def drops_nonleaf(self, entry, cached):
        return False


class SmallPagesOnly(X86Model):
    """Matches a 4 KiB entry against 4 KiB translations only (no superpages)."""
    def covers(self, entry, tlb_entry, asid):
        return tlb_entry[2] == 0 and super().covers(entry, tlb_entry, asid)


class DropLastEntry(X86Model):
    """Forgets the last entry of every list of more than one."""
    def applied(self, entries):
        return entries[:-1] if len(entries) > 1 else entries


class EarlySync(Arm64Model):
    """A sync that does not wait for the newest request its hart posted."""
    def sync_waits(self, hart, reqs):
        return len([r for r in reqs if r[0] == hart]) > 1


@pytest.mark.parametrize("mutant,test", [
    (DropLastEntry, "BatchTearing"), (EarlySync, "SyncCoversPosts"), (EarlySync, "MP+shoot+fence"),
    (NoFlush, "MP+shoot+wait"), (NoFlush, "SelfInval"), (NoFlush, "LateStore"), (NoFlush, "Remap"),
    (LeafOnly, "NonLeafChange"), (SmallPagesOnly, "Superpage"),
])
def test_a_broken_model_breaks_the_test(mutant, test):
    assert violations(mutant, test), f"{mutant.__name__} passes {test}"


class NoCachedFaults(X86Model):
    """Never keeps a fault in the TLB (this model until 2026-11-28)."""
    def cached(self, translation):
        return translation[3] != INVALID


def test_a_kept_fault_is_what_only_a_caching_model_reaches():
    """CachedFault's first weak outcome (the fault again after the flag) is
    a fault the TLB kept: the model reaches it, one that never keeps a
    fault does not, and FaultThenFence's local flush forbids it again."""
    test = load(LITMUS[[p.stem for p in LITMUS].index("CachedFault")])
    kept = test.weak[0]
    assert any(holds(kept, dict(o)) for o in X86Model(test).outcomes())
    assert not any(holds(kept, dict(o)) for o in NoCachedFaults(test).outcomes())
    assert violations(X86Model, "FaultThenFence") == []


def test_the_styles_differ_where_armv8_is_weaker():
    """MP+shoot+po: the reader has no barrier. Arm64-style allows the stale
    value with the flag set; x86-style forbids it."""
    test = load(LITMUS[[p.stem for p in LITMUS].index("MP+shoot+po")])
    weak = test.weak[0]
    assert any(holds(weak, dict(o)) for o in Arm64Model(test).outcomes())
    assert not any(holds(weak, dict(o)) for o in X86Model(test).outcomes())


@pytest.mark.parametrize("text,message", [
    ("hart 0\n", "starts with 'litmus NAME'"),
    ("litmus T\nmap x -> A rq\n", "permissions 'rq'"),
    ("litmus T\nmap x -> A rw\nhart 0\n  r0 = load y\n", "virtual page 'y'"),
    ("litmus T\nmap x -> A rw\nhart 0\n  shoot 3 x\n", "hart 3 is not in the test"),
    ("litmus T\nmap x -> A rw\nhart 0\n  shoot 0 x@3M\n", "is not an entry"),
    ("litmus T\nmap x -> A rw\nhart 0\n  jump x\n", "is not an operation"),
    ("litmus T\nmap x -> A rw\nhart 0\nforbidden 0:r0=maybe\n", "neither a number nor 'fault'"),
])
def test_a_bad_test_file_is_refused_with_its_line(text, message):
    with pytest.raises(LitmusError, match=message) as e:
        parse(text, "bad.litmus")
    assert str(e.value).startswith("bad.litmus:")


def test_the_catalogue_in_the_docs_is_fresh():
    """docs/litmus.md lists every test as the files say now."""
    root = Path(__file__).resolve().parents[2]
    r = subprocess.run([sys.executable, "-m", "litmus_lang.catalogue", "--check", str(root / "docs/litmus.md")],
                       capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(root / "scripts")})
    assert r.returncode == 0, r.stderr
