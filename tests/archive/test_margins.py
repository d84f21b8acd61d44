"""Vote margins: measured against the spoken "Спасибо" when there is one, late landings kept apart,
and only the votes the referee counted from vision count for the game's smallest margin."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from archive.margins import smallest_counted, vote_margins
from gamelog.events import Event, parse_event
from gamelog.referee import referee
from gamelog.rules import rules_for

ROOT = Path(__file__).resolve().parents[2]


def base_events() -> list[dict[str, Any]]:
    """examples/full-game up to the first vote, without the host's votes of the first window."""
    out = []
    for ln in (ROOT / "examples" / "full-game" / "events.jsonl").read_text(encoding="utf-8").splitlines():
        e = json.loads(ln)
        if e["t"] > 826000:
            break
        if e["type"] != "vote":
            out.append(e)
    return out  # day 1 call for 9 at 824000, its vote_stop h0033 at 826000


def hand(t: int, seat: int, kind: str = "hand_down") -> dict[str, Any]:
    e: dict[str, Any] = {
        "t": t,
        "type": kind,
        "src": "vision",
        "seat": seat,
        "conf": 0.9,
        "id": f"v{seat}{t}",
    }
    if kind == "hand_down":
        e.update(gesture="thumb_up", box=None)
    return e


def margins(extra: list[dict[str, Any]]) -> tuple[list[Any], list[Event]]:
    evs = [parse_event(e) for e in base_events() + extra]
    rules = rules_for("federation")
    state = referee(evs, rules=rules).to_json()
    return vote_margins(evs, state, rules, range(1, 11)), evs


def test_keystroke_close_and_late_landing() -> None:
    got, _ = margins([hand(824500, 1), hand(825880, 2), hand(826000, 3), hand(826300, 5)])
    rows = {(m.seat, m.margin_ms, m.counted, m.late) for m in got}
    assert rows == {
        (1, 1500, True, False),
        (2, 120, True, False),
        (3, 0, False, True),
        (5, -300, False, True),
    }
    assert all(m.close_t == 826000 and m.call_t == 824000 and m.candidate == 9 for m in got)
    assert smallest_counted(got) == 120


def test_the_spoken_thanks_closes_the_window() -> None:
    onset = {"t": 825700, "type": "speech_onset", "src": "audio", "ref": "h0033", "conf": 0.9, "id": "a1"}
    got, _ = margins([hand(824500, 1), hand(825650, 2), hand(825880, 4), onset])
    by_seat = {m.seat: m for m in got}
    assert by_seat[2].margin_ms == 50 and by_seat[2].counted and by_seat[2].close_t == 825700
    assert by_seat[4].late and by_seat[4].margin_ms == -180  # before the keystroke, after the word
    assert smallest_counted(got) == 50


def test_host_counted_window_is_compared_not_counted() -> None:
    host_votes = [
        {"t": 826100 + i, "type": "vote", "src": "host", "seat": s, "candidate": 9, "id": f"hv{s}"}
        for i, s in enumerate((1, 2))
    ]
    got, _ = margins([hand(824500, 1), hand(825950, 2), *host_votes])
    assert {m.seat: m.counted for m in got} == {1: False, 2: False}
    assert smallest_counted(got) is None


def test_a_voided_stop_is_not_measured_against() -> None:
    """A judge voids the host's "Спасибо" and puts the close later: margins follow the judge."""
    void = {
        "t": 900000,
        "type": "void",
        "src": "judge",
        "ref": "h0033",
        "reason": "pressed early",
        "id": "j1",
    }
    stop = {"t": 826400, "type": "vote_stop", "src": "judge", "id": "j2"}
    got, _ = margins([hand(826200, 3), void, stop])
    (m,) = got
    assert (m.seat, m.close_t, m.margin_ms, m.late) == (3, 826400, 200, False)
