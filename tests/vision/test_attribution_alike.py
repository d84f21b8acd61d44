"""Two neighbours dressed alike (``HandFinder._alike_by_direction``, SLEEVE_ALIKE): a sleeve whose colour
matches both names the one the arm runs nearer to, not whichever colour came a hair closer.

Noisy BB 3318, zone 5 at 58.48 s: seat 6's reach, its sleeve 0.25 from seat 6's clothes and 0.24 from seat
4's, went to seat 4 (the arm 73 degrees from seat 4's body, 65 from seat 6's). Clean DD 3505, zone 2: 0.11
from both tan neighbours, the arm 4 degrees from seat 1's body and 86 from seat 3's, and seat 3 was named.
"""

from __future__ import annotations

from tests.vision.test_attribution import _finder


def test_alike_neighbours_are_told_apart_by_the_arms_direction() -> None:
    finder = _finder()
    finder.last_sleeve_dist = {4: 0.24, 5: 1.06, 6: 0.25}
    assert finder._alike_by_direction(4, 5, {4: 73.0, 5: 28.0, 6: 65.0}) == 6
    finder.last_sleeve_dist = {1: 0.11, 2: 0.60, 3: 0.11}
    assert finder._alike_by_direction(3, 2, {1: 4.0, 2: 41.0, 3: 86.0}) == 1


def test_a_clearly_nearer_colour_still_names_its_seat() -> None:
    finder = _finder()
    finder.last_sleeve_dist = {4: 0.12, 5: 1.06, 6: 0.35}  # seat 6's clothes clearly another colour
    assert finder._alike_by_direction(4, 5, {4: 73.0, 5: 28.0, 6: 20.0}) == 4
    # The zone's own player is never among the alike: a neighbour's sleeve is judged against its colour.
    finder.last_sleeve_dist = {4: 0.24, 5: 0.26, 6: 1.2}
    assert finder._alike_by_direction(4, 5, {4: 73.0, 5: 10.0, 6: 65.0}) == 4
