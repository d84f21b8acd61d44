"""Archive batch analysis: hours of video analysed per hour, on 1 and 2 local workers and on Dask.

    .venv/bin/python bench/bench_archive.py [--games 2] [--size 960x540] [--fps 25] [--work DIR]

Makes ``--games`` synthetic games (tablesim random games, ``--length short``, kept in ``--work`` and
reused on the next run), then analyses a fresh copy of that archive (no vision.jsonl, no stretch cache)
three times in this session:

1. local engine, 1 worker process (the baseline);
2. local engine, 2 worker processes;
3. Dask: a LocalCluster of 2 single-threaded worker processes on 127.0.0.1 (cluster start and stop timed
   apart, and included in the Dask total).

Prints throughput (seconds of video per second of wall time = hours per hour) and ratios against the
baseline, the Dask engine's overhead against the 2-worker local run, and whether the three runs wrote
the same ``vision.jsonl`` / ``audio.jsonl`` bytes. The machine is shared: read the ratios, not the
absolute figures, and run it when the machine is quiet.

``--snapshot REV`` runs the whole benchmark on ``git archive REV`` exported into the work folder (with
``MAFIACAM_MODELS`` pointing at this checkout's models), so that files being edited in the working tree
meanwhile cannot change the analyser between the three runs.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from archive.batch import BatchReport, analyse_archive, dask_client  # noqa: E402
from archive.catalog import Catalog  # noqa: E402


def make_games(work: Path, games: int, size: str, fps: int) -> list[Path]:
    out = []
    for seed in range(1, games + 1):
        b = work / "source" / f"{size}-{fps}fps-seed{seed}"
        if not (b / "game.json").is_file():
            shutil.rmtree(b, ignore_errors=True)
            cmd = [sys.executable, "-m", "mafiacam", "sim", "--random", "--seed", str(seed), "--out", str(b)]
            cmd += ["--size", size, "--fps", str(fps), "--length", "short", "--quiet"]
            t0 = time.monotonic()
            subprocess.run(cmd, check=True)
            print(f"made {b.name} in {time.monotonic() - t0:.0f} s", file=sys.stderr)
        out.append(b)
    return out


def fresh_archive(work: Path, name: str, sources: list[Path]) -> Path:
    root = work / "runs" / name
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    for s in sources:
        shutil.copytree(
            s, root / s.name, ignore=shutil.ignore_patterns(".analysis", "vision.jsonl", "audio.jsonl")
        )
    return root


def run(root: Path, **kw: object) -> tuple[BatchReport, float]:
    with Catalog(root) as cat:
        cat.refresh()
        t0 = time.monotonic()
        rep = analyse_archive(cat, **kw)  # type: ignore[arg-type]
        wall = time.monotonic() - t0
    bad = [r for r in rep.results if not r.ok]
    if bad:
        raise SystemExit(f"analysis failed: {bad}")
    return rep, wall


def task_s(rep: BatchReport) -> float:
    """Sum over bundles of the analysis time inside the worker (what the engine does not add)."""
    return sum(r.wall_s for r in rep.results)


def cpu_s(rep: BatchReport) -> float:
    """Sum over bundles of the analysing processes' CPU time."""
    return sum(r.cpu_s for r in rep.results)


def outputs(root: Path) -> dict[str, bytes]:
    return {
        f"{b.name}/{n}": (b / n).read_bytes()
        for b in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))
        for n in ("vision.jsonl", "audio.jsonl")
    }


def in_snapshot(rev: str, work: Path) -> int:
    sha = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", rev], check=True, capture_output=True, text=True
    ).stdout.strip()
    code = work / f"code-{sha}"
    if not (code / "bench" / "bench_archive.py").is_file():
        code.mkdir(parents=True, exist_ok=True)
        tar = subprocess.run(["git", "-C", str(ROOT), "archive", sha], check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(code)], input=tar, check=True)
    env = dict(os.environ, PYTHONPATH=str(code), MAFIACAM_MODELS=str(ROOT / "models"))
    argv = [a for a in sys.argv[1:] if a not in ("--snapshot", rev) and not a.startswith("--snapshot=")]
    print(f"benchmark on a clean export of {sha} in {code}", file=sys.stderr)
    return subprocess.run(
        [sys.executable, str(code / "bench" / "bench_archive.py"), *argv], env=env
    ).returncode


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--size", default="960x540")
    ap.add_argument("--fps", type=int, default=25)
    ap.add_argument("--work", default="/tmp/mafiacam-bench-archive")
    ap.add_argument("--json", help="also write the figures here")
    ap.add_argument("--snapshot", metavar="REV", help="run on a clean export of this git revision")
    args = ap.parse_args()
    work = Path(args.work)
    if args.snapshot:
        return in_snapshot(args.snapshot, work)
    import archive
    import vision.analyzer

    print(
        f"code: {Path(archive.__file__).parent.parent} (analyser {vision.analyzer.VERSION})", file=sys.stderr
    )
    sources = make_games(work, args.games, args.size, args.fps)

    results: dict[str, dict[str, float]] = {}
    written: dict[str, dict[str, bytes]] = {}
    for name, kw in (("local-1", {"workers": 1}), ("local-2", {"workers": 2})):
        root = fresh_archive(work, name, sources)
        rep, wall = run(root, **kw)
        results[name] = {
            "video_s": rep.video_ms / 1000,
            "wall_s": wall,
            "task_s": task_s(rep),
            "cpu_s": cpu_s(rep),
        }
        written[name] = outputs(root)
        print(f"{name}: {rep.video_ms / 1000:.0f} s of video in {wall:.1f} s", file=sys.stderr)

    root = fresh_archive(work, "dask-2", sources)
    t0 = time.monotonic()
    client, cluster = dask_client(None, 2)
    up = time.monotonic() - t0
    client.close()
    cluster.close()
    down = time.monotonic() - t0 - up
    rep, wall = run(root, local_cluster=2)
    results["dask-2"] = {
        "video_s": rep.video_ms / 1000,
        "wall_s": wall,
        "task_s": task_s(rep),
        "cpu_s": cpu_s(rep),
        "cluster_up_s": up,
        "cluster_down_s": down,
    }
    written["dask-2"] = outputs(root)
    print(f"dask-2: {rep.video_ms / 1000:.0f} s of video in {wall:.1f} s", file=sys.stderr)

    base = results["local-1"]["video_s"] / results["local-1"]["wall_s"]
    print(
        f"\n{args.games} games, {args.size} at {args.fps} fps, {results['local-1']['video_s']:.0f} s of video"
    )
    print(
        f"{'engine':<10} {'wall s':>8} {'h video / h':>12} {'vs 1 worker':>12} {'sum of tasks s':>15} "
        f"{'task CPU s':>11}"
    )
    for name, r in results.items():
        thr = r["video_s"] / r["wall_s"]
        r["throughput"] = thr
        print(
            f"{name:<10} {r['wall_s']:>8.1f} {thr:>12.2f} {thr / base:>11.2f}x {r['task_s']:>15.1f} "
            f"{r['cpu_s']:>11.1f}"
        )
    over = results["dask-2"]["wall_s"] / results["local-2"]["wall_s"] - 1
    d = results["dask-2"]
    print(
        f"Dask overhead vs local 2 workers: {over * 100:+.0f}% of wall time "
        f"(cluster start {d['cluster_up_s']:.1f} s, stop {d['cluster_down_s']:.1f} s, "
        "measured apart; the Dask run starts its own cluster)"
    )
    same = written["local-1"] == written["local-2"] == written["dask-2"]
    print(f"vision.jsonl / audio.jsonl identical across the three runs: {same}")
    print(f"load average at the end: {os.getloadavg()[0]:.1f} (2 cores)")
    if args.json:
        Path(args.json).write_text(json.dumps({"results": results, "identical": same}, indent=1))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
