"""The player's state as a Qt model: position, playing, speed and direction, with snake_case signals.

Widgets connect to this model and call its methods; they never talk to the decoder. The model asks a
frame source (the :class:`~review_ui.decoder_worker.DecoderWorker`, or any object with ``request_seek``,
``request_step`` and the ``frame_ready`` / ``info_changed`` signals) for frames, and its position is the
time of the frame actually on screen.

Playback is driven by a QTimer checked against a monotonic clock (injectable for tests): at each tick the
model computes where the clock says the video should be and asks for that frame. If decoding falls behind,
the newest request wins and frames are skipped; playback never drifts.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QObject, QTimer, Signal, SignalInstance

from review_ui.decoder_worker import ShownFrame, TimelineInfo

SPEEDS = (0.1, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0)
JUMP_SHORT_MS = 1000
JUMP_LONG_MS = 5000
TICK_MS = 10


class FrameSource(Protocol):
    frame_ready: SignalInstance
    info_changed: SignalInstance

    def request_seek(self, t_ms: int) -> int: ...

    def request_step(self, frames: int) -> int: ...


class PlayerModel(QObject):
    position_changed = Signal(int)  # ms of the frame on screen
    frame_changed = Signal(object)  # ShownFrame
    playing_changed = Signal(bool)
    speed_changed = Signal(float)
    direction_changed = Signal(int)  # +1 forward, -1 backward
    info_changed = Signal(object)  # TimelineInfo (duration, damage, index state)

    def __init__(self, source: FrameSource, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self._source = source
        self._clock = clock
        self._frame: ShownFrame | None = None
        self._info: TimelineInfo | None = None
        self._playing = False
        self._speed = 1.0
        self._direction = 1
        self._last_request = -1
        self._accept_from = -1  # frames for older requests are dropped while paused
        self._target_ms = 0  # the last position asked for (jumps add to it, so quick presses add up)
        self._anchor: tuple[float, float] = (0.0, 0.0)  # (clock seconds, media ms) when playback (re)started
        self._loop: tuple[int, int] | None = None  # A–B loop: forward playback never asks past B
        self._timer = QTimer(self)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self.tick)
        source.frame_ready.connect(self._on_frame)
        source.info_changed.connect(self._on_info)

    # -- state ----------------------------------------------------------------------------------------
    @property
    def position_ms(self) -> int:
        return self._frame.pts_ms if self._frame is not None else self._target_ms

    @property
    def frame(self) -> ShownFrame | None:
        return self._frame

    @property
    def info(self) -> TimelineInfo | None:
        return self._info

    @property
    def playing(self) -> bool:
        return self._playing

    @property
    def speed(self) -> float:
        return self._speed

    @property
    def direction(self) -> int:
        return self._direction

    @property
    def start_ms(self) -> int:
        return self._info.start_ms if self._info is not None else 0

    @property
    def end_ms(self) -> int:
        return self._info.duration_ms if self._info is not None else 0

    # -- commands -------------------------------------------------------------------------------------
    def seek(self, t_ms: int) -> None:
        t = self._clamp(int(t_ms))
        self._target_ms = t
        if self._playing:
            self._anchor = (self._clock(), float(t))
        self._last_request = self._source.request_seek(t)

    def jump(self, delta_ms: int) -> None:
        self.seek(self._target_ms + delta_ms)

    def step(self, frames: int) -> None:
        """Frame steps pause playback (a judge stepping wants the picture to stay put)."""
        self.pause()
        self._last_request = self._source.request_step(frames)

    def play(self) -> None:
        if self._playing:
            return
        if self._direction > 0 and self.end_ms and self.position_ms >= self.end_ms - 1:
            self.seek(self.start_ms)  # at the end: play from the start
        self._playing = True
        self._target_ms = self.position_ms
        self._anchor = (self._clock(), float(self._target_ms))
        self._timer.start()
        self.playing_changed.emit(True)

    def pause(self) -> None:
        """Stop on the frame on screen: a frame still being decoded for a later time is not shown."""
        self._stop(settle=True)

    def _stop(self, settle: bool) -> None:
        if not self._playing:
            return
        self._playing = False
        self._timer.stop()
        self._target_ms = self.position_ms
        if settle:
            # newest request wins: the worker settles on the frame on screen, and anything decoded for
            # an earlier request and still on its way is dropped in _on_frame
            self._last_request = self._source.request_seek(self.position_ms)
            self._accept_from = self._last_request
        self.playing_changed.emit(False)

    def toggle_play(self) -> None:
        if self._playing:
            self.pause()
        else:
            self.set_direction(1)
            self.play()

    def play_forward(self) -> None:
        """L: play forward; pressed again while playing forward, faster."""
        if self._playing and self._direction > 0:
            self.faster()
        else:
            self.set_direction(1)
            self.play()

    def play_backward(self) -> None:
        """J: play backward; pressed again while playing backward, faster."""
        if self._playing and self._direction < 0:
            self.faster()
        else:
            self.set_direction(-1)
            self.play()

    def set_direction(self, direction: int) -> None:
        d = 1 if direction >= 0 else -1
        if d != self._direction:
            self._rebase()
            self._direction = d
            self.direction_changed.emit(d)

    def set_speed(self, speed: float) -> None:
        s = min(max(float(speed), SPEEDS[0]), SPEEDS[-1])
        if s != self._speed:
            self._rebase()
            self._speed = s
            self.speed_changed.emit(s)

    def faster(self) -> None:
        self.set_speed(next((s for s in SPEEDS if s > self._speed + 1e-9), SPEEDS[-1]))

    def slower(self) -> None:
        self.set_speed(next((s for s in reversed(SPEEDS) if s < self._speed - 1e-9), SPEEDS[0]))

    def go_start(self) -> None:
        self.seek(self.start_ms)

    def go_end(self) -> None:
        self.seek(self.end_ms)

    # -- playback clock -------------------------------------------------------------------------------
    def clock_position(self) -> float:
        t0, m0 = self._anchor
        return m0 + (self._clock() - t0) * 1000.0 * self._speed * self._direction

    def _rebase(self) -> None:
        if self._playing:
            self._anchor = (self._clock(), self.clock_position())

    def set_loop(self, loop: tuple[int, int] | None) -> None:
        """An A–B loop (ms): playing forward, the clock goes back to A when it reaches B, so no frame past
        B is asked for even when a slow machine makes the clock skip frames."""
        self._loop = loop

    def tick(self) -> None:
        """One playback step: ask for the frame the clock says is due (public so tests can drive it)."""
        if not self._playing:
            return
        t = self.clock_position()
        if self._loop is not None and self._direction > 0 and t >= self._loop[1]:
            t = float(self._loop[0])
            self._anchor = (self._clock(), t)
        at_end = self._direction > 0 and self.end_ms and t >= self.end_ms
        at_start = self._direction < 0 and t <= self.start_ms
        target = self._clamp(int(t))
        if target != self._target_ms:
            self._target_ms = target
            self._last_request = self._source.request_seek(target)
        if at_end or at_start:
            self._stop(settle=False)  # the frame asked for last (the first or last one) is the one to show
            self._target_ms = target

    def _clamp(self, t: int) -> int:
        if self._info is None:
            return max(t, 0)
        return min(max(t, self._info.start_ms), max(self._info.start_ms, self._info.duration_ms - 1))

    # -- from the frame source ------------------------------------------------------------------------
    def _on_frame(self, frame: ShownFrame) -> None:
        stale = frame.request_id < self._accept_from
        if stale and not self._playing and (self._frame is None or frame.pts_ms != self._frame.pts_ms):
            return  # decoded for a time asked before the pause: the picture stays where it stopped
        self._frame = frame
        if not self._playing and frame.request_id >= self._last_request:
            self._target_ms = frame.pts_ms  # settled: later jumps start from the frame on screen
        self.frame_changed.emit(frame)
        self.position_changed.emit(frame.pts_ms)

    def _on_info(self, info: TimelineInfo) -> None:
        self._info = info
        self.info_changed.emit(info)
