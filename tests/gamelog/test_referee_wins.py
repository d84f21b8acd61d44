"""Table size, roles and the end of the game (000 1.1; 001 basics 1, basics 3; 004 9–13 players), and the
readable summary."""

from __future__ import annotations

import pytest

from gamelog.bundle import GameInfo
from gamelog.summary import summary_text
from tests.gamelog.referee_builder import Game


def rules_of(state: dict[str, object]) -> list[str]:
    return [v["rule"] for v in state["violations"]]  # type: ignore[index, attr-defined]


def test_red_win_when_the_last_black_leaves_001_basics_3() -> None:
    """001 basics 3: red win when every black player has left — here the last one by vote."""
    g = Game(don=2, mafia=(), sheriff=1)  # one black player (flagged: 001 basics 1)
    g.full_day_vote({1: 2, 3: 6}, {2: [1, 3, 4, 5, 6, 7], 6: [2, 8, 9, 10]})
    state = g.json()
    assert state["winner"] == "red" and "001 basics 3" in state["win_reason"]
    assert "001 basics 1" in rules_of(state)


def test_black_win_at_equal_numbers_after_a_kill_001_basics_3() -> None:
    """001 basics 3: black win when black and red at the table are equal — checked after the night."""
    g = Game()
    for s in (3, 4, 6):
        g.add("disqualify", seat=s, reason="test")
        g.tick(10)
    # 1, 2, 5, 7, 8, 9, 10: black 3 vs red 4
    g.discussion(order=[1, 2, 5, 7, 8, 9, 10])
    g.night()
    g.shooting({2: 7, 5: 7, 8: 7})
    g.day()
    state = g.json()
    assert state["winner"] == "black" and state["killed"] == [7]
    assert state["alive"] == [1, 2, 5, 8, 9, 10]


def test_game_marked_on_after_it_was_decided_is_reported() -> None:
    """001 basics 3: the game ends at once; later phases are reported, not played."""
    g = Game(don=2, mafia=(), sheriff=1)
    g.full_day_vote({1: 2, 3: 6}, {2: [1, 3, 4, 5, 6, 7], 6: [2, 8, 9, 10]})
    g.night()
    g.shooting({})
    g.day()
    state = g.json()
    assert state["winner"] == "red" and state["nights"] == [] and len(state["days"]) == 1
    assert any("after the game was decided" in r["what"] for r in state["needs_review"])


def test_no_roles_no_winner_001_basics_1() -> None:
    """001 basics 1 (7 red, 3 black): without a roles event nobody can win and checks are unknown."""
    g = Game(roles=False)
    g.discussion()
    g.night()
    g.shooting({2: 7, 5: 7})
    g.add("sheriff_check", target=3)
    g.tick(5000)
    g.day()
    state = g.json()
    assert state["winner"] is None and state["roles"] == {}
    # the shooters are taken as the black team: both shot 7
    assert state["nights"][0]["killed"] == 7
    assert state["nights"][0]["sheriff_check"]["answer"] == "unknown"


@pytest.mark.parametrize(
    ("rules", "seats", "flagged"),
    [
        ("federation", 10, False),  # 000 1.1: ten players
        ("federation", 11, True),
        ("novosibirsk", 9, False),  # 004: 9–13 players
        ("novosibirsk", 13, False),
        ("novosibirsk", 14, True),
    ],
)
def test_table_size_000_1_1_004(rules: str, seats: int, flagged: bool) -> None:
    """000 1.1 (ten players) and 004 (9–13 players)."""
    g = Game(rules, seats=seats)
    state = g.json()
    assert bool({"000 1.1", "004"} & set(rules_of(state))) is flagged


def test_thirteen_players_rotate_and_vote_004() -> None:
    """004 (9–13 players): the speaking order and the defaults work for 13 seats; day 1 is voted."""
    g = Game("novosibirsk", seats=13, don=2, mafia=(5, 8, 11), sheriff=1)
    g.discussion(noms={12: 13})
    g.vote(13, [1, 2])
    state = g.json()
    d = state["days"][0]
    assert d["speaking_order"] == list(range(1, 14))
    assert d["eliminated"] == [13] and len(d["votes"][0]["voters"]) == 13
    assert state["rule_options"]["roles_revealed"] is True


def test_summary_reads_like_the_host_sheet() -> None:
    """A readable summary: day by day, night by night, with names, the result and the findings."""
    g = Game()
    g.discussion(noms={1: 4, 6: 9})
    g.vote(4, [1, 3, 6, 7, 10])
    g.vote(9, [2, 5, 8, 9])
    g.vote(4, [1, 2, 3, 6, 10], "revote")
    g.vote(9, [5, 7, 8, 9], "revote")
    g.vote("all", [1, 3, 5, 6, 7, 10], "all")
    g.night()
    g.shooting({2: 3, 5: 3, 8: 6})
    g.day()

    names = ["Искра", "Вега", "Дюна", "Ферзь", "Граф", "Кельт", "Барон", "Мира", "Марс", "Штиль"]
    text = summary_text(g.run(), GameInfo.new(names))
    assert "Day 1" in text and "Night 1" in text and "miss" in text
    assert "all leaving (4, 9): for 6" in text and "all leave" in text
    assert "№4 Ферзь" in text and "№9 Марс" in text
    assert text.index("Day 1") < text.index("Night 1") < text.index("Day 2")
    assert "Result: not decided" in text


def test_state_accessors_and_preset_name() -> None:
    """``referee`` takes a preset name too; ``GameState.day(n)`` / ``night(n)`` find results by number."""
    from gamelog.referee import referee

    g = Game()
    g.full_day_vote({1: 4, 3: 6}, {4: [1, 2, 3, 5, 7, 9], 6: [4, 6]})
    g.night()
    g.shooting({2: 7, 5: 7, 8: 7})
    g.day()
    state = referee(g.events(), rules="club")
    assert state.rules == "club"
    d1, n1 = state.day(1), state.night(1)
    assert d1 is not None and d1.eliminated == (4,)
    assert n1 is not None and n1.killed == 7
    assert state.day(5) is None and state.night(0) is None


@pytest.mark.parametrize(("rules", "shown"), [("novosibirsk", True), ("federation", False)])
def test_roles_revealed_on_leaving_004_000_4_14(rules: str, shown: bool) -> None:
    """004 reveals the card of a player who leaves; 000 4.14 does not."""
    g = Game(rules)
    g.full_day_vote({1: 5, 3: 6}, {5: [1, 2, 3, 4, 6, 7], 6: [5, 8, 9, 10]})
    g.night()
    g.shooting({2: 7, 8: 7})
    g.day()
    state = g.json()
    d1, n1 = state["days"][0], state["nights"][0]
    assert d1["eliminated"] == [5] and n1["killed"] == 7
    assert (d1["revealed"], n1["revealed"]) == (({"5": "mafia"}, {"7": "red"}) if shown else ({}, {}))
    assert ("(mafia)" in summary_text(g.run())) is shown
