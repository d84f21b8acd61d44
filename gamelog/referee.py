"""The referee: a pure function from a bundle's events to the game state under a rule set.

:func:`referee` sorts the events into one total order (media time, the contract's same-t order, then
the event's own JSON), so the result never depends on the order of the input. It applies judge
``void``\\ s (a voided void brings its target back) and ``confirm``\\ s, splits the log into phases at
the host's ``night`` / ``day`` marks and walks them: fouls and removals as they come
(:mod:`gamelog.table`), each day's speaking order and nominations (:mod:`gamelog.days`) and vote
(:mod:`gamelog.votes`, hands read by :mod:`gamelog.fusion`), each night's shots and checks
(:mod:`gamelog.nights`), and the win conditions after every change. What it finds goes to
``violations`` (with the clause), ``needs_review`` and ``disagreements``; the output shape is in
:mod:`gamelog.state`.

Vision facts are never penalised by the referee itself: a hand lift, a head up at night or a wrong
hand shape is a violation and a review item, and the host or a judge decides with a ``foul`` /
``disqualify`` (fouls count host and judge events only). A low-confidence detection is **counted but
listed for review**: not counting it would default the seat to the last candidate, an equally
unconfirmed vote, so the chief judge gets the most likely reading and a pointer to check it.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from gamelog.days import referee_day
from gamelog.events import (
    Confirm,
    Day,
    DonCheck,
    Event,
    HandDown,
    HandUp,
    HeadUp,
    Night,
    NightMotion,
    Roles,
    SheriffCheck,
    Shot,
    ShotCall,
    Void,
    VoteCall,
    event_to_json,
    sort_key,
)
from gamelog.findings import Findings
from gamelog.nights import RAISE_AT_PEEK, NightInput, raise_at_peek_note, referee_night
from gamelog.rules import FEDERATION, RuleSet, rules_for
from gamelog.state import DayResult, GameState, NightResult
from gamelog.table import Phase, Table, common_event

__all__ = ["referee", "referee_bundle"]

_SEAT_FIELDS = ("seat", "by", "target", "don", "sheriff")


def _total_key(ev: Event) -> tuple[int, int, str]:
    return (*sort_key(ev), json.dumps(event_to_json(ev), sort_keys=True, ensure_ascii=False, default=str))


def _prepare(
    events: Iterable[Event], seats: frozenset[int], f: Findings
) -> tuple[list[Event], frozenset[str]]:
    evs = sorted(events, key=_total_key)
    ids = {e.id for e in evs if e.id is not None}
    voids = [e for e in evs if isinstance(e, Void)]
    by_ref: dict[str, list[Void]] = {}
    for v in voids:
        by_ref.setdefault(v.ref, []).append(v)
    memo: dict[int, bool] = {}

    def counts(v: Void, seen: frozenset[int]) -> bool:
        key = id(v)
        if key in memo:
            return memo[key]
        if key in seen:
            return True
        res = not any(counts(w, seen | {key}) for w in by_ref.get(v.id or "", []) if v.id is not None)
        memo[key] = res
        return res

    voided = {v.ref for v in voids if counts(v, frozenset())}
    for v in voids:
        if v.ref not in ids:
            f.review(v.t, None, f"void refers to {v.ref!r}, which is not in the bundle", v.id)
    keep: list[Event] = []
    for e in evs:
        if isinstance(e, Void) or (e.id is not None and e.id in voided):
            continue
        bad = _bad_seat(e, seats)
        if bad is not None:
            f.review(e.t, None, f"{e.TYPE} names seat {bad}, which is not at this table", e.id)
            continue
        keep.append(e)
    confirms = [e for e in keep if isinstance(e, Confirm)]
    for c in confirms:
        if c.ref not in ids:
            f.review(c.t, None, f"confirm refers to {c.ref!r}, which is not in the bundle", c.id)
    return keep, frozenset(c.ref for c in confirms)


def _bad_seat(e: Event, seats: frozenset[int]) -> int | None:
    for name in _SEAT_FIELDS:
        v = getattr(e, name, None)
        if isinstance(v, int) and v not in seats:
            return v
    cand = getattr(e, "candidate", None)
    if isinstance(cand, int) and not isinstance(cand, bool) and cand not in seats:
        return cand
    for name in ("mafia", "suspects"):
        for v in getattr(e, name, ()):
            if v not in seats:
                return int(v)
    return None


def _phases(evs: Sequence[Event], f: Findings) -> list[Phase]:
    phases = [Phase("pre", 0, evs[0].t if evs else 0)]
    expect: tuple[str, int] | None = ("night", 0)
    for e in evs:
        if isinstance(e, Night | Day):
            kind = "night" if isinstance(e, Night) else "day"
            if expect is not None and (kind, e.n) != expect:
                f.review(
                    e.t, None, f"host mark {kind} {e.n} where {expect[0]} {expect[1]} was expected", e.id
                )
            expect = ("day", e.n + 1) if kind == "night" else ("night", e.n)
            phases.append(Phase(kind, e.n, e.t))
        else:
            phases[-1].events.append(e)
    end = (evs[-1].t + 1) if evs else 0
    for i, p in enumerate(phases):
        p.end_t = phases[i + 1].t if i + 1 < len(phases) else max(end, p.t + 1)
    return phases


def _roles(evs: Sequence[Event], g: Table) -> None:
    roles = [e for e in evs if isinstance(e, Roles)]
    if not roles:
        return
    r = roles[-1]
    g.black = frozenset((r.don, *r.mafia))
    g.don, g.sheriff = r.don, r.sheriff
    g.roles = {s: "red" for s in g.seats}
    g.roles.update({s: str(v) for s, v in r.others.items()})
    g.roles.update({m: "mafia" for m in r.mafia})
    g.roles[r.don] = "don"
    g.roles[r.sheriff] = "sheriff"
    want = g.rules.black_players
    if want is not None and len(g.black) != want:
        g.f.violation(
            r.t, None, "001 basics 1", f"{len(g.black)} black players dealt, the rules have {want}", r.id
        )


def _night(g: Table, p: Phase, vision_present: bool) -> NightResult | None:
    f, rules = g.f, g.rules
    if p.kind == "pre" or p.n == 0:
        for e in p.events:
            if isinstance(e, DonCheck | SheriffCheck) and rules.no_checks_night0:
                f.violation(
                    e.t,
                    None,
                    "002 11",
                    f"{e.TYPE.replace('_', ' ')} on night 0 (no checks on the first night)",
                    e.id,
                )
            elif isinstance(e, Shot | ShotCall):
                f.violation(
                    e.t,
                    getattr(e, "seat", None),
                    "000 5.2",
                    "shooting on night 0 (first shooting is night 1)",
                    e.id,
                )
            elif isinstance(e, VoteCall):
                f.review(e.t, None, "vote call outside a day", e.id)
            _night_vision(g, e, p)
            common_event(g, e)
        return None
    calls = [e for e in p.events if isinstance(e, ShotCall)]
    first_call = min((c.t for c in calls), default=p.t)
    # The shooting ends with the last number's window; a game decided before that has no such night.
    shooting_end = max(c.t for c in calls) + rules.shot_window_ms if calls else p.t
    pending = list(p.events)
    alive_at_shooting: frozenset[int] | None = None
    while pending and pending[0].t < shooting_end and g.winner is None:
        if alive_at_shooting is None and pending[0].t >= first_call:
            alive_at_shooting = frozenset(g.alive)
        e = pending.pop(0)
        _night_vision(g, e, p)
        common_event(g, e)
    if g.winner is not None:
        return None
    alive = alive_at_shooting if alive_at_shooting is not None else frozenset(g.alive)
    res = referee_night(
        NightInput(p.n, p.t, p.events, alive, g.black, g.don, g.sheriff, vision_present), rules, f
    )
    for e in pending:
        if g.winner is not None:
            break
        _night_vision(g, e, p)
        common_event(g, e)
    if res.killed is not None and res.killed in g.alive:
        g.alive.discard(res.killed)
        g.killed.append(res.killed)
        res = dataclasses.replace(res, revealed=g.reveal((res.killed,)))
        if p.n == 1:
            g.first_kill = res.killed  # the first-night victim (001 voting 12)
    g.misses = 0 if res.killed is not None else g.misses + 1
    if rules.three_misses_red_win and g.misses >= 3:
        g.win(p.end_t, "red", "three misses on three nights in a row (000 11.1)")
    g.check_win(p.end_t)
    return res


CHECK_AWAKE_MS = 15_000  # the Don / the Sheriff are awake about 10 s around their check (000 2.1, 2.4)


def _night_vision(g: Table, e: Event, p: Phase) -> None:
    """Head up or movement at night (000 5.9). Awake by the rules, so not flagged: on night 0 the black
    players (the meeting, 000 2.2) and the Don and the Sheriff (showing themselves, 000 2.1, 2.4) — a red
    player's head up on night 0 is only listed for review (cards are dealt with heads up); on later
    nights the Don and the Sheriff around their checks (000 5.6, 5.7)."""
    if not isinstance(e, HeadUp | NightMotion) or e.seat not in g.alive:
        return
    if isinstance(e, HeadUp):
        if p.kind == "pre" or p.n == 0:
            awake = set(g.black or ()) | {x for x in (g.don, g.sheriff) if x is not None}
            if e.seat not in awake:
                g.f.review(
                    e.t,
                    e.seat,
                    f"head up on night 0 for {(e.until - e.t) / 1000:.1f} s (cards dealt? peeking?)",
                    e.id,
                )
            return
        for check in p.events:
            if isinstance(check, DonCheck | SheriffCheck):
                who = g.don if isinstance(check, DonCheck) else g.sheriff
                if who == e.seat and abs(check.t - e.t) <= CHECK_AWAKE_MS:
                    return
        what = f"head up at night for {(e.until - e.t) / 1000:.1f} s (peeking? 000 9.1.6 / 10.1)"
        g.f.violation(e.t, e.seat, "000 5.9", what, e.id)
        g.f.review(e.t, e.seat, f"head up at night for {(e.until - e.t) / 1000:.1f} s", e.id)
        return
    if isinstance(e, NightMotion) and e.kind == RAISE_AT_PEEK:
        if p.kind == "pre" or p.n == 0:
            return  # no shooting on night 0 (000 5.2); the head itself is listed by its head_up
        g.f.review(e.t, e.seat, raise_at_peek_note(e, p.events, g.rules, g.black), e.id)
        return
    if (p.kind == "pre" or p.n == 0) and e.seat in set(g.black or ()):
        return  # the black players' meeting on night 0: gestures among them are the point (000 2.2)
    g.f.violation(e.t, e.seat, "000 5.9", f"night movement: {e.kind}", e.id)
    g.f.review(e.t, e.seat, f"night movement: {e.kind}", e.id)


def referee(
    events: Iterable[Event],
    *,
    rules: RuleSet | str = FEDERATION,
    seats: Iterable[int] = range(1, 11),
    live: bool = False,
) -> GameState:
    """The game state the events lead to under ``rules`` (a RuleSet or a preset name), for ``seats``.

    ``live``: the game is still being played (the record console): a vote step the log ends in is not
    decided yet, rather than a step whose missing windows were never held."""
    if isinstance(rules, str):
        rules = rules_for(rules)
    seat_t = tuple(sorted(set(seats)))
    f = Findings()
    evs, confirmed = _prepare(events, frozenset(seat_t), f)
    if not rules.players_min <= len(seat_t) <= rules.players_max:
        f.violation(
            0, None, "000 1.1" if rules.players_max == 10 else "004", f"{len(seat_t)} players at the table"
        )
    g = Table(rules=rules, seats=seat_t, f=f, alive=set(seat_t))
    _roles(evs, g)
    vision_present = any(e.src == "vision" for e in evs)
    hands = [e for e in evs if isinstance(e, HandDown | HandUp)]
    days: list[DayResult] = []
    nights: list[NightResult] = []
    late_mark_reported = False
    phases = _phases(evs, f)
    phases[-1].last = live
    for p in phases:
        if g.winner is not None:
            if p.kind != "pre" and not late_mark_reported:
                late_mark_reported = True
                f.review(p.t, None, f"{p.kind} {p.n} marked after the game was decided ({g.win_reason})")
            continue
        if p.kind == "day":
            days.append(referee_day(g, p, evs, hands, vision_present))
        else:
            res = _night(g, p, vision_present)
            if res is not None:
                nights.append(res)
    violations, reviews, disagreements, timing = f.frozen(confirmed)
    return GameState(
        rules=rules.name,
        rule_options=tuple(sorted(rules.options().items())),
        seats=seat_t,
        winner=g.winner,
        win_reason=g.win_reason,
        alive=tuple(sorted(g.alive)),
        days=tuple(days),
        nights=tuple(nights),
        fouls=tuple(sorted(g.fouls.items())),
        removed=tuple(g.removed),
        violations=violations,
        needs_review=reviews,
        disagreements=disagreements,
        roles=tuple(sorted(g.roles.items())),
        timing_changes=timing,
        best_move=g.best_move,
        ended_t=g.ended_t,
        eliminated=tuple(g.eliminated),
        killed=tuple(g.killed),
    )


class _GameInfo(Protocol):
    rules: str

    @property
    def rule_options(self) -> Mapping[str, Any]: ...


class _Bundle(Protocol):
    @property
    def game(self) -> Any: ...

    @property
    def events(self) -> Sequence[Event]: ...


def seats_of(game: Any) -> tuple[int, ...]:
    """The seats of a GameInfo: ``.seats`` when it has them, else the players' seats, else 1–10."""
    seats = getattr(game, "seats", None)
    if seats:
        return tuple(int(s) for s in seats)
    players = getattr(game, "players", None)
    if players:
        return tuple(int(p.seat) for p in players)
    return tuple(range(1, 11))


def referee_bundle(bundle: _Bundle) -> GameState:
    """Referee a loaded bundle under its game.json rule set and ``rule_options``."""
    game = bundle.game
    rules = rules_for(getattr(game, "rules", None), getattr(game, "rule_options", None) or {})
    return referee(bundle.events, rules=rules, seats=seats_of(game))
