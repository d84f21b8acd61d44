"""Event types: every type round-trips through its JSON line; every error names file, line and field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gamelog.events import (
    EVENT_TYPES,
    BestMove,
    Confirm,
    Day,
    Decision,
    Disqualify,
    DonCheck,
    Event,
    EventError,
    Foul,
    HandDown,
    HandUp,
    HeadUp,
    Night,
    NightMotion,
    Nominate,
    ProposedWindow,
    Protest,
    Roles,
    SheriffCheck,
    Shot,
    ShotCall,
    ShotRaise,
    Speech,
    SpeechEnd,
    SpeechOnset,
    TeamLoss,
    Void,
    Vote,
    VoteCall,
    VoteCount,
    VoteStop,
    Withdraw,
    event_to_json,
    parse_event,
    sort_key,
)

# One example of every event type, with every optional field set where the type has one.
SAMPLES: tuple[Event, ...] = (
    Roles(t=110000, src="host", id="h2", don=4, mafia=(7, 9), sheriff=2, others={3: "doctor"}),
    Night(t=2000, src="host", id="h1", n=0),
    Day(t=215000, src="host", n=1),
    Speech(t=219000, src="host", seat=1),
    SpeechEnd(t=274812, src="host", seat=1),
    Nominate(t=247056, src="host", by=1, target=7),
    Withdraw(t=248000, src="host", by=1, target=7),
    VoteCall(t=816049, src="host", id="h26", round="main", candidate=7),
    VoteCall(t=900000, src="host", round="all"),
    VoteStop(t=818100, src="host", id="h27"),
    VoteCount(t=819000, src="host", candidate=7, count=4),
    VoteCount(t=919000, src="host", candidate="all", count=6),
    Vote(t=816269, src="host", seat=3, candidate=7),
    Vote(t=900300, src="judge", seat=3, candidate="all"),
    ShotCall(t=838474, src="host", target=1),
    Shot(t=838600, src="judge", seat=4, target=1),
    DonCheck(t=850000, src="host", target=2),
    SheriffCheck(t=860000, src="host", target=4),
    BestMove(t=870000, src="host", seat=2, suspects=(4, 7, 9)),
    Foul(t=300000, src="host", seat=5, reason="knocking"),
    Disqualify(t=310000, src="judge", seat=6, reason="insult"),
    TeamLoss(t=320000, src="judge", seat=7, reason="deliberate peeking"),
    HandDown(
        t=816500,
        src="vision",
        id="v:hand_down:3:816500:a1",
        seat=3,
        gesture="thumb_up",
        conf=0.93,
        box=(10, 20, 30, 40),
    ),
    HandDown(t=816600, src="vision", seat=4, gesture="palm", conf=0.5),
    HandUp(t=820000, src="vision", seat=3, conf=0.8),
    ShotRaise(t=838500, src="vision", seat=9, gesture="gun", conf=0.77, box=(1.5, 2.5, 3.5, 4.5)),
    HeadUp(t=840000, src="vision", seat=5, until=841000, conf=0.6),
    NightMotion(t=842000, src="vision", seat=6, kind="touch", until=842500, conf=0.55),
    ProposedWindow(t=700000, src="vision", kind="vote", until=702000),
    SpeechOnset(t=817900, src="audio", ref="h27", conf=0.9),
    Void(t=1000000, src="judge", ref="h27", reason="pressed late", judge="Иванов"),
    Confirm(t=1000001, src="judge", ref="v:hand_down:3:816500:a1", reason="seen on video"),
    Protest(
        t=1100000,
        src="judge",
        id="p1",
        protest="p1",
        by=3,
        seats=(3, 4),
        claim="vote late",
        from_t=816000,
        until=820000,
    ),
    Decision(t=1200000, src="judge", protest="p1", outcome="rejected", reason="in time", judge="Петров"),
)


def test_samples_cover_every_event_type() -> None:
    assert {ev.TYPE for ev in SAMPLES} == set(EVENT_TYPES)


@pytest.mark.parametrize("ev", SAMPLES, ids=lambda e: e.TYPE)
def test_round_trip_through_a_json_line(ev: Event) -> None:
    line = json.dumps(event_to_json(ev), ensure_ascii=False)
    back = parse_event(json.loads(line))
    assert back == ev
    assert type(back) is type(ev)
    assert event_to_json(back) == event_to_json(ev)


def test_line_shape_follows_the_contract() -> None:
    obj = event_to_json(Nominate(t=5, src="host", by=1, target=7, id="h5"))
    assert list(obj) == ["t", "type", "src", "by", "target", "id"]
    assert obj == {"t": 5, "type": "nominate", "src": "host", "by": 1, "target": 7, "id": "h5"}
    assert "candidate" not in event_to_json(VoteCall(t=1, src="host", round="all"))
    assert "box" not in event_to_json(HandDown(t=1, src="vision", seat=1, gesture="fist", conf=0.5))


def test_unknown_fields_survive_a_round_trip() -> None:
    obj = {"t": 1, "type": "foul", "src": "host", "seat": 2, "reason": "x", "note": {"by": "a newer writer"}}
    ev = parse_event(obj)
    assert ev.extra == {"note": {"by": "a newer writer"}}
    assert event_to_json(ev) == obj


def test_vision_line_with_analyser_field_is_read() -> None:
    obj = {"t": 7, "type": "hand_up", "src": "vision", "seat": 2, "conf": 0.4, "id": "x", "analyser": "v 1.0"}
    ev = parse_event(obj)
    assert isinstance(ev, HandUp)
    assert ev.extra["analyser"] == "v 1.0"


def test_integral_floats_are_read_as_integers() -> None:
    ev = parse_event({"t": 2000.0, "type": "night", "src": "host", "n": 1.0})
    assert isinstance(ev, Night)
    assert (ev.t, ev.n) == (2000, 1)
    assert isinstance(ev.t, int)


def test_explicit_null_for_an_optional_field() -> None:
    ev = parse_event({"t": 1, "type": "protest", "src": "judge", "protest": "p", "by": None, "until": None})
    assert isinstance(ev, Protest)
    assert ev.by is None and ev.until is None


BAD = [
    # (object, field named in the error, words in the error)
    ({"type": "night", "src": "host", "n": 0}, "t", "missing"),
    ({"t": -1, "type": "night", "src": "host", "n": 0}, "t", "at least 0"),
    ({"t": "5", "type": "night", "src": "host", "n": 0}, "t", "integer"),
    ({"t": 1.5, "type": "night", "src": "host", "n": 0}, "t", "integer"),
    ({"t": True, "type": "night", "src": "host", "n": 0}, "t", "integer"),
    ({"t": 1, "type": "nights", "src": "host", "n": 0}, "type", "unknown event type"),
    ({"t": 1, "type": "night", "src": "camera", "n": 0}, "src", "unknown source"),
    (
        {"t": 1, "type": "hand_down", "src": "host", "seat": 1, "gesture": "fist", "conf": 1},
        "src",
        "cannot come",
    ),
    ({"t": 1, "type": "night", "src": "host"}, "n", "missing"),
    ({"t": 1, "type": "vote", "src": "host", "seat": 0, "candidate": 7}, "seat", "at least 1"),
    ({"t": 1, "type": "vote", "src": "host", "seat": 3, "candidate": "none"}, "candidate", "integer"),
    ({"t": 1, "type": "vote_call", "src": "host", "round": "main"}, "candidate", "needs a candidate"),
    (
        {"t": 1, "type": "vote_call", "src": "host", "round": "all", "candidate": 3},
        "candidate",
        "no candidate",
    ),
    (
        {"t": 1, "type": "vote_call", "src": "host", "round": "final", "candidate": 3},
        "round",
        "unknown round",
    ),
    ({"t": 1, "type": "hand_up", "src": "vision", "seat": 1, "conf": 1.5}, "conf", "0..1"),
    ({"t": 1, "type": "hand_up", "src": "vision", "seat": 1, "conf": "high"}, "conf", "number"),
    ({"t": 1, "type": "hand_up", "src": "vision", "seat": 1, "conf": 10**400}, "conf", "too large"),
    (
        {"t": 1, "type": "hand_down", "src": "vision", "seat": 1, "gesture": "ok", "conf": 0.5},
        "gesture",
        "unknown",
    ),
    (
        {
            "t": 1,
            "type": "hand_down",
            "src": "vision",
            "seat": 1,
            "gesture": "fist",
            "conf": 0.5,
            "box": [1, 2, 3],
        },
        "box",
        "x0, y0",
    ),
    (
        {
            "t": 1,
            "type": "hand_down",
            "src": "vision",
            "seat": 1,
            "gesture": "fist",
            "conf": 0.5,
            "box": [5, 5, 1, 1],
        },
        "box",
        "swapped",
    ),
    (
        {"t": 9, "type": "head_up", "src": "vision", "seat": 1, "until": 5, "conf": 0.5},
        "until",
        "before it starts",
    ),
    ({"t": 1, "type": "best_move", "src": "host", "seat": 1, "suspects": [2, 3, 4, 5]}, "suspects", "three"),
    ({"t": 1, "type": "roles", "src": "host", "don": 4, "mafia": [4, 9], "sheriff": 2}, "mafia", "two roles"),
    (
        {
            "t": 1,
            "type": "roles",
            "src": "host",
            "don": 4,
            "mafia": [7, 9],
            "sheriff": 2,
            "others": {"x": "a"},
        },
        "others",
        "seat key",
    ),
    ({"t": 1, "type": "void", "src": "judge", "ref": 17}, "ref", "string"),
    ({"t": 1, "type": "night", "src": "host", "n": 0, "id": ""}, "id", "non-empty"),
    ({"t": 1, "type": "night", "src": "host", "n": 0, "id": 5}, "id", "non-empty"),
]


@pytest.mark.parametrize(("obj", "field", "words"), BAD, ids=[f"{b[1]}-{i}" for i, b in enumerate(BAD)])
def test_errors_name_file_line_and_field(obj: dict[str, object], field: str, words: str) -> None:
    with pytest.raises(EventError) as info:
        parse_event(obj, file="events.jsonl", line=17)
    err = info.value
    assert (err.file, err.line, err.field) == ("events.jsonl", 17, field)
    text = str(err)
    assert text.startswith(f"events.jsonl:17: field '{field}': ")
    assert words in text


@pytest.mark.parametrize("obj", [[1, 2], "night", 5, None])
def test_a_line_that_is_not_an_object(obj: object) -> None:
    with pytest.raises(EventError, match=r"^vision.jsonl:3: expected a JSON object"):
        parse_event(obj, file="vision.jsonl", line=3)


def test_sort_key_orders_by_time_then_closings_last() -> None:
    stop = VoteStop(t=100, src="host")
    down = HandDown(t=100, src="vision", seat=1, gesture="thumb_up", conf=0.9)
    call = VoteCall(t=100, src="host", round="main", candidate=3)
    early = Foul(t=50, src="host", seat=2)
    assert sorted([stop, down, early, call], key=sort_key) == [early, call, down, stop]


def test_format_doc_lists_every_event_type(project_root: Path) -> None:
    doc = (project_root / "docs" / "FORMAT.md").read_text(encoding="utf-8")
    missing = [t for t in EVENT_TYPES if f"`{t}`" not in doc]
    assert missing == [], f"docs/FORMAT.md does not document: {missing}"
