"""Nights: night 0, shots, kill or miss, checks, three misses, best move, night behaviour
(000 2.1–2.5, 5.3–5.9, 11.1; 002 11; 003 subtleties; 003 SHOWTIME; 001 voting 12)."""

from __future__ import annotations

import pytest

from tests.gamelog.referee_builder import Game


def rules_of(state: dict[str, object]) -> list[str]:
    return [v["rule"] for v in state["violations"]]  # type: ignore[index, attr-defined]


def to_night(rules: str = "federation") -> Game:
    g = Game(rules)
    g.discussion()
    g.night()
    return g


def test_night_zero_is_for_roles_only_000_2_1_2_5_002_11() -> None:
    """000 2.1–2.5: night 0 deals the cards and lets the mafia meet; 002 11 / 003 subtleties: no checks
    and no shooting on night 0 — entered anyway they are violations and kill nobody."""
    g = Game(start_day=False)
    g.add("shot_call", target=3)
    g.add("shot", t=g.t + 300, seat=2, target=3)
    g.add("shot", t=g.t + 310, seat=5, target=3)
    g.add("shot", t=g.t + 320, seat=8, target=3)
    g.add("don_check", t=g.t + 5000, target=1)
    g.add("sheriff_check", t=g.t + 9000, target=2)
    g.t += 20_000
    g.day()
    state = g.json()
    assert state["nights"] == [] and state["alive"] == list(range(1, 11))
    assert {"000 5.2", "002 11"} <= set(rules_of(state))
    assert state["roles"]["2"] == "don" and state["roles"]["1"] == "sheriff" and state["roles"]["3"] == "red"


def test_all_black_shoot_one_number_kills_000_5_3_5_4() -> None:
    """000 5.3 (black shoot while the number is called) and 000 5.4: all three the same → killed."""
    g = to_night()
    g.shooting({2: 7, 5: 7, 8: 7})
    g.day()
    state = g.json()
    assert state["nights"][0]["killed"] == 7 and state["nights"][0]["miss"] is False
    assert 7 not in state["alive"] and state["killed"] == [7]


@pytest.mark.parametrize(
    "shots",
    [
        {2: 7, 5: 7, 8: 6},  # another number
        {2: 7, 5: 7},  # one did not shoot
        {2: 7, 5: 7, 8: [7, 9]},  # shot more than once
    ],
)
def test_miss_000_5_5(shots: dict[int, object]) -> None:
    """000 5.5: another number, more than one shot, or no shot: a miss, nobody leaves."""
    g = to_night()
    g.shooting(shots)  # type: ignore[arg-type]
    g.day()
    state = g.json()
    n = state["nights"][0]
    assert n["miss"] is True and n["killed"] is None and len(state["alive"]) == 10
    if any(isinstance(v, list) for v in shots.values()):
        assert n["shots"]["8"] == [7, 9] and "000 5.5" in rules_of(state)
    else:
        assert n["shots"] == {str(k): v for k, v in shots.items()}


def test_dead_black_player_need_not_shoot_000_5_4() -> None:
    """000 5.4: *all living* black players — the one who left does not spoil the kill."""
    g = Game()
    g.full_day_vote({1: 8, 3: 6}, {8: [1, 2, 3, 4, 6, 7, 9], 6: [5, 8, 10]})
    g.night()
    g.shooting({2: 4, 5: 4})
    g.day()
    state = g.json()
    assert state["days"][0]["eliminated"] == [8]
    assert state["nights"][0]["killed"] == 4


def test_vision_shot_between_numbers_is_a_miss_003_subtleties() -> None:
    """003 subtleties: a shot between two called numbers is a miss; the number window runs from its call
    to the next call or 1.5 s (CONTRACT)."""
    g = to_night()
    g.raises({2: [(7, 400)], 5: [(7, 900)], 8: [(7, 1500)]})  # 8 raises exactly at the call of 8
    g.day()
    assert g.json()["nights"][0]["shots"] == {"2": 7, "5": 7, "8": 8}
    g = to_night()
    g.t += 0
    start = g.t
    for i in range(10):
        g.add("shot_call", t=start + 2000 * i, target=i + 1)  # slow calls: 2 s apart
    for seat, off in ((2, 100), (5, 300)):
        g.add("shot_raise", t=start + 2000 * 6 + off, src="vision", seat=seat, gesture="gun", conf=0.9)
    g.add("shot_raise", t=start + 2000 * 6 + 1700, src="vision", seat=8, gesture="gun", conf=0.9)
    g.t = start + 30_000
    g.day()
    state = g.json()
    n = state["nights"][0]
    assert n["miss"] is True and n["between_numbers"] == [8] and n["shots"] == {"2": 7, "5": 7}
    assert "003 subtleties" in rules_of(state)


def test_vision_shots_kill_000_5_4() -> None:
    """000 5.4 from the camera alone: three finger-guns peaking during the call of 4."""
    g = to_night()
    g.raises({2: [(4, 200)], 5: [(4, 350)], 8: [(4, 600)]})
    g.day()
    state = g.json()
    assert state["nights"][0]["killed"] == 4 and state["nights"][0]["source"] == "vision"


def test_a_shot_seen_by_the_raised_arm_counts_and_is_listed_for_review() -> None:
    """A raise the night pass saw by the arm (the landmarker read no hand: ``seen_by`` "arm", shape "other",
    low confidence) counts as a shot at the number then called, with one note for the judge saying how it
    was seen, instead of the notes for a hand read in the wrong shape or unsurely."""
    g = to_night()
    g.raises({2: [(4, 200)], 5: [(4, 350)]})
    call_4 = next(line["t"] for line in g.lines if line["type"] == "shot_call" and line["target"] == 4)
    g.add(
        "shot_raise",
        t=call_4 + 600,
        src="vision",
        seat=8,
        gesture="other",
        conf=0.3,
        box=[0, 0, 5, 5],
        seen_by="arm",
        id="arm8",
    )
    g.day()
    state = g.json()
    assert state["nights"][0]["killed"] == 4 and state["nights"][0]["shots"] == {"2": 4, "5": 4, "8": 4}
    notes = [r["what"] for r in state["needs_review"] if r["ref"] == "arm8"]
    assert notes == ["shot at 4 seen by the raised arm, the hand not read (counted)"]


def test_host_shots_win_over_vision_and_differences_are_reported() -> None:
    """CONTRACT precedence: host shots count; vision's different reading is a disagreement."""
    g = to_night()
    g.shooting({2: 4, 5: 4, 8: 4})
    start = g.t - 5000 - 15000
    g.add("shot_raise", t=start + 1500 * 3 + 200, src="vision", seat=2, gesture="gun", conf=0.9)
    g.add("shot_raise", t=start + 1500 * 3 + 300, src="vision", seat=5, gesture="gun", conf=0.9)
    g.day()
    state = g.json()
    assert state["nights"][0]["killed"] == 4 and state["nights"][0]["source"] == "host"
    assert len(state["disagreements"]) == 1 and state["disagreements"][0]["seats"] == [8]


@pytest.mark.parametrize(
    ("rules", "target", "answer", "signal"),
    [
        ("federation", 5, "black", "thumb_down"),  # 000 5.7: thumb down = black
        ("federation", 3, "red", "thumb_up"),
        ("showtime", 5, "black", "nod"),  # 003 SHOWTIME: a nod means black
        ("showtime", 3, "red", "shake"),
    ],
)
def test_sheriff_check_000_5_7_003_showtime(rules: str, target: int, answer: str, signal: str) -> None:
    """000 5.7 / 003 SHOWTIME: the Sheriff's answer follows from the roles; the signal from the rules."""
    g = to_night(rules)
    g.shooting({})
    g.add("sheriff_check", target=target)
    g.tick(10_000)
    g.day()
    check = g.json()["nights"][0]["sheriff_check"]
    assert (check["target"], check["answer"], check["signal"]) == (target, answer, signal)


def test_don_check_and_one_check_each_000_5_6_5_8() -> None:
    """000 5.6: the Don asks "is this the Sheriff?"; 000 5.8: one check each per night."""
    g = to_night()
    g.shooting({})
    g.add("don_check", target=1)
    g.add("don_check", t=g.t + 3000, target=4)
    g.add("sheriff_check", t=g.t + 9000, target=3)
    g.add("sheriff_check", t=g.t + 9500, target=2)
    g.tick(20_000)
    g.day()
    state = g.json()
    n = state["nights"][0]
    assert n["don_check"]["answer"] == "sheriff" and n["don_check"]["signal"] == "nod"
    assert n["sheriff_check"]["target"] == 3
    assert rules_of(state).count("000 5.8") == 2


def test_check_by_a_departed_don_000_5_6() -> None:
    """000 5.6: only a living Don wakes up."""
    g = Game()
    g.full_day_vote({1: 2, 3: 6}, {2: [1, 3, 4, 6, 7, 9, 10], 6: [2, 5, 8]})
    g.night()
    g.shooting({5: 4, 8: 4})
    g.add("don_check", target=1)
    g.tick(5000)
    g.day()
    state = g.json()
    assert state["nights"][0]["don_check"] is None and "000 5.6" in rules_of(state)


@pytest.mark.parametrize(("rules", "winner"), [("federation", "red"), ("club", None)])
def test_three_misses_in_a_row_000_11_1(rules: str, winner: str | None) -> None:
    """000 11.1: three misses on three consecutive nights: red win (federation only)."""
    g = Game(rules)
    for night in range(3):
        g.discussion(order=[(night + i) % 10 + 1 for i in range(10)])
        g.night()
        g.shooting({2: 3, 5: 4})
        g.day()
    g.discussion(order=[4, 5, 6, 7, 8, 9, 10, 1, 2, 3])
    state = g.json()
    assert state["winner"] == winner
    if winner:
        assert "000 11.1" in state["win_reason"]


def test_a_kill_resets_the_misses_000_11_1() -> None:
    """000 11.1 needs three misses *in a row*."""
    g = Game()
    shots = [{2: 3}, {2: 4, 5: 4, 8: 4}, {2: 3}, {2: 3}]
    for night, sh in enumerate(shots):
        g.discussion(order=[s for s in range(1, 11) if s != 4 or night < 2])
        g.night()
        g.shooting(sh)  # type: ignore[arg-type]
        g.day()
    state = g.json()
    assert state["winner"] is None and state["killed"] == [4]


def test_best_move_001_voting_12() -> None:
    """001 voting 12: the first-night victim names three suspects; the referee records how many are black
    and flags a best move by anyone else."""
    g = to_night("club")
    g.shooting({2: 7, 5: 7, 8: 7})
    g.day()
    g.add("best_move", seat=7, suspects=[2, 5, 9])
    state = g.json()
    assert state["best_move"]["black"] == 2 and state["violations"] == []
    g = to_night("club")
    g.shooting({2: 7, 5: 7, 8: 7})
    g.day()
    g.add("best_move", seat=6, suspects=[2, 5, 9])
    assert "001 voting 12" in rules_of(g.json())


def test_head_up_at_night_goes_to_review_000_5_9() -> None:
    """000 5.9 night behaviour (peeking: 000 9.1.6 / 10.1): a head up seen by the camera is a violation
    and needs review until a judge confirms it; the referee never disqualifies on its own."""
    g = to_night()
    g.shooting({2: 7, 5: 7, 8: 7})
    hid = g.add("head_up", src="vision", seat=4, until=g.t + 1500, conf=0.8)
    g.add("night_motion", t=g.t + 100, src="vision", seat=6, kind="touch", until=g.t + 600, conf=0.7)
    g.tick(3000)
    g.day()
    state = g.json()
    assert [(v["rule"], v["seat"]) for v in state["violations"]] == [("000 5.9", 4), ("000 5.9", 6)]
    assert next(r["ref"] for r in state["needs_review"]) == hid
    assert 4 in state["alive"]
    g.add("confirm", src="judge", ref=hid, reason="peeked")
    assert hid not in [r["ref"] for r in g.json()["needs_review"]]


def test_red_player_raising_a_hand_is_flagged_000_5_9() -> None:
    """000 5.9: a red player raising a hand during the shooting is flagged, and is not a shot."""
    g = to_night()
    g.raises({2: [(4, 200)], 5: [(4, 350)], 8: [(4, 600)], 6: [(4, 500)]})
    g.day()
    state = g.json()
    assert state["nights"][0]["killed"] == 4 and "6" not in state["nights"][0]["shots"]
    assert ("000 5.9", 6) in [(v["rule"], v["seat"]) for v in state["violations"]]


@pytest.mark.parametrize(
    ("night", "seat", "near_check", "flagged", "listed"),
    [
        (0, 5, False, False, False),  # 000 2.2: the mafia meet with eyes open on night 0
        (0, 1, False, False, False),  # 000 2.4: the Sheriff shows himself to the host
        (0, 4, False, False, True),  # a red player on night 0: only listed (cards dealt heads up)
        (1, 2, True, False, False),  # 000 5.6: the Don awake for his check
        (1, 1, True, False, False),  # 000 5.7: the Sheriff awake for his check
        (1, 2, False, True, True),  # the Don's head up during the shooting: 000 5.9
        (1, 4, True, True, True),  # a red player peeking during the Sheriff's check
    ],
)
def test_who_may_be_awake_000_2_1_2_5_000_5_6_5_7(
    night: int, seat: int, near_check: bool, flagged: bool, listed: bool
) -> None:
    """000 2.1–2.5 and 000 5.6, 5.7: heads up by the rules are not violations; others are 000 5.9."""
    g = Game(start_day=night == 0)
    if night == 0:
        g.add("head_up", t=50_000, src="vision", seat=seat, until=55_000, conf=0.9)
    else:
        g.discussion()
        g.night()
        g.shooting({2: 7, 5: 7, 8: 7})
        if not near_check:
            g.add("head_up", t=g.t - 20_000, src="vision", seat=seat, until=g.t - 19_000, conf=0.9)
        g.add("don_check", target=3)
        g.add("sheriff_check", t=g.t + 12_000, target=5)
        if near_check:
            g.add(
                "head_up",
                t=g.t + (1000 if seat != 1 else 12_500),
                src="vision",
                seat=seat,
                until=g.t + 14_000,
                conf=0.9,
            )
        g.tick(30_000)
        g.day()
    state = g.json()
    assert (("000 5.9", seat) in [(v["rule"], v["seat"]) for v in state["violations"]]) is flagged
    assert (seat in [r["seat"] for r in state["needs_review"]]) is listed


def test_no_best_move_after_a_first_night_miss_001_voting_12() -> None:
    """001 voting 12: only the player killed on the first (shooting) night names suspects."""
    g = to_night("club")
    g.shooting({2: 7})
    g.day()
    g.discussion(order=[2, 3, 4, 5, 6, 7, 8, 9, 10, 1])
    g.night()
    g.shooting({2: 6, 5: 6, 8: 6})
    g.day()
    g.add("best_move", seat=6, suspects=[2, 5, 9])
    state = g.json()
    assert state["killed"] == [6] and "001 voting 12" in rules_of(state)


@pytest.mark.parametrize(("seat", "flagged"), [(5, False), (2, False), (4, True)])
def test_night_zero_meeting_gestures_are_not_violations_000_2_2(seat: int, flagged: bool) -> None:
    """000 2.2: the black players meet on night 0 (eyes open, gestures among them); a red player's
    movement then is still 000 5.9."""
    g = Game(start_day=True)
    g.add("night_motion", t=50_000, src="vision", seat=seat, kind="gesture", until=51_000, conf=0.8)
    state = g.json()
    assert (("000 5.9", seat) in [(v["rule"], v["seat"]) for v in state["violations"]]) is flagged
