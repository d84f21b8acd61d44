"""Small hands in a 1080p frame: whole frame vs plain seat crop vs upscaled tight crops.

    .venv/bin/python bench/bench_crops_small_hands.py [--sizes 40,50,60] [--limit N] [--seed 0]

Real hands from ../shared/real_hands (every photo where MediaPipe finds a hand at native size) are
cut out around the found hand, scaled so the hand's longer side is 40, 50 or 60 px (life size at
1080p for a 10-seat table), blended into a 1920×1080 canvas (a plain wood-coloured table, or a noisy
texture) inside a 320×240 seat zone, and searched for with the real MediaPipe hand landmarker by:

  whole     the whole frame (the palm detector sees it at 192×192)
  zone      a plain padded square crop of the seat zone, native pixels
  zone_up   the same crop upscaled to 512 px (cubic)
  tiles     vision.crops.tile_zone windows (4 nominal hand widths, hand_px=50), native pixels
  tiles_up  the same windows upscaled to 256 px (cubic)
  motion    vision.crops.motion_roi (frame without the hand -> with it), upscaled to 256 px

A hand counts as found when a detected hand's box centre lies inside the pasted hand's box. Also
reported: how often the gesture read from the small hand (tiles_up) matches the gesture read from the
same hand at native size. Figures with Wilson 95% intervals; timing per call as a ratio to "whole".
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchstats import wilson  # noqa: E402

from vision.crops import crop_for_zone, detect_in_crops, motion_roi, tile_zone  # noqa: E402
from vision.gestures import classify  # noqa: E402
from vision.landmarker import HandTracker  # noqa: E402

SHARED = ROOT.parent / "shared" / "real_hands"
FRAME_W, FRAME_H = 1920, 1080
ZONE_W, ZONE_H = 320, 240
METHODS = ("whole", "zone", "zone_up", "tiles", "tiles_up", "motion")


@dataclass(frozen=True)
class Source:
    file: str
    patch: npt.NDArray[np.uint8]  # RGB around the hand
    box: tuple[float, float, float, float]  # the hand's box inside the patch
    gesture: str  # read at native size


def load_sources(tracker: HandTracker) -> list[Source]:
    rows = list(csv.DictReader((SHARED / "LABELS.tsv").open(encoding="utf-8"), delimiter="\t"))
    out: list[Source] = []
    for row in rows:
        if row["label"] == "clip":
            continue
        bgr = cv2.imread(str(SHARED / row["file"]), cv2.IMREAD_COLOR)
        if bgr is None:
            continue
        rgb = np.ascontiguousarray(bgr[:, :, ::-1])
        hands = tracker.detect(rgb)
        for i, (x0, y0, x1, y1) in enumerate(hands.bboxes()):
            side = max(x1 - x0, y1 - y0)
            if side < 60:  # too small already to be a fair "native" reference
                continue
            m = 0.6 * side
            cx0, cy0 = int(max(0, x0 - m)), int(max(0, y0 - m))
            cx1, cy1 = int(min(rgb.shape[1], x1 + m)), int(min(rgb.shape[0], y1 + m))
            patch = np.ascontiguousarray(rgb[cy0:cy1, cx0:cx1])
            gesture = classify(hands.points[i]).gesture
            out.append(Source(row["file"], patch, (x0 - cx0, y0 - cy0, x1 - cx0, y1 - cy0), gesture))
    return out


def background(kind: str, rng: np.random.Generator) -> npt.NDArray[np.uint8]:
    if kind == "plain":
        base = np.array([150, 110, 72], np.float32)
        img = base + rng.normal(0, 4, (FRAME_H, FRAME_W, 1)).astype(np.float32)
    else:
        low = cv2.resize(rng.uniform(0, 255, (27, 48, 3)).astype(np.float32), (FRAME_W, FRAME_H))
        high = rng.normal(0, 18, (FRAME_H, FRAME_W, 3)).astype(np.float32)
        img = 0.7 * low + 40 + high
    return np.clip(img, 0, 255).astype(np.uint8)


def paste(
    canvas: npt.NDArray[np.uint8],
    src: Source,
    hand_px: int,
    zone: tuple[int, int, int, int],
    rng: np.random.Generator,
) -> tuple[npt.NDArray[np.uint8], tuple[float, float, float, float]]:
    bx0, by0, bx1, by1 = src.box
    k = hand_px / max(bx1 - bx0, by1 - by0)
    small = cv2.resize(src.patch, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
    sh, sw = small.shape[:2]
    zx0, zy0, zx1, zy1 = zone
    hx, hy = (bx0 + bx1) / 2 * k, (by0 + by1) / 2 * k  # hand centre inside the small patch
    cx = rng.uniform(zx0 + hand_px / 2, zx1 - hand_px / 2)
    cy = rng.uniform(zy0 + hand_px / 2, zy1 - hand_px / 2)
    ox, oy = round(cx - hx), round(cy - hy)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    ell = ((xx - sw / 2) / (sw / 2)) ** 2 + ((yy - sh / 2) / (sh / 2)) ** 2
    alpha = np.clip((1.0 - ell) * 3.0, 0.0, 1.0)[..., None]  # feathered ellipse
    out = canvas.copy()
    x0, y0 = max(ox, 0), max(oy, 0)
    x1, y1 = min(ox + sw, FRAME_W), min(oy + sh, FRAME_H)
    region = out[y0:y1, x0:x1].astype(np.float32)
    part = small[y0 - oy : y1 - oy, x0 - ox : x1 - ox].astype(np.float32)
    a = alpha[y0 - oy : y1 - oy, x0 - ox : x1 - ox]
    out[y0:y1, x0:x1] = (a * part + (1 - a) * region).astype(np.uint8)
    box = (ox + bx0 * k, oy + by0 * k, ox + bx1 * k, oy + by1 * k)
    return out, box


def found(boxes: npt.NDArray[np.float32], truth: tuple[float, float, float, float]) -> int | None:
    for i, (x0, y0, x1, y1) in enumerate(boxes):
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        if truth[0] <= cx <= truth[2] and truth[1] <= cy <= truth[3]:
            return i
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="40,50,60")
    ap.add_argument("--backgrounds", default="plain,noise")
    ap.add_argument("--limit", type=int, default=0, help="use at most N source hands (0: all)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--methods", default=",".join(METHODS), help="comma-separated subset of the methods")
    ap.add_argument("--window-hands", type=float, default=4.0, help="tile window in nominal hand widths")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    methods = [m for m in METHODS if m in args.methods.split(",")]
    wh = args.window_hands
    rng = np.random.default_rng(args.seed)
    with HandTracker(num_hands=2) as tracker:
        sources = load_sources(tracker)
        if args.limit:
            sources = sources[: args.limit]
        print(f"{len(sources)} source hands from {len({s.file for s in sources})} photos", flush=True)
        hits = {(m, s, b): 0 for m in METHODS for s in sizes for b in args.backgrounds.split(",")}
        calls = dict.fromkeys(METHODS, 0)
        secs = dict.fromkeys(METHODS, 0.0)
        agree = {s: [0, 0] for s in sizes}
        n = {(s, b): 0 for s in sizes for b in args.backgrounds.split(",")}
        for bg in args.backgrounds.split(","):
            base = background(bg, rng)
            for size in sizes:
                for src in sources:
                    zx0 = int(rng.integers(0, FRAME_W - ZONE_W))
                    zy0 = int(rng.integers(0, FRAME_H - ZONE_H))
                    zone = (zx0, zy0, zx0 + ZONE_W, zy0 + ZONE_H)
                    poly = [(zone[0], zone[1]), (zone[2], zone[1]), (zone[2], zone[3]), (zone[0], zone[3])]
                    frame, truth = paste(base, src, size, zone, rng)
                    n[(size, bg)] += 1
                    specs = {
                        "whole": None,
                        "zone": [crop_for_zone(frame.shape, poly, max_upscale=1.0)],
                        "zone_up": [crop_for_zone(frame.shape, poly, out_size=512)],
                        "tiles": tile_zone(frame.shape, poly, window_hands=wh, max_upscale=1.0),
                        "tiles_up": tile_zone(frame.shape, poly, window_hands=wh, out_size=256),
                        "motion": [s for s in [motion_roi(base, frame, poly)] if s is not None],
                    }
                    for method, sp in specs.items():
                        if method not in methods:
                            continue
                        t0 = time.perf_counter()
                        if sp is None:
                            hands = tracker.detect(frame)
                            calls[method] += 1
                        else:
                            hands = detect_in_crops(tracker, frame, sp)
                            calls[method] += len(sp)
                        secs[method] += time.perf_counter() - t0
                        i = found(hands.bboxes(), truth)
                        if i is not None:
                            hits[(method, size, bg)] += 1
                            if method == "tiles_up":
                                agree[size][1] += 1
                                agree[size][0] += classify(hands.points[i]).gesture == src.gesture
    print()
    header = f"{'method':9s} " + " ".join(
        f"{f'{s}px {b}':>22s}" for b in args.backgrounds.split(",") for s in sizes
    )
    print(header + f" {'all':>22s}  calls/frame  ms/call")
    for m in methods:
        cells = []
        tot_k = tot_n = 0
        for b in args.backgrounds.split(","):
            for s in sizes:
                k, nn = hits[(m, s, b)], n[(s, b)]
                tot_k, tot_n = tot_k + k, tot_n + nn
                lo, hi = wilson(k, nn)
                cells.append(f"{k:3d}/{nn:<3d} {100 * k / nn:3.0f}% [{100 * lo:2.0f}-{100 * hi:3.0f}]")
        lo, hi = wilson(tot_k, tot_n)
        total = f"{tot_k:3d}/{tot_n:<3d} {100 * tot_k / tot_n:3.0f}% [{100 * lo:2.0f}-{100 * hi:3.0f}]"
        per_frame = calls[m] / max(tot_n, 1)
        ms = 1000 * secs[m] / max(calls[m], 1)
        print(
            f"{m:9s} " + " ".join(f"{c:>22s}" for c in cells) + f" {total:>22s}  {per_frame:11.1f}  {ms:7.1f}"
        )
    if calls["whole"]:
        base_ms = secs["whole"] / calls["whole"]
        ratios = ", ".join(f"{m} {secs[m] / max(sum(n.values()), 1) / base_ms:.2f}x" for m in methods)
        print(f"\ntime per frame relative to one whole-frame call: {ratios}")
    print(
        "gesture at small size (tiles_up) == gesture at native size: "
        + ", ".join(f"{s}px {a}/{t}" for s, (a, t) in agree.items())
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
