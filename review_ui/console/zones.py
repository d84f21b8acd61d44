"""Seat zones for the calibration editor: a first proposal and the edits a drag makes (pure, no Qt).

:func:`propose_layout` places the seats evenly around an ellipse for the table: the one
:func:`estimate_table` finds in the picture (the region of the cloth's colour around the centre), else a
default one for a camera that sees the table roughly centred. Per seat: a table zone on the rim, a head
zone just outside it and a raise zone above the head. It is a starting point for the host to drag into
place, not a detector. When ``vision.layout_helper`` exists (the vision engineer's proposal from the
picture), the console uses it instead (see :func:`best_proposal`).

Edits return a new :class:`~gamelog.layout.Layout` (layouts are frozen): :func:`move_vertex`,
:func:`move_zone`; :func:`hit_test` finds what is under the mouse.
"""

from __future__ import annotations

import importlib
import math
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from gamelog.layout import ZONES, Layout, Point, Polygon, SeatZones, point_in_polygon

# The table ellipse as shares of the frame: centre and half-axes.
TABLE_CX, TABLE_CY, TABLE_RX, TABLE_RY = 0.5, 0.56, 0.34, 0.26
HOST_END_DEG = 90.0  # the near end of the table (bottom of the picture) is the host's: no seat there


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
    # shift a zone that sticks out back into the frame (clamping its corners would squash it flat)
    w, h = size
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    dx = -min(xs) if min(xs) < 0 else (w - max(xs) if max(xs) > w else 0.0)
    dy = -min(ys) if min(ys) < 0 else (h - max(ys) if max(ys) > h else 0.0)
    return tuple(_clamp((x + dx, y + dy), size) for x, y in pts)


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


@dataclass(frozen=True)
class Table:
    """The table as an axis-aligned ellipse in frame pixels: centre and half-axes."""

    cx: float
    cy: float
    rx: float
    ry: float

    @classmethod
    def default(cls, frame_size: tuple[int, int]) -> Table:
        w, h = frame_size
        return cls(TABLE_CX * w, TABLE_CY * h, TABLE_RX * w, TABLE_RY * h)


def estimate_table(image: npt.NDArray[np.uint8], frame_size: tuple[int, int]) -> Table | None:
    """The table top seen in ``image`` (RGB, any size; the result is in ``frame_size`` pixels): the
    region around the picture's centre with the centre's colour (the cloth), as an ellipse. None when
    that region is implausibly small or large (then the default ellipse is proposed)."""
    h, w = image.shape[:2]
    small = cv2.resize(image, (320, max(2, round(320 * h / w))), interpolation=cv2.INTER_AREA)
    sh, sw = small.shape[:2]
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (5, 5), 0), cv2.COLOR_RGB2LAB).astype(np.float32)
    patch = lab[int(sh * 0.45) : int(sh * 0.6), int(sw * 0.45) : int(sw * 0.55)].reshape(-1, 3)
    ref = np.median(patch, axis=0)
    dist = np.linalg.norm(lab - ref, axis=2)
    mask = (dist < 18.0).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
    _n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    centre = labels[int(sh * 0.52), sw // 2]
    if centre == 0:
        return None
    share = stats[centre, cv2.CC_STAT_AREA] / (sw * sh)
    if not 0.03 <= share <= 0.7:
        return None
    x, y, bw, bh = (int(v) for v in stats[centre, :4])
    fx, fy = frame_size[0] / sw, frame_size[1] / sh
    return Table((x + bw / 2) * fx, (y + bh / 2) * fy, bw / 2 * fx, bh / 2 * fy)


def propose_layout(frame_size: tuple[int, int], seats: int = 10, table: Table | None = None) -> Layout:
    """Ten (or ``seats``) seats evenly around the table ellipse (the default one when ``table`` is None).

    The near end (bottom) is the host's; seat 1 sits next to it on the left and the numbers go clockwise
    on screen (up the left side, down the right).
    Per seat: the table zone straddles the rim where a hand rests, the head zone lies just outside it,
    the raise zone above the head. Sizes follow the rim length per seat."""
    w, h = frame_size
    t = table or Table.default(frame_size)
    arc = 2 * math.pi * math.sqrt((t.rx * t.rx + t.ry * t.ry) / 2) / (seats + 2)  # rim length per place
    out: list[SeatZones] = []
    # seats + 2 places evenly around the rim; the two either side of the near end are the host's (the
    # near end looks wider in perspective, and tables leave the host room)
    half_steps = _ellipse_angles(t.rx, t.ry, 2 * (seats + 2), HOST_END_DEG)
    for i, a in enumerate(half_steps[3 : 2 * seats + 3 : 2]):
        ex, ey = math.cos(a), math.sin(a)
        nx, ny = ex / t.rx, ey / t.ry  # outward normal of the ellipse at this point
        norm = math.hypot(nx, ny)
        ux, uy = nx / norm, ny / norm
        rim_x, rim_y = t.cx + t.rx * ex, t.cy + t.ry * ey
        half = arc * 0.32
        inward = min(arc * 0.2, 0.25 * min(t.rx, t.ry))
        table_zone = _quad(frame_size, rim_x - ux * inward, rim_y - uy * inward, ux, uy, arc * 0.6, half)
        hx, hy = rim_x + ux * arc * 0.75, rim_y + uy * arc * 0.75
        head = _quad(frame_size, hx, hy, ux, uy, arc * 0.6, half * 0.9)
        raise_ = _quad(frame_size, hx, hy - arc * 1.1, 0.0, -1.0, arc * 0.9, half)
        out.append(SeatZones(seat=i + 1, table_zone=table_zone, raise_zone=raise_, head_zone=head))
    return Layout(frame_size=(w, h), seats=tuple(out))


def best_proposal(frame_size: tuple[int, int], seats: int = 10, frame: Any = None) -> Layout:
    """``vision.layout_helper.propose_layout(frame, seats=...)`` (scaled to ``frame_size``) when that
    module exists and finds the table; else :func:`propose_layout` around the table found in ``frame``
    (an RGB array of the picture, any size), or around the default ellipse."""
    table = estimate_table(frame, frame_size) if isinstance(frame, np.ndarray) and frame.ndim == 3 else None
    try:
        helper = importlib.import_module("vision.layout_helper")
    except ModuleNotFoundError:
        return propose_layout(frame_size, seats, table)
    fn = getattr(helper, "propose_layout", None)
    if fn is None or frame is None:
        return propose_layout(frame_size, seats, table)
    try:
        lay = fn(frame, seats=seats)
    except Exception:  # a helper that cannot read this picture: fall back to the plain proposal
        return propose_layout(frame_size, seats, table)
    if isinstance(lay, Layout) and len(lay.seats) == seats:
        # the helper works in the pixels of the frame it saw (the small live frame): scale to the video's
        return lay if lay.frame_size == frame_size else scale_layout(lay, frame_size)
    return propose_layout(frame_size, seats, table)


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
    def edit(s: SeatZones) -> SeatZones:
        zones = {z: (poly if z == zone else s.zone(z)) for z in ZONES}
        return SeatZones(s.seat, zones["table_zone"], zones["raise_zone"], zones["head_zone"])

    return replace(layout, seats=tuple(edit(s) if s.seat == seat else s for s in layout.seats))


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
