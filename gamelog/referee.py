"""The referee: a pure function from a bundle's events to the game state under a rule set.

:func:`referee` sorts the events into one total order (media time, the contract's same-t order, then
the event's own JSON), so the result never depends on the order of the input. It applies judge
``void``\\ s (a voided void brings its target back) and ``confirm``\\ s, splits the log into phases at
the host's ``night`` / ``day`` marks and walks them: fouls and removals as they come, each day's
speaking order, nominations and vote (:mod:`gamelog.votes`), each night's shots and checks
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

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from gamelog.events import (
    BestMove,
    Confirm,
    Day,
    Disqualify,
    DonCheck,
    Event,
    Foul,
    HandDown,
    HandUp,
    HeadUp,
    Night,
    NightMotion,
    Nominate,
    Roles,
    SheriffCheck,
    Shot,
    ShotCall,
    Speech,
    SpeechOnset,
    TeamLoss,
    Void,
    Vote,
    VoteCall,
    VoteCount,
    VoteStop,
    Withdraw,
    event_to_json,
    sort_key,
)
from gamelog.findings import Findings
from gamelog.fusion import build_windows, hand_tracks
from gamelog.nights import NightInput, referee_night
from gamelog.rules import FEDERATION, RuleSet, rules_for
from gamelog.state import BestMoveResult, DayResult, GameState, NightResult, Removal
from gamelog.votes import VoteContext, run_vote

__all__ = ["referee", "referee_bundle"]

_SEAT_FIELDS = ("seat", "by", "target", "don", "sheriff")


def _total_key(ev: Event) -> tuple[int, int, str]:
    return (*sort_key(ev), json.dumps(event_to_json(ev), sort_keys=True, ensure_ascii=False, default=str))


def _ordinal(n: int) -> str:
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"


@dataclass
class _Phase:
    kind: str  # "pre" | "night" | "day"
    n: int
    t: int
    events: list[Event] = field(default_factory=list)
    end_t: int = 0


@dataclass
class _Game:
    """The mutable state of one referee run."""

    rules: RuleSet
    seats: tuple[int, ...]
    f: Findings
    fouls_by_seat: dict[int, list[Foul]]
    black: frozenset[int] | None = None
    don: int | None = None
    sheriff: int | None = None
    roles: dict[int, str] = field(default_factory=dict)
    alive: set[int] = field(default_factory=set)
    fouls: dict[int, int] = field(default_factory=dict)
    removed: list[Removal] = field(default_factory=list)
    eliminated: list[int] = field(default_factory=list)
    killed: list[int] = field(default_factory=list)
    winner: str | None = None
    win_reason: str | None = None
    ended_t: int | None = None
    silence_next: set[int] = field(default_factory=set)
    misses: int = 0
    prev_opener: int | None = None
    best_move: BestMoveResult | None = None
    first_kill: int | None = None
    # per-day context
    day_removals: dict[int, int] = field(default_factory=dict)
    spoken: set[int] = field(default_factory=set)
    discussion_over: bool = True
    day_silenced: set[int] | None = None

    def win(self, t: int, winner: str, reason: str) -> None:
        if self.winner is None:
            self.winner, self.win_reason, self.ended_t = winner, reason, t

    def check_win(self, t: int) -> None:
        if self.black is None or self.winner is not None:
            return
        black = self.alive & self.black
        red = self.alive - self.black
        if not black:
            self.win(t, "red", "every black player has left (001 basics 3)")
        elif len(black) >= len(red):
            self.win(t, "black", "black and red are equal in number at the table (001 basics 3)")

    def team_of(self, seat: int) -> str | None:
        if self.black is None:
            return None
        return "black" if seat in self.black else "red"

    def remove(self, t: int, seat: int, why: str, rule: str) -> None:
        if seat not in self.alive:
            return
        self.alive.discard(seat)
        self.removed.append(Removal(seat, why, t, rule))
        self.day_removals[seat] = t
        self.check_win(t)

    def penalty(self, ev: Event) -> None:
        """Fouls, disqualifications and team losses, in time order (000 7.4, 7.5, 9.1, 10)."""
        rules, f = self.rules, self.f
        if isinstance(ev, TeamLoss):
            team = self.team_of(ev.seat)
            if team is None:
                f.review(ev.t, ev.seat, "team loss entered but the roles are unknown", ev.id)
                return
            other = "red" if team == "black" else "black"
            self.win(ev.t, other, f"team loss: seat {ev.seat} ({ev.reason or 'no reason given'}) (000 10)")
            return
        if isinstance(ev, Disqualify):
            if ev.seat not in self.alive:
                f.review(ev.t, ev.seat, "disqualification of a seat that has left", ev.id)
                return
            why = "disqualified" + (f": {ev.reason}" if ev.reason else "")
            self.remove(ev.t, ev.seat, why, "000 9.1")
            return
        if not isinstance(ev, Foul):
            return
        if ev.seat not in self.alive:
            f.review(ev.t, ev.seat, "foul for a seat that has left", ev.id)
            return
        n = self.fouls.get(ev.seat, 0) + 1
        self.fouls[ev.seat] = n
        if n == rules.fouls_to_remove:
            if rules.fourth_foul_at_four_team_loss and len(self.alive) == 4:
                team = self.team_of(ev.seat)
                self.remove(ev.t, ev.seat, f"{_ordinal(n)} foul", "000 10.3")
                if team is not None:
                    other = "red" if team == "black" else "black"
                    self.winner = None
                    self.win(
                        ev.t,
                        other,
                        f"team loss: {_ordinal(n)} foul of seat {ev.seat} with four at the table (000 10.3)",
                    )
                return
            clause = "000 7.5" if rules.fouls_to_remove == 4 else "004"
            self.remove(ev.t, ev.seat, f"{_ordinal(n)} foul", clause)
        elif rules.fouls_to_silence is not None and n == rules.fouls_to_silence:
            if not self.discussion_over and ev.seat not in self.spoken and self.day_silenced is not None:
                self.day_silenced.add(ev.seat)
            else:
                self.silence_next.add(ev.seat)


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


def _phases(evs: Sequence[Event], f: Findings) -> list[_Phase]:
    phases = [_Phase("pre", 0, evs[0].t if evs else 0)]
    expect: tuple[str, int] | None = ("night", 0)
    for e in evs:
        if isinstance(e, Night | Day):
            kind = "night" if isinstance(e, Night) else "day"
            if expect is not None and (kind, e.n) != expect:
                f.review(
                    e.t, None, f"host mark {kind} {e.n} where {expect[0]} {expect[1]} was expected", e.id
                )
            expect = ("day", e.n + 1) if kind == "night" else ("night", e.n)
            phases.append(_Phase(kind, e.n, e.t))
        else:
            phases[-1].events.append(e)
    end = (evs[-1].t + 1) if evs else 0
    for i, p in enumerate(phases):
        p.end_t = phases[i + 1].t if i + 1 < len(phases) else max(end, p.t + 1)
    return phases


def _roles(evs: Sequence[Event], g: _Game) -> None:
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


def _generic(g: _Game, e: Event, phase: _Phase) -> None:
    """Events any phase may hold."""
    if isinstance(e, Foul | Disqualify | TeamLoss):
        g.penalty(e)
    elif isinstance(e, BestMove):
        black = None if g.black is None else sum(1 for s in e.suspects if s in g.black)
        if g.best_move is None:
            g.best_move = BestMoveResult(e.t, e.seat, tuple(e.suspects), black)
            if g.first_kill is not None and e.seat != g.first_kill:
                g.f.violation(
                    e.t,
                    e.seat,
                    "001 voting 12",
                    "best move by a player who was not the first-night victim",
                    e.id,
                )
        else:
            g.f.review(e.t, e.seat, "a second best move entered", e.id)


def _night(g: _Game, p: _Phase, vision_present: bool) -> NightResult | None:
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
            _night_vision(g, e)
            _generic(g, e, p)
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
        _night_vision(g, e)
        _generic(g, e, p)
    if g.winner is not None:
        return None
    alive = alive_at_shooting if alive_at_shooting is not None else frozenset(g.alive)
    res = referee_night(
        NightInput(p.n, p.t, p.events, alive, g.black, g.don, g.sheriff, vision_present), rules, f
    )
    for e in pending:
        if g.winner is not None:
            break
        _night_vision(g, e)
        _generic(g, e, p)
    if res.killed is not None and res.killed in g.alive:
        g.alive.discard(res.killed)
        g.killed.append(res.killed)
        if g.first_kill is None:
            g.first_kill = res.killed
    g.misses = 0 if res.killed is not None else g.misses + 1
    if rules.three_misses_red_win and g.misses >= 3:
        g.win(p.end_t, "red", "three misses on three nights in a row (000 11.1)")
    g.check_win(p.end_t)
    return res


def _night_vision(g: _Game, e: Event) -> None:
    if isinstance(e, HeadUp) and e.seat in g.alive:
        g.f.violation(
            e.t, e.seat, "000 5.9", f"head up at night until {e.until} (peeking? 000 9.1.6 / 10.1)", e.id
        )
        g.f.review(e.t, e.seat, f"head up at night until {e.until}", e.id)
    elif isinstance(e, NightMotion) and e.seat in g.alive:
        g.f.violation(e.t, e.seat, "000 5.9", f"night movement: {e.kind}", e.id)
        g.f.review(e.t, e.seat, f"night movement: {e.kind}", e.id)


def _opener(g: _Game, alive: set[int]) -> int | None:
    order = sorted(g.seats)
    if not alive:
        return None
    if g.prev_opener is None:
        start = 0
    else:
        start = (order.index(g.prev_opener) + 1) % len(order) if g.prev_opener in order else 0
    for i in range(len(order)):
        s = order[(start + i) % len(order)]
        if s in alive:
            return s
    return None


def _day(
    g: _Game, p: _Phase, all_events: Sequence[Event], tracks_src: Sequence[Event], vision_present: bool
) -> DayResult:
    f, rules = g.f, g.rules
    alive_start = frozenset(g.alive)
    opener = _opener(g, set(g.alive))
    g.prev_opener = opener
    silenced = {s for s in g.silence_next if s in g.alive}
    g.silence_next -= silenced
    if rules.silenced_with_three_gets_30s and len(g.alive) == 3:
        silenced = set()
    g.day_silenced = silenced
    g.day_removals = {}
    g.spoken = set()
    g.discussion_over = False
    order = sorted(g.seats)
    rot = order[order.index(opener) :] + order[: order.index(opener)] if opener is not None else []

    calls = [e for e in p.events if isinstance(e, VoteCall)]
    stops = [e for e in p.events if isinstance(e, VoteStop)]
    counts = [e for e in p.events if isinstance(e, VoteCount)]
    stop_ids = {s.id for s in stops if s.id is not None}
    onsets = [e for e in all_events if isinstance(e, SpeechOnset) and e.ref in stop_ids]
    windows = build_windows(calls, stops, onsets, counts, p.end_t, rules)
    first_call_t = windows[0].call.t if windows else None
    vote_end_t = max(max(w.keystroke_t for w in windows), windows[-1].call.t) if windows else None

    noms: list[tuple[int, int, int, int]] = []  # (by, target, t, speech_t)
    withdrawn: list[tuple[int, int]] = []
    speech_t: dict[int, int] = {}
    first_speech_checked = False
    resolved: tuple[tuple[Any, ...], tuple[int, ...], bool, str | None] | None = None

    def resolve() -> tuple[tuple[Any, ...], tuple[int, ...], bool, str | None]:
        return _resolve_vote(g, p, windows, noms, alive_start, tracks_src, vision_present)

    for e in p.events:
        if g.winner is not None:
            break
        if resolved is None and vote_end_t is not None and e.t > vote_end_t:
            resolved = resolve()
            if g.winner is not None:
                break
        if first_call_t is not None and e.t >= first_call_t:
            g.discussion_over = True
        if isinstance(e, Speech):
            if g.discussion_over or e.seat not in g.alive:
                continue  # tie speeches, last words
            if not first_speech_checked:
                first_speech_checked = True
                if opener is not None and e.seat != opener:
                    f.violation(
                        e.t,
                        e.seat,
                        "000 3.2",
                        f"day {p.n} opened by seat {e.seat}, seat {opener} opens it",
                        e.id,
                    )
            if e.seat in silenced:
                f.violation(e.t, e.seat, "000 7.4", "spoke although silenced by a third foul", e.id)
            g.spoken.add(e.seat)
            speech_t[e.seat] = e.t
        elif isinstance(e, Nominate):
            _nominate(g, p, e, noms, speech_t)
        elif isinstance(e, Withdraw):
            _withdraw(g, e, noms, withdrawn, speech_t)
        elif isinstance(e, DonCheck | SheriffCheck | Shot | ShotCall):
            f.review(e.t, getattr(e, "seat", None), f"{e.TYPE} entered during day {p.n}", e.id)
        else:
            _generic(g, e, p)
    if resolved is None and g.winner is None:
        resolved = resolve()
    rounds, elim, held, reason = resolved if resolved is not None else ((), (), False, "game over")
    g.discussion_over = True
    g.day_silenced = None
    return DayResult(
        day=p.n,
        t=p.t,
        nominations=tuple((b, t) for b, t, _, _ in noms),
        withdrawn=tuple(withdrawn),
        votes=rounds,
        eliminated=elim,
        speaking_order=tuple(s for s in rot if s in alive_start and s not in silenced),
        silenced=tuple(sorted(silenced)),
        vote_held=held,
        no_vote_reason=reason,
    )


def _current_speech(speech_t: Mapping[int, int], t: int) -> tuple[int, int] | None:
    """(seat, t) of the latest speech mark at or before t."""
    best: tuple[int, int] | None = None
    for seat, st in speech_t.items():
        if st <= t and (best is None or st > best[1]):
            best = (seat, st)
    return best


def _nominate(
    g: _Game, p: _Phase, e: Nominate, noms: list[tuple[int, int, int, int]], speech_t: Mapping[int, int]
) -> None:
    f, rules = g.f, g.rules
    if p.n == 1 and rules.day1 == "no_vote":
        f.violation(
            e.t, e.by, "002 host sheet", "nomination on day 1 (no nominations on the first day)", e.id
        )
        return
    if g.discussion_over:
        f.violation(e.t, e.by, "000 4.2", "nomination after the discussion ended", e.id)
        return
    if e.by not in g.alive:
        f.review(e.t, e.by, f"nomination by seat {e.by}, who has left", e.id)
        return
    if e.target not in g.alive:
        f.violation(e.t, e.by, "000 4.2", f"nominated seat {e.target}, who has left", e.id)
        return
    cur = _current_speech(speech_t, e.t)
    sp = cur[1] if cur is not None else -1
    mine = [i for i, n in enumerate(noms) if n[0] == e.by]
    if mine:
        i = mine[0]
        if rules.nomination_counted == "last" and noms[i][3] == sp:
            if e.target in {n[1] for n in noms}:
                return
            del noms[i]
        else:
            f.violation(
                e.t,
                e.by,
                "000 4.4",
                f"second nomination (seat {e.target}) on one day; the first stands",
                e.id,
            )
            return
    if e.target in {n[1] for n in noms}:
        return  # already a candidate: the host does not accept it twice
    noms.append((e.by, e.target, e.t, sp))


def _withdraw(
    g: _Game,
    e: Withdraw,
    noms: list[tuple[int, int, int, int]],
    withdrawn: list[tuple[int, int]],
    speech_t: Mapping[int, int],
) -> None:
    f = g.f
    if not g.rules.withdrawal_allowed:
        f.violation(
            e.t, e.by, "000 4.3", f"withdrawal of seat {e.target} (not allowed: the nomination stands)", e.id
        )
        return
    idx = next((i for i, n in enumerate(noms) if n[0] == e.by and n[1] == e.target), None)
    if idx is None:
        f.violation(e.t, e.by, "001 day 4", f"withdraws seat {e.target}, whom he did not nominate", e.id)
        return
    cur = _current_speech(speech_t, e.t)
    if cur is None or cur[1] != noms[idx][3] or g.discussion_over:
        f.violation(e.t, e.by, "001 day 4", "withdrawal outside the speech that made the nomination", e.id)
        return
    del noms[idx]
    withdrawn.append((e.by, e.target))


def _resolve_vote(
    g: _Game,
    p: _Phase,
    windows: Sequence[Any],
    noms: Sequence[tuple[int, int, int, int]],
    alive_start: frozenset[int],
    tracks_src: Sequence[Event],
    vision_present: bool,
) -> tuple[tuple[Any, ...], tuple[int, ...], bool, str | None]:
    f, rules = g.f, g.rules
    g.discussion_over = True
    candidates = [t for _, t, _, _ in noms]
    reason: str | None = None
    after_t = None
    cancel = sorted((t, s) for s, t in g.day_removals.items() if s not in candidates)
    if p.n == 1 and rules.day1 == "no_vote":
        reason = "002 host sheet"
    elif not candidates:
        reason = "no candidates"
    elif len(candidates) == 1 and rules.single_candidate_never_voted:
        reason = "003 federation section"
    elif len(candidates) == 1 and p.n == 1 and rules.day1 == "single_not_voted":
        reason = "000 4.11"
    elif cancel and rules.removed_noncandidate_cancels_vote:
        reason = "000 11.3"
        after_t = cancel[0][0]
    if reason is not None:
        for w in windows:
            if after_t is None or w.call.t >= after_t:
                rule = "000 4.1" if reason == "no candidates" else reason
                f.violation(
                    w.call.t,
                    None,
                    rule,
                    f"vote on {w.candidate} held although no vote is due ({reason})",
                    w.call.id,
                )
        return (), (), False, reason
    day_events = [e for e in tracks_src if p.t <= e.t < p.end_t]
    fouls = [e for e in p.events if isinstance(e, Foul)]
    removals = dict(g.day_removals)
    ctx = VoteContext(
        rules=rules,
        windows=windows,
        marks=[e for e in p.events if isinstance(e, Vote)],
        tracks=hand_tracks(day_events),
        vision_present=vision_present,
        can_vote=lambda t: frozenset(s for s in alive_start if not (s in removals and removals[s] <= t)),
        fouled_since=lambda seat, t: any(x.seat == seat and x.t >= t for x in fouls),
        findings=f,
        end_t=p.end_t,
    )
    outcome = run_vote(ctx, candidates)
    elim: list[int] = []
    for s in outcome.eliminated:
        if s in g.alive:
            g.alive.discard(s)
            g.eliminated.append(s)
            elim.append(s)
    g.check_win(outcome.last_t)
    return outcome.rounds, tuple(elim), bool(outcome.rounds), None


def referee(
    events: Iterable[Event], *, rules: RuleSet = FEDERATION, seats: Iterable[int] = range(1, 11)
) -> GameState:
    """The game state the events lead to under ``rules``, for a table of ``seats``."""
    seat_t = tuple(sorted(set(seats)))
    f = Findings()
    evs, confirmed = _prepare(events, frozenset(seat_t), f)
    if not rules.players_min <= len(seat_t) <= rules.players_max:
        f.violation(
            0, None, "000 1.1" if rules.players_max == 10 else "004", f"{len(seat_t)} players at the table"
        )
    fouls_by_seat: dict[int, list[Foul]] = {}
    for e in evs:
        if isinstance(e, Foul):
            fouls_by_seat.setdefault(e.seat, []).append(e)
    g = _Game(rules=rules, seats=seat_t, f=f, fouls_by_seat=fouls_by_seat, alive=set(seat_t))
    _roles(evs, g)
    vision_present = any(e.src == "vision" for e in evs)
    hands = [e for e in evs if isinstance(e, HandDown | HandUp)]
    days: list[DayResult] = []
    nights: list[NightResult] = []
    late_mark_reported = False
    for p in _phases(evs, f):
        if g.winner is not None:
            if p.kind != "pre" and not late_mark_reported:
                late_mark_reported = True
                f.review(p.t, None, f"{p.kind} {p.n} marked after the game was decided ({g.win_reason})")
            continue
        if p.kind == "day":
            days.append(_day(g, p, evs, hands, vision_present))
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
