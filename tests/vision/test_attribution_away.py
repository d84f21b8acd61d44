"""A sleeve names a seat only along the arm (``vision.handfinder.SLEEVE_AWAY_DEG``).

Noisy 2416 (set R), zone 9 at 58.48 s: seat 9's thumb-up landed while seat 10's pointing reach lay just
below it. What changed beyond the hand was that reach's skin and cuff, running down and left from the hand,
away from every body (173.7° from seat 8's, 130° from seat 9's, 85° from seat 10's); its colour lay 0.39
from seat 8's grey, so seat 9's vote was given to seat 8 as a reach, and four rounds were lost. Same two-seat
table as ``test_attribution``: seat 1's body lower left, seat 2's lower right, the hand in seat 1's zone.
"""

from __future__ import annotations

import cv2

from tests.vision.test_attribution import BLUE, GREEN, _blank, _finder, _fist, _hand


def _sleeve_to(end: tuple[int, int]) -> int | None:
    """Seat 1 in green, seat 2 in blue; a fist lands in seat 1's zone, a blue sleeve from it to ``end``."""
    before = _blank((GREEN, BLUE))
    after = _fist(before)
    cv2.line(after, (150, 190), end, BLUE, 14)
    return _finder().arm_owner(before, after, _hand(), 1, before)


def test_a_sleeve_running_away_from_the_body_it_matches_names_no_one() -> None:
    """Up and left from the hand: 166° from seat 2's body (and 99° from seat 1's). Not seat 2's arm."""
    # fails on 0.46: seat 2, by the colour alone
    assert _sleeve_to((60, 100)) is None


def test_a_sleeve_running_to_the_body_it_matches_names_it() -> None:
    """Towards seat 2's body: seat 2's reach, as before."""
    assert _sleeve_to((330, 250)) == 2


def test_a_sleeve_across_the_line_to_the_body_still_names_it() -> None:
    """Straight down from the hand, 59° from seat 2's body (36° from seat 1's): the colour decides, as
    before (an arm bent at the elbow does not point at the body straight)."""
    assert _sleeve_to((150, 300)) == 2
