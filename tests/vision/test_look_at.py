"""``HandFinder.look_at`` (session 9): one look through a crop around a place, with the real MediaPipe model,
on a real photo of a thumb-up (../shared/real_hands) pasted small onto a table-coloured frame."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

from gamelog.layout import Layout, SeatZones
from vision.handfinder import HandFinder
from vision.landmarker import HandTracker

AT = (900, 500)  # where the photo's top left corner lands in the frame
SIDE = 90  # the photo's longer side once pasted (px)


def _box(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


@pytest.fixture(scope="module")
def finder() -> Iterator[HandFinder]:
    seat = SeatZones(3, _box(820, 440, 1060, 620), _box(820, 200, 1060, 400), _box(900, 640, 980, 720))
    with HandTracker(mode="image", num_hands=2) as tracker:
        yield HandFinder(Layout((1920, 1080), (seat,)), tracker=tracker)


def _frame(shared_dir: Path) -> tuple[np.ndarray, tuple[float, float]]:
    img = cv2.imread(str(shared_dir / "real_hands" / "mediapipe-samples" / "gesture_hand_thumb_up.jpg"))
    assert img is not None
    scale = SIDE / max(img.shape[:2])
    small = cv2.resize(img[:, :, ::-1], None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    frame = np.zeros((1080, 1920, 3), np.uint8)
    frame[:] = (30, 90, 56)
    h, w = small.shape[:2]
    frame[AT[1] : AT[1] + h, AT[0] : AT[0] + w] = small
    return frame, (AT[0] + w / 2, AT[1] + h / 2)


def test_a_look_at_a_place_reads_the_hand_there_with_one_landmarker_call(
    shared_dir: Path, finder: HandFinder
) -> None:
    frame, centre = _frame(shared_dir)
    calls = finder.calls
    hands = finder.look_at(frame, 3, "table_zone", centre, 2.0 * SIDE)
    assert finder.calls == calls + 1
    assert [h.gesture for h in hands] == ["thumb_up"]
    x0, y0, x1, y1 = hands[0].box
    assert AT[0] <= x0 < x1 <= AT[0] + SIDE and AT[1] <= y0 < y1 <= AT[1] + SIDE
    assert hands[0].owner == 3 and hands[0].inside == 1.0


def test_a_look_at_a_bare_place_reads_nothing(shared_dir: Path, finder: HandFinder) -> None:
    frame, _ = _frame(shared_dir)
    assert finder.look_at(frame, 3, "table_zone", (1030.0, 600.0), 60.0) == []


def test_a_thorough_look_after_a_plain_one_on_the_same_frame_does_not_run_the_zone_crop_again(
    shared_dir: Path, finder: HandFinder
) -> None:
    """A settle looks plainly, then thoroughly, at one still frame: the zone crop's detection is kept for
    that frame (IMAGE mode gives the same answer), and only the tiled passes cost landmarker calls."""
    frame, _ = _frame(shared_dir)
    calls = finder.calls
    finder.detect(frame.copy(), 3, "table_zone")
    crop_calls = finder.calls - calls
    assert crop_calls >= 1
    finder.find(frame, 3, "table_zone")
    calls = finder.calls
    again = finder.find(frame, 3, "table_zone", thorough=True)
    same_frame_calls = finder.calls - calls
    calls = finder.calls
    fresh = finder.find(frame.copy(), 3, "table_zone", thorough=True)  # another picture: looked at anew
    fresh_calls = finder.calls - calls
    assert fresh_calls == same_frame_calls + crop_calls
    assert [(h.gesture, h.box) for h in again] == [(h.gesture, h.box) for h in fresh]
