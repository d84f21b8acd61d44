"""A tiny reviewable game: ten seats, one day with one vote (candidate 3), host marks and vision landings."""

from __future__ import annotations

from pathlib import Path

from gamelog.bundle import EVENTS_FILE, VISION_FILE
from gamelog.events import Day, HandDown, Night, Nominate, Roles, Speech, VoteCall, VoteCount, VoteStop
from gamelog.jsonl import EventWriter, write_events_replace
from tests.review_ui.conftest import make_bundle

CALL_T, STOP_T = 4000, 6000


def add_game(bundle: Path) -> Path:
    with EventWriter(bundle / EVENTS_FILE) as w:
        w.extend(
            [
                Night(t=100, src="host", id="h1", n=0),
                Roles(t=200, src="host", id="h2", don=1, mafia=(2, 4), sheriff=5),
                Day(t=1000, src="host", id="h3", n=1),
                Speech(t=1200, src="host", id="h4", seat=1),
                Nominate(t=1500, src="host", id="h8", by=1, target=3),
                Nominate(t=2500, src="host", id="h9", by=2, target=7),
                VoteCall(t=CALL_T, src="host", id="h5", round="main", candidate=3),
                VoteStop(t=STOP_T, src="host", id="h6"),
                VoteCount(t=7000, src="host", id="h7", candidate=3, count=3),
                VoteCall(t=8000, src="host", id="h10", round="main", candidate=7),
                VoteStop(t=9000, src="host", id="h11"),
            ]
        )
    hands = [
        HandDown(t=4600, src="vision", id="v1", seat=1, gesture="thumb_up", conf=0.9, box=(10, 10, 40, 40)),
        HandDown(t=5200, src="vision", id="v2", seat=2, gesture="thumb_up", conf=0.9, box=(50, 10, 80, 40)),
        HandDown(t=5800, src="vision", id="v3", seat=4, gesture="thumb_up", conf=0.9, box=(90, 10, 120, 40)),
        HandDown(t=6400, src="vision", id="v4", seat=6, gesture="thumb_up", conf=0.9, box=(130, 10, 160, 40)),
    ]
    write_events_replace(bundle / VISION_FILE, hands)
    return bundle


def make_game(root: Path) -> Path:
    return add_game(make_bundle(root))
