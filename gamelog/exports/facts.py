"""The facts every export prints, gathered once from a game's header, its events and the referee's state.

The referee's JSON state (``mafiacam referee BUNDLE --json``, see CONTRACT.md) decides votes, kills,
fouls, removals and the winner; the events add what the state does not carry: the roles dealt, the
Don's and Sheriff's checks, the first-night best move and the phase in which a removal happened.
Events voided by a judge (``void`` with ``ref``) are left out. Missing state keys read as empty, so a
partial state (for instance a contract example's ``expected.json``) still exports.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from gamelog.events import (
    BestMove,
    Day,
    Disqualify,
    DonCheck,
    Event,
    Foul,
    Night,
    Roles,
    SheriffCheck,
    TeamLoss,
    Void,
    sort_key,
)
from gamelog.exports.scoring import DEFAULT_SCORING, Scoring

BLACK_ROLES = ("don", "mafia")
RED_ROLES = ("red", "sheriff")


class PlayerLike(Protocol):
    @property
    def seat(self) -> int: ...

    @property
    def name(self) -> str: ...


class GameLike(Protocol):
    """What the exports read from a bundle's ``game.json`` (``gamelog.bundle.GameInfo`` fits)."""

    @property
    def players(self) -> Sequence[PlayerLike]: ...


@dataclass(frozen=True)
class Departure:
    """How and when a seat left. ``how``: vote, vote_all, killed, fouls, disqualified, team_loss, removed."""

    how: str
    phase: str | None  # "day" or "night"; None when the log does not tell
    n: int | None
    why: str = ""


@dataclass(frozen=True)
class SeatFacts:
    seat: int
    name: str
    role: str | None  # red, sheriff, mafia, don, or a 004 role name; None when no roles were recorded
    team: str | None  # red, black, or None (unknown role or a loner)
    fouls: int
    departure: Departure | None
    points: int | None


@dataclass(frozen=True)
class VoteFacts:
    round: str  # main, revote, all
    candidate: int | str  # a seat, or "all"
    voters: tuple[int, ...]
    defaulted: tuple[int, ...] = ()
    late: tuple[int, ...] = ()
    nominated_by: int | None = None
    tied: tuple[int, ...] = ()  # the all-leave question: the tied players it is about


@dataclass(frozen=True)
class DayFacts:
    day: int
    nominations: tuple[tuple[int, int], ...]  # (by, target) in nomination order
    steps: tuple[tuple[VoteFacts, ...], ...]  # main round, each re-vote, the all-leave question
    eliminated: tuple[int, ...]
    no_vote_reason: str = ""  # the clause that cancelled or skipped the vote, when the referee names one


@dataclass(frozen=True)
class CheckFacts:
    target: int
    hit: bool | None  # Don: target is the Sheriff; Sheriff: target is black. None: roles unknown


@dataclass(frozen=True)
class NightFacts:
    night: int
    shots: tuple[tuple[int, int | tuple[int, ...]], ...]  # (shooter, target or several targets)
    killed: int | None
    miss: bool | None  # None when the night was not a shooting night in the state
    don_check: CheckFacts | None
    sheriff_check: CheckFacts | None


@dataclass(frozen=True)
class BestMoveFacts:
    seat: int
    suspects: tuple[int, ...]
    black_named: int | None  # how many of the suspects are black; None when roles are unknown


@dataclass(frozen=True)
class GameFacts:
    header: Mapping[str, str] = field(repr=False)
    started_at: str
    rules: str
    seats: tuple[SeatFacts, ...]
    days: tuple[DayFacts, ...]
    nights: tuple[NightFacts, ...]
    best_move: BestMoveFacts | None
    winner: str | None
    win_reason: str
    roles_known: bool
    scoring: Scoring
    last_t: int  # the latest event time in ms (0 without events)

    def seat(self, n: int) -> SeatFacts | None:
        for s in self.seats:
            if s.seat == n:
                return s
        return None


# ---- reading the inputs -----------------------------------------------------------------------------


def _text(v: object) -> str:
    if v is None:
        return ""
    if isinstance(v, list | tuple):
        return ", ".join(_text(x) for x in v if x is not None and x != "")
    return str(v)


def _int(v: object) -> int | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, float) and math.isfinite(v) and v.is_integer():
        return int(v)
    if isinstance(v, str) and v.strip().lstrip("-").isdigit():
        return int(v)
    return None


def _seats(v: object) -> tuple[int, ...]:
    if not isinstance(v, list | tuple):
        return ()
    return tuple(s for s in (_int(x) for x in v) if s is not None)


def live_events(events: Iterable[Event]) -> list[Event]:
    """Events in time order without those a judge voided (a void that is itself voided does not count)."""
    evs = sorted(events, key=sort_key)
    voids = [e for e in evs if isinstance(e, Void)]
    void_ids = {e.id for e in voids if e.id is not None}
    cancelled = {e.ref for e in voids if e.ref in void_ids}
    voided = {e.ref for e in voids if e.id is None or e.id not in cancelled}
    return [e for e in evs if e.id is None or e.id not in voided]


def phase_at(events: Sequence[Event], t: int) -> tuple[str | None, int | None]:
    """The phase ("day"/"night", n) that the latest ``day``/``night`` mark at or before ``t`` opened."""
    phase: tuple[str | None, int | None] = (None, None)
    for e in events:
        if e.t > t:
            break
        if isinstance(e, Night):
            phase = ("night", e.n)
        elif isinstance(e, Day):
            phase = ("day", e.n)
    return phase


def roles_from_events(events: Sequence[Event]) -> dict[int, str] | None:
    """Seat → role from the latest ``roles`` event; seats not named are red. None without one."""
    roles_ev = [e for e in events if isinstance(e, Roles)]
    if not roles_ev:
        return None
    r = roles_ev[-1]
    out: dict[int, str] = {int(s): str(role) for s, role in r.others.items()}
    for s in r.mafia:
        out[s] = "mafia"
    out[r.don] = "don"
    out[r.sheriff] = "sheriff"
    return out


def _state_roles(state: Mapping[str, Any]) -> dict[int, str] | None:
    """The referee's ``roles`` ({seat: role}); None when it has none (no roles entered, or an older state)."""
    raw = state.get("roles")
    if not isinstance(raw, Mapping) or not raw:
        return None
    out = {seat: str(role) for seat, role in ((_int(k), v) for k, v in raw.items()) if seat is not None}
    return out or None


def _state_check(raw: object, kind: str) -> CheckFacts | None:
    """A night's ``don_check`` / ``sheriff_check`` from the referee: {target, answer, …}."""
    if not isinstance(raw, Mapping):
        return None
    target = _int(raw.get("target"))
    if target is None:
        return None
    answer = raw.get("answer")
    hit_word = "sheriff" if kind == "don_check" else "black"
    return CheckFacts(target, None if not isinstance(answer, str) or not answer else answer == hit_word)


def team_of(role: str | None) -> str | None:
    if role in BLACK_ROLES:
        return "black"
    if role in RED_ROLES:
        return "red"
    return None


def _group_steps(votes: Sequence[VoteFacts]) -> tuple[tuple[VoteFacts, ...], ...]:
    """Split a day's votes into the main round, each re-vote (a repeated candidate opens a new one) and
    the all-leave question."""
    steps: list[list[VoteFacts]] = []
    for v in votes:
        cur = steps[-1] if steps else None
        same_kind = cur is not None and cur[-1].round == v.round and v.round != "all"
        if cur is not None and same_kind and all(x.candidate != v.candidate for x in cur):
            cur.append(v)
        else:
            steps.append([v])
    return tuple(tuple(s) for s in steps)


def gather(
    game: GameLike,
    events: Sequence[Event],
    state: Mapping[str, Any],
    *,
    scoring: Scoring = DEFAULT_SCORING,
) -> GameFacts:
    """Collect the facts of one game. Never raises on a partial state; exporters decide what they need."""
    evs = live_events(events)
    roles = _state_roles(state) or roles_from_events(evs)
    players = {int(p.seat): str(p.name) for p in game.players}
    winner_raw = state.get("winner")
    winner = winner_raw if winner_raw in ("red", "black") else None

    days: list[DayFacts] = []
    departures: dict[int, Departure] = {}
    for d in state.get("days") or []:
        n = _int(d.get("day"))
        if n is None:
            continue
        noms = tuple(
            (b, t)
            for b, t in ((_int(x.get("by")), _int(x.get("target"))) for x in d.get("nominations") or [])
            if b is not None and t is not None
        )
        nominator = {t: b for b, t in reversed(noms)}
        vote_rows: list[VoteFacts] = []
        for v in d.get("votes") or []:
            cand_raw = v.get("candidate")
            cand: int | str = "all" if cand_raw == "all" else (_int(cand_raw) or 0)
            vote_rows.append(
                VoteFacts(
                    round=str(v.get("round") or "main"),
                    candidate=cand,
                    voters=tuple(sorted(_seats(v.get("voters")))),
                    defaulted=tuple(sorted(_seats(v.get("defaulted")))),
                    late=tuple(sorted(_seats(v.get("late")))),
                    nominated_by=nominator.get(cand) if isinstance(cand, int) else None,
                    tied=_seats(v.get("tied")),
                )
            )
        steps = _group_steps(vote_rows)
        eliminated = _seats(d.get("eliminated"))
        all_leave = any(s[0].round == "all" for s in steps) and len(eliminated) > 1
        for seat in eliminated:
            departures.setdefault(seat, Departure("vote_all" if all_leave else "vote", "day", n))
        days.append(
            DayFacts(
                day=n,
                nominations=noms,
                steps=steps,
                eliminated=eliminated,
                no_vote_reason=_text(d.get("no_vote_reason")),
            )
        )

    state_nights: dict[int, Mapping[str, Any]] = {}
    for nt in state.get("nights") or []:
        n = _int(nt.get("night"))
        if n is not None:
            state_nights[n] = nt
            killed = _int(nt.get("killed"))
            if killed is not None:
                departures.setdefault(killed, Departure("killed", "night", n))

    checks: dict[tuple[str, int], CheckFacts] = {}
    best: BestMoveFacts | None = None
    for e in evs:
        if isinstance(e, DonCheck | SheriffCheck):
            ph, n = phase_at(evs, e.t)
            if ph != "night" or n is None:
                continue
            if roles is None:
                hit = None
            elif isinstance(e, DonCheck):
                hit = roles.get(e.target) == "sheriff"
            else:
                hit = team_of(roles.get(e.target, "red")) == "black"
            checks[(e.TYPE, n)] = CheckFacts(e.target, hit)
        elif isinstance(e, BestMove):
            black = None if roles is None else sum(1 for s in e.suspects if team_of(roles.get(s)) == "black")
            best = BestMoveFacts(e.seat, tuple(e.suspects), black)

    bm_raw = state.get("best_move")
    if isinstance(bm_raw, Mapping) and _int(bm_raw.get("seat")) is not None:
        black_raw = bm_raw.get("black")
        best = BestMoveFacts(
            seat=_int(bm_raw.get("seat")) or 0,
            suspects=_seats(bm_raw.get("suspects")),
            black_named=_int(black_raw) if black_raw is not None else None,
        )
    for n, nt in state_nights.items():
        for kind in ("don_check", "sheriff_check"):
            check = _state_check(nt.get(kind), kind)
            if check is not None:
                checks[(kind, n)] = check

    night_numbers = sorted(set(state_nights) | {n for _, n in checks})
    nights: list[NightFacts] = []
    for n in night_numbers:
        nt = state_nights.get(n, {})
        shots_raw = nt.get("shots") or {}
        shots: list[tuple[int, int | tuple[int, ...]]] = []
        for k, v in shots_raw.items():
            shooter = _int(k)
            if shooter is None:
                continue
            target: int | tuple[int, ...] | None = _seats(v) if isinstance(v, list) else _int(v)
            if target is not None:
                shots.append((shooter, target))
        miss_raw = nt.get("miss")
        nights.append(
            NightFacts(
                night=n,
                shots=tuple(sorted(shots)),
                killed=_int(nt.get("killed")),
                miss=bool(miss_raw) if isinstance(miss_raw, bool) else None,
                don_check=checks.get(("don_check", n)),
                sheriff_check=checks.get(("sheriff_check", n)),
            )
        )

    fouls: dict[int, int] = {}
    for k, v in (state.get("fouls") or {}).items():
        fseat, count = _int(k), _int(v)
        if fseat is not None and count:
            fouls[fseat] = count
    disqualified: set[int] = set()
    for r in state.get("removed") or []:
        rseat = _int(r.get("seat"))
        if rseat is None:
            continue
        how, phase, when = _removal(evs, rseat, fouls.get(rseat, 0))
        how = _REMOVAL_RULES.get(_text(r.get("rule")), how)
        removal_t = _int(r.get("t"))
        if removal_t is not None:
            phase, when = phase_at(evs, removal_t)
        if how == "disqualified":
            disqualified.add(rseat)
        departures.setdefault(rseat, Departure(how, phase, when, _text(r.get("why"))))

    seat_numbers = sorted(set(players) | set(roles or {}))
    seats = tuple(
        SeatFacts(
            seat=s,
            name=players.get(s, ""),
            role=None if roles is None else roles.get(s, "red"),
            team=None if roles is None else team_of(roles.get(s, "red")),
            fouls=fouls.get(s, 0),
            departure=departures.get(s),
            points=scoring.points(
                None if roles is None else team_of(roles.get(s, "red")), winner, s in disqualified
            ),
        )
        for s in seat_numbers
    )
    header = {
        key: _text(getattr(game, key, None))
        for key in ("tournament", "stage", "table", "game_number", "host", "judges")
    }
    return GameFacts(
        header=header,
        started_at=_text(getattr(game, "started_at", "")),
        rules=_text(getattr(game, "rules", "")) or _text(state.get("rules")),
        seats=seats,
        days=tuple(days),
        nights=tuple(nights),
        best_move=best,
        winner=winner,
        win_reason=_text(state.get("win_reason")),
        roles_known=roles is not None,
        scoring=scoring,
        last_t=max((e.t for e in events), default=0),
    )


# The referee's clause for a removal, when it gives one, names the kind of removal.
_REMOVAL_RULES = {"000 7.5": "fouls", "004": "fouls", "000 9.1": "disqualified", "000 10.3": "team_loss"}


def _removal(evs: Sequence[Event], seat: int, fouls: int) -> tuple[str, str | None, int | None]:
    """Why and in which phase a seat was removed, from its latest team-loss, disqualification or foul."""
    kinds = (
        ("team_loss", [e for e in evs if isinstance(e, TeamLoss) and e.seat == seat]),
        ("disqualified", [e for e in evs if isinstance(e, Disqualify) and e.seat == seat]),
    )
    for how, found in kinds:
        if found:
            ph, n = phase_at(evs, found[-1].t)
            return how, ph, n
    foul_evs = [e for e in evs if isinstance(e, Foul) and e.seat == seat]
    if foul_evs:
        ph, n = phase_at(evs, foul_evs[-1].t)
        return ("fouls" if fouls >= 4 else "removed"), ph, n
    return "removed", None, None
