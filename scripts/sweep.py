#!/usr/bin/env python3
"""sweep.py: runs independent simulation jobs through Dask distributed, on
this machine or on a cluster, and keeps every finished job's result so that
a stopped sweep resumes without redoing it.

A job is a command line whose files (a model, a firmware, a program) are
named by their contents (an argument "{out}" in it, or in one of its
arguments, becomes a fresh directory on the worker, whose files come back
with the result: the harness's forked children's logs, say): the client ships each file to a worker that lacks
it in its own cache (SHOOTDOWN_CACHE, or ~/.cache/tlb-shootdown, under
artefacts/<sha256>), so a worker needs neither this clone nor its cache.
Where the jobs run:
  default                   a LocalCluster of one single-threaded worker
                            process per core (no set-up)
  --scheduler ADDRESS       a running `dask scheduler` (tcp://host:port) or
                            its scheduler file
  --slurm N                 N workers started as Slurm jobs by dask-jobqueue
                            (--queue, --account, --walltime, --memory)
Results go to RESULTS_DIR/<job key>.json.gz (the key: the command with each
file's sha256 or the inputs it was built from, and the time limit; gzip
without a time stamp, so that a results directory can be kept in git); a
job whose result is there is not run
again, and one stopped by the wall-clock limit is not kept. Progress is one line on stderr whenever a job ends: done, running,
failed, to go.

Used by the long targets' scripts (scripts/mutants.py, ...); as a command,
    sweep.py [WHERE] --results DIR -- SIM [+ARGS...] PROGRAM [-- ...]
runs each `--`-separated command line once (files are paths that exist).
"""
import argparse
import dataclasses
import gzip
import hashlib
import json
import os
import pathlib
import socket
import subprocess
import sys
import time


def cache_root():
    """The project's cache outside the work tree, as scripts/lib.sh finds it."""
    return pathlib.Path(os.environ.get("SHOOTDOWN_CACHE") or pathlib.Path(
        os.environ.get("XDG_CACHE_HOME") or pathlib.Path.home() / ".cache") / "tlb-shootdown")


def cache_dir():
    """This process's artefact cache."""
    return cache_root() / "artefacts"


_SHAS = {}


def sha256_file(path):
    path = pathlib.Path(path).resolve()
    st = path.stat()
    memo = (str(path), st.st_size, st.st_mtime_ns)
    if memo not in _SHAS:
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        _SHAS[memo] = h.hexdigest()
    return _SHAS[memo]


@dataclasses.dataclass(frozen=True)
class File:
    """A file a job's command names, shipped by its contents. `built_from`,
    when the file's builder names its inputs (a model's or a kernel's
    cache key), stands for the file in the job's key instead of its
    contents: the simulation is deterministic, so a result made from those
    inputs on one machine holds on another whose build of them is not
    byte for byte the same (a kernel carries its build time)."""
    path: str
    built_from: str = None

    @property
    def sha(self):
        return sha256_file(self.path)


@dataclasses.dataclass(frozen=True)
class Job:
    """One command line; `args` mixes strings and Files."""
    name: str
    args: tuple
    timeout: float = 4 * 3600

    def key(self):
        parts = [(f"built:{a.built_from}" if a.built_from else f"file:{a.sha}") if isinstance(a, File)
                 else f"arg:{a}" for a in self.args]
        return hashlib.sha256(json.dumps([parts, self.timeout]).encode()).hexdigest()[:20]


def run_job(args, blobs, timeout):
    """On a worker: puts each shipped file in the cache (if missing) and
    runs the command. `args` has ("file", sha) for files; `blobs` is
    {sha: bytes}. Returns what the command did, the files it wrote to
    "{out}" and where it ran."""
    import tempfile
    cache = cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="sweep-") as out:
        result = _run_in(args, blobs, timeout, cache, pathlib.Path(out))
        result["files"] = {p.name: p.read_text(errors="replace") for p in sorted(pathlib.Path(out).iterdir())
                           if p.is_file()}
    return result


def _run_in(args, blobs, timeout, cache, out):
    argv = []
    for a in args:
        if isinstance(a, tuple):
            path = cache / a[1]
            if not path.exists():
                tmp = path.with_suffix(f".tmp{os.getpid()}")
                tmp.write_bytes(blobs[a[1]])
                tmp.chmod(0o755)
                tmp.replace(path)
            argv.append(str(path))
        else:
            argv.append(a.replace("{out}", str(out)))
    started = time.monotonic()
    try:
        p = subprocess.run(argv, capture_output=True, text=True, errors="replace", timeout=timeout,
                           stdin=subprocess.DEVNULL)
        status, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        status = None
        out = (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        err = (e.stderr or b"").decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
    return {"status": status, "stdout": out, "stderr": err, "seconds": round(time.monotonic() - started, 2),
            "host": socket.gethostname(), "pid": os.getpid(), "cache": str(cache)}


def client_for(scheduler=None, slurm=None, local=None, **slurm_opts):
    """A dask.distributed Client: a running scheduler, Slurm workers, or a
    LocalCluster of `local` (default: every core) single-threaded
    worker processes."""
    from distributed import Client, LocalCluster
    if scheduler:
        if os.path.exists(scheduler):
            return Client(scheduler_file=scheduler)
        return Client(scheduler)
    if slurm:
        from dask_jobqueue import SLURMCluster
        cluster = SLURMCluster(cores=1, processes=1, **{k: v for k, v in slurm_opts.items() if v})
        cluster.scale(jobs=slurm)
        return Client(cluster)
    return Client(LocalCluster(n_workers=local or os.cpu_count(), threads_per_worker=1, processes=True,
                               dashboard_address=None))


def run(jobs, results_dir, client, quiet=False):
    """{job key: result} for every job, from results_dir or run on the
    cluster. `client` is a Dask client, or the options of
    add_cluster_options(): then the cluster they ask for is started only if
    a job must run, and closed after. A job that fails (status != 0) is a
    result like any other: the caller judges it; one the wall-clock limit
    stopped (status None) is returned but not kept, since the fault may be
    the machine's; a job the cluster could not run raises."""
    results_dir = pathlib.Path(results_dir)
    results_dir.mkdir(parents=True, exist_ok=True)
    results = kept(jobs, results_dir)
    todo = [job for job in jobs if job.key() not in results]
    if not todo:
        if not quiet:
            print(f"sweep: all {len(results)} jobs' results were kept in {results_dir}", file=sys.stderr)
        return results
    if not isinstance(client, argparse.Namespace):
        return _run(todo, results, results_dir, client, quiet)
    client = client_from(client)
    try:
        return _run(todo, results, results_dir, client, quiet)
    finally:
        client.close()


def _run(todo, results, results_dir, client, quiet):
    from distributed import as_completed
    cached = len(results)
    if __name__ != "__main__":
        # Workers need not have this clone: Dask ships this module to every
        # worker, those that join later included (run as a script, its
        # functions go by value anyway). Not loaded on upload: a
        # LocalCluster's scheduler lives in this process, and loading
        # there would reload this module under the caller, whose File
        # objects would then belong to a class no longer this module's.
        client.upload_file(__file__, load=False)
    blobs = {}
    for job in todo:
        for a in job.args:
            if isinstance(a, File) and a.sha not in blobs:
                blobs[a.sha] = client.scatter(pathlib.Path(a.path).read_bytes(), hash=False, broadcast=False)
    futures = {}
    for i, job in enumerate(todo):
        spec = [("file", a.sha) if isinstance(a, File) else str(a) for a in job.args]
        needed = {a.sha: blobs[a.sha] for a in job.args if isinstance(a, File)}
        # In the caller's order (the scheduler's own is not: a linux-bench
        # sweep cut short had run the unit and port-rfence but no stock)
        futures[client.submit(run_job, spec, needed, job.timeout, key=f"{job.name}-{job.key()}", pure=False,
                              priority=len(todo) - i)] = job
    done = failed = 0
    for future in as_completed(futures):
        job = futures[future]
        result = future.result()
        result["job"] = job.name
        if result["status"] is not None:
            tmp = results_dir / f"{job.key()}.json.gz.tmp"
            with open(tmp, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as f:
                f.write(json.dumps(result, sort_keys=True).encode())
            tmp.replace(results_dir / f"{job.key()}.json.gz")
        results[job.key()] = result
        done += 1
        failed += result["status"] != 0
        if not quiet:
            print(f"sweep: {done + cached} done ({cached} kept), {len(todo) - done} running or queued, "
                  f"{failed} failed; {job.name}: status {result['status']} in {result['seconds']} s",
                  file=sys.stderr, flush=True)
    return results


def kept(jobs, results_dir):
    """{job key: result} of the jobs whose results are kept in results_dir."""
    out = {}
    for job in jobs:
        path = pathlib.Path(results_dir) / f"{job.key()}.json.gz"
        if path.exists():
            out[job.key()] = json.loads(gzip.decompress(path.read_bytes()))
    return out


def add_cluster_options(ap):
    """Where the jobs run, the options every sweeping script takes."""
    where = ap.add_argument_group("where the jobs run (default: a LocalCluster, a worker a core)")
    one = where.add_mutually_exclusive_group()
    one.add_argument("--scheduler", help="a running scheduler's address or scheduler file")
    one.add_argument("--slurm", type=int, metavar="N", help="start N workers as Slurm jobs")
    one.add_argument("--local", type=int, metavar="N", help="a LocalCluster of N workers (default: one a core)")
    where.add_argument("--queue", help="Slurm partition"), where.add_argument("--account", help="Slurm account")
    where.add_argument("--walltime", default="04:00:00", help="Slurm job time limit")
    where.add_argument("--memory", default="6GB", help="Slurm job memory")


def client_from(opts):
    """The client the options of add_cluster_options() ask for."""
    return client_for(opts.scheduler, opts.slurm, opts.local, queue=opts.queue, account=opts.account,
                      walltime=opts.walltime, memory=opts.memory)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    add_cluster_options(ap)
    ap.add_argument("--results", required=True, help="where the jobs' results are kept")
    ap.add_argument("--timeout", type=float, default=4 * 3600)
    ap.add_argument("command", nargs=argparse.REMAINDER, help="-- SIM [+ARGS] PROGRAM [-- ...]")
    opts = ap.parse_args(argv)
    commands, cur = [], None
    for a in opts.command:
        if a == "--":
            cur = []
            commands.append(cur)
        elif cur is None:
            ap.error("commands start with --")
        else:
            cur.append(a)
    commands = [c for c in commands if c]
    if not commands:
        ap.error("no command given (-- SIM [+ARGS] PROGRAM)")
    jobs = [Job(f"job{i}", tuple(File(a) if os.path.isfile(a) else a for a in c), opts.timeout)
            for i, c in enumerate(commands)]
    results = run(jobs, opts.results, opts)
    for job in jobs:
        r = results[job.key()]
        print(f"{job.name}: status {r['status']} ({r['seconds']} s on {r['host']}:{r['pid']})")
    return 0 if all(results[j.key()]["status"] == 0 for j in jobs) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
