"""A neighbour's head lifting at night, read as a raise (``vision.analyzer._heads_not_hands``)."""

from __future__ import annotations

from gamelog.events import HeadUp, ShotRaise
from gamelog.layout import Layout, Layouts, SeatZones
from vision.analyzer import PEEK_MS, _heads_not_hands

# Seats 8 and 9 of clean game 1611's layout: seat 8's head zone lies inside seat 9's raise zone.
SEAT_8 = SeatZones(
    8,
    ((1147.5, 621.8), (1117.1, 557.1), (1043.6, 578.1), (1059.5, 619.8)),
    ((1161.7, 302.9), (1338.4, 302.9), (1338.4, 424.2), (1161.7, 424.2)),
    ((1210.6, 406.2), (1313.2, 406.2), (1313.2, 508.8), (1210.6, 508.8)),
)
SEAT_9 = SeatZones(
    9,
    ((1135.7, 743.1), (1158.5, 665.1), (1066.7, 658.5), (1048.5, 705.9)),
    ((1206.3, 410.7), (1391.8, 410.7), (1391.8, 554.8), (1206.3, 554.8)),
    ((1243.3, 530.8), (1362.2, 530.8), (1362.2, 649.8), (1243.3, 649.8)),
)
LAYOUTS = Layouts.single(Layout((1920, 1080), (SEAT_8, SEAT_9)))
SIZE = (1920, 1080)
HEAD_BOX = (1227.7, 440.3, 1257.9, 481.6)  # 1611's false "point" raise of seat 9 at 93.04 s


def _raise(seat: int, t: int, box: tuple[float, float, float, float]) -> ShotRaise:
    return ShotRaise(t=t, src="vision", id=f"r{seat}{t}", seat=seat, gesture="point", conf=0.5, box=box)


def _head(seat: int, t: int) -> HeadUp:
    return HeadUp(t=t, src="vision", id=f"h{seat}{t}", seat=seat, until=t + 1500, conf=0.99)


def test_a_raise_in_a_lifting_heads_zone_is_that_head() -> None:
    """Clean 1611: seat 8 peeks at 92.92 s; seat 9's "raise" 120 ms later is centred in seat 8's head
    zone. It is dropped; the head lift stays."""
    events = [_head(8, 92920), _raise(9, 93040, HEAD_BOX)]
    assert [e.TYPE for e in _heads_not_hands(events, LAYOUTS, SIZE)] == ["head_up"]


def test_raises_away_from_the_lift_in_time_or_place_are_kept() -> None:
    """A true raise later in the night, the same place (clean 1611: seat 9's gun at 100.40 s, also over
    seat 8's head zone), or at the same moment outside the lifting head's zone, is a hand."""
    later = _raise(9, 92920 + PEEK_MS + 200, HEAD_BOX)
    beside = _raise(9, 93040, (1330.0, 480.0, 1370.0, 530.0))  # centre x 1350: right of seat 8's head
    own = _raise(8, 93000, HEAD_BOX)  # the lifting seat's own raise is not its neighbour's head
    events = [_head(8, 92920), later, beside, own]
    assert _heads_not_hands(events, LAYOUTS, SIZE) == events


def test_the_head_zone_is_scaled_to_the_video() -> None:
    """A layout calibrated at another frame size: the head zone is compared in the video's pixels."""
    half = (HEAD_BOX[0] / 2, HEAD_BOX[1] / 2, HEAD_BOX[2] / 2, HEAD_BOX[3] / 2)
    events = [_head(8, 92920), _raise(9, 93040, half)]
    assert [e.TYPE for e in _heads_not_hands(events, LAYOUTS, (960, 540))] == ["head_up"]
    # Unscaled, the halved box lies far from seat 8's head zone.
    assert len(_heads_not_hands(events, LAYOUTS, SIZE)) == 2
