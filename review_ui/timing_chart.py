"""A vote round's timing at a glance: for each seat, when its hand landed against "Спасибо".

One row per seat, a vertical line at the closing time (the spoken "Спасибо", else the keystroke), and a
dot per landing: green to the left (in time), red to the right (late). A green dot is filled when the referee
counted the seat's vote in this round and hollow when it did not (a *touch* set aside, a second vote in the
round, a tied player's hand); a judge's void makes it hollow and grey. The keystroke is drawn as
a dashed line when a voice onset closed the window earlier. A click on a dot jumps the player there.
``render_chart`` paints the same picture into a QImage for the protest report.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QWidget

from review_ui.i18n import english, round_name
from review_ui.player_widget import format_time
from review_ui.review_data import RoundView

RANGE_MS = (-3000, 1500)
TITLE_H = 18
LEFT = 36


def _x(delta: float, rect: QRectF) -> float:
    lo, hi = RANGE_MS
    d = min(max(delta, lo), hi)
    return rect.left() + LEFT + (d - lo) * (rect.width() - LEFT - 8) / (hi - lo)


def paint_round(
    p: QPainter,
    rect: QRectF,
    rnd: RoundView | None,
    seats: tuple[int, ...],
    empty: str,
    labels: Callable[[str], str] = english,
) -> None:
    p.fillRect(rect, QColor(255, 255, 255))
    if rnd is None:
        p.setPen(QColor(120, 120, 120))
        p.drawText(rect, Qt.AlignmentFlag.AlignCenter, empty)
        return
    name = f"{round_name(labels, rnd.round)} → {rnd.candidate}"
    title = f"{name}   «Спасибо» {format_time(rnd.close_t)[3:]}" + (
        f" (⌨ {rnd.keystroke_t - rnd.close_t:+d} {labels('ms')})" if rnd.keystroke_t != rnd.close_t else ""
    )
    p.setPen(QColor(20, 20, 20))
    p.drawText(
        QRectF(rect.left() + 4, rect.top(), rect.width() - 8, TITLE_H), Qt.AlignmentFlag.AlignVCenter, title
    )
    rect = QRectF(rect.left(), rect.top() + TITLE_H, rect.width(), rect.height() - TITLE_H)
    row_h = (rect.height() - 18) / max(1, len(seats))
    x0 = _x(0, rect)
    p.fillRect(QRectF(x0, rect.top(), rect.right() - x0, rect.height() - 18), QColor(255, 225, 225))
    p.setPen(QPen(QColor(20, 60, 160), 2))
    p.drawLine(QPointF(x0, rect.top()), QPointF(x0, rect.bottom() - 18))
    if rnd.keystroke_t != rnd.close_t:
        xk = _x(rnd.keystroke_t - rnd.close_t, rect)
        p.setPen(QPen(QColor(20, 60, 160), 1, Qt.PenStyle.DashLine))
        p.drawLine(QPointF(xk, rect.top()), QPointF(xk, rect.bottom() - 18))
    p.setPen(QColor(90, 90, 90))
    for k in range(RANGE_MS[0], RANGE_MS[1] + 1, 500):
        x = _x(k, rect)
        p.drawLine(QPointF(x, rect.bottom() - 18), QPointF(x, rect.bottom() - 14))
        if k % 1000 == 0:
            p.drawText(QPointF(x - 10, rect.bottom() - 3), f"{k / 1000:+.0f}s" if k else "0")
    for i, seat in enumerate(seats):
        y = rect.top() + (i + 0.5) * row_h
        mark = (
            "✓"
            if seat in rnd.voters and seat not in rnd.defaulted
            else ("·" if seat in rnd.defaulted else "")
        )
        p.setPen(QColor(40, 40, 40))
        p.drawText(
            QRectF(rect.left(), y - row_h / 2, LEFT - 4, row_h),
            Qt.AlignmentFlag.AlignVCenter,
            f"{seat}{mark}",
        )
        for landing in rnd.landings:
            if landing.seat != seat:
                continue
            color = QColor(40, 160, 60) if landing.delta_ms < 0 else QColor(210, 40, 40)
            x = _x(landing.delta_ms, rect)
            p.setPen(QPen(color.darker(130), 1))
            p.setBrush(color)
            if landing.voided:  # a judge voided it: hollow and grey
                p.setPen(QPen(QColor(150, 150, 150), 2))
                p.setBrush(Qt.BrushStyle.NoBrush)
            elif landing.delta_ms < 0 and (landing.seat not in rnd.voters or landing.seat in rnd.defaulted):
                p.setPen(QPen(color, 2))  # in time but not counted here: hollow
                p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawEllipse(QPointF(x, y), min(5.0, row_h / 2.5), min(5.0, row_h / 2.5))
            p.setPen(QColor(40, 40, 40))
            p.drawText(QPointF(x + 7, y + 4), f"{landing.delta_ms:+d}" + (" ✗" if landing.voided else ""))


def render_chart(rnd: RoundView, seats: tuple[int, ...], size: tuple[int, int] = (520, 260)) -> QImage:
    image = QImage(size[0], size[1], QImage.Format.Format_RGB32)
    image.fill(QColor(255, 255, 255))
    p = QPainter(image)
    paint_round(p, QRectF(0, 0, size[0], size[1]), rnd, seats, "")
    p.end()
    return image


class TimingChart(QWidget):
    def __init__(
        self,
        on_jump: Callable[[int], None],
        empty_text: Callable[[], str],
        labels: Callable[[str], str] = english,
    ) -> None:
        super().__init__()
        self._labels = labels
        self._round: RoundView | None = None
        self._seats: tuple[int, ...] = tuple(range(1, 11))
        self._on_jump = on_jump
        self._empty = empty_text
        self.setMinimumHeight(170)

    @property
    def round(self) -> RoundView | None:
        return self._round

    def set_round(self, rnd: RoundView | None, seats: tuple[int, ...]) -> None:
        self._round = rnd
        self._seats = seats
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        paint_round(p, QRectF(self.rect()), self._round, self._seats, self._empty(), self._labels)
        p.end()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        rnd = self._round
        if rnd is None:
            return
        full = QRectF(self.rect())
        rect = QRectF(full.left(), full.top() + TITLE_H, full.width(), full.height() - TITLE_H)
        row_h = (rect.height() - 18) / max(1, len(self._seats))
        best: tuple[float, int] | None = None
        for landing in rnd.landings:
            if landing.seat not in self._seats:
                continue
            y = rect.top() + (self._seats.index(landing.seat) + 0.5) * row_h
            d = abs(_x(landing.delta_ms, rect) - event.position().x()) + abs(y - event.position().y())
            if d < 14 and (best is None or d < best[0]):
                best = (d, landing.t)
        self._on_jump(best[1] if best is not None else rnd.close_t)
