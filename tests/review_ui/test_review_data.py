"""The review model without Qt: vote timing against "Спасибо", markers, navigation, judge events."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamelog.events import VoteStop
from review_ui import judging
from review_ui.review_data import _departed_before_night, build_review, next_marker, outcome_changes
from tests.review_ui.review_fixtures import CALL_T, STOP_T, make_game


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return make_game(tmp_path)


def test_each_landing_is_timed_against_the_close(game: Path) -> None:
    data = build_review(game)
    rnd = data.rounds[0]
    assert (rnd.call_t, rnd.close_t, rnd.candidate, rnd.day) == (CALL_T, STOP_T, 3, 1)
    assert {x.seat: x.delta_ms for x in rnd.landings} == {1: -1400, 2: -800, 4: -200, 6: 400}
    assert set(rnd.voters) >= {1, 2, 4} and 6 in rnd.late
    assert data.round_at(STOP_T - 1) is rnd


@pytest.mark.parametrize(
    ("t", "direction", "kind", "lane", "expected"),
    [
        (0, 1, "call", None, CALL_T),
        (CALL_T, 1, "vote", None, 4600),
        (4600, 1, "vote", 4, 5800),
        (8500, -1, "stop", None, STOP_T),
        (9000, 1, "stop", None, None),
    ],
)
def test_next_marker(
    game: Path, t: int, direction: int, kind: str, lane: int | None, expected: int | None
) -> None:
    m = next_marker(build_review(game).markers, t, direction, kind=kind, lane=lane)
    assert (m.t if m is not None else None) == expected


def test_moving_the_stop_makes_a_landing_late(game: Path) -> None:
    before = build_review(game)
    stop = before.event("h6")
    assert isinstance(stop, VoteStop)
    ids = judging.IdMaker.for_events(before.bundle.events)
    judging.append(game, judging.move_stop(ids, stop=stop, new_t=5500, judge="Судья", reason="voice onset"))
    after = build_review(game)
    rnd = after.rounds[0]
    assert rnd.close_t == 5500
    assert 4 in rnd.late and 4 not in before.rounds[0].late
    assert "h6" in after.voided
    assert outcome_changes(before.state, after.state)
    lines = (game / "events.jsonl").read_text(encoding="utf-8").splitlines()
    assert '"ref": "h6"' in lines[-2] and '"judge": "Судья"' in lines[-1]


def test_judge_actions_need_a_name_and_a_reason(game: Path) -> None:
    data = build_review(game)
    ids = judging.IdMaker.for_events(data.bundle.events)
    target = data.event("v1")
    assert target is not None
    with pytest.raises(judging.JudgeError):
        judging.void(ids, target=target, judge="", reason="x")
    with pytest.raises(judging.JudgeError):
        judging.void(ids, target=target, judge="A", reason=" ")
    with pytest.raises(judging.JudgeError):
        judging.protest(ids, t=0, judge="A", by=1, seats=(1,), claim="c", from_t=5, until=1)


def test_a_bad_line_is_listed_and_the_rest_loads(game: Path) -> None:
    with open(game / "events.jsonl", "ab") as f:
        f.write(b'{"t": 5000, "type": "vote_stop", "src": "nobody"}\n{"t": 12\n')
    data = build_review(game)
    assert len(data.bundle.bad_lines) == 2
    assert "events.jsonl" in str(data.bundle.bad_lines[0])
    assert data.rounds[0].close_t == STOP_T and len(data.rounds[0].landings) == 4


def test_seats_departed_before_a_night() -> None:
    """Night n follows day n: voted out on days 1..n, killed on nights before n, removed before it starts."""
    state = {
        "days": [{"day": 1, "eliminated": [7]}, {"day": 2, "eliminated": [2]}, {"day": 3, "eliminated": []}],
        "nights": [{"night": 1, "killed": 5}, {"night": 2, "killed": None}, {"night": 3, "killed": 9}],
        "removed": [{"seat": 4, "t": 50_000}, {"seat": 8, "t": 90_000}],
    }
    assert _departed_before_night(state, 1, 60_000) == {7, 4}
    assert _departed_before_night(state, 2, 100_000) == {7, 2, 5, 4, 8}
    assert _departed_before_night(state, 3, 120_000) == {7, 2, 5, 4, 8}
