"""Propose a seat layout for a new camera position from one frame.

The table is the large region of one colour (the cloth) around the middle of the picture. Its outline is
fitted with an ellipse; the seats are spaced evenly along it in arc length, leaving a gap at the end
nearest the camera for the host (the usual tournament set-up: the camera behind the host). Seat 1 is
the first on the host's left, numbering runs clockwise as seen from above... as seen in the picture: up
the left side and down the right.

Per seat: the table zone is a quadrilateral on the cloth in front of the player (from a little inside the
edge towards the centre), the head zone sits outside the edge behind it, and the raise zone above the
head. It is a proposal: the record console lets a person drag every zone into place.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from gamelog.layout import Layout, SeatZones

Poly = tuple[tuple[float, float], ...]


class LayoutProposalError(ValueError):
    """No table could be found in the frame; the message says what was seen."""


@dataclass(frozen=True)
class Table:
    centre: tuple[float, float]
    axes: tuple[float, float]  # full lengths (width, height) of the fitted ellipse, pixels
    angle: float  # degrees, as cv2.fitEllipse gives it
    coverage: float  # share of the frame the cloth covers


def find_table(frame: npt.NDArray[np.uint8], *, tolerance: float = 22.0) -> Table:
    """The cloth: pixels close in colour (Lab) to the middle of the frame, the connected part holding the
    middle, its outline fitted with an ellipse."""
    h, w = frame.shape[:2]
    small_scale = 480.0 / max(h, w)
    small = cv2.resize(
        frame, (max(1, round(w * small_scale)), max(1, round(h * small_scale))), interpolation=cv2.INTER_AREA
    )
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (5, 5), 0), cv2.COLOR_RGB2LAB).astype(np.float32)
    sh, sw = lab.shape[:2]
    patch = lab[int(sh * 0.4) : int(sh * 0.6), int(sw * 0.4) : int(sw * 0.6)].reshape(-1, 3)
    ref = np.median(patch, axis=0)
    dist = np.linalg.norm(lab - ref, axis=2)
    mask = (dist < tolerance).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
    n, labels, _, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    lab_c = labels[sh // 2, sw // 2]
    if n <= 1 or lab_c == 0:
        raise LayoutProposalError("no uniform table cloth at the middle of the frame")
    region = (labels == lab_c).astype(np.uint8)
    coverage = float(region.mean())
    if coverage < 0.04:
        raise LayoutProposalError(
            f"the region at the middle of the frame is too small for a table ({coverage:.1%})"
        )
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    if len(hull) < 5:
        raise LayoutProposalError("the table outline is too small to fit")
    (cx, cy), (aw, ah), angle = cv2.fitEllipse(hull)
    k = 1.0 / small_scale
    return Table((cx * k, cy * k), (aw * k, ah * k), float(angle), coverage)


def _ellipse_point(t: Table, theta: float) -> npt.NDArray[np.float64]:
    a, b = t.axes[0] / 2.0, t.axes[1] / 2.0
    phi = math.radians(t.angle)
    x, y = a * math.cos(theta), b * math.sin(theta)
    return np.array(
        [
            t.centre[0] + x * math.cos(phi) - y * math.sin(phi),
            t.centre[1] + x * math.sin(phi) + y * math.cos(phi),
        ]
    )


def propose_layout(frame: npt.NDArray[np.uint8], *, seats: int = 10, host_gap: float = 0.09) -> Layout:
    """A layout proposal for ``seats`` players round the table found in ``frame``."""
    table = find_table(frame)
    h, w = frame.shape[:2]
    # Sample the outline; arc length along it; the host's gap centred on the lowest point (nearest camera).
    thetas = np.linspace(0, 2 * math.pi, 3600, endpoint=False)
    pts = np.array([_ellipse_point(table, th) for th in thetas])
    low = int(np.argmax(pts[:, 1]))
    pts = np.roll(pts, -low, axis=0)
    # Walk clockwise in the picture from the near end: up the left side (x < centre) first.
    if pts[len(pts) // 8, 0] > table.centre[0]:
        pts = np.vstack([pts[:1], pts[1:][::-1]])
    # Seats are evenly spaced on the real table; the camera shrinks the far end. The picture's scale grows
    # about linearly downwards from a horizon well above the table (measured on tablesim tables: hands are
    # 43 px at the far end and 63 px at the near end), so space the seats evenly in length / scale.
    horizon = table.centre[1] - 2.0 * max(table.axes)
    mid = (pts + np.roll(pts, -1, axis=0)) / 2.0
    seg = np.linalg.norm(np.roll(pts, -1, axis=0) - pts, axis=1) / np.maximum(mid[:, 1] - horizon, 1.0)
    s = np.concatenate([[0.0], np.cumsum(seg)])[:-1]
    total = float(seg.sum())
    px_per_unit = float(np.mean(np.linalg.norm(np.roll(pts, -1, axis=0) - pts, axis=1)) / np.mean(seg))
    free = total * (1 - host_gap)
    step = free / seats
    cx, cy = table.centre
    out: list[SeatZones] = []
    for i in range(seats):
        target = total * host_gap / 2 + step * (i + 0.5)
        j = int(np.searchsorted(s, target)) % len(pts)
        edge = pts[j]
        # the seat's spacing in pixels where it sits (bigger near the camera)
        spacing = step * px_per_unit * (edge[1] - horizon) / float(np.mean(mid[:, 1] - horizon))
        outward = edge - np.array([cx, cy])
        outward /= np.linalg.norm(outward) + 1e-9
        tangent = np.array([-outward[1], outward[0]])
        half = 0.32 * spacing
        inner = 0.10 * spacing
        depth = 0.85 * spacing
        table_zone = _quad(
            edge - outward * inner, edge - outward * (inner + depth), tangent, half, half * 0.8
        )
        # An elevated camera sees the players' heads beside the table (outward, sideways) and above its
        # edge; the far end's players are seen above the table.
        head_c = edge + spacing * np.array([1.1 * outward[0], -0.35 + 1.0 * min(outward[1], 0.0)])
        head_zone = _box(head_c, 0.42 * spacing, 0.5 * spacing)
        raise_c = head_c + np.array([0.0, -0.75 * spacing])
        raise_zone = _box(raise_c, 0.6 * spacing, 0.55 * spacing)
        out.append(SeatZones(i + 1, _clip(table_zone, w, h), _clip(raise_zone, w, h), _clip(head_zone, w, h)))
    return Layout((w, h), tuple(out))


def _quad(
    near: npt.NDArray[np.float64],
    far: npt.NDArray[np.float64],
    tangent: npt.NDArray[np.float64],
    half_near: float,
    half_far: float,
) -> Poly:
    corners = [
        near - tangent * half_near,
        near + tangent * half_near,
        far + tangent * half_far,
        far - tangent * half_far,
    ]
    return tuple((float(p[0]), float(p[1])) for p in corners)


def _box(c: npt.NDArray[np.float64], half_w: float, half_h: float) -> Poly:
    x, y = float(c[0]), float(c[1])
    return (
        (x - half_w, y - half_h),
        (x + half_w, y - half_h),
        (x + half_w, y + half_h),
        (x - half_w, y + half_h),
    )


def _clip(poly: Poly, w: int, h: int) -> Poly:
    return tuple((min(max(x, 0.0), w - 1.0), min(max(y, 0.0), h - 1.0)) for x, y in poly)
