"""The review session as a Qt model: the bundle's derived data, the judge, and judge actions.

Widgets connect to ``data_changed`` and call the session's methods. Loading and refereeing run in the
background (:mod:`review_ui.background`); a judge action appends its events (fsynced) and recomputes.
``previous`` keeps the data before the last action, so the protest panel can show the outcome before and
after a decision. ``loop`` is the A–B loop range, shared by the timeline, the protest form and the export.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from gamelog.events import Event
from review_ui import judging
from review_ui.background import run_in_background
from review_ui.review_data import ReviewData, build_review


class ReviewSession(QObject):
    data_changed = Signal(object)  # ReviewData
    failed = Signal(str)
    busy_changed = Signal(bool)
    loop_changed = Signal(object)  # (from_ms, to_ms) | None
    focus_changed = Signal(object)  # tuple of focused seats
    written = Signal(object)  # list of events just appended

    def __init__(self, bundle: Path, judge: str = "", *, background: bool = True) -> None:
        super().__init__()
        self.path = Path(bundle)
        self.judge = judge
        self._background = background
        self.data: ReviewData | None = None
        self.previous: ReviewData | None = None
        self.loop: tuple[int, int] | None = None
        self.focus: tuple[int, ...] = ()
        self._busy = 0

    @property
    def busy(self) -> bool:
        return self._busy > 0

    # -- loading --------------------------------------------------------------------------------------
    def reload(self, then: Callable[[ReviewData], None] | None = None) -> None:
        """Load and referee the bundle again (off the UI thread)."""
        self._set_busy(+1)

        def done(data: object) -> None:
            self._set_busy(-1)
            assert isinstance(data, ReviewData)
            if self.data is not None:
                self.previous = self.data
            self.data = data
            self.data_changed.emit(data)
            if then is not None:
                then(data)

        def fail(message: str) -> None:
            self._set_busy(-1)
            self.failed.emit(f"{self.path}: {message}")

        if self._background:
            run_in_background(lambda: build_review(self.path), done, fail, owner=self)
        else:
            try:
                done(build_review(self.path))
            except Exception as e:
                fail(str(e))

    def _set_busy(self, d: int) -> None:
        was = self.busy
        self._busy += d
        if was != self.busy:
            self.busy_changed.emit(self.busy)

    # -- judge actions --------------------------------------------------------------------------------
    def ids(self) -> judging.IdMaker:
        events = self.data.bundle.events if self.data is not None else ()
        return judging.IdMaker.for_events(events)

    def apply(self, events: Sequence[Event], then: Callable[[ReviewData], None] | None = None) -> None:
        """Append judge events to events.jsonl and recompute. Raises on an invalid event (nothing written)."""
        judging.append(self.path, events)
        self.written.emit(list(events))
        self.reload(then)

    # -- shared view state ----------------------------------------------------------------------------
    def set_loop(self, loop: tuple[int, int] | None) -> None:
        if loop is not None:
            a, b = sorted(loop)
            loop = (a, b) if b > a else None
        self.loop = loop
        self.loop_changed.emit(loop)

    def toggle_focus(self, seat: int, limit: int = 4) -> None:
        seats = list(self.focus)
        if seat in seats:
            seats.remove(seat)
        else:
            seats.append(seat)
            seats = seats[-limit:]
        self.focus = tuple(seats)
        self.focus_changed.emit(self.focus)
