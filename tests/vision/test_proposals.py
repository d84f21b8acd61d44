"""Without host marks the analyser proposes vote windows and shooting rounds from its own detections."""

from __future__ import annotations

from gamelog.events import Event, HandDown, ProposedWindow, ShotRaise
from vision.analyzer import propose_windows


def down(seat: int, t: int) -> HandDown:
    return HandDown(t=t, src="vision", seat=seat, gesture="thumb_up", conf=0.9)


def raise_(seat: int, t: int) -> ShotRaise:
    return ShotRaise(t=t, src="vision", seat=seat, gesture="gun", conf=0.9)


def windows(events: list[Event]) -> list[tuple[str, int, int]]:
    return [(p.kind, p.t, p.until) for p in propose_windows(events, 600_000) if isinstance(p, ProposedWindow)]


def test_two_seats_landing_together_propose_a_vote_window_around_them() -> None:
    ((kind, a, b),) = windows([down(3, 50_000), down(7, 51_500)])
    assert kind == "vote" and a <= 50_000 - 2000 and 51_500 + 2000 <= b <= 51_500 + 8000


def test_a_lone_landing_or_two_far_apart_propose_nothing() -> None:
    assert windows([down(3, 50_000)]) == []
    assert windows([down(3, 50_000), down(7, 70_000)]) == []


def test_votes_in_two_windows_give_two_proposals() -> None:
    props = windows([down(1, 40_000), down(2, 40_800), down(4, 52_000), down(6, 52_900)])
    assert [k for k, *_ in props] == ["vote", "vote"]
    assert props[0][2] <= props[1][1] + 8000 and props[0][1] < 40_000 < props[1][1]


def test_raised_hands_propose_a_shooting_round() -> None:
    props = windows([raise_(2, 100_000), raise_(6, 101_000)])
    assert [(k, a <= 100_000, b >= 101_000) for k, a, b in props] == [("shooting", True, True)]


def raised(seat: int, t: int, gesture: str) -> ShotRaise:
    return ShotRaise(t=t, src="vision", seat=seat, gesture=gesture, conf=0.9)


def test_a_vote_window_starts_early_enough_for_the_call_before_a_slow_first_hand() -> None:
    # Tuning games: the first hand found lands 3.1-3.9 s after the call; the window must still hold the call.
    call = 50_000
    ((kind, a, _),) = windows([down(3, call + 3900), down(7, call + 4300)])
    assert kind == "vote" and a <= call


def test_hands_going_to_the_masks_propose_no_shooting_round() -> None:
    # Clean 401 without marks: nightfall's masks read as raises of seats 7, 9, 2 and 8 (one of them "point").
    masks = [raised(7, 1600, "other"), raised(9, 1920, "fist"), raised(7, 4200, "other")]
    masks += [raised(2, 10_840, "other"), raised(8, 10_840, "point"), raised(5, 11_000, "palm")]
    assert windows(masks) == []


def test_a_round_of_guns_after_the_masks_is_still_proposed() -> None:
    masks = [raised(7, 55_080, "other"), raised(9, 55_400, "palm")]
    props = windows([*masks, raised(7, 62_440, "gun"), raised(5, 62_600, "gun")])
    assert [(k, a <= 62_440, b >= 62_600) for k, a, b in props] == [("shooting", True, True)]


def test_two_seats_pointing_are_a_shooting_round_one_is_not() -> None:
    # Guns seen blurred or end-on read as "point" (clean 510 seat 9, 503 seat 9).
    assert [k for k, *_ in windows([raised(8, 99_000, "point"), raised(9, 99_200, "point")])] == ["shooting"]
    assert windows([raised(8, 10_600, "point")]) == []


def test_a_lone_vote_soon_after_a_window_extends_it() -> None:
    # Clean KK 4202 without marks: five hands at 38.1-39.9 s, then the next candidate's one vote at 47.2 s
    # (its call at 43.1 s, «Спасибо» at 47.8 s): the window proposed for the first must reach past the second.
    first = [down(10, 38_120), down(3, 38_520), down(5, 38_560)]
    ((kind, a, b),) = windows([*first, down(7, 47_200)])
    assert kind == "vote" and a <= 34_900 and b >= 47_800
    # A lone hand of another shape (a palm put on the table) does not; nor does a vote long after the window.
    palm = HandDown(t=47_200, src="vision", seat=7, gesture="palm", conf=0.9)
    assert [b for _, _, b in windows([*first, palm])] == [38_560 + 6000]
    assert [b for _, _, b in windows([*first, down(7, 60_000)])] == [38_560 + 6000]
