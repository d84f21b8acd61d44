"""Bundles: game.json round trip and errors, loading merges the logs, reports problems, keeps events."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gamelog.bundle import (
    Bundle,
    BundleError,
    GameInfo,
    Player,
    create_bundle,
    game_from_json,
    load_bundle,
    read_game,
    write_game,
)
from gamelog.events import Foul, HandDown, Night, SpeechOnset, Void, Vote, VoteCall, VoteStop, event_to_json
from gamelog.jsonl import EventWriter, write_events_replace
from gamelog.layout import read_layout, write_layout
from tests.gamelog.test_layout import layout_obj

NAMES = ["Бриз", "Штиль", "Орбита", "Шмель", "Сова", "Арчи", "Марс", "Ферзь", "Мира", "Лотос"]


def info(**kw: Any) -> GameInfo:
    return GameInfo.new(NAMES, started_at="2024-10-05T18:30:00+03:00", **kw)


def game_obj(**kw: Any) -> dict[str, Any]:
    obj: dict[str, Any] = {
        "format": "mafiacam/1",
        "rules": "federation",
        "started_at": "2024-10-05T18:30:00+03:00",
        "players": [{"seat": i, "name": n} for i, n in enumerate(NAMES, start=1)],
        "video": None,
    }
    obj.update(kw)
    return obj


def test_game_json_round_trip(tmp_path: Path) -> None:
    g = info(
        video=("video/seg-0001.mkv", "video/seg-0002.mkv"),
        rule_options={"vote_window_ms": 2000},
        tournament="Кубок",
        stage="final",
        table="2",
        game_number=7,
        host="Ведущий",
        judges=("Иванов", "Петров"),
        extra={"camera": "Logitech"},
    )
    write_game(tmp_path, g)
    back = read_game(tmp_path)
    assert back == g
    assert back.extra == {"camera": "Logitech"}
    assert back.seats == tuple(range(1, 11))
    assert back.player(3) == Player(3, "Орбита")
    raw = json.loads((tmp_path / "game.json").read_text(encoding="utf-8"))
    assert raw["video"] == ["video/seg-0001.mkv", "video/seg-0002.mkv"]
    assert "Бриз" in (tmp_path / "game.json").read_text(encoding="utf-8")  # UTF-8, not \\u escapes


@pytest.mark.parametrize(
    ("video", "expected"),
    [(None, ()), ("game.mkv", ("game.mkv",)), (["a.mkv", "b.mkv"], ("a.mkv", "b.mkv"))],
)
def test_video_shapes(video: object, expected: tuple[str, ...]) -> None:
    g = game_from_json(game_obj(video=video))
    assert g.video == expected


def test_table_number_and_single_judge_are_accepted() -> None:
    g = game_from_json(game_obj(table=3, judges="Иванов"))
    assert g.table == "3" and g.judges == ("Иванов",)


GAME_ERRORS = [
    (game_obj(format="mafiacam/2"), "field 'format': 'mafiacam/2' was written by a newer mafiacam"),
    (game_obj(format="other/1"), "is not a mafiacam bundle"),
    ({k: v for k, v in game_obj().items() if k != "format"}, "field 'format': missing"),
    (game_obj(started_at="yesterday"), "field 'started_at': not an ISO 8601 time"),
    (game_obj(players=[]), "field 'players'"),
    (
        game_obj(players=[{"seat": 1, "name": "a"}, {"seat": 1, "name": "b"}]),
        "field 'players[1].seat': seat 1 is listed twice",
    ),
    (game_obj(players=[{"seat": "1", "name": "a"}]), "field 'players[0].seat'"),
    (game_obj(video="/abs/game.mkv"), "field 'video'"),
    (game_obj(video=["../other/game.mkv"]), "field 'video'"),
    (game_obj(video=5), "field 'video'"),
    (game_obj(game_number="7"), "field 'game_number'"),
    (game_obj(rule_options=[1]), "field 'rule_options'"),
]


@pytest.mark.parametrize(
    ("obj", "words"), GAME_ERRORS, ids=[w.split(":")[0] + str(i) for i, (_, w) in enumerate(GAME_ERRORS)]
)
def test_game_json_errors_name_file_and_field(tmp_path: Path, obj: dict[str, Any], words: str) -> None:
    (tmp_path / "game.json").write_text(json.dumps(obj), encoding="utf-8")
    with pytest.raises(BundleError) as e:
        read_game(tmp_path)
    assert str(e.value).startswith(str(tmp_path / "game.json") + ": ")
    assert words in str(e.value)


def test_missing_and_broken_game_json(tmp_path: Path) -> None:
    with pytest.raises(BundleError, match=r"game\.json: missing"):
        load_bundle(tmp_path)
    (tmp_path / "game.json").write_text('{\n "format": "mafiacam/1",\n "rules": \n}', encoding="utf-8")
    with pytest.raises(BundleError, match=r"game.json:4:1: invalid JSON"):
        load_bundle(tmp_path)
    with pytest.raises(BundleError, match="not a bundle folder"):
        load_bundle(tmp_path / "nope")


def test_create_and_load(tmp_path: Path) -> None:
    lays = read_layout(_layout_file(tmp_path))
    path = create_bundle(tmp_path / "game1", info(video=("game.mkv",)), lays)
    assert sorted(x.name for x in path.iterdir()) == ["events.jsonl", "game.json", "layout.json"]
    b = load_bundle(path)
    assert b.events == () and b.bad_lines == () and b.problems == ()
    assert b.layout == lays
    assert b.ok
    with pytest.raises(BundleError, match="already exists"):
        create_bundle(path, info())


def _layout_file(tmp_path: Path) -> Path:
    p = tmp_path / "zones.json"
    p.write_text(json.dumps(layout_obj()), encoding="utf-8")
    return p


def test_load_merges_sorts_and_locates_events(tmp_path: Path) -> None:
    path = create_bundle(tmp_path / "g", info())
    call = VoteCall(t=1000, src="host", round="main", candidate=7, id="h1")
    stop = VoteStop(t=3000, src="host", id="h2")
    vote = Vote(t=3100, src="host", seat=2, candidate=7, id="h3")
    with EventWriter(path / "events.jsonl") as w:
        for ev in (stop, call, vote):  # file order is not time order
            w.append(ev)
    down = HandDown(t=2000, src="vision", seat=2, gesture="thumb_up", conf=0.9, id="v1")
    onset = SpeechOnset(t=2800, src="audio", ref="h2", conf=0.8, id="a1")
    write_events_replace(path / "vision.jsonl", [down])
    write_events_replace(path / "audio.jsonl", [onset])
    b = load_bundle(path)
    assert b.events == (call, down, onset, stop, vote)
    assert [b.where(e) for e in b.events] == [
        "events.jsonl:2",
        "vision.jsonl:1",
        "audio.jsonl:1",
        "events.jsonl:1",
        "events.jsonl:3",
    ]
    assert b.by_id()["v1"] == down
    assert b.problems == () and b.bad_lines == ()


def _bundle_with_lines(
    tmp_path: Path, events_lines: list[str], vision_lines: tuple[str, ...] | list[str] = ()
) -> Bundle:
    path = create_bundle(tmp_path / "g", info())
    (path / "events.jsonl").write_text("".join(x + "\n" for x in events_lines), encoding="utf-8")
    if vision_lines:
        (path / "vision.jsonl").write_text("".join(x + "\n" for x in vision_lines), encoding="utf-8")
    return load_bundle(path)


def j(ev: Any) -> str:
    return json.dumps(event_to_json(ev), ensure_ascii=False)


def test_unknown_seat_is_kept_and_reported_with_file_and_line(tmp_path: Path) -> None:
    bad_seat = Foul(t=5, src="host", seat=11, reason="x")
    b = _bundle_with_lines(tmp_path, [j(Night(t=1, src="host", n=0)), j(bad_seat)])
    assert bad_seat in b.events
    assert b.problems == ("events.jsonl:2: field 'seat': seat 11 is not a seat of this game",)


def test_dangling_ref_wrong_file_and_cross_file_duplicate(tmp_path: Path) -> None:
    b = _bundle_with_lines(
        tmp_path,
        [
            j(Void(t=9, src="judge", ref="gone", reason="x")),
            j(HandDown(t=3, src="vision", seat=1, gesture="fist", conf=0.5)),
            j(Night(t=1, src="host", n=0, id="dup")),
        ],
        [j(HandDown(t=4, src="vision", seat=2, gesture="fist", conf=0.5, id="dup"))],
    )
    assert "events.jsonl:1: field 'ref': no event has id 'gone'" in b.problems
    assert "events.jsonl:2: a 'vision' event does not belong in events.jsonl" in b.problems
    (dup,) = b.bad_lines
    assert dup.error == "vision.jsonl:1: field 'id': duplicate id 'dup' (first at events.jsonl:3)"
    assert len(b.events) == 3  # the void stays (the referee reports it too); the duplicate is out


def test_bad_lines_of_every_file_are_reported(tmp_path: Path) -> None:
    b = _bundle_with_lines(tmp_path, [j(Night(t=1, src="host", n=0)), "{oops"], ["not json"])
    assert [(x.file, x.line) for x in b.bad_lines] == [("events.jsonl", 2), ("vision.jsonl", 1)]
    assert len(b.events) == 1
    assert not b.ok


def test_layout_problems_do_not_stop_loading(tmp_path: Path) -> None:
    path = create_bundle(tmp_path / "g", info(video=("game.mkv",)))
    assert "layout.json: missing" in load_bundle(path).problems[0]
    obj = layout_obj()
    obj["seats"][2]["table_zone"] = [[1, 1], [2, 2]]
    (path / "layout.json").write_text(json.dumps(obj), encoding="utf-8")
    b = load_bundle(path)
    assert b.layout is None
    assert b.problems == ("layout.json: seat 3 table_zone: polygon has 2 points (needs at least 3)",)


def test_layout_seat_count_follows_the_game(tmp_path: Path) -> None:
    g = GameInfo.new([f"p{i}" for i in range(12)], rules="novosibirsk", started_at="2024-01-01T10:00:00")
    path = create_bundle(tmp_path / "g", g)
    write_layout(path / "layout.json", read_layout(_write(tmp_path, layout_obj(12)), seats=12))
    b = load_bundle(path)
    assert b.layout is not None and len(b.layout.layouts[0].seats) == 12
    assert b.problems == ()


def _write(tmp_path: Path, obj: object) -> Path:
    p = tmp_path / "x.json"
    p.write_text(json.dumps(obj), encoding="utf-8")
    return p


@pytest.mark.shared
def test_contract_examples_load(shared_dir: Path) -> None:
    folders = sorted(p for p in (shared_dir / "contract_examples").iterdir() if (p / "game.json").exists())
    assert len(folders) >= 3
    for folder in folders:
        b = load_bundle(folder)
        assert b.bad_lines == (), folder
        assert b.problems == (), folder
        assert b.game.format == "mafiacam/1"
        assert b.game.seats == tuple(range(1, 11))
        n_lines = sum(
            1 for x in (folder / "events.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()
        )
        assert len(b.events) == n_lines
        assert [e.t for e in b.events] == sorted(e.t for e in b.events)


def test_game_json_with_a_byte_order_mark(tmp_path: Path) -> None:
    (tmp_path / "game.json").write_bytes(b"\xef\xbb\xbf" + json.dumps(game_obj()).encode())
    assert read_game(tmp_path).seats == tuple(range(1, 11))
