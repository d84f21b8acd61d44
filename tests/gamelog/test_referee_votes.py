"""The day vote: majority, defaults, one vote per round, ties and the all-leave question, removals
during the vote (000 4.8, 4.9, 4.12, 4.13, 11.2, 11.3; 001 day 5; 003 federation section)."""

from __future__ import annotations

import pytest

from gamelog.referee import referee
from tests.gamelog.referee_builder import Game


def rules_of(state: dict[str, object]) -> list[str]:
    return [v["rule"] for v in state["violations"]]  # type: ignore[index, attr-defined]


def rounds(state: dict[str, object], day: int = 1) -> list[tuple[str, object, set[int], set[int]]]:
    d = {x["day"]: x for x in state["days"]}[day]  # type: ignore[attr-defined, index]
    return [(v["round"], v["candidate"], set(v["voters"]), set(v["defaulted"])) for v in d["votes"]]


def test_majority_leaves_000_4_12() -> None:
    """000 4.12: the player with the most votes leaves (not an absolute majority: 4 : 3 : 3)."""
    g = Game()
    g.discussion(noms={1: 4, 3: 6, 7: 9})
    g.vote(4, [1, 2, 3, 5])
    g.vote(6, [4, 6, 7])
    g.vote(9, [8, 9, 10])
    state = g.json()
    assert state["days"][0]["eliminated"] == [4]
    assert state["alive"] == [1, 2, 3, 5, 6, 7, 8, 9, 10]


def test_defaults_go_to_the_last_candidate_000_4_9_001_day_5() -> None:
    """000 4.9 / 001 day 5 (abstaining is impossible): who did not vote is counted for the last
    candidate; the defaulted seats are listed and included in ``voters``."""
    g = Game()
    g.discussion(noms={1: 4, 3: 6})
    g.vote(4, [1, 2, 3, 5, 7])
    g.vote(6, [4])
    state = g.json()
    assert rounds(state) == [
        ("main", 4, {1, 2, 3, 5, 7}, set()),
        ("main", 6, {4, 6, 8, 9, 10}, {6, 8, 9, 10}),
    ]
    assert state["days"][0]["eliminated"] == []  # 5 : 5 — a tie, and no re-vote entered
    assert "000 4.13" in rules_of(state)


def test_one_vote_per_seat_per_round_000_4_8() -> None:
    """000 4.8: a player votes against one candidate only; a second vote is flagged and not counted."""
    g = Game()
    g.discussion(noms={1: 4, 3: 6})
    g.vote(4, [1, 2, 3])
    g.vote(6, [3, 4, 5])
    state = g.json()
    assert rounds(state)[1][2] == {4, 5, 6, 7, 8, 9, 10}  # seat 3's second vote dropped; 6..10 defaulted
    assert [(v["rule"], v["seat"]) for v in state["violations"]] == [("000 4.8", 3)]


def test_tie_then_revote_decides_000_4_13() -> None:
    """000 4.13: a tie → the tied speak 30 s and a re-vote among them; a majority there decides."""
    g = Game()
    g.discussion(noms={1: 4, 6: 9})
    g.vote(4, [1, 3, 6, 7, 10])
    g.vote(9, [2, 5, 8, 9])
    g.speech(4, 29_000)
    g.speech(9, 29_000)
    g.vote(4, [1, 2, 3, 6, 7, 10], "revote")
    g.vote(9, [5, 8, 9], "revote")
    state = g.json()
    assert [r[:2] for r in rounds(state)] == [("main", 4), ("main", 9), ("revote", 4), ("revote", 9)]
    assert rounds(state)[3][3] == {4}
    assert state["days"][0]["eliminated"] == [4]
    assert state["violations"] == []


def test_partial_retie_repeats_the_revote_000_4_13() -> None:
    """000 4.13: three tied; in the re-vote only two of them tie → the re-vote repeats between those two
    (the all-leave question needs the *same* players to tie again)."""
    g = Game()
    g.discussion(noms={1: 4, 3: 6, 7: 9, 8: 10})
    g.vote(4, [1, 2, 3])
    g.vote(6, [4, 5, 6])
    g.vote(9, [7, 8, 9])
    g.vote(10, [])  # 10 defaulted only: 3 : 3 : 3 : 1 → 4, 6, 9 tie
    g.vote(4, [1, 2, 3, 10], "revote")
    g.vote(6, [4, 5, 6, 7], "revote")
    g.vote(9, [8, 9], "revote")  # 4 : 4 : 2 → only 4 and 6 tie again
    g.vote(4, [1, 2, 3, 10, 9], "revote")
    g.vote(6, [4, 5, 6, 7, 8], "revote")  # 5 : 5 → the same two tie: all-leave question
    g.vote("all", [1, 2, 3, 5, 6, 7], "all")
    state = g.json()
    assert [r[:2] for r in rounds(state)] == [
        ("main", 4),
        ("main", 6),
        ("main", 9),
        ("main", 10),
        ("revote", 4),
        ("revote", 6),
        ("revote", 9),
        ("revote", 4),
        ("revote", 6),
        ("all", "all"),
    ]
    assert state["days"][0]["eliminated"] == [4, 6]
    assert state["violations"] == []


@pytest.mark.parametrize(
    ("for_all", "leave"),
    [
        ([1, 3, 5, 6, 7, 10], [4, 9]),  # 6 of 10: a majority for → all leave
        ([1, 3, 5, 6, 7], []),  # 5 of 10: equal → all stay
        ([1, 3], []),  # a majority against → all stay
    ],
)
def test_all_leave_question_000_4_13(for_all: list[int], leave: list[int]) -> None:
    """000 4.13: the same players tie again → "who is for all of them leaving?": a majority of the
    living players for → all leave; against or equal → all stay. Nobody is defaulted in this round."""
    g = Game()
    g.discussion(noms={1: 4, 6: 9})
    g.vote(4, [1, 3, 6, 7, 10])
    g.vote(9, [2, 5, 8, 9])
    g.vote(4, [1, 2, 3, 6, 10], "revote")
    g.vote(9, [5, 7, 8, 9], "revote")
    g.vote("all", for_all, "all")
    state = g.json()
    assert state["days"][0]["eliminated"] == leave
    last = state["days"][0]["votes"][-1]
    assert last["candidate"] == "all" and set(last["voters"]) == set(for_all) and last["defaulted"] == []
    assert last["passed"] is bool(leave) and last["tied"] == [4, 9]


@pytest.mark.parametrize(
    ("rules", "counted_4"),
    [
        ("federation", {1, 2, 3, 6, 9, 10}),  # tied players vote in the re-vote (000 4.13)
        ("showtime", {1, 2, 3, 6, 10}),  # 003 federation section: they do not
    ],
)
def test_tied_players_in_the_revote_003_federation_section(rules: str, counted_4: set[int]) -> None:
    """000 4.13 vs the 003 federation section: seat 9 (tied) votes against 4 in the re-vote."""
    g = Game(rules)
    g.discussion(noms={1: 4, 6: 9})
    g.vote(4, [1, 3, 6, 7, 10])
    g.vote(9, [2, 5, 8, 9])
    g.vote(4, [1, 2, 3, 6, 10, 9], "revote")
    g.vote(9, [5, 7, 8], "revote")
    state = g.json()
    revote_4 = rounds(state)[2]
    assert revote_4[2] - {4} == counted_4 - {4}
    if rules == "showtime":
        assert "003 federation section" in rules_of(state)
        # 4 and 9 neither vote nor default: 9 ← 5, 7, 8 → 3; 4 ← 1, 2, 3, 6, 10 → 5
        assert rounds(state)[3][3] == set()
    assert state["days"][0]["eliminated"] == [4]


def test_host_round_mismatch_is_reported_000_4_13() -> None:
    """000 4.13: the host's ``round`` names the step; a re-vote entered as "main" is a violation but its
    votes count in the step the rules call for."""
    g = Game()
    g.discussion(noms={1: 4, 6: 9})
    g.vote(4, [1, 3, 6, 7, 10])
    g.vote(9, [2, 5, 8, 9])
    g.vote(4, [1, 2, 3, 6, 7, 10], "main")
    g.vote(9, [5, 8, 9], "main")
    state = g.json()
    assert rules_of(state).count("000 4.13") == 2
    assert state["days"][0]["eliminated"] == [4]
    assert [r[0] for r in rounds(state)] == ["main", "main", "revote", "revote"]


def test_revote_without_a_tie_is_not_counted_000_4_12() -> None:
    """000 4.12: a clear majority decides; a re-vote the host held anyway does not count."""
    g = Game()
    g.discussion(noms={1: 4, 6: 9})
    g.vote(4, [1, 2, 3, 6, 7, 10])
    g.vote(9, [5, 8, 9])
    g.vote(9, [1, 2, 3, 4, 5, 6, 7, 8], "revote")
    state = g.json()
    assert state["days"][0]["eliminated"] == [4]
    assert "000 4.12" in rules_of(state)


def test_removed_candidate_is_still_voted_000_11_2() -> None:
    """000 11.2: a nominated player removed before the vote is still voted on, and is not listed as
    eliminated again."""
    g = Game()
    g.discussion(noms={1: 4, 6: 9})
    g.add("disqualify", seat=4, reason="insult")
    g.tick(1000)
    g.vote(4, [1, 2, 3, 6, 7, 10])
    g.vote(9, [5, 8])
    state = g.json()
    d = state["days"][0]
    assert d["vote_held"] and d["eliminated"] == []
    assert rounds(state)[0][2] == {1, 2, 3, 6, 7, 10}
    assert rounds(state)[1][2] == {5, 8, 9}  # seat 4 has left: neither votes nor defaults
    assert state["removed"][0]["seat"] == 4 and 4 not in state["alive"]


@pytest.mark.parametrize("when", ["before", "during"])
def test_removed_non_candidate_cancels_the_vote_000_11_3(when: str) -> None:
    """000 11.3: a player who was not nominated and is removed before or during the vote cancels the
    day's vote: night falls."""
    g = Game()
    g.discussion(noms={1: 4, 6: 9})
    if when == "before":
        g.add("disqualify", seat=7, reason="left the table")
        g.tick(1000)
    g.vote(4, [1, 2, 3, 6, 7, 10])
    if when == "during":
        g.add("disqualify", seat=7, reason="insult")
        g.tick(1000)
    g.vote(9, [5, 8])
    state = g.json()
    d = state["days"][0]
    assert d["votes"] == [] and d["eliminated"] == [] and d["no_vote_reason"] == "000 11.3"
    assert "000 11.3" in rules_of(state)  # the windows held after the removal
    assert 4 in state["alive"] and 9 in state["alive"]


def test_removal_after_the_vote_does_not_cancel_it_000_11_3() -> None:
    """000 11.3 applies before or during the vote, not after it."""
    g = Game()
    g.discussion(noms={1: 4, 6: 9})
    g.vote(4, [1, 2, 3, 6, 7, 10])
    g.vote(9, [5, 8])
    g.add("disqualify", seat=7, reason="insult")
    state = g.json()
    assert state["days"][0]["eliminated"] == [4]


def test_announced_count_differs_from_the_votes() -> None:
    """000 4.7: the host announces the count; a count different from the votes is a disagreement."""
    g = Game()
    g.discussion(noms={1: 4, 6: 9})
    g.vote(4, [1, 2, 3, 6, 7, 10], count=5)
    g.vote(9, [5, 8], count=4)
    state = g.json()
    assert [d["what"] for d in state["disagreements"]] == ["host announced 5 for seat 4, counted 6"]
    assert state["days"][0]["votes"][0]["announced"] == 5


def test_counts_alone_decide_when_no_seat_vote_is_known_000_4_7() -> None:
    """A game logged with the host's counts only (no per-seat votes, no vision: a hand-kept log, or the
    record console while the game is recorded): the announced counts decide; voters stay unknown."""
    g = Game()
    g.discussion(noms={1: 4, 6: 9})
    g.vote(4, [], count=6)
    g.vote(9, [], count=4)
    state = g.json()
    day = state["days"][0]
    assert day["eliminated"] == [4]
    assert [(v["candidate"], v["count"], v["source"], v["voters"]) for v in day["votes"]] == [
        (4, 6, "announced", []),
        (9, 4, "announced", []),
    ]
    assert state["alive"] == [1, 2, 3, 5, 6, 7, 8, 9, 10]
    assert state["disagreements"] == [] and state["violations"] == []


def test_announced_tie_leads_to_the_revote_and_the_all_leave_question_000_4_13() -> None:
    g = Game()
    g.discussion(noms={1: 4, 6: 9})
    g.vote(4, [], count=5)
    g.vote(9, [], count=5)
    g.vote(4, [], "revote", count=5)
    g.vote(9, [], "revote", count=5)
    g.vote("all", [], "all", count=6)
    state = g.json()
    assert [(v["round"], v["count"]) for v in state["days"][0]["votes"]] == [
        ("main", 5),
        ("main", 5),
        ("revote", 5),
        ("revote", 5),
        ("all", 6),
    ]
    assert state["days"][0]["eliminated"] == [4, 9]
    assert state["violations"] == [] and state["disagreements"] == []


def test_with_vision_the_announced_count_is_only_compared() -> None:
    """Vision ran (the analyser's events are in the log): vision's count stands and the host's announced
    count is compared with it, as CONTRACT.md reads it — the counts-only rule does not apply."""
    g = Game()
    g.discussion(noms={1: 4, 6: 9})
    g.hands(4, {1: 300, 2: 400, 3: 500}, count=6)
    g.vote(9, [], count=4)
    state = g.json()
    votes = state["days"][0]["votes"]
    assert [v["source"] for v in votes] == ["vision", "none"]
    assert votes[0]["count"] == 3
    assert any("announced 6" in d["what"] for d in state["disagreements"])


@pytest.mark.parametrize("live", [True, False])
def test_a_step_the_log_ends_in_is_open_while_the_game_is_live(live: bool) -> None:
    """The record console referees the marks so far (``live``): after the first of three candidates, the
    vote is under way — nobody leaves and nobody is defaulted yet. An archived log that ends there is a
    vote whose other candidates were never put to it (000 4.5)."""
    g = Game()
    g.discussion(noms={1: 4, 3: 6, 7: 9})
    g.vote(4, [1, 2, 3, 5, 6, 7])
    state = referee(g.events(), rules=g.rules, seats=g.seats, live=live).to_json()
    day = state["days"][0]
    if live:
        assert day["eliminated"] == [] and state["alive"] == list(range(1, 11))
        assert [(v["candidate"], v["voters"], v["defaulted"]) for v in day["votes"]] == [
            (4, [1, 2, 3, 5, 6, 7], [])
        ]
        assert state["violations"] == []
    else:
        assert day["eliminated"] == [4]
        assert [v["rule"] for v in state["violations"]] == ["000 4.5", "000 4.5"]
