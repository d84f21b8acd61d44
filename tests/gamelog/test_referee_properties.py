"""Properties of the referee over generated games and random event soups (hypothesis)."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamelog.events import EventError, parse_event
from gamelog.referee import referee
from gamelog.rules import PRESETS
from gamelog.state import GameState

SEATS = tuple(range(1, 11))
seat = st.integers(1, 10)
conf = st.floats(0.0, 1.0)
gesture = st.sampled_from(["thumb_up", "fist", "gun", "point", "palm", "other"])


def _field_strategies(n_ids: int) -> dict[str, Any]:
    ref = st.integers(0, n_ids + 3).map(lambda i: f"e{i}")
    cand = st.one_of(seat, st.just("all"))
    return {
        "roles": st.fixed_dictionaries(
            {"don": st.just(2), "mafia": st.just([5, 8]), "sheriff": st.sampled_from([1, 3, 4])}
        ),
        "night": st.fixed_dictionaries({"n": st.integers(0, 4)}),
        "day": st.fixed_dictionaries({"n": st.integers(1, 4)}),
        "speech": st.fixed_dictionaries({"seat": seat}),
        "speech_end": st.fixed_dictionaries({"seat": seat}),
        "nominate": st.fixed_dictionaries({"by": seat, "target": seat}),
        "withdraw": st.fixed_dictionaries({"by": seat, "target": seat}),
        "vote_call": st.one_of(
            st.fixed_dictionaries({"round": st.sampled_from(["main", "revote"]), "candidate": seat}),
            st.just({"round": "all"}),
        ),
        "vote_stop": st.just({}),
        "vote_count": st.fixed_dictionaries({"candidate": cand, "count": st.integers(0, 10)}),
        "vote": st.fixed_dictionaries({"seat": seat, "candidate": cand}),
        "shot_call": st.fixed_dictionaries({"target": seat}),
        "shot": st.fixed_dictionaries({"seat": seat, "target": seat}),
        "don_check": st.fixed_dictionaries({"target": seat}),
        "sheriff_check": st.fixed_dictionaries({"target": seat}),
        "best_move": st.fixed_dictionaries(
            {"seat": seat, "suspects": st.lists(seat, min_size=1, max_size=3)}
        ),
        "foul": st.fixed_dictionaries({"seat": seat}),
        "disqualify": st.fixed_dictionaries({"seat": seat}),
        "team_loss": st.fixed_dictionaries({"seat": seat}),
        "hand_down": st.fixed_dictionaries({"seat": seat, "gesture": gesture, "conf": conf}),
        "hand_up": st.fixed_dictionaries({"seat": seat, "conf": conf}),
        "shot_raise": st.fixed_dictionaries({"seat": seat, "gesture": gesture, "conf": conf}),
        "head_up": st.fixed_dictionaries({"seat": seat, "conf": conf, "until": st.integers(6000, 7000)}),
        "speech_onset": st.fixed_dictionaries({"ref": ref, "conf": conf}),
        "void": st.fixed_dictionaries({"ref": ref}),
        "confirm": st.fixed_dictionaries({"ref": ref}),
    }


SRC = {
    "hand_down": "vision",
    "hand_up": "vision",
    "shot_raise": "vision",
    "head_up": "vision",
    "speech_onset": "audio",
    "void": "judge",
    "confirm": "judge",
}


@st.composite
def soups(draw: st.DrawFn, max_size: int = 60) -> list[Any]:
    """Random events of every type, with colliding times and references to other events."""
    n = draw(st.integers(0, max_size))
    fields = _field_strategies(n)
    types = sorted(fields)
    out = []
    for i in range(n):
        typ = draw(st.sampled_from(types))
        src = SRC.get(typ) or draw(st.sampled_from(["host", "judge"]))
        line = {"t": draw(st.integers(0, 6000)), "type": typ, "src": src, "id": f"e{i}", **draw(fields[typ])}
        try:
            out.append(parse_event(line))
        except EventError:
            continue
    return out


@st.composite
def games(draw: st.DrawFn) -> list[Any]:
    """Games in the right phase order with random nominations, votes, shots and penalties."""
    lines: list[dict[str, Any]] = [{"t": 0, "type": "night", "src": "host", "n": 0}]
    if draw(st.booleans()):
        lines.append({"t": 10, "type": "roles", "src": "host", "don": 2, "mafia": [5, 8], "sheriff": 1})
    t = 1000
    for day in range(1, draw(st.integers(1, 4)) + 1):
        lines.append({"t": t, "type": "day", "src": "host", "n": day})
        t += 100
        targets: list[int] = []
        for _ in range(draw(st.integers(0, 4))):
            by, target = draw(seat), draw(seat)
            lines.append({"t": t, "type": "nominate", "src": "host", "by": by, "target": target})
            targets.append(target)
            t += draw(st.integers(0, 50))
        # Mostly the procedure a host would follow (main over the candidates, a re-vote over two, the
        # all-leave question), sometimes random windows.
        cands = list(dict.fromkeys(targets))
        steps: list[tuple[str, int | str]] = [("main", c) for c in cands]
        steps += [("revote", c) for c in cands[:2]] * draw(st.integers(0, 2)) + [("all", "all")]
        if draw(st.integers(0, 4)) == 0:
            steps = [
                (r, "all" if r == "all" else draw(seat))
                for r in draw(st.lists(st.sampled_from(["main", "revote", "all"]), max_size=5))
            ]
        for rnd, cand in steps:
            call: dict[str, Any] = {"t": t, "type": "vote_call", "src": "host", "round": rnd}
            if rnd != "all":
                call["candidate"] = cand
            lines.append(call)
            for s in draw(st.lists(seat, max_size=10)):
                if draw(st.booleans()):
                    lines.append(
                        {
                            "t": t + draw(st.integers(0, 2500)),
                            "type": "vote",
                            "src": "host",
                            "seat": s,
                            "candidate": cand,
                        }
                    )
                else:
                    lines.append(
                        {
                            "t": t + draw(st.integers(0, 2500)),
                            "type": "hand_down",
                            "src": "vision",
                            "seat": s,
                            "gesture": "thumb_up",
                            "conf": 0.9,
                        }
                    )
            lines.append({"t": t + 2000, "type": "vote_stop", "src": "host"})
            t += 3000
        for _ in range(draw(st.integers(0, 2))):
            typ = draw(st.sampled_from(["foul", "foul", "disqualify"]))
            lines.append({"t": t, "type": typ, "src": "host", "seat": draw(seat)})
            t += 10
        t += 100
        lines.append({"t": t, "type": "night", "src": "host", "n": day})
        t += 100
        for num in SEATS:
            lines.append({"t": t, "type": "shot_call", "src": "host", "target": num})
            t += 1500
        for s in (2, 5, 8):
            if draw(st.booleans()):
                lines.append(
                    {
                        "t": t - 15000 + draw(st.integers(0, 14000)),
                        "type": "shot",
                        "src": "host",
                        "seat": s,
                        "target": draw(seat),
                    }
                )
        t += 1000
    for i, line in enumerate(lines):
        line["id"] = f"g{i}"
    return [parse_event(x) for x in lines]


def check_invariants(state: GameState) -> None:
    all_seats = set(SEATS)
    alive, elim, killed = set(state.alive), list(state.eliminated), list(state.killed)
    removed = [r.seat for r in state.removed]
    gone = elim + killed + removed
    assert len(gone) == len(set(gone)), "a seat left twice"
    assert alive | set(gone) == all_seats and not (alive & set(gone))
    assert len(elim) <= len(all_seats)
    for d in state.days:
        assert set(d.eliminated) <= all_seats
    js = state.to_json()
    text = json.dumps(js)  # JSON-serialisable, keys are strings
    assert json.loads(text) == js


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(soups(), st.sampled_from(sorted(PRESETS)))
def test_random_soups_never_crash(events: list[Any], preset: str) -> None:
    """Any valid events, in any mix, give a state with the invariants below — never an exception."""
    check_invariants(referee(events, rules=PRESETS[preset], seats=SEATS))


@SETTINGS
@given(games(), st.randoms(use_true_random=False))
def test_shuffled_input_gives_the_same_state(events: list[Any], rnd: random.Random) -> None:
    """The outcome never depends on the order of lines (CONTRACT); the referee is deterministic."""
    first = referee(events, seats=SEATS).to_json()
    assert referee(events, seats=SEATS).to_json() == first
    shuffled = list(events)
    rnd.shuffle(shuffled)
    assert referee(shuffled, seats=SEATS).to_json() == first
    check_invariants(referee(shuffled, seats=SEATS))


@SETTINGS
@given(soups(40), st.randoms(use_true_random=False))
def test_shuffled_soups_give_the_same_state(events: list[Any], rnd: random.Random) -> None:
    shuffled = list(events)
    rnd.shuffle(shuffled)
    assert referee(shuffled, seats=SEATS).to_json() == referee(events, seats=SEATS).to_json()
