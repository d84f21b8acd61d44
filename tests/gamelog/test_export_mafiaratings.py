"""The mafiaratings.com game JSON: rounds, roles, deaths, votes, nominations, shots, checks, legacy."""

from __future__ import annotations

import dataclasses
import json
import random
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from gamelog.bundle import GameInfo, Player
from gamelog.exports import ExportError, export_mafiaratings
from tests.gamelog.export_cases import (
    EXAMPLES,
    example_bundle,
    example_state,
    long_game_events,
    long_game_info,
    long_game_state,
)


def example_record(shared_dir: Path, name: str) -> dict[str, Any]:
    bundle = example_bundle(shared_dir, name)
    return export_mafiaratings(bundle.game, bundle.events, example_state(shared_dir, name))


def player(record: dict[str, Any], seat: int) -> dict[str, Any]:
    p: dict[str, Any] = record["players"][seat - 1]
    return p


@pytest.mark.parametrize("name", EXAMPLES)
def test_contract_examples_export_ten_players_in_seat_order(shared_dir: Path, name: str) -> None:
    bundle = example_bundle(shared_dir, name)
    record = example_record(shared_dir, name)
    assert [p["name"] for p in record["players"]] == [p.name for p in bundle.game.players]
    roles = sorted(p["role"] for p in record["players"])
    assert roles == ["civ"] * 6 + ["don", "maf", "maf", "sheriff"]
    assert "winner" not in record  # none of the three games is finished
    assert record["features"] == "gsdutlhvknw"
    start = int(datetime.fromisoformat(bundle.game.started_at).timestamp())
    assert record["startTime"] == start
    assert record["endTime"] == start + max(e.t for e in bundle.events) // 1000
    json.dumps(record)  # plain JSON types only


def test_example_01_majority_kill_and_checks(shared_dir: Path) -> None:
    r = example_record(shared_dir, "01-majority-and-kill")
    assert r["startTime"] == 1728142200  # 2024-10-05 18:30 +03:00
    assert [player(r, s)["role"] for s in (2, 4, 7, 9)] == ["sheriff", "don", "maf", "maf"]
    # Day 1 is round 0; night 1 is round 1.
    assert player(r, 5)["death"] == {"round": 0, "type": "day"}
    assert player(r, 2)["death"] == {"round": 1, "type": "night"}
    assert all("death" not in player(r, s) for s in (1, 3, 4, 6, 7, 8, 9, 10))
    assert [player(r, s)["voting"] for s in (1, 2, 3, 5)] == [[7]] * 4
    assert [player(r, s)["voting"] for s in (4, 6, 7, 8, 9, 10)] == [[5]] * 6
    assert player(r, 1)["nominating"] == [7] and player(r, 3)["nominating"] == [5]
    assert "nominating" not in player(r, 2)
    assert [player(r, s)["shooting"] for s in (4, 7, 9)] == [[2], [2], [2]]
    assert all("shooting" not in player(r, s) for s in (1, 2, 3, 5, 6, 8, 10))
    assert player(r, 6)["don"] == 1  # the Don checked seat 6 in night 1
    assert player(r, 9)["sheriff"] == 1  # the Sheriff checked seat 9 in night 1
    assert sum("don" in p for p in r["players"]) == sum("sheriff" in p for p in r["players"]) == 1


def test_example_05_revote_and_all_leave_answers(shared_dir: Path) -> None:
    r = example_record(shared_dir, "05-tie-all-leave-pass")
    # main, re-vote, then the answer to "all leave?" (true = for)
    assert player(r, 1)["voting"] == [[4, 4, True]]
    assert player(r, 2)["voting"] == [[9, 4, False]]
    assert player(r, 4)["voting"] == [[9, 9, False]]  # defaulted votes count as votes
    assert player(r, 7)["voting"] == [[4, 9, True]]
    assert player(r, 9)["voting"] == [[9, 9, False]]
    for seat in (4, 9):
        assert player(r, seat)["death"] == {"round": 0, "type": "day"}
    assert player(r, 1)["nominating"] == [4] and player(r, 6)["nominating"] == [9]


def test_example_14_no_vote_on_day_one_and_defaults(shared_dir: Path) -> None:
    r = example_record(shared_dir, "14-club-withdrawal")
    assert player(r, 1)["voting"] == [None, 1]  # round 0: no vote held; round 1: defaulted to seat 1
    assert player(r, 2)["voting"] == [None, 10]
    assert player(r, 1)["death"] == {"round": 1, "type": "day"}
    assert player(r, 7)["death"] == {"round": 1, "type": "night"}
    assert "voting" not in player(r, 7)  # killed before the only vote
    assert player(r, 9).get("nominating") is None  # the withdrawn nomination does not count
    assert player(r, 3)["nominating"] == [None, 10]
    assert player(r, 3)["don"] == 1 and player(r, 10)["sheriff"] == 1


def long_record(**kw: Any) -> dict[str, Any]:
    return export_mafiaratings(long_game_info(), long_game_events(), long_game_state(), **kw)


def test_finished_game_winner_deaths_legacy_and_warnings() -> None:
    r = long_record(club_id=12, event_id=345, moderator_id=9, language="en")
    assert r["winner"] == "civ"
    assert (r["clubId"], r["eventId"], r["moderator"]) == (12, 345, {"id": 9, "name": "Ведущий Иван"})
    assert "tournamentId" not in r and "id" not in r
    assert (r["tableNum"], r["gameNum"], r["language"]) == (2, 7, "en")
    deaths = {s: player(r, s).get("death") for s in range(1, 11)}
    assert deaths == {
        1: {"round": 1, "type": "night"},
        2: None,
        3: {"round": 1, "type": "day"},
        4: None,
        5: None,
        6: {"round": 0, "type": "day"},
        7: {"round": 2, "type": "night"},
        8: {"round": 2, "type": "day"},
        9: None,
        10: {"round": 2, "type": "kickOut"},
    }
    assert player(r, 1)["legacy"] == [3, 8, 5]
    assert sum("legacy" in p for p in r["players"]) == 1
    assert player(r, 4)["warnings"] == 2 and player(r, 10)["warnings"] == 1
    assert "warnings" not in player(r, 2)
    assert player(r, 2)["voting"] == [6, [3, 3], 8]
    assert player(r, 10)["voting"] == [3, [5, 3]]  # disqualified on day 3 before the vote
    assert player(r, 8)["voting"] == [4, [5, 5]]
    assert player(r, 8)["shooting"] == [1, 7] and player(r, 3)["shooting"] == [1]
    assert "shooting" not in player(r, 6)  # voted out before the first shooting night
    assert player(r, 2)["nominating"] == [6, 3, 8]


def test_black_win_and_several_shots_are_a_miss() -> None:
    state = long_game_state()
    state["winner"] = "black"
    state["nights"][1] = {"night": 2, "shots": {"8": [7, 9]}, "killed": None, "miss": True}
    r = export_mafiaratings(long_game_info(), long_game_events(), state)
    assert r["winner"] == "maf"
    assert player(r, 8)["shooting"] == [1]  # night 2: two shots, nothing the site can record


def test_removal_types_follow_the_events() -> None:
    state = long_game_state()
    state["removed"] = [{"seat": 10, "why": "4th foul", "t": 225_000, "rule": "000 7.5"}]
    state["fouls"] = {"4": 2, "10": 4}
    events = [e for e in long_game_events() if e.TYPE != "disqualify"]
    r = export_mafiaratings(long_game_info(), events, state)
    assert player(r, 10)["death"] == {"round": 2, "type": "warnings"}
    assert player(r, 10)["warnings"] == 4


def test_game_without_roles_is_refused_with_a_clear_message() -> None:
    with pytest.raises(ExportError, match="no 'roles' event"):
        export_mafiaratings(long_game_info(), long_game_events(roles=False), long_game_state(roles=False))


def test_game_of_nine_players_is_refused() -> None:
    info = long_game_info()
    info = dataclasses.replace(info, players=info.players[:9])
    state = long_game_state()
    state["roles"] = {k: v for k, v in state["roles"].items() if k != "10"}
    with pytest.raises(ExportError, match="10 players"):
        export_mafiaratings(info, long_game_events(), state)


def test_roles_the_site_does_not_have_are_refused() -> None:
    state = long_game_state()
    state["roles"]["5"] = "doctor"
    with pytest.raises(ExportError, match="doctor"):
        export_mafiaratings(long_game_info(), long_game_events(), state)
    state["roles"]["5"] = "mafia"
    with pytest.raises(ExportError, match="2 mafia"):
        export_mafiaratings(long_game_info(), long_game_events(), state)


def test_bad_start_time_is_refused_naming_the_field() -> None:
    info = long_game_info(started_at="yesterday evening")
    with pytest.raises(ExportError, match="started_at"):
        export_mafiaratings(info, long_game_events(), long_game_state())


def test_start_without_offset_is_read_as_utc() -> None:
    info = long_game_info(started_at="2024-10-05T15:30:00")
    r = export_mafiaratings(info, long_game_events(), long_game_state())
    assert r["startTime"] == 1728142200


def test_output_is_deterministic_and_ignores_event_order() -> None:
    first = json.dumps(long_record(), ensure_ascii=False)
    events = long_game_events()
    random.Random(7).shuffle(events)
    again = json.dumps(export_mafiaratings(long_game_info(), events, long_game_state()), ensure_ascii=False)
    assert first == again


def test_player_object_from_gameinfo_only() -> None:
    """Any object with ``players`` (seat, name) will do; the header fields are optional."""

    @dataclasses.dataclass(frozen=True)
    class Minimal:
        players: tuple[Player, ...]
        started_at: str = "2024-10-05T18:30:00+03:00"

    info: GameInfo = long_game_info()
    r = export_mafiaratings(Minimal(info.players), long_game_events(), long_game_state())
    assert "moderator" not in r and "tableNum" not in r
    assert player(r, 3)["name"] == "Орбита"


# ---- the consistency rules the site applies to an uploaded game -------------------------------------


def site_problems(record: dict[str, Any]) -> list[str]:
    """What mafiaratings.com would complain about, by the rules its game checker states (see EXPORTS.md):
    role counts, nothing done after death, legacy only after a first-night kill, shots only by black
    players, every living black player shooting a night's victim, votes only for nominated players, and a
    winner that follows from who is left."""
    out: list[str] = []
    players = record["players"]
    roles = [p.get("role", "civ") for p in players]
    if sorted(roles) != ["civ"] * 6 + ["don", "maf", "maf", "sheriff"]:
        out.append(f"roles {roles}")
    black = {i for i, r in enumerate(roles) if r in ("maf", "don")}

    def death_at(i: int) -> tuple[int, str] | None:
        d = players[i].get("death")
        return None if d is None else (d["round"], d["type"])

    for i, p in enumerate(players):
        d = death_at(i)
        if d is not None:
            rnd, typ = d
            day_rounds = rnd if typ == "night" else rnd + 1  # a night victim takes no part in that day
            for key in ("voting", "nominating"):
                if len(p.get(key, [])) > day_rounds:
                    out.append(f"seat {i + 1}: {key} after death")
            if len(p.get("shooting", [])) > (rnd if typ != "night" else rnd - 1):
                out.append(f"seat {i + 1}: shooting after death")
        if "legacy" in p and (d is None or d[1] != "night" or d[0] > 1):
            out.append(f"seat {i + 1}: legacy without a first-night kill")
        if "shooting" in p and i not in black:
            out.append(f"seat {i + 1}: red player shooting")
    for i in range(len(players)):
        d = death_at(i)
        if d is None or d[1] != "night":
            continue
        rnd = d[0]
        for b in black:
            bd = death_at(b)
            alive = bd is None or bd[0] > rnd or (bd[0] == rnd and bd[1] == "night")
            shots = players[b].get("shooting", [])
            if alive and (len(shots) < rnd or shots[rnd - 1] != i + 1):
                out.append(f"night {rnd}: seat {b + 1} did not shoot the victim {i + 1}")
    rounds = max((len(p.get("voting", [])) for p in players), default=0)
    for r in range(rounds):
        nominated = {p["nominating"][r] for p in players if len(p.get("nominating", [])) > r}
        for i, p in enumerate(players):
            entry = p.get("voting", [])[r] if len(p.get("voting", [])) > r else None
            picks = entry if isinstance(entry, list) else [entry]
            for v in picks:
                if isinstance(v, int) and not isinstance(v, bool) and v not in nominated:
                    out.append(f"round {r}: seat {i + 1} voted for {v}, who was not nominated")
    alive_black = sum(1 for b in black if death_at(b) is None)
    alive_red = sum(1 for i in range(len(players)) if i not in black and death_at(i) is None)
    expected = "civ" if alive_black == 0 else "maf" if alive_black >= alive_red else None
    if "winner" in record and expected is not None and record["winner"] != expected:
        out.append(f"winner {record['winner']} but {alive_black} black and {alive_red} red are left")
    if "winner" not in record and expected is not None:
        out.append("the game is over by the table but has no winner")
    return out


@pytest.mark.parametrize("name", EXAMPLES)
def test_contract_examples_pass_the_site_checks(shared_dir: Path, name: str) -> None:
    assert site_problems(example_record(shared_dir, name)) == []


def test_long_game_passes_the_site_checks() -> None:
    assert site_problems(long_record()) == []


def test_site_checker_catches_what_it_is_meant_to() -> None:
    """The checker above must itself fail on broken records, or the two tests before prove nothing."""
    broken = long_record()
    broken["players"][1]["shooting"] = [4]  # a red player shooting
    broken["players"][7]["shooting"] = [2, 7]  # a black player missing the night-1 victim
    broken["players"][4]["voting"] = [9]  # a vote for a player nobody nominated
    broken["winner"] = "maf"
    problems = site_problems(broken)
    assert any("red player shooting" in p for p in problems)
    assert any("did not shoot the victim 1" in p for p in problems)
    assert any("voted for 9" in p for p in problems)
    assert any(p.startswith("winner maf") for p in problems)


# ---- examples/full-game: a whole game entered by hand, through the real referee ---------------------


def full_game_record(project_root: Path) -> dict[str, Any]:
    from gamelog.bundle import load_bundle
    from gamelog.referee import referee_bundle

    bundle = load_bundle(project_root / "examples" / "full-game")
    return export_mafiaratings(bundle.game, bundle.events, referee_bundle(bundle).to_json())


def test_full_game_record(project_root: Path) -> None:
    r = full_game_record(project_root)
    assert site_problems(r) == []
    assert r["winner"] == "civ" and (r["tableNum"], r["gameNum"]) == (1, 1)
    roles = {s: player(r, s)["role"] for s in (3, 5, 6, 9)}
    assert roles == {3: "don", 5: "sheriff", 6: "maf", 9: "maf"}
    deaths = {s: player(r, s).get("death") for s in range(1, 11)}
    assert deaths == {
        1: None,
        2: {"round": 3, "type": "night"},
        3: {"round": 1, "type": "day"},
        4: None,
        5: {"round": 2, "type": "night"},
        6: {"round": 3, "type": "day"},
        7: None,
        8: {"round": 2, "type": "warnings"},
        9: {"round": 0, "type": "day"},
        10: None,
    }
    assert player(r, 8)["warnings"] == 4
    assert player(r, 4)["voting"] == [[4, 4], 3, None, 6]  # defaulted to 4 on day 1; day 3 cancelled
    assert player(r, 10)["voting"][0] == [4, 9]
    assert player(r, 3)["shooting"] == [5] and player(r, 6)["shooting"] == [7, 5, 2]
    assert player(r, 5)["don"] == 1 and player(r, 3)["sheriff"] == 1
    assert player(r, 4)["nominating"] == [None, None, 6]


def test_fourth_foul_with_four_at_the_table_is_a_team_kick_out() -> None:
    """The referee's clause (000 10.3) names the removal even though the events hold only fouls."""
    state = long_game_state()
    state["removed"] = [{"seat": 10, "why": "4th foul", "t": 225_000, "rule": "000 10.3"}]
    events = [e for e in long_game_events() if e.TYPE != "disqualify"]
    r = export_mafiaratings(long_game_info(), events, state)
    assert player(r, 10)["death"] == {"round": 2, "type": "teamKickOut"}
