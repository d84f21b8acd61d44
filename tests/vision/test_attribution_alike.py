"""Whose sleeve an arm is when the neighbours on both sides of a zone are dressed alike
(``HandFinder.arm_owner``, its sleeve rule).

Clean tuning seed 1105, zone 2 at 38.08 s: seat 1 reached into zone 2 (a pointing hand the landmarker never
read) while seat 2 placed its own thumb-up there. Both arms changed together, so the region joined to the
thumb held seat 1's blue sleeve and seat 2's grey one; its median colour was 0.25 from seat 3's blue clothes,
0.27 from seat 1's, 0.63 from seat 2's grey. On 0.33 the sleeve rule named seat 3 (the nearest colour), and
seat 2's vote became seat 3's reach. The colour said only "a blue neighbour's arm", not which: it must tell
the neighbour from every seat the arm could be. Small synthetic frames on a three-seat table: bodies below
the table, seat 1 lower left, seat 2 below its zone, seat 3 lower right; the hand in seat 2's zone.
"""

from __future__ import annotations

import cv2
import numpy as np

from gamelog.layout import Layout, SeatZones
from vision.handfinder import HandFinder, HandSeen

CLOTH = (30, 90, 56)
BG = (40, 30, 28)
BLUE, GREY, RED = (46, 62, 112), (120, 120, 124), (124, 37, 46)
SKIN = (230, 200, 180)
NONE = np.zeros((21, 3), np.float32)


def _finder() -> HandFinder:
    def box(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
        return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))

    seats = (
        SeatZones(1, box(60, 150, 180, 230), box(0, 0, 100, 60), box(30, 230, 90, 290)),
        SeatZones(2, box(190, 150, 310, 230), box(250, 0, 350, 60), box(270, 230, 330, 290)),
        SeatZones(3, box(320, 150, 440, 230), box(500, 0, 600, 60), box(510, 230, 570, 290)),
    )
    return HandFinder(Layout((600, 360), seats), tracker=object())  # type: ignore[arg-type]


def _scene(seat3: tuple[int, int, int]) -> np.ndarray:
    img = np.full((360, 600, 3), BG, np.uint8)
    cv2.rectangle(img, (50, 140), (450, 240), CLOTH, -1)
    cv2.rectangle(img, (35, 290), (85, 340), BLUE, -1)  # seat 1's torso
    cv2.rectangle(img, (275, 290), (325, 340), GREY, -1)  # seat 2's
    cv2.rectangle(img, (515, 290), (565, 340), seat3, -1)  # seat 3's
    return img


def _thumb() -> HandSeen:
    """An unreadable hand at (250, 185): no landmarks, so the changed region on every side counts."""
    return HandSeen(2, "thumb_up", 0.9, 0.9, (238.0, 173.0, 262.0, 197.0), (250.0, 185.0), 173.0, 1.0, NONE)


def _both_arms(seat3: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Seat 2's grey arm brings its thumb to (250, 185) while seat 1's blue arm reaches in beside it, the
    two arms touching: the changed region holds both, more blue than grey."""
    before = _scene(seat3)
    after = before.copy()
    cv2.line(after, (80, 300), (236, 200), BLUE, 26)  # seat 1's reach, its hand under seat 2's
    cv2.line(after, (290, 300), (256, 196), GREY, 12)  # seat 2's own arm
    cv2.rectangle(after, (238, 173), (262, 197), SKIN, -1)
    return before, after


def test_an_arm_as_near_to_both_neighbours_clothes_names_neither() -> None:
    """Seats 1 and 3 both in blue: the colour cannot say which neighbour's arm it is, and the arm does not
    run clearly enough away from seat 2 to give the hand away; seat 2 keeps its vote (0.33: a neighbour)."""
    finder = _finder()
    before, after = _both_arms(BLUE)
    finder.last_sleeve_dist = {}
    assert finder.arm_owner(before, after, _thumb(), 2, before, before) in (None, 2)
    dist = finder.last_sleeve_dist
    assert dist[1] < 0.4 and dist[3] < 0.4 and dist[2] > 0.45  # the sleeve rule was asked, and both matched


def test_an_arm_matching_only_one_neighbour_is_still_that_neighbours() -> None:
    """The same arms with seat 3 in red: the blue sleeve is seat 1's alone, and the rule names it."""
    finder = _finder()
    before, after = _both_arms(RED)
    assert finder.arm_owner(before, after, _thumb(), 2, before, before) == 1
