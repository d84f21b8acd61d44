"""A hand at the table seen through a raise zone is no raise (``vision.analyzer._off_the_table``)."""

from __future__ import annotations

from gamelog.layout import Layout, SeatZones
from vision import analyzer
from vision.seatwatch import Observation

# Seats 1 and 2 of the tablesim layout (clean 1704): the lower right corner of seat 1's raise zone covers
# the left end of seat 2's table zone.
SEAT_1 = SeatZones(
    1,
    ((760.3, 807.8), (837.8, 884.9), (903.7, 811.7), (854.0, 767.4)),
    ((520.8, 616.7), (777.0, 616.7), (777.0, 734.2), (520.8, 734.2)),
    ((560.3, 700.6), (701.5, 700.6), (701.5, 841.8), (560.3, 841.8)),
)
SEAT_2 = SeatZones(
    2,
    ((761.6, 664.6), (784.2, 742.7), (871.4, 705.5), (853.4, 658.2)),
    ((523.9, 455.3), (727.5, 455.3), (727.5, 554.3), (523.9, 554.3)),
    ((557.9, 530.3), (676.8, 530.3), (676.8, 649.2), (557.9, 649.2)),
)
LAYOUT = Layout((1920, 1080), (SEAT_1, SEAT_2))


def _obs(kind: str, seat: int, t: int, box: tuple[float, float, float, float]) -> Observation:
    return Observation(kind, seat, seat, t, 0.98, "gun", box)


def test_a_gun_shaped_on_the_table_is_no_raise() -> None:
    """Clean 1704: seat 2 shapes the gun on the table at 63.00 s before raising it (peak 63.58 s). Seat 1's
    raise zone read it as seat 1's "gun" 0.98, centred 3 px outside seat 2's table zone; 0.37 reported it
    as a shot by seat 1."""
    on_table = _obs("shot_raise", 1, 63000, (756.4, 697.8, 791.2, 739.4))
    assert analyzer._off_the_table([on_table], LAYOUT) == []


def test_raised_hands_and_hands_landing_on_the_table_are_kept() -> None:
    """Seat 1's true gun, above seat 2's table zone on the picture (1.2 hand lengths from it), stays a
    raise; a vote landing in a table zone is no raise sighting and is not touched."""
    gun = _obs("shot_raise", 1, 63640, (668.0, 652.0, 716.0, 712.0))
    vote = _obs("hand_down", 2, 40000, (790.0, 680.0, 830.0, 720.0))
    unboxed = Observation("shot_raise", 1, 1, 63640, 0.9, "gun", None)
    assert analyzer._off_the_table([gun, vote, unboxed], LAYOUT) == [gun, vote, unboxed]
