"""The classifier on real photos through the real MediaPipe model (../shared/real_hands)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.gestures import classify
from vision.landmarker import HandTracker

CASES = [
    ("mediapipe-samples/gesture_hand_thumb_up.jpg", "thumb_up"),
    ("hagrid/gestures_tile_r1c3_fist.png", "fist"),
    ("hagrid/gestures_tile_r4c2_thumb_index.png", "gun"),
    ("hagrid/gestures_tile_r2c2_one.png", "point"),
    ("hagrid/gestures_tile_r2c3_palm.png", "palm"),
    ("hagrid/gestures_tile_r1c2_dislike.png", "other"),  # thumb down
    ("hagrid/gestures_tile_r2c4_peace.png", "other"),
]


@pytest.fixture(scope="module")
def tracker() -> Iterator[HandTracker]:
    with HandTracker(num_hands=1) as t:
        yield t


def read_rgb(path: Path) -> np.ndarray:
    img = cv2.imread(str(path))
    assert img is not None, f"cannot read {path}"
    return np.ascontiguousarray(img[:, :, ::-1])


@pytest.mark.parametrize(("file", "expected"), CASES)
def test_real_gesture(shared_dir: Path, tracker: HandTracker, file: str, expected: str) -> None:
    img = read_rgb(shared_dir / "real_hands" / file)
    hands = tracker.detect(img)
    assert len(hands) == 1, f"MediaPipe found {len(hands)} hands in {file}"
    assert classify(hands.points[0]).gesture == expected
    mirrored = tracker.detect(np.ascontiguousarray(img[:, ::-1]))
    assert len(mirrored) == 1
    assert classify(mirrored.points[0]).gesture == expected, "mirror image"


def test_real_thumb_up_upside_down_is_other(shared_dir: Path, tracker: HandTracker) -> None:
    img = read_rgb(shared_dir / "real_hands" / "mediapipe-samples" / "gesture_hand_thumb_up.jpg")
    flipped = np.ascontiguousarray(img[::-1, ::-1])  # rotated 180°: the thumb points down
    hands = tracker.detect(flipped)
    assert len(hands) == 1
    assert classify(hands.points[0]).gesture == "other"
    assert classify(hands.points[0], image_up=(0.0, 1.0)).gesture == "thumb_up"


def test_real_fist_rotated_stays_fist(shared_dir: Path, tracker: HandTracker) -> None:
    img = read_rgb(shared_dir / "real_hands" / "hagrid" / "gestures_tile_r1c3_fist.png")
    for rot in (cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_180, cv2.ROTATE_90_COUNTERCLOCKWISE):
        hands = tracker.detect(np.ascontiguousarray(cv2.rotate(img, rot)))
        assert len(hands) == 1
        assert classify(hands.points[0]).gesture == "fist", rot
