"""Whose arm brought a hand to the table, judged against the table's cloth (``vision.armpath``,
``HandFinder.arm_owner``): the cloth shown again where the hand lay is no neighbour's arm, and a sleeve as
bright as the cloth but of another colour is still an arm.

Clean tuning seeds 806 and 906 (bench/RESULTS.md, "Session 7: attribution"): a far-side player's hand rested
at the table's edge from the stretch's start and moved onto the card. Its rest place showed the green cloth
again; the changed region joined to the thumb-up took that in as "the arm", and its colour measured as the
green-clad neighbour's sleeve, so the vote became the neighbour's reach. Clean tuning seeds 920 and 812: a
neighbour's blue sleeve reaching across the green cloth was as bright as the cloth, so the grey difference
kept only its hand and cuff, and the reach was read as the zone player's vote. Small synthetic frames on a
two-seat layout: seat 1's body at the lower left, seat 2's at the lower right, the hand in seat 1's zone.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.test_attribution import _finder  # the same two-seat table
from vision.armpath import CLOTH_NEAR, arm_pixels, cloth_distance
from vision.handfinder import HandSeen

CLOTH = (30, 90, 56)  # the table's green cloth
RED, GREENISH = (124, 37, 46), (50, 95, 62)  # seat 1's clothes; seat 2's, a green near the cloth's
LIGHT_GREEN = (70, 130, 85)  # a sleeve of the cloth's hue, lighter
SKIN = (230, 200, 180)
CLOTH_RGB = np.array(CLOTH, np.float64)
BG = (40, 30, 28)


def _scene(neighbour: tuple[int, int, int] = GREENISH) -> np.ndarray:
    """The table: cloth over the zones, the players' torsos below their head zones."""
    img = np.full((360, 400, 3), BG, np.uint8)
    cv2.rectangle(img, (90, 140), (310, 240), CLOTH, -1)
    cv2.rectangle(img, (35, 290), (85, 340), RED, -1)
    cv2.rectangle(img, (335, 290), (385, 340), neighbour, -1)
    return img


def _fist_hand() -> HandSeen:
    """An unreadable fist at (150, 190): no landmarks, so the whole changed region beyond it counts."""
    pts = np.zeros((21, 3), np.float32)
    return HandSeen(1, "fist", 0.9, 0.9, (138.0, 178.0, 162.0, 202.0), (150.0, 190.0), 178.0, 1.0, pts)


def _moved_from_rest() -> tuple[np.ndarray, np.ndarray]:
    """Seat 1's hand lay since the stretch began at its rest place, towards seat 2's side; now it is a fist
    on the card and the rest place shows the cloth again. Returns (first frame = before, after)."""
    first = _scene()
    cv2.line(first, (165, 199), (205, 222), SKIN, 14)  # the resting hand, joined to where the fist lands
    after = _scene()
    cv2.rectangle(after, (138, 178), (162, 202), SKIN, -1)
    return first, after


def test_the_cloth_a_hand_uncovered_is_not_a_neighbours_sleeve() -> None:
    """On 0.31 the uncovered cloth was the arm: its direction ran to seat 2 and its colour was nearer seat 2's
    green clothes than seat 1's red, so the fist was seat 2's. It is seat 1's own (no neighbour named)."""
    finder = _finder()
    first, after = _moved_from_rest()
    found = arm_pixels(first, after, (150.0, 190.0), np.zeros((21, 3), np.float32), 24.0, first)
    assert found is not None and found[1].sum() > 100  # without the cloth's colour: the rest place is arm
    assert finder.arm_owner(first, after, _fist_hand(), 1, first) is None


def test_a_neighbours_arm_near_the_cloths_colour_still_counts() -> None:
    """Seat 2's sleeve reaching in, of the cloth's hue but lighter, covers the cloth: it is not ruled out as
    uncovered cloth, and the fist is still seat 2's."""
    finder = _finder()
    first = _scene(LIGHT_GREEN)
    after = first.copy()
    cv2.rectangle(after, (138, 178), (162, 202), SKIN, -1)
    cv2.line(after, (150, 190), (330, 250), LIGHT_GREEN, 14)
    none = np.zeros((21, 3), np.float32)
    found = arm_pixels(first, after, (150.0, 190.0), none, 24.0, first)
    with_cloth = arm_pixels(first, after, (150.0, 190.0), none, 24.0, first, CLOTH_RGB)
    assert found is not None and with_cloth is not None
    assert with_cloth[1].sum() >= 0.9 * found[1].sum() > 200
    assert finder.arm_owner(first, after, _fist_hand(), 1, first) == 2


def test_the_cloth_is_the_zones_median_colour() -> None:
    finder = _finder()
    img = _scene()
    cv2.rectangle(img, (138, 178), (162, 202), SKIN, -1)  # a hand covers a little of the zone
    assert tuple(finder.cloth(img, 1).astype(int)) == CLOTH


def test_cloth_distance() -> None:
    cloth = np.array(CLOTH, np.float64)
    rgb = np.array([CLOTH, (18, 54, 34), GREENISH, RED], np.float64)  # the cloth, in shade, green, red
    d = cloth_distance(rgb, cloth)
    assert d[0] == pytest.approx(0.0)
    assert d[1] < 0.3  # shade changes the brightness, not the chromaticity: only the smaller part
    assert d[2] > CLOTH_NEAR and d[3] > 1.0
    with pytest.raises(ValueError, match="cloth_distance"):
        cloth_distance(rgb[:, :2], cloth)


BLUE = (46, 62, 112)  # as bright as the cloth in grey (64 against 68): a grey difference does not see it


def test_a_sleeve_as_bright_as_the_cloth_is_still_seen() -> None:
    """Clean 920: seat 9's blue sleeve reached across seat 8's zone; only the pointing hand and a sliver of
    cuff changed in grey, too little to judge a sleeve by, so the hand was seat 8's vote. Changed in colour,
    the sleeve is the hand's arm, and its colour is seat 2's clothes."""
    finder = _finder()
    first = _scene(BLUE)
    after = first.copy()
    cv2.line(after, (150, 190), (330, 250), BLUE, 14)
    cv2.rectangle(after, (138, 178), (162, 202), SKIN, -1)
    found = arm_pixels(first, after, (150.0, 190.0), np.zeros((21, 3), np.float32), 24.0, first, CLOTH_RGB)
    assert found is not None and found[1].sum() > 500  # the sleeve beyond the hand, not only the hand
    assert finder.arm_owner(first, after, _fist_hand(), 1, first) == 2
    # the zone player's own red sleeve the same way is still the zone player's
    own = first.copy()
    cv2.line(own, (150, 190), (60, 300), RED, 14)
    cv2.rectangle(own, (138, 178), (162, 202), SKIN, -1)
    assert finder.arm_owner(first, own, _fist_hand(), 1, first) in (None, 1)
