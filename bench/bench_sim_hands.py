"""Does MediaPipe find tablesim's composited hands? A sanity figure on a built bundle, at its hand size.

For every true ``hand_down`` (a resting vote) and ``shot_raise`` (a raised hand at its peak) in
``truth.json``, the frame is decoded from the bundle's video, a square around the seat's zone (3 hand
lengths, centred on the zone) is cut out and upscaled to 256 px, and MediaPipe's hand landmarker (IMAGE mode,
the project's model) is asked for hands. Prints found / total with a Wilson 95 % interval, per kind, and the
gesture the project's classifier reads. This is not the analyser (``vision`` has its own crops and passes);
it only shows that the synthetic hands are detectable at all, and at what size.

    .venv/bin/python bench/bench_sim_hands.py sample_videos/sample_game
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import av
import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchstats import wilson  # noqa: E402

from vision.gestures import classify  # noqa: E402
from vision.landmarker import HandTracker  # noqa: E402


def main() -> int:
    bundle = Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "sample_videos" / "sample_game")
    truth = json.loads((bundle / "truth.json").read_text(encoding="utf-8"))
    layout = json.loads((bundle / "layout.json").read_text(encoding="utf-8"))
    wanted = [
        (h["frame"] + (2 if h["kind"] == "hand_down" else 0), h)
        for h in truth["hands"]
        if h["kind"] in ("hand_down", "shot_raise")
    ]
    frames: dict[int, np.ndarray] = {}
    need = {f for f, _ in wanted}
    with av.open(str(bundle / "video.mp4")) as box:
        for i, fr in enumerate(box.decode(video=0)):
            if i in need:
                frames[i] = fr.to_ndarray(format="rgb24")
            if len(frames) == len(need):
                break
    tracker = HandTracker(mode="image", num_hands=2)
    found: Counter[str] = Counter()
    total: Counter[str] = Counter()
    gestures: Counter[tuple[str, str]] = Counter()
    sizes = []
    for f, h in wanted:
        img = frames[f]
        zone = "table_zone" if h["kind"] == "hand_down" else "raise_zone"
        poly = np.array(layout["seats"][h["seat"] - 1][zone], np.float64)
        c = poly.mean(axis=0)
        hand = truth["hand_len_px"][str(h["seat"])] * truth["hand_scale"]
        sizes.append(hand)
        half = 1.5 * hand
        x0, y0 = int(max(0, c[0] - half)), int(max(0, c[1] - half))
        x1, y1 = int(min(img.shape[1], c[0] + half)), int(min(img.shape[0], c[1] + half))
        crop = cv2.resize(img[y0:y1, x0:x1], (256, 256), interpolation=cv2.INTER_CUBIC)
        res = tracker.detect(np.ascontiguousarray(crop))
        total[h["kind"]] += 1
        if len(res.points) > 0:
            found[h["kind"]] += 1
            # the hand nearest the zone's centre (the crop may hold resting hands too)
            near = int(np.argmin([np.linalg.norm(p[:, :2].mean(axis=0) - 128.0) for p in res.points]))
            g = classify(res.points[near]).gesture
            gestures[(h["kind"], g)] += 1
    scale = truth["hand_scale"]
    print(f"bundle: {bundle}; hand length {min(sizes):.0f}-{max(sizes):.0f} px (life size x{scale})")
    for kind in ("hand_down", "shot_raise"):
        k, n = found[kind], total[kind]
        lo, hi = wilson(k, n)
        pct = 100 * k / max(n, 1)
        print(f"{kind}: MediaPipe finds {k}/{n} hands ({pct:.0f} %, Wilson 95 % {lo:.2f}-{hi:.2f})")
        read = {g: c for (kk, g), c in gestures.items() if kk == kind}
        print(f"  gestures read: {dict(sorted(read.items()))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
