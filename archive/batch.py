"""``archive analyze``: the analyser over every bundle that needs it, on this machine or a Dask cluster.

A bundle needs analysis when it has video and its ``vision.jsonl`` is missing or was written by another
analyser version than this installation's (``vision.analyzer.VERSION``); damaged bundles are skipped.
One task per bundle: each task is exactly ``vision.analyzer.analyze(BUNDLE, workers=1)``, run in a worker
process, writing ``vision.jsonl`` / ``audio.jsonl`` and the stretch cache into the bundle itself, so the
result is byte for byte what ``mafiacam analyze BUNDLE`` writes. Resumable twice over: bundles already
current are skipped, and an interrupted bundle resumes from its stretch cache (``.analysis/<VERSION>/``).
After each bundle the catalogue re-indexes it (or records the error; the others go on).

Engines:

- local (default): a process pool of ``workers`` processes (spawned), longest videos first; the progress
  bar follows every finished stretch through a manager queue;
- Dask: ``scheduler="tcp://HOST:PORT"`` uses a running cluster, ``local_cluster=N`` starts a LocalCluster
  of N single-threaded worker processes on 127.0.0.1; each task analyses its bundle in a child process
  (:func:`analyse_in_subprocess`). The bundle folders must be reachable by the workers
  at the same path (same machine or a shared folder mounted alike), or under ``remote_root`` for bundles
  inside the archive. The progress bar moves per finished bundle there.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from archive.catalog import Catalog
from archive.record import current_analyser

UNKNOWN_WEIGHT_MS = 60_000  # a bundle whose video length is unknown weighs like a minute of video


@dataclass(frozen=True)
class Job:
    key: str  # the bundle as indexed
    path: str  # where the worker finds it
    video_ms: int | None

    @property
    def weight(self) -> float:
        return float(self.video_ms or UNKNOWN_WEIGHT_MS)


@dataclass(frozen=True)
class JobResult:
    key: str
    ok: bool
    error: str | None = None
    duration_ms: int = 0
    wall_s: float = 0.0
    cpu_s: float = 0.0  # CPU time of the analysing process (all its threads)
    events: int = 0
    stretches: int = 0
    cached: int = 0
    worker: str = ""


@dataclass
class BatchReport:
    engine: str
    jobs: int
    skipped_current: int
    results: list[JobResult] = field(default_factory=list)
    wall_s: float = 0.0

    @property
    def failed(self) -> list[JobResult]:
        return [r for r in self.results if not r.ok]

    @property
    def video_ms(self) -> int:
        return sum(r.duration_ms for r in self.results if r.ok)

    @property
    def throughput(self) -> float:
        """Hours of video analysed per hour of wall time."""
        return self.video_ms / 1000.0 / self.wall_s if self.wall_s > 0 else 0.0


Progress = Callable[[float, int, int, float], None]  # fraction, bundles done, bundles, elapsed s


# ---- the task (runs in a worker process) -------------------------------------------------------------


def analyse_one(path: str, key: str, queue: Any = None) -> dict[str, Any]:
    """Analyse one bundle with ``workers=1``; never raises (the error comes back as text)."""
    os.environ.setdefault("GLOG_minloglevel", "2")
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    import socket

    import vision.analyzer
    from vision.analyzer import analyze

    # The analyser keeps the last VideoTimeline of its process keyed by the segments' *relative* paths,
    # so a second bundle with the same "video.mp4" would be read from the first one's video: a worker
    # that analyses several bundles must start each with that cache empty.
    cache = getattr(vision.analyzer, "_WORKER", None)
    if isinstance(cache, dict):
        cache.clear()
    progress = None
    if queue is not None:

        def progress(frac: float, done: int, total: int, elapsed: float) -> None:
            queue.put((key, frac))

    t0 = time.monotonic()
    c0 = time.process_time()
    worker = f"{socket.gethostname()}:{os.getpid()}"
    try:
        rep = analyze(path, workers=1, progress=progress, resume=True)
    except Exception as e:
        return {"key": key, "ok": False, "error": f"{type(e).__name__}: {e}", "worker": worker}
    return {
        "key": key,
        "ok": True,
        "duration_ms": rep.duration_ms,
        "wall_s": round(time.monotonic() - t0, 3),
        "cpu_s": round(time.process_time() - c0, 3),
        "events": rep.events,
        "stretches": rep.stretches,
        "cached": rep.cached,
        "worker": worker,
    }


def analyse_in_subprocess(path: str, key: str) -> dict[str, Any]:
    """:func:`analyse_one` in a child process of its own: the Dask task.

    The child runs with the environment a plain ``mafiacam analyze`` would have, less the
    ``MALLOC_TRIM_THRESHOLD_`` that a Dask nanny sets very low (64 KiB) for its workers, and a crash in
    native code (MediaPipe, FFmpeg) takes down the child, not the worker: the task reports it as an error.
    Measured: the analysis takes the same CPU time as in the local pool (bench/bench_archive.py).
    """
    import json
    import subprocess

    env = {k: v for k, v in os.environ.items() if k != "MALLOC_TRIM_THRESHOLD_"}
    env["OMP_NUM_THREADS"] = "1"
    cmd = [sys.executable, "-m", "archive.batch", path, key]
    res = subprocess.run(cmd, capture_output=True, text=True, env=env)
    lines = res.stdout.strip().splitlines()
    if res.returncode == 0 and lines:
        try:
            out: dict[str, Any] = json.loads(lines[-1])
            return out
        except ValueError:
            pass
    tail = " | ".join(res.stderr.strip().splitlines()[-3:])
    return {"key": key, "ok": False, "error": f"analysis process exited with {res.returncode}: {tail}"}


def _result(d: dict[str, Any]) -> JobResult:
    return JobResult(
        key=d["key"],
        ok=bool(d["ok"]),
        error=d.get("error"),
        duration_ms=int(d.get("duration_ms", 0)),
        wall_s=float(d.get("wall_s", 0.0)),
        cpu_s=float(d.get("cpu_s", 0.0)),
        events=int(d.get("events", 0)),
        stretches=int(d.get("stretches", 0)),
        cached=int(d.get("cached", 0)),
        worker=str(d.get("worker", "")),
    )


# ---- choosing the work -------------------------------------------------------------------------------


def pending_jobs(
    cat: Catalog, *, remote_root: str | None = None, force: bool = False
) -> tuple[list[Job], int]:
    """(jobs, bundles already current). ``force`` re-analyses current bundles too."""
    cat.refresh()
    jobs: list[Job] = []
    current = 0
    for row in cat.games():
        if row["video_segments"] == 0 or row["status"] in ("damaged", "missing"):
            continue
        if row["analysis"] == "current" and not force:
            current += 1
            continue
        path = row["abs_path"]
        if remote_root is not None and not row["linked"]:
            path = str(Path(remote_root) / row["path"])
        jobs.append(Job(row["path"], path, row["video_ms"]))
    jobs.sort(key=lambda j: -j.weight)  # longest first: the pool finishes together
    return jobs, current


# ---- engines -----------------------------------------------------------------------------------------


class _Tracker:
    """Overall fraction done, weighted by video length, from per-bundle fractions."""

    def __init__(self, jobs: Sequence[Job], progress: Progress | None) -> None:
        self.weights = {j.key: j.weight for j in jobs}
        self.total = sum(self.weights.values()) or 1.0
        self.frac: dict[str, float] = {}
        self.done = 0
        self.progress = progress
        self.t0 = time.monotonic()

    def update(self, key: str, frac: float) -> None:
        self.frac[key] = max(self.frac.get(key, 0.0), min(1.0, frac))
        self.show()

    def finished(self, key: str) -> None:
        self.frac[key] = 1.0
        self.done += 1
        self.show()

    def show(self) -> None:
        if self.progress is None:
            return
        f = sum(self.weights[k] * v for k, v in self.frac.items()) / self.total
        self.progress(f, self.done, len(self.weights), time.monotonic() - self.t0)


def run_local(
    jobs: Sequence[Job], workers: int, on_done: Callable[[JobResult], None], tracker: _Tracker
) -> None:
    import multiprocessing as mp

    ctx = mp.get_context("spawn")
    with ctx.Manager() as manager, ProcessPoolExecutor(max_workers=max(1, workers), mp_context=ctx) as pool:
        queue = manager.Queue()
        pending: dict[Future[dict[str, Any]], Job] = {
            pool.submit(analyse_one, j.path, j.key, queue): j for j in jobs
        }
        try:
            while pending:
                done, _ = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
                while not queue.empty():
                    key, frac = queue.get_nowait()
                    tracker.update(key, frac)
                for fut in done:
                    job = pending.pop(fut)
                    try:
                        res = _result(fut.result())
                    except Exception as e:  # the worker process died (out of memory, a crash)
                        res = JobResult(job.key, False, f"worker failed: {type(e).__name__}: {e}")
                    tracker.finished(job.key)
                    on_done(res)
        except BaseException:
            for fut in pending:
                fut.cancel()
            raise


def dask_client(scheduler: str | None, local_cluster: int | None) -> tuple[Any, Any]:
    """(client, cluster or None). A LocalCluster listens on 127.0.0.1 only, without a dashboard."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise RuntimeError('Dask is not installed: pip install "dask[distributed]"') from None
    if scheduler:
        return Client(scheduler, timeout="20s"), None
    import logging

    import dask

    # The workers' statistical profiler samples task stacks every 10 ms: pure overhead for long tasks.
    with dask.config.set({"distributed.worker.profile.enabled": False}):
        cluster = LocalCluster(
            n_workers=max(1, local_cluster or 1),
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            silence_logs=logging.ERROR,
        )
    return Client(cluster), cluster


def run_dask(
    jobs: Sequence[Job],
    client: Any,
    on_done: Callable[[JobResult], None],
    tracker: _Tracker,
) -> None:
    from distributed import as_completed

    futures = {}
    for j in jobs:
        fut = client.submit(
            analyse_in_subprocess, j.path, j.key, key=f"mafiacam-analyse-{j.key}-{time.time_ns()}", pure=False
        )
        futures[fut] = j
    try:
        for fut in as_completed(list(futures)):
            job = futures[fut]
            try:
                res = _result(fut.result())
            except Exception as e:  # a worker lost mid-task, a pickling error
                res = JobResult(job.key, False, f"dask task failed: {type(e).__name__}: {e}")
            tracker.finished(job.key)
            on_done(res)
    except BaseException:
        client.cancel(list(futures))
        raise


def analyse_archive(
    cat: Catalog,
    *,
    workers: int = 1,
    scheduler: str | None = None,
    local_cluster: int | None = None,
    remote_root: str | None = None,
    force: bool = False,
    progress: Progress | None = None,
    on_result: Callable[[JobResult], None] | None = None,
) -> BatchReport:
    jobs, current = pending_jobs(cat, remote_root=remote_root, force=force)
    engine = "local" if scheduler is None and local_cluster is None else "dask"
    report = BatchReport(engine, len(jobs), current)
    analyser = current_analyser()
    tracker = _Tracker(jobs, progress)

    def on_done(res: JobResult) -> None:
        report.results.append(res)
        if res.ok:
            cat.clear_analysis_error(res.key)
        else:
            cat.note_analysis_error(res.key, analyser, res.error or "failed")
        cat.index(cat.abs_path(res.key))
        if on_result:
            on_result(res)

    t0 = time.monotonic()
    if jobs:
        tracker.show()
        if engine == "local":
            run_local(jobs, workers, on_done, tracker)
        else:
            client, cluster = dask_client(scheduler, local_cluster)
            try:
                run_dask(jobs, client, on_done, tracker)
            finally:
                client.close()
                if cluster is not None:
                    cluster.close()
    report.wall_s = round(time.monotonic() - t0, 3)
    return report


def progress_printer(stream: Any = None) -> Progress:
    """``archive analyse [#####.....]  45.0%  3/8 bundles  elapsed 01:02  ETA 01:15`` on one line."""
    from vision.analyzer import progress_printer as bar

    return bar(stream, label="archive analyse", unit="bundles")


if __name__ == "__main__":  # python -m archive.batch BUNDLE KEY: one bundle, the result as a JSON line
    import json

    print(json.dumps(analyse_one(sys.argv[1], sys.argv[2])))
