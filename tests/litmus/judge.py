#!/usr/bin/env python3
"""judge.py RUN.log [OUT.txt] : what a run of sw/baremetal/programs/litmus.c
saw, judged against the reference models (tests/models/vm_model.py), in the
style of litmus7's reports: per test the histogram of outcomes, each
forbidden condition with how often it was seen (must be never), each weak
outcome with whether it was seen (a weak outcome never seen means the run
could not show what the test checks there), and any outcome outside the
model's allowed set (a failure). Exits 1 when a test failed.
"""
from collections import Counter
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "models"))
from litmus import FAULT, holds, load, show  # noqa: E402
from vm_model import outcomes as model_outcomes  # noqa: E402

HEADER = re.compile(r"^litmus (\S+) schedules (\d+) outcomes (\d+)$")
SKIPPED = re.compile(r"^litmus (\S+) skipped: (.*)$")
ERROR = re.compile(r"^litmus (\S+) error: (.*)$")
OUTCOME = re.compile(r"^outcome (\d+):(.*)$")


def tests():
    """{name: Test} for every file in tests/litmus/."""
    out = {}
    for path in sorted(HERE.glob("*.litmus")):
        t = load(path)
        out[t.name] = t
    return out


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
            current.update(schedules=int(m.group(2)), outcomes=Counter())
            continue
        m = OUTCOME.match(line)
        if m and current is not None:
            obs = []
            for word in m.group(2).split():
                key, _, value = word.partition("=")
                hart, _, name = key.rpartition(":")
                obs.append(((int(hart) if hart else None, name), _value(value)))
            current["outcomes"][frozenset(obs)] += int(m.group(1))
            continue
        m = SKIPPED.match(line)
        if m:
            runs.setdefault(m.group(1), {"errors": []})["skipped"] = m.group(2)
            continue
        m = ERROR.match(line)
        if m:
            runs.setdefault(m.group(1), {"errors": []})["errors"].append(m.group(2))
    return runs


def judge(test, run):
    """A verdict: {"failures": [...], "weak": [(cond, count)], "forbidden":
    [(cond, count)], "report": text}."""
    seen = run.get("outcomes", Counter())
    allowed = model_outcomes(test)
    failures = list(run.get("errors", []))
    if sum(seen.values()) != run.get("schedules", -1):
        failures.append(f"{sum(seen.values())} outcomes counted for {run.get('schedules')} schedules")
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
    if len(sys.argv) not in (2, 3):
        raise SystemExit("usage: judge.py RUN.log [OUT.txt]")
    runs = parse(pathlib.Path(sys.argv[1]).read_text(errors="replace"))
    out, failed, unseen = [], 0, []
    for name, test in tests().items():
        run = runs.get(name)
        if run is None:
            out.append(f"Test {name}: not in the run")
            failed += 1
            continue
        if "skipped" in run:
            out.append(f"Test {name}: skipped ({run['skipped']})")
            continue
        v = judge(test, run)
        out.append(v["report"])
        failed += bool(v["failures"])
        unseen += [f"{name}: {show(c)}" for c, n in v["weak"] if not n]
    out.append(f"{failed} tests failed; weak outcomes never seen: {len(unseen)}" +
               "".join(f"\n  {u}" for u in unseen))
    text = "\n\n".join(out) + "\n"
    if len(sys.argv) == 3:
        pathlib.Path(sys.argv[2]).write_text(text)
    sys.stdout.write(text)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
