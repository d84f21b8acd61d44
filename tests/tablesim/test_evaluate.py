"""Scoring vision events against a synthetic game's truth (tablesim.evaluate)."""

from __future__ import annotations

from gamelog.events import HandDown, HandUp
from tablesim.evaluate import score

TRUTH = {
    "fps": 25,
    "hands": [
        {"kind": "hand_down", "seat": 1, "t": 1000},
        {"kind": "hand_down", "seat": 2, "t": 1200},
        {"kind": "hand_up", "seat": 1, "t": 4000},
    ],
    "reaches": [{"seat": 3, "into": 2, "t": 900, "until": 1900}],
}


def test_votes_match_by_seat_within_the_tolerance_and_reaches_are_scored_apart() -> None:
    events = [
        HandDown(t=1040, src="vision", seat=1, gesture="thumb_up", conf=0.9),
        HandDown(t=2000, src="vision", seat=2, gesture="thumb_up", conf=0.9),  # 800 ms late: miss + false
        HandDown(t=960, src="vision", seat=3, gesture="point", conf=0.5, extra={"zone_seat": 2}),
        HandUp(t=1900, src="vision", seat=3, conf=0.5, extra={"zone_seat": 2}),
        HandUp(t=4000, src="vision", seat=1, conf=0.9),
    ]
    sc = score(TRUTH, events)
    hd = sc["hand_down"]
    assert (hd.tp, hd.fp, hd.fn) == (1, 1, 1)
    assert hd.offsets_frames == [1.0]
    assert (sc["hand_up"].tp, sc["hand_up"].fp) == (1, 0)  # the reach leaving is no hand_up of seat 3
    assert (sc["reach"].tp, sc["reach"].fp, sc["reach"].fn) == (1, 0, 0)


def test_a_reach_seen_as_the_zone_players_own_landing_is_a_false_vote() -> None:
    events = [
        HandDown(t=1000, src="vision", seat=1, gesture="thumb_up", conf=0.9),
        HandDown(t=1200, src="vision", seat=2, gesture="thumb_up", conf=0.9),
        HandDown(t=930, src="vision", seat=2, gesture="other", conf=0.3),  # the reach, given to seat 2
    ]
    sc = score(TRUTH, events)
    assert (sc["hand_down"].tp, sc["hand_down"].fp) == (2, 1)
    assert sc["reach"].fn == 1
