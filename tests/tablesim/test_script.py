"""Game script validation: every error names the file and the field."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from tablesim.script import ScriptError, load_script, parse_script

BASE: dict[str, Any] = {
    "format": "tablesim/1",
    "seed": 3,
    "roles": {"don": 4, "mafia": [7, 9], "sheriff": 2},
    "host": [
        {"t": 300, "do": "day", "n": 1},
        {"t": 500, "do": "nominate", "by": 1, "target": 7},
        {"t": 700, "do": "nominate", "by": 2, "target": 5},
        {"t": 1000, "do": "vote_call", "candidate": 7},
        {"t": 3500, "do": "vote_stop"},
        {"t": 4300, "do": "vote_count"},
        {"t": 5000, "do": "vote_call", "candidate": 5},
        {"t": 7500, "do": "vote_stop"},
        {"t": 8300, "do": "vote_count"},
        {"t": 9500, "do": "night", "n": 1},
        {"t": 12000, "do": "shot_call", "target": 1},
    ],
    "seats": [
        {"t": 3000, "seat": 3, "do": "vote"},
        {"t": 12600, "seat": 4, "do": "shot"},
        {"t": 13000, "seat": 2, "do": "peek", "until": 14000},
    ],
}


def edited(path: str, value: Any) -> dict[str, Any]:
    obj = copy.deepcopy(BASE)
    keys = path.split(".")
    cur: Any = obj
    for k in keys[:-1]:
        cur = cur[int(k)] if k.isdigit() else cur[k]
    last = keys[-1]
    if value is ...:
        del cur[int(last) if last.isdigit() else last]
    elif last.isdigit():
        cur[int(last)] = value
    else:
        cur[last] = value
    return obj


def test_the_base_script_is_valid() -> None:
    s = parse_script(BASE)
    assert s.roles.black == (4, 7, 9)
    assert s.end == 14000 + 4000
    assert [h.kind for h in s.host][:3] == ["day", "nominate", "nominate"]
    assert s.seats[1].gesture == "gun" and s.seats[0].gesture == "thumb_up"


@pytest.mark.parametrize(
    ("path", "value", "field", "message"),
    [
        ("format", "other/2", "format", "tablesim/1"),
        ("roles.mafia", [4, 9], "roles.mafia", "three different seats"),
        ("roles.sheriff", 7, "roles.sheriff", "cannot be black"),
        ("roles.don", 11, "roles.don", "within 1..10"),
        ("host.3.do", "vote_kall", "host[3].do", "unknown host line"),
        ("host.3.candidate", ..., "host[3].candidate", "needs a candidate"),
        ("host.3.round", "final", "host[3].round", "main, revote or all"),
        ("host.4.t", 200, "host[4].t", "time order"),
        ("host.10.target", ..., "host[10].target", "needs 'target'"),
        ("seats.0.t", 200, "seats[0].t", "a vote must happen during a day"),
        ("seats.0.t", 1200, "seats[0].t", "at least 400 ms after"),
        ("seats.0.t", 3450, "seats[0].t", "ambiguous"),
        ("seats.0.gesture", "wave", "seats[0].gesture", "gesture must be one of"),
        ("seats.0.hand", "both", "seats[0].hand", "right or left"),
        ("seats.0.seat", 0, "seats[0].seat", "within 1..10"),
        ("seats.1.t", 5000, "seats[1].t", "shooting night"),
        ("seats.2.until", 12000, "seats[2].until", "must be after t"),
        ("seats.2.t", 5000, "seats[2].t", "peek happens at night"),
        ("seats.2.do", "dance", "seats[2].do", "unknown action"),
        ("end", 9000, "end", "after the last"),
    ],
)
def test_errors_name_the_field(path: str, value: Any, field: str, message: str) -> None:
    with pytest.raises(ScriptError) as err:
        parse_script(edited(path, value), file="game.json")
    assert err.value.field == field
    assert message in str(err.value)
    assert str(err.value).startswith(f"game.json: {field}: ")


def test_a_late_vote_at_or_after_spasibo_is_allowed() -> None:
    s = parse_script(edited("seats.0.t", 3500))
    assert s.seats[0].t == 3500


def test_load_script_names_the_file_on_bad_json(tmp_path: Path) -> None:
    p = tmp_path / "broken.json"
    p.write_text('{"format": "tablesim/1",\n "seed": }', encoding="utf-8")
    with pytest.raises(ScriptError, match=r"broken\.json: not JSON: line 2"):
        load_script(p)
    with pytest.raises(ScriptError, match="cannot read"):
        load_script(tmp_path / "missing.json")
    good = tmp_path / "good.json"
    good.write_text(json.dumps(BASE, ensure_ascii=False), encoding="utf-8")
    assert load_script(good).seed == 3


def test_a_reach_must_go_into_a_neighbours_zone() -> None:
    obj = copy.deepcopy(BASE)
    obj["seats"].append({"t": 2000, "seat": 3, "do": "reach", "into": 6, "until": 2500})
    with pytest.raises(ScriptError, match="neighbour") as err:
        parse_script(obj)
    assert err.value.field == "seats[3].into"
    obj["seats"][-1]["into"] = 4
    assert parse_script(obj).seats[-1].into == 4
