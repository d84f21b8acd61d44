"""The rim of the zone player's own sleeve over the cloth names no neighbour (``HandFinder._sleeve_owner``,
``SLEEVE_BLEND``; analyser 0.57).

Noisy Z 3109, zone 8 at 58.88 s: seat 8's thumb-up came with its maroon sleeve where the same sleeve had lain,
so only the sleeve's lower rim changed. On the blurred picture the rim is a blend of the cloth and the
maroon, and that blend came within 0.16 of seat 9's dark green clothes: the vote became seat 9's reach, two
rounds lost. Same two-seat table as ``test_attribution``, the table's cloth green: seat 1 (the zone's player)
in maroon at the lower left, seat 2 in dark green at the lower right.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.test_attribution import SKIN, _finder, _hand
from vision.handfinder import SLEEVE_BLEND, SLEEVE_MATCH, _colour_distance, _on_blend

CLOTH = (29, 89, 55)  # Z 3109's cloth, as measured
MAROON, DARK_GREEN = (120, 36, 45), (64, 93, 67)  # seats 8 and 9 there; here seats 1 and 2
RIM = (50, 72, 50)  # the changed rim of seat 8's sleeve, as measured


def _pictures(
    arm: tuple[int, int, int],
    clothes: tuple[tuple[int, int, int], tuple[int, int, int]] = (MAROON, DARK_GREEN),
) -> tuple[np.ndarray, np.ndarray]:
    """Before and after a fist landed in seat 1's zone, an arm of colour ``arm`` running from it towards
    seat 2's body; ``clothes``: seat 1's and seat 2's."""
    before = np.full((360, 400, 3), CLOTH, np.uint8)
    cv2.rectangle(before, (35, 290), (85, 340), clothes[0], -1)  # seat 1's torso
    cv2.rectangle(before, (335, 290), (385, 340), clothes[1], -1)  # seat 2's torso
    after = before.copy()
    cv2.rectangle(after, (138, 178), (162, 202), SKIN, -1)
    cv2.line(after, (160, 200), (300, 280), arm, 12)
    return before, after


def test_the_rim_is_a_blend_that_matches_the_neighbours_clothes() -> None:
    # What makes the case: the rim matches seat 2's clothes by colour, and lies on the cloth-maroon blend;
    # seat 2's own clothes lie off it.
    rim, cloth = np.array(RIM, float), np.array(CLOTH, float)
    assert _colour_distance(rim, np.array(DARK_GREEN, float)) <= SLEEVE_MATCH
    assert _on_blend(rim, cloth, np.array(MAROON, float))
    assert not _on_blend(np.array(DARK_GREEN, float), cloth, np.array(MAROON, float))
    # A colour at the cloth's end of the line is cloth (noise), not a blend.
    assert not _on_blend(cloth + 1.0, cloth, np.array(MAROON, float))
    assert SLEEVE_BLEND < 26.0  # seat 9's clothes lay 26 RGB from the line in Z 3109


def test_the_rim_of_the_players_own_sleeve_leaves_the_hand_to_the_player() -> None:
    # Failed on 0.56: seat 2 by the rim's colour.
    before, after = _pictures(RIM)
    assert _finder().arm_owner(before, after, _hand(), 1, before) in (None, 1)


@pytest.mark.parametrize("arm", [DARK_GREEN, (60, 90, 64)])
def test_the_neighbours_own_sleeve_still_names_the_neighbour(arm: tuple[int, int, int]) -> None:
    before, after = _pictures(arm)
    assert _finder().arm_owner(before, after, _hand(), 1, before) == 2


def test_a_neighbour_dressed_in_a_blend_is_still_named_by_the_sleeve() -> None:
    # Seat 1 in black, seat 2 in a dark green that lies on the line from the cloth to black itself: the
    # blend says nothing, and seat 2's sleeve names seat 2 as before.
    black, dark_green = (20, 20, 22), (26, 60, 40)
    assert _on_blend(np.array(dark_green, float), np.array(CLOTH, float), np.array(black, float))
    before, after = _pictures(dark_green, (black, dark_green))
    assert _finder().arm_owner(before, after, _hand(), 1, before) == 2
