"""make linux-bench's reading of its runs (scripts/linux_bench.py) on
doctored forked runs: a child's tlb-flush2 phase becomes loops per million
cycles from its threads' loops in their windows; a child that failed,
one that passed without its data line or with flushes not of its loop's
shape, and a boot that never reached the snapshot are each counted as a run that gave no sample,
never dropped; the summary's ratio and the share of the stock-to-limit gap
come out as the samples say."""
import re

import linux_bench
import linux_bench_report as report

PARENT = "[      1000 msip 0 0 mmode 900 900] init: running on cpus 0-1\n"


def child(cycles, status=0, data=True, loops=100, held_walk=None, shape=True):
    """A forked child's console and stderr: one tlb-flush2 phase of 1 page,
    each of 2 threads `loops` loops in a window of `cycles` cycles (the
    phase as long), its flushes of the loop's shape unless `shape` is
    False, 4 IPIs in the phase and
    5 by its end line (none of them the kernel's): 5 shootdown IPIs; with
    `held_walk` (held, walk), the model's held and walk counters grow by
    that much in the phase (hart 0's), else it has none (an older model)."""
    def stamp(c, msip, mm, grown=False):
        held, walk = (held_walk[0] * grown, held_walk[1] * grown) if held_walk else (0, 0)
        return f"[{c:>10} msip {msip} mmode {mm}" + (
            f" held {held} 0 walk {1000 + walk} 1000" if held_walk else "") + "] "
    out = (stamp(10_000, "1 1", "1000 1000") + "phase tlb-flush2-1p begin\n"
           + stamp(10_000 + cycles, "3 3", "1500 1300", True) + "phase tlb-flush2-1p done\n"
           + stamp(20_000 + cycles, "3 4", "1600 1300", True) + "phase tlb-flush2-1p end linux_ipis=0\n"
           + "".join(f"tlb-flush2: thread {c}: {loops} loops in {cycles} cycles\n" for c in (0, 1))
           + (f"tlb-flush2: 2 threads, 1 pages a loop, {2 * loops} loops in all: data intact\n" if data else "")
           + f"tlb-flush2: flushes a loop ({2 * loops} loops): remote_page=1.000 [1.000, 1.050]: "
           + ("the loop's shape\n" if shape else "FAIL: not the flushes this benchmark's loop asks for\n"))
    return out, f"[sim] finisher: pass, status {status}: {cycles} cycles in 1.00 s (1.0 kHz)\n"


def job(*children, status=0):
    files = {}
    for seed, (out, err) in enumerate(children, 1):
        files[f"seed-{seed}.out"], files[f"seed-{seed}.err"] = out, err
    return {"stdout": PARENT, "files": files, "status": status}


def test_a_child_becomes_loops_per_million_cycles(tmp_path):
    rows = linux_bench.samples_of("unit", 2, job(child(2_000_000)), tmp_path)
    assert len(rows) == 1, rows
    r = rows[0]
    # 2 threads x 100 loops in 2 M cycles; the phase ends at its done line
    assert (r["status"], r["phase"], r["cycles"], r["value"]) == (0, "tlb-flush2-1p", 2_000_000, 100.0), r
    assert (r["shootdown_ipis"], r["mmode_cycles"]) == (5, 800), r


def test_runs_without_a_sample_are_counted(tmp_path):
    rows = linux_bench.samples_of("unit", 2, job(child(2_000_000, status=1), child(2_000_000, data=False),
                                                 child(2_000_000), child(2_000_000, shape=False)), tmp_path)
    assert [(r["seed"], r["status"], r["value"]) for r in rows] == [(1, 1, None), (2, None, None), (3, 0, 100.0),
                                                                    (4, None, None)]
    never = linux_bench.samples_of("unit", 2, {"stdout": PARENT, "files": {}, "status": 0}, tmp_path)
    assert [(r["status"], r["value"]) for r in never] == [(None, None)]


def test_summary_gives_the_ratio_and_the_share_of_the_gap(tmp_path):
    """stock at 100 loops per M-cycle, the limit at 200, the unit at 190:
    the unit's ratio is 1.9, and on cycles a loop (10,000, 5,000 and 5,263)
    it recovers 0.95 of the gap (0.90 on loops per cycle would be the old,
    wrong reading); a failed stock run shows in its row."""
    rows = []
    for config, loops in (("stock", 100), ("unit", 190), ("limit", 200)):
        children = [child(2_000_000, loops=loops + d) for d in (-2, -1, 0, 1, 2)]
        if config == "stock":
            children.append(child(2_000_000, status=124))
        rows += linux_bench.samples_of(config, 2, job(*children), tmp_path)
    text = report.summary(rows, [2], "stamped")
    row = lambda config: next(line for line in text.splitlines() if line.startswith(f"| tlb-flush2-1p | {config} |"))
    assert re.match(r"\| tlb-flush2-1p \| unit \| 5 \| 5 \| 0 \| 190\.0 \| 188\.0-192\.0 \| 1\.900 \[", row("unit")), text
    assert re.match(r"\| tlb-flush2-1p \| stock \| 5 \| 5 \| 1 \|", row("stock")), text
    share = re.search(r"^\| tlb-flush2-1p \| unit \| (0\.\d\d) \[(\S+), (\S+)\] \|$", text, re.M)
    assert share and share[1] == "0.95" and float(share[2]) <= 0.947 <= float(share[3]), text
    assert "Runs that did not pass on 2 harts: 1 (stock: 1)." in text, text


def test_useonce_gives_pages_reclaimed(tmp_path):
    """useonce's phase carries the cgroup's pages reclaimed, and the
    accounting table its cycles per page."""
    out, err = child(2_000_000)
    out = out.replace("tlb-flush2", "useonce") + "useonce: 500 pages reclaimed under a 1024 KiB limit\n"
    rows = linux_bench.samples_of("stock", 2, job((out, err)), tmp_path)
    assert [(r["phase"], r["value"], r["reclaimed"]) for r in rows] == [("useonce-1p", 100.0, 500)], rows
    text = report.summary(rows, [2], "stamped")
    # no wait (stock), no held or walks (a model without those counters)
    assert re.search(r"^\| useonce-1p \| stock \| 5 \| - \| [^|]+ \| - \| - \| - \| 0\.0% \| 500 \| 4,000 \|$", text,
                     re.M), text


def test_plots_from_two_hart_counts(tmp_path):
    """The sample plot and the scaling plot are drawn from rows of two hart
    counts (the scaling plot only then)."""
    rows = []
    for harts in (2, 4):
        for config, loops in (("stock", 100), ("unit", 150)):
            rows += linux_bench.samples_of(config, harts, job(child(2_000_000, loops=loops)), tmp_path)
    report.plot(rows, tmp_path / "a.png")
    report.plot_scaling(rows, tmp_path / "s.png")
    report.plot_scaling([r for r in rows if r["harts"] == 2], tmp_path / "none.png")
    assert (tmp_path / "a.png").stat().st_size > 0 and (tmp_path / "s.png").stat().st_size > 0
    assert not (tmp_path / "none.png").exists()


def test_no_gap_where_the_limit_is_not_a_bound(tmp_path):
    """fork's flushes must reach every CPU, so a limit sample of fork (a
    kernel that skipped them) gives no share of the gap; tlb-flush2's does
    (on cycles a loop: 10,000, 6,667 and 5,000, two thirds)."""
    rows = []
    for config, loops in (("stock", 100), ("unit", 150), ("limit", 200)):
        children = [child(2_000_000, loops=loops + d) for d in (-1, 0, 1)]
        children += [(out.replace("tlb-flush2", "fork"), err) for out, err in children]
        rows += linux_bench.samples_of(config, 2, job(*children), tmp_path)
    text = report.summary(rows, [2], "stamped")
    gap = text[text.index("Share of the gap"):]
    assert re.search(r"^\| tlb-flush2-1p \| unit \| 0\.67 ", gap, re.M), gap
    assert "| fork-4p |" not in gap and "| fork-1p |" not in gap, gap


def test_shortfall_splits_the_cycles_above_the_limit(tmp_path):
    """The unit at 190 loops per M-cycle against the limit's 200, with
    38,000 more M-mode cycles in its phase, its agents holding their cores
    19,000 cycles and its walkers busy 38,300 (the limit's 300): 2 harts x
    2 M cycles over 380 loops is 10,526 cycles a loop against 10,000; of
    the 526, 100 are the firmware's, 50 held, 100 walks, 276 the rest."""
    rows = []
    for config, loops, mm, held_walk in (("stock", 100, 0, (0, 300)), ("unit", 190, 38_000, (19_000, 38_300)),
                                         ("limit", 200, 0, (0, 300))):
        out, err = child(2_000_000, loops=loops, held_walk=held_walk)
        out = out.replace("mmode 1500 1300", f"mmode {1500 + mm} 1300")
        rows += linux_bench.samples_of(config, 2, job((out, err)), tmp_path)
    assert [(r["config"], r["held_cycles"], r["walk_cycles"]) for r in rows] == [
        ("stock", 0, 300), ("unit", 19_000, 38_300), ("limit", 0, 300)], rows
    text = report.summary(rows, [2], "stamped")
    assert re.search(r"^\| tlb-flush2-1p \| unit \| 10,526 \| 10,000 \| \+526 | \+100 \| - \| \+50 \| \+100 \| "
                     r"\+276 \|$", text, re.M), text


def test_boots_that_differ_are_told_apart_from_boots_that_do_not(tmp_path):
    """A job's build and boot come from its name into its rows; a boot is
    the unit the summary counts (n: boots, beside the samples), and the
    builds-and-boots table puts the unit's four boots, 5% apart, far apart
    (between 13.6%, a small p) and stock's, drawn alike, close; two builds
    of stock, one 10% faster than the other, show between the builds."""
    assert linux_bench.boot_of("unit-2harts-build2-boot503-seeds3,4") == (2, 503)
    assert linux_bench.boot_of("unit-2harts-boot503-seeds3,4") == (None, 503)
    assert linux_bench.boot_of("unit-2harts-seeds3,4") == (None, None)
    rows = []
    for b in range(4):
        for config, level in (("stock", 100 * (1 + 0.1 * (b % 2))), ("unit", 150 * (1 + 0.05 * b))):
            children = [child(2_000_000, loops=round(level) + d) for d in (0, 1)]
            rows += linux_bench.samples_of(config, 2, job(*children), tmp_path, boot=501 + 2 * b,
                                           build=1 + b % 2 if config == "stock" else 1)
    assert {r["boot"] for r in rows} == {501, 503, 505, 507}
    text = report.summary(rows, [2], "stamped")
    assert re.search(r"^\| tlb-flush2-1p \| unit \| 4 \| 8 \| 0 \|", text, re.M), text
    unit = re.search(r"^\| tlb-flush2-1p \| unit \| 1 \| 4 \| 8 \| - \| (\S+)% \| (\S+)% \| (\S+) \|$", text, re.M)
    stock = re.search(r"^\| tlb-flush2-1p \| stock \| 2 \| 4 \| 8 \| (\S+)% \| (\S+)% \| (\S+)% \| (\S+) \|$",
                      text, re.M)
    assert unit and 13 < float(unit[1]) < 14.5 and float(unit[3]) < 0.001, text
    assert stock and 9 < float(stock[1]) < 10.5, text


class _Job:
    def __init__(self, name, key):
        self.name, self._key = name, key

    def key(self):
        return self._key


def test_the_plan_lets_a_report_find_its_jobs_whatever_the_tree(tmp_path, monkeypatch):
    """A sweep's plan names its jobs' keys and its inputs: a run of more
    jobs on the same inputs adds to it (a rerun of the same jobs changes
    nothing, its stamp included), a run on changed inputs starts a new one
    even when it shares no job with the plan, and --report reads the jobs
    back from it alone (no model or kernel built), restricted to the
    configurations asked; no plan, a clear error."""
    import gzip
    import json
    import types
    import pytest
    monkeypatch.setattr(linux_bench, "SWEEP_RESULTS", tmp_path)
    linux_bench.write_plan(2, [("stock", _Job("stock-2harts-seeds1", "k1"))], "stamp A", "in1")
    linux_bench.write_plan(2, [("unit", _Job("unit-2harts-seeds1", "k2"))], "stamp B", "in1")
    plan = json.loads(linux_bench.plan_path(2).read_text())
    assert plan["stamp"] == "stamp A" and [j["key"] for j in plan["jobs"]] == ["k1", "k2"]
    # the same jobs again (a sweep resumed after later commits): stamp and order kept
    again = [("unit", _Job("unit-2harts-seeds1", "k2")), ("stock", _Job("stock-2harts-seeds1", "k1"))]
    linux_bench.write_plan(2, again, "stamp D", "in1")
    assert json.loads(linux_bench.plan_path(2).read_text()) == plan
    opts = types.SimpleNamespace(harts=[2], configs=["unit"])
    jobs, stamp_line = linux_bench.planned(opts)
    assert [(c, h, j.name, j.key()) for c, h, j in jobs] == [("unit", 2, "unit-2harts-seeds1", "k2")]
    assert stamp_line == "stamp A"
    (tmp_path / "k2.json.gz").write_bytes(gzip.compress(json.dumps(job(child(2_000_000))).encode()))
    assert list(linux_bench.sweep.kept([j for _, _, j in jobs], tmp_path)) == ["k2"]
    linux_bench.write_plan(2, [("stock", _Job("stock-2harts-seeds1", "k3"))], "stamp C", "in1")
    plan = json.loads(linux_bench.plan_path(2).read_text())
    assert plan["stamp"] == "stamp C" and [j["key"] for j in plan["jobs"]] == ["k3"]
    # other inputs, no job in common (a pilot after an old sweep): a new plan,
    # not the old one's jobs under its stamp
    linux_bench.write_plan(2, [("unit", _Job("unit-2harts-build1-boot501-seeds1,2", "k4"))], "stamp E", "in2")
    plan = json.loads(linux_bench.plan_path(2).read_text())
    assert plan["stamp"] == "stamp E" and [j["key"] for j in plan["jobs"]] == ["k4"]
    # a plan from before plans recorded their inputs is never the same
    linux_bench.plan_path(2).write_text(json.dumps({"stamp": "old", "jobs": [{"config": "stock", "name": "s", "key": "k5"}]}))
    linux_bench.write_plan(2, [("unit", _Job("u", "k6"))], "stamp F", "in2")
    assert [j["key"] for j in json.loads(linux_bench.plan_path(2).read_text())["jobs"]] == ["k6"]
    with pytest.raises(SystemExit, match="no sweep on 4 harts"):
        linux_bench.planned(types.SimpleNamespace(harts=[4], configs=None))
