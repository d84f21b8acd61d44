"""Gesture accuracy on the real photos and clips of ../shared/real_hands (LABELS.tsv).

    .venv/bin/python bench/bench_gestures_real.py [--clip-frames 40] [--synthetic 4]

Images: MediaPipe's hand landmarker (IMAGE mode, up to 4 hands, default confidences), read two ways in
the same run: "single" = one call on the image at native size, then vision.gestures.classify on each
hand; "views" = vision.gesture_reader.read_hands (the image as is and mirrored, a padded crop around
each hand as is and mirrored; the views' gesture probabilities averaged). Nothing is fitted to the
photos by either; the view set was chosen among a few compared on these same photos (all of them gave
the same target accuracy), so the "views" figures carry the same caveat as the classifier's.

- Detection: how many images have at least one hand found, per label.
- Accuracy over the five target gestures (thumb_up, fist, gun, point, palm), scored per image: an
  image is right when one of its hands reads as its label (the label is for the image, and some
  images show two hands making the gesture, or a second hand doing nothing); an image with no hand
  found is wrong ("none"). Confusion matrix rows = label, columns = what was read (the most confident
  hand when none matched). Also the strict per-hand figure (every hand in those images must match).
- `other` handling: images labelled `other` where no hand reads as a target gesture, and what the
  others read as. Hands-on-table and group photos are listed for information.
- Clips (GIF, MP4): up to --clip-frames frames spread over each clip, in IMAGE mode (every frame
  searched afresh) and in VIDEO mode (hands tracked between frames): the share of frames with a hand
  and what the hands read as (the clips have no per-frame labels).

- Synthetic hands (--synthetic N per pose and size, 0 to skip): tablesim.hands.render_hand poses at
  table-camera sizes (50 and 80 px), each cut out with vision.crops as bench_hand_detection.py does,
  read single and with views: the share read as the pose's gesture.

Wilson 95% intervals throughout. The classifier's thresholds were set by looking at the landmarks of
these same photos (no fitted model, no held-out part), so the figures here are optimistic for hands
like these and say nothing about other cameras; the constructed-hand tests check the rules apart.
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import Counter
from pathlib import Path

import av
import cv2
import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchstats import wilson  # noqa: E402

from vision.gesture_reader import read_hands  # noqa: E402
from vision.gestures import GESTURES, TARGETS, GestureResult, classify  # noqa: E402
from vision.landmarker import HandTracker  # noqa: E402

SHARED = ROOT.parent / "shared" / "real_hands"


def fmt(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    pct = 100 * k / n if n else 0.0
    return f"{k}/{n} = {pct:.1f}% (95% CI {100 * lo:.1f}–{100 * hi:.1f}%)"


def clip_frames(path: Path, limit: int) -> list[tuple[int, npt.NDArray[np.uint8]]]:
    """Up to ``limit`` (ms, RGB) frames spread evenly over the clip."""
    with av.open(str(path)) as container:
        frames = [
            (round(float(f.time or 0.0) * 1000), f.to_ndarray(format="rgb24"))
            for f in container.decode(video=0)
        ]
    if len(frames) > limit:
        idx = np.linspace(0, len(frames) - 1, limit).round().astype(int)
        frames = [frames[i] for i in idx]
    out: list[tuple[int, npt.NDArray[np.uint8]]] = []
    last = -1
    for ms, img in frames:  # VIDEO mode needs strictly increasing times
        ms = max(ms, last + 1)
        out.append((ms, np.ascontiguousarray(img)))
        last = ms
    return out


def report(name: str, images: list[dict[str, str]], results: dict[str, list[GestureResult]]) -> None:
    """The target-gesture and `other` sections for one way of reading."""
    # target gestures
    cols = [*GESTURES, "none"]
    confusion = {t: Counter[str]() for t in TARGETS}
    right = 0
    found_right = found_n = 0
    hand_right = hand_n = 0
    wrong: list[str] = []
    conf_bins: dict[str, list[bool]] = {"<0.6": [], "0.6-0.8": [], "0.8-0.9": [], ">=0.9": []}
    target_rows = [r for r in images if r["label"] in TARGETS]
    for r in target_rows:
        res = results.get(r["file"], [])
        label = r["label"]
        match = [x for x in res if x.gesture == label]
        if match:
            pred = label
        elif res:
            pred = max(res, key=lambda x: x.conf).gesture
        else:
            pred = "none"
        confusion[label][pred] += 1
        right += pred == label
        if res:
            found_n += 1
            found_right += pred == label
            best = match[0] if match else max(res, key=lambda x: x.conf)
            b = (
                "<0.6"
                if best.conf < 0.6
                else "0.6-0.8"
                if best.conf < 0.8
                else "0.8-0.9"
                if best.conf < 0.9
                else ">=0.9"
            )
            conf_bins[b].append(pred == label)
        hand_n += len(res)
        hand_right += sum(x.gesture == label for x in res)
        if pred != label:
            wrong.append(
                f"{r['file']} ({label} -> {pred}; {', '.join(f'{x.gesture} {x.conf:.2f}' for x in res)})"
            )
    print(f"\n## [{name}] Target gestures (thumb_up, fist, gun, point, palm), per image")
    print(f"  accuracy, all labelled images:        {fmt(right, len(target_rows))}")
    print(f"  accuracy, images with a hand found:   {fmt(found_right, found_n)}")
    print(f"  strict per hand (hands in those images): {fmt(hand_right, hand_n)}")
    print("\n  confusion (rows: label, columns: read as)")
    print("  " + f"{'':10s}" + "".join(f"{c:>9s}" for c in cols))
    for t in TARGETS:
        print("  " + f"{t:10s}" + "".join(f"{confusion[t][c]:9d}" for c in cols))
    print("\n  calibration (most confident matching hand per image with a hand): conf bin -> accuracy")
    for b, v in conf_bins.items():
        print(f"    {b:8s} {fmt(sum(v), len(v)) if v else '-'}")
    print("\n  wrong:")
    for w in wrong:
        print(f"    {w}")

    # other
    others = [r for r in images if r["label"] == "other"]
    clean = 0
    read_as: Counter[str] = Counter()
    flagged: list[str] = []
    for r in others:
        res = results.get(r["file"], [])
        targets = [x.gesture for x in res if x.gesture != "other"]
        read_as.update(x.gesture for x in res)
        if not targets:
            clean += 1
        else:
            flagged.append(f"{r['file']}: {', '.join(targets)}")
    print(f"\n## [{name}] `other` images")
    print(f"  no hand read as a target gesture: {fmt(clean, len(others))}")
    hands_n = sum(read_as.values())
    print(
        f"  hands found in them: {hands_n}, read as: "
        + ", ".join(f"{g} {n}" for g, n in read_as.most_common())
    )
    print("  images with a hand read as a target gesture:")
    for f in flagged:
        print(f"    {f}")


SYNTH_EXPECTED = {"thumb_up": "thumb_up", "fist": "fist", "gun": "gun", "point": "point", "palm": "palm"}


def synthetic(per_cell: int, sizes: tuple[int, ...] = (50, 80)) -> None:
    """Rendered poses at table-camera sizes, cut out as the detectors do, read single and with views."""
    sys.path.insert(0, str(ROOT / "bench"))
    from bench_hand_detection import WINDOW, frame_for, hand_crop, make_cases

    cases = [c for c in make_cases(per_cell, sizes, blur=0.0, seed=7) if c.pose in SYNTH_EXPECTED]
    print(f"\n## Synthetic hands (tablesim, {len(cases)} cases: {per_cell} per pose and size {sizes})")
    tally: dict[str, dict[str, Counter[str]]] = {"single": {}, "views": {}}
    with HandTracker(num_hands=2) as tracker:
        for case in cases:
            img, truth = frame_for(case)
            crop, _ = hand_crop(img, truth, case.size, WINDOW)
            found = tracker.detect(crop)
            one = classify(found.points[0]).gesture if len(found) else "none"
            many = read_hands(tracker, crop)
            tally["single"].setdefault(case.pose, Counter())[one] += 1
            tally["views"].setdefault(case.pose, Counter())[many[0].result.gesture if many else "none"] += 1
    for name, by_pose in tally.items():
        right = sum(c[SYNTH_EXPECTED[p]] for p, c in by_pose.items())
        n = sum(sum(c.values()) for c in by_pose.values())
        found = sum(sum(v for g, v in c.items() if g != "none") for c in by_pose.values())
        print(f"  [{name}] read as the pose: {fmt(right, n)}; hand found in {found}/{n}")
        for pose, c in sorted(by_pose.items()):
            print(f"    {pose:9s} " + ", ".join(f"{g} {k}" for g, k in c.most_common()))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clip-frames", type=int, default=40)
    ap.add_argument("--synthetic", type=int, default=4, help="synthetic cases per pose and size (0: skip)")
    args = ap.parse_args()
    rows = list(csv.DictReader((SHARED / "LABELS.tsv").open(encoding="utf-8"), delimiter="\t"))
    print(f"{len(rows)} rows in {SHARED / 'LABELS.tsv'}")
    images = [r for r in rows if r["label"] != "clip"]
    clips = [r for r in rows if r["label"] == "clip"]
    single: dict[str, list[GestureResult]] = {}
    views: dict[str, list[GestureResult]] = {}
    with HandTracker(num_hands=4) as tracker:
        for r in images:
            bgr = cv2.imread(str(SHARED / r["file"]), cv2.IMREAD_COLOR)
            if bgr is None:
                print(f"  cannot read {r['file']}")
                continue
            rgb = np.ascontiguousarray(bgr[:, :, ::-1])
            hands = tracker.detect(rgb)
            single[r["file"]] = [classify(hands.points[i]) for i in range(len(hands))]
            views[r["file"]] = [h.result for h in read_hands(tracker, rgb)]
    results = single

    # detection
    print("\n## Detection (images with at least one hand found)")
    by_label: dict[str, list[bool]] = {}
    for r in images:
        by_label.setdefault(r["label"], []).append(bool(results.get(r["file"])))
    for label, found in sorted(by_label.items()):
        print(f"  {label:15s} {fmt(sum(found), len(found))}")
    allf = [f for v in by_label.values() for f in v]
    print(f"  {'all images':15s} {fmt(sum(allf), len(allf))}")

    for name, res in (("single", single), ("views", views)):
        report(name, images, res)
    print("\n## Hands on tables and raised groups (no gesture label)")
    for r in images:
        if r["label"] in ("hands_on_table", "group_raise"):
            res = results.get(r["file"], [])
            print(f"  {r['file']}: {', '.join(f'{x.gesture} {x.conf:.2f}' for x in res) or 'no hand found'}")

    if args.synthetic > 0:
        synthetic(args.synthetic)

    # clips
    print(f"\n## Clips (IMAGE and VIDEO mode, up to {args.clip_frames} frames each)")
    for r in clips:
        path = SHARED / r["file"]
        try:
            frames = clip_frames(path, args.clip_frames)
        except (av.error.FFmpegError, OSError) as e:
            print(f"  {r['file']}: cannot decode ({e})")
            continue
        desc = r["what_it_shows"].split(":", 1)[-1].strip()[:60]
        print(f"  {r['file']}  [{desc}]")
        for mode in ("image", "video"):
            seen = 0
            gestures: Counter[str] = Counter()
            with HandTracker(mode=mode, num_hands=2) as tracker:
                for ms, img in frames:
                    hands = tracker.detect(img, ts_ms=ms)
                    seen += len(hands) > 0
                    gestures.update(classify(hands.points[i]).gesture for i in range(len(hands)))
            read = ", ".join(f"{g} {n}" for g, n in gestures.most_common())
            print(f"    {mode:5s}: hand in {seen}/{len(frames)} frames; {read}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
