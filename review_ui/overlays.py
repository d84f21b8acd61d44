"""Overlays on the video, one layer each: seat zones, hands seen by vision, the vote window, and the big
"before / after Спасибо" indicator.

:func:`paint_overlays` draws onto any QPainter through a mapping from frame pixels to the target, so the
same code paints the review window (zoomed and panned) and the exported clip's frames (on a QImage, off the
UI thread: QPainter on a QImage is allowed there). :class:`OverlayView` is the player's
:class:`~review_ui.video_view.VideoView` with the overlays on top; it also turns a click on a seat's zone
into seat focus.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QMouseEvent, QPainter, QPaintEvent, QPen, QPolygonF
from PySide6.QtWidgets import QWidget

from gamelog.events import HandDown, NightMotion, ShotRaise
from gamelog.layout import point_in_polygon
from gamelog.nights import RAISE_AT_PEEK
from review_ui.i18n import english, round_name, shape_name
from review_ui.player_model import PlayerModel
from review_ui.player_widget import format_time
from review_ui.review_data import ReviewData, RoundView
from review_ui.review_session import ReviewSession
from review_ui.video_view import VideoView

LAYERS = ("zones", "hands", "window", "thanks", "timecode")
DEFAULT_LAYERS = frozenset({"zones", "hands", "window", "thanks"})
HAND_NEAR_MS = 400  # a vision hand box is shown this long around its time
ZONE_COLORS = {
    "table_zone": QColor(60, 200, 90),
    "raise_zone": QColor(240, 160, 30),
    "head_zone": QColor(80, 140, 240),
}

Mapper = Callable[[float, float], QPointF]


@dataclass(frozen=True)
class Thanks:
    """Where ``t`` stands against a vote window's close ("Спасибо")."""

    before: bool
    delta_ms: int
    by_voice: bool


def thanks_at(rnd: RoundView | None, t: int) -> Thanks | None:
    if rnd is None:
        return None
    return Thanks(t < rnd.close_t, t - rnd.close_t, rnd.onset_t is not None and rnd.onset_t == rnd.close_t)


def _poly(points: Iterable[tuple[float, float]], to: Mapper) -> QPolygonF:
    return QPolygonF([to(x, y) for x, y in points])


def paint_overlays(
    p: QPainter,
    to: Mapper,
    data: ReviewData | None,
    t: int,
    layers: Iterable[str],
    *,
    focus: tuple[int, ...] = (),
    labels: Callable[[str], str] = english,
    area: QRectF | None = None,
) -> None:
    """Paint the chosen layers for media time ``t``; ``to`` maps frame pixels to the target."""
    on = set(layers)
    if data is None:
        return
    full = area if area is not None else QRectF(p.viewport())
    text_k = max(1.0, full.height() / 600)
    p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    if "zones" in on and data.bundle.layout is not None:
        layout = data.bundle.layout.at(t)
        for seat in layout.seats:
            strong = seat.seat in focus
            for name, color in ZONE_COLORS.items():
                c = QColor(color)
                c.setAlpha(230 if strong else 150)
                p.setPen(QPen(c, 3 if strong else 1.5))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawPolygon(_poly(seat.zone(name), to))
            xs = [x for x, _ in seat.table_zone]
            ys = [y for _, y in seat.table_zone]
            centre = to(sum(xs) / len(xs), sum(ys) / len(ys))
            _tag(
                p,
                centre,
                str(seat.seat),
                QColor(255, 255, 0) if strong else QColor(255, 255, 255),
                14 * text_k,
            )
    if "hands" in on:
        for ev in data.bundle.events:
            if ev.src != "vision" or abs(ev.t - t) > HAND_NEAR_MS:
                continue
            if isinstance(ev, HandDown | ShotRaise) and ev.box is not None:
                x0, y0, x1, y1 = ev.box
                color = QColor(60, 220, 90) if isinstance(ev, HandDown) else QColor(240, 60, 50)
                if ev.id is not None and ev.id in data.voided:
                    color = QColor(160, 160, 160)
                p.setPen(QPen(color, 2))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawRect(QRectF(to(x0, y0), to(x1, y1)))
                _tag(
                    p,
                    to(x0, y0 - 4),
                    f"{ev.seat} {shape_name(labels, ev.gesture)} {ev.conf:.2f}",
                    color,
                    11 * text_k,
                )
            elif isinstance(ev, NightMotion) and ev.kind == RAISE_AT_PEEK and (box := _box(ev.extra)):
                # A raise taken for a peeking head: not a shot, shown dashed for the judge to look at.
                x0, y0, x1, y1 = box
                color = QColor(255, 170, 0)
                if ev.id is not None and ev.id in data.voided:
                    color = QColor(160, 160, 160)
                p.setPen(QPen(color, 2, Qt.PenStyle.DashLine))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawRect(QRectF(to(x0, y0), to(x1, y1)))
                shape = shape_name(labels, str(ev.extra.get("gesture", "hand")))
                _tag(
                    p,
                    to(x0, y0 - 4),
                    labels("tag_at_peek").format(
                        seat=ev.seat, shape=shape, head=ev.extra.get("head_of", "?")
                    ),
                    color,
                    11 * text_k,
                )
    target = area if area is not None else QRectF(p.viewport())
    k = max(1.0, target.height() / 600)  # text grows with big targets (an exported 1080p frame)
    rnd = data.round_at(t)
    if "window" in on and rnd is not None:
        text = (
            f"{labels('vote_window')}: {round_name(labels, rnd.round)} → {rnd.candidate}   "
            f"{format_time(rnd.call_t)[3:]} – {format_time(rnd.close_t)[3:]}"
        )
        _banner(p, QPointF(target.left() + 8, target.bottom() - 40 * k), text, QColor(20, 60, 160), k)
    th = thanks_at(rnd, t)
    if "thanks" in on and th is not None:
        word = labels("before_thanks") if th.before else labels("after_thanks")
        src = labels("by_voice") if th.by_voice else labels("by_key")
        color = QColor(30, 150, 50) if th.before else QColor(200, 30, 30)
        _big(p, target, f"{word}  {th.delta_ms:+d} {labels('ms')}", src, color)
    if "timecode" in on:
        _banner(p, QPointF(target.left() + 8, target.top() + 8), format_time(t), QColor(0, 0, 0), k)


def _box(extra: Mapping[str, object]) -> tuple[float, float, float, float] | None:
    """An event's extra ``box`` as four numbers, or None when it is missing or malformed (a hand-edited
    ``vision.jsonl``: extras are kept as read)."""
    box = extra.get("box")
    if not isinstance(box, list | tuple) or len(box) != 4:
        return None
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in box):
        return None
    return (float(box[0]), float(box[1]), float(box[2]), float(box[3]))


def _tag(p: QPainter, at: QPointF, text: str, color: QColor, size: float) -> None:
    f = QFont()
    f.setPixelSize(round(size))
    f.setBold(True)
    p.setFont(f)
    r = p.fontMetrics().boundingRect(text)
    box = QRectF(at.x() - 2, at.y() - r.height(), r.width() + 6, r.height() + 2)
    p.fillRect(box, QColor(0, 0, 0, 160))
    p.setPen(color)
    p.drawText(box, Qt.AlignmentFlag.AlignCenter, text)


def _banner(p: QPainter, at: QPointF, text: str, color: QColor, k: float = 1.0) -> None:
    f = QFont()
    f.setPixelSize(round(16 * k))
    f.setBold(True)
    p.setFont(f)
    r = p.fontMetrics().boundingRect(text)
    box = QRectF(at.x(), at.y(), r.width() + 16 * k, r.height() + 8 * k)
    bg = QColor(color)
    bg.setAlpha(200)
    p.fillRect(box, bg)
    p.setPen(QColor(255, 255, 255))
    p.drawText(box, Qt.AlignmentFlag.AlignCenter, text)


def _big(p: QPainter, area: QRectF, text: str, sub: str, color: QColor) -> None:
    f = QFont()
    f.setPixelSize(max(18, int(area.height() / 16)))
    f.setBold(True)
    p.setFont(f)
    r = p.fontMetrics().boundingRect(text)
    w, h = r.width() + 30, r.height() * 1.9
    box = QRectF(area.right() - w - 10, area.top() + 10, w, h)
    bg = QColor(color)
    bg.setAlpha(215)
    p.fillRect(box, bg)
    p.setPen(QColor(255, 255, 255))
    p.drawText(QRectF(box.left(), box.top() + 2, w, h * 0.6), Qt.AlignmentFlag.AlignCenter, text)
    f.setPixelSize(max(11, int(f.pixelSize() * 0.45)))
    f.setBold(False)
    p.setFont(f)
    p.drawText(QRectF(box.left(), box.top() + h * 0.55, w, h * 0.42), Qt.AlignmentFlag.AlignCenter, sub)


class OverlayView(VideoView):
    """The video view with overlays; a click (without drag) on a seat's zones focuses that seat."""

    def __init__(self, model: PlayerModel, session: ReviewSession, labels: Callable[[str], str]) -> None:
        super().__init__(model)
        self._model = model
        self._session = session
        self._labels = labels
        self.layers: set[str] = set(DEFAULT_LAYERS)
        self._press: QPointF | None = None
        session.data_changed.connect(lambda *_: self.update())
        session.focus_changed.connect(lambda *_: self.update())

    def set_layer(self, name: str, on: bool) -> None:
        if on:
            self.layers.add(name)
        else:
            self.layers.discard(name)
        self.update()

    def frame_point(self, pos: QPointF) -> tuple[float, float] | None:
        rect, image = self.image_rect(), self.image
        if rect.isNull() or image is None:
            return None
        return (
            (pos.x() - rect.left()) * image.width() / rect.width(),
            (pos.y() - rect.top()) * image.height() / rect.height(),
        )

    def seat_at(self, pos: QPointF) -> int | None:
        data, pt = self._session.data, self.frame_point(pos)
        if data is None or pt is None or data.bundle.layout is None:
            return None
        for seat in data.bundle.layout.at(self._model.position_ms).seats:
            if any(point_in_polygon(pt, seat.zone(z)) for z in ZONE_COLORS):
                return seat.seat
        return None

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        rect, image = self.image_rect(), self.image
        if rect.isNull() or image is None:
            return
        sx, sy = rect.width() / image.width(), rect.height() / image.height()

        def to(x: float, y: float) -> QPointF:
            return QPointF(rect.left() + x * sx, rect.top() + y * sy)

        p = QPainter(self)
        area = rect.intersected(QRectF(self.rect()))
        paint_overlays(
            p,
            to,
            self._session.data,
            self._model.position_ms,
            self.layers,
            focus=self._session.focus,
            labels=self._labels,
            area=area,
        )
        p.end()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self._press = event.position()
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        press, self._press = self._press, None
        super().mouseReleaseEvent(event)
        if press is not None and (event.position() - press).manhattanLength() < 4:
            seat = self.seat_at(event.position())
            if seat is not None:
                self._session.toggle_focus(seat)


def widget_labels(tr: Callable[..., str]) -> Callable[[str], str]:
    return lambda key: tr(key)


__all__ = ["LAYERS", "OverlayView", "QWidget", "paint_overlays", "thanks_at"]
