"""Seat focus: a zoomed view of up to four seats' zones next to the full table, in step with the player.

Each tile crops the frame on screen to the bounding box of the seat's table and head zones with a margin,
so a judge sees the seat's hand and head large while the main view keeps the whole table. Seats are chosen
by clicking a seat on the video, its lane name on the timeline, or its number key (0 = 10).
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPaintEvent
from PySide6.QtWidgets import QWidget

from gamelog.layout import polygon_bbox
from review_ui.decoder_worker import ShownFrame
from review_ui.i18n import Language
from review_ui.player_model import PlayerModel
from review_ui.review_session import ReviewSession

MARGIN = 0.15


def seat_rect(session: ReviewSession, seat: int, t: int, size: tuple[int, int]) -> QRect | None:
    data = session.data
    if data is None or data.bundle.layout is None:
        return None
    try:
        zones = data.bundle.layout.at(t).seat(seat)
    except KeyError:
        return None
    boxes = [polygon_bbox(zones.zone(z)) for z in ("table_zone", "head_zone")]
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    mx, my = (x1 - x0) * MARGIN, (y1 - y0) * MARGIN
    r = QRect(int(x0 - mx), int(y0 - my), int(x1 - x0 + 2 * mx), int(y1 - y0 + 2 * my))
    return r.intersected(QRect(0, 0, size[0], size[1]))


class SeatFocus(QWidget):
    def __init__(self, session: ReviewSession, model: PlayerModel, language: Language) -> None:
        super().__init__()
        self._session = session
        self._model = model
        self._lang = language
        self._frame: ShownFrame | None = None
        self.setMinimumWidth(220)
        model.frame_changed.connect(self._on_frame)
        session.focus_changed.connect(self._on_focus)
        self._on_focus(session.focus)

    def _on_frame(self, frame: ShownFrame) -> None:
        self._frame = frame
        if self._session.focus:
            self.update()

    def _on_focus(self, seats: object) -> None:
        self.setVisible(bool(self._session.focus))
        self.update()

    def crops(self) -> list[tuple[int, QImage]]:
        """The focused seats' crops of the frame on screen (what the tiles show)."""
        if self._frame is None:
            return []
        image = self._frame.image
        out = []
        for seat in self._session.focus:
            r = seat_rect(self._session, seat, self._frame.pts_ms, (image.width(), image.height()))
            if r is not None and not r.isEmpty():
                out.append((seat, image.copy(r)))
        return out

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.fillRect(self.rect(), QColor(16, 16, 16))
        crops = self.crops()
        n = max(1, len(crops))
        cols = 1 if n == 1 else 2
        rows = (n + cols - 1) // cols
        w, h = self.width() / cols, self.height() / rows
        p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
        for i, (seat, img) in enumerate(crops):
            cell = QRectF((i % cols) * w, (i // cols) * h, w, h).adjusted(2, 2, -2, -2)
            fit = min(cell.width() / img.width(), cell.height() / img.height())
            tw, th = img.width() * fit, img.height() * fit
            target = QRectF(cell.center().x() - tw / 2, cell.center().y() - th / 2, tw, th)
            p.drawImage(target, img)
            p.fillRect(QRectF(cell.left(), cell.top(), 64, 20), QColor(0, 0, 0, 170))
            p.setPen(QColor(255, 255, 0))
            p.drawText(
                QRectF(cell.left(), cell.top(), 64, 20),
                Qt.AlignmentFlag.AlignCenter,
                self._lang.tr("seat_n", n=seat),
            )
        if not crops:
            p.setPen(QColor(180, 180, 180))
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, self._lang.tr("focus_hint"))
        p.end()
