"""Check a synthetic bundle's ground truth against the referee: what a perfect analyser would report.

:func:`perfect_events` turns ``truth.json`` into the vision events (``hand_down``, ``hand_up``,
``shot_raise``, ``head_up``) and audio events (``speech_onset`` of each spoken host mark) that a flawless
analyser would write; :func:`referee_mismatches` runs ``gamelog.referee`` on the bundle's host marks plus
those events and lists every difference from ``truth["expected"]`` (empty = the truth holds).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gamelog.events import Event, parse_event

ANALYSER = "tablesim-truth/1"


def perfect_events(truth: dict[str, Any]) -> list[Event]:
    out: list[Event] = []
    for i, h in enumerate(truth["hands"]):
        base: dict[str, Any] = {"t": h["t"], "src": "vision", "seat": h["seat"], "id": f"truth{i:05d}"}
        if h["kind"] == "hand_down":
            obj = {**base, "type": "hand_down", "gesture": h["gesture"], "conf": 1.0}
        elif h["kind"] == "hand_up":
            obj = {**base, "type": "hand_up", "conf": 1.0}
        elif h["kind"] == "shot_raise":
            obj = {**base, "type": "shot_raise", "gesture": h["gesture"], "conf": 1.0}
        elif h["kind"] == "head_up":
            obj = {**base, "type": "head_up", "until": h["until"], "conf": 1.0}
        else:
            continue
        out.append(parse_event({**obj, "analyser": ANALYSER}))
    for j, s in enumerate(truth["speech"]):
        if s.get("mark_id") and s["kind"] in ("vote_stop", "shot_call", "vote_call"):
            t = round(s["onset_ms"])
            obj = {"t": t, "type": "speech_onset", "src": "audio", "ref": s["mark_id"], "conf": 1.0}
            out.append(parse_event({**obj, "id": f"onset{j:04d}", "analyser": ANALYSER}))
    return out


def _as_set(v: Any) -> Any:
    return sorted(v) if isinstance(v, list) else v


def referee_mismatches(bundle: str | Path) -> list[str]:
    """Differences between the referee's reading (host marks + perfect events) and ``truth.json``."""
    from gamelog.bundle import load_bundle

    b = Path(bundle)
    truth = json.loads((b / "truth.json").read_text(encoding="utf-8"))
    loaded = load_bundle(b)
    host = [e for e in loaded.events if e.src in ("host", "judge")]
    return check_events(host, truth, loaded.game.rules)


def check_events(host: list[Event], truth: dict[str, Any], rules: str = "federation") -> list[str]:
    """Referee ``host`` marks plus the perfect events of ``truth`` and compare with ``truth["expected"]``."""
    from gamelog.referee import referee
    from gamelog.rules import rules_for

    state = referee([*host, *perfect_events(truth)], rules=rules_for(rules, {}), seats=range(1, 11)).to_json()
    return compare_outcome(truth["expected"], state)


def compare_outcome(expected: dict[str, Any], state: dict[str, Any]) -> list[str]:
    bad: list[str] = []
    for key in ("winner", "alive"):
        if _as_set(expected[key]) != _as_set(state.get(key)):
            bad.append(f"{key}: truth {expected[key]!r}, referee {state.get(key)!r}")
    got_days = {d["day"]: d for d in state.get("days", [])}
    for d in expected["days"]:
        g = got_days.get(d["day"])
        if g is None:
            bad.append(f"day {d['day']}: missing in the referee's output")
            continue
        if sorted(d["eliminated"]) != sorted(g.get("eliminated", [])):
            bad.append(f"day {d['day']} eliminated: truth {d['eliminated']}, referee {g.get('eliminated')}")
        gv = g.get("votes", [])
        if len(gv) != len(d["votes"]):
            bad.append(f"day {d['day']}: truth has {len(d['votes'])} rounds, referee {len(gv)}")
            continue
        for i, (ev, rv) in enumerate(zip(d["votes"], gv, strict=True)):
            for key in ("round", "candidate", "voters", "late", "defaulted"):
                a, b = _as_set(ev.get(key, [])), _as_set(rv.get(key, []))
                if a != b:
                    bad.append(
                        f"day {d['day']} round {i + 1} ({ev['candidate']}) {key}: truth {a}, referee {b}"
                    )
    got_nights = {n["night"]: n for n in state.get("nights", [])}
    for n in expected["nights"]:
        g = got_nights.get(n["night"])
        if g is None:
            bad.append(f"night {n['night']}: missing in the referee's output")
            continue
        for key in ("shots", "killed", "miss"):
            if n[key] != g.get(key):
                bad.append(f"night {n['night']} {key}: truth {n[key]!r}, referee {g.get(key)!r}")
    return bad
