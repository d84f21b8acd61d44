"""Seat crops: geometry, mapping back to the frame, motion windows, and a real small hand found."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.crops import (
    CropSpec,
    crop_around,
    crop_for_zone,
    detect_crop,
    detect_in_crops,
    detect_in_crops_counted,
    extract,
    merge_hands,
    mirrored,
    motion_roi,
    tile_zone,
    upright_angle,
)
from vision.landmarker import HandTracker
from vision.landmarks import HandLandmarks

FRAME = (1080, 1920, 3)
ZONE = [(800, 500), (1120, 500), (1120, 740), (800, 740)]  # 320 x 240


def test_zone_crop_is_padded_square_and_scaled() -> None:
    spec = crop_for_zone(FRAME, ZONE, pad=0.25, out_size=640)
    assert spec.width == spec.height == 480  # 320 * (1 + 2 * 0.25)
    assert (spec.x0 + spec.x1) / 2 == pytest.approx(960, abs=1)
    assert spec.scale == pytest.approx(640 / 480)
    assert spec.out_size == (640, 640)
    native = crop_for_zone(FRAME, ZONE, out_size=64)
    assert native.scale == 1.0, "never downscaled"
    capped = crop_for_zone(FRAME, [(10, 10), (20, 20)], out_size=1000, max_upscale=3.0)
    assert capped.scale == 3.0


@pytest.mark.parametrize(
    ("center", "expect"),
    [
        ((5, 5), (0, 0, 200, 200)),  # shifted inside at the top-left corner
        ((1919, 1079), (1720, 880, 1920, 1080)),  # and at the bottom-right
    ],
)
def test_crops_are_clamped_to_the_frame(center: tuple[float, float], expect: tuple[int, ...]) -> None:
    spec = crop_around(FRAME, center, 200)
    assert (spec.x0, spec.y0, spec.x1, spec.y1) == expect


def test_bigger_than_frame_is_clipped() -> None:
    spec = crop_around((100, 150, 3), (75, 50), 400)
    assert (spec.x0, spec.y0, spec.x1, spec.y1) == (0, 0, 150, 100)


def test_to_frame_inverts_extract() -> None:
    frame = np.zeros(FRAME, np.uint8)
    cv2.circle(frame, (900, 600), 6, (255, 255, 255), -1)
    spec = crop_for_zone(FRAME, ZONE, out_size=1024)
    img = extract(frame, spec)
    assert img.shape[:2] == (spec.out_size[1], spec.out_size[0]) and img.flags.c_contiguous
    ys, xs = np.nonzero(img[:, :, 0] > 128)
    back = spec.to_frame(np.array([[xs.mean(), ys.mean(), 8.0]]))[0]
    assert back[0] == pytest.approx(900, abs=1.0) and back[1] == pytest.approx(600, abs=1.0)
    assert back[2] == pytest.approx(8.0 / spec.scale)
    np.testing.assert_allclose(spec.from_frame(spec.to_frame([[3.0, 4.0]])), [[3.0, 4.0]], atol=1e-4)


def test_tiles_cover_every_hand_position_whole() -> None:
    hand = 50
    specs = tile_zone(FRAME, ZONE, hand_px=hand)
    assert len(specs) > 1
    assert all(s.width == 200 for s in specs)
    # every hand-sized box inside the zone lies whole inside at least one window
    for x in range(800, 1120 - hand + 1, 10):
        for y in range(500, 740 - hand + 1, 10):
            assert any(s.x0 <= x and s.y0 <= y and x + hand <= s.x1 and y + hand <= s.y1 for s in specs)
    small = tile_zone(FRAME, [(900, 600), (960, 640)], hand_px=hand)
    assert len(small) == 1


def test_bad_specs_are_refused() -> None:
    with pytest.raises(ValueError, match="empty crop"):
        CropSpec(5, 5, 5, 10, 1.0)
    with pytest.raises(ValueError, match="scale"):
        CropSpec(0, 0, 5, 5, 0.0)
    with pytest.raises(ValueError, match="does not fit"):
        extract(np.zeros((10, 10, 3), np.uint8), CropSpec(0, 0, 20, 20, 1.0))
    with pytest.raises(ValueError, match="hand_px"):
        tile_zone(FRAME, ZONE, window_hands=1.0, overlap_hands=1.2)


def test_motion_roi_follows_the_moving_blob() -> None:
    prev = np.full(FRAME, 120, np.uint8)
    cur = prev.copy()
    assert motion_roi(prev, cur, ZONE) is None
    cv2.rectangle(cur, (1000, 650), (1040, 700), (250, 200, 180), -1)
    spec = motion_roi(prev, cur, ZONE)
    assert spec is not None
    assert spec.x0 <= 1000 and spec.x1 >= 1040 and spec.y0 <= 650 and spec.y1 >= 700
    assert spec.width <= 200 and spec.scale > 1
    outside = prev.copy()
    cv2.rectangle(outside, (100, 100), (160, 160), (250, 250, 250), -1)
    assert motion_roi(prev, outside, ZONE) is None, "motion outside the zone is ignored"


def _hand_at(x: float, y: float, size: float, score: float) -> HandLandmarks:
    pts = np.zeros((1, 21, 3), np.float32)
    pts[0, :, 0] = np.linspace(x, x + size, 21)
    pts[0, :, 1] = np.linspace(y, y + size, 21)
    return HandLandmarks(pts, np.zeros(1, np.int8), np.array([score], np.float32))


def test_merge_keeps_the_better_of_overlapping_hands() -> None:
    hands = HandLandmarks.concat(
        [_hand_at(0, 0, 50, 0.6), _hand_at(5, 5, 50, 0.9), _hand_at(200, 0, 50, 0.5)]
    )
    merged = merge_hands(hands)
    assert sorted(merged.score.tolist()) == pytest.approx([0.5, 0.9])


def test_tiles_find_a_real_life_size_hand_the_whole_frame_misses(shared_dir: Path) -> None:
    """A real thumbs-up, 50 px tall, in a 1080p frame: lost in the whole frame, found by the tiles."""
    bgr = cv2.imread(str(shared_dir / "real_hands" / "mediapipe-samples" / "gesture_hand_thumb_up.jpg"))
    assert bgr is not None
    rgb = np.ascontiguousarray(bgr[:, :, ::-1])
    with HandTracker(num_hands=1) as tracker:
        native = tracker.detect(rgb)
        assert len(native) == 1
        x0, y0, x1, y1 = native.bboxes()[0]
        k = 50 / max(x1 - x0, y1 - y0)
        small = cv2.resize(rgb, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
        frame = np.full(FRAME, (150, 110, 72), np.uint8)
        oy, ox = 560, 880
        frame[oy : oy + small.shape[0], ox : ox + small.shape[1]] = small
        truth = np.array([x0, y0, x1, y1]) * k + [ox, oy, ox, oy]
        whole = tracker.detect(frame)
        tiled = detect_in_crops(tracker, frame, tile_zone(FRAME, ZONE))
    assert len(whole) == 0
    assert len(tiled) == 1
    np.testing.assert_allclose(tiled.bboxes()[0], truth, atol=8)


def test_mirrored_maps_hands_back_to_the_unmirrored_image() -> None:
    hand = _hand_at(10, 20, 30, 0.8)
    world = np.zeros((1, 21, 3), np.float32)
    world[0, :, 0] = np.linspace(-0.05, 0.05, 21)
    hand = HandLandmarks(hand.points, np.array([0], np.int8), hand.score, world)
    back = mirrored(hand, 100)
    np.testing.assert_allclose(back.points[0, :, 0], 100 - hand.points[0, :, 0])
    np.testing.assert_allclose(back.points[0, :, 1:], hand.points[0, :, 1:])
    np.testing.assert_allclose(back.world[0, :, 0], -world[0, :, 0])  # type: ignore[index]
    assert back.handedness.tolist() == [1]
    np.testing.assert_allclose(mirrored(back, 100).points, hand.points)


class _OnlyOneWay:
    """A detector that finds a hand only when the bright blob is in the image's left half (like a palm
    detector that misses a hand one way round), and counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def detect(self, image_rgb: np.ndarray, ts_ms: int | None = None) -> HandLandmarks:
        self.calls += 1
        ys, xs = np.nonzero(image_rgb[:, :, 0] > 128)
        if len(xs) == 0 or xs.mean() > image_rgb.shape[1] / 2:
            return HandLandmarks.empty()
        return _hand_at(float(xs.min()), float(ys.min()), float(xs.max() - xs.min()), 0.9)


def test_an_empty_crop_is_tried_again_mirrored_only_when_asked() -> None:
    frame = np.zeros(FRAME, np.uint8)
    cv2.rectangle(frame, (1060, 600), (1100, 640), (255, 255, 255), -1)  # right half of the zone crop
    spec = crop_for_zone(FRAME, ZONE)
    det = _OnlyOneWay()
    hands, calls = detect_crop(det, frame, spec)
    assert (len(hands), calls, det.calls) == (0, 1, 1)
    hands, calls = detect_crop(det, frame, spec, retry_mirrored=True)
    assert (len(hands), calls, det.calls) == (1, 2, 3)
    x0, y0, x1, y1 = hands.bboxes()[0]
    assert (x0, y0, x1, y1) == pytest.approx((1060, 600, 1100, 640), abs=2.0), "back in frame pixels"
    # a crop where the first try finds the hand costs one call
    left = np.zeros(FRAME, np.uint8)
    cv2.rectangle(left, (820, 600), (860, 640), (255, 255, 255), -1)
    assert detect_crop(det, left, spec, retry_mirrored=True)[1] == 1
    merged = detect_in_crops(det, frame, [spec], retry_mirrored=True)
    assert len(merged) == 1


@pytest.mark.parametrize("angle", [0.0, 30.0, -90.0, 137.0, 180.0])
def test_turned_crop_maps_points_both_ways(angle: float) -> None:
    spec = crop_around(FRAME, (960, 560), 150, angle=angle)
    pts = np.array([[0.0, 0.0, 5.0], [255.0, 17.5, -3.0], [128.0, 128.0, 0.0]])
    back = spec.from_frame(spec.to_frame(pts))
    np.testing.assert_allclose(back, pts, atol=1e-3)
    # the crop's centre stays the crop's centre; distances scale by `scale` whatever the turn
    centre = spec.to_frame([[spec.width * spec.scale / 2, spec.height * spec.scale / 2]])[0]
    np.testing.assert_allclose(centre, [960, 560], atol=0.5)
    a, b = spec.to_frame(pts[:2, :2])
    apart = float(np.hypot(*(pts[0, :2] - pts[1, :2])))
    assert float(np.hypot(*(a - b))) == pytest.approx(apart / spec.scale)


@pytest.mark.parametrize("angle", [25.0, -90.0, 180.0, 233.0])
def test_turned_crop_shows_what_to_frame_says(angle: float) -> None:
    """The image a turned spec cuts and its point mapping agree: a dot drawn in the frame appears in the
    crop where from_frame puts it, and comes back to the frame through to_frame."""
    frame = np.zeros(FRAME, np.uint8)
    cv2.circle(frame, (1010, 590), 4, (255, 255, 255), -1)
    spec = crop_around(FRAME, (960, 560), 160, angle=angle)
    img = extract(frame, spec)
    assert img.shape[:2] == (spec.out_size[1], spec.out_size[0]) and img.flags.c_contiguous
    ys, xs = np.nonzero(img[:, :, 0] > 128)
    seen = np.array([xs.mean() + 0.5, ys.mean() + 0.5])  # pixel centres -> continuous coordinates
    np.testing.assert_allclose(seen, spec.from_frame([[1010.5, 590.5]])[0], atol=1.0)
    np.testing.assert_allclose(spec.to_frame(seen[None])[0], [1010.5, 590.5], atol=0.5)


@pytest.mark.parametrize(
    ("arm", "angle"), [((0.0, 1.0), 0.0), ((1.0, 0.0), -90.0), ((0.0, -1.0), 180.0), ((-1.0, -1.0), 135.0)]
)
def test_upright_angle_puts_the_arm_at_the_bottom(arm: tuple[float, float], angle: float) -> None:
    assert upright_angle(arm) % 360 == pytest.approx(angle % 360)
    # an "arm": a bar from the crop's centre out along `arm` in the frame
    frame = np.zeros(FRAME, np.uint8)
    c = np.array([960.0, 560.0])
    tip = c + 60 * np.asarray(arm) / np.hypot(*arm)
    cv2.line(frame, (960, 560), (round(tip[0]), round(tip[1])), (255, 255, 255), 7)
    img = extract(frame, crop_around(FRAME, (960, 560), 160, angle=upright_angle(arm)))
    ys, xs = np.nonzero(img[:, :, 0] > 128)
    h, w = img.shape[:2]
    assert ys.mean() > h / 2 + 20 and abs(xs.mean() - w / 2) < 5, "the arm runs straight down the crop"


def test_upright_angle_refuses_no_direction() -> None:
    with pytest.raises(ValueError, match="arm direction"):
        upright_angle((0.0, 0.0))
    with pytest.raises(ValueError, match="angle"):
        CropSpec(0, 0, 5, 5, 1.0, float("nan"))


def test_turned_hands_come_back_with_frame_axes() -> None:
    spec = crop_around(FRAME, (960, 560), 128, angle=90.0, out_size=256)
    hand = _hand_at(100, 120, 40, 0.8)
    world = np.zeros((1, 21, 3), np.float32)
    world[0, :, 0] = np.linspace(0.0, 0.05, 21)  # along the crop's x
    hand = HandLandmarks(hand.points, hand.handedness, hand.score, world)
    back = spec.hands_to_frame(hand)
    np.testing.assert_allclose(back.points, spec.to_frame(hand.points), atol=1e-4)
    # the crop's x axis is the frame's y axis when the crop is turned by 90 degrees
    np.testing.assert_allclose(back.world[0, :, 1], world[0, :, 0], atol=1e-6)  # type: ignore[index]
    np.testing.assert_allclose(back.world[0, :, 0], 0.0, atol=1e-6)  # type: ignore[index]
    assert back.handedness.tolist() == hand.handedness.tolist(), "a turn is not a mirror"


def test_an_empty_crop_is_tried_again_turned() -> None:
    """A retry turned by 180 degrees brings a blob from the crop's right half to its left, where the
    one-way detector finds it; the hand comes back in frame pixels, and each try is counted."""
    frame = np.zeros(FRAME, np.uint8)
    cv2.rectangle(frame, (1060, 660), (1100, 700), (255, 255, 255), -1)  # right of and below the centre
    spec = crop_for_zone(FRAME, ZONE)
    det = _OnlyOneWay()
    hands, calls = detect_crop(det, frame, spec, retries=[spec.turned(90.0), spec.turned(180.0)])
    assert (len(hands), calls, det.calls) == (1, 3, 3)
    np.testing.assert_allclose(hands.bboxes()[0], (1060, 660, 1100, 700), atol=2.5)
    det.calls = 0
    # over several crops: only the empty one is tried again, and the calls are counted
    left = crop_around(FRAME, (1130, 680), 200)  # the blob in this crop's left half: found at once
    hands, calls = detect_in_crops_counted(det, frame, [spec, left], retry_turns=(90.0, 180.0))
    assert (len(hands), calls, det.calls) == (1, 4, 4), "the two finds of one blob merged"
    det.calls = 0
    hands, calls = detect_crop(det, frame, spec, retries=[spec.turned(90.0)], retry_mirrored=True)
    assert (len(hands), calls, det.calls) == (1, 3, 3), "turned first, then mirrored"
    np.testing.assert_allclose(hands.bboxes()[0], (1060, 660, 1100, 700), atol=2.5)


def test_a_real_hand_upside_down_is_found_in_an_upright_crop(shared_dir: Path) -> None:
    """A real thumbs-up turned upside down in a 1080p frame (50 px): the crop turned by the arm's direction
    shows it upright again; the landmarks come back onto the hand in frame pixels."""
    bgr = cv2.imread(str(shared_dir / "real_hands" / "mediapipe-samples" / "gesture_hand_thumb_up.jpg"))
    assert bgr is not None
    rgb = np.ascontiguousarray(bgr[:, :, ::-1])
    with HandTracker(num_hands=1) as tracker:
        native = tracker.detect(rgb)
        assert len(native) == 1
        x0, y0, x1, y1 = native.bboxes()[0]
        k = 60 / max(x1 - x0, y1 - y0)
        small = cv2.resize(rgb, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)[::-1, ::-1]  # turned 180°
        frame = np.full(FRAME, (150, 110, 72), np.uint8)
        oy, ox = 560, 880
        frame[oy : oy + small.shape[0], ox : ox + small.shape[1]] = small
        h, w = small.shape[:2]
        truth = np.array([w - x1 * k + ox, h - y1 * k + oy, w - x0 * k + ox, h - y0 * k + oy])
        cx, cy = (truth[:2] + truth[2:]) / 2
        # the arm comes from above: the crop is turned by 180 degrees
        upright = crop_around(FRAME, (cx, cy), 180, angle=upright_angle((0.0, -1.0)))
        hands, _ = detect_crop(tracker, frame, upright)
    assert len(hands) == 1
    np.testing.assert_allclose(hands.bboxes()[0], truth, atol=8)
