"""Fouls, removals, team loss (000 6.1.12, 7.4, 7.5, 8.1, 8.1.4, 9.1, 9.1.6, 10, 10.1, 11.5; 002 18;
003 SHOWTIME "замечания"; 004)."""

from __future__ import annotations

import pytest

from tests.gamelog.referee_builder import Game


def rules_of(state: dict[str, object]) -> list[str]:
    return [v["rule"] for v in state["violations"]]  # type: ignore[index, attr-defined]


def foul(
    seat: int, off: int, reason: str = "spoke in another's minute"
) -> tuple[int, str, dict[str, object]]:
    return (off, "foul", {"seat": seat, "reason": reason})


def test_fouls_are_counted_from_host_and_judge_000_8_1() -> None:
    """000 8.1: fouls are given by the host (or a judge); vision never adds one."""
    g = Game()
    g.add("foul", seat=3, reason="knocking")
    g.add("foul", t=g.t + 10, src="judge", seat=3, reason="gestures")
    g.hands(4, {1: 200})  # vision alone, a hand lift later: still no foul
    state = g.json()
    assert state["fouls"] == {"3": 2}


@pytest.mark.parametrize(
    ("third_foul_during", "silenced_today"),
    [
        (1, True),  # seat 6 has not spoken yet: loses this round's speech
        (6, False),  # during his own speech: the next round (002 18)
        (9, False),  # after his speech: the next round
    ],
)
def test_three_fouls_lose_the_next_speech_000_7_4_002_18(
    third_foul_during: int, silenced_today: bool
) -> None:
    """000 7.4: three fouls → the player loses his next speech: this round if he has not spoken yet,
    else the next; 002 18: a third foul during his own speech counts as after it."""
    g = Game()
    g.add("foul", seat=6)
    g.add("foul", t=g.t + 10, seat=6)
    g.tick(1000)
    order = [s for s in range(1, 11) if not (silenced_today and s == 6)]
    g.discussion(order=order, during={third_foul_during: [foul(6, 20_000)]}, noms={1: 4, 3: 9})
    g.vote(4, [1, 2, 3])
    g.vote(9, [4, 5])
    g.night()
    g.shooting({})
    g.day()
    g.discussion(order=[s for s in [2, 3, 4, 5, 6, 7, 8, 9, 10, 1] if silenced_today or s != 6])
    state = g.json()
    d1, d2 = state["days"][0], state["days"][1]
    assert (6 in d1["silenced"], 6 in d2["silenced"]) == (silenced_today, not silenced_today)
    assert (6 in d1["speaking_order"]) is not silenced_today
    assert state["violations"] == []


def test_silenced_player_speaking_is_a_violation_000_7_4() -> None:
    """000 7.4: the host gave the floor to a silenced player."""
    g = Game(start_day=False)
    for i in range(3):
        g.add("foul", t=g.t + i, seat=4)
    g.tick(1000)
    g.day()
    g.discussion(noms={1: 2, 3: 5})
    state = g.json()
    assert ("000 7.4", 4) in [(v["rule"], v["seat"]) for v in state["violations"]]


def test_silenced_player_speaks_in_the_tie_000_11_5() -> None:
    """000 11.5: a player with three fouls in a tie still gets his 30 s: not a violation."""
    g = Game(start_day=False)
    for i in range(3):
        g.add("foul", t=g.t + i, seat=4)
    g.tick(1000)
    g.day()
    g.discussion(order=[1, 2, 3, 5, 6, 7, 8, 9, 10], noms={1: 4, 6: 9})
    g.vote(4, [1, 3, 6, 7, 10])
    g.vote(9, [2, 5, 8, 9])
    g.speech(4, 30_000)
    g.speech(9, 30_000)
    g.vote(4, [1, 2, 3, 6, 7, 10], "revote")
    g.vote(9, [5, 8, 9], "revote")
    state = g.json()
    assert state["violations"] == [] and state["days"][0]["eliminated"] == [4]


@pytest.mark.parametrize(("rules", "silenced"), [("showtime", []), ("federation", [4])])
def test_silenced_with_three_players_gets_30s_003_showtime(rules: str, silenced: list[int]) -> None:
    """003 SHOWTIME: the silencing does not apply in a round of only three players (30 s instead)."""
    g = Game(rules, don=2, mafia=(), sheriff=1, start_day=False)
    for s in (1, 3, 5, 7, 8, 9, 10):
        g.add("disqualify", seat=s, reason="test")
        g.tick(10)
    for _ in range(3):
        g.add("foul", seat=4)
        g.tick(10)
    g.day()
    state = g.json()
    assert state["winner"] is None and state["alive"] == [2, 4, 6]
    assert state["days"][0]["silenced"] == silenced


def test_fourth_foul_removes_without_last_word_000_7_5() -> None:
    """000 7.5: the fourth foul removes the player (no last word); listed in ``removed``."""
    g = Game()
    g.discussion(
        during={2: [foul(7, 1000), foul(7, 2000), foul(7, 3000)], 4: [foul(7, 5000)]}, noms={1: 4, 3: 9}
    )
    state = g.json()
    assert state["removed"][0]["seat"] == 7 and state["removed"][0]["why"] == "4th foul"
    assert state["removed"][0]["rule"] == "000 7.5"
    assert 7 not in state["alive"] and state["fouls"]["7"] == 4
    # 000 11.3: seat 7 was not a candidate — the day's vote is cancelled
    assert state["days"][0]["no_vote_reason"] == "000 11.3"


def test_three_warnings_remove_under_004() -> None:
    """004 (9–13 players): three warnings and the player leaves the table."""
    g = Game("novosibirsk", seats=12)
    for i in range(3):
        g.add("foul", t=g.t + i, seat=11)
    state = g.json()
    assert state["removed"][0]["seat"] == 11 and state["removed"][0]["rule"] == "004"


def test_disqualification_000_9_1_9_1_6() -> None:
    """000 9.1 (e.g. 9.1.6 involuntary peeking): the player leaves at once without a last word."""
    g = Game()
    g.discussion()
    g.night()
    g.add("disqualify", seat=3, reason="involuntary peeking (000 9.1.6)")
    g.shooting({2: 4, 5: 4, 8: 4})
    g.day()
    state = g.json()
    assert [r["seat"] for r in state["removed"]] == [3] and state["removed"][0]["rule"] == "000 9.1"
    assert set(state["alive"]) == {1, 2, 5, 6, 7, 8, 9, 10}


@pytest.mark.parametrize(("seat", "winner"), [(5, "red"), (3, "black")])
def test_team_loss_000_10_10_1(seat: int, winner: str) -> None:
    """000 10 / 10.1: deliberate peeking (or a hint from the audience): the player's team loses."""
    g = Game()
    g.discussion()
    g.night()
    g.add("team_loss", seat=seat, reason="deliberate peeking (000 10.1)")
    g.shooting({2: 4, 5: 4, 8: 4})
    g.day()
    state = g.json()
    assert state["winner"] == winner and "000 10" in state["win_reason"]
    assert state["nights"] == []  # the game ended before the shooting


def test_fourth_foul_with_five_at_the_table_is_a_plain_removal_000_7_5() -> None:
    """000 7.5 (not 10.3): five at the table, a fourth foul only removes the player."""
    g = Game(don=2, mafia=(5,), sheriff=1)  # a two-black table (flagged: 001 basics 1)
    for s in (6, 7, 9, 10, 8):
        g.add("disqualify", seat=s, reason="test")
        g.tick(10)
    for _ in range(4):
        g.add("foul", seat=1)
        g.tick(10)
    state = g.json()
    assert state["removed"][-1]["seat"] == 1 and state["removed"][-1]["rule"] == "000 7.5"
    assert "001 basics 1" in rules_of(state)
    # 2 : 2 after the removal: black win by parity (001 basics 3), not a team loss
    assert state["winner"] == "black" and "001 basics 3" in state["win_reason"]


def test_fourth_foul_with_four_players_team_loss_000_10_3() -> None:
    """000 10.3: four players at the table (1 black, 3 red), a red player's fourth foul: red loses."""
    g = Game(don=2, mafia=(), sheriff=1)
    for s in (3, 6, 7, 8, 9, 10):
        g.add("disqualify", seat=s, reason="test")
        g.tick(10)
    for _ in range(4):
        g.add("foul", seat=4)
        g.tick(10)
    state = g.json()
    assert state["winner"] == "black" and "000 10.3" in state["win_reason"]
    assert state["removed"][-1]["seat"] == 4 and state["removed"][-1]["rule"] == "000 10.3"


def test_foul_for_a_departed_seat_is_not_counted() -> None:
    """000 8.1: fouls go to players at the table; one for a seat that left is flagged for review."""
    g = Game()
    g.add("disqualify", seat=3, reason="insult")
    g.add("foul", t=g.t + 10, seat=3)
    state = g.json()
    assert state["fouls"] == {} and state["needs_review"][0]["seat"] == 3
