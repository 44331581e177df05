"""Litmus run logs made up from the reference models, for the tests of the
tools that read real ones (litmus_lang.judge, scripts/mutants.py): what a back end
would print for a test that saw one outcome the model allows every time."""
from litmus_lang.judge import FAULT, asked_schedules, model_outcomes, tests as litmus_tests

TESTS = litmus_tests()


def line(outcome):
    """An outcome as the program prints it after 'outcome N:'."""
    return " ".join(sorted(f"{'' if h is None else f'{h}:'}{n}={'fault' if v == FAULT else v}"
                           for (h, n), v in outcome))


def log(name, schedules=None, distinct=None, lines=None, outcome=None):
    """One test's part of a run; each argument doctors one thing."""
    n = asked_schedules() if schedules is None else schedules
    outcome = outcome or min(line(o) for o in model_outcomes(TESTS[name]))
    body = [f"outcome {n}: {outcome}"] if n else []
    body = body if lines is None else body * lines
    return "\n".join([f"litmus {name} schedules {n} outcomes {len(body) if distinct is None else distinct}", *body])


def whole_run(skip=None, reason=None, doctor=None):
    """Every test's part; `skip` skipped for `reason`; `doctor` = (name,
    keyword arguments of log()) for one test."""
    parts = []
    for name in TESTS:
        if name == skip:
            parts.append(f"litmus {name} skipped: {reason}")
        else:
            parts.append(log(name, **(doctor[1] if doctor and doctor[0] == name else {})))
    return "\n".join(parts) + "\n"
