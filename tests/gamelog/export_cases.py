"""Games for the export tests: the contract examples as bundles, and one finished game written here.

The finished game ("long game") runs four days and two shooting nights and touches everything a score
sheet prints: a tie and re-vote, a night kill with a best move, both checks, fouls, a disqualification,
and a red win. Its ``state`` is written by hand in the referee's JSON shape (CONTRACT.md plus the
project's extra keys), so the exporters are tested on their own; the contract examples also run
through the real referee.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gamelog.bundle import Bundle, GameInfo, load_bundle
from gamelog.events import Event, parse_event

EXAMPLES = ("01-majority-and-kill", "05-tie-all-leave-pass", "14-club-withdrawal")

NAMES = ("Бриз", "Штиль", "Орбита", "Шмель", "Сова", "Арчи", "Марс", "Ферзь", "Мира", "Лотос")


def example_bundle(shared_dir: Path, name: str) -> Bundle:
    return load_bundle(shared_dir / "contract_examples" / name)


def example_state(shared_dir: Path, name: str) -> dict[str, Any]:
    """The state of a contract example as the referee derives it."""
    from gamelog.referee import referee_bundle

    return referee_bundle(example_bundle(shared_dir, name)).to_json()


def long_game_info(**kw: Any) -> GameInfo:
    header: dict[str, Any] = {
        "started_at": "2024-10-05T18:30:00+03:00",
        "tournament": "Кубок осени",
        "stage": "финал",
        "table": "2",
        "game_number": 7,
        "host": "Ведущий Иван",
        "judges": ("Судья А", "Судья Б"),
    }
    header.update(kw)
    names = header.pop("names", NAMES)
    return GameInfo.new(list(names), rules=header.pop("rules", "federation"), **header)


def _ev(t: int, typ: str, **fields: Any) -> Event:
    return parse_event({"t": t, "type": typ, "src": fields.pop("src", "host"), **fields})


def long_game_events(*, roles: bool = True) -> list[Event]:
    evs = [
        _ev(1_000, "night", n=0, id="n0"),
        _ev(2_000, "day", n=1, id="d1"),
        _ev(10_000, "nominate", by=2, target=6),
        _ev(20_000, "nominate", by=5, target=3),
        _ev(30_000, "nominate", by=9, target=4),
        _ev(40_000, "foul", seat=4, reason="speaking in another's minute"),
        _ev(100_000, "night", n=1, id="n1"),
        _ev(105_000, "don_check", target=1, id="dc1"),
        _ev(110_000, "sheriff_check", target=3, id="sc1"),
        _ev(120_000, "day", n=2, id="d2"),
        _ev(121_000, "best_move", seat=1, suspects=[3, 8, 5], id="bm"),
        _ev(130_000, "nominate", by=2, target=3),
        _ev(140_000, "nominate", by=4, target=5),
        _ev(150_000, "foul", seat=10, reason="gestures"),
        _ev(151_000, "foul", seat=4, reason="knocking"),
        _ev(200_000, "night", n=2, id="n2"),
        _ev(220_000, "day", n=3, id="d3"),
        _ev(225_000, "disqualify", seat=10, reason="insult", id="dq"),
        _ev(230_000, "nominate", by=2, target=8),
        _ev(260_000, "vote_stop"),
    ]
    if roles:
        evs.insert(1, _ev(1_500, "roles", don=3, mafia=[6, 8], sheriff=1, id="roles"))
    return evs


def _vote(rnd: str, cand: int | str, voters: list[int], **kw: Any) -> dict[str, Any]:
    return {"round": rnd, "candidate": cand, "voters": voters, "late": [], "defaulted": [], **kw}


def long_game_state(*, roles: bool = True) -> dict[str, Any]:
    return {
        "rules": "federation",
        "winner": "red",
        "win_reason": "every black player has left (001 basics 3)",
        "alive": [2, 4, 5, 9],
        "days": [
            {
                "day": 1,
                "nominations": [{"by": 2, "target": 6}, {"by": 5, "target": 3}, {"by": 9, "target": 4}],
                "votes": [
                    _vote("main", 6, [1, 2, 5, 7]),
                    _vote("main", 3, [4, 9, 10]),
                    _vote("main", 4, [3, 6, 8], defaulted=[8]),
                ],
                "eliminated": [6],
            },
            {
                "day": 2,
                "nominations": [{"by": 2, "target": 3}, {"by": 4, "target": 5}],
                "votes": [
                    _vote("main", 3, [2, 4, 7, 9]),
                    _vote("main", 5, [3, 5, 8, 10]),
                    _vote("revote", 3, [2, 4, 7, 9, 10]),
                    _vote("revote", 5, [3, 5, 8], late=[5]),
                ],
                "eliminated": [3],
            },
            {
                "day": 3,
                "nominations": [{"by": 2, "target": 8}],
                "votes": [_vote("main", 8, [2, 4, 5, 9])],
                "eliminated": [8],
            },
        ],
        "nights": [
            {"night": 1, "shots": {"3": 1, "8": 1}, "killed": 1, "miss": False},
            {"night": 2, "shots": {"8": 7}, "killed": 7, "miss": False},
        ],
        "fouls": {"4": 2, "10": 1},
        "removed": [{"seat": 10, "why": "disqualified: insult", "t": 225_000, "rule": "000 9.1"}],
        "violations": [],
        "needs_review": [],
        "disagreements": [],
        "roles": (
            {str(s): r for s, r in {1: "sheriff", 3: "don", 6: "mafia", 8: "mafia"}.items()}
            | {str(s): "red" for s in (2, 4, 5, 7, 9, 10)}
            if roles
            else {}
        ),
    }


def example_expected(shared_dir: Path, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (shared_dir / "contract_examples" / name / "expected.json").read_text(encoding="utf-8")
    )
    return data
