"""``mafiacam gesture IMAGE...``: the hands in each image and their gestures, one JSON line per image.

    {"file": "a.jpg", "hands": [{"gesture": "thumb_up", "conf": 0.94, "bbox": [x0, y0, x1, y1]}]}

``bbox`` is the box around the hand's 21 landmarks in the image's pixels; ``conf`` is the gesture's
probability (see ``vision.gestures``). Each hand is read from four views (the image as is and mirrored,
a padded crop around the hand as is and mirrored) and the views' probabilities averaged
(``vision.gesture_reader``); ``--single-view`` reads the image once, as it is.
An image that cannot be read gets an error line on stderr naming
it; the other images are still processed and the exit status is 1 at the end.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np


def add_parser(sub: Any, name: str, help_text: str) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        name,
        help=help_text,
        description="The hands in each image and their gestures, one JSON line per image.",
    )
    p.add_argument("images", nargs="+", metavar="IMAGE", help="image files (anything OpenCV reads)")
    p.add_argument("--num-hands", type=int, default=4, help="most hands to report per image (default 4)")
    p.add_argument(
        "--min-detection", type=float, default=0.5, help="palm detector confidence threshold (default 0.5)"
    )
    p.add_argument(
        "--single-view",
        action="store_true",
        help="read each image once as it is (faster; default: four views per hand)",
    )
    return p


def _read_rgb(path: Path) -> np.ndarray:
    if not path.is_file():
        raise OSError("no such file")
    data = np.fromfile(str(path), dtype=np.uint8)
    img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if img is None:
        raise OSError("not an image OpenCV can decode")
    return np.ascontiguousarray(img[:, :, ::-1])


def run(args: argparse.Namespace) -> int:
    # imported here so that `mafiacam --help` does not load MediaPipe
    from vision.gesture_reader import DEFAULT_VIEWS, View, read_hands
    from vision.landmarker import HandTracker, TrackerError
    from vision.models import ModelError

    try:
        tracker = HandTracker(
            num_hands=args.num_hands,
            min_detection_confidence=args.min_detection,
            min_presence_confidence=args.min_detection,
        )
    except (ModelError, TrackerError) as e:
        print(f"mafiacam gesture: {e}", file=sys.stderr)
        return 1
    views = (View(None),) if args.single_view else DEFAULT_VIEWS
    failed = 0
    with tracker:
        for name in args.images:
            try:
                rgb = _read_rgb(Path(name))
            except OSError as e:
                print(f"mafiacam gesture: {name}: cannot read image ({e})", file=sys.stderr)
                failed += 1
                continue
            try:
                found = read_hands(tracker, rgb, views=views)
            except TrackerError as e:
                print(f"mafiacam gesture: {name}: {e}", file=sys.stderr)
                failed += 1
                continue
            hands = []
            h, w = rgb.shape[:2]
            for reading in found[: args.num_hands]:
                x0, y0, x1, y1 = reading.bbox
                bbox = [
                    max(0, math.floor(x0)),
                    max(0, math.floor(y0)),
                    min(w, max(1, math.ceil(x1))),
                    min(h, max(1, math.ceil(y1))),
                ]
                hands.append(
                    {"gesture": reading.result.gesture, "conf": round(reading.result.conf, 3), "bbox": bbox}
                )
            print(json.dumps({"file": name, "hands": hands}, ensure_ascii=False), flush=True)
    return 1 if failed else 0
