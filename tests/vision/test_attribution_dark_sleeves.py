"""A neighbour's sleeve among dark clothes (``HandFinder._sleeve_owner``, ``SLEEVE_TIGHT``).

Clean 1608, zone 5 at 37.84 s: seat 6's dark grey sleeve reached into zone 5 with its arm straight up the
picture (39° from seat 5's body, 53° from seat 6's). The sleeve measured 0.13 from seat 6's clothes and 0.43
from seat 5's black: under SLEEVE_APART (0.45), so the colour said nothing, the direction named seat 5, the
reach became seat 5's vote, and seat 5's true vote 1.8 s later was dropped as that hand coming back (two
rounds lost). Same two-seat table as ``test_attribution``: seat 1's body lower left, seat 2's lower right.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.test_attribution import _blank, _finder, _fist, _hand
from vision.handfinder import SLEEVE_APART, _colour_distance

BLACK = (26, 26, 28)  # seat 1, the zone's player
DARK_GREY = (70, 70, 75)  # seat 2, the neighbour
GREY_SLEEVE = (62, 62, 66)  # seat 2's sleeve in the table's light


def _straight_down(sleeve: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Before and after a fist landed in seat 1's zone with a sleeve running straight down the picture from
    it: towards neither body (36° from seat 1's, 59° from seat 2's), as in clean 1608."""
    before = _blank((BLACK, DARK_GREY))
    after = _fist(before)
    cv2.line(after, (150, 202), (150, 300), sleeve, 14)
    return before, after


def test_the_case_is_below_the_old_threshold() -> None:
    """The synthetic colours reproduce 1608's: own player between SLEEVE_TIGHT_RATIO times the neighbour's
    distance and SLEEVE_APART, so only the new rule can decide."""
    own = _colour_distance(np.array(GREY_SLEEVE, float), np.array(BLACK, float))
    neighbour = _colour_distance(np.array(GREY_SLEEVE, float), np.array(DARK_GREY, float))
    assert neighbour < 0.1 and 0.4 < own < SLEEVE_APART


def test_a_dark_grey_sleeve_beside_black_clothes_is_the_neighbours_reach() -> None:
    finder = _finder()
    before, after = _straight_down(GREY_SLEEVE)
    assert finder.arm_owner(before, after, _hand(), 1, before) == 2


@pytest.mark.parametrize(
    "sleeve",
    [
        (32, 32, 34),  # the zone player's own black sleeve, a little lighter under the lamp
        (45, 45, 48),  # a colour between the two clothes: it matches neither tightly
    ],
)
def test_a_sleeve_not_tightly_the_neighbours_leaves_the_hand_to_the_zone_player(
    sleeve: tuple[int, int, int],
) -> None:
    finder = _finder()
    before, after = _straight_down(sleeve)
    assert finder.arm_owner(before, after, _hand(), 1, before) in (None, 1)


def test_players_dressed_alike_are_not_told_apart_by_a_small_ratio() -> None:
    """Two reds a shade apart (clean 1214, 1405: seats 5 and 6): the sleeve lies close to both clothes; a
    ratio of two small distances is no evidence. The zone player keeps the hand."""
    red, redder, sleeve = (150, 30, 30), (170, 26, 26), (168, 26, 26)
    own = _colour_distance(np.array(sleeve, float), np.array(red, float))
    neighbour = _colour_distance(np.array(sleeve, float), np.array(redder, float))
    assert own >= 3.0 * neighbour and own < 0.3  # the ratio alone would name the neighbour
    finder = _finder()
    before = _blank((red, redder))
    after = _fist(before)
    cv2.line(after, (150, 202), (150, 300), sleeve, 14)
    assert finder.arm_owner(before, after, _hand(), 1, before) in (None, 1)
