"""The swimlane timeline: a lane for the host and one per seat, with the game's facts as markers.

Zoom with the mouse wheel from the whole game down to a single second (the point under the mouse stays
put), Shift+wheel or a right-button drag pans, a left click jumps the player there (on a marker: to the
marker). Vote windows are shaded (call → "Спасибо"), the A–B loop blue, damaged video red; voided facts
are drawn hollow. The widget reads :class:`~review_ui.review_data.ReviewData` from the session and the
position from the player model; it changes nothing but the player's position.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent, QPen, QWheelEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from review_ui.decoder_worker import TimelineInfo
from review_ui.i18n import Language
from review_ui.player_model import PlayerModel
from review_ui.player_widget import format_time
from review_ui.review_data import HOST_LANE, Marker, ReviewData
from review_ui.review_session import ReviewSession
from vision.video import Damage

KIND_COLORS: dict[str, QColor] = {
    "vote": QColor(60, 170, 75),
    "lift": QColor(150, 150, 150),
    "shot": QColor(220, 60, 50),
    "head_up": QColor(235, 150, 30),
    "foul": QColor(200, 30, 200),
    "review": QColor(250, 210, 0),
    "call": QColor(70, 130, 220),
    "stop": QColor(20, 60, 160),
    "onset": QColor(0, 170, 200),
    "phase": QColor(90, 90, 90),
    "nominate": QColor(120, 80, 200),
    "judge": QColor(160, 40, 40),
}
LABEL_W = 64
MIN_SPAN_MS = 1000


class SwimlaneTimeline(QWidget):
    view_changed = Signal(int, int)  # the visible range, ms

    def __init__(self, session: ReviewSession, model: PlayerModel, language: Language) -> None:
        super().__init__()
        self._session = session
        self._model = model
        self._lang = language
        self._data: ReviewData | None = None
        self._info: TimelineInfo | None = None
        self._pos = 0
        self.view_from = 0
        self.view_to = 60_000
        self._fitted = False
        self._drag_x: float | None = None
        self.setMinimumHeight(180)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.setMouseTracking(True)
        session.data_changed.connect(self._on_data)
        session.loop_changed.connect(lambda *_: self.update())
        session.focus_changed.connect(lambda *_: self.update())
        model.position_changed.connect(self._on_position)
        model.info_changed.connect(self._on_info)
        if session.data is not None:
            self._on_data(session.data)

    # -- model → view ---------------------------------------------------------------------------------
    @property
    def lanes(self) -> list[int]:
        seats = list(self._data.seats) if self._data is not None else list(range(1, 11))
        return [HOST_LANE, *seats]

    @property
    def damaged(self) -> tuple[Damage, ...]:
        """The damaged stretches painted on the timeline."""
        return self._info.damaged if self._info is not None else ()

    @property
    def total_ms(self) -> int:
        ends = [1000]
        if self._info is not None:
            ends.append(self._info.duration_ms)
        if self._data is not None and self._data.markers:
            ends.append(max(m.until or m.t for m in self._data.markers) + 1000)
        return max(ends)

    def _on_data(self, data: ReviewData) -> None:
        self._data = data
        if not self._fitted:
            self.show_all()
        self.update()

    def _on_info(self, info: TimelineInfo) -> None:
        self._info = info
        if not self._fitted or self.view_to > self.total_ms:
            self.show_all()
        self.update()

    def _on_position(self, t: int) -> None:
        self._pos = t
        if not self.view_from <= t <= self.view_to:  # follow the playhead
            span = self.view_to - self.view_from
            self.set_view(t - span // 4, t - span // 4 + span)
        self.update()

    # -- view range -----------------------------------------------------------------------------------
    def show_all(self) -> None:
        self._fitted = True
        self.set_view(0, self.total_ms)

    def set_view(self, t0: int, t1: int) -> None:
        span = max(MIN_SPAN_MS, min(t1 - t0, self.total_ms))
        t0 = min(max(0, t0), max(0, self.total_ms - span))
        self.view_from, self.view_to = int(t0), int(t0 + span)
        self.update()
        self.view_changed.emit(self.view_from, self.view_to)

    def zoom(self, factor: float, at_ms: int | None = None) -> None:
        at = self._pos if at_ms is None else at_ms
        span = (self.view_to - self.view_from) * factor
        u = (at - self.view_from) / max(1, self.view_to - self.view_from)
        t0 = at - u * span
        self.set_view(int(t0), int(t0 + span))

    def show_range(self, t0: int, t1: int, margin: float = 0.15) -> None:
        pad = int((t1 - t0) * margin) + 200
        self.set_view(t0 - pad, t1 + pad)

    # -- geometry -------------------------------------------------------------------------------------
    def x_of(self, t: float) -> float:
        w = max(1, self.width() - LABEL_W)
        return LABEL_W + (t - self.view_from) * w / max(1, self.view_to - self.view_from)

    def t_of(self, x: float) -> int:
        w = max(1, self.width() - LABEL_W)
        return int(self.view_from + (x - LABEL_W) * (self.view_to - self.view_from) / w)

    def lane_rect(self, lane: int) -> QRectF:
        lanes = self.lanes
        top = 16
        h = (self.height() - top) / max(1, len(lanes))
        i = lanes.index(lane) if lane in lanes else 0
        return QRectF(0, top + i * h, self.width(), h)

    def marker_at(self, pos: QPointF, slop: float = 5.0) -> Marker | None:
        if self._data is None:
            return None
        best: tuple[float, Marker] | None = None
        for m in self._data.markers:
            r = self.lane_rect(m.lane)
            if not r.top() <= pos.y() <= r.bottom():
                continue
            d = abs(self.x_of(m.t) - pos.x())
            if d <= slop and (best is None or d < best[0]):
                best = (d, m)
        return best[1] if best else None

    # -- painting -------------------------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.fillRect(self.rect(), QColor(250, 250, 250))
        self._paint_ruler(p)
        data = self._data
        focus = set(self._session.focus)
        for i, lane in enumerate(self.lanes):
            r = self.lane_rect(lane)
            if lane in focus:
                p.fillRect(r, QColor(255, 244, 200))
            elif i % 2:
                p.fillRect(r, QColor(240, 240, 244))
            p.setPen(QColor(60, 60, 60))
            name = self._lang.tr("lane_host") if lane == HOST_LANE else self._seat_name(lane)
            p.drawText(QRectF(4, r.top(), LABEL_W - 6, r.height()), Qt.AlignmentFlag.AlignVCenter, name)
        top, bottom = 16.0, float(self.height())
        if self._info is not None:
            for d in self._info.damaged:
                x0, x1 = self.x_of(d.from_ms), self.x_of(max(d.to_ms, d.from_ms + 1))
                p.fillRect(QRectF(x0, top, max(2.0, x1 - x0), bottom - top), QColor(220, 40, 40, 70))
        if data is not None:
            for rnd in data.rounds:
                x0, x1 = self.x_of(rnd.call_t), self.x_of(rnd.close_t)
                p.fillRect(QRectF(x0, top, max(1.0, x1 - x0), bottom - top), QColor(60, 170, 75, 28))
                p.setPen(QPen(QColor(20, 60, 160), 1, Qt.PenStyle.DashLine))
                p.drawLine(QPointF(x1, top), QPointF(x1, bottom))
        if self._session.loop is not None:
            a, b = self._session.loop
            x0, x1 = self.x_of(a), self.x_of(b)
            p.fillRect(QRectF(x0, top, max(1.0, x1 - x0), bottom - top), QColor(40, 90, 230, 45))
        if data is not None:
            for m in data.markers:
                if m.t > self.view_to or (m.until or m.t) < self.view_from:
                    continue
                self._paint_marker(p, m)
        x = self.x_of(self._pos)
        p.setPen(QPen(QColor(230, 0, 0), 2))
        p.drawLine(QPointF(x, 0), QPointF(x, bottom))
        p.end()

    def _seat_name(self, seat: int) -> str:
        player = self._data.bundle.game.player(seat) if self._data is not None else None
        return f"{seat} {player.name[:6]}" if player is not None else str(seat)

    def _paint_ruler(self, p: QPainter) -> None:
        span = self.view_to - self.view_from
        steps = [100, 200, 500, 1000, 2000, 5000, 10_000, 30_000, 60_000, 120_000, 300_000, 600_000]
        w = max(1, self.width() - LABEL_W)
        step = next((s for s in steps if s * w / max(1, span) >= 70), steps[-1])
        p.setPen(QColor(110, 110, 110))
        t = (self.view_from // step) * step
        while t <= self.view_to:
            x = self.x_of(t)
            if x >= LABEL_W:
                p.drawLine(QPointF(x, 10), QPointF(x, 16))
                text = format_time(t)[3:] if step < 1000 else format_time(t)[3:8]
                p.drawText(QPointF(x + 2, 11), text)
            t += step

    def _paint_marker(self, p: QPainter, m: Marker) -> None:
        r = self.lane_rect(m.lane)
        color = KIND_COLORS.get(m.kind, QColor(0, 0, 0))
        x = self.x_of(m.t)
        cy = r.center().y()
        h = max(4.0, r.height() * 0.7)
        if m.until is not None and m.until > m.t:
            x1 = self.x_of(m.until)
            body = QRectF(x, cy - h / 4, max(2.0, x1 - x), h / 2)
            if m.voided:
                p.setPen(QPen(color, 1))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawRect(body)
            else:
                p.fillRect(body, color)
            return
        if m.kind == "review":
            p.setPen(QPen(QColor(120, 90, 0), 1))
            p.setBrush(color)
            p.drawPolygon(
                [QPointF(x, cy - h / 2), QPointF(x + 5, cy), QPointF(x, cy + h / 2), QPointF(x - 5, cy)]
            )
            return
        pen = QPen(color, 3 if m.kind in ("stop", "onset") else 2)
        if m.voided:
            pen.setStyle(Qt.PenStyle.DotLine)
        p.setPen(pen)
        p.drawLine(QPointF(x, cy - h / 2), QPointF(x, cy + h / 2))
        if m.kind in ("vote", "shot") and not m.voided:
            p.setBrush(color)
            p.drawEllipse(QPointF(x, cy), 3, 3)

    # -- input ----------------------------------------------------------------------------------------
    def wheelEvent(self, event: QWheelEvent) -> None:
        notches = event.angleDelta().y() / 120.0
        if notches:
            if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
                span = self.view_to - self.view_from
                shift = int(-notches * span * 0.1)
                self.set_view(self.view_from + shift, self.view_to + shift)
            else:
                self.zoom(0.8**notches, self.t_of(event.position().x()))
        event.accept()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.RightButton:
            self._drag_x = event.position().x()
        elif event.button() == Qt.MouseButton.LeftButton:
            if event.position().x() < LABEL_W:
                lane = self._lane_at(event.position().y())
                if lane is not None and lane != HOST_LANE:
                    self._session.toggle_focus(lane)
                return
            m = self.marker_at(event.position())
            self._model.seek(m.t if m is not None else max(0, self.t_of(event.position().x())))
        event.accept()

    def _lane_at(self, y: float) -> int | None:
        for lane in self.lanes:
            r = self.lane_rect(lane)
            if r.top() <= y < r.bottom():
                return lane
        return None

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._drag_x is not None:
            dx = event.position().x() - self._drag_x
            self._drag_x = event.position().x()
            dt = int(dx * (self.view_to - self.view_from) / max(1, self.width() - LABEL_W))
            self.set_view(self.view_from - dt, self.view_to - dt)
        else:
            m = self.marker_at(event.position())
            self.setToolTip(
                f"{format_time(m.t)} {m.kind}: {m.text(self._lang.code)}" + (f" [{m.ref}]" if m.ref else "")
                if m
                else ""
            )
        event.accept()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        self._drag_x = None
        event.accept()
