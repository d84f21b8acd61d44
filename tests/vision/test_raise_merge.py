"""The analyser's merging of raise sightings from overlapping raise zones (``vision.analyzer._dedupe``)."""

from __future__ import annotations

from vision.analyzer import _dedupe
from vision.seatwatch import Observation


def _raise(seat: int, zone: int, t: int, x: float, top: float, *, partial: bool) -> Observation:
    return Observation("shot_raise", seat, zone, t, 0.9, "gun", (x, top, x + 40.0, top + 45.0), partial)


def test_a_partial_sighting_below_a_later_whole_one_is_the_same_raise() -> None:
    """The hand rose out of the neighbour's raise zone (seen there in part) and peaked in its own."""
    obs = [_raise(10, 10, 60600, 1204, 550, partial=True), _raise(9, 9, 60840, 1254, 452, partial=False)]
    assert [(o.seat, o.t) for o in _dedupe(obs)] == [(9, 60840)]


def test_two_players_raising_at_the_same_moment_are_two_raises() -> None:
    """A partial sighting far below a whole one at the same moment cannot be the same hand: a hand needs
    time to travel five hand lengths."""
    obs = [_raise(1, 1, 110320, 668, 653, partial=True), _raise(3, 3, 110320, 668, 440, partial=False)]
    assert sorted(o.seat for o in _dedupe(obs)) == [1, 3]
    later = [_raise(1, 1, 110320, 668, 653, partial=True), _raise(3, 3, 110600, 668, 440, partial=False)]
    assert [o.seat for o in _dedupe(later)] == [3]


def test_a_hand_coming_down_through_the_neighbours_zone_is_its_own_raise() -> None:
    """The sample game, night 1: seat 2's gun peaks at 107.40 s, then comes down past seat 1's head and is
    seen in part in seat 1's raise zone 0.68 s later, 5.0 hand lengths (of the lower box) from the peak. It is
    seat 2's raise, not a red player's."""
    peak = Observation("shot_raise", 2, 2, 107400, 0.98, "gun", (636.1, 498.1, 676.1, 543.6), False)
    down = Observation("shot_raise", 1, 1, 108080, 0.98, "point", (729.7, 678.1, 768.1, 700.7), True)
    assert [(o.seat, o.t) for o in _dedupe([peak, down])] == [(2, 107400)]
