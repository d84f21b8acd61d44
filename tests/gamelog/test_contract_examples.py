"""The contract's worked examples (../shared/contract_examples) and the project's full example game.

Compared as the examples' README says: the keys shown must match, seat lists as sets, days and nights
matched by their number; the output may hold more keys, days and nights.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gamelog.bundle import load_bundle
from gamelog.referee import referee_bundle

EXAMPLES = ("01-majority-and-kill", "05-tie-all-leave-pass", "14-club-withdrawal")
SEAT_LISTS = {"alive", "voters", "late", "defaulted", "eliminated"}


def matches(expected: Any, actual: Any, path: str = "") -> list[str]:
    """Differences between the expected part and the actual output, as readable paths."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path}: expected an object, got {actual!r}"]
        out: list[str] = []
        for k, v in expected.items():
            if k not in actual:
                out.append(f"{path}.{k}: missing")
                continue
            if k in ("days", "nights"):
                key = "day" if k == "days" else "night"
                by_n = {item[key]: item for item in actual[k]}
                for item in v:
                    got = by_n.get(item[key])
                    if got is None:
                        out.append(f"{path}.{k}[{key} {item[key]}]: missing")
                    else:
                        out += matches(item, got, f"{path}.{k}[{key} {item[key]}]")
            elif k in SEAT_LISTS:
                if set(v) != set(actual[k]):
                    out.append(f"{path}.{k}: expected {sorted(v)}, got {sorted(actual[k])}")
            else:
                out += matches(v, actual[k], f"{path}.{k}")
        return out
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(expected) != len(actual):
            return [f"{path}: expected {expected!r}, got {actual!r}"]
        out = []
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            out += matches(e, a, f"{path}[{i}]")
        return out
    return [] if expected == actual else [f"{path}: expected {expected!r}, got {actual!r}"]


@pytest.mark.shared
@pytest.mark.parametrize("name", EXAMPLES)
def test_contract_example(shared_dir: Path, name: str) -> None:
    """01: 000 4.12 majority and 000 5.4 kill; 05: 000 4.13 tie, re-vote tie, all leave; 14: 001 day 4."""
    folder = shared_dir / "contract_examples" / name
    bundle = load_bundle(folder)
    assert bundle.bad_lines == ()
    expected = json.loads((folder / "expected.json").read_text(encoding="utf-8"))
    state = referee_bundle(bundle).to_json()
    assert matches(expected, state) == []
    assert state["violations"] == [] and state["needs_review"] == [] and state["disagreements"] == []


def test_matcher_catches_differences() -> None:
    """The comparison itself must fail on a wrong seat set, a missing day and a wrong value."""
    actual = {"alive": [1, 2], "days": [{"day": 1, "eliminated": [3]}], "winner": None}
    assert matches({"alive": [2, 1]}, actual) == []
    assert matches({"alive": [1]}, actual) != []
    assert matches({"days": [{"day": 2}]}, actual) != []
    assert matches({"days": [{"day": 1, "eliminated": [4]}]}, actual) != []
    assert matches({"winner": "red"}, actual) != []


def test_full_example_game(project_root: Path) -> None:
    """examples/full-game: the whole 10-player federation game reproduces its checked-in referee JSON."""
    folder = project_root / "examples" / "full-game"
    state = referee_bundle(load_bundle(folder)).to_json()
    expected = json.loads((folder / "expected.json").read_text(encoding="utf-8"))
    assert state == expected


def test_full_example_game_as_reasoned_from_the_rules(project_root: Path) -> None:
    """The facts of examples/full-game as worked out by hand from the rules (see its README):
    a tie and re-vote (000 4.13), a miss (000 5.5), a player fouled out (000 7.4, 7.5), the vote
    cancelled by his removal (000 11.3), and the red win (001 basics 3)."""
    state = referee_bundle(load_bundle(project_root / "examples" / "full-game")).to_json()
    days = {d["day"]: d for d in state["days"]}
    nights = {n["night"]: n for n in state["nights"]}
    d1 = [(v["round"], v["candidate"], set(v["voters"]), set(v["defaulted"])) for v in days[1]["votes"]]
    assert d1 == [
        ("main", 9, {1, 2, 5, 7, 8}, set()),
        ("main", 4, {3, 4, 6, 9, 10}, {4}),
        ("revote", 9, {1, 2, 5, 7, 8, 10}, set()),
        ("revote", 4, {3, 4, 6, 9}, set()),
    ]
    assert days[1]["eliminated"] == [9]
    assert nights[1]["miss"] is True and nights[1]["killed"] is None
    assert nights[1]["shots"] == {"3": 5, "6": 7}
    assert nights[1]["don_check"]["answer"] == "sheriff"
    assert nights[1]["sheriff_check"]["answer"] == "black"
    assert days[2]["speaking_order"] == [2, 3, 4, 5, 6, 7, 8, 10, 1]
    assert days[2]["eliminated"] == [3]
    assert nights[2]["killed"] == 5
    assert days[3]["speaking_order"] == [4, 6, 7, 10, 1, 2] and days[3]["silenced"] == [8]
    assert days[3]["votes"] == [] and days[3]["no_vote_reason"] == "000 11.3"
    assert state["removed"] == [
        {"seat": 8, "why": "4th foul", "t": state["removed"][0]["t"], "rule": "000 7.5"}
    ]
    assert nights[3]["killed"] == 2
    assert days[4]["speaking_order"] == [6, 7, 10, 1, 4]
    assert days[4]["eliminated"] == [6]
    assert state["winner"] == "red"
    assert set(state["alive"]) == {1, 4, 7, 10}
    assert state["fouls"] == {"8": 4}
    assert state["violations"] == []


def test_vision_example_as_reasoned_from_the_rules(project_root: Path) -> None:
    """examples/vision-votes (see its README): vision votes, the spoken Спасибо (000 4.6), a palm, a hand
    lift with the host's foul (000 4.10), host votes against vision, defaults (000 4.9), a shot between
    numbers (003 subtleties) and a head up at night (000 5.9)."""
    folder = project_root / "examples" / "vision-votes"
    state = referee_bundle(load_bundle(folder)).to_json()
    assert state == json.loads((folder / "expected.json").read_text(encoding="utf-8"))
    v4, v9 = state["days"][0]["votes"]
    assert (v4["source"], set(v4["voters"]), set(v4["late"])) == ("vision", {1, 3, 6, 7}, {2, 10})
    assert (v9["source"], set(v9["voters"]), set(v9["defaulted"])) == ("host", {2, 4, 5, 8, 9, 10}, {2, 10})
    assert state["days"][0]["eliminated"] == [9]
    assert [(c["seat"], c["by_keystroke"], c["by_onset"]) for c in state["timing_changes"]] == [
        (2, "vote", "late")
    ]
    assert [d["what"] for d in state["disagreements"]] == ["host counted 4 for seat 9, vision saw 5"]
    assert sorted((v["rule"], v["seat"]) for v in state["violations"]) == [
        ("000 4.10", 3), ("000 4.6", 2), ("000 4.6", 10), ("000 5.9", 4), ("003 subtleties", 8),
    ]  # fmt: skip
    assert sorted(r["seat"] for r in state["needs_review"]) == [4, 7]  # the palm and the head up
    night = state["nights"][0]
    assert night["miss"] and night["shots"] == {"2": 6, "5": 6} and night["between_numbers"] == [8]
    assert state["fouls"] == {"3": 1}
