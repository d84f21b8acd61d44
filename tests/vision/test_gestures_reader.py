"""vision.gesture_reader: the view geometry, the combination, and real photos through real MediaPipe."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.gesture_reader import (
    DEFAULT_VIEWS,
    View,
    combine,
    crop_matrix,
    read_hands,
    to_image,
)
from vision.gestures import GESTURES, GestureResult, classify
from vision.landmarker import HandTracker


@pytest.mark.parametrize(("angle", "mirror"), [(0.0, False), (0.0, True), (25.0, False), (-40.0, True)])
def test_view_points_map_back_to_the_image(angle: float, mirror: bool) -> None:
    rng = np.random.default_rng(1)
    pts = np.column_stack([rng.uniform(100, 300, 21), rng.uniform(50, 250, 21), rng.uniform(-20, 20, 21)])
    m = crop_matrix(200.0, 150.0, 180.0, 256, angle, mirror)
    view = pts.copy()
    view[:, :2] = pts[:, :2] @ m[:, :2].T + m[:, 2]
    view[:, 2] = pts[:, 2] * 256 / 180.0
    # the centre lands in the middle of the view
    centre = m[:, :2] @ np.array([200.0, 150.0]) + m[:, 2]
    assert np.allclose(centre, [128.0, 128.0])
    back = to_image(view, m)
    assert np.allclose(back, pts, atol=1e-3)
    if mirror and angle == 0.0:  # left and right swap in the view
        assert (view[:, 0] - 128.0) @ (pts[:, 0] - 200.0) < 0


def test_combine_averages_probabilities() -> None:
    a = classify_scores({"fist": 0.6, "point": 0.4})
    b = classify_scores({"point": 0.9, "other": 0.1})
    c = combine([a, b])
    assert c.gesture == "point" and c.conf == pytest.approx(0.65)
    assert sum(c.scores.values()) == pytest.approx(1.0)
    with pytest.raises(ValueError):
        combine([])


def classify_scores(scores: dict[str, float]) -> GestureResult:
    full = {g: scores.get(g, 0.0) for g in GESTURES}
    best = max(full, key=lambda g: full[g])
    return GestureResult(best, full[best], full)


def test_bad_views_and_images() -> None:
    with pytest.raises(ValueError):
        View(0.0)
    with pytest.raises(ValueError):
        View(None, angle=10.0)
    with pytest.raises(ValueError):
        read_hands(_NoHands(), np.zeros((10, 10), np.uint8))
    with pytest.raises(ValueError):
        read_hands(_NoHands(), np.zeros((10, 10, 3), np.uint8), views=(View(0.3),))


class _NoHands:
    def detect(self, image_rgb: np.ndarray, ts_ms: int | None = None) -> object:
        from vision.landmarks import HandLandmarks

        return HandLandmarks.empty()


@pytest.fixture(scope="module")
def tracker() -> Iterator[HandTracker]:
    with HandTracker(num_hands=2) as t:
        yield t


def read_rgb(path: Path) -> np.ndarray:
    img = cv2.imread(str(path))
    assert img is not None, f"cannot read {path}"
    return np.ascontiguousarray(img[:, :, ::-1])


@pytest.mark.parametrize(
    ("file", "expected"),
    [
        ("mediapipe-samples/gesture_hand_thumb_up.jpg", "thumb_up"),
        ("hagrid/gestures_tile_r2c2_one.png", "point"),
        ("hagrid/gestures_tile_r1c2_dislike.png", "other"),
    ],
)
def test_real_photo_every_view_finds_the_hand(
    shared_dir: Path, tracker: HandTracker, file: str, expected: str
) -> None:
    img = read_rgb(shared_dir / "real_hands" / file)
    (single,) = [classify(p) for p in tracker.detect(img).points]
    (hand,) = read_hands(tracker, img)
    assert hand.views == len(DEFAULT_VIEWS) and len(hand.per_view) == hand.views
    assert hand.result.gesture == expected == single.gesture
    # the views' landmarks were mapped back: the box is the single reading's box
    ref = tracker.detect(img).bboxes()[0]
    assert np.allclose(hand.bbox, ref, atol=2.0)
    # a mirrored photo reads the same, its box mirrored
    w = img.shape[1]
    (mirrored,) = read_hands(tracker, np.ascontiguousarray(img[:, ::-1]))
    assert mirrored.result.gesture == expected
    x0, _, x1, _ = mirrored.bbox
    assert abs((w - x1) - hand.bbox[0]) < 0.05 * w and abs((w - x0) - hand.bbox[2]) < 0.05 * w


def test_two_hands_stay_two(shared_dir: Path, tracker: HandTracker) -> None:
    img = read_rgb(shared_dir / "real_hands" / "hagrid" / "gestures_tile_r4c3_thumb_index2.png")
    hands = read_hands(tracker, img)
    assert [h.result.gesture for h in hands] == ["gun", "gun"]
    assert all(h.views == 4 for h in hands)
    assert hands[0].bbox[2] < hands[1].bbox[0] or hands[1].bbox[2] < hands[0].bbox[0]


def test_upside_down_thumb_is_other_in_every_view(shared_dir: Path, tracker: HandTracker) -> None:
    img = read_rgb(shared_dir / "real_hands" / "mediapipe-samples" / "gesture_hand_thumb_up.jpg")
    (hand,) = read_hands(tracker, np.ascontiguousarray(img[::-1, ::-1]))
    assert hand.result.gesture == "other"
    (up,) = read_hands(tracker, np.ascontiguousarray(img[::-1, ::-1]), image_up=(0.0, 1.0))
    assert up.result.gesture == "thumb_up"


def test_blank_image_has_no_hands(tracker: HandTracker) -> None:
    assert read_hands(tracker, np.full((200, 240, 3), 180, np.uint8)) == []
