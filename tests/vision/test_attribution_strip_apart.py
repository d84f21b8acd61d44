"""A neighbour's reach going back as the zone player's own thumb-up lands (``HandFinder.arm_owner``,
``STRIP_NOT_SLEEVE``): the arm's colour that names the neighbour lies elsewhere in the changed region, and
the forearm strip at the thumb's wrist is clearly not that neighbour's sleeve.

Clean 1809, zone 4 at 39.00 s: seat 5's beige reach lay across zone 4 and went back towards seat 5 as seat
4's black sleeve brought its thumb-up in. The region joined to the thumb was mostly the beige arm's new place
(its median 0.27 from seat 5's clothes), so the vote went to seat 5 as a reach, seat 4's vote and its lift
were lost and six rounds differed. The strip at the wrist, black sleeve and its shadow on the cloth, measured
0.84 from seat 5's clothes and 0.71 from seat 4's: not close enough to seat 4's to keep the thumb by the
rule of 0.38 (SLEEVE_MATCH), clearly not seat 5's.
Small synthetic frames on the two-seat table of ``test_attribution`` (seat 1's body at the lower left, seat
2's at the lower right, the hand in seat 1's zone), with the colours measured on clean 1809.
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

import vision.handfinder as handfinder
from tests.vision.test_attribution import _finder  # the same two-seat table
from vision.handfinder import HandSeen

CLOTH = (30, 90, 56)
BG = (40, 30, 28)
BLACK, BEIGE = (36, 35, 40), (183, 152, 115)  # seat 4's and seat 5's clothes on clean 1809
SHADED = (58, 90, 60)  # the strip at seat 4's wrist: black sleeve and its shadow on the cloth
SKIN = (230, 200, 180)


def _scene() -> np.ndarray:
    img = np.full((360, 400, 3), BG, np.uint8)
    cv2.rectangle(img, (60, 130), (330, 290), CLOTH, -1)
    cv2.rectangle(img, (35, 290), (85, 340), BLACK, -1)  # seat 1's torso
    cv2.rectangle(img, (335, 290), (385, 340), BEIGE, -1)  # seat 2's torso
    return img


def _thumb() -> HandSeen:
    """A thumb-up centred at (150, 190), its wrist at (138, 208): the forearm leaves towards seat 1."""
    wrist = (138.0, 208.0)
    pts = np.zeros((21, 3), np.float32)
    pts[0, :2] = wrist
    pts[1:, :2] = ((21 * 150 - wrist[0]) / 20, (21 * 190 - wrist[1]) / 20)
    return HandSeen(1, "thumb_up", 0.96, 0.96, (140.0, 176.0, 160.0, 206.0), (150.0, 190.0), 176.0, 1.0, pts)


def _reach_going_back() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The stretch's first frame, the frame before (seat 2's beige reach lying across the thumb's place)
    and after (the reach drawn back to lie past the thumb's wrist, the thumb landed on a shaded forearm)."""
    first = _scene()
    before = first.copy()
    cv2.line(before, (335, 300), (150, 190), BEIGE, 14)
    after = first.copy()
    cv2.line(after, (335, 300), (112, 246), BEIGE, 14)
    cv2.line(after, (138, 208), (118, 238), SHADED, 14)
    cv2.rectangle(after, (140, 176), (160, 206), SKIN, -1)
    return first, before, after


def test_a_thumb_whose_wrist_strip_is_not_the_neighbours_sleeve_stays_the_zone_players(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The region's colour is the beige reach's, the strip at the wrist is far from beige: the zone's player
    keeps the thumb (None). 0.38 (strip kept only when it matches the zone player's clothes) gave it to
    seat 2."""
    finder = _finder()
    first, before, after = _reach_going_back()
    hand = _thumb()
    assert finder.arm_owner(before, after, hand, 1, first, before) is None
    strip = finder.last_strip_dist
    assert strip[1] > handfinder.SLEEVE_MATCH  # the 0.38 rule does not keep it...
    assert strip[2] >= handfinder.STRIP_NOT_SLEEVE and strip[2] > strip[1]  # ...this one does
    monkeypatch.setattr(handfinder, "STRIP_NOT_SLEEVE", float("inf"))  # 0.38
    assert finder.arm_owner(before, after, hand, 1, first, before) == 2


def test_a_pointing_hand_on_the_same_arms_is_still_the_neighbours() -> None:
    """Guard: the strip speaks only for a hand in a voting shape; a pointing hand (a reach's shape) is left
    to the region's colour."""
    finder = _finder()
    first, before, after = _reach_going_back()
    pointing = dataclasses.replace(_thumb(), gesture="point")
    assert finder.arm_owner(before, after, pointing, 1, first, before) == 2


def test_a_thumb_on_the_neighbours_own_sleeve_is_still_the_neighbours() -> None:
    """Guard: when the sleeve at the wrist is the neighbour's own (a reach in a voting shape), it stays the
    neighbour's."""
    finder = _finder()
    first, before, _ = _reach_going_back()
    after = first.copy()
    cv2.line(after, (335, 300), (112, 246), BEIGE, 14)
    cv2.line(after, (138, 208), (118, 238), BEIGE, 14)
    cv2.rectangle(after, (140, 176), (160, 206), SKIN, -1)
    assert finder.arm_owner(before, after, _thumb(), 1, first, before) == 2
