"""Seat layout of a bundle (``layout.json``): per seat, a table zone, a raise zone and a head zone.

Zones are polygons in pixels of the video frame, as tuples of ``(x, y)`` points. A layout may change
during a game (the camera was bumped): ``{"layouts": [{..., "from_t": 0}, {..., "from_t": 1830000}]}``;
:meth:`Layouts.at` gives the layout in force at a media time. The single-layout shape
``{"frame_size": [w, h], "seats": [...]}`` is read as one layout from ``t = 0``.

Pure geometry on tuples (stdlib only); ``vision`` builds its masks and crops on top of it.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeAlias

from gamelog.fsio import atomic_write_text

Point: TypeAlias = tuple[float, float]
Polygon: TypeAlias = tuple[Point, ...]
ZONES: tuple[str, ...] = ("table_zone", "raise_zone", "head_zone")
DEFAULT_SEATS = 10
MIN_AREA_PX2 = 4.0  # a zone smaller than this is a slip of the mouse, not a zone
FRAME_TOLERANCE_PX = 2.0  # points may stick out of the frame this much (rounding, a drag to the edge)


class LayoutError(ValueError):
    """``layout.json`` cannot be used; the message names the file, the layout, the seat and the zone."""


@dataclass(frozen=True)
class SeatZones:
    seat: int
    table_zone: Polygon
    raise_zone: Polygon
    head_zone: Polygon

    def zone(self, name: str) -> Polygon:
        if name not in ZONES:
            raise KeyError(name)
        poly: Polygon = getattr(self, name)
        return poly


@dataclass(frozen=True)
class Layout:
    frame_size: tuple[int, int]
    seats: tuple[SeatZones, ...]
    from_t: int = 0

    def seat(self, seat: int) -> SeatZones:
        for s in self.seats:
            if s.seat == seat:
                return s
        raise KeyError(f"no seat {seat} in the layout")

    @property
    def seat_numbers(self) -> tuple[int, ...]:
        return tuple(s.seat for s in self.seats)


@dataclass(frozen=True)
class Layouts:
    """Layouts in force from their ``from_t`` on, sorted by ``from_t`` (sorted here if given unsorted)."""

    layouts: tuple[Layout, ...]

    def __post_init__(self) -> None:
        if not self.layouts:
            raise ValueError("Layouts needs at least one layout")
        ordered = tuple(sorted(self.layouts, key=lambda lay: lay.from_t))
        starts = [lay.from_t for lay in ordered]
        if len(set(starts)) != len(starts):
            raise ValueError(f"two layouts start at the same from_t: {starts}")
        object.__setattr__(self, "layouts", ordered)

    def at(self, t: int) -> Layout:
        """The layout in force at media time ``t`` (the first one before its ``from_t``)."""
        current = self.layouts[0]
        for lay in self.layouts[1:]:
            if lay.from_t <= t:
                current = lay
            else:
                break
        return current

    @classmethod
    def single(cls, layout: Layout) -> Layouts:
        return cls((layout,))


# ---- geometry ----------------------------------------------------------------------------------------


def polygon_area(poly: Polygon) -> float:
    """Unsigned area (shoelace formula) in px²."""
    n = len(poly)
    s = 0.0
    for i in range(n):
        x0, y0 = poly[i]
        x1, y1 = poly[(i + 1) % n]
        s += x0 * y1 - x1 * y0
    return abs(s) / 2.0


def polygon_bbox(poly: Polygon) -> tuple[float, float, float, float]:
    """``(x0, y0, x1, y1)``, the smallest axis-aligned box holding the polygon."""
    if not poly:
        raise ValueError("empty polygon")
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    return (min(xs), min(ys), max(xs), max(ys))


def point_in_polygon(point: Point, poly: Polygon) -> bool:
    """Even-odd rule; points exactly on an edge count as inside."""
    x, y = point
    n = len(poly)
    inside = False
    for i in range(n):
        x0, y0 = poly[i]
        x1, y1 = poly[(i + 1) % n]
        if _on_segment((x, y), (x0, y0), (x1, y1)):
            return True
        if (y0 > y) != (y1 > y):
            cross_x = x0 + (y - y0) * (x1 - x0) / (y1 - y0)
            if x < cross_x:
                inside = not inside
    return inside


def distance_to_polygon(point: Point, poly: Polygon) -> float:
    """The distance from a point to a polygon's outline (its nearest edge), in the polygon's units."""
    best = float("inf")
    for (ax, ay), (bx, by) in zip(poly, [*poly[1:], poly[0]], strict=True):
        dx, dy = bx - ax, by - ay
        seg = dx * dx + dy * dy
        u = 0.0 if seg == 0 else max(0.0, min(1.0, ((point[0] - ax) * dx + (point[1] - ay) * dy) / seg))
        best = min(best, math.hypot(point[0] - ax - u * dx, point[1] - ay - u * dy))
    return best


def polygon_self_intersects(poly: Polygon) -> bool:
    """True when two non-adjacent edges touch or cross (O(n²); zones have a handful of points)."""
    n = len(poly)
    if n < 4:
        return False
    edges = [(poly[i], poly[(i + 1) % n]) for i in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            if j == i + 1 or (i == 0 and j == n - 1):
                continue  # adjacent edges share a corner
            if _segments_touch(edges[i][0], edges[i][1], edges[j][0], edges[j][1]):
                return True
    return False


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _on_segment(p: Point, a: Point, b: Point) -> bool:
    if abs(_cross(a, b, p)) > 1e-9 * max(1.0, abs(b[0] - a[0]) + abs(b[1] - a[1])):
        return False
    return min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])


def _segments_touch(a: Point, b: Point, c: Point, d: Point) -> bool:
    d1 = _cross(c, d, a)
    d2 = _cross(c, d, b)
    d3 = _cross(a, b, c)
    d4 = _cross(a, b, d)
    if ((d1 > 0 > d2) or (d1 < 0 < d2)) and ((d3 > 0 > d4) or (d3 < 0 < d4)):
        return True
    return _on_segment(a, c, d) or _on_segment(b, c, d) or _on_segment(c, a, b) or _on_segment(d, a, b)


# ---- reading and writing -----------------------------------------------------------------------------


def read_layout(path: str | Path, *, seats: int | None = None) -> Layouts:
    """Read and validate ``layout.json``. ``seats`` is the number of seats the game has (10 when None).

    Raises :class:`LayoutError` naming the file, the layout, the seat and the zone, and
    :class:`FileNotFoundError` when the file is missing.
    """
    p = Path(path)
    raw = p.read_bytes()
    try:
        obj = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as e:
        raise LayoutError(f"{p}: not UTF-8 text (byte {e.start})") from None
    except json.JSONDecodeError as e:
        raise LayoutError(f"{p}:{e.lineno}:{e.colno}: invalid JSON: {e.msg}") from None
    return layouts_from_json(obj, seats=seats, where=str(p))


def layouts_from_json(obj: object, *, seats: int | None = None, where: str = "layout.json") -> Layouts:
    """Validate a decoded ``layout.json`` object (either shape)."""
    expected = DEFAULT_SEATS if seats is None else seats
    if not isinstance(obj, dict):
        raise LayoutError(f"{where}: expected a JSON object, got {type(obj).__name__}")
    if "layouts" in obj:
        items = obj["layouts"]
        if not isinstance(items, list) or not items:
            raise LayoutError(f"{where}: 'layouts' must be a non-empty list")
        layouts = [
            _layout_from_json(item, expected, f"{where}: layouts[{i}]", default_from_t=None)
            for i, item in enumerate(items)
        ]
    else:
        layouts = [_layout_from_json(obj, expected, where, default_from_t=0)]
    starts = [lay.from_t for lay in layouts]
    if len(set(starts)) != len(starts):
        raise LayoutError(f"{where}: two layouts start at the same from_t ({sorted(starts)})")
    return Layouts(tuple(layouts))


def _layout_from_json(obj: object, expected: int, where: str, *, default_from_t: int | None) -> Layout:
    if not isinstance(obj, dict):
        raise LayoutError(f"{where}: expected a JSON object, got {type(obj).__name__}")
    fs = obj.get("frame_size")
    if (
        not isinstance(fs, list)
        or len(fs) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in fs)
    ):
        raise LayoutError(f"{where}: 'frame_size' must be [width, height] in pixels, got {fs!r}")
    frame = (int(fs[0]), int(fs[1]))
    from_t_obj = obj.get("from_t", default_from_t)
    if from_t_obj is None:
        raise LayoutError(f"{where}: 'from_t' is missing (each layout in a list needs one)")
    if not isinstance(from_t_obj, int) or isinstance(from_t_obj, bool) or from_t_obj < 0:
        raise LayoutError(f"{where}: 'from_t' must be milliseconds >= 0, got {from_t_obj!r}")
    seat_objs = obj.get("seats")
    if not isinstance(seat_objs, list):
        raise LayoutError(f"{where}: 'seats' must be a list")
    zones = [_seat_from_json(s, frame, f"{where}: seats[{i}]") for i, s in enumerate(seat_objs)]
    numbers = [z.seat for z in zones]
    dupes = sorted({n for n in numbers if numbers.count(n) > 1})
    if dupes:
        raise LayoutError(f"{where}: seat {dupes[0]} appears more than once")
    want = set(range(1, expected + 1))
    missing = sorted(want - set(numbers))
    unknown = sorted(set(numbers) - want)
    if unknown:
        raise LayoutError(f"{where}: seat {unknown[0]} is not a seat of a {expected}-seat table")
    if missing:
        raise LayoutError(
            f"{where}: seat {missing[0]} has no zones (expected seats 1..{expected}, "
            f"missing {', '.join(map(str, missing))})"
        )
    return Layout(frame_size=frame, seats=tuple(sorted(zones, key=lambda z: z.seat)), from_t=from_t_obj)


def _seat_from_json(obj: object, frame: tuple[int, int], where: str) -> SeatZones:
    if not isinstance(obj, dict):
        raise LayoutError(f"{where}: expected a JSON object, got {type(obj).__name__}")
    seat = obj.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or seat < 1:
        raise LayoutError(f"{where}: 'seat' must be a seat number >= 1, got {seat!r}")
    polys = {z: _polygon(obj.get(z), frame, f"{where.rsplit(': ', 1)[0]}: seat {seat} {z}") for z in ZONES}
    return SeatZones(
        seat=seat,
        table_zone=polys["table_zone"],
        raise_zone=polys["raise_zone"],
        head_zone=polys["head_zone"],
    )


def _polygon(obj: object, frame: tuple[int, int], where: str) -> Polygon:
    if obj is None:
        raise LayoutError(f"{where}: missing")
    if not isinstance(obj, list):
        raise LayoutError(f"{where}: expected a list of [x, y] points, got {type(obj).__name__}")
    pts: list[Point] = []
    for k, p in enumerate(obj):
        if (
            not isinstance(p, list)
            or len(p) != 2
            or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in p)
            or not all(math.isfinite(float(v)) for v in p)
        ):
            raise LayoutError(f"{where}: point {k} must be [x, y] with finite numbers, got {p!r}")
        pts.append((float(p[0]), float(p[1])))
    poly = tuple(pts)
    check_polygon(poly, frame, where)
    return poly


def check_polygon(poly: Polygon, frame: tuple[int, int], where: str) -> None:
    """Raise :class:`LayoutError` when a zone is unusable; ``where`` prefixes the message."""
    if len(poly) < 3:
        raise LayoutError(f"{where}: polygon has {len(poly)} points (needs at least 3)")
    w, h = frame
    tol = FRAME_TOLERANCE_PX
    for k, (x, y) in enumerate(poly):
        if not (-tol <= x <= w + tol and -tol <= y <= h + tol):
            raise LayoutError(f"{where}: point {k} ({x:g}, {y:g}) is outside the {w}x{h} frame")
    area = polygon_area(poly)
    if area > MIN_AREA_PX2 and polygon_self_intersects(poly):
        raise LayoutError(f"{where}: polygon crosses itself")
    if area <= MIN_AREA_PX2:
        what = "crosses itself or is degenerate" if polygon_self_intersects(poly) else "is degenerate"
        raise LayoutError(f"{where}: polygon {what} (area {area:.1f} px², needs > {MIN_AREA_PX2:g})")


def layouts_to_json(layouts: Layouts) -> dict[str, Any]:
    """The single-layout shape when there is one layout from t = 0, else ``{"layouts": [...]}``."""
    items = [_layout_to_json(lay) for lay in layouts.layouts]
    if len(items) == 1 and layouts.layouts[0].from_t == 0:
        del items[0]["from_t"]
        return items[0]
    return {"layouts": items}


def _layout_to_json(lay: Layout) -> dict[str, Any]:
    def pts(poly: Polygon) -> list[list[float | int]]:
        return [[_num(x), _num(y)] for x, y in poly]

    return {
        "frame_size": [lay.frame_size[0], lay.frame_size[1]],
        "seats": [
            {"seat": s.seat, **{z: pts(s.zone(z)) for z in ZONES}}
            for s in sorted(lay.seats, key=lambda s: s.seat)
        ],
        "from_t": lay.from_t,
    }


def _num(v: float) -> float | int:
    return int(v) if float(v).is_integer() else v


def write_layout(path: str | Path, layouts: Layouts | Layout) -> None:
    """Write ``layout.json`` atomically (temp file, fsync, rename)."""
    if isinstance(layouts, Layout):
        layouts = Layouts.single(layouts)
    text = json.dumps(layouts_to_json(layouts), ensure_ascii=False, indent=1) + "\n"
    atomic_write_text(Path(path), text)
