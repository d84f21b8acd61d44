"""Fuzzing: random bytes and JSON never crash the reader (only BadLines); random valid events round-trip."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamelog.events import (
    EVENT_TYPES,
    GESTURES,
    ROUNDS,
    Event,
    EventError,
    Roles,
    VoteCall,
    event_to_json,
    parse_event,
)
from gamelog.jsonl import EventWriter, event_line, parse_line, read_events

EXAMPLES = int(os.environ.get("MAFIACAM_FUZZ_EXAMPLES", "150"))  # raise it for a long fuzzing run
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)

seats = st.integers(min_value=1, max_value=13)
times = st.integers(min_value=0, max_value=10**8)
texts = st.text(max_size=12)
confs = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)
coords = st.floats(min_value=-1e4, max_value=1e4, allow_nan=False)


@st.composite
def boxes(draw: st.DrawFn) -> tuple[float, float, float, float] | None:
    if draw(st.booleans()):
        return None
    xs = sorted(draw(st.lists(coords, min_size=2, max_size=2)))
    ys = sorted(draw(st.lists(coords, min_size=2, max_size=2)))
    return (xs[0], ys[0], xs[1], ys[1])


@st.composite
def valid_events(draw: st.DrawFn) -> Event:
    cls = draw(st.sampled_from(sorted(EVENT_TYPES.values(), key=lambda c: c.TYPE)))
    t = draw(times)
    kw: dict[str, Any] = {
        "t": t,
        "src": draw(st.sampled_from(cls.SOURCES)),
        "id": draw(st.none() | st.text(min_size=1, max_size=10)),
    }
    if cls is Roles:
        s = draw(st.lists(seats, unique=True, min_size=2, max_size=6))
        kw.update(
            don=s[0], sheriff=s[1], mafia=tuple(s[2:]), others=draw(st.dictionaries(seats, texts, max_size=2))
        )
        return cls(**kw)
    if cls is VoteCall:
        rnd = draw(st.sampled_from(ROUNDS))
        kw.update(round=rnd, candidate=None if rnd == "all" else draw(seats))
        return cls(**kw)
    for f in dataclasses.fields(cls):
        name = f.name
        if name in ("t", "src", "id", "extra"):
            continue
        optional = f.default is None
        if name in ("seat", "by", "target"):
            value: Any = draw(seats)
        elif name in ("n", "count"):
            value = draw(st.integers(min_value=0, max_value=10**6))
        elif name == "until":
            value = t + draw(st.integers(min_value=0, max_value=10**6))
        elif name == "from_t":
            value = draw(times)
        elif name == "suspects":
            value = tuple(draw(st.lists(seats, min_size=1, max_size=3)))
        elif name == "seats":
            value = tuple(draw(st.lists(seats, max_size=4)))
        elif name == "candidate":
            value = draw(seats | st.just("all"))
        elif name == "conf":
            value = draw(confs)
        elif name == "box":
            value = draw(boxes())
        elif name == "gesture":
            value = draw(st.sampled_from(GESTURES))
        else:  # reason, kind, ref, outcome, protest, claim, judge
            value = draw(texts)
        if optional and name != "box" and draw(st.booleans()):
            value = None
        kw[name] = value
    return cls(**kw)


@FUZZ
@given(st.binary(max_size=600))
def test_random_bytes_never_crash_the_reader(tmp_path: Path, data: bytes) -> None:
    p = tmp_path / "events.jsonl"
    p.write_bytes(data)
    res = read_events(p, label="events.jsonl")
    n_lines = data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
    assert len(res.events) + len(res.bad) <= n_lines
    for b in res.bad:
        assert b.error.startswith(f"events.jsonl:{b.line}: ")
        assert "unreadable event" not in b.error  # parse_event raised something other than EventError


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
field_names = sorted({f.name for cls in EVENT_TYPES.values() for f in dataclasses.fields(cls)} | {"type"})


@st.composite
def event_like_objects(draw: st.DrawFn) -> dict[str, Any]:
    """Objects near the event shape: a real type and source, then random values for real field names."""
    obj: dict[str, Any] = {
        "t": draw(times | json_values),
        "type": draw(st.sampled_from(sorted(EVENT_TYPES)) | texts),
    }
    obj["src"] = draw(st.sampled_from(["host", "vision", "judge", "audio"]) | json_values)
    for name in draw(st.lists(st.sampled_from(field_names), max_size=8, unique=True)):
        obj[name] = draw(json_values | seats | confs)
    return obj


@FUZZ
@given(st.one_of(json_values, event_like_objects()))
def test_random_json_gives_an_event_or_an_event_error(obj: Any) -> None:
    try:
        ev = parse_event(obj, file="f.jsonl", line=3)
    except EventError as e:
        assert str(e).startswith("f.jsonl:3: ")
        return
    # Whatever is accepted can be written and read back as the same event.
    assert parse_event(json.loads(json.dumps(event_to_json(ev)))) == ev


@settings(FUZZ, max_examples=max(1, EXAMPLES // 4))  # every event is fsynced twice: keep it short
@given(st.lists(valid_events(), max_size=8))
def test_random_valid_events_round_trip_through_the_writer(tmp_path: Path, events: list[Event]) -> None:
    seen: set[str] = set()
    unique = []
    for ev in events:  # ids are unique in a file
        if ev.id is None or ev.id not in seen:
            unique.append(ev)
            seen.add(ev.id or "")
    p = tmp_path / "events.jsonl"
    p.unlink(missing_ok=True)
    (tmp_path / "events.jsonl.chain").unlink(missing_ok=True)
    with EventWriter(p) as w:
        for ev in unique:
            w.append(ev)
    res = read_events(p)
    assert res.bad == ()
    assert res.events == tuple(unique)
    for a, b in zip(res.events, unique, strict=True):
        assert event_to_json(a) == event_to_json(b)


@FUZZ
@given(valid_events(), st.data())
def test_damaging_one_line_keeps_the_others(tmp_path: Path, ev: Event, data: st.DataObject) -> None:
    ev = dataclasses.replace(ev, id=None)  # the same event twice: no id, so no duplicate-id clash
    raw = event_line(ev)
    cut = data.draw(st.integers(min_value=0, max_value=len(raw)))
    damaged = raw[:cut] + data.draw(st.binary(max_size=3)) + raw[cut + 1 :]
    p = tmp_path / "e.jsonl"
    p.write_bytes(b"\n".join([damaged.replace(b"\n", b" "), raw]) + b"\n")
    res = read_events(p)
    assert res.events[-1] == ev
    assert res.lines[-1] == 2
    try:
        first_ok = parse_line(damaged.replace(b"\n", b" "), file="e.jsonl", line=1)
    except EventError:
        assert [b.line for b in res.bad] == [1]
    else:
        assert res.events[0] == first_ok


@FUZZ
@given(valid_events())
def test_random_valid_events_round_trip_through_a_line(ev: Event) -> None:
    raw = event_line(ev)
    assert b"\n" not in raw
    back = parse_line(raw, file="e.jsonl", line=1)
    assert back == ev and type(back) is type(ev)
    assert event_to_json(back) == event_to_json(ev)
