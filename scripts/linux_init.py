"""What the test kernel's /init (sw/linux/init) reports of its user-space
probes, parsed: one parser per workload line, each giving the workload's
counts by name, or None when the line is missing (the run ended before it).
The Linux tests and scripts/linux_mutant_verdict.py use the same parsers."""
import re

# /init's benchmarks (sw/linux/init/bench.c): phases "NAME-Pp", fixed work
BENCHES = ("tlb-flush2", "pageout", "mprotect", "fork", "useonce")
LINES = {
    "stale-probe": (re.compile(r"stale-probe: (\d+) rounds, (\d+) writers: (\d+) stores, (\d+) faults after unmap, "
                               r"(\d+) stores after seeing it, (\d+) writer words in reused pages"),
                    ["rounds", "writers", "stores", "faults", "late", "foreign"]),
    "nonleaf": (re.compile(r"nonleaf: (\d+) rounds, (\d+) readers: (\d+) loads, (\d+) faults after the move, "
                           r"(\d+) loads through the moved table, (\d+) wrong values, (\d+) wrong at the new address"),
                ["rounds", "readers", "loads", "faults", "stale", "wrong", "wrong_new"]),
    "pending": (re.compile(r"pending: (\d+) rounds, (\d+) zappers: (\d+) zaps, (\d+) wrong reads of the clean pages, "
                           r"(\d+) zapped pages not zero"),
                ["rounds", "zappers", "zaps", "wrong", "unzeroed"]),
    **{b: (re.compile(rf"{b}: (\d+) threads, (\d+) pages a loop, (\d+) loops each: data intact"),
           ["threads", "pages", "loops"]) for b in BENCHES},
    "useonce-reclaim": (re.compile(r"useonce: (\d+) pages reclaimed under a (\d+) KiB limit"),
                        ["reclaimed", "limit_kb"]),
}


def workload_counts(stdout, workload):
    """The counts `workload` ("stale-probe", "nonleaf", "pending",
    or a benchmark: one of BENCHES) printed, or None."""
    pattern, names = LINES[workload]
    m = pattern.search(stdout)
    return dict(zip(names, map(int, m.groups()))) if m else None
