"""The wrist strip judged pixel by pixel (``HandFinder._strip_is_own``, STRIP_PIXEL_MATCH).

Clean DD 3505, zone 2 at 66.72 s: seat 2's thumb-up came on a white sleeve shaded to grey across the
forearm, the hand's brown skin at one end of the wrist strip and seat 1's tan reach crossing its other end.
The strip's median colour was nobody's sleeve, nearer the tan than the white, and the vote became a tan-clad
neighbour's reach. Pixel by pixel, most of the strip is the white sleeve. Small synthetic frames on the
two-seat table of ``test_attribution`` (seat 1's body at the lower left, seat 2's at the lower right, the
hand in seat 1's zone).
"""

from __future__ import annotations

import cv2
import numpy as np

import vision.handfinder as handfinder
from tests.vision.test_attribution import _finder  # the same two-seat table
from tests.vision.test_attribution_wrist import TAN, _scene, _thumb

WHITE_CLOTHES = (225, 225, 220)
LIT, SHADED, BROWN = (232, 232, 226), (140, 148, 142), (160, 110, 76)


def _shaded_vote_beside_a_reach(
    clothes: tuple[tuple[int, int, int], tuple[int, int, int]],
) -> tuple[np.ndarray, np.ndarray]:
    before = _scene(clothes)
    after = before.copy()
    cv2.line(after, (146, 206), (146, 290), LIT, 8)  # the sleeve's lit half, straight down from the wrist
    cv2.line(after, (154, 206), (154, 290), SHADED, 8)  # and its shaded half
    cv2.rectangle(after, (140, 176), (160, 208), BROWN, -1)  # the thumb-up
    cv2.line(after, (330, 240), (110, 240), TAN, 10)  # seat 2's reach across the strip's far end
    return before, after


def test_a_shaded_sleeve_keeps_its_vote_when_the_strips_median_is_nobodys(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    finder = _finder()
    before, after = _shaded_vote_beside_a_reach((WHITE_CLOTHES, TAN))
    hand = _thumb((150.0, 208.0))
    assert finder.arm_owner(before, after, hand, 1, before, before) is None  # the zone's player keeps it
    # The median says nothing for either seat (the case is real: it is not the strip's colour that keeps it).
    strip = finder.last_strip_dist
    assert abs(strip[1] - strip[2]) < 0.05 and strip[1] > handfinder.SLEEVE_MATCH * 0.5
    px = finder.last_strip_pixels
    assert px[1] >= handfinder.STRIP_OWN_RATIO * px[2] and px[1] >= 0.5 * (px[1] + px[2])
    # Without the pixel count (0.62) the tan reach's colour names seat 2.
    monkeypatch.setattr(handfinder, "STRIP_OWN_SHARE", 2.0)
    assert finder.arm_owner(before, after, hand, 1, before, before) == 2


def test_players_dressed_alike_leave_the_pixels_saying_nothing() -> None:
    """The count keeps a hand only when the two players' clothes are apart: players dressed alike match the
    same pixels, and which of them a pixel lies nearer says nothing."""
    finder = _finder()
    finder.last_strip_pixels = {1: 400, 2: 100}
    apart = _scene((WHITE_CLOTHES, TAN))
    alike = _scene(((176, 150, 110), TAN))
    assert finder._strip_is_own(apart, 1, 2)
    assert not finder._strip_is_own(alike, 1, 2)
    # Mostly the zone player's, but not clearly more than the named neighbour's: not kept.
    finder.last_strip_pixels = {1: 400, 2: 300}
    assert not finder._strip_is_own(apart, 1, 2)
    finder.last_strip_pixels = {}
    assert not finder._strip_is_own(apart, 1, 2)


def test_pixels_nearest_the_hands_skin_count_for_nobody() -> None:
    rgb = np.array([[160, 110, 76]] * 5 + [[230, 230, 225]] * 3 + [[176, 146, 110]] * 2, np.float64)
    clothes = {1: np.array(WHITE_CLOTHES, np.float64), 2: np.array(TAN, np.float64)}
    got = handfinder._pixels_by_clothes(rgb, clothes, np.array(BROWN, np.float64))
    assert got == {1: 3, 2: 2}
    # Far from every colour: nobody's.
    assert handfinder._pixels_by_clothes(
        np.array([[0, 0, 255]], np.float64), clothes, np.array(BROWN, float)
    ) == {1: 0, 2: 0}
