"""The referee's output: a frozen :class:`GameState` and its JSON form (CONTRACT.md, "referee --json").

Contract keys (never renamed or dropped): ``rules, winner, win_reason, alive, days[day, nominations,
votes[round, candidate, voters, late, defaulted], eliminated], nights[night, shots, killed, miss],
fouls, removed[seat, why], violations[t, seat, rule, what], needs_review[t, seat, what, ref],
disagreements[t, what]``.

Extra keys this project adds:

- top level: ``rule_options`` (every option of the rule set in force), ``roles`` ({seat: "don" |
  "mafia" | "sheriff" | "red" | other role}, empty when no roles were entered), ``eliminated`` and
  ``killed`` (all seats voted out / killed at night, in order), ``best_move`` ({seat, suspects,
  black} or null), ``timing_changes`` (votes whose standing changes between the keystroke and the
  spoken "Спасибо": {t, seat, candidate, by_keystroke, by_onset}), ``ended_t`` (t of the event that
  decided the game, or null);
- per day: ``speaking_order`` (seats in the order they speak, without silenced ones), ``silenced``
  (seats losing this speech for 3 fouls, 000 7.4), ``withdrawn`` ([{by, target}]), ``vote_held``
  (false when no vote took place), ``no_vote_reason`` (the clause, or null), ``revealed`` ({seat: role}
  of the seats that left, when the rule set reveals roles: 004; else empty);
- per vote round: ``t`` (the vote_call), ``count``, ``source`` ("judge" | "host" | "vision" | "announced" |
  "none"),
  ``announced`` (the host's vote_count, or null); in the ``all`` round also ``tied`` and ``passed``;
- per night: ``don_check`` / ``sheriff_check`` ({t, target, answer, signal} or null: the Don's answer
  is "sheriff" / "not sheriff", the Sheriff's "red" / "black", ``signal`` is the host's gesture under
  the rule set), ``between_numbers`` (seats that shot between two called numbers), ``source``,
  ``revealed`` (as per day);
- per removal: ``t`` and ``rule``; per violation and review item: ``ref`` (the event id, may be null);
  per disagreement: ``seats`` (the seats the two readings differ on).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]


@dataclass(frozen=True)
class Violation:
    t: int
    seat: int | None
    rule: str
    what: str
    ref: str | None = None

    def to_json(self) -> JSON:
        return {"t": self.t, "seat": self.seat, "rule": self.rule, "what": self.what, "ref": self.ref}


@dataclass(frozen=True)
class ReviewItem:
    t: int
    seat: int | None
    what: str
    ref: str | None = None

    def to_json(self) -> JSON:
        return {"t": self.t, "seat": self.seat, "what": self.what, "ref": self.ref}


@dataclass(frozen=True)
class Disagreement:
    t: int
    what: str
    seats: tuple[int, ...] = ()

    def to_json(self) -> JSON:
        return {"t": self.t, "what": self.what, "seats": list(self.seats)}


@dataclass(frozen=True)
class TimingChange:
    t: int
    seat: int
    candidate: int | str
    by_keystroke: str  # "vote" | "late"
    by_onset: str

    def to_json(self) -> JSON:
        return {
            "t": self.t,
            "seat": self.seat,
            "candidate": self.candidate,
            "by_keystroke": self.by_keystroke,
            "by_onset": self.by_onset,
        }


@dataclass(frozen=True)
class Removal:
    seat: int
    why: str
    t: int
    rule: str

    def to_json(self) -> JSON:
        return {"seat": self.seat, "why": self.why, "t": self.t, "rule": self.rule}


@dataclass(frozen=True)
class VoteRound:
    round: str  # "main" | "revote" | "all"
    candidate: int | str  # a seat, or "all"
    voters: tuple[int, ...]
    late: tuple[int, ...] = ()
    defaulted: tuple[int, ...] = ()
    t: int = 0
    source: str = "none"
    announced: int | None = None
    tied: tuple[int, ...] = ()
    passed: bool | None = None
    tally: int | None = None  # the count when no seat's vote is known (source "announced"): the host's

    @property
    def count(self) -> int:
        return len(self.voters) if self.tally is None else self.tally

    def to_json(self) -> JSON:
        out: JSON = {
            "round": self.round,
            "candidate": self.candidate,
            "voters": sorted(self.voters),
            "late": sorted(self.late),
            "defaulted": sorted(self.defaulted),
            "count": self.count,
            "t": self.t,
            "source": self.source,
            "announced": self.announced,
        }
        if self.round == "all":
            out["tied"] = list(self.tied)
            out["passed"] = bool(self.passed)
        return out


@dataclass(frozen=True)
class DayResult:
    day: int
    t: int
    nominations: tuple[tuple[int, int], ...] = ()  # (by, target) in nomination order
    withdrawn: tuple[tuple[int, int], ...] = ()
    votes: tuple[VoteRound, ...] = ()
    eliminated: tuple[int, ...] = ()
    speaking_order: tuple[int, ...] = ()
    silenced: tuple[int, ...] = ()
    vote_held: bool = False
    no_vote_reason: str | None = None
    revealed: tuple[tuple[int, str], ...] = ()  # roles shown on leaving (004)

    def to_json(self) -> JSON:
        return {
            "day": self.day,
            "nominations": [{"by": b, "target": t} for b, t in self.nominations],
            "votes": [v.to_json() for v in self.votes],
            "eliminated": list(self.eliminated),
            "speaking_order": list(self.speaking_order),
            "silenced": list(self.silenced),
            "withdrawn": [{"by": b, "target": t} for b, t in self.withdrawn],
            "vote_held": self.vote_held,
            "no_vote_reason": self.no_vote_reason,
            "revealed": {str(k): v for k, v in self.revealed},
        }


@dataclass(frozen=True)
class Check:
    t: int
    target: int
    answer: str
    signal: str

    def to_json(self) -> JSON:
        return {"t": self.t, "target": self.target, "answer": self.answer, "signal": self.signal}


@dataclass(frozen=True)
class NightResult:
    night: int
    t: int
    shots: tuple[tuple[int, tuple[int, ...]], ...] = ()  # (seat, targets) for the seats that shot
    killed: int | None = None
    miss: bool = True
    don_check: Check | None = None
    sheriff_check: Check | None = None
    between_numbers: tuple[int, ...] = ()
    source: str = "none"
    revealed: tuple[tuple[int, str], ...] = ()  # roles shown on leaving (004)

    def to_json(self) -> JSON:
        shots: JSON = {}
        for seat, targets in sorted(self.shots):
            shots[str(seat)] = targets[0] if len(targets) == 1 else list(targets)
        return {
            "night": self.night,
            "shots": shots,
            "killed": self.killed,
            "miss": self.miss,
            "don_check": None if self.don_check is None else self.don_check.to_json(),
            "sheriff_check": None if self.sheriff_check is None else self.sheriff_check.to_json(),
            "between_numbers": sorted(self.between_numbers),
            "source": self.source,
            "revealed": {str(k): v for k, v in self.revealed},
        }


@dataclass(frozen=True)
class BestMoveResult:
    t: int
    seat: int
    suspects: tuple[int, ...]
    black: int | None  # how many of the suspects are black (None: roles unknown)

    def to_json(self) -> JSON:
        return {"t": self.t, "seat": self.seat, "suspects": list(self.suspects), "black": self.black}


@dataclass(frozen=True)
class GameState:
    rules: str
    rule_options: tuple[tuple[str, Any], ...]
    seats: tuple[int, ...]
    winner: str | None
    win_reason: str | None
    alive: tuple[int, ...]
    days: tuple[DayResult, ...]
    nights: tuple[NightResult, ...]
    fouls: tuple[tuple[int, int], ...]
    removed: tuple[Removal, ...]
    violations: tuple[Violation, ...]
    needs_review: tuple[ReviewItem, ...]
    disagreements: tuple[Disagreement, ...]
    roles: tuple[tuple[int, str], ...] = ()
    timing_changes: tuple[TimingChange, ...] = ()
    best_move: BestMoveResult | None = None
    ended_t: int | None = None
    eliminated: tuple[int, ...] = field(default=())
    killed: tuple[int, ...] = field(default=())

    def day(self, n: int) -> DayResult | None:
        """Day ``n`` (the last one with that number), or None."""
        return next((d for d in reversed(self.days) if d.day == n), None)

    def night(self, n: int) -> NightResult | None:
        """Shooting night ``n``, or None."""
        return next((x for x in reversed(self.nights) if x.night == n), None)

    def to_json(self) -> JSON:
        """Exactly the contract's shape (plus the extra keys listed in the module docstring)."""
        return {
            "rules": self.rules,
            "winner": self.winner,
            "win_reason": self.win_reason,
            "alive": sorted(self.alive),
            "days": [d.to_json() for d in self.days],
            "nights": [n.to_json() for n in self.nights],
            "fouls": {str(s): n for s, n in sorted(self.fouls)},
            "removed": [r.to_json() for r in self.removed],
            "violations": [v.to_json() for v in self.violations],
            "needs_review": [r.to_json() for r in self.needs_review],
            "disagreements": [d.to_json() for d in self.disagreements],
            "rule_options": dict(self.rule_options),
            "roles": {str(s): r for s, r in sorted(self.roles)},
            "eliminated": list(self.eliminated),
            "killed": list(self.killed),
            "best_move": None if self.best_move is None else self.best_move.to_json(),
            "timing_changes": [c.to_json() for c in self.timing_changes],
            "ended_t": self.ended_t,
        }
