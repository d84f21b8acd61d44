"""Seat zones for the calibration editor: a first proposal and the edits a drag makes (pure, no Qt).

:func:`propose_layout` places the seats evenly around an ellipse for the table (the camera sees the
table roughly centred): per seat a table zone on the table's rim, a head zone just outside it and a
raise zone above the head. It is a starting point for the host to drag into place, not a detector.
When ``vision.layout_helper`` exists (the vision engineer's proposal from the picture), the console
uses it instead (see :func:`best_proposal`).

Edits return a new :class:`~gamelog.layout.Layout` (layouts are frozen): :func:`move_vertex`,
:func:`move_zone`; :func:`hit_test` finds what is under the mouse.
"""

from __future__ import annotations

import importlib
import math
from dataclasses import dataclass, replace
from typing import Any

from gamelog.layout import ZONES, Layout, Point, Polygon, SeatZones, point_in_polygon

# The table ellipse as shares of the frame: centre and half-axes.
TABLE_CX, TABLE_CY, TABLE_RX, TABLE_RY = 0.5, 0.56, 0.34, 0.26
FIRST_SEAT_DEG = 108.0  # seat 1 sits left of the camera-side end; seats go clockwise on screen


def _clamp(p: Point, size: tuple[int, int]) -> Point:
    w, h = size
    return (round(min(max(p[0], 0.0), w), 1), round(min(max(p[1], 0.0), h), 1))


def _quad(
    size: tuple[int, int], cx: float, cy: float, ux: float, uy: float, depth: float, half: float
) -> Polygon:
    """A quadrilateral centred at (cx, cy), ``depth`` along the unit direction (ux, uy), ``half`` wide."""
    vx, vy = -uy, ux
    pts = [
        (cx - ux * depth / 2 - vx * half, cy - uy * depth / 2 - vy * half),
        (cx - ux * depth / 2 + vx * half, cy - uy * depth / 2 + vy * half),
        (cx + ux * depth / 2 + vx * half, cy + uy * depth / 2 + vy * half),
        (cx + ux * depth / 2 - vx * half, cy + uy * depth / 2 - vy * half),
    ]
    return tuple(_clamp(p, size) for p in pts)


def _ellipse_angles(rx: float, ry: float, seats: int, first_deg: float) -> list[float]:
    """Parameter angles of ``seats`` points evenly spaced by arc length (not by angle: on a wide
    table, equal angles crowd the seats at the ends)."""
    n = 3600
    ts = [first_deg * math.pi / 180 + 2 * math.pi * k / n for k in range(n + 1)]
    lengths = [0.0]
    for k in range(1, n + 1):
        x0, y0 = rx * math.cos(ts[k - 1]), ry * math.sin(ts[k - 1])
        x1, y1 = rx * math.cos(ts[k]), ry * math.sin(ts[k])
        lengths.append(lengths[-1] + math.hypot(x1 - x0, y1 - y0))
    total = lengths[-1]
    out: list[float] = []
    k = 0
    for i in range(seats):
        want = total * i / seats
        while lengths[k] < want:
            k += 1
        out.append(ts[k])
    return out


def propose_layout(frame_size: tuple[int, int], seats: int = 10) -> Layout:
    """Ten (or ``seats``) seats evenly around the table ellipse."""
    w, h = frame_size
    cx, cy, rx, ry = TABLE_CX * w, TABLE_CY * h, TABLE_RX * w, TABLE_RY * h
    arc = 2 * math.pi * math.sqrt((rx * rx + ry * ry) / 2) / seats  # rim length per seat
    out: list[SeatZones] = []
    for i, a in enumerate(_ellipse_angles(rx, ry, seats, FIRST_SEAT_DEG)):
        ex, ey = math.cos(a), math.sin(a)
        nx, ny = ex / rx, ey / ry  # outward normal of the ellipse at this point
        norm = math.hypot(nx, ny)
        ux, uy = nx / norm, ny / norm
        rim_x, rim_y = cx + rx * ex, cy + ry * ey
        d = min(w, h)
        half = arc * 0.3
        table = _quad(frame_size, rim_x - ux * 0.06 * d, rim_y - uy * 0.06 * d, ux, uy, 0.13 * d, half)
        hx, hy = rim_x + ux * 0.09 * d, rim_y + uy * 0.09 * d
        head = _quad(frame_size, hx, hy, ux, uy, 0.11 * d, half * 0.8)
        raise_ = _quad(frame_size, hx, hy - 0.13 * h, 0.0, -1.0, 0.15 * h, half * 0.9)
        out.append(SeatZones(seat=i + 1, table_zone=table, raise_zone=raise_, head_zone=head))
    return Layout(frame_size=(w, h), seats=tuple(out))


def best_proposal(frame_size: tuple[int, int], seats: int = 10, frame: Any = None) -> Layout:
    """``vision.layout_helper.propose_layout(frame, seats=...)`` when that module exists and gives a
    layout for this frame size; else :func:`propose_layout`."""
    try:
        helper = importlib.import_module("vision.layout_helper")
    except ModuleNotFoundError:
        return propose_layout(frame_size, seats)
    fn = getattr(helper, "propose_layout", None)
    if fn is None or frame is None:
        return propose_layout(frame_size, seats)
    try:
        lay = fn(frame, seats=seats)
    except Exception:  # a helper that cannot read this picture: fall back to the plain proposal
        return propose_layout(frame_size, seats)
    return (
        lay if isinstance(lay, Layout) and lay.frame_size == frame_size else propose_layout(frame_size, seats)
    )


@dataclass(frozen=True)
class Hit:
    """What is under the mouse: a vertex (``vertex`` >= 0) or a whole zone (``vertex`` = -1)."""

    seat: int
    zone: str
    vertex: int = -1


def hit_test(layout: Layout, p: Point, radius: float, zones: tuple[str, ...] = ZONES) -> Hit | None:
    """The nearest vertex within ``radius`` (frame pixels), else the zone containing ``p``."""
    best: tuple[float, Hit] | None = None
    for s in layout.seats:
        for z in zones:
            for k, (x, y) in enumerate(s.zone(z)):
                d = math.hypot(x - p[0], y - p[1])
                if d <= radius and (best is None or d < best[0]):
                    best = (d, Hit(s.seat, z, k))
    if best is not None:
        return best[1]
    for z in zones:  # table zones first: they are what the live count watches
        for s in layout.seats:
            if point_in_polygon(p, s.zone(z)):
                return Hit(s.seat, z)
    return None


def _with_zone(layout: Layout, seat: int, zone: str, poly: Polygon) -> Layout:
    seats = tuple(replace(s, **{zone: poly}) if s.seat == seat else s for s in layout.seats)
    return replace(layout, seats=seats)


def move_vertex(layout: Layout, seat: int, zone: str, vertex: int, to: Point) -> Layout:
    poly = list(layout.seat(seat).zone(zone))
    poly[vertex] = _clamp(to, layout.frame_size)
    return _with_zone(layout, seat, zone, tuple(poly))


def move_zone(layout: Layout, seat: int, zone: str, dx: float, dy: float) -> Layout:
    """Shift a whole zone, stopping at the frame's edges (the shape is kept)."""
    poly = layout.seat(seat).zone(zone)
    w, h = layout.frame_size
    xs, ys = [p[0] for p in poly], [p[1] for p in poly]
    dx = min(max(dx, -min(xs)), w - max(xs))
    dy = min(max(dy, -min(ys)), h - max(ys))
    moved = tuple((round(x + dx, 1), round(y + dy, 1)) for x, y in poly)
    return _with_zone(layout, seat, zone, moved)


def scale_layout(layout: Layout, size: tuple[int, int]) -> Layout:
    """The same zones in pixels of a frame of ``size`` (the live tap's smaller frames)."""
    sx, sy = size[0] / layout.frame_size[0], size[1] / layout.frame_size[1]

    def sc(poly: Polygon) -> Polygon:
        return tuple((x * sx, y * sy) for x, y in poly)

    seats = tuple(
        SeatZones(s.seat, sc(s.table_zone), sc(s.raise_zone), sc(s.head_zone)) for s in layout.seats
    )
    return Layout(frame_size=size, seats=seats, from_t=layout.from_t)
