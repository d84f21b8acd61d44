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
