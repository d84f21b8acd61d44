"""The sound under the video: a waveform aligned with the timeline, with the host's "Спасибо" keystrokes
and the voice onsets found by the audio analyser side by side.

The envelope is computed off the UI thread from :func:`vision.onsets.read_audio` (peak per 5 ms bucket).
The widget follows the swimlane timeline's visible range, so a keystroke and the word behind it line up
with the lanes. A judge drags a host keystroke mark (⌨) to where the spoken word really starts; on release
the window asks for the reason and writes a judge ``void`` of the host's ``vote_stop`` plus a judge
``vote_stop`` at the new time (:func:`review_ui.judging.move_stop`) — the host's line is never edited.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QWidget

from gamelog.events import SpeechOnset, VoteStop
from review_ui.i18n import Language
from review_ui.player_model import PlayerModel
from review_ui.review_data import ReviewData
from review_ui.review_session import ReviewSession
from review_ui.timeline import LABEL_W, SwimlaneTimeline

BUCKET_MS = 5


@dataclass(frozen=True)
class Envelope:
    """peaks: (n,) float32 in [0, 1], the loudest sample of each ``bucket_ms`` bucket from ``start_ms``."""

    peaks: npt.NDArray[np.float32]
    start_ms: float
    bucket_ms: int = BUCKET_MS

    def __post_init__(self) -> None:
        if self.peaks.ndim != 1:
            raise ValueError(f"peaks must be (n,), got {self.peaks.shape}")

    def window(self, t0: float, t1: float, n: int) -> npt.NDArray[np.float32]:
        """``n`` peaks covering ``[t0, t1)`` (zeros outside the recording)."""
        out = np.zeros(n, np.float32)
        if n <= 0 or t1 <= t0 or not len(self.peaks):
            return out
        edges = ((np.linspace(t0, t1, n + 1) - self.start_ms) / self.bucket_ms).astype(np.int64)
        edges = np.clip(edges, 0, len(self.peaks))
        for i in range(n):
            a, b = edges[i], max(edges[i + 1], edges[i] + 1)
            if a < len(self.peaks):
                out[i] = float(self.peaks[a:b].max())
        return out


def compute_envelope(paths: Sequence[Path]) -> Envelope | None:
    from vision.onsets import RATE, read_audio

    audio = read_audio(list(paths))
    if audio is None or not len(audio.samples):
        return None
    per = max(1, RATE * BUCKET_MS // 1000)
    x = np.abs(audio.samples.astype(np.float32))
    n = len(x) // per
    peaks = x[: n * per].reshape(n, per).max(axis=1) if n else np.zeros(0, np.float32)
    top = float(peaks.max()) if len(peaks) else 0.0
    if top > 0:
        peaks = peaks / top
    return Envelope(peaks.astype(np.float32), float(audio.start_ms))


class Waveform(QWidget):
    def __init__(
        self,
        session: ReviewSession,
        model: PlayerModel,
        timeline: SwimlaneTimeline,
        language: Language,
        on_move_stop: Callable[[VoteStop, int], None],
    ) -> None:
        super().__init__()
        self._session = session
        self._model = model
        self._timeline = timeline
        self._lang = language
        self._on_move = on_move_stop
        self.envelope: Envelope | None = None
        self.state = "waiting"  # "waiting" | "ready" | "none" | error text
        self._drag: tuple[VoteStop, float] | None = None
        self.setMinimumHeight(64)
        self.setMaximumHeight(90)
        self.setMouseTracking(True)
        timeline.view_changed.connect(lambda *_: self.update())
        model.position_changed.connect(lambda *_: self.update())
        session.data_changed.connect(lambda *_: self.update())

    def set_envelope(self, env: object) -> None:
        self.envelope = env if isinstance(env, Envelope) else None
        self.state = "ready" if self.envelope is not None else "none"
        self.update()

    def set_failed(self, message: str) -> None:
        self.state = message
        self.update()

    def marks(self) -> tuple[list[VoteStop], list[SpeechOnset]]:
        data: ReviewData | None = self._session.data
        if data is None:
            return [], []
        stops = [e for e in data.bundle.events if isinstance(e, VoteStop)]
        onsets = [e for e in data.bundle.events if isinstance(e, SpeechOnset)]
        return stops, onsets

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.fillRect(self.rect(), QColor(28, 30, 34))
        tl = self._timeline
        h = self.height()
        mid = h / 2
        p.setPen(QColor(170, 170, 170))
        p.drawText(QRectF(4, 0, LABEL_W - 6, h), Qt.AlignmentFlag.AlignVCenter, "♪")
        if self.envelope is not None:
            n = max(1, self.width() - LABEL_W)
            peaks = self.envelope.window(tl.view_from, tl.view_to, n)
            p.setPen(QColor(120, 200, 140))
            for i, v in enumerate(peaks):
                dy = float(v) * (mid - 4)
                p.drawLine(QPointF(LABEL_W + i, mid - dy), QPointF(LABEL_W + i, mid + dy))
        else:
            key = {"waiting": "waveform_wait", "none": "waveform_none"}.get(self.state)
            text = self._lang.tr(key) if key else self.state
            p.drawText(QRectF(LABEL_W, 0, self.width() - LABEL_W, h), Qt.AlignmentFlag.AlignCenter, text)
        stops, onsets = self.marks()
        labels = tl.view_to - tl.view_from <= 30_000  # text only when the marks are far enough apart
        voided = self._session.data.voided if self._session.data is not None else frozenset()
        for o in onsets:
            x = tl.x_of(o.t)
            p.setPen(QPen(QColor(0, 210, 240), 2))
            p.drawLine(QPointF(x, h * 0.5), QPointF(x, h))
            if labels:
                p.drawText(QPointF(x + 3, h - 4), self._lang.tr("voice"))
        for s in stops:
            x = tl.x_of(self._drag[1] if self._drag is not None and self._drag[0] is s else s.t)
            pen = QPen(QColor(255, 255, 255) if s.src == "host" else QColor(255, 120, 120), 2)
            if s.id is not None and s.id in voided:
                pen.setStyle(Qt.PenStyle.DotLine)
            p.setPen(pen)
            p.drawLine(QPointF(x, 0), QPointF(x, h * 0.5))
            if labels or s.src == "judge":
                p.drawText(QPointF(x + 3, 12), "⌨" if s.src == "host" else "⌨ " + self._lang.tr("judge"))
        x = tl.x_of(self._model.position_ms)
        p.setPen(QPen(QColor(230, 0, 0), 2))
        p.drawLine(QPointF(x, 0), QPointF(x, h))
        p.end()

    def stop_at(self, x: float, slop: float = 6.0) -> VoteStop | None:
        voided = self._session.data.voided if self._session.data is not None else frozenset()
        stops = [s for s in self.marks()[0] if s.id not in voided]
        best = min(stops, key=lambda s: abs(self._timeline.x_of(s.t) - x), default=None)
        if best is not None and abs(self._timeline.x_of(best.t) - x) <= slop:
            return best
        return None

    def mousePressEvent(self, event: QMouseEvent) -> None:
        x = event.position().x()
        stop = self.stop_at(x) if event.position().y() < self.height() * 0.6 else None
        if stop is not None:
            self._drag = (stop, float(stop.t))
        elif x >= LABEL_W:
            self._model.seek(max(0, self._timeline.t_of(x)))
        event.accept()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._drag is not None:
            self._drag = (self._drag[0], float(self._timeline.t_of(event.position().x())))
            self.update()
        else:
            stop = self.stop_at(event.position().x())
            self.setCursor(Qt.CursorShape.SizeHorCursor if stop is not None else Qt.CursorShape.ArrowCursor)
        event.accept()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        drag, self._drag = self._drag, None
        if drag is not None:
            stop, t = drag
            if abs(int(t) - stop.t) >= 5:
                self._on_move(stop, max(0, int(t)))
            self.update()
        event.accept()
