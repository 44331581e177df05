"""linux_mutant_verdict.py NAME STATUS LOG : one row of make linux-mutants'
table. A kernel mutant (sw/linux/mutants/NAME.patch) names the workload
count that must catch it in its "Caught by: WORKLOAD COUNT" line; it is
killed when /init failed the run (exit status 1) and that count is above 0,
survived when the run passed, and an error otherwise (a crash, a timeout, a
failure of another check: not the kill the mutant was written for)."""
import re
import sys
from pathlib import Path

from linux_init import LINES, workload_counts

ROOT = Path(__file__).resolve().parents[1]


def main(name, status, log):
    patch = (ROOT / "sw/linux/mutants" / f"{name}.patch").read_text()
    m = re.search(r"^Caught by: (\S+) (\w+)$", patch, re.M)
    if not m or m[1] not in LINES or m[2] not in LINES[m[1]][1]:
        sys.exit(f"linux_mutant_verdict: {name}.patch needs a 'Caught by: WORKLOAD COUNT' line "
                 f"naming one of {', '.join(f'{w} {c}' for w, (_, cs) in LINES.items() for c in cs)}")
    workload, count = m[1], m[2]
    counts = workload_counts(Path(log).read_text(errors="replace"), workload)
    seen = counts[count] if counts else None
    if status == 1 and seen:
        verdict = "killed"
    elif status == 0:
        verdict = "survived"
    else:
        verdict = "error"
    print(f"| {name} | {status} | {verdict} | {workload} {count} = {seen if seen is not None else 'no line'} |")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: linux_mutant_verdict.py NAME STATUS LOG")
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3])
