"""The table during one referee run: who is at it, fouls, removals, the win conditions.

:class:`Table` is the referee's mutable working state (the output is the frozen
:class:`~gamelog.state.GameState`); :meth:`Table.penalty` applies fouls, disqualifications and team
losses in time order (000 7.4, 7.5, 9.1, 10), :meth:`Table.check_win` the win conditions (001 basics 3).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gamelog.events import BestMove, Disqualify, Event, Foul, TeamLoss
from gamelog.findings import Findings
from gamelog.rules import RuleSet
from gamelog.state import BestMoveResult, Removal


def ordinal(n: int) -> str:
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"


@dataclass
class Phase:
    kind: str  # "pre" | "night" | "day"
    n: int
    t: int
    events: list[Event] = field(default_factory=list)
    end_t: int = 0
    last: bool = False  # the log ends in this phase and the game goes on (referee(..., live=True))


@dataclass
class Table:
    """The mutable state of one referee run."""

    rules: RuleSet
    seats: tuple[int, ...]
    f: Findings
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

    def reveal(self, seats: tuple[int, ...]) -> tuple[tuple[int, str], ...]:
        """The roles shown for seats leaving, when the rule set reveals cards (004)."""
        if not self.rules.roles_revealed or not self.roles:
            return ()
        return tuple((s, self.roles.get(s, "red")) for s in seats)

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
                self.remove(ev.t, ev.seat, f"{ordinal(n)} foul", "000 10.3")
                if team is not None:
                    other = "red" if team == "black" else "black"
                    self.winner = None
                    self.win(
                        ev.t,
                        other,
                        f"team loss: {ordinal(n)} foul of seat {ev.seat} with four at the table (000 10.3)",
                    )
                return
            clause = "000 7.5" if rules.fouls_to_remove == 4 else "004"
            self.remove(ev.t, ev.seat, f"{ordinal(n)} foul", clause)
        elif rules.fouls_to_silence is not None and n == rules.fouls_to_silence:
            if not self.discussion_over and ev.seat not in self.spoken and self.day_silenced is not None:
                self.day_silenced.add(ev.seat)
            else:
                self.silence_next.add(ev.seat)


def common_event(g: Table, e: Event) -> None:
    """Events any phase may hold."""
    if isinstance(e, Foul | Disqualify | TeamLoss):
        g.penalty(e)
    elif isinstance(e, BestMove):
        black = None if g.black is None else sum(1 for s in e.suspects if s in g.black)
        if g.best_move is None:
            g.best_move = BestMoveResult(e.t, e.seat, tuple(e.suspects), black)
            if e.seat != g.first_kill:
                g.f.violation(
                    e.t,
                    e.seat,
                    "001 voting 12",
                    "best move by a player who was not the first-night victim",
                    e.id,
                )
        else:
            g.f.review(e.t, e.seat, "a second best move entered", e.id)
