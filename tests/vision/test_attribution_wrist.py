"""Whose arm brought a hand when two arms share one changed region (``vision.armpath.wrist_strip``,
``HandFinder.arm_owner``): the hand's arm is the one joined to its wrist.

Clean 1105, zone 2 at 38.08 s: seat 1 reached into zone 2 while seat 2 placed its own thumb-up there, seat
2's grey forearm lying across seat 1's blue sleeve. The changed region joined to the thumb held both
sleeves, its median colour was blue, and the vote went to a blue-clad neighbour. The forearm strip leaving
the thumb's wrist is grey: seat 2's own. Noisy 1008, zone 2 at 37.92 s: an unreadable landing boxed with
its cuff (78 px for a 58-px hand) left too little of seat 1's red sleeve beyond the box to judge. Noisy
1003, zone 4 at 38.12 s: an unread fist's region ran on into a neighbour's torso; the cuff joined to the
fist is the player's own.
Small synthetic frames on the two-seat table of ``test_attribution`` (seat 1's body at the lower left,
seat 2's at the lower right, the hand in seat 1's zone).
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

import vision.handfinder as handfinder
from tests.vision.test_attribution import _finder  # the same two-seat table
from vision.armpath import arm_pixels, wrist_strip
from vision.handfinder import HandFinder, HandSeen

CLOTH = (30, 90, 56)
BG = (40, 30, 28)
GREY, BLUE = (103, 103, 110), (46, 62, 112)
TAN, RED = (170, 140, 100), (124, 37, 46)
SKIN = (230, 200, 180)
NONE = np.zeros((21, 3), np.float32)


def _scene(clothes: tuple[tuple[int, int, int], tuple[int, int, int]]) -> np.ndarray:
    img = np.full((360, 400, 3), BG, np.uint8)
    cv2.rectangle(img, (60, 130), (330, 290), CLOTH, -1)
    cv2.rectangle(img, (35, 290), (85, 340), clothes[0], -1)  # seat 1's torso
    cv2.rectangle(img, (335, 290), (385, 340), clothes[1], -1)  # seat 2's torso
    return img


def _thumb(wrist: tuple[float, float]) -> HandSeen:
    """A thumb-up centred at (150, 190) whose landmarks put the wrist at ``wrist`` (the rest at one point,
    so that their mean is the centre)."""
    pts = np.zeros((21, 3), np.float32)
    pts[0, :2] = wrist
    pts[1:, :2] = ((21 * 150 - wrist[0]) / 20, (21 * 190 - wrist[1]) / 20)
    return HandSeen(1, "thumb_up", 0.9, 0.9, (140.0, 176.0, 160.0, 206.0), (150.0, 190.0), 176.0, 1.0, pts)


def _crossing() -> tuple[np.ndarray, np.ndarray]:
    """Seat 1's grey forearm leaves its thumb's wrist (138, 208) towards its body; seat 2's blue reach
    crosses it further out, its pointing hand beyond, both in one movement."""
    before = _scene((GREY, BLUE))
    after = before.copy()
    cv2.line(after, (330, 258), (75, 252), BLUE, 22)
    cv2.rectangle(after, (62, 244), (76, 256), SKIN, -1)
    cv2.line(after, (138, 208), (95, 272), GREY, 16)
    cv2.rectangle(after, (140, 176), (160, 206), SKIN, -1)
    return before, after


def test_the_arm_joined_to_the_wrist_is_the_hands_when_a_reach_crosses_it(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """On 0.34 the region's median colour is the blue reach's, and the thumb-up is seat 2's; the strip
    joined to the wrist is grey, seat 1's own."""
    finder = _finder()
    before, after = _crossing()
    hand = _thumb((138.0, 208.0))
    assert finder.arm_owner(before, after, hand, 1, before, before) in (None, 1)
    assert finder.last_strip_dist[1] < 0.2 < 0.45 < finder.last_strip_dist[2]
    # A pointing hand (a reach's shape) is left to the whole region's colour (clean 1004, zone 8).
    pointing = dataclasses.replace(hand, gesture="point")
    assert finder.arm_owner(before, after, pointing, 1, before, before) == 2
    # Without the strip (0.34's rule) the whole region's colour names the neighbour: the case is real.
    monkeypatch.setattr(HandFinder, "_joined", lambda *a, **k: None)
    assert finder.arm_owner(before, after, hand, 1, before, before) == 2


def test_a_reach_whose_own_sleeve_leaves_the_wrist_is_the_neighbours() -> None:
    """Guard (clean 1104, seat 6 into zone 5): a neighbour's landmarked fist, its blue sleeve joined to the
    wrist and running to its body, stays the neighbour's."""
    finder = _finder()
    before = _scene((GREY, BLUE))
    after = before.copy()
    cv2.line(after, (162, 198), (330, 262), BLUE, 16)
    cv2.rectangle(after, (140, 176), (160, 206), SKIN, -1)
    hand = _thumb((162.0, 198.0))
    assert finder.arm_owner(before, after, hand, 1, before, before) == 2
    assert finder.last_strip_dist[2] < 0.2


def test_the_strip_is_the_forearm_past_the_wrist_only() -> None:
    """``wrist_strip`` keeps the changed pixels past the wrist along the knuckle-to-wrist line, within half
    a hand length; an unread hand gives no strip."""
    before, after = _crossing()
    hand = _thumb((138.0, 208.0))
    found = arm_pixels(before, after, hand.centre, hand.points, 30.0, before, np.array(CLOTH, float), before)
    assert found is not None
    pts, _ = found
    strip = wrist_strip(pts, after, hand.points, 67.0, np.array(CLOTH, float))
    assert strip is not None and strip.sum() > 300
    colours = after[pts[strip, 1].astype(int), pts[strip, 0].astype(int)]
    assert (colours == GREY).all(axis=1).mean() > 0.8  # the grey forearm (the rest: its blurred edge)
    assert (colours == BLUE).all(axis=1).mean() < 0.1  # a corner of the reach, at the strip's far end
    assert not (colours == SKIN).all(axis=1).any()
    assert wrist_strip(pts, after, NONE, 67.0) is None


def test_an_unreadable_landing_boxed_with_its_cuff_is_judged_on_its_sleeve(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Noisy 1008: seat 2's red reach lands as an unreadable blob boxed 94 px wide (hand and cuff) where
    a hand is 67 px long. Taken at its box's size, too little sleeve lies beyond it to judge (0.34: the
    zone's player keeps it); taken at most a hand length across, the red sleeve is seat 2's."""
    finder = _finder()
    before = _scene((TAN, RED))
    after = before.copy()
    cv2.line(after, (330, 262), (175, 200), RED, 14)
    cv2.rectangle(after, (140, 194), (172, 208), SKIN, -1)
    cv2.line(after, (128, 198), (140, 198), SKIN, 4)
    blob = HandSeen(1, "other", 0.3, 0.3, (128.0, 188.0, 222.0, 212.0), (175.0, 200.0), 188.0, 1.0, NONE)
    assert finder.hand_size(1) < 0.75 * (blob.box[2] - blob.box[0])
    assert finder.arm_owner(before, after, blob, 1, before, before) == 2
    monkeypatch.setattr(handfinder, "BLOB_CAP", 1e9)  # 0.34: the box's own size
    assert finder.arm_owner(before, after, blob, 1, before, before) is None


def test_an_unread_fist_keeps_the_cuff_joined_to_it_when_the_region_runs_on(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Noisy 1003, zone 4 at 38.12 s: seat 4's fist, never read, came in on its white sleeve while seat 5
    leaned, and the changed region ran on from the sleeve into seat 5's tan torso: its median colour was
    seat 5's, and the vote went to seat 5. The arm within half a hand length of the fist is seat 4's white
    cuff."""
    finder = _finder()
    white, dark_skin = (205, 205, 205), (120, 70, 50)
    before = _scene((white, TAN))
    after = before.copy()
    cv2.line(after, (100, 264), (300, 272), TAN, 20)  # the neighbour's change the sleeve runs into
    cv2.line(after, (150, 190), (100, 262), white, 16)
    cv2.rectangle(after, (138, 178), (162, 202), dark_skin, -1)
    fist = HandSeen(1, "other", 0.3, 0.3, (138.0, 178.0, 162.0, 202.0), (150.0, 190.0), 178.0, 1.0, NONE)
    assert finder.arm_owner(before, after, fist, 1, before, before) is None
    assert finder.last_strip_dist[1] < 0.2 and finder.last_strip_dist[2] > 0.45
    monkeypatch.setattr(HandFinder, "_joined", lambda *a, **k: None)  # 0.34: the whole region's colour
    assert finder.arm_owner(before, after, fist, 1, before, before) == 2
