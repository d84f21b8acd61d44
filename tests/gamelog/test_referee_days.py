"""Days: speaking order, nominations, the day-1 rules (000 3.x, 4.2–4.5, 4.11; clubs; SHOWTIME; 004)."""

from __future__ import annotations

import pytest

from tests.gamelog.referee_builder import Game


def rules_of(state: dict[str, object]) -> list[str]:
    return [v["rule"] for v in state["violations"]]  # type: ignore[index, attr-defined]


def test_speaking_order_rotates_000_3_1_3_2() -> None:
    """000 3.1–3.2: day 1 opens with seat 1, each later day one seat after the previous day's opener,
    skipping seats that have left."""
    g = Game()
    g.full_day_vote({1: 2, 3: 6}, {2: [1, 3, 4, 5, 6, 7], 6: [2, 8, 9, 10]})  # seat 2 leaves
    g.night()
    g.shooting({5: 3, 8: 3})  # seat 3 is killed; seat 2 already left
    g.day()
    g.discussion(order=[4, 5, 6, 7, 8, 9, 10, 1])
    state = g.json()
    days = {d["day"]: d for d in state["days"]}
    assert days[1]["speaking_order"] == list(range(1, 11))
    # Day 2 opener would be seat 2, who left: seat 3, killed at night: seat 4.
    assert days[2]["speaking_order"] == [4, 5, 6, 7, 8, 9, 10, 1]
    assert "000 3.2" not in rules_of(state)


def test_wrong_opener_is_a_violation_000_3_2() -> None:
    """000 3.2: a day opened by the wrong seat is reported."""
    g = Game()
    g.discussion(order=[2, 3, 4, 5, 6, 7, 8, 9, 10, 1])
    state = g.json()
    assert [(v["rule"], v["seat"]) for v in state["violations"]] == [("000 3.2", 2)]


def test_speech_end_is_not_a_vote_stop_000_3_5() -> None:
    """000 3.5: a speech ends with "Спасибо" or "Пас" — a speech_end mark never closes a vote window."""
    g = Game()
    g.discussion(noms={1: 4, 3: 6})
    call = g.call(4)
    g.add("vote", t=g.t + 100, seat=1, candidate=4)
    g.add("speech_end", t=g.t + 500, seat=10)  # stray mark inside the window
    g.add("vote", t=g.t + 900, seat=3, candidate=4)
    g.tick(2000)
    g.add("vote_stop")
    g.tick(4000)
    g.vote(6, [2, 5, 7, 8, 9, 10])
    state = g.json()
    assert call
    votes = state["days"][0]["votes"]
    assert set(votes[0]["voters"]) == {1, 3}


def test_nominations_in_order_and_voted_in_that_order_000_4_2_4_5() -> None:
    """000 4.2 "Я выставляю… Принято" and 000 4.5: candidates are voted in nomination order; a window
    out of that order is a violation but its votes still belong to its candidate."""
    g = Game()
    g.discussion(noms={1: 4, 6: 9})
    g.vote(9, [5, 8])
    g.vote(4, [1, 2, 3, 6, 7, 10])
    state = g.json()
    day = state["days"][0]
    assert day["nominations"] == [{"by": 1, "target": 4}, {"by": 6, "target": 9}]
    assert "000 4.5" in rules_of(state)
    by_cand = {v["candidate"]: set(v["voters"]) for v in day["votes"]}
    # 000 4.9: 4 and 9 did not vote: their votes go to the last *nominated* candidate, 9.
    assert by_cand[9] == {5, 8, 4, 9}
    assert by_cand[4] == {1, 2, 3, 6, 7, 10}
    assert day["eliminated"] == [4]


def test_nominating_a_seat_that_left_is_refused_000_4_2() -> None:
    """000 4.2: the host accepts ("Принято") only a nomination of a living player."""
    g = Game()
    g.add("disqualify", seat=7, reason="insult")
    g.discussion(order=[1, 2, 3, 4, 5, 6, 8, 9, 10], noms={1: 7})
    state = g.json()
    assert state["days"][0]["nominations"] == []
    assert "000 4.2" in rules_of(state)


@pytest.mark.parametrize(
    ("rules", "expected_target", "violation"),
    [
        ("federation", 4, "000 4.4"),  # 000 4.3: the first named counts; 000 4.4: one per day
        ("showtime", 6, None),  # 003 SHOWTIME: the last correctly named candidate of a speech counts
    ],
)
def test_two_nominations_in_one_speech_000_4_3_4_4(
    rules: str, expected_target: int, violation: str | None
) -> None:
    """000 4.3 / 000 4.4 (first counts, a second is a violation) against 003 SHOWTIME (last counts)."""
    g = Game(rules)
    g.discussion(
        during={1: [(5000, "nominate", {"by": 1, "target": 4}), (9000, "nominate", {"by": 1, "target": 6})]},
        noms={3: 9},
    )
    for cand in (expected_target, 9):
        g.vote(cand, [])
    state = g.json()
    noms = state["days"][0]["nominations"]
    assert noms[0] == {"by": 1, "target": expected_target} or noms[-1] == {"by": 1, "target": expected_target}
    assert {"by": 1, "target": expected_target} in noms and len(noms) == 2
    assert (violation in rules_of(state)) if violation else rules_of(state) == []


def test_second_nomination_in_a_later_speech_000_4_4() -> None:
    """000 4.4: one nomination per player per day, even under SHOWTIME's "last counts" (which is per
    speech): a nomination in the tie speech is refused."""
    g = Game("showtime")
    g.discussion(noms={1: 4, 3: 6})
    g.add("nominate", by=1, target=9)  # after the discussion ended? no: before any call, a new speech
    state = g.json()
    assert "000 4.4" in rules_of(state)
    assert state["days"][0]["nominations"] == [{"by": 1, "target": 4}, {"by": 3, "target": 6}]


@pytest.mark.parametrize(
    ("rules", "candidates", "violation"),
    [
        ("federation", [4, 9], "000 4.3"),  # federation: no withdrawal
        ("club", [9], None),  # 001 day 4; 002 5: withdrawn in the same speech
        ("showtime", [9], None),
    ],
)
def test_withdrawal_000_4_3_001_day_4_002_5(rules: str, candidates: list[int], violation: str | None) -> None:
    """000 4.3 forbids withdrawal; 001 day 4 and 002 5 allow it within the nominating speech."""
    g = Game(rules)
    g.discussion(
        during={1: [(5000, "nominate", {"by": 1, "target": 4}), (8000, "withdraw", {"by": 1, "target": 4})]},
        noms={6: 9},
    )
    state = g.json()
    assert [n["target"] for n in state["days"][0]["nominations"]] == candidates
    assert (violation in rules_of(state)) if violation else rules_of(state) == []


def test_withdrawal_in_a_later_speech_is_refused_001_day_4() -> None:
    """001 day 4: a player may withdraw *in his minute* the candidate he nominated — not later."""
    g = Game("club")
    g.discussion(noms={1: 4}, during={3: [(5000, "withdraw", {"by": 1, "target": 4})]})
    state = g.json()
    assert [n["target"] for n in state["days"][0]["nominations"]] == [4]
    assert "001 day 4" in rules_of(state)


def test_withdrawn_candidate_is_not_the_last_for_defaults_001_day_4() -> None:
    """001 day 4 with 000 4.9: after a withdrawal the last *remaining* candidate takes the defaults."""
    g = Game("club")
    g.discussion(
        noms={1: 4},
        during={6: [(5000, "nominate", {"by": 6, "target": 9}), (9000, "withdraw", {"by": 6, "target": 9})]},
    )
    # day 1: the single remaining candidate 4 is not voted under club rules (001 voting 8)
    state = g.json()
    assert state["days"][0]["votes"] == [] and state["days"][0]["no_vote_reason"] == "000 4.11"


@pytest.mark.parametrize(
    ("rules", "options", "day", "held", "reason"),
    [
        ("federation", {}, 1, False, "000 4.11"),  # 000 4.11: single candidate on day 1 not voted
        ("federation", {}, 2, True, None),  # later days: any number of candidates is voted
        ("club", {}, 1, False, "000 4.11"),  # 001 voting 8 agrees
        ("federation", {"single_candidate_never_voted": True}, 2, False, "003 federation section"),
        ("novosibirsk", {}, 1, True, None),  # 004: open vote, voted
    ],
)
def test_single_candidate_000_4_11(
    rules: str, options: dict[str, object], day: int, held: bool, reason: str | None
) -> None:
    """000 4.11 (day 1 single candidate not voted), 003 federation section (never voted), 004 (voted)."""
    g = Game(rules)
    if day == 2:
        g.discussion()
        g.night()
        g.shooting({})
        g.day()
        g.discussion(order=[2, 3, 4, 5, 6, 7, 8, 9, 10, 1], noms={3: 7})
    else:
        g.discussion(noms={3: 7})
    g.vote(7, [1, 2, 3])
    state = g.json(**options)
    d = state["days"][-1]
    assert d["vote_held"] is held
    assert d["no_vote_reason"] == reason
    if held:
        # 000 4.9: everybody else defaults to the single (last) candidate.
        assert d["eliminated"] == [7] and len(d["votes"][0]["voters"]) == 10
    else:
        assert d["eliminated"] == [] and reason in rules_of(state)


def test_host_sheet_no_vote_on_day_1_002_host_sheet() -> None:
    """002 host sheet (a club option): no nominations and no vote on day 1."""
    g = Game("club")
    g.discussion(noms={1: 4, 3: 6})
    g.vote(4, [1, 2])
    g.vote(6, [3, 5, 7, 8])
    state = g.json(day1="no_vote")
    d = state["days"][0]
    assert d["nominations"] == [] and d["votes"] == [] and d["no_vote_reason"] == "002 host sheet"
    assert rules_of(state).count("002 host sheet") >= 3  # two nominations and the vote windows


def test_last_words_do_not_disturb_the_day_000_4_14_000_11_6() -> None:
    """000 4.14 / 5.4: the player who left has a last word (a speech mark) — after the vote and at the
    start of the next day — which is neither a discussion speech nor a violation; 000 11.6: after an
    all-leave vote both tied players have 30 s each. Roles are not revealed (the output's ``roles`` is
    the referee's record, never announced)."""
    g = Game()
    g.discussion(noms={1: 4, 6: 9})
    g.vote(4, [1, 3, 6, 7, 10])
    g.vote(9, [2, 5, 8, 9])
    g.speech(4, 29_000)
    g.speech(9, 29_000)
    g.vote(4, [1, 2, 3, 6, 10], "revote")
    g.vote(9, [5, 7, 8, 9], "revote")
    g.vote("all", [1, 3, 5, 6, 7, 10], "all")
    g.speech(4, 29_000)
    g.speech(9, 29_000)
    g.night()
    g.shooting({2: 3, 5: 3, 8: 3})
    g.day()
    g.speech(3)  # the killed player's last word
    g.discussion(order=[2, 5, 6, 7, 8, 10, 1])
    state = g.json()
    assert state["days"][0]["eliminated"] == [4, 9]
    assert state["days"][1]["speaking_order"] == [2, 5, 6, 7, 8, 10, 1]
    assert state["violations"] == []


def test_silenced_opener_is_skipped_and_the_rotation_follows_who_spoke_first_000_3_2_7_4() -> None:
    """000 3.2 with 000 7.4: seat 2 would open day 2 but lost the speech (three fouls): seat 3 speaks
    first — no violation — and day 3 opens after seat 3 (seat 4 has left: seat 5)."""
    g = Game()
    g.discussion(
        noms={1: 4, 3: 6},
        during={5: [(1000, "foul", {"seat": 2}), (2000, "foul", {"seat": 2}), (3000, "foul", {"seat": 2})]},
    )
    g.vote(4, [1, 2, 3, 5, 7, 9])
    g.vote(6, [4, 6])
    g.night()
    g.shooting({})
    g.day()
    g.discussion(order=[3, 5, 6, 7, 8, 9, 10, 1])
    g.night()
    g.shooting({})
    g.day()
    g.discussion(order=[5, 6, 7, 8, 9, 10, 1, 2, 3])
    state = g.json()
    days = {d["day"]: d for d in state["days"]}
    assert days[2]["silenced"] == [2] and days[2]["speaking_order"][0] == 3
    assert days[3]["speaking_order"][0] == 5  # seat 4 left on day 1: after 3 comes 5
    assert [v["rule"] for v in state["violations"]] == []
