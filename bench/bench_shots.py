"""Night shots only: the raise zones over a rendered game's shooting stretches, scored against ``truth.json``.

A whole analysis (``bench_vision_accuracy.py``) spends most of its time on vote windows and the night watch.
This bench runs only what decides the shots: the analyser's plan from the host marks, its dense shooting
stretches, the raise-zone watchers on every frame there, and the analyser's merge of raise sightings
(``vision.analyzer._dedupe``). It scores ``shot_raise`` with the right seat within 400 ms, false raises
inside the stretches, and with ``--dump`` writes each game's raise sightings before the merge (JSON), so a
change to the merge can be replayed without the video.

    .venv/bin/python bench/bench_shots.py /tmp/acc2/clean-1920x1080-1.0-401 ... [--dump DIR]

Bundles are only read (nothing is written into them).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchstats import wilson  # noqa: E402

from gamelog.bundle import load_bundle  # noqa: E402
from vision.analyzer import _dedupe, _scaled_layout  # noqa: E402
from vision.handfinder import HandFinder  # noqa: E402
from vision.schedule import DENSE, plan, split_for_workers  # noqa: E402
from vision.seatwatch import Observation, TableWatch  # noqa: E402
from vision.video import VideoTimeline  # noqa: E402

TOLERANCE_MS = 400


def raise_sightings(bundle: Path) -> tuple[list[Observation], list[tuple[int, int]], int]:
    """Every raise zone's sightings over the bundle's marked shooting stretches, before the merge; the
    stretches; the landmarker calls."""
    b = load_bundle(bundle)
    if b.layout is None or not b.game.video:
        raise SystemExit(f"{bundle}: no layout or no video")
    timeline = VideoTimeline([bundle / v for v in b.game.video])
    marks = [e for e in b.events if e.src in ("host", "judge")]
    stretches = [
        s
        for s in split_for_workers(plan(marks, int(timeline.duration_ms) + 1))
        if s.kind == "shooting" and s.mode == DENSE
    ]
    obs: list[Observation] = []
    calls = 0
    for st in stretches:
        layout = b.layout.at(st.start)
        if tuple(layout.frame_size) != tuple(timeline.frame_size):
            layout = _scaled_layout(layout, timeline.frame_size)
        with HandFinder(layout) as finder:
            watch = None
            for fr in timeline.iter_frames(st.start, st.end):
                if watch is None:
                    watch = TableWatch(finder, ("raise_zone",), fr.image.shape)
                obs.extend(o for o in watch.feed(fr.image, int(fr.pts_ms)) if o.kind == "shot_raise")
            calls += finder.calls
    return obs, [(s.start, s.end) for s in stretches], calls


def score(
    truth: dict[str, object], raises: list[Observation], windows: list[tuple[int, int]]
) -> tuple[int, int, list[str], list[str]]:
    """Found with the right seat, true raises, the missed ones, the false ones (inside ``windows``)."""
    hands = truth.get("hands", [])
    assert isinstance(hands, list)
    want = sorted(
        ((int(h["seat"]), int(h["t"])) for h in hands if h["kind"] == "shot_raise"), key=lambda x: x[1]
    )
    got = [(o.seat, o.t) for o in raises]
    used: set[int] = set()
    missed: list[str] = []
    for seat, t in want:
        near = [
            i for i, (s, gt) in enumerate(got) if i not in used and s == seat and abs(gt - t) <= TOLERANCE_MS
        ]
        if near:
            used.add(min(near, key=lambda i: abs(got[i][1] - t)))
        else:
            missed.append(f"seat {seat} at {t / 1000:.2f} s")
    false = [
        f"seat {s} at {t / 1000:.2f} s"
        for i, (s, t) in enumerate(got)
        if i not in used and any(a <= t < b for a, b in windows)
    ]
    return len(want) - len(missed), len(want), missed, false


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("bundles", nargs="+", type=Path, help="rendered games (with truth.json and host marks)")
    ap.add_argument("--dump", type=Path, help="write each game's raise sightings before the merge here")
    args = ap.parse_args()
    found = total = false_n = calls = 0
    t0 = time.monotonic()
    for bundle in args.bundles:
        obs, windows, n = raise_sightings(bundle)
        calls += n
        raises = [o for o in _dedupe(obs) if o.kind == "shot_raise"]
        truth = json.loads((bundle / "truth.json").read_text(encoding="utf-8"))
        ok, want, missed, false = score(truth, raises, windows)
        found, total, false_n = found + ok, total + want, false_n + len(false)
        print(
            f"{bundle.name}: {ok}/{want}"
            + "".join(f"; missed {m}" for m in missed)
            + "".join(f"; false {f}" for f in false),
            flush=True,
        )
        if args.dump:
            args.dump.mkdir(parents=True, exist_ok=True)
            rows = {"windows": windows, "sightings": [dataclasses.asdict(o) for o in obs]}
            (args.dump / f"{bundle.name}.json").write_text(json.dumps(rows), encoding="utf-8")
    lo, hi = wilson(found, total)
    print(f"\nshots with the right seat: {found}/{total} [{lo:.3f}, {hi:.3f}], false {false_n}")
    print(f"landmarker calls {calls}; {time.monotonic() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
