"""Raise zones (night shots): which sightings are raised hands at all (``vision.seatwatch``).

The landmarker is replaced by a finder that reports listed hands (the unit under test is the raise zone's
rules, not MediaPipe; the analyser's end-to-end tests use the real model).
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.handfinder import HandSeen
from vision.seatwatch import RAISE_MIN_SIDE, ZoneWatcher

ZONE = np.array([[100, 100], [200, 100], [200, 180], [100, 180]], dtype=np.float64)
HAND_PX = 30.0  # the seat's hand length, as the finder estimates it


class ListedFinder:
    """Reports, on frame ``i``, the hands listed for it as (x, top, side) squares of seat 3."""

    def __init__(self, hands_per_frame: list[list[tuple[int, int, int]]]) -> None:
        self.hands_per_frame = hands_per_frame
        self.i = 0
        self.calls = 0

    def polygon(self, seat: int, zone: str) -> np.ndarray:
        return ZONE

    def hand_size(self, seat: int) -> float:
        return HAND_PX

    def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
        self.calls += 1
        out = []
        for x, top, side in self.hands_per_frame[min(self.i, len(self.hands_per_frame) - 1)]:
            box = (float(x), float(top), float(x + side), float(top + side))
            centre = (x + side / 2, top + side / 2)
            out.append(HandSeen(3, "gun", 0.9, 0.9, box, centre, float(top), 1.0, np.zeros((21, 3))))
        return out


def _watch(hands_per_frame: list[list[tuple[int, int, int]]]) -> list[str]:
    finder = ListedFinder(hands_per_frame)
    w = ZoneWatcher(finder, seat=3, zone="raise_zone", frame_shape=(300, 300, 3))  # type: ignore[arg-type]
    kinds = []
    for i, hands in enumerate(hands_per_frame):
        finder.i = i
        f = np.full((300, 300, 3), 40, np.uint8)
        for x, top, side in hands:
            f[top : top + max(side, 12), x : x + max(side, 12)] = 230  # the zone sees the movement
        kinds.extend(o.kind for o in w.feed(f, i * 40))
    return kinds


def _rising(side: int) -> list[list[tuple[int, int, int]]]:
    empty: list[tuple[int, int, int]] = []
    return [empty] * 3 + [[(130, 160 - 10 * k, side)] for k in range(5)] + [[(130, 120, side)]] * 8


@pytest.mark.parametrize(
    ("share", "raises"),
    [
        (1.0, 1),  # a gun seen side on: about a hand long
        (0.5, 1),  # the smallest true raise on the tuning games (0.48 of the estimated hand length)
        (0.3, 0),  # a "hand" the landmarker found in a lowered head and its mask (0.31-0.40)
    ],
)
def test_a_raise_is_a_hand_sized_sighting(share: float, raises: int) -> None:
    """Held-out game 508: a 22 px "hand" in seat 3's bowed head and mask, where seat 2's hands are 57 px
    long, was reported as seat 2 raising a hand at night."""
    side = round(share * HAND_PX)
    assert side >= RAISE_MIN_SIDE * HAND_PX or share < RAISE_MIN_SIDE
    assert _watch(_rising(side)).count("shot_raise") == raises
