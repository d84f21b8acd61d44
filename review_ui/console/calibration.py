"""The live picture with the seat zones over it, and the zone editor (calibration mode).

:class:`ZoneView` is the review window's :class:`~review_ui.video_view.VideoView` (aspect, zoom, pan)
fed by :class:`LiveFrames` instead of a player, with the layout painted on top: table zones filled
(the seats vision counted in the last vote check stand out), head and raise zones outlined, seat
numbers. In calibration mode the mouse edits instead of panning: a drag near a corner moves that
corner, a drag inside a zone moves the whole zone; every release emits ``layout_edited`` with the new
:class:`~gamelog.layout.Layout` (in pixels of the video frame, whatever size the preview is).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QPointF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QMouseEvent, QPainter, QPaintEvent, QPen, QPolygonF
from PySide6.QtWidgets import QWidget

from gamelog.layout import Layout, Point, Polygon, polygon_bbox
from review_ui.console.zones import Hit, hit_test, move_vertex, move_zone
from review_ui.decoder_worker import ShownFrame
from review_ui.signals import emit
from review_ui.video_view import VideoView

HANDLE_PX = 10.0  # grab radius of a corner, in widget pixels
ZONE_COLOURS = {
    "table_zone": QColor(60, 220, 120),
    "head_zone": QColor(250, 210, 60),
    "raise_zone": QColor(90, 160, 255),
}


class LiveFrames(QObject):
    """Stands in for the player model: the console pushes tap frames, the view paints them."""

    frame_changed = Signal(object)  # ShownFrame
    playing_changed = Signal(bool)  # a live picture is always "playing": painted without smoothing

    def push(self, frame: ShownFrame) -> None:
        emit(self.frame_changed, frame)


class ZoneView(VideoView):
    layout_edited = Signal(object)  # Layout

    def __init__(self, frames: LiveFrames, parent: QWidget | None = None) -> None:
        super().__init__(frames, parent)  # type: ignore[arg-type]  # duck-typed: the two signals
        emit(frames.playing_changed, True)
        self._layout: Layout | None = None
        self._calibrating = False
        self._grab: Hit | None = None
        self._grab_from: Point | None = None
        self.highlight: set[int] = set()  # seats to stand out (vision voters)
        self.show_all_zones = False

    # ---- state ---------------------------------------------------------------------------------------

    @property
    def zone_layout(self) -> Layout | None:
        return self._layout

    def set_zone_layout(self, layout: Layout | None) -> None:
        self._layout = layout
        self.update()

    @property
    def calibrating(self) -> bool:
        return self._calibrating

    def set_calibrating(self, on: bool) -> None:
        self._calibrating = on
        self._grab = None
        if on:
            self.reset_zoom()
        self.update()

    def set_highlight(self, seats: set[int]) -> None:
        self.highlight = set(seats)
        self.update()

    # ---- coordinates ---------------------------------------------------------------------------------

    def to_frame(self, p: QPointF) -> Point | None:
        """Widget pixels → video-frame pixels of the layout (None without a picture or layout)."""
        rect = self.image_rect()
        if rect.isNull() or self._layout is None:
            return None
        w, h = self._layout.frame_size
        return ((p.x() - rect.left()) / rect.width() * w, (p.y() - rect.top()) / rect.height() * h)

    def to_widget(self, p: Point) -> QPointF:
        rect = self.image_rect()
        assert self._layout is not None
        w, h = self._layout.frame_size
        return QPointF(rect.left() + p[0] / w * rect.width(), rect.top() + p[1] / h * rect.height())

    def _px_to_frame(self, px: float) -> float:
        rect = self.image_rect()
        if rect.isNull() or self._layout is None:
            return px
        return px * self._layout.frame_size[0] / rect.width()

    # ---- painting ------------------------------------------------------------------------------------

    def _qpoly(self, poly: Polygon) -> QPolygonF:
        return QPolygonF([self.to_widget(p) for p in poly])

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if self._layout is None or self.image_rect().isNull():
            return
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        zones = ("table_zone", "head_zone", "raise_zone") if self._calibrating or self.show_all_zones else ()
        for s in self._layout.seats:
            for z in zones[1:]:
                col = ZONE_COLOURS[z]
                painter.setPen(QPen(col, 1.5, Qt.PenStyle.DashLine))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawPolygon(self._qpoly(s.zone(z)))
            col = QColor(255, 90, 60) if s.seat in self.highlight else ZONE_COLOURS["table_zone"]
            fill = QColor(col)
            fill.setAlpha(110 if s.seat in self.highlight else 45)
            painter.setPen(QPen(col, 2.0))
            painter.setBrush(QBrush(fill))
            painter.drawPolygon(self._qpoly(s.table_zone))
            self._label(painter, s.seat, s.table_zone)
            if self._calibrating:
                painter.setPen(QPen(QColor(255, 255, 255), 1.0))
                for z in zones:
                    painter.setBrush(QBrush(ZONE_COLOURS[z]))
                    for p in s.zone(z):
                        painter.drawEllipse(self.to_widget(p), 4.0, 4.0)
        painter.end()

    def _label(self, painter: QPainter, seat: int, poly: Polygon) -> None:
        x0, y0, x1, y1 = polygon_bbox(poly)
        c = self.to_widget(((x0 + x1) / 2, (y0 + y1) / 2))
        font = QFont(painter.font())
        font.setBold(True)
        font.setPointSizeF(max(9.0, min(18.0, self.image_rect().height() / 28)))
        painter.setFont(font)
        painter.setPen(QColor(0, 0, 0))
        painter.drawText(c + QPointF(-7, 7), str(seat))
        painter.setPen(QColor(255, 255, 255))
        painter.drawText(c + QPointF(-8, 6), str(seat))

    # ---- editing -------------------------------------------------------------------------------------

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if not self._calibrating or self._layout is None:
            super().mousePressEvent(event)
            return
        p = self.to_frame(event.position())
        if p is None or event.button() != Qt.MouseButton.LeftButton:
            return
        zones = ("table_zone", "head_zone", "raise_zone")
        self._grab = hit_test(self._layout, p, self._px_to_frame(HANDLE_PX), zones)
        self._grab_from = p
        event.accept()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if not self._calibrating:
            super().mouseMoveEvent(event)
            return
        if self._grab is None or self._layout is None or self._grab_from is None:
            return
        p = self.to_frame(event.position())
        if p is None:
            return
        g = self._grab
        if g.vertex >= 0:
            self._layout = move_vertex(self._layout, g.seat, g.zone, g.vertex, p)
        else:
            self._layout = move_zone(
                self._layout, g.seat, g.zone, p[0] - self._grab_from[0], p[1] - self._grab_from[1]
            )
            self._grab_from = p
        self.update()
        event.accept()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if not self._calibrating:
            super().mouseReleaseEvent(event)
            return
        if self._grab is not None and self._layout is not None:
            self.mouseMoveEvent(event)
            self._grab = None
            emit(self.layout_edited, self._layout)
        event.accept()

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        if not self._calibrating:
            super().mouseDoubleClickEvent(event)
