"""From key presses to host marks: the console's pure logic (no Qt, no I/O).

:class:`Marker` turns the scheme's tokens (:mod:`review_ui.console.keymap`) into validated events with
ids ``h0001``, ``h0002``… and the ``t`` of the command's first key press. Everything it knows about the
game (phase, speaker, open vote window, who was called) is derived from the marks it made, minus the
ones undone, so an undo (a judge ``void`` naming the mark's id: the log stays append-only) restores the
earlier state exactly. Only typing state (a command waiting for its seat, the count being typed) is
kept beside the marks.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from gamelog.events import (
    Day,
    Event,
    EventError,
    Night,
    Nominate,
    Speech,
    SpeechEnd,
    Void,
    VoteCall,
    VoteCount,
    VoteStop,
    Withdraw,
    parse_event,
)
from gamelog.rules import RuleSet
from gamelog.state import GameState
from review_ui.console.keymap import BY_KEY, DIGIT_ACTIONS, SEAT, SEATS2, SEATS4, Binding, seat_of

UNDO_REASON = "undone at the console"
CONSOLE_JUDGE = "host console"
LIMIT_FIELD = "limit_s"  # extra field of a ``speech`` mark: the speech's time limit in seconds


@dataclass(frozen=True)
class Msg:
    """A message for the host: an i18n key and its format arguments."""

    key: str
    args: tuple[tuple[str, object], ...] = ()

    @property
    def kwargs(self) -> dict[str, object]:
        return dict(self.args)


@dataclass(frozen=True)
class Pending:
    """A command waiting for its seat(s); ``t_ms`` is the media time of its first key."""

    binding: Binding
    t_ms: int
    seats: tuple[int, ...] = ()
    need: int = 1


@dataclass(frozen=True)
class Outcome:
    """What one key press did: new marks (already validated, in order), a message, a UI toggle."""

    marks: tuple[Event, ...] = ()
    message: Msg | None = None
    toggle: str | None = None


@dataclass(frozen=True)
class SpeechInfo:
    seat: int
    start_t: int
    limit_s: int


@dataclass
class Marker:
    rules: RuleSet
    seats: tuple[int, ...] = tuple(range(1, 11))
    prefix: str = "h"
    events: list[Event] = field(default_factory=list)
    pending: Pending | None = None
    count_digits: str = ""
    count_t: int | None = None
    state: GameState | None = None
    _next: int = 1

    # ---- derived state ------------------------------------------------------------------------------

    def voided(self) -> set[str]:
        return {e.ref for e in self.events if isinstance(e, Void)}

    def effective(self) -> list[Event]:
        gone = self.voided()
        return [e for e in self.events if not isinstance(e, Void) and e.id not in gone]

    def phase(self) -> tuple[str, int]:
        """("pre", -1) before night 0, else ("night" | "day", n) of the last phase mark."""
        for e in reversed(self.effective()):
            if isinstance(e, Night):
                return "night", e.n
            if isinstance(e, Day):
                return "day", e.n
        return "pre", -1

    def _phase_events(self) -> list[Event]:
        evs = self.effective()
        for i in range(len(evs) - 1, -1, -1):
            if isinstance(evs[i], Night | Day):
                return evs[i + 1 :]
        return evs

    def speaker(self) -> SpeechInfo | None:
        """The speech running now (the last one of this phase that has not ended)."""
        for e in reversed(self._phase_events()):
            if isinstance(e, SpeechEnd):
                return None
            if isinstance(e, Speech):
                limit = e.extra.get(LIMIT_FIELD)
                return SpeechInfo(e.seat, e.t, int(limit) if isinstance(limit, int) else self.rules.speech_s)
        return None

    def calls(self) -> list[VoteCall]:
        return [e for e in self._phase_events() if isinstance(e, VoteCall)]

    def last_call(self) -> VoteCall | None:
        """The latest vote call of this phase (a host's vote belongs to it, CONTRACT.md)."""
        calls = self.calls()
        return calls[-1] if calls else None

    def open_call(self) -> VoteCall | None:
        """The last vote call when its window has not been closed by "Спасибо" yet."""
        last = None
        for e in self._phase_events():
            if isinstance(e, VoteCall):
                last = e
            elif isinstance(e, VoteStop):
                last = None
        return last

    def awaiting_count(self) -> VoteCall | None:
        """The call whose window was closed and whose count has not been entered yet."""
        call: VoteCall | None = None
        stopped = False
        for e in self._phase_events():
            if isinstance(e, VoteCall):
                call, stopped = e, False
            elif isinstance(e, VoteStop) and call is not None:
                stopped = True
            elif isinstance(e, VoteCount) and call is not None and stopped:
                call = None
        return call if stopped else None

    def mode(self) -> str:
        """``pre``, ``day``, ``night`` or ``count`` (right after "Спасибо", until the count is entered)."""
        if self.awaiting_count() is not None:
            return "count"
        return self.phase()[0]

    def candidates(self) -> list[int]:
        """This day's candidates in nomination order: the referee's reading when it has one, else the
        nominations marked here minus withdrawals."""
        kind, n = self.phase()
        if kind != "day":
            return []
        if self.state is not None:
            day = self.state.day(n)
            if day is not None:
                return [target for _, target in day.nominations]
        out: list[int] = []
        for e in self._phase_events():
            if isinstance(e, Nominate) and e.target not in out:
                out.append(e.target)
            elif isinstance(e, Withdraw) and e.target in out:
                out.remove(e.target)
        return out

    def next_candidate(self) -> int | None:
        called = {c.candidate for c in self.calls() if c.round == "main"}
        return next((c for c in self.candidates() if c not in called), None)

    @staticmethod
    def is_secret(ev: Event, night_fouls: Iterable[str] = ()) -> bool:
        """Hidden when the screen is visible to players: roles, night checks, fouls given at night."""
        return ev.type in ("roles", "don_check", "sheriff_check") or (
            ev.id is not None and ev.id in night_fouls
        )

    def night_fouls(self) -> set[str]:
        """Ids of fouls marked during a night (hidden fouls, 003 SHOWTIME)."""
        out: set[str] = set()
        night = False
        for e in self.effective():
            if isinstance(e, Night):
                night = True
            elif isinstance(e, Day):
                night = False
            elif night and e.type in ("foul", "disqualify") and e.id is not None:
                out.add(e.id)
        return out

    # ---- marks ---------------------------------------------------------------------------------------

    def next_id(self) -> str:
        return f"{self.prefix}{self._next:04d}"

    def build(self, t_ms: int, obj: dict[str, Any]) -> Event:
        """A validated mark with the next id (the counter advances only for a valid one)."""
        line = {"t": int(t_ms), "src": "host", **obj, "id": self.next_id()}
        ev = parse_event(line)
        self._next += 1
        return ev

    def accept(self, marks: Sequence[Event]) -> None:
        self.events.extend(marks)

    def forget(self, ev_id: str) -> None:
        """A mark the session could not write: it never happened."""
        self.events = [e for e in self.events if e.id != ev_id]

    def roles(self, t_ms: int, don: int, mafia: Sequence[int], sheriff: int) -> Event:
        return self.build(t_ms, {"type": "roles", "don": don, "mafia": sorted(mafia), "sheriff": sheriff})

    # ---- key presses ---------------------------------------------------------------------------------

    def press(self, token: str, t_ms: int) -> Outcome:
        """One key press at media time ``t_ms``; the caller writes the outcome's marks and calls
        :meth:`accept` (or passes ``commit=True`` semantics by calling :meth:`press_commit`)."""
        try:
            return self._press(token, t_ms)
        except EventError as e:
            self.pending = None
            return Outcome(message=Msg("msg_refused", (("error", str(e)),)))

    def press_commit(self, token: str, t_ms: int) -> Outcome:
        out = self.press(token, t_ms)
        self.accept(out.marks)
        return out

    def _press(self, token: str, t: int) -> Outcome:
        if token == "Escape":
            self.pending = None
            self.count_digits, self.count_t = "", None
            return Outcome(message=Msg("msg_cancelled"))
        if token == "F9":
            return Outcome(toggle="secrecy")
        seat = seat_of(token)
        if self.pending is not None:
            if seat is not None:
                return self._pending_seat(seat)
            self.pending = None  # another command: the waiting one is dropped
        if self.mode() == "count":
            got = self._count_key(token, t, seat)
            if got is not None:
                return got
        if seat is not None:
            return self._digit(seat, t)
        binding = BY_KEY.get(token)
        if binding is None:
            return Outcome()
        if binding.kind == SEAT:
            self.pending = Pending(binding, t)
            return Outcome(message=Msg("msg_which_seat", (("what", binding.label),)))
        if binding.kind == SEATS4:
            self.pending = Pending(binding, t, (), 4)
            return Outcome(message=Msg("msg_which_seat", (("what", binding.label),)))
        if binding.kind == SEATS2:
            sp = self.speaker()
            self.pending = Pending(binding, t, (sp.seat,) if sp else (), 1 if sp else 2)
            key = "msg_which_seat" if sp else "msg_which_two_seats"
            return Outcome(message=Msg(key, (("what", binding.label),)))
        return self._now(binding.action, t)

    def _count_key(self, token: str, t: int, seat: int | None) -> Outcome | None:
        if token.isdigit() and len(token) == 1:
            if len(self.count_digits) >= 2:
                return Outcome(message=Msg("msg_count_too_long"))
            if not self.count_digits:
                self.count_t = t
            self.count_digits += token
            return Outcome(message=Msg("msg_count_typed", (("count", self.count_digits),)))
        if token == "Backspace" and self.count_digits:
            self.count_digits = self.count_digits[:-1]
            return Outcome(message=Msg("msg_count_typed", (("count", self.count_digits or "…"),)))
        if token == "Return":
            if not self.count_digits:
                return Outcome(message=Msg("msg_type_count"))
            call = self.awaiting_count()
            assert call is not None
            cand: int | str = "all" if call.candidate is None else call.candidate
            count = int(self.count_digits)
            t0 = self.count_t if self.count_t is not None else t
            self.count_digits, self.count_t = "", None
            ev = self.build(t0, {"type": "vote_count", "candidate": cand, "count": count})
            return Outcome((ev,))
        return None

    def _digit(self, seat: int, t: int) -> Outcome:
        kind = self.phase()[0]
        action = DIGIT_ACTIONS.get(kind)
        if action is None:
            return Outcome(message=Msg("msg_mark_night0_first"))
        return self._seat_action(action, (seat,), t)

    def _pending_seat(self, seat: int) -> Outcome:
        p = self.pending
        assert p is not None
        seats = (*p.seats, seat)
        if len(seats) - len(p.seats) < p.need:
            self.pending = Pending(p.binding, p.t_ms, seats, p.need - 1)
            return Outcome(message=Msg("msg_which_seat", (("what", p.binding.label),)))
        self.pending = None
        return self._seat_action(p.binding.action, seats, p.t_ms)

    def _seat_action(self, action: str, seats: tuple[int, ...], t: int) -> Outcome:
        s = seats[-1]
        if s not in self.seats:
            return Outcome(message=Msg("msg_no_such_seat", (("seat", s),)))
        if action == "speech":
            return Outcome((self.build(t, {"type": "speech", "seat": s}),))
        if action == "speech_short":
            limit = self.rules.tie_speech_s
            return Outcome((self.build(t, {"type": "speech", "seat": s, LIMIT_FIELD: limit}),))
        if action in ("nominate", "withdraw"):
            return Outcome((self.build(t, {"type": action, "by": seats[0], "target": s}),))
        if action in ("vote_call", "vote_revote"):
            if self.open_call() is not None:
                return Outcome(message=Msg("msg_window_open"))
            rnd = "main" if action == "vote_call" else "revote"
            return Outcome((self.build(t, {"type": "vote_call", "candidate": s, "round": rnd}),))
        if action == "vote":
            call = self.last_call()
            if call is None:
                return Outcome(message=Msg("msg_no_window"))
            cand: int | str = "all" if call.candidate is None else call.candidate
            return Outcome((self.build(t, {"type": "vote", "seat": s, "candidate": cand}),))
        if action == "best_move":
            victim, suspects = seats[0], list(seats[1:])
            return Outcome((self.build(t, {"type": "best_move", "seat": victim, "suspects": suspects}),))
        if action == "shot_call":
            return Outcome((self.build(t, {"type": "shot_call", "target": s}),))
        if action in ("don_check", "sheriff_check"):
            return Outcome((self.build(t, {"type": action, "target": s}),))
        if action in ("foul", "disqualify"):
            return Outcome((self.build(t, {"type": action, "seat": s}),))
        raise AssertionError(f"unknown seat action {action}")

    def _now(self, action: str, t: int) -> Outcome:
        if action == "undo":
            return self._undo(t)
        if action in ("day", "night"):
            ns = [e.n for e in self.effective() if isinstance(e, Day if action == "day" else Night)]
            n = max(ns) + 1 if ns else (1 if action == "day" else 0)
            return Outcome((self.build(t, {"type": action, "n": n}),))
        if action == "speech_end":
            sp = self.speaker()
            if sp is None:
                return Outcome(message=Msg("msg_no_speech"))
            return Outcome((self.build(t, {"type": "speech_end", "seat": sp.seat}),))
        if action in ("vote_next", "vote_all"):
            if self.open_call() is not None:
                return Outcome(message=Msg("msg_window_open"))
            if action == "vote_all":
                return Outcome((self.build(t, {"type": "vote_call", "round": "all"}),))
            cand = self.next_candidate()
            if cand is None:
                return Outcome(message=Msg("msg_no_candidate"))
            return Outcome((self.build(t, {"type": "vote_call", "candidate": cand, "round": "main"}),))
        if action == "vote_stop":
            if self.open_call() is None:
                return Outcome(message=Msg("msg_no_window"))
            return Outcome((self.build(t, {"type": "vote_stop"}),))
        return Outcome()

    def _undo(self, t: int) -> Outcome:
        self.pending = None
        self.count_digits, self.count_t = "", None
        eff = self.effective()
        if not eff:
            return Outcome(message=Msg("msg_nothing_to_undo"))
        target = eff[-1]
        assert target.id is not None
        ev = self.build(
            t,
            {"type": "void", "src": "judge", "ref": target.id, "reason": UNDO_REASON, "judge": CONSOLE_JUDGE},
        )
        return Outcome((ev,), Msg("msg_undone", (("what", target.type), ("id", target.id))))
