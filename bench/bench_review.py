"""Review window benchmark: what a judge waits for, each against a baseline measured in the same run.

    .venv/bin/python bench/bench_review.py BUNDLE          # an analysed copy of the sample game
    .venv/bin/python bench/bench_review.py BUNDLE --protests 3 --clip-s 3

Prints (median of ``--repeats``):
- recompute after a judge action (load the bundle, referee, derive the panels' data; with ``--protests``
  protests filed, each also refereed without its later judge events) against loading the bundle alone;
- the evidence clip (re-encode ``--clip-s`` seconds with overlays and time code) against decoding the same
  frames alone, and the lossless stream copy;
- the waveform envelope against reading the audio alone.
Runs on a temporary copy of BUNDLE (protests are appended there, never to BUNDLE).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gamelog.bundle import load_bundle  # noqa: E402
from review_ui import judging  # noqa: E402
from review_ui.app import bundle_video, create_app  # noqa: E402
from review_ui.evidence import export_clip, export_copy  # noqa: E402
from review_ui.overlays import DEFAULT_LAYERS  # noqa: E402
from review_ui.review_data import build_review  # noqa: E402
from review_ui.waveform import compute_envelope  # noqa: E402
from vision.onsets import read_audio  # noqa: E402
from vision.video import VideoTimeline  # noqa: E402


def timed(fn: Callable[[], object], repeats: int) -> float:
    out = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return statistics.median(out)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("bundle", type=Path)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--protests", type=int, default=2)
    ap.add_argument("--clip-s", type=float, default=3.0)
    args = ap.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # QPainter on QImage only; no window
    create_app(["bench"])
    with tempfile.TemporaryDirectory() as tmp:
        bundle = Path(tmp) / "game"
        shutil.copytree(args.bundle, bundle)
        data = build_review(bundle)
        events = len(data.bundle.events)
        base = timed(lambda: load_bundle(bundle), args.repeats)
        plain = timed(lambda: build_review(bundle), args.repeats)
        ids = judging.IdMaker.for_events(data.bundle.events)
        rnd = max(data.rounds, key=lambda r: len(r.landings))
        for k in range(args.protests):
            ev = judging.protest(
                ids,
                t=rnd.close_t + k,
                judge="bench",
                by=None,
                seats=(),
                claim="bench",
                from_t=rnd.close_t - 2000,
                until=rnd.close_t + 1000,
            )
            judging.append(bundle, [ev])
        with_protests = timed(lambda: build_review(bundle), args.repeats)
        print(f"events: {events}, vote rounds: {len(data.rounds)}")
        print(f"load bundle (baseline):            {base * 1000:8.1f} ms")
        print(f"recompute (load+referee+panels):   {plain * 1000:8.1f} ms  ×{plain / base:.1f}")
        print(
            f"  with {args.protests} protests (before-states): {with_protests * 1000:8.1f} ms"
            f"  ×{with_protests / base:.1f}"
        )

        _, specs = bundle_video(bundle)
        data = build_review(bundle)
        lo = rnd.close_t - int(args.clip_s * 500)
        hi = lo + int(args.clip_s * 1000)

        def decode_only() -> None:
            tl = VideoTimeline(specs, index=False, background_index=False)
            try:
                for _ in tl.iter_frames(lo, hi):
                    pass
            finally:
                tl.close()

        out = Path(tmp) / "clip.mp4"
        dec = timed(decode_only, args.repeats)
        clip = timed(lambda: export_clip(specs, lo, hi, out, data=data, layers=DEFAULT_LAYERS), args.repeats)
        copy = timed(lambda: export_copy(specs[0].path, lo, hi, Path(tmp) / "copy.mp4"), args.repeats)
        tl = VideoTimeline(specs, index=False, background_index=False)
        w, h = tl.frame_size
        tl.close()
        print(f"decode {args.clip_s:g} s of {w}x{h} (baseline):     {dec * 1000:8.1f} ms")
        print(
            f"clip with overlays + time code:    {clip * 1000:8.1f} ms  ×{clip / dec:.1f}"
            f"  ({clip / args.clip_s:.2f} s per s of video)"
        )
        print(f"lossless stream copy:              {copy * 1000:8.1f} ms  ×{copy / dec:.2f}")

        paths = [s.path for s in specs]
        audio = timed(lambda: read_audio(paths), args.repeats)
        env = timed(lambda: compute_envelope(paths), args.repeats)
        print(f"read audio (baseline):             {audio * 1000:8.1f} ms")
        print(f"waveform envelope:                 {env * 1000:8.1f} ms  ×{env / audio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
