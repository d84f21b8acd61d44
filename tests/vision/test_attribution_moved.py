"""Whose arm brought a hand to the table, when a neighbour's arm moved nearby a moment before
(``vision.armpath``, ``HandFinder.arm_owner``): only what changed while this zone's hand came in is its arm.

Noisy tuning seeds 1001 (seat 4 at 59.20 s) and 1007 (seat 7 at 47.36 s): the neighbour had voted 0.7–0.9 s
before the player, into its own zone beside the player's. The picture the arm is judged against is taken a
second before the zone's movement, so the neighbour's arm, still lying where it had come to rest, was part of
the change, and it touched the player's own arm: the changed region joined to the player's fist held
2,700 px of the neighbour's sleeve, and the vote went to the neighbour. That sleeve had stopped moving before
this zone's movement began; in the zone's picture from just before its movement it is already there.
Small synthetic frames on the two-seat table of ``test_attribution``: seat 1's body at the lower left, seat
2's at the lower right, the hand in seat 1's zone.
"""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision.test_attribution import _finder  # the same two-seat table
from vision.armpath import arm_pixels
from vision.handfinder import HAND_FLOOR, HandSeen

CLOTH = (30, 90, 56)
BG = (40, 30, 28)
TAN, RED = (170, 140, 100), (124, 37, 46)  # seat 1's clothes, seat 2's
BEIGE = (215, 185, 160)  # clothes near the colour of skin
BLUE = (46, 62, 112)
SKIN = (230, 200, 180)
NONE = np.zeros((21, 3), np.float32)


def _scene() -> np.ndarray:
    img = np.full((360, 400, 3), BG, np.uint8)
    cv2.rectangle(img, (90, 140), (310, 240), CLOTH, -1)
    cv2.rectangle(img, (35, 290), (85, 340), TAN, -1)
    cv2.rectangle(img, (335, 290), (385, 340), RED, -1)
    return img


def _fist_hand() -> HandSeen:
    """An unreadable fist at (150, 190): no landmarks, so the changed region on every side counts."""
    return HandSeen(1, "fist", 0.9, 0.9, (138.0, 178.0, 162.0, 202.0), (150.0, 190.0), 178.0, 1.0, NONE)


def _neighbour_then_own() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A second before (``before``) nothing; then seat 2's red arm came in and stopped with its hand just
    beside where seat 1's fist will land (``still``: the zone's picture just before its own movement); then
    seat 1's tan arm brought the fist (``after``)."""
    before = _scene()
    still = before.copy()
    cv2.line(still, (330, 260), (170, 200), RED, 22)
    cv2.rectangle(still, (163, 193), (180, 207), SKIN, -1)
    after = still.copy()
    cv2.line(after, (150, 190), (110, 240), TAN, 12)
    cv2.rectangle(after, (138, 178), (162, 202), SKIN, -1)
    return before, still, after


def test_a_neighbours_arm_that_settled_before_the_hand_came_is_not_its_arm() -> None:
    """On 0.32 the region joined to the fist held seat 2's sleeve, whose colour is seat 2's: the vote was
    seat 2's reach. What changed since the zone's picture just before its movement is seat 1's arm only."""
    finder = _finder()
    before, still, after = _neighbour_then_own()
    assert finder.arm_owner(before, after, _fist_hand(), 1, before) == 2  # without the zone's still picture
    assert finder.arm_owner(before, after, _fist_hand(), 1, before, still) in (None, 1)
    found = arm_pixels(before, after, (150.0, 190.0), NONE, 24.0, before, recent=still)
    assert found is not None
    pts, _ = found
    assert pts[:, 0].max() < 165  # nothing of seat 2's arm (x 163-330) is left in the region


def test_a_neighbours_reach_moving_with_its_hand_is_still_seen() -> None:
    """A neighbour's reach moves along with the hand it brings: its sleeve changed since the zone's still
    picture, so it is still the neighbour's."""
    finder = _finder()
    before = _scene()
    still = before.copy()
    cv2.line(still, (330, 260), (260, 235), RED, 14)  # the reach on its way, before it entered the zone
    after = before.copy()
    cv2.line(after, (330, 260), (150, 190), RED, 14)
    cv2.rectangle(after, (138, 178), (162, 202), SKIN, -1)
    assert finder.arm_owner(before, after, _fist_hand(), 1, before, still) == 2


def test_a_sleeve_split_by_a_resting_finger_is_still_one_arm() -> None:
    """Clean 1008, seat 1's reach into zone 2 at 37.90 s: seat 1's red sleeve passed under seat 2's resting
    hand, which did not change, so the changed region broke in two beside it. The piece joined to the
    pointing hand was the hand and a short cuff (304 px, too little to judge a sleeve by), and the direction
    kept the hand for the zone's player: seat 2's vote, where the truth has seat 1's reach. Here a resting
    finger 5 px wide lies across seat 2's sleeve: closed over it, the sleeve is one arm again, seat 2's."""
    finder = _finder()
    before = _scene()
    cv2.line(before, (185, 170), (185, 215), SKIN, 5)  # the resting finger, there before and after
    after = _scene()
    cv2.line(after, (330, 250), (160, 193), RED, 16)
    cv2.rectangle(after, (130, 184), (170, 196), SKIN, -1)  # the pointing hand
    cv2.line(after, (185, 170), (185, 215), SKIN, 5)
    hand = HandSeen(1, "other", 0.9, 0.9, (130.0, 184.0, 170.0, 196.0), (150.0, 190.0), 178.0, 1.0, NONE)
    found = arm_pixels(before, after, (150.0, 190.0), NONE, 40.0, before, recent=before)
    assert found is not None and found[1].sum() > 1000  # the sleeve beyond the finger is part of the arm
    assert finder.arm_owner(before, after, hand, 1, before, before) == 2


def test_a_hand_boxed_too_small_is_not_its_own_arm() -> None:
    """Noisy 1007, seat 7 at 47.36 s: the landmarker boxed only the top of seat 7's fist (8 × 11 px, where
    the hand is 47 px long), so the rest of the fist lay beyond the box, on the wrist's side, and counted
    as the arm: its skin colour measured nearest seat 8's beige clothes, and the vote went to seat 8. The
    hand is taken at least ``HAND_FLOOR`` of the zone's hand length across."""
    finder = _finder()
    before = _scene()
    cv2.rectangle(before, (35, 290), (85, 340), BLUE, -1)  # seat 1 in blue
    cv2.rectangle(before, (335, 290), (385, 340), BEIGE, -1)  # seat 2 dressed near skin colour
    after = before.copy()
    cv2.rectangle(after, (138, 178), (162, 212), SKIN, -1)  # the whole fist
    top = HandSeen(1, "fist", 0.9, 0.9, (145.0, 180.0, 155.0, 190.0), (150.0, 185.0), 178.0, 1.0, NONE)
    assert HAND_FLOOR * finder.hand_size(1) > 20  # the floor is larger than the 10-px box here
    assert finder.arm_owner(before, after, top, 1, before, before) in (None, 1)
    found = arm_pixels(before, after, (150.0, 185.0), NONE, 10.0, before, recent=before)
    assert found is not None and found[1].sum() > 100  # with the box's own size the fist's skin is "arm"
