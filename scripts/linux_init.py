"""What the test kernel's /init (sw/linux/init) reports of its user-space
probes, parsed: one parser per workload line, each giving the workload's
counts by name, or None when the line is missing (the run ended before it).
The Linux tests and scripts/linux_mutant_verdict.py use the same parsers."""
import re

# /init's benchmarks (sw/linux/init/bench.c): phases "NAME-Pp", loops over
# a window of cycles (FIXED_WORK: fixed work, timed whole)
BENCHES = ("tlb-flush2", "tlb-flush2-range", "tlb-flush2-processes", "cow-zero", "pageout", "mprotect", "fork",
           "useonce")
FIXED_WORK = ("useonce",)
LINES = {
    "stale-probe": (re.compile(r"stale-probe: (\d+) rounds, (\d+) writers: (\d+) stores, (\d+) faults after unmap, "
                               r"(\d+) stores after seeing it, (\d+) writer words in reused pages"),
                    ["rounds", "writers", "stores", "faults", "late", "foreign"]),
    "nonleaf": (re.compile(r"nonleaf: (\d+) rounds, (\d+) readers: (\d+) loads, (\d+) faults after the move, "
                           r"(\d+) loads through the moved table, (\d+) wrong values, (\d+) wrong at the new address"),
                ["rounds", "readers", "loads", "faults", "stale", "wrong", "wrong_new"]),
    "unshare": (re.compile(r"unshare: (\d+) rounds, (\d+) writers: (\d+) stores, (\d+) faults after the unshare, "
                           r"(\d+) stores after seeing it, (\d+) words of the file changed by them, (\d+) tables unshared, "
                           r"(\d+) rounds flushed leaf-only"),
                ["rounds", "writers", "stores", "faults", "late", "changed", "unshared", "leaf_only"]),
    "pending": (re.compile(r"pending: (\d+) rounds, (\d+) zappers: (\d+) zaps, (\d+) wrong reads of the clean pages, "
                           r"(\d+) zapped pages not zero"),
                ["rounds", "zappers", "zaps", "wrong", "unzeroed"]),
    **{b: (re.compile(rf"{b}: (\d+) threads, (\d+) pages a loop, (\d+) loops in all: data intact"),
           ["threads", "pages", "loops"]) for b in BENCHES},
    "useonce-reclaim": (re.compile(r"useonce: (\d+) pages reclaimed under a (\d+) KiB limit"),
                        ["reclaimed", "limit_kb"]),
}


def workload_counts(stdout, workload):
    """The counts `workload` ("stale-probe", "nonleaf", "unshare", "pending",
    or a benchmark: one of BENCHES) printed, or None."""
    pattern, names = LINES[workload]
    m = pattern.search(stdout)
    return dict(zip(names, map(int, m.groups()))) if m else None


THREAD = re.compile(r"([a-z0-9-]+): thread (\d+): (\d+) loops in (\d+) cycles$")
SUMMARY = re.compile(r"([a-z0-9-]+): (\d+) threads, (\d+) pages a loop, (\d+) loops in all: data intact$")
SHAPE = re.compile(r"([a-z0-9-]+): flushes a loop \((\d+) loops\):(.*): (the loop's shape|FAIL: .*)$")
BAND = re.compile(r" ([a-z_+]+)=(\d+\.\d+) \[(\d+\.\d+), (\d+\.\d+)\]")


def bench_runs(stdout):
    """{(NAME, pages): run} of the benchmarks whose data held, in a console
    whose lines may carry the harness's +timestamps prefix: each run's
    threads [(loops in the window, its cycles)], its loops per million
    cycles (the threads' loops / cycles summed), its loops in all and its
    flushes a loop {counters: (value, low, high)} with whether they held."""
    runs, threads, shape = {}, {}, {}
    for line in stdout.splitlines():
        line = re.sub(r"^\[[^\]]*\] ", "", line)
        if m := THREAD.match(line):
            threads.setdefault(m[1], []).append((int(m[3]), int(m[4])))
        elif m := SUMMARY.match(line):
            mine = threads.pop(m[1], [])
            runs[(m[1], int(m[3]))] = {"threads": mine, "loops": int(m[4]), "shape": None, "shape_held": None,
                                       "rate": sum(n / k for n, k in mine if k) * 1e6 if mine else None}
            shape[m[1]] = (m[1], int(m[3]))
        elif (m := SHAPE.match(line)) and m[1] in shape:
            run = runs[shape.pop(m[1])]
            run["shape"] = {c: tuple(map(float, v)) for c, *v in BAND.findall(m[3])}
            run["shape_held"] = m[4] == "the loop's shape"
    return runs
