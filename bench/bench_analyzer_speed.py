"""Speed of ``mafiacam analyze`` on a full-length game, against the naive baseline in the same run.

Runs, each from an empty analysis cache, each timed in wall-clock seconds and in CPU seconds of the
analyser's processes (the machine is shared, so CPU time is the steadier figure):

* ours, with host marks: dense around vote windows and shooting rounds, keyframes elsewhere, 2 workers;
* the night watch's cost (#8): by default the night pass alone, timed in this process on the night and
  shooting stretches the analyser plans from the marks; with ``--night run`` a whole second marked analysis
  with the night watch off (``MAFIACAM_NIGHTWATCH=0``);
* ours, without marks (``--no-marks``): a sparse scan everywhere, proposals, dense re-analysis of those;
* baseline: every frame decoded and the MediaPipe hand landmarker run on the whole frame (VIDEO mode, ten
  hands). Run over the whole game it would take hours, so it is timed on ``--pieces`` stretches of
  ``--piece-s`` seconds spread evenly over the same video, and its time per frame is scaled to the game's
  frame count (its cost per frame is steady: it does the same work on every frame).

The game is ``mafiacam sim --random --length full`` (seed 203 plays six days, 63.5 min) unless
``--bundle`` names one; the bench prints its event density (vote windows and shooting per hour).

    nice -n 19 .venv/bin/python bench/bench_analyzer_speed.py --bundle /tmp/speed/full-203
    nice -n 19 .venv/bin/python bench/bench_analyzer_speed.py --seed 203 --days 10 --work /tmp/speed
(the bench renders with ``--fast-render``, see docs/TABLESIM.md)
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


@dataclass(frozen=True)
class Timing:
    wall_s: float
    cpu_s: float
    summary: str  # the analyser's own last line


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _self_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def analyse(bundle: Path, *extra: str, env: dict[str, str] | None = None) -> Timing:
    """One ``mafiacam analyze`` from an empty cache (its worker processes are its children: their CPU
    time is counted once the run has waited for them)."""
    shutil.rmtree(bundle / ".analysis", ignore_errors=True)
    c0, t0 = _children_cpu(), time.monotonic()
    done = subprocess.run(
        [str(ROOT / ".venv/bin/mafiacam"), "analyze", str(bundle), "--quiet", *extra],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
    )
    wall, cpu = time.monotonic() - t0, _children_cpu() - c0
    lines = done.stdout.strip().splitlines()
    return Timing(wall, cpu, lines[-1] if lines else "")


def _copy(bundle: Path, tag: str) -> Path:
    """A copy of the bundle for a concurrent run (its own analysis cache): files copied, the video linked."""
    out = bundle.parent / f"{bundle.name}-{tag}"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    for f in bundle.iterdir():
        if f.is_file():
            (os.link if f.suffix == ".mp4" else shutil.copy2)(f, out / f.name)
    return out


class Running:
    """One analysis started in the background; a thread reaps it the moment it ends (``wait4``: its own CPU
    time and its workers'), so its wall time does not include the time the bench spends elsewhere."""

    def __init__(self, bundle: Path, *extra: str, env: dict[str, str] | None = None) -> None:
        shutil.rmtree(bundle / ".analysis", ignore_errors=True)
        self.t0 = time.monotonic()
        self.proc = subprocess.Popen(
            [str(ROOT / ".venv/bin/mafiacam"), "analyze", str(bundle), "--quiet", *extra],
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, **(env or {})},
        )
        self.out = ""
        self.result: Timing | None = None
        self.status = 0
        self.thread = threading.Thread(target=self._reap, daemon=True)
        self.thread.start()

    def _reap(self) -> None:
        self.out = self.proc.stdout.read() if self.proc.stdout else ""
        _pid, status, usage = os.wait4(self.proc.pid, 0)
        wall = time.monotonic() - self.t0
        self.status = os.waitstatus_to_exitcode(status)
        self.proc.returncode = self.status
        lines = self.out.strip().splitlines()
        self.result = Timing(wall, usage.ru_utime + usage.ru_stime, lines[-1] if lines else "")

    def finish(self) -> Timing:
        self.thread.join()
        if self.status != 0 or self.result is None:
            raise RuntimeError(f"mafiacam analyze failed with exit status {self.status}")
        return self.result


def baseline(bundle: Path, duration_ms: int, pieces: int, piece_s: float) -> tuple[Timing, int, list[int]]:
    """Whole frame, every frame, through the hand landmarker on ``pieces`` stretches spread over the video.
    Returns the timing of the pieces, the frames processed and the pieces' start times (ms)."""
    from gamelog.bundle import load_bundle
    from vision.landmarker import HandTracker
    from vision.video import VideoTimeline

    b = load_bundle(bundle)
    tl = VideoTimeline([bundle / v for v in b.game.video])
    piece_ms = int(piece_s * 1000)
    gap = (duration_ms - piece_ms) / max(1, pieces - 1) if pieces > 1 else 0
    starts = [int(i * gap) for i in range(pieces)]
    frames = 0
    with HandTracker(mode="video", num_hands=10) as tracker:
        c0, t0 = _self_cpu(), time.monotonic()
        for s in starts:
            for fr in tl.iter_frames(s, s + piece_ms):
                tracker.detect(fr.image, int(fr.pts_ms))
                frames += 1
        timing = Timing(time.monotonic() - t0, _self_cpu() - c0, "")
    tl.close()
    return timing, frames, starts


def night_cost(bundle: Path, duration_ms: int) -> tuple[Timing, int]:
    """The night watch alone, in this process, over the night and shooting stretches the analyser plans
    from the marks (what ``run_stretch`` adds to each of them): a cheaper measure of its cost than a whole
    second analysis with ``MAFIACAM_NIGHTWATCH=0``."""
    from gamelog.bundle import load_bundle
    from vision.nightwatch import night_pass
    from vision.schedule import plan, split_for_workers
    from vision.video import VideoTimeline

    b = load_bundle(bundle)
    assert b.layout is not None
    marks = [e for e in b.events if e.src in ("host", "judge")]
    nights = [s for s in split_for_workers(plan(marks, duration_ms)) if s.kind in ("night", "shooting")]
    with VideoTimeline([bundle / v for v in b.game.video]) as tl:
        c0, t0 = _self_cpu(), time.monotonic()
        found = 0
        for st in nights:
            found += len(
                night_pass(tl, b.layout.at(st.start), st.start, st.end, shooting=st.kind == "shooting")
            )
        timing = Timing(time.monotonic() - t0, _self_cpu() - c0, f"{found} night events")
    return timing, len(nights)


def density(bundle: Path, minutes: float) -> str:
    """Vote windows (call to Спасибо) and shooting rounds (first to last number) per hour of the game."""
    from gamelog.bundle import load_bundle

    ev = sorted(load_bundle(bundle).events, key=lambda e: e.t)
    votes_ms, rounds, shots_ms, nights = 0, 0, 0, 0
    call = None
    shot_calls: list[int] = []
    for e in ev:
        if e.TYPE == "vote_call":
            call = e.t
        elif e.TYPE == "vote_stop" and call is not None:
            votes_ms += e.t - call
            rounds += 1
            call = None
        elif e.TYPE == "shot_call":
            shot_calls.append(e.t)
        elif e.TYPE in ("day", "night") and shot_calls:
            shots_ms += shot_calls[-1] - shot_calls[0] + 1500
            nights += 1
            shot_calls = []
    if shot_calls:
        shots_ms += shot_calls[-1] - shot_calls[0] + 1500
        nights += 1
    per_h = 60.0 / minutes
    return (
        f"{rounds} vote rounds, {votes_ms / 1000:.0f} s of vote windows ({votes_ms / 1000 * per_h:.0f} s per"
        f" hour); {nights} shooting rounds, {shots_ms / 1000:.0f} s"
        f" ({shots_ms / 1000 * per_h:.0f} s per hour)"
    )


def render(seed: int, days: int, work: Path) -> Path:
    bundle = work / f"full-{seed}"
    if not (bundle / "truth.json").exists():
        t0 = time.monotonic()
        subprocess.run(
            [
                str(ROOT / ".venv/bin/mafiacam"),
                "sim",
                "--random",
                "--seed",
                str(seed),
                "--days",
                str(days),
                "--length",
                "full",
                "--fast-render",
                "--out",
                str(bundle),
                "--overwrite",
                "--quiet",
            ],
            check=True,
        )
        print(f"rendered in {time.monotonic() - t0:.0f} s")
    return bundle


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bundle", help="an existing full-length bundle (else one is rendered into --work)")
    ap.add_argument("--seed", type=int, default=203)
    ap.add_argument("--days", type=int, default=10)
    ap.add_argument("--work", default="/tmp/mafiacam-speed")
    ap.add_argument("--pieces", type=int, default=4, help="baseline: stretches spread over the game")
    ap.add_argument("--piece-s", type=float, default=30.0, help="baseline: seconds per stretch")
    ap.add_argument("--skip-no-marks", action="store_true")
    ap.add_argument(
        "--night",
        choices=("direct", "run", "skip"),
        default="direct",
        help="night watch cost: timed alone on the planned night stretches (direct), or a whole second"
        " analysis with MAFIACAM_NIGHTWATCH=0 (run)",
    )
    ap.add_argument(
        "--concurrent",
        action="store_true",
        help="run the analyses at the same time as the baseline (each on its own copy of the bundle): wall"
        " times then include each other's load; CPU times stay each run's own",
    )
    args = ap.parse_args()
    bundle = Path(args.bundle) if args.bundle else render(args.seed, args.days, Path(args.work))

    from gamelog.bundle import load_bundle
    from vision.video import VideoTimeline

    b = load_bundle(bundle)
    with VideoTimeline([bundle / v for v in b.game.video], index=False) as tl:
        duration_ms, fps, size = tl.duration_ms, tl.fps, tl.frame_size
    duration = duration_ms / 1000.0
    n_frames = round(duration * fps)
    truth_file = bundle / "truth.json"
    truth = json.loads(truth_file.read_text(encoding="utf-8")) if truth_file.exists() else {}
    print(f"bundle {bundle}: {duration / 60:.1f} min of video, {size[0]}x{size[1]} at {fps:.0f} fps")
    print(f"event density: {density(bundle, duration / 60)}; truth seed {truth.get('seed', '?')}")
    print(f"load average at the start: {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")

    def show(label: str, t: Timing) -> None:
        print(
            f"{label:<34} {t.wall_s:7.1f} s wall = {duration / t.wall_s:5.1f}x real time;"
            f" {t.cpu_s:7.1f} CPU s = {duration / t.cpu_s:5.1f}x real time per core"
        )
        if t.summary:
            print(f"    {t.summary}")

    runs: dict[str, Timing] = {}
    started: dict[str, Running] = {}
    if args.concurrent:
        started["marks"] = Running(_copy(bundle, "marks"))
        if not args.skip_no_marks:
            started["no marks"] = Running(_copy(bundle, "nomarks"), "--no-marks")
        if args.night == "run":
            started["night off"] = Running(_copy(bundle, "nightoff"), env={"MAFIACAM_NIGHTWATCH": "0"})
        print(f"started concurrently: {', '.join(started)}")
    else:
        runs["marks"] = analyse(bundle)
        show("ours, with marks:", runs["marks"])

    # the baseline second: the figure every ratio needs, before the longer runs
    base, frames, starts = baseline(bundle, duration_ms, args.pieces, args.piece_s)
    wall_pf, cpu_pf = base.wall_s / frames, base.cpu_s / frames
    full = Timing(wall_pf * n_frames, cpu_pf * n_frames, "")
    at = ", ".join(f"{s / 60000:.1f}" for s in starts)
    print(
        f"baseline, whole frame every frame: {frames} frames in {args.pieces} pieces of {args.piece_s:.0f} s"
        f" (starting at {at} min): {wall_pf * 1000:.1f} ms wall, {cpu_pf * 1000:.1f} CPU ms per frame"
    )
    show(f"baseline, scaled to {n_frames} frames:", full)

    def ratio(name: str) -> None:
        t = runs[name]
        print(
            f"ratio, ours ({name}) vs baseline: {full.wall_s / t.wall_s:6.1f}x faster in wall time,"
            f" {full.cpu_s / t.cpu_s:6.1f}x less CPU"
        )

    night: tuple[Timing, int] | None = None
    if args.night == "direct" and args.concurrent:
        night = night_cost(bundle, duration_ms)  # while the analyses run
    if args.concurrent:
        for name, running in started.items():
            runs[name] = running.finish()
            show(f"ours, {name}:", runs[name])
            ratio(name)
    else:
        ratio("marks")

    if args.night == "run" and not args.concurrent:
        runs["night off"] = analyse(bundle, env={"MAFIACAM_NIGHTWATCH": "0"})
        show("ours, with marks, night watch off:", runs["night off"])
        ratio("night off")
    elif args.night == "direct":
        nt, stretches = night or night_cost(bundle, duration_ms)
        show(f"night watch alone ({stretches} stretches):", nt)
        on = runs["marks"]
        print(
            f"night watch cost: {nt.cpu_s:.1f} CPU s of the marked analysis' {on.cpu_s:.1f}"
            f" = +{nt.cpu_s / max(1e-9, on.cpu_s - nt.cpu_s) * 100:.0f}% over the analysis without it"
        )
    if not args.skip_no_marks and not args.concurrent:
        runs["no marks"] = analyse(bundle, "--no-marks")
        show("ours, without marks:", runs["no marks"])
        ratio("no marks")

    if "night off" in runs:  # --night run
        on, off = runs["marks"], runs["night off"]
        print(
            f"night watch cost: +{(on.wall_s / off.wall_s - 1) * 100:.0f}% wall,"
            f" +{(on.cpu_s / off.cpu_s - 1) * 100:.0f}% CPU over the marked analysis without it"
        )
    print(f"load average at the end: {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
