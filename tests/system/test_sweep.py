"""scripts/sweep.py on a real Dask cluster on 127.0.0.1: a `dask scheduler`
and two `dask worker` processes, one of them with a cache of its own, so it
must be shipped the model and the program by their contents. Every job runs
(each memory latency its own cycle count, longer for slower memory), both
workers take jobs, the files land in the lone worker's cache under their
sha256, a file a job writes to its "{out}" directory comes back with its
result, and a second sweep over the same jobs runs nothing: it needs no
cluster at all."""
import os
import subprocess
import sys
import time

import pytest

from harness import ROOT, model, program, sim_summary

import sweep

LATENCIES = (20, 30, 40, 50)


@pytest.fixture
def cluster(tmp_path):
    dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
    file = tmp_path / "scheduler.json"
    procs = [subprocess.Popen([*dask, "--host", "127.0.0.1", "--port", "0", "--dashboard-address", ":0",
                               "--scheduler-file", str(file)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    for own in (False, True):
        env = {**os.environ, **({"SHOOTDOWN_CACHE": str(tmp_path / "own-cache")} if own else {})}
        procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", "--scheduler-file",
                                       str(file), "--nthreads", "1", "--nworkers", "1", "--host", "127.0.0.1",
                                       "--dashboard-address", ":0", "--name", "own" if own else "shared"],
                                      env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    try:
        client = None
        for _ in range(120):
            if file.exists():
                client = sweep.client_for(str(file))
                break
            time.sleep(0.5)
        assert client, "the scheduler never wrote its file"
        client.wait_for_workers(2, timeout=60)
        yield client
        client.close()
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait(timeout=30)


def test_a_sweep_runs_on_every_worker_and_resumes(tmp_path, cluster):
    sim, elf = model(2), program("soc", "hello")
    jobs = [sweep.Job(f"lat{n}", (sweep.File(sim), f"+mem-latency={n}", sweep.File(elf)), timeout=600)
            for n in LATENCIES]
    jobs.append(sweep.Job("out", ("sh", "-c", "echo made > {out}/a.txt"), timeout=60))
    results = sweep.run(jobs, tmp_path / "results", cluster, quiet=True)
    assert results[jobs[-1].key()]["files"] == {"a.txt": "made\n"}
    cycles = []
    for job in jobs[:-1]:
        r = results[job.key()]
        assert r["status"] == 0, r["stderr"][-2000:]
        cycles.append(sim_summary(r["stderr"])[2])
    assert cycles == sorted(cycles) and len(set(cycles)) == len(cycles), cycles
    caches = {r["cache"] for r in results.values()}
    assert str(tmp_path / "own-cache" / "artefacts") in caches and len(caches) == 2, caches
    own = {p.name for p in (tmp_path / "own-cache/artefacts").iterdir()}
    assert {sweep.sha256_file(sim), sweep.sha256_file(elf)} <= own, own
    again = sweep.run(jobs, tmp_path / "results", None, quiet=True)  # no cluster: nothing may run
    assert again == results


def test_a_local_cluster_runs_files_made_before_it(tmp_path):
    """make linux-bench's default: a LocalCluster, whose scheduler lives in
    this process. Shipping the runner to its workers must leave this
    process's module as it was, so that Files made before the sweep are
    still Files (run as the program they name, keyed as before)."""
    job = sweep.Job("echo", (sweep.File("/bin/echo"), "shipped"), timeout=60)
    key = job.key()
    client = sweep.client_for(local=1)
    try:
        results = sweep.run([job], tmp_path / "results", client, quiet=True)
    finally:
        client.close()
    assert job.key() == key and results[key]["status"] == 0 and results[key]["stdout"] == "shipped\n", results


def test_jobs_start_in_the_order_given(tmp_path):
    """A sweep cut short must have run its first jobs (linux-bench puts
    stock's first): on one worker, jobs start in the order of the list."""
    jobs = [sweep.Job(f"j{i}", ("sh", "-c", "date +%s%N", f"j{i}"), timeout=60) for i in range(8)]
    client = sweep.client_for(local=1)
    try:
        results = sweep.run(jobs, tmp_path / "results", client, quiet=True)
    finally:
        client.close()
    started = [int(results[j.key()]["stdout"]) for j in jobs]
    assert started == sorted(started), [j.name for _, j in sorted(zip(started, jobs), key=lambda p: p[0])]


def test_a_kept_result_follows_what_its_files_were_built_from(tmp_path):
    """make linux-bench keeps its results in the repository, for the next
    machine: a file named by the inputs it was built from keys its jobs by
    them, so another build of the same inputs (other bytes: a kernel carries
    its build time) finds the result kept, and a build of other inputs
    does not."""
    builds = []
    for n, text in enumerate(("echo $1", "# built again, elsewhere\necho $1")):
        builds.append(tmp_path / f"build{n}")
        builds[-1].write_text(f"#!/bin/sh\n{text}\n")
        builds[-1].chmod(0o755)
    here = sweep.Job("here", (sweep.File(str(builds[0]), built_from="tool 1.0"), "kept"), timeout=60)
    there = sweep.Job("there", (sweep.File(str(builds[1]), built_from="tool 1.0"), "kept"), timeout=60)
    newer = sweep.Job("newer", (sweep.File(str(builds[1]), built_from="tool 1.1"), "kept"), timeout=60)
    client = sweep.client_for(local=1)
    try:
        results = sweep.run([here], tmp_path / "results", client, quiet=True)
    finally:
        client.close()
    assert results[here.key()]["stdout"] == "kept\n", results
    assert [p.name for p in (tmp_path / "results").iterdir()] == [f"{here.key()}.json.gz"]
    assert sweep.run([there], tmp_path / "results", None, quiet=True) == results  # no cluster: nothing may run
    assert sweep.kept([newer], tmp_path / "results") == {}


def test_mutant_cells_run_through_the_sweep_and_stay_cached(tmp_path, monkeypatch):
    """scripts/mutants.py's cells on a LocalCluster, with a stand-in model
    (a script that exits with the status a design asks for): each cell's
    log carries its status, finished cells go to the cell cache and are not
    run again, and a cell stopped by the wall-clock limit is neither cached
    nor kept by the sweep, so that the next matrix runs it again."""
    import argparse
    import importlib.util
    spec = importlib.util.spec_from_file_location("mutants", ROOT / "scripts/mutants.py")
    mutants = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mutants)
    monkeypatch.setattr(mutants, "CELLS", tmp_path / "cells")
    monkeypatch.setattr(mutants, "SWEEP_RESULTS", tmp_path / "sweep")
    monkeypatch.setattr(mutants, "WALL_SECONDS", 5)
    sim = tmp_path / "sim"
    sim.write_text('#!/bin/sh\ncase "$1" in +mutant=slow) sleep 30 ;; +mutant=bad) echo caught; exit 1 ;; esac\n'
                   'echo "[sim] passed"\n')
    sim.chmod(0o755)
    elfs, logs = {"hello": program("soc", "hello")}, tmp_path / "logs"
    logs.mkdir()
    opts = argparse.Namespace(scheduler=None, slurm=None, local=2, queue=None, account=None, walltime=None,
                              memory=None)
    cells = [("none", "hello"), ("bad", "hello"), ("slow", "hello")]
    assert mutants.run_cells(cells, sim, elfs, logs, opts) == (3, 0)
    status = {d: mutants.read_log(logs / f"{d}-hello.log") for d, _ in cells}
    assert status["none"] == (0, "[sim] passed\n") and status["bad"] == (1, "caught\n"), status
    assert status["slow"][0] is None, status
    assert len(list((tmp_path / "cells").iterdir())) == 2 and len(list((tmp_path / "sweep").iterdir())) == 2
    opts.local = None
    monkeypatch.setattr(mutants.sweep, "client_for", lambda *a, **k: pytest.fail("a cached cell was run"))
    assert mutants.run_cells(cells[:2], sim, elfs, logs, opts) == (0, 2)
