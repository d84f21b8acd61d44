"""HandLandmarks arrays and the real MediaPipe landmarker behind HandTracker."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from vision import landmarks as lm
from vision.landmarker import HandTracker, TrackerError
from vision.landmarks import HandLandmarks


def make(n: int, *, world: bool = True) -> HandLandmarks:
    rng = np.random.default_rng(n)
    return HandLandmarks(
        points=rng.uniform(0, 100, (n, 21, 3)).astype(np.float32),
        handedness=np.arange(n, dtype=np.int8) % 2,
        score=np.full(n, 0.9, np.float32),
        world=rng.normal(size=(n, 21, 3)).astype(np.float32) if world else None,
    )


def test_joint_constants() -> None:
    assert len(lm.JOINT_NAMES) == lm.NUM_JOINTS == 21
    assert lm.JOINT_NAMES[lm.INDEX_TIP] == "index_tip"
    assert lm.JOINT_NAMES[lm.THUMB_TIP] == "thumb_tip"
    assert lm.FINGERS["pinky"] == (17, 18, 19, 20)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("points", np.zeros((2, 20, 3), np.float32), "points must be"),
        ("points", np.zeros((2, 21, 3), np.float64), "points must be"),
        ("handedness", np.zeros(3, np.int8), "handedness must be"),
        ("score", np.zeros(2, np.float64), "score must be"),
        ("world", np.zeros((1, 21, 3), np.float32), "world must be"),
    ],
)
def test_shapes_are_checked(field: str, value: np.ndarray, message: str) -> None:
    good = make(2)
    kwargs = {"points": good.points, "handedness": good.handedness, "score": good.score, "world": good.world}
    kwargs[field] = value
    with pytest.raises(ValueError, match=message):
        HandLandmarks(**kwargs)


def test_empty_concat_select() -> None:
    e = HandLandmarks.empty()
    assert len(e) == 0 and e.bboxes().shape == (0, 4)
    both = HandLandmarks.concat([make(1), e, make(2)])
    assert len(both) == 3 and both.world is not None
    assert HandLandmarks.concat([make(1), make(1, world=False)]).world is None
    picked = both.select(np.array([False, True, True]))
    assert len(picked) == 2
    np.testing.assert_array_equal(picked.points, both.points[1:])


def test_translate_and_scale_map_crop_to_frame() -> None:
    h = make(1)
    # a crop whose corner is at (300, 200) in the frame, upscaled 2x: frame = corner + crop / 2
    back = h.scale(0.5).translate(300, 200)
    np.testing.assert_allclose(back.points[0, :, 0], h.points[0, :, 0] / 2 + 300, rtol=1e-6)
    np.testing.assert_allclose(back.points[0, :, 1], h.points[0, :, 1] / 2 + 200, rtol=1e-6)
    np.testing.assert_allclose(back.points[0, :, 2], h.points[0, :, 2] / 2, rtol=1e-6)
    assert back.points.dtype == np.float32
    box = back.bboxes()[0]
    assert box[0] == pytest.approx(back.points[0, :, 0].min())
    assert box[3] == pytest.approx(back.points[0, :, 1].max())


def test_from_mediapipe_adapter() -> None:
    def pt(x: float, y: float, z: float) -> SimpleNamespace:
        return SimpleNamespace(x=x, y=y, z=z)

    hand = [pt(0.5, 0.25, -0.1)] * 21
    result = SimpleNamespace(
        hand_landmarks=[hand, hand],
        handedness=[
            [SimpleNamespace(category_name="Left", score=0.8)],
            [SimpleNamespace(category_name="Right", score=0.6)],
        ],
        hand_world_landmarks=[hand, hand],
    )
    h = HandLandmarks.from_mediapipe(result, 640, 480)
    assert h.points.shape == (2, 21, 3)
    np.testing.assert_allclose(h.points[0, 0], [320, 120, -64], rtol=1e-6)
    assert h.handedness.tolist() == [lm.LEFT, lm.RIGHT]
    np.testing.assert_allclose(h.score, [0.8, 0.6], rtol=1e-6)
    assert h.world is not None and h.world.shape == (2, 21, 3)
    none = SimpleNamespace(hand_landmarks=[], handedness=[], hand_world_landmarks=[])
    assert len(HandLandmarks.from_mediapipe(none, 10, 10)) == 0


def read_rgb(path: Path) -> np.ndarray:
    img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    assert img is not None, f"cannot read {path}"
    return np.ascontiguousarray(img[:, :, ::-1])


def test_tracker_finds_a_real_hand_in_image_and_video_mode(shared_dir: Path) -> None:
    img = read_rgb(shared_dir / "real_hands" / "mediapipe-samples" / "gesture_hand_thumb_up.jpg")
    h, w = img.shape[:2]
    with HandTracker(num_hands=1) as tracker:
        hands = tracker.detect(img)
    assert tracker.closed
    assert len(hands) == 1
    x0, y0, x1, y1 = hands.bboxes()[0]
    assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h
    assert (x1 - x0) > w / 8, "the hand fills much of this close-up"
    assert hands.world is not None
    blank = np.zeros_like(img)
    with HandTracker(mode="video", num_hands=1) as tracker:
        seen = [len(tracker.detect(frame, ts_ms=t)) for t, frame in enumerate([img, img, blank], start=1)]
        with pytest.raises(ValueError, match="must increase"):
            tracker.detect(img, ts_ms=2)
        with pytest.raises(ValueError, match="needs ts_ms"):
            tracker.detect(img)
    assert seen == [1, 1, 0]


def test_tracker_rejects_bad_input_and_use_after_close() -> None:
    tracker = HandTracker()
    with pytest.raises(ValueError, match="RGB uint8"):
        tracker.detect(np.zeros((10, 10), np.uint8))
    tracker.close()
    tracker.close()
    with pytest.raises(TrackerError, match="closed"):
        tracker.detect(np.zeros((10, 10, 3), np.uint8))


def test_tracker_reports_a_broken_model(tmp_path: Path) -> None:
    bad = tmp_path / "hand_landmarker.task"
    bad.write_bytes(b"this is not a model bundle")
    with pytest.raises(TrackerError, match="cannot load hand model"):
        HandTracker(bad)
