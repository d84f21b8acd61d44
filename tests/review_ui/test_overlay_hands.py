"""The "hands" overlay layer (``review_ui.overlays.paint_overlays``) drawn on an image: a shot raise in red,
a raise the analyser took for a peeking head (``night_motion`` ``raise_at_peek``) dashed in amber, and
nothing far from the frame's time."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QApplication

from gamelog.events import NightMotion, ShotRaise
from gamelog.nights import RAISE_AT_PEEK
from review_ui.i18n import LABELS, shape_name
from review_ui.overlays import HAND_NEAR_MS, paint_overlays

BOX = (40.0, 60.0, 120.0, 140.0)


def _paint(events: list[Any], t: int, voided: frozenset[str] = frozenset(), labels: Any = None) -> QImage:
    data: Any = SimpleNamespace(
        bundle=SimpleNamespace(events=events, layout=None), voided=set(voided), round_at=lambda t: None
    )
    img = QImage(200, 200, QImage.Format.Format_RGB32)
    img.fill(QColor(0, 0, 0))
    p = QPainter(img)
    if labels is None:
        paint_overlays(p, lambda x, y: QPointF(x, y), data, t, ["hands"])
    else:
        paint_overlays(p, lambda x, y: QPointF(x, y), data, t, ["hands"], labels=labels)
    p.end()
    return img


def _edge(img: QImage) -> list[tuple[int, int, int]]:
    """The colours along the box's left edge (x = 40), below where its tag is written."""
    return [img.pixelColor(40, y).getRgb()[:3] for y in range(80, 140)]


def _flag(t: int, box: Any = BOX) -> NightMotion:
    return NightMotion(
        t=t,
        src="vision",
        id="f",
        seat=10,
        kind=RAISE_AT_PEEK,
        until=t,
        conf=0.55,
        extra={"head_of": 9, "gesture": "point", "box": list(box) if isinstance(box, tuple) else box},
    )


def test_a_raise_taken_for_a_head_is_drawn_dashed_in_amber(qapp: QApplication) -> None:
    edge = _edge(_paint([_flag(72120)], 72120))
    amber = [c for c in edge if c[0] > 200 and 120 < c[1] < 220 and c[2] < 80]
    dark = [c for c in edge if max(c) < 40]
    assert amber and dark  # dashed: both the line's colour and gaps along one edge


def test_a_shot_raise_is_drawn_solid_red(qapp: QApplication) -> None:
    shot = ShotRaise(t=72120, src="vision", id="s", seat=10, gesture="gun", conf=0.9, box=BOX)
    edge = _edge(_paint([shot], 72120))
    assert all(c[0] > 200 and c[1] < 100 for c in edge)


def test_raises_far_from_the_frame_are_not_drawn(qapp: QApplication) -> None:
    edge = _edge(_paint([_flag(72120)], 72120 + HAND_NEAR_MS + 1))
    assert all(max(c) < 40 for c in edge)


def test_a_voided_flag_is_grey_and_a_malformed_box_is_not_drawn(qapp: QApplication) -> None:
    """A judge's void greys the flag like any voided hand; a hand-edited box that is not four numbers is
    skipped rather than breaking the paint."""
    edge = _edge(_paint([_flag(72120)], 72120, frozenset({"f"})))
    assert any(140 < c[0] < 180 and 140 < c[1] < 180 and 140 < c[2] < 180 for c in edge)
    assert not any(c[0] > 200 and c[2] < 80 for c in edge)
    for bad in ([40, 60, 120], ["a", 60, 120, 140], "40,60,120,140", [True, 60, 120, 140]):
        assert all(max(c) < 40 for c in _edge(_paint([_flag(72120, bad)], 72120))), bad


def test_the_tags_read_in_the_windows_language(qapp: QApplication) -> None:
    """The tags name the shape read, and the head a raise was taken for, through the window's labels; the
    events keep the English names."""
    asked: list[str] = []

    def ru(key: str) -> str:
        asked.append(key)
        return LABELS[key]["ru"]

    shot = ShotRaise(t=72120, src="vision", id="s", seat=10, gesture="gun", conf=0.9, box=BOX)
    _paint([shot, _flag(72120, (130.0, 60.0, 190.0, 140.0))], 72120, labels=ru)
    assert "shape_gun" in asked and "shape_point" in asked and "tag_at_peek" in asked
    tag = LABELS["tag_at_peek"]["ru"].format(seat=10, shape=shape_name(ru, "point"), head=9)
    assert tag == "10 указательный палец? голова 9"
    assert shape_name(ru, "thumb_up") == "большой палец вверх"
    assert shape_name(ru, "claw") == "claw"  # a shape from a newer analyser, as written
