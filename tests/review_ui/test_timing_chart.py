"""The vote round's timing chart: a landing the referee counted is a filled dot, one in time that it did not
count (a touch set aside, a second vote) a hollow one, a late one red."""

from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication

from review_ui.review_data import Landing, RoundView
from review_ui.timing_chart import TITLE_H, _x, render_chart

SEATS = (1, 2, 3)
SIZE = (520, 260)


def _round() -> RoundView:
    """Seat 1 counted (landed 1.5 s before the close), seat 3's hand 1.9 s before it not counted (a touch)
    and its fist 0.4 s after it (late); seat 2 defaulted."""

    def land(seat: int, delta: int) -> Landing:
        return Landing(seat, 10_000 + delta, delta, "thumb_up", 0.9, f"h{seat}{delta}", None)

    return RoundView(
        day=1,
        round="revote",
        candidate=6,
        call_t=5_000,
        close_t=10_000,
        keystroke_t=10_000,
        end_t=14_000,
        stop_ref=None,
        onset_t=None,
        voters=(1,),
        late=(3,),
        defaulted=(),
        source="vision",
        count=1,
        announced=1,
        landings=(land(1, -1500), land(3, -1900), land(3, 400)),
    )


def _centre(seat: int, delta: int) -> tuple[int, int]:
    rect = QRectF(0, TITLE_H, SIZE[0], SIZE[1] - TITLE_H)
    row_h = (rect.height() - 18) / len(SEATS)
    return round(_x(delta, rect)), round(rect.top() + (SEATS.index(seat) + 0.5) * row_h)


def test_counted_landings_are_filled_and_uncounted_ones_hollow(qapp: QApplication) -> None:
    image = render_chart(_round(), SEATS, SIZE)
    counted = QColor(image.pixel(*_centre(1, -1500)))
    touch = QColor(image.pixel(*_centre(3, -1900)))
    late = QColor(image.pixel(*_centre(3, 400)))
    assert counted.green() > 140 and counted.red() < 80  # filled green
    assert touch.red() > 240 and touch.green() > 240 and touch.blue() > 240  # hollow: the chart's white
    assert late.red() > 180 and late.green() < 80  # filled red
