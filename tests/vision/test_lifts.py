"""Lifts of a vote (``hand_up``) when the landmarker misread the vote's landing (``vision.seatwatch``).

The landmarker is replaced by a finder that reports listed hands (the unit under test is the table zone's
rules, not MediaPipe; the analyser's end-to-end tests use the real model).
"""

from __future__ import annotations

import numpy as np

from tests.vision.zonefakes import OneZoneFinder
from vision.handfinder import HandSeen
from vision.seatwatch import ZoneWatcher

REST = (105, 150, 28, 18)  # x, y, w, h: the player's relaxed hand at the zone's edge, there all along
VOTE = (160, 112, 18, 30)  # a thumb-up placed beside it


def _hand(box: tuple[int, int, int, int], gesture: str) -> HandSeen:
    x, y, w, h = box
    return HandSeen(
        3, gesture, 0.9, 0.9, (x, y, x + w, y + h), (x + w / 2, y + h / 2), float(y), 1.0, np.zeros((21, 3))
    )


class RestHandFirst(OneZoneFinder):
    """Misses the rest hand on the stretch's first frame; afterwards the one look finds only the rest hand
    (read as a palm), and only a thorough look finds the thumb-up beside it as well."""

    def __init__(self) -> None:
        self.n = 0

    def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
        self.n += 1
        if self.n == 1:
            return []
        out = [_hand(REST, "palm")]
        x, y, w, h = VOTE
        if thorough and frame[y + h // 2, x + w // 2, 0] > 200:
            out.append(_hand(VOTE, "thumb_up"))
        return out


def _frames() -> list[tuple[np.ndarray, int]]:
    out = []
    for i in range(60):
        f = np.full((300, 300, 3), 40, np.uint8)
        x, y, w, h = REST
        f[y : y + h, x : x + w] = 215
        if 5 <= i < 40:  # the vote lands at frame 5 and is lifted at frame 40
            x, y, w, h = VOTE
            f[y : y + h, x : x + w] = 230
        out.append((f, i * 40))
    return out


def test_a_vote_beside_a_rest_hand_missed_at_the_start_is_seen_landing_and_lifted() -> None:
    """Clean 803 and 817, seat 1: the landmarker missed the player's relaxed hand at the vote stretch's
    start, and at the vote's settle found that hand instead of the thumb-up beside it. 0.31 took the rest
    hand for the landing (a "palm" at the right time) and, as it stayed when the thumb-up left, never saw
    the lift. A hand whose place looks as it did when the stretch began lay there: the landing is looked
    for again (found thoroughly), and its lift is seen."""
    w = ZoneWatcher(RestHandFirst(), seat=3, zone="table_zone", frame_shape=(300, 300, 3))  # type: ignore[arg-type]
    obs = [o for f, t in _frames() for o in w.feed(f, t)]
    assert [(o.kind, o.seat, o.t) for o in obs] == [("hand_down", 3, 200), ("hand_up", 3, 1600)]
    assert obs[0].gesture == "thumb_up" and obs[0].box == (160, 112, 178, 142)
