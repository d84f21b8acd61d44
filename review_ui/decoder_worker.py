"""Decoding off the UI thread: a worker that serves only the newest request.

The worker owns the :class:`vision.video.VideoTimeline` (not thread-safe) and lives on its own QThread, so
all decoding happens there. Requests come from the main thread and are merged into one pending slot: a new
seek replaces whatever was waiting; frame steps add up (five quick presses of → move five frames, even if
the worker was busy). When the worker gets to it, it serves the newest state only, so scrubbing never
queues up stale decodes. Results go back as signals carrying a QImage that owns its memory; the worker never
touches a widget.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
from PySide6.QtCore import QObject, QThread, QTimer, Signal, Slot
from PySide6.QtGui import QImage

from vision.video import Damage, Frame, VideoError, VideoTimeline

WARM_STEPS = 8  # stepping back: decode the previous GOP once within this many frames of a GOP start
WARM_REVERSE_PLAY = 1 << 30  # playing backward: as soon as a GOP is entered


@dataclass(frozen=True)
class ShownFrame:
    """A decoded frame ready to paint (image owns its pixels)."""

    image: QImage
    pts_ms: int
    frame_number: int | None  # on the whole timeline, once the index is ready
    segment: int
    request_id: int


@dataclass(frozen=True)
class TimelineInfo:
    start_ms: int
    duration_ms: int
    fps: float
    frame_size: tuple[int, int]
    damaged: tuple[Damage, ...]
    index_ready: bool


@dataclass(frozen=True)
class _Request:
    base_ms: int | None  # seek here first (None: from the frame last served)
    steps: int  # then this many frames forward (+) or back (-)
    request_id: int


def to_qimage(image: np.ndarray) -> QImage:
    """An RGB (h, w, 3) uint8 array as a QImage that owns a copy of the pixels."""
    h, w, _ = image.shape
    # Filled through bits() rather than wrapping the numpy buffer: the buffer-wrapping constructor
    # mishandles reference counts in this PySide6 (a crash at interpreter exit).
    qimage = QImage(w, h, QImage.Format.Format_RGB888)
    stride = qimage.bytesPerLine()
    dst = np.frombuffer(qimage.bits(), np.uint8, count=qimage.sizeInBytes()).reshape(h, stride)
    dst[:, : 3 * w] = image.reshape(h, 3 * w)
    return qimage


class DecoderWorker(QObject):
    """Serves seek and step requests on a worker thread; newest request wins."""

    frame_ready = Signal(object)  # ShownFrame
    info_changed = Signal(object)  # TimelineInfo
    failed = Signal(str)
    _wake = Signal()

    def __init__(self, open_timeline: Callable[[Callable[[], None]], VideoTimeline]) -> None:
        """``open_timeline(on_change)`` opens the video; it runs on the worker thread."""
        super().__init__()
        self._open_timeline = open_timeline
        self._timeline: VideoTimeline | None = None
        self._last: Frame | None = None
        self._last_shown: ShownFrame | None = None
        self._warm_within = WARM_STEPS
        self._numbered = False  # frames carry their number (the index was ready when they were shown)
        self._lock = threading.Lock()
        self._info_lock = threading.Lock()
        self._pending: _Request | None = None
        self._next_id = 0
        self._thread = QThread()
        self._thread.setObjectName("decoder")
        self.moveToThread(self._thread)
        self._thread.started.connect(self._open)
        self._wake.connect(self._serve)

    # -- main thread API ------------------------------------------------------------------------------
    def start(self) -> None:
        self._thread.start()

    def request_seek(self, t_ms: int) -> int:
        with self._lock:
            self._next_id += 1
            self._pending = _Request(int(t_ms), 0, self._next_id)
            rid = self._next_id
        self._wake.emit()
        return rid

    def request_step(self, frames: int) -> int:
        with self._lock:
            self._next_id += 1
            if self._pending is None:
                self._pending = _Request(None, frames, self._next_id)
            else:
                self._pending = replace(
                    self._pending, steps=self._pending.steps + frames, request_id=self._next_id
                )
            rid = self._next_id
        self._wake.emit()
        return rid

    def stop(self) -> None:
        """Stop the thread and close the video (call from the main thread, e.g. on window close)."""
        if self._thread.isRunning():
            self._thread.quit()
            self._thread.wait()
        if self._timeline is not None:
            self._timeline.close()
            self._timeline = None

    # -- worker thread --------------------------------------------------------------------------------
    @Slot()
    def _open(self) -> None:
        try:
            self._timeline = self._open_timeline(self._timeline_changed)
        except (VideoError, OSError, ValueError) as e:
            self.failed.emit(str(e))
            return
        self._timeline_changed()
        if self._pending is None:
            self.request_seek(self._timeline.start_ms)
        else:
            self._serve()

    def _timeline_changed(self) -> None:
        tl = self._timeline
        if tl is None:
            return
        # Called from the worker and from the index thread: computing and posting under one lock keeps
        # the receiver from getting an older state after a newer one.
        with self._info_lock:
            info = TimelineInfo(
                tl.start_ms, tl.duration_ms, tl.fps, tl.frame_size, tuple(tl.damaged), tl.index_ready
            )
            self.info_changed.emit(info)
        if info.index_ready and not self._numbered:
            self._numbered = True
            self._wake.emit()  # the frame on screen can now show its number

    @Slot()
    def _serve(self) -> None:
        if self._timeline is None:
            return
        with self._lock:
            req, self._pending = self._pending, None
        tl = self._timeline
        if req is None:
            # an older wake-up (the newest request was already served), or the index just became ready
            shown = self._last_shown
            if self._last is not None and shown is not None and shown.frame_number is None:
                number = tl.frame_number(self._last)
                if number is not None:
                    self._last_shown = replace(shown, frame_number=number)
                    self.frame_ready.emit(self._last_shown)
            return
        try:
            frame = self._last
            if req.base_ms is not None or frame is None:
                base = req.base_ms if req.base_ms is not None else tl.start_ms
                frame = tl.frame_at(base, unless=self._last)
            for _ in range(abs(req.steps)):
                nxt = tl.next_frame(frame) if req.steps > 0 else tl.prev_frame(frame)
                if nxt is None:
                    break
                frame = nxt
        except VideoError as e:
            self.failed.emit(str(e))
            return
        if frame is self._last:
            return
        backward = self._last is not None and frame.pts_ms < self._last.pts_ms
        self._last = frame
        shown = ShownFrame(
            to_qimage(frame.image), frame.pts_ms, tl.frame_number(frame), frame.segment, req.request_id
        )
        self._last_shown = shown
        self.frame_ready.emit(shown)
        # Idle work, after any newer request is served: going forward, decode the next frame; going back,
        # the GOP before: near its start when stepping, at once when playing backward (a whole GOP goes
        # by in a second then, and decoding one takes a good part of that).
        self._warm_within = WARM_STEPS if req.steps < 0 else WARM_REVERSE_PLAY
        QTimer.singleShot(0, self._warm if backward else self._ahead)

    @Slot()
    def _ahead(self) -> None:
        """Idle after showing a frame: decode the next one, so playback only converts when it is due."""
        if self._timeline is None or self._last is None:
            return
        with self._lock:
            if self._pending is not None:
                return
        with contextlib.suppress(VideoError):  # a real request there reports the damage
            self._timeline.decode_ahead(self._last)

    @Slot()
    def _warm(self) -> None:
        """Idle after a step back: decode the previous GOP so the next steps back stay instant."""
        if self._timeline is None or self._last is None:
            return
        with self._lock:
            if self._pending is not None:
                return
        with contextlib.suppress(VideoError):  # a real request there reports the damage
            self._timeline.warm_before(self._last, within=self._warm_within)
