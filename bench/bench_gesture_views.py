"""Which views to read a hand from: subsets of 20 views compared, with a leave-one-out choice.

    .venv/bin/python bench/bench_gesture_views.py [--synthetic 10] [--quarter-turns]

Each image of ../shared/real_hands (LABELS.tsv) is read once with vision.gesture_reader.read_hands over
a family of 20 views (the whole image as is and mirrored; crops with the hand filling 45%, 30% or 20% of
the side, as is and mirrored, turned by 0 or ±20°). Every subset below is then scored from the same
readings (the mean of its views' probabilities), per image as in bench_gestures_real.py: a target
image is right when one of its hands reads as the label; an `other` image when none reads as a target
gesture. Only images with a hand found by the whole-image views count.

Choosing a subset on these photos would fit to them, so the choice itself is checked by leave-one-out:
for each target image, the subset with the most right on the *other* images (ties: `other` images,
then the earlier, cheaper subset) reads the held-out one. The held-out accuracy is the honest figure
for "pick the best views".

--quarter-turns adds 12 views (crops filling 30% and 20%, as is and mirrored, turned by 90, 180 and
270 degrees: the landmark model then sees the hand sideways or upside down, which changes its regression
more than ±20° does) and the subsets that use them; the leave-one-out choice then runs over all subsets.

Synthetic hands: tablesim poses (thumb_up, fist, gun, point, palm) at 50 and 80 px, cut out with
vision.crops as bench_hand_detection.py does, scored the same way per subset.
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_gestures_real import SHARED, SYNTH_EXPECTED, fmt  # noqa: E402

from vision.gesture_reader import DEFAULT_VIEWS, HandReading, View, combine, read_hands  # noqa: E402
from vision.gestures import TARGETS  # noqa: E402
from vision.landmarker import HandTracker  # noqa: E402

WHOLE = (View(None), View(None, True))
FAMILY: tuple[View, ...] = WHOLE + tuple(
    View(fill, mirror, angle)
    for fill in (0.45, 0.3, 0.2)
    for mirror in (False, True)
    for angle in (0, -20, 20)
)
QUARTER_TURNS: tuple[View, ...] = tuple(
    View(fill, mirror, angle) for fill in (0.3, 0.2) for mirror in (False, True) for angle in (90, 180, 270)
)
Pick = Callable[[View], bool]
SUBSETS: dict[str, Pick] = {
    "single (as is)": lambda v: v == View(None),
    "whole, as is + mirrored": lambda v: v in WHOLE,
    "crop 0.3 as is": lambda v: v == View(0.3),
    "crop 0.2 as is": lambda v: v == View(0.2),
    "default: whole + crop 0.3, ×mirror": lambda v: v in DEFAULT_VIEWS,
    "whole + crops 0.3/0.2, ×mirror": lambda v: v in WHOLE or (v.fill in (0.3, 0.2) and v.angle == 0),
    "no rotation (8 views)": lambda v: v.angle == 0,
    "all 20": lambda v: v.angle in (0, -20, 20),
}
TURNS = (90, 180, 270)
TURN_SUBSETS: dict[str, Pick] = {
    "crop 0.3 at 90/180/270, ×mirror": lambda v: v.fill == 0.3 and v.angle in TURNS,
    "default + crop 0.3 at 90/180/270": lambda v: v in DEFAULT_VIEWS or (v.fill == 0.3 and v.angle in TURNS),
    "whole + crops 0.3/0.2 at 0/90/180/270": lambda v: (
        v.fill is None or (v.fill in (0.3, 0.2) and v.angle in (0, *TURNS))
    ),
}


def reading(hand: HandReading, pick: Pick) -> str:
    """The subset's gesture for one hand, or "none" when none of its views found it."""
    rs = [r for v, r in hand.per_view if pick(v)]
    return combine(rs).gesture if rs else "none"


def right(label: str, hands: list[HandReading], pick: Pick) -> bool:
    reads = [reading(h, pick) for h in hands]
    if label in TARGETS:
        return label in reads
    return all(g not in TARGETS for g in reads)


def real(tracker: HandTracker, family: tuple[View, ...]) -> None:
    rows = list(csv.DictReader((SHARED / "LABELS.tsv").open(encoding="utf-8"), delimiter="\t"))
    items: list[tuple[str, list[HandReading]]] = []
    for r in rows:
        if r["label"] not in (*TARGETS, "other"):
            continue
        bgr = cv2.imread(str(SHARED / r["file"]), cv2.IMREAD_COLOR)
        if bgr is None:
            print(f"  cannot read {r['file']}")
            continue
        hands = read_hands(tracker, np.ascontiguousarray(bgr[:, :, ::-1]), views=family)
        if hands:
            items.append((r["label"], hands))
    table = {name: [right(lab, hands, pick) for lab, hands in items] for name, pick in SUBSETS.items()}
    tgt = [i for i, (lab, _) in enumerate(items) if lab in TARGETS]
    oth = [i for i, (lab, _) in enumerate(items) if lab not in TARGETS]
    print(f"## Real photos with a hand found: {len(tgt)} target images, {len(oth)} `other` images")
    print(f"  {'views':38s} {'targets right':34s} `other` clean")
    for name, col in table.items():
        clean = f"{sum(col[i] for i in oth)}/{len(oth)}"
        print(f"  {name:38s} {fmt(sum(col[i] for i in tgt), len(tgt)):34s} {clean}")
    names = list(SUBSETS)
    held = 0
    chosen: list[str] = []
    for i in tgt:

        def key(n: str, i: int = i) -> tuple[int, int, int]:
            return (
                sum(table[n][j] for j in tgt if j != i),
                sum(table[n][j] for j in oth),
                -names.index(n),
            )

        best = max(names, key=key)
        chosen.append(best)
        held += table[best][i]
    print(f"  leave-one-out choice of views, held-out target accuracy: {fmt(held, len(tgt))}")
    print("  chosen: " + ", ".join(f"{n} ×{chosen.count(n)}" for n in dict.fromkeys(chosen)))


def synthetic(tracker: HandTracker, per_cell: int, family: tuple[View, ...]) -> None:
    from bench_hand_detection import WINDOW, frame_for, hand_crop, make_cases

    cases = [c for c in make_cases(per_cell, (50, 80), blur=0.0, seed=11) if c.pose in SYNTH_EXPECTED]
    found: list[tuple[str, list[HandReading]]] = []
    for case in cases:
        img, truth = frame_for(case)
        crop, _ = hand_crop(img, truth, case.size, WINDOW)
        found.append((case.pose, read_hands(tracker, crop, views=family)[:1]))
    print(f"\n## Synthetic hands (tablesim, {len(cases)} cases, {per_cell} per pose and size 50/80 px)")
    for name, pick in SUBSETS.items():
        per_pose = {p: 0 for p in SYNTH_EXPECTED}
        for pose, hands in found:
            per_pose[pose] += bool(hands) and reading(hands[0], pick) == SYNTH_EXPECTED[pose]
        k = sum(per_pose.values())
        print(f"  {name:38s} {fmt(k, len(cases)):34s} " + " ".join(f"{p} {n}" for p, n in per_pose.items()))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--synthetic", type=int, default=10, help="synthetic cases per pose and size (0: skip)")
    ap.add_argument("--quarter-turns", action="store_true", help="add crops turned by 90/180/270 degrees")
    args = ap.parse_args()
    family = FAMILY + QUARTER_TURNS if args.quarter_turns else FAMILY
    if args.quarter_turns:
        SUBSETS.update(TURN_SUBSETS)
    with HandTracker(num_hands=4) as tracker:
        real(tracker, family)
        if args.synthetic > 0:
            synthetic(tracker, args.synthetic, family)
    return 0


if __name__ == "__main__":
    sys.exit(main())
