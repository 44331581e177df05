#!/usr/bin/env python3
"""python3 -m litmus_lang.judge [--schedules N] RUN.log [OUT.txt] : what a run of
sw/baremetal/programs/litmus.c saw, judged against the reference models
(litmus_lang.model), in the style of litmus7's reports: per test the
histogram of outcomes, each forbidden condition with how often it was seen
(must be never), each weak outcome with whether it was seen (a weak outcome
never seen means the run could not show what the test checks there), and
any outcome outside the model's allowed set (a failure). A run must also
show that it ran what was asked: N schedules per test (the build's
LITMUS_SCHEDULES, sw/baremetal/Makefile's default unless told), a
histogram that adds up to them, as many outcome lines as its header
counts, and no test missing or skipped except for the reason its own file
gives (it needs more harts than the machine has). Exits 1 when a test
failed.
"""
from collections import Counter
import pathlib
import re
import sys

from litmus_lang import FAULT, holds, load, show
from litmus_lang.model import outcomes as model_outcomes

ROOT = pathlib.Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests/litmus"
MAKEFILE = ROOT / "sw/baremetal/Makefile"
HEADER = re.compile(r"^litmus (\S+) schedules (\d+) outcomes (\d+)$")
SKIPPED = re.compile(r"^litmus (\S+) skipped: (.*)$")
ERROR = re.compile(r"^litmus (\S+) error: (.*)$")
OUTCOME = re.compile(r"^outcome (\d+):(.*)$")


def tests():
    """{name: Test} for every file in tests/litmus/."""
    out = {}
    for path in sorted(TESTS.glob("*.litmus")):
        t = load(path)
        out[t.name] = t
    return out


def asked_schedules():
    """Schedules per test a default build runs (LITMUS_SCHEDULES in
    sw/baremetal/Makefile)."""
    m = re.search(r"^LITMUS_SCHEDULES \?= (\d+)$", MAKEFILE.read_text(), re.M)
    if not m:
        raise SystemExit(f"litmus_lang.judge: no 'LITMUS_SCHEDULES ?= N' in {MAKEFILE}")
    return int(m.group(1))


def skip_reason_ok(test, reason):
    """A test may be skipped only because the machine has fewer harts than
    the test file uses."""
    return reason == f"needs {len(test.harts)} harts"


def _value(text):
    return FAULT if text == FAULT else int(text)


def parse(text):
    """{name: {"schedules", "outcomes": Counter of frozen outcomes,
    "skipped", "errors"}} from a run's console output."""
    runs, current = {}, None
    for line in text.splitlines():
        m = HEADER.match(line)
        if m:
            current = runs.setdefault(m.group(1), {"errors": []})
            current.update(schedules=int(m.group(2)), distinct=int(m.group(3)), lines=0, outcomes=Counter())
            continue
        m = OUTCOME.match(line)
        if m and current is not None:
            obs = []
            for word in m.group(2).split():
                key, _, value = word.partition("=")
                hart, _, name = key.rpartition(":")
                obs.append(((int(hart) if hart else None, name), _value(value)))
            current["outcomes"][frozenset(obs)] += int(m.group(1))
            current["lines"] += 1
            continue
        m = SKIPPED.match(line)
        if m:
            runs.setdefault(m.group(1), {"errors": []})["skipped"] = m.group(2)
            continue
        m = ERROR.match(line)
        if m:
            runs.setdefault(m.group(1), {"errors": []})["errors"].append(m.group(2))
    return runs


def judge(test, run, schedules=None):
    """A verdict: {"failures": [...], "weak": [(cond, count)], "forbidden":
    [(cond, count)], "report": text}. `schedules`: how many the run was
    asked for (default: asked_schedules())."""
    asked = asked_schedules() if schedules is None else schedules
    seen = run.get("outcomes", Counter())
    allowed = model_outcomes(test)
    failures = list(run.get("errors", []))
    if "skipped" in run:
        failures.append(f"skipped: {run['skipped']}")
    if run.get("schedules") != asked:
        failures.append(f"{run.get('schedules', 'no')} schedules run where {asked} were asked")
    if sum(seen.values()) != run.get("schedules", -1):
        failures.append(f"{sum(seen.values())} outcomes counted for {run.get('schedules')} schedules")
    if run.get("lines") != run.get("distinct"):
        failures.append(f"{run.get('lines', 0)} outcome lines where the header counts {run.get('distinct')}")
    outside = {o: n for o, n in seen.items() if o not in allowed}
    forbidden = [(c, sum(n for o, n in seen.items() if holds(c, dict(o)))) for c in test.forbidden]
    weak = [(c, sum(n for o, n in seen.items() if holds(c, dict(o)))) for c in test.weak]
    failures += [f"forbidden outcome seen {n} times: {show(c)}" for c, n in forbidden if n]
    failures += [f"outcome outside the {test.model} model seen {n} times: {fmt(o)}" for o, n in outside.items()]
    lines = [f"Test {test.name} ({test.model}-style model): {run.get('schedules', 0)} schedules",
             f"Histogram ({len(seen)} states)"]
    for o, n in sorted(seen.items(), key=lambda kv: -kv[1]):
        lines.append(f"  {n:6} :> {fmt(o)}{'   <- outside the model' if o in outside else ''}")
    for c, n in forbidden:
        lines.append(f"Forbidden {show(c)}: {'SEEN ' + str(n) if n else 'never'}")
    for c, n in weak:
        lines.append(f"Weak {show(c)}: {'seen ' + str(n) if n else 'not seen'}")
    lines.append(f"Verdict: {'FAIL: ' + '; '.join(failures) if failures else 'ok'}")
    return {"failures": failures, "weak": weak, "forbidden": forbidden, "report": "\n".join(lines)}


def fmt(outcome):
    keys = sorted(outcome, key=lambda kv: (kv[0][0] is None, kv[0][0] or 0, kv[0][1]))
    return " ".join(f"{'' if h is None else f'{h}:'}{n}={v};" for (h, n), v in keys)


def main():
    args = sys.argv[1:]
    schedules = None
    if args[:1] == ["--schedules"] and len(args) >= 2:
        if not args[1].isdigit():
            raise SystemExit(f"litmus_lang.judge: --schedules takes a number, not '{args[1]}'")
        schedules, args = int(args[1]), args[2:]
    if len(args) not in (1, 2):
        raise SystemExit("usage: python3 -m litmus_lang.judge [--schedules N] RUN.log [OUT.txt]")
    text, failed = report(pathlib.Path(args[0]).read_text(errors="replace"), schedules)
    if len(args) == 2:
        pathlib.Path(args[1]).write_text(text)
    sys.stdout.write(text)
    sys.exit(1 if failed else 0)


def report(log, schedules=None):
    """A litmus7-style report of one run's output against every test, and
    how many tests failed (absent, skipped without the test's reason, or
    judged wrong)."""
    runs = parse(log)
    out, failed, unseen = [], 0, []
    for name, test in tests().items():
        run = runs.get(name)
        if run is None:
            out.append(f"Test {name}: not in the run")
            failed += 1
            continue
        if "skipped" in run and skip_reason_ok(test, run["skipped"]):
            out.append(f"Test {name}: skipped ({run['skipped']})")
            continue
        v = judge(test, run, schedules)
        out.append(v["report"])
        failed += bool(v["failures"])
        unseen += [f"{name}: {show(c)}" for c, n in v["weak"] if not n]
    out.append(f"{failed} tests failed; weak outcomes never seen: {len(unseen)}" +
               "".join(f"\n  {u}" for u in unseen))
    return "\n\n".join(out) + "\n", failed


if __name__ == "__main__":
    main()
