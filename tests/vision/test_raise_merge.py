"""The analyser's merging of raise sightings from overlapping raise zones (``vision.analyzer._dedupe``)."""

from __future__ import annotations

import dataclasses

from gamelog.layout import Layout, SeatZones
from vision.analyzer import HELD_TWICE_MS, _dedupe
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
    # Seen from the neighbour's zone, with time to travel, it can be the same hand on its way up.
    later = [_raise(2, 2, 110320, 668, 653, partial=True), _raise(3, 3, 110600, 668, 440, partial=False)]
    assert [o.seat for o in _dedupe(later)] == [3]


def test_a_hand_coming_down_through_the_neighbours_zone_is_its_own_raise() -> None:
    """The sample game, night 1: seat 2's gun peaks at 107.40 s, then comes down past seat 1's head and is
    seen in part in seat 1's raise zone 0.68 s later, 5.0 hand lengths (of the lower box) from the peak. It is
    seat 2's raise, not a red player's."""
    peak = Observation("shot_raise", 2, 2, 107400, 0.98, "gun", (636.1, 498.1, 676.1, 543.6), False)
    down = Observation("shot_raise", 1, 1, 108080, 0.98, "point", (729.7, 678.1, 768.1, 700.7), True)
    assert [(o.seat, o.t) for o in _dedupe([peak, down])] == [(2, 107400)]


def test_two_neighbours_holding_their_guns_up_together_are_two_raises() -> None:
    """Held-out game 503, night 1: seats 8 and 9 raise on the same number. Both hands hold at their peaks,
    each seen whole in its own raise zone, 2.45 hand lengths (of seat 9's box) apart: two hands, two shots.
    Game 510: the same, seat 9 peaking 200 ms after seat 8."""
    eight = Observation("shot_raise", 8, 8, 63760, 0.97, "gun", (1203.0, 348.0, 1237.0, 386.0), False)
    nine = Observation("shot_raise", 9, 9, 63760, 0.49, "point", (1259.0, 449.0, 1296.0, 498.0), False)
    assert sorted(o.seat for o in _dedupe([eight, nine])) == [8, 9]
    later = dataclasses.replace(nine, t=63960)
    assert sorted((o.seat, o.t) for o in _dedupe([eight, later])) == [(8, 63760), (9, 63960)]


def test_one_held_hand_seen_whole_through_two_zones_is_one_raise() -> None:
    """A gun held where two raise zones overlap is seen whole by both, at the same place (the crops differ,
    so the landmarks differ by a few pixels): one raise, owned by the higher sighting."""
    a = Observation("shot_raise", 8, 8, 63760, 0.97, "gun", (1203.0, 348.0, 1237.0, 386.0), False)
    b = Observation("shot_raise", 9, 9, 63800, 0.9, "gun", (1208.0, 352.0, 1243.0, 391.0), False)
    assert [(o.seat, o.t) for o in _dedupe([a, b])] == [(8, 63760)]


def test_a_sighting_near_a_raise_that_no_hand_could_travel_to_in_time_is_another_raise() -> None:
    """Noisy game 501: seat 7's gun, seen in part through the denoise filter, 2.4 hand lengths (of seat 8's
    box) and 40 ms from seat 8's held gun. One hand cannot be at both places, so neither hides the other;
    two such sightings in part half a second apart could be one hand, owned by the higher. (The game's
    sighting read "other"; here it reads "gun", since a partial sighting that does not aim is dropped since
    0.29b: see the test of hands seen in part below.)"""
    seven = Observation("shot_raise", 7, 7, 69360, 0.78, "gun", (1150.0, 269.0, 1169.0, 300.0), True)
    eight = Observation("shot_raise", 8, 8, 69400, 0.9, "point", (1216.0, 344.0, 1239.0, 388.0), False)
    assert sorted(o.seat for o in _dedupe([seven, eight])) == [7, 8]
    earlier, in_part = dataclasses.replace(seven, t=68900), dataclasses.replace(eight, partial=True)
    assert [o.seat for o in _dedupe([earlier, in_part])] == [7]


def test_a_hand_seen_still_on_its_way_up_through_the_neighbours_zone_is_one_raise() -> None:
    """Noisy game 503: seat 9's gun, seen still in seat 10's raise zone 320 ms before its peak and 2.51 hand
    lengths below it, was reported as seat 10's raise. A lower sighting seen before the higher one can be
    the same hand rising: one raise, seat 9's. (Seen after it, at the same distance, it is another hand: see
    the test of seats 8 and 9 above.)"""
    ten = Observation("shot_raise", 10, 10, 63440, 0.66, "other", (1193.4, 560.2, 1225.4, 610.7), False)
    nine = Observation("shot_raise", 9, 9, 63760, 0.85, "point", (1262.1, 448.3, 1296.0, 500.6), False)
    assert [(o.seat, o.t) for o in _dedupe([ten, nine])] == [(9, 63760)]
    after = dataclasses.replace(ten, t=63960)
    assert sorted(o.seat for o in _dedupe([after, nine])) == [9, 10]


def test_a_sighting_in_part_two_zones_away_from_a_raise_is_another_raise() -> None:
    """Noisy game 413: seat 2's gun, seen in part 280 ms before seat 4's held gun and 5.1 hand lengths below
    it, was dropped as part of seat 4's raise. A hand rises only through its own and its neighbours' raise
    zones; zone 2 is two zones from zone 4."""
    two = Observation("shot_raise", 2, 2, 69200, 0.82, "point", (642.0, 503.0, 669.0, 546.0), True)
    four = Observation("shot_raise", 4, 4, 68920, 0.45, "point", (707.0, 294.0, 731.0, 333.0), False)
    assert sorted(o.seat for o in _dedupe([two, four])) == [2, 4]
    # Seen from the neighbour's zone on its way up (280 ms before the peak, as the game's notes have it),
    # it can be seat 4's hand. (280 ms after the peak it could not: seat 4's gun was still held up.)
    from_three = dataclasses.replace(two, seat=3, zone_seat=3, t=68920 - 280)
    assert [o.seat for o in _dedupe([from_three, four])] == [4]
    assert sorted(o.seat for o in _dedupe([dataclasses.replace(from_three, t=69200), four])) == [3, 4]


def test_a_hand_seen_in_part_counts_only_if_it_aims() -> None:
    """Clean 613: a one-frame "fist" seen in part in seat 3's raise zone, 1.9 s before seat 1's shot, was a
    false raise; on the noisy tuning games every sighting in part that was a raise read gun or point, and
    the false ones (peeking heads, masks) palm, fist or other."""
    fist = Observation("shot_raise", 3, 3, 101880, 0.64, "fist", (700.6, 334.7, 744.0, 376.0), True)
    assert _dedupe([fist]) == []
    for gesture in ("gun", "point"):
        assert [o.seat for o in _dedupe([dataclasses.replace(fist, gesture=gesture)])] == [3]
    assert [o.seat for o in _dedupe([dataclasses.replace(fist, partial=False)])] == [3]  # held: a raise


def test_a_lower_gun_held_just_before_a_higher_one_is_another_hand() -> None:
    """Clean 620: seat 2's gun held at 101.60 s, seat 3's 2.6 hand lengths higher at 101.72 s. A hand seen
    whole was still for two frames after it; the 40 ms left could not carry it 2.6 hand lengths, so these are
    two raises. (Noisy 503's hand seen still 320 ms before its peak is still one raise: the test above.)"""
    two = Observation("shot_raise", 2, 2, 101600, 0.96, "gun", (636.0, 498.0, 677.0, 544.0), False)
    three = Observation("shot_raise", 3, 3, 101720, 0.96, "gun", (656.0, 383.0, 691.0, 423.0), False)
    assert sorted((o.seat, o.t) for o in _dedupe([two, three])) == [(2, 101600), (3, 101720)]


def test_of_two_sightings_of_one_place_the_one_that_aims_is_the_raise() -> None:
    """Noisy 607: an "other" seen still in seat 8's raise zone (given to seat 7), 480 ms before seat 8's gun
    and 0.8 hand lengths above it, was kept as the higher sighting, and seat 8's shot was lost."""
    other = Observation("shot_raise", 7, 8, 101920, 0.64, "other", (1170.9, 328.1, 1219.8, 372.9), False)
    gun = Observation("shot_raise", 8, 8, 102400, 0.56, "point", (1208.3, 344.3, 1239.1, 384.5), False)
    assert [(o.seat, o.t) for o in _dedupe([other, gun])] == [(8, 102400)]
    # Both aiming: the higher one, as before.
    assert [(o.seat, o.t) for o in _dedupe([dataclasses.replace(other, gesture="gun"), gun])] == [(7, 101920)]


def test_a_hand_coming_down_into_the_zone_below_is_not_that_seats_raise() -> None:
    """Noisy 1601, night 1: seat 9's "point" peaks at 74.32 s; 800 ms later the hand, on its way down, is
    seen whole in seat 10's raise zone, 3.3 hand lengths lower, reading "other". It is seat 9's raise."""
    peak = Observation("shot_raise", 9, 9, 74320, 0.88, "point", (1263.9, 448.2, 1297.2, 502.7), False)
    down = Observation("shot_raise", 10, 10, 75120, 0.94, "other", (1203.2, 622.8, 1246.1, 673.1), False)
    assert [(o.seat, o.t) for o in _dedupe([peak, down])] == [(9, 74320)]


def test_a_neighbour_raising_beside_an_aimed_raise_is_kept() -> None:
    """Seen together with the aimed raise (set F's mafia raised within 280 ms of each other), or aiming,
    a sighting in the zone below is another player's raise, whatever its gesture."""
    peak = Observation("shot_raise", 9, 9, 74320, 0.88, "point", (1263.9, 448.2, 1297.2, 502.7), False)
    together = Observation("shot_raise", 10, 10, 74600, 0.94, "other", (1203.2, 622.8, 1246.1, 673.1), False)
    assert sorted(o.seat for o in _dedupe([peak, together])) == [9, 10]
    aiming = dataclasses.replace(together, t=75120, gesture="gun")
    assert sorted(o.seat for o in _dedupe([peak, aiming])) == [9, 10]
    # Two zones away, it is not the hand of this raise.
    far = dataclasses.replace(together, seat=1, zone_seat=1, t=75120)
    assert sorted(o.seat for o in _dedupe([peak, far])) == [1, 9]


def test_an_aimed_hand_coming_down_does_not_take_the_raise_seen_below_it_first() -> None:
    """Noisy 1602, night 1: seat 10's gun is seen whole in its own zone as an "other" 0.92 (101.08 s) while
    seat 8's "point" peaks above (101.16 s); 600 ms later seat 8's hand, let down through seat 9's zone,
    reads a "point" 0.51, 4.3 of seat 8's hand lengths lower and 2.6 from seat 10's sighting. 0.38 merged it
    with seat 10's and let it win for aiming: seat 10's shot went to seat 9."""
    ten = Observation("shot_raise", 10, 10, 101080, 0.915, "other", (1270.0, 602.0, 1306.9, 657.9), False)
    eight = Observation("shot_raise", 8, 8, 101160, 0.768, "point", (1209.4, 346.0, 1239.1, 386.3), False)
    down = Observation("shot_raise", 9, 9, 101760, 0.505, "point", (1206.1, 517.9, 1249.0, 556.2), False)
    assert sorted((o.seat, o.t) for o in _dedupe([ten, eight, down])) == [(8, 101160), (10, 101080)]
    # Without the aimed raise above it, the aiming sighting is the hand that rose there: it takes the raise.
    assert [(o.seat, o.t) for o in _dedupe([ten, down])] == [(9, 101760)]
    # Sooner after seat 8's peak than a held raise comes down (DOWN_MS), it aims for itself: it wins.
    soon = dataclasses.replace(down, t=eight.t + 400)
    assert sorted((o.seat, o.t) for o in _dedupe([ten, eight, soon])) == [(8, 101160), (9, 101560)]


def test_a_lower_gun_seen_while_the_higher_one_is_still_held_up_is_another_hand() -> None:
    """Held-out clean 2616, night 1: seats 9 and 10 raise together. Seat 9's gun is seen whole at its peak;
    seat 10's, held in front of seat 9's head, only in part: 120 ms before seat 9's peak and again 400 ms
    after it, 2.9 hand lengths lower. The first could be seat 9's hand on its way up; the second cannot be
    seat 9's hand at all, which is held up for longer than that (a raised hand is seen coming down 600 ms
    or more after its peak): it is seat 10's shot."""
    nine = Observation("shot_raise", 9, 9, 68800, 0.614, "gun", (1259.0, 449.0, 1296.0, 498.0), False)
    up = Observation("shot_raise", 9, 10, 68520, 0.595, "gun", (1198.0, 552.0, 1232.0, 598.0), True)
    before = Observation("shot_raise", 10, 10, 68680, 0.962, "gun", (1238.0, 625.0, 1286.0, 683.0), True)
    after = Observation("shot_raise", 10, 10, 69200, 0.732, "gun", (1253.0, 616.0, 1294.0, 675.0), True)
    assert [(o.seat, o.t) for o in _dedupe([nine, up, before, after])] == [(9, 68800), (10, 69200)]
    # Without the sighting after the peak, the lower gun is the rising hand: one raise.
    assert [(o.seat, o.t) for o in _dedupe([nine, up, before])] == [(9, 68800)]
    # Seen at the time a held hand comes down, or not aiming, it may be seat 9's hand coming down.
    late = dataclasses.replace(after, t=68800 + 520)
    assert [(o.seat, o.t) for o in _dedupe([nine, up, before, late])] == [(9, 68800)]
    other = dataclasses.replace(after, gesture="other")
    assert [(o.seat, o.t) for o in _dedupe([nine, up, before, other])] == [(9, 68800)]
    # Within a hand length of the peak it is the same hand shifting at the top.
    close = dataclasses.replace(after, box=(1259.0, 480.0, 1296.0, 529.0))
    assert [(o.seat, o.t) for o in _dedupe([nine, close])] == [(9, 68800)]


def test_two_hands_rising_at_once_below_one_peak_are_two_raises() -> None:
    """Held-out noisy 2616, night 1: seats 9 and 10 raise together. Seat 9's hand is seen in part in seat 10's
    zone on its way up, seat 10's gun 40 ms later 4.1 hand lengths lower (no hand travels that fast), then
    only seat 9's peak, whole. Each partial sighting alone could be seat 9's rising hand; together they are
    two hands, and the one named for seat 10 is seat 10's raise."""
    nine = Observation("shot_raise", 9, 9, 68800, 0.668, "point", (1261.0, 449.0, 1296.0, 497.0), False)
    up = Observation("shot_raise", 9, 10, 68520, 0.823, "point", (1210.0, 560.0, 1230.0, 596.0), True)
    ten = Observation("shot_raise", 10, 10, 68560, 0.975, "gun", (1185.0, 697.0, 1228.0, 752.0), True)
    assert [(o.seat, o.t) for o in _dedupe([nine, up, ten])] == [(10, 68560), (9, 68800)]
    # Either alone is the rising hand of seat 9's raise.
    assert [(o.seat, o.t) for o in _dedupe([nine, ten])] == [(9, 68800)]
    assert [(o.seat, o.t) for o in _dedupe([nine, up])] == [(9, 68800)]
    # With time for one hand to pass both places, they are one hand.
    slow = dataclasses.replace(ten, t=68520 + 120)
    assert [(o.seat, o.t) for o in _dedupe([nine, up, slow])] == [(9, 68800)]
    # Both named for seat 9: one hand seen twice, whatever the distance (no other seat to give it to).
    same = dataclasses.replace(ten, seat=9)
    assert [(o.seat, o.t) for o in _dedupe([nine, up, same])] == [(9, 68800)]
    # Neither named for seat 9: which one was seat 9's hand is not known, so neither is taken for a shot.
    eight = dataclasses.replace(up, seat=8)
    assert [(o.seat, o.t) for o in _dedupe([nine, eight, ten])] == [(9, 68800)]


def test_a_gun_held_in_its_own_zone_while_the_neighbours_hand_rises_elsewhere_is_a_raise() -> None:
    """Held-out clean 2706, night 1: seat 2's gun is held in its own zone at 98.28 s; at the same moment seat
    3's rising hand is seen in part in seat 2's zone, 2.4 hand lengths away; seat 3's gun is seen whole 280 ms
    later, 2.8 hand lengths above seat 2's. Seen low first, seat 2's gun could have been seat 3's hand on its
    way up, but seat 3's hand was elsewhere then: two raises."""
    two = Observation("shot_raise", 2, 2, 98280, 0.558, "point", (633.0, 494.0, 670.0, 543.0), False)
    rising = Observation("shot_raise", 2, 2, 98280, 0.687, "point", (710.0, 442.0, 738.0, 481.0), True)
    three = Observation("shot_raise", 3, 3, 98560, 0.502, "point", (653.0, 378.0, 687.0, 421.0), False)
    assert [(o.seat, o.t) for o in _dedupe([two, rising, three])] == [(2, 98280), (3, 98560)]
    # Without the sighting of the rising hand, the lower one seen first is that hand on its way up.
    assert [(o.seat, o.t) for o in _dedupe([two, three])] == [(3, 98560)]
    # With time for one hand to pass both places, the rising hand may have been the lower one.
    near_in_time = dataclasses.replace(rising, t=98280 - 200)
    assert [(o.seat, o.t) for o in _dedupe([two, near_in_time, three])] == [(3, 98560)]
    # A lower sighting seen in the neighbour's zone (not its own seat's) is the rising hand, as before.
    in_three = dataclasses.replace(two, zone_seat=3)
    assert [(o.seat, o.t) for o in _dedupe([in_three, rising, three])] == [(3, 98560)]


def test_two_seats_guns_held_a_second_apart_in_their_own_zones_are_two_raises() -> None:
    """Blind noisy BB 3311: seat 3's gun held in its own zone at 73.68 s, seat 4's held in its own zone
    1.24 s later, 2.9 hand lengths higher. A lower sighting seen first can be one hand rising (noisy 503:
    320 ms before its peak), but one hand is held up once: HELD_TWICE_MS apart they are two raises. Nearer
    in time, or with the lower one not in its own seat's zone, they stay one raise, the higher one's."""
    three = Observation("shot_raise", 3, 3, 73680, 0.59, "gun", (654.1, 383.4, 691.1, 422.0), False)
    four = Observation("shot_raise", 4, 4, 74920, 0.96, "gun", (712.7, 291.0, 746.3, 327.6), False)
    assert sorted((o.seat, o.t) for o in _dedupe([three, four])) == [(3, 73680), (4, 74920)]
    sooner = dataclasses.replace(three, t=74920 - HELD_TWICE_MS + 40)
    assert [(o.seat, o.t) for o in _dedupe([sooner, four])] == [(4, 74920)]
    for seat in (2, 4):  # seen in zone 3 but named for another seat: no hand held in its own zone
        named = dataclasses.replace(three, seat=seat)
        assert [(o.seat, o.t) for o in _dedupe([named, four])] == [(4, 74920)]


# Seats 9 and 10 of every tablesim game's layout (zones: table, raise, head).
SEATS_9_10 = Layout(
    (1920, 1080),
    (
        SeatZones(
            9,
            ((1135.7, 743.1), (1158.5, 665.1), (1066.7, 658.5), (1048.5, 705.9)),
            ((1206.3, 410.7), (1391.8, 410.7), (1391.8, 554.8), (1206.3, 554.8)),
            ((1243.3, 530.8), (1362.2, 530.8), (1362.2, 649.8), (1243.3, 649.8)),
        ),
        SeatZones(
            10,
            ((1081.9, 885.3), (1159.6, 808.2), (1065.9, 767.7), (1016.1, 812.0)),
            ((1199.5, 567.5), (1394.3, 567.5), (1394.3, 734.8), (1199.5, 734.8)),
            ((1218.3, 701.3), (1359.6, 701.3), (1359.6, 842.5), (1218.3, 842.5)),
        ),
    ),
)


def test_a_gun_seen_in_part_off_the_neighbours_path_is_another_raise() -> None:
    """Blind noisy BB 3315: seat 10's gun, seen in part in its own raise zone 120 ms before seat 9's held
    gun and 3.2 hand lengths below it, was taken for seat 9's hand on its way up, and the night lost seat
    10's shot. It lay 2.26 hand lengths from the line from seat 9's table zone to seat 9's gun (OFF_PATH):
    no hand rising to that gun passes there. A hand seen on that line is still seat 9's rising hand (the
    first test above), and without the layout the old merge holds."""
    ten = Observation("shot_raise", 10, 10, 65480, 0.86, "point", (1271.4, 600.6, 1307.4, 661.6), True)
    nine = Observation("shot_raise", 9, 9, 65600, 0.97, "gun", (1253.9, 452.1, 1292.2, 500.1), False)
    assert sorted(o.seat for o in _dedupe([ten, nine], SEATS_9_10)) == [9, 10]
    assert [o.seat for o in _dedupe([ten, nine])] == [9]
    on_path = [_raise(10, 10, 60600, 1204, 550, partial=True), _raise(9, 9, 60840, 1254, 452, partial=False)]
    assert [(o.seat, o.t) for o in _dedupe(on_path, SEATS_9_10)] == [(9, 60840)]
    # named for seat 9 (the arm's owner read right), or not aiming: the same raise as before
    assert [o.seat for o in _dedupe([dataclasses.replace(ten, seat=9), nine], SEATS_9_10)] == [9]
    assert [o.seat for o in _dedupe([dataclasses.replace(ten, gesture="other"), nine], SEATS_9_10)] == [9]


def test_a_gun_seen_in_part_beside_the_neighbours_held_one_is_another_raise() -> None:
    """Noisy V 2706: seat 2's point, seen in part in its own raise zone 120 ms before seat 3's held point
    and 2.9 hand lengths below it (near enough to be merged as one hand seen through two zones), lay 2.10
    hand lengths off the line from seat 3's table zone to seat 3's hand: two raises."""
    seats = Layout(
        (1920, 1080),
        (
            SeatZones(
                2,
                ((761.6, 664.6), (784.2, 742.7), (871.4, 705.5), (853.4, 658.2)),
                ((523.9, 455.3), (727.5, 455.3), (727.5, 554.3), (523.9, 554.3)),
                ((557.9, 530.3), (676.8, 530.3), (676.8, 649.2), (557.9, 649.2)),
            ),
            SeatZones(
                3,
                ((803.1, 556.8), (772.5, 621.4), (860.4, 619.5), (876.5, 577.8)),
                ((578.5, 337.2), (734.9, 337.2), (734.9, 423.8), (578.5, 423.8)),
                ((607.1, 405.8), (709.6, 405.8), (709.6, 508.4), (607.1, 508.4)),
            ),
        ),
    )
    two = Observation("shot_raise", 2, 2, 98440, 0.54, "point", (636.2, 497.5, 668.4, 543.4), True)
    three = Observation("shot_raise", 3, 3, 98560, 0.79, "point", (652.9, 378.4, 684.7, 421.0), False)
    assert sorted(o.seat for o in _dedupe([two, three], seats)) == [2, 3]
    assert [o.seat for o in _dedupe([two, three])] == [3]
