"""A raise the analyser took for a peeking neighbour's head (``night_motion`` of kind ``raise_at_peek``):
never a shot, never a violation, always listed for the judge, with the number called then and, when it
would turn the night's miss into a kill, that kill (``gamelog.nights.raise_at_peek_note``,
``_kill_with_peek_raises``)."""

from __future__ import annotations

from typing import Any

from gamelog.nights import RAISE_AT_PEEK
from tests.gamelog.referee_builder import Game


def _flag(g: Game, seat: int, t: int) -> str:
    """A raise by ``seat`` at ``t`` taken for seat 9's head, as the analyser writes it."""
    return g.add(
        "night_motion",
        t=t,
        src="vision",
        seat=seat,
        kind=RAISE_AT_PEEK,
        until=t,
        conf=0.55,
        head_of=9,
        gesture="point",
        box=[1265.2, 601.7, 1308.1, 661.8],
    )


def _night_with_flag(
    raises: dict[int, list[tuple[int, int]]],
    flag_seat: int,
    flag_at: tuple[int, int] | int,
    *,
    also_8: bool = False,
    twice: bool = False,
) -> tuple[Game, str]:
    """Night 1 with vision raises and one raise taken for seat 9's head (at (number, ms after its call),
    or at ``flag_at`` ms after the first call); ``also_8``: seat 8's raise 100 ms later, taken for the same
    head; ``twice``: the same raise flagged again 100 ms later (taken for seat 7's head too)."""
    g = Game()
    g.discussion()
    g.night()
    start = g.t
    g.raises(raises)
    t = start + (1500 * (flag_at[0] - 1) + flag_at[1] if isinstance(flag_at, tuple) else flag_at)
    g.add("head_up", t=t - 160, src="vision", seat=9, until=t + 2240, conf=0.99)
    ref = _flag(g, flag_seat, t)
    if also_8:
        _flag(g, 8, t + 100)
    if twice:
        g.add(
            "night_motion",
            t=t + 100,
            src="vision",
            seat=flag_seat,
            kind=RAISE_AT_PEEK,
            until=t + 100,
            conf=0.5,
            head_of=7,
        )
    g.day()
    return g, ref


def _about(state: dict[str, Any], ref: str) -> tuple[list[str], list[str]]:
    return (
        [r["what"] for r in state["needs_review"] if r.get("ref") == ref],
        [v["rule"] for v in state["violations"] if v.get("ref") == ref],
    )


def test_a_black_seats_raise_taken_for_a_head_is_listed_with_its_shot_and_the_kill() -> None:
    """Clean S 2422: the Don (2) and a mafioso (5) shot 3; seat 8's gun, raised during the call of 3 in front
    of seat 9's peeking head, was taken for the head. The night is a miss as read, but the judge is told
    that seat 8's raise would be a shot at 3 and would make the night a kill of seat 3."""
    g, ref = _night_with_flag({2: [(3, 300)], 5: [(3, 400)]}, 8, (3, 500))
    state = g.json()
    night = state["nights"][0]
    assert night["shots"] == {"2": 3, "5": 3} and night["miss"] is True and 3 in state["alive"]
    notes, rules = _about(state, ref)
    assert rules == []  # a hand that may be a shot is no night movement (000 5.9)
    assert len(notes) == 2
    assert "seat 9's head zone" in notes[0] and "a shot at 3" in notes[0] and "(point)" in notes[0]
    assert notes[1].startswith("night 1: a miss as read") and "a kill of seat 3" in notes[1]
    assert "seat 8's at" in notes[1]


def test_a_red_seats_raise_taken_for_a_head_is_no_shot() -> None:
    """Seat 10 is red: its raise could not be a shot, so the judge sees only the raise taken for the head."""
    g, ref = _night_with_flag({2: [(3, 300)], 5: [(3, 400)], 8: [(3, 350)]}, 10, (4, 500))
    state = g.json()
    assert state["nights"][0]["killed"] == 3
    notes, rules = _about(state, ref)
    assert rules == [] and len(notes) == 1
    assert "not a shot" in notes[0] and "a shot at" not in notes[0]
    # Nor does it make up a missing black shot: seat 8 did not shoot, the night stays a plain miss.
    g, ref = _night_with_flag({2: [(3, 300)], 5: [(3, 400)]}, 10, (3, 500))
    state = g.json()
    notes, rules = _about(state, ref)
    assert state["nights"][0]["miss"] is True and rules == [] and len(notes) == 1
    assert not any("a miss as read" in r["what"] for r in state["needs_review"])
    # With seat 8's raise also taken for a head, the kill proposed names seat 8's raise, not seat 10's.
    g, ref = _night_with_flag({2: [(3, 300)], 5: [(3, 400)]}, 10, (3, 500), also_8=True)
    kills = [r["what"] for r in g.json()["needs_review"] if "a miss as read" in r["what"]]
    assert len(kills) == 1 and "seat 8's at" in kills[0] and "seat 10's" not in kills[0]


def test_a_raise_taken_for_a_head_that_would_not_make_a_kill() -> None:
    """The Don shot 3 and a mafioso 4: seat 8's raise at 3 would still leave a miss, so no kill is proposed;
    the raise itself is listed with its number."""
    g, ref = _night_with_flag({2: [(3, 300)], 5: [(4, 400)]}, 8, (3, 500))
    notes, rules = _about(g.json(), ref)
    assert rules == [] and len(notes) == 1 and "a shot at 3" in notes[0]


def test_a_raise_taken_for_a_head_between_the_calls() -> None:
    """After the last number's window no number is being called: no shot is named, no kill proposed."""
    g, ref = _night_with_flag({2: [(3, 300)], 5: [(3, 400)]}, 8, 1500 * 10 + 2000)
    notes, rules = _about(g.json(), ref)
    assert rules == [] and len(notes) == 1 and "a shot at" not in notes[0]


def test_the_hosts_shots_decide_and_no_kill_is_proposed() -> None:
    """When the host entered the shots, vision is only compared: the raise is listed, no kill proposed."""
    g = Game()
    g.discussion()
    g.night()
    start = g.t
    g.shooting({2: 3, 5: 3})
    t = start + 1500 * 2 + 500
    ref = _flag(g, 8, t)
    g.day()
    state = g.json()
    assert state["nights"][0]["source"] == "host" and state["nights"][0]["miss"] is True
    notes, _ = _about(state, ref)
    assert len(notes) == 1 and "a shot at 3" in notes[0]


def test_other_night_movement_is_still_a_violation() -> None:
    """Only the raise taken for a head is spared: another ``night_motion`` stays a 000 5.9 violation."""
    g = Game()
    g.discussion()
    g.night()
    ref = g.add("night_motion", t=g.t + 3000, src="vision", seat=4, kind="touch", until=g.t + 4000, conf=0.9)
    g.raises({2: [(3, 300)], 5: [(3, 400)], 8: [(3, 350)]})
    g.day()
    notes, rules = _about(g.json(), ref)
    assert rules == ["000 5.9"] and notes == ["night movement: touch"]


def test_one_raise_flagged_twice_in_one_call_is_one_shot() -> None:
    """One raise may leave two flags in one call (taken for two heads, or cut by a stretch's end): counted
    once, so the kill is still proposed rather than read as a seat shooting twice."""
    g, _ = _night_with_flag({2: [(3, 300)], 5: [(3, 400)]}, 8, (3, 500), twice=True)
    kills = [r["what"] for r in g.json()["needs_review"] if "a miss as read" in r["what"]]
    assert len(kills) == 1 and "a kill of seat 3" in kills[0]


def test_no_raise_taken_for_a_head_is_listed_on_night_0() -> None:
    """Night 0 has no shooting (000 5.2): a raise taken for a head then is not listed (the head is, by its
    head_up), and it is no violation."""
    g = Game(start_day=False)
    t = g.t - 150_000
    g.add("head_up", t=t - 160, src="vision", seat=9, until=t + 2240, conf=0.99)
    ref = _flag(g, 10, t)
    g.day()
    notes, rules = _about(g.json(), ref)
    assert notes == [] and rules == []
