"""Speed of ``mafiacam analyze`` on a full-length game, against the naive baseline in the same run.

* ours, with host marks: dense around vote windows and shooting rounds, keyframes elsewhere, 2 workers;
* ours, without marks (``--no-marks``): a sparse scan everywhere, proposals, dense re-analysis of those;
* baseline: every frame decoded and the MediaPipe hand landmarker run on the whole frame (VIDEO mode), on
  one core — timed on ``--baseline-s`` seconds of the video and scaled to its length (the full baseline would
  take hours; its cost per frame is steady).

The game is made by ``mafiacam sim --random --length full`` unless ``--bundle`` names one.

    .venv/bin/python bench/bench_analyzer_speed.py [--bundle DIR | --seed 7] [--baseline-s 60]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def analyse(bundle: Path, *extra: str) -> float:
    shutil.rmtree(bundle / ".analysis", ignore_errors=True)
    t0 = time.monotonic()
    subprocess.run([str(ROOT / ".venv/bin/mafiacam"), "analyze", str(bundle), "--quiet", *extra], check=True)
    return time.monotonic() - t0


def baseline(bundle: Path, seconds: float) -> tuple[float, int]:
    """Seconds per second of video for the naive pipeline, measured on the first ``seconds``."""
    from gamelog.bundle import load_bundle
    from vision.landmarker import HandTracker
    from vision.video import VideoTimeline

    b = load_bundle(bundle)
    tl = VideoTimeline([bundle / v for v in b.game.video])
    frames = 0
    t0 = time.monotonic()
    with HandTracker(mode="video", num_hands=10) as tracker:
        for fr in tl.iter_frames(0, int(seconds * 1000)):
            tracker.detect(fr.image, int(fr.pts_ms))
            frames += 1
    return (time.monotonic() - t0) / seconds, frames


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bundle")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--days", type=int, default=4)
    ap.add_argument("--work", default="/tmp/mafiacam-speed")
    ap.add_argument("--baseline-s", type=float, default=60.0)
    ap.add_argument("--skip-no-marks", action="store_true")
    args = ap.parse_args()
    if args.bundle:
        bundle = Path(args.bundle)
    else:
        bundle = Path(args.work) / f"full-{args.seed}"
        if not (bundle / "truth.json").exists():
            t0 = time.monotonic()
            subprocess.run(
                [
                    str(ROOT / ".venv/bin/mafiacam"),
                    "sim",
                    "--random",
                    "--seed",
                    str(args.seed),
                    "--days",
                    str(args.days),
                    "--length",
                    "full",
                    "--out",
                    str(bundle),
                    "--overwrite",
                    "--quiet",
                ],
                check=True,
            )
            print(f"rendered in {time.monotonic() - t0:.0f} s")
    truth = json.loads((bundle / "truth.json").read_text()) if (bundle / "truth.json").exists() else {}
    from gamelog.bundle import load_bundle
    from vision.video import VideoTimeline

    b = load_bundle(bundle)
    duration = VideoTimeline([bundle / v for v in b.game.video]).duration_ms / 1000.0
    print(f"bundle {bundle}: {duration / 60:.1f} min of video ({truth.get('frame_size', '?')})")
    marked = analyse(bundle)
    print(f"ours, with marks:    {marked:7.1f} s  = {duration / marked:6.1f}x real time")
    if not args.skip_no_marks:
        unmarked = analyse(bundle, "--no-marks")
        print(f"ours, without marks: {unmarked:7.1f} s  = {duration / unmarked:6.1f}x real time")
        analyse(bundle)  # leave the marked analysis in the bundle
    per_s, frames = baseline(bundle, args.baseline_s)
    base_total = per_s * duration
    print(
        f"baseline (whole frame, every frame, 1 core): {per_s:.2f} s per video second over {frames} frames"
        f" -> {base_total / 60:.0f} min for the game = {duration / base_total:.2f}x real time"
    )
    print(f"ratio, ours with marks vs baseline: {base_total / marked:.1f}x faster")
    if not args.skip_no_marks:
        print(f"ratio, ours without marks vs baseline: {base_total / unmarked:.1f}x faster")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
