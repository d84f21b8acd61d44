"""layout.json: both shapes, per-time layouts, geometry helpers, and validation errors that name the place."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import pytest

from gamelog.layout import (
    Layout,
    LayoutError,
    Layouts,
    SeatZones,
    distance_to_polygon,
    point_in_polygon,
    polygon_area,
    polygon_bbox,
    polygon_self_intersects,
    read_layout,
    write_layout,
)

W, H = 1920, 1080


def square(x: float, y: float, s: float = 40.0) -> list[list[float]]:
    return [[x, y], [x + s, y], [x + s, y + s], [x, y + s]]


def seat_obj(seat: int) -> dict[str, Any]:
    x = 100.0 + 150 * (seat - 1)
    return {
        "seat": seat,
        "table_zone": square(x, 700),
        "raise_zone": square(x, 300, 60),
        "head_zone": [[x, 500], [x + 50, 500], [x + 25, 560]],
    }


def layout_obj(n: int = 10, **kw: Any) -> dict[str, Any]:
    return {"frame_size": [W, H], "seats": [seat_obj(s) for s in range(1, n + 1)], **kw}


def write(tmp_path: Path, obj: object) -> Path:
    p = tmp_path / "layout.json"
    p.write_text(json.dumps(obj), encoding="utf-8")
    return p


def test_single_layout_shape(tmp_path: Path) -> None:
    lays = read_layout(write(tmp_path, layout_obj()))
    (lay,) = lays.layouts
    assert lay.frame_size == (W, H)
    assert lay.from_t == 0
    assert lay.seat_numbers == tuple(range(1, 11))
    assert lay.seat(3).table_zone == ((400.0, 700.0), (440.0, 700.0), (440.0, 740.0), (400.0, 740.0))


def test_list_shape_and_layout_at_time(tmp_path: Path) -> None:
    moved = layout_obj(from_t=1830000)
    moved["seats"][0]["table_zone"] = square(110, 710)
    obj = {"layouts": [moved, layout_obj(from_t=0)]}  # given out of order: sorted on reading
    lays = read_layout(write(tmp_path, obj))
    assert [lay.from_t for lay in lays.layouts] == [0, 1830000]
    assert lays.at(0).seat(1).table_zone[0] == (100.0, 700.0)
    assert lays.at(1829999).seat(1).table_zone[0] == (100.0, 700.0)
    assert lays.at(1830000).seat(1).table_zone[0] == (110.0, 710.0)
    assert lays.at(10**9).from_t == 1830000


def test_write_and_read_back_both_shapes(tmp_path: Path) -> None:
    one = read_layout(write(tmp_path, layout_obj()))
    out = tmp_path / "out.json"
    write_layout(out, one)
    assert "layouts" not in json.loads(out.read_text())
    assert read_layout(out) == one
    two = Layouts((one.layouts[0], Layout(frame_size=(3840, 2160), seats=one.layouts[0].seats, from_t=5000)))
    write_layout(out, two)
    assert len(json.loads(out.read_text())["layouts"]) == 2
    assert read_layout(out) == two


def test_other_seat_counts(tmp_path: Path) -> None:
    p = write(tmp_path, layout_obj(12))
    assert len(read_layout(p, seats=12).layouts[0].seats) == 12
    with pytest.raises(LayoutError, match="seat 11 is not a seat of a 10-seat table"):
        read_layout(p)


def _broken(mutate: Any) -> dict[str, Any]:
    obj = layout_obj()
    mutate(obj)
    return obj


def _set(seat: int, zone: str, poly: object) -> Any:
    def f(obj: dict[str, Any]) -> None:
        obj["seats"][seat - 1][zone] = poly

    return f


ERRORS = [
    ("missing seat", _broken(lambda o: o["seats"].pop(3)), r"seat 4 has no zones"),
    (
        "seat twice",
        _broken(lambda o: o["seats"].__setitem__(4, seat_obj(4))),
        r"seat 4 appears more than once",
    ),
    (
        "two points",
        _broken(_set(2, "table_zone", [[1, 1], [50, 50]])),
        r"seat 2 table_zone: polygon has 2 points",
    ),
    (
        "degenerate",
        _broken(_set(3, "raise_zone", [[0, 0], [100, 0], [200, 0.01]])),
        r"seat 3 raise_zone: .*degenerate",
    ),
    (
        "bow tie",
        _broken(_set(5, "head_zone", [[0, 0], [100, 100], [100, 0], [0, 150]])),
        r"seat 5 head_zone: polygon crosses itself",
    ),
    (
        "outside",
        _broken(_set(6, "table_zone", square(1900, 700, 40))),
        r"seat 6 table_zone: point 1 .* outside the 1920x1080",
    ),
    (
        "not a point",
        _broken(_set(7, "table_zone", [[1, 1], [2], [3, 3]])),
        r"seat 7 table_zone: point 1 must be",
    ),
    (
        "nan",
        _broken(_set(7, "table_zone", [[1, 1], [2, float("nan")], [3, 3]])),
        r"seat 7 table_zone: point 1",
    ),
    ("no zone", _broken(lambda o: o["seats"][7].pop("head_zone")), r"seat 8 head_zone: missing"),
    ("frame", _broken(lambda o: o.__setitem__("frame_size", [1920])), r"'frame_size' must be"),
    (
        "seat number",
        _broken(lambda o: o["seats"][0].__setitem__("seat", "one")),
        r"seats\[0\]: 'seat' must be",
    ),
]


@pytest.mark.parametrize(("obj", "pattern"), [(e[1], e[2]) for e in ERRORS], ids=[e[0] for e in ERRORS])
def test_validation_errors_name_file_seat_and_zone(tmp_path: Path, obj: dict[str, Any], pattern: str) -> None:
    p = write(tmp_path, obj)
    with pytest.raises(LayoutError) as info:
        read_layout(p)
    msg = str(info.value)
    assert msg.startswith(str(p))
    assert re.search(pattern, msg), msg


def test_list_errors_name_the_layout(tmp_path: Path) -> None:
    second = layout_obj(from_t=500)
    second["seats"][1]["raise_zone"] = [[1, 1], [2, 2]]
    p = write(tmp_path, {"layouts": [layout_obj(from_t=0), second]})
    with pytest.raises(LayoutError, match=r"layouts\[1\]: seat 2 raise_zone: polygon has 2 points"):
        read_layout(p)
    p = write(tmp_path, {"layouts": [layout_obj(from_t=0), layout_obj()]})
    with pytest.raises(LayoutError, match=r"layouts\[1\]: 'from_t' is missing"):
        read_layout(p)
    p = write(tmp_path, {"layouts": [layout_obj(from_t=0), layout_obj(from_t=0)]})
    with pytest.raises(LayoutError, match="same from_t"):
        read_layout(p)


def test_bad_json_names_line_and_column(tmp_path: Path) -> None:
    p = tmp_path / "layout.json"
    p.write_text('{\n  "frame_size": [1920, 1080],\n  "seats": [,]\n}', encoding="utf-8")
    with pytest.raises(LayoutError, match=r"layout.json:3:\d+: invalid JSON"):
        read_layout(p)


def test_small_tolerance_at_the_frame_edge(tmp_path: Path) -> None:
    obj = _broken(_set(10, "table_zone", [[1880, 1040], [1921.5, 1040], [1921.5, 1081], [1880, 1081]]))
    assert read_layout(write(tmp_path, obj)).layouts[0].seat(10).table_zone[1] == (1921.5, 1040.0)


# ---- geometry ----------------------------------------------------------------------------------------

SQ = ((0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0))
L_SHAPE = ((0.0, 0.0), (10.0, 0.0), (10.0, 4.0), (4.0, 4.0), (4.0, 10.0), (0.0, 10.0))


@pytest.mark.parametrize(
    ("point", "poly", "inside"),
    [
        ((5, 5), SQ, True),
        ((10, 5), SQ, True),  # on an edge
        ((0, 0), SQ, True),  # a corner
        ((10.01, 5), SQ, False),
        ((-1, -1), SQ, False),
        ((2, 8), L_SHAPE, True),
        ((8, 8), L_SHAPE, False),  # in the notch
        ((8, 2), L_SHAPE, True),
    ],
)
def test_point_in_polygon(
    point: tuple[float, float], poly: tuple[tuple[float, float], ...], inside: bool
) -> None:
    assert point_in_polygon(point, poly) is inside


@pytest.mark.parametrize(
    ("point", "poly", "distance"),
    [
        ((13, 5), SQ, 3.0),  # beside an edge
        ((13, 14), SQ, 5.0),  # beyond a corner: to the corner
        ((10, 5), SQ, 0.0),  # on the outline
        ((5, 2), SQ, 2.0),  # inside: to the nearest edge
        ((8, 8), L_SHAPE, 4.0),  # in the notch: 4 from both inner edges
    ],
)
def test_distance_to_polygon(
    point: tuple[float, float], poly: tuple[tuple[float, float], ...], distance: float
) -> None:
    assert distance_to_polygon(point, poly) == pytest.approx(distance)


def test_area_bbox_and_self_intersection() -> None:
    assert polygon_area(SQ) == 100.0
    assert polygon_area(tuple(reversed(SQ))) == 100.0
    assert polygon_area(L_SHAPE) == 64.0
    assert polygon_bbox(L_SHAPE) == (0.0, 0.0, 10.0, 10.0)
    assert not polygon_self_intersects(L_SHAPE)
    assert polygon_self_intersects(((0, 0), (10, 10), (10, 0), (0, 10)))
    circle = tuple(
        (50 + 40 * math.cos(a / 20 * math.tau), 50 + 40 * math.sin(a / 20 * math.tau)) for a in range(20)
    )
    assert not polygon_self_intersects(circle)
    assert abs(polygon_area(circle) - math.pi * 1600) < 0.05 * math.pi * 1600


def test_layouts_need_distinct_starts() -> None:
    lay = Layout(frame_size=(10, 10), seats=(SeatZones(1, SQ, SQ, SQ),))
    with pytest.raises(ValueError, match="same from_t"):
        Layouts((lay, lay))
    with pytest.raises(ValueError):
        Layouts(())
