"""The console's model: key presses in, marks out, the live game state and vote check for the views.

A QObject with ``snake_case`` signals and no widgets. It owns the :class:`~review_ui.console.marking.Marker`
(what each key means), sends each mark to a *sink* (the
:class:`~review_ui.console.recorder_bridge.RecorderBridge`,
which writes it off the UI thread), re-runs the referee over the marks after every change, drives the
speech timer from media time, and pairs the host's count with the live vision count
(:mod:`review_ui.console.live_check`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from PySide6.QtCore import QObject, QTimer, Signal

from gamelog.events import Event, VoteCall, VoteCount, VoteStop
from gamelog.referee import referee
from gamelog.rules import RuleSet, rules_for
from gamelog.state import GameState
from review_ui.console.live_check import LiveResult, LiveVision
from review_ui.console.marking import Marker, Msg, SpeechInfo
from review_ui.signals import emit

WARN_AT_S = (10, 0)  # the timer warns with 10 s left and when time is up
TIMER_TICK_MS = 200


class MarkSink(Protocol):
    def media_ms(self) -> int: ...

    def mark(self, ev: Event) -> None: ...


@dataclass(frozen=True)
class TimerView:
    seat: int
    limit_s: int
    left_ms: int


@dataclass(frozen=True)
class LiveView:
    """The host's count beside vision's for the last window. ``differs`` only when both are known."""

    call_id: str | None
    candidate: int | str | None
    host_count: int | None = None
    vision: LiveResult | None = None
    waiting: bool = False

    @property
    def differs(self) -> bool:
        return (
            self.host_count is not None
            and self.vision is not None
            and self.vision.count is not None
            and self.vision.count != self.host_count
        )


class ConsoleModel(QObject):
    marks_changed = Signal()
    state_changed = Signal(object)  # GameState
    message_changed = Signal(object)  # Msg
    mode_changed = Signal(str)
    timer_changed = Signal(object)  # TimerView | None
    timer_warning = Signal(int)  # seconds left (10, then 0)
    live_changed = Signal(object)  # LiveView
    secrecy_changed = Signal(bool)
    rules_changed = Signal(str)
    players_changed = Signal()
    mark_failed = Signal(str, str)  # id, error
    _live_result = Signal(object)  # from the vision worker to the UI thread

    def __init__(
        self,
        sink: MarkSink,
        *,
        rules: str = "federation",
        seats: Sequence[int] = tuple(range(1, 11)),
        live: LiveVision | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.sink = sink
        self.seats = tuple(seats)
        self.rule_set: RuleSet = rules_for(rules)
        self.marker = Marker(self.rule_set, self.seats)
        self.live = live
        self.names: dict[int, str] = {s: "" for s in self.seats}
        self.secrecy = True
        self.recording = False
        self.stopped = False
        self.state: GameState = referee([], rules=self.rule_set, seats=self.seats)
        self.live_view: LiveView | None = None
        self.message: Msg | None = None
        self._warned: set[int] = set()
        self._timer_key: tuple[int, int] | None = None
        self._live_result.connect(self._on_live_result)
        if live is not None:
            live.on_result = lambda r: emit(self._live_result, r)
        self._tick = QTimer(self)
        self._tick.setInterval(TIMER_TICK_MS)
        self._tick.timeout.connect(self._on_tick)
        self._tick.start()

    # ---- input ---------------------------------------------------------------------------------------

    def key(self, token: str, t_ms: int | None = None) -> tuple[Event, ...]:
        """One key press; ``t_ms`` is the media time read at the press (read now when None)."""
        t = self.sink.media_ms() if t_ms is None else t_ms
        if not self.recording and token not in ("F9", "Escape"):
            self.say(Msg("msg_stopped" if self.stopped else "msg_not_recording"))
            return ()
        before = self.marker.mode()
        out = self.marker.press(token, t)
        if out.toggle == "secrecy":
            self.set_secrecy(not self.secrecy)
        self._commit(out.marks)
        if out.message is not None or out.marks:
            self.say(
                out.message or Msg("msg_marked", (("id", out.marks[-1].id), ("what", out.marks[-1].type)))
            )
        if self.marker.mode() != before:
            emit(self.mode_changed, self.marker.mode())
        return out.marks

    def record_roles(self, don: int, mafia: Sequence[int], sheriff: int) -> Event | None:
        if not self.recording:
            self.say(Msg("msg_not_recording"))
            return None
        try:
            ev = self.marker.roles(self.sink.media_ms(), don, mafia, sheriff)
        except ValueError as e:
            self.say(Msg("msg_refused", (("error", str(e)),)))
            return None
        self._commit((ev,))
        self.say(Msg("msg_marked", (("id", ev.id), ("what", ev.type))))
        return ev

    def _commit(self, marks: Sequence[Event]) -> None:
        if not marks:
            return
        self.marker.accept(marks)
        for ev in marks:
            self.sink.mark(ev)
            self._live_hooks(ev)
        self.refresh_state()
        emit(self.marks_changed)

    # ---- the live vote check -------------------------------------------------------------------------

    def _live_hooks(self, ev: Event) -> None:
        if ev.type == "void":
            self._after_undo()
            return
        if isinstance(ev, VoteCall):
            self.live_view = LiveView(ev.id, "all" if ev.candidate is None else ev.candidate)
            if self.live is not None:
                self.live.open_window(ev, self.state.alive or self.seats)
        elif isinstance(ev, VoteStop) and self.live_view is not None:
            self.live_view = dataclasses.replace(self.live_view, waiting=self.live is not None)
            if self.live is not None:
                alive = self.state.alive or self.seats
                self.live.request_check(self.marker.effective(), ev, alive)
        elif isinstance(ev, VoteCount) and self.live_view is not None:
            self.live_view = dataclasses.replace(self.live_view, host_count=ev.count)
            if self.live is not None:
                self.live.close_window()
        else:
            return
        emit(self.live_changed, self.live_view)

    def _after_undo(self) -> None:
        """Re-read the comparison from the marks that still count (an undone count, stop or call)."""
        lv = self.live_view
        if lv is None:
            return
        eff = self.marker.effective()
        call = next((e for e in reversed(eff) if isinstance(e, VoteCall)), None)
        if call is None or call.id != lv.call_id:
            self.live_view = None
            if self.live is not None:
                self.live.close_window()
        else:
            after = eff[eff.index(call) + 1 :]
            stopped = any(isinstance(e, VoteStop) for e in after)
            counts = [e for e in after if isinstance(e, VoteCount)]
            self.live_view = dataclasses.replace(
                lv,
                host_count=counts[-1].count if counts else None,
                vision=lv.vision if stopped else None,
                waiting=lv.waiting and stopped,
            )
        emit(self.live_changed, self.live_view)

    def _on_live_result(self, res: LiveResult) -> None:
        if self.live_view is None or (res.call_id is not None and res.call_id != self.live_view.call_id):
            return
        self.live_view = dataclasses.replace(self.live_view, vision=res, waiting=False)
        emit(self.live_changed, self.live_view)

    # ---- state ---------------------------------------------------------------------------------------

    def refresh_state(self) -> None:
        self.state = referee(self.marker.effective(), rules=self.rule_set, seats=self.seats, live=True)
        self.marker.state = self.state
        emit(self.state_changed, self.state)

    def set_rules(self, name: str) -> None:
        self.rule_set = rules_for(name)
        self.marker.rules = self.rule_set
        if self.live is not None:
            self.live.set_rules(self.rule_set)
        self.refresh_state()
        emit(self.rules_changed, name)

    def set_secrecy(self, on: bool) -> None:
        if on != self.secrecy:
            self.secrecy = on
            emit(self.secrecy_changed, on)

    def set_name(self, seat: int, name: str) -> None:
        if self.names.get(seat) != name:
            self.names[seat] = name
            emit(self.players_changed)

    def set_recording(self, on: bool) -> None:
        if self.recording and not on:
            self.stopped = True
        self.recording = on

    def hidden_ids(self) -> set[str]:
        """Marks to hide while secrecy is on."""
        if not self.secrecy:
            return set()
        night_fouls = self.marker.night_fouls()
        return {e.id for e in self.marker.events if e.id and Marker.is_secret(e, night_fouls)}

    def say(self, msg: Msg) -> None:
        self.message = msg
        emit(self.message_changed, msg)

    # ---- the speech timer ----------------------------------------------------------------------------

    def timer(self) -> TimerView | None:
        sp: SpeechInfo | None = self.marker.speaker()
        if sp is None:
            return None
        left = sp.limit_s * 1000 - (self.sink.media_ms() - sp.start_t)
        return TimerView(sp.seat, sp.limit_s, left)

    def _on_tick(self) -> None:
        tv = self.timer()
        if tv is None:
            if self._timer_key is not None:
                self._timer_key = None
                emit(self.timer_changed, None)
            return
        key = (tv.seat, tv.limit_s)
        if key != self._timer_key:
            self._timer_key = key
            self._warned = set()
        for s in WARN_AT_S:
            if tv.left_ms <= s * 1000 and s not in self._warned:
                self._warned.add(s)
                if tv.left_ms > (s - 2) * 1000:  # only as it happens, not for a speech long over
                    emit(self.timer_warning, s)
        emit(self.timer_changed, tv)
