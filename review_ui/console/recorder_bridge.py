"""The recording engine off the UI thread.

:class:`RecorderBridge` owns a :class:`recorder.session.RecordingSession` and never lets the UI thread
wait on it: ``start()`` and ``stop()`` run on threads of their own (opening a camera or finishing
ffmpeg can take seconds), marks go to a single-worker executor (each mark is fsynced before the
session returns), and a *fan-out* thread takes the session's live tap: it keeps the newest frame for
the preview (the window paints it at its own pace) and hands every frame to the live vision worker
while a vote window is open. The same thread samples the recorder status twice a second.

The media time of a mark is taken by the caller at the key press (:meth:`media_ms`, a clock read that
is safe from any thread) and passed with the mark, so a slow disk delays the write, never the time.
Results come back as Qt signals, delivered on the UI thread.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from PySide6.QtCore import QObject, Signal

from gamelog.bundle import read_game, write_game
from gamelog.events import Event
from recorder import bundle_io
from recorder.session import Notice, RecorderStatus, RecordingSession
from recorder.tap import TapFrame
from review_ui.signals import emit

log = logging.getLogger("review_ui.console.bridge")

STATUS_EVERY_S = 0.5


class RecorderBridge(QObject):
    started = Signal()
    start_failed = Signal(str)
    status_changed = Signal(object)  # RecorderStatus
    mark_written = Signal(object)  # Event
    mark_failed = Signal(str, str)  # mark id, error
    notice = Signal(object)  # recorder Notice
    stopped = Signal(object)  # final RecorderStatus

    def __init__(self, session: RecordingSession, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self._prev_notice = session.on_notice
        session.on_notice = self._on_notice
        self._marks = ThreadPoolExecutor(max_workers=1, thread_name_prefix="console-marks")
        self._latest: TapFrame | None = None
        self._latest_seq = 0
        self._lock = threading.Lock()
        self._fanout: threading.Thread | None = None
        self._quit = threading.Event()
        self._frame_sinks: list[Callable[[TapFrame], None]] = []
        self.running = False
        self.finished = False
        self.frames_seen = 0
        self._stopping = False
        self._game: tuple[dict[int, str], str] | None = None
        self._segments: tuple[str, ...] = ()

    # ---- life cycle (never blocks the caller) -------------------------------------------------------

    def start(self) -> None:
        threading.Thread(target=self._start, name="console-start", daemon=True).start()

    def _start(self) -> None:
        try:
            self.session.start()
        except Exception as e:  # a SourceError names the device or file; anything else too
            log.exception("recording did not start")
            emit(self.start_failed, str(e))
            return
        self.running = True
        self._fanout = threading.Thread(target=self._fan_out, name="console-tap", daemon=True)
        self._fanout.start()
        emit(self.started)

    def stop(self, reason: str = "stopped at the console") -> None:
        threading.Thread(target=self._stop, args=(reason,), name="console-stop", daemon=True).start()

    def _stop(self, reason: str) -> None:
        with self._lock:
            if self._stopping:
                return
            self._stopping = True
        self._marks.shutdown(wait=True)  # every mark pressed before Stop is on disk first
        status = self.session.stop(reason) if self.running else self.session.status()
        if self._apply_game() and self.running:
            self.reseal()  # the session sealed game.json as it knew it: seal the names too
        self._quit.set()
        if self._fanout is not None:
            self._fanout.join(timeout=5)
        self.running = False
        self.finished = True
        emit(self.stopped, status)

    # ---- marks ---------------------------------------------------------------------------------------

    def media_ms(self) -> int:
        return self.session.media_ms()

    def mark(self, ev: Event) -> None:
        """Write ``ev`` (its ``t`` and ``id`` as given) through the session, off the UI thread."""
        try:
            self._marks.submit(self._write, ev)
        except RuntimeError:  # the executor was shut down: stopping
            emit(self.mark_failed, ev.id or "", "the recording has stopped")

    def _write(self, ev: Event) -> None:
        try:
            written = self.session.mark(ev, t_ms=ev.t)
        except Exception as e:
            log.error("mark %s refused: %s", ev.id, e)
            emit(self.mark_failed, ev.id or "", str(e))
            return
        emit(self.mark_written, written)

    # ---- game.json: names and rules ------------------------------------------------------------------

    def update_game(self, names: dict[int, str], rules: str) -> None:
        """Players' names and the rule set into ``game.json`` (atomically, off the UI thread).

        The session rewrites ``game.json`` from its own copy at each new segment and at the end, so this
        is applied again after each new segment and after stopping."""
        self._game = (dict(names), rules)
        with contextlib.suppress(RuntimeError):  # stopping: _stop applies it once more
            self._marks.submit(self._apply_game)

    def _apply_game(self) -> bool:
        """Write the names and rules into ``game.json``; True when that changed the file."""
        if self._game is None or not (self.session.bundle / "game.json").exists():
            return False
        names, rules = self._game
        try:
            info = read_game(self.session.bundle)
            players = tuple(dataclasses.replace(p, name=names.get(p.seat) or p.name) for p in info.players)
            new = dataclasses.replace(info, players=players, rules=rules)
            if new == info:
                return False
            write_game(self.session.bundle, new)
            return True
        except Exception as e:
            log.error("game.json not updated: %s", e)
            return False

    def reseal(self) -> None:
        """Seal the bundle again (``manifest.json`` covers game.json and layout.json): after the session
        has stopped, a change to either is sealed here."""
        try:
            bundle_io.seal(self.session.bundle)
        except Exception as e:
            log.error("%s: not sealed again: %s", self.session.bundle, e)

    # ---- frames --------------------------------------------------------------------------------------

    def add_frame_sink(self, sink: Callable[[TapFrame], None]) -> None:
        """``sink(frame)`` is called on the fan-out thread for every tap frame; it must not block."""
        self._frame_sinks.append(sink)

    def latest_frame(self) -> tuple[int, TapFrame | None]:
        """(sequence number, the newest tap frame): the preview paints it when the number changed."""
        with self._lock:
            return self._latest_seq, self._latest

    def _fan_out(self) -> None:
        tap = self.session.tap
        next_status = 0.0
        clock = self.session.clock
        while not self._quit.is_set():
            frame = tap.get(timeout=0.1)
            if frame is not None:
                self.frames_seen += 1
                with self._lock:
                    self._latest = frame
                    self._latest_seq += 1
                for sink in self._frame_sinks:
                    try:
                        sink(frame)
                    except Exception:
                        log.exception("frame sink failed")
            now = clock.monotonic()
            if now >= next_status:
                next_status = now + STATUS_EVERY_S
                st = self.session.status()
                if st.segments != self._segments:  # the session rewrote game.json: names again
                    self._segments = st.segments
                    if self._game is not None:
                        with contextlib.suppress(RuntimeError):  # stopping: applied at the end
                            self._marks.submit(self._apply_game)
                emit(self.status_changed, st)
            if frame is None and tap.closed:
                if self.session.wait(0):  # the session stopped by itself (source ended, disk full)
                    threading.Thread(target=self._stop, args=("ended",), daemon=True).start()
                    return
                self._quit.wait(0.1)

    def _on_notice(self, n: Notice) -> None:
        emit(self.notice, n)
        if self._prev_notice is not None:
            self._prev_notice(n)

    def status(self) -> RecorderStatus:
        return self.session.status()

    def describe(self) -> dict[str, Any]:
        return {"frames_seen": self.frames_seen, "running": self.running}
