"""The table scene: an elevated tournament camera over an oval table with ten seated players.

World frame (metres): origin at the centre of the table top, ``x`` to the camera's right, ``y`` away from
the camera (along the table's long axis), ``z`` up; the table top is the plane ``z = 0``. The host sits at
the near end (``y < 0``) with the camera behind and above him; seat 1 is on the host's left and the seats
run clockwise (seen from above) round the far end to seat 10 on his right, as at a tournament table.

Camera frame: ``x`` right, ``y`` down, ``z`` into the picture (the frame of ``tablesim.skeleton.rotation``).
:class:`Camera` projects world points to video pixels; :class:`Scene` holds each seat's geometry (body,
head, rest places of the hands, the table zone, the raise zone and the head zone) and exports the zones
as the ``layout.json`` polygons of CONTRACT.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

HAND_LEN_M = 0.19  # wrist to the tip of the middle finger of an adult hand
SEATS = 10


@dataclass(frozen=True)
class CameraKnobs:
    """Where the camera is: ``elevation`` (degrees below the horizon of the optical axis), ``distance``
    (metres from the point it looks at), ``focal_mm`` (35 mm equivalent), the frame size in pixels."""

    width: int = 1920
    height: int = 1080
    elevation: float = 38.0
    distance: float = 4.3
    focal_mm: float = 22.0
    look_y: float = 0.25  # the camera aims at (0, look_y, look_z)
    look_z: float = 0.2
    yaw: float = 0.0  # degrees, turns the camera left/right about the vertical

    def __post_init__(self) -> None:
        if self.width < 16 or self.height < 16:
            raise ValueError(f"frame size {self.width}x{self.height} is too small")
        if not 5.0 <= self.elevation <= 85.0:
            raise ValueError(f"elevation {self.elevation} must be within 5..85 degrees")
        if self.distance <= 0.5 or self.focal_mm <= 1.0:
            raise ValueError("distance must exceed 0.5 m and focal_mm 1 mm")


@dataclass(frozen=True)
class Camera:
    """A pinhole camera: ``R`` (3, 3) world → camera rotation, ``position`` (3,), focal ``f`` in px."""

    R: np.ndarray
    position: np.ndarray
    f: float
    cx: float
    cy: float
    width: int
    height: int

    def __post_init__(self) -> None:
        if self.R.shape != (3, 3) or self.position.shape != (3,):
            raise ValueError(f"R must be (3, 3) and position (3,), got {self.R.shape} {self.position.shape}")

    @classmethod
    def from_knobs(cls, k: CameraKnobs) -> Camera:
        el = math.radians(k.elevation)
        yaw = math.radians(k.yaw)
        fwd = np.array([math.sin(yaw) * math.cos(el), math.cos(yaw) * math.cos(el), -math.sin(el)])
        target = np.array([0.0, k.look_y, k.look_z])
        pos = target - k.distance * fwd
        right = np.cross(fwd, np.array([0.0, 0.0, 1.0]))
        right /= np.linalg.norm(right)
        down = np.cross(fwd, right)
        R = np.stack([right, down, fwd])
        f = k.focal_mm / 36.0 * k.width
        return cls(
            R=R, position=pos, f=f, cx=k.width / 2.0, cy=k.height / 2.0, width=k.width, height=k.height
        )

    def to_camera(self, pts: np.ndarray) -> np.ndarray:
        """World points (..., 3) → camera frame (..., 3)."""
        return (np.asarray(pts, dtype=np.float64) - self.position) @ self.R.T

    def project(self, pts: np.ndarray) -> np.ndarray:
        """World points (..., 3) → pixels (..., 2). Points must be in front of the camera."""
        c = self.to_camera(pts)
        z = c[..., 2]
        if np.any(z <= 1e-6):
            raise ValueError("a point behind the camera cannot be projected")
        return np.stack([self.f * c[..., 0] / z + self.cx, self.f * c[..., 1] / z + self.cy], axis=-1)

    def depth(self, pts: np.ndarray) -> np.ndarray:
        return self.to_camera(pts)[..., 2]

    def px_per_m(self, pt: np.ndarray) -> float:
        """Pixels per metre for a small object at ``pt`` facing the camera."""
        return float(self.f / self.depth(np.asarray(pt)))


@dataclass(frozen=True)
class TableKnobs:
    half_width: float = 0.78  # x semi-axis of the oval table top (m)
    half_length: float = 1.55  # y semi-axis
    host_gap: float = 0.95  # arc length (m) left free at the near end for the host
    seat_back: float = 0.30  # a player's body centre behind the table edge (m)


@dataclass(frozen=True)
class Seat:
    """One seat's geometry in world metres (all arrays (3,) unless said), and its look."""

    seat: int
    edge: np.ndarray  # the point of the table edge in front of the player
    inward: np.ndarray  # unit vector from the player towards the table (horizontal)
    lateral: np.ndarray  # unit vector to the player's left... seen from the player it points to his right
    body: np.ndarray  # body centre at table height
    shoulder_l: np.ndarray
    shoulder_r: np.ndarray
    head_up: np.ndarray  # head centre, sitting upright
    head_down: np.ndarray  # head centre, head down at night
    rest_l: np.ndarray  # wrist of the left hand resting on the table edge
    rest_r: np.ndarray
    zone_centre: np.ndarray  # where the voting fist's wrist lands
    zone_corners: np.ndarray  # (4, 3) the table zone on the table plane
    raise_peak: np.ndarray  # wrist at the top of a raised hand
    look: dict[str, Any] = field(default_factory=dict)


def _ellipse_points(a: float, b: float, n: int = 4000) -> tuple[np.ndarray, np.ndarray]:
    th = np.linspace(-math.pi / 2, -math.pi / 2 - 2 * math.pi, n)  # clockwise from the near end
    pts = np.stack([a * np.cos(th), b * np.sin(th)], axis=1)
    seg = np.linalg.norm(np.diff(pts, axis=0), axis=1)
    s = np.concatenate([[0.0], np.cumsum(seg)])
    return pts, s


def _ellipse_normal(a: float, b: float, p: np.ndarray) -> np.ndarray:
    n = np.array([p[0] / a**2, p[1] / b**2])
    return n / np.linalg.norm(n)


def _h(v2: np.ndarray, z: float) -> np.ndarray:
    return np.array([v2[0], v2[1], z], dtype=np.float64)


def seat_positions(table: TableKnobs, seats: int = SEATS) -> list[tuple[np.ndarray, np.ndarray]]:
    """(edge point (2,), outward normal (2,)) of each seat, spaced evenly in arc length round the table."""
    pts, s = _ellipse_points(table.half_width, table.half_length)
    total = s[-1]
    free = total - table.host_gap
    out = []
    for i in range(seats):
        target = table.host_gap / 2 + free * (i + 0.5) / seats
        j = int(np.searchsorted(s, target))
        p = pts[min(j, len(pts) - 1)]
        out.append((p, _ellipse_normal(table.half_width, table.half_length, p)))
    return out


def make_seat(seat: int, edge2: np.ndarray, out2: np.ndarray) -> Seat:
    # players face between the table's normal and its centre (at the narrow far end the normal alone
    # would turn neighbours towards each other)
    to_centre = -edge2 / np.linalg.norm(edge2)
    inward2 = (-out2 + to_centre) / np.linalg.norm(-out2 + to_centre)
    # the player faces inward; his right hand is on his right: right = inward x up (in the table plane)
    right2 = np.array([inward2[1], -inward2[0]])
    inward = _h(inward2, 0.0)
    right = _h(right2, 0.0)
    body = _h(edge2 + out2 * 0.30, 0.0)
    sh_z = 0.30
    shoulder_l = body + inward * 0.04 - right * 0.20 + np.array([0, 0, sh_z])
    shoulder_r = body + inward * 0.04 + right * 0.20 + np.array([0, 0, sh_z])
    head_up = body + inward * 0.02 + np.array([0, 0, 0.56])
    head_down = body + inward * 0.24 + np.array([0, 0, 0.22])
    edge = _h(edge2, 0.0)
    rest_l = edge + inward * 0.06 - right * 0.17 + np.array([0, 0, 0.025])
    rest_r = edge + inward * 0.06 + right * 0.17 + np.array([0, 0, 0.025])
    zc = edge + inward * 0.28
    zone_centre = zc + right * 0.02 + np.array([0, 0, 0.03])
    # a trapezoid, narrower towards the middle of the table (neighbours' zones converge at the far end)
    (r0, w0), (r1, w1) = (0.13, 0.19), (0.44, 0.12)
    zone_corners = np.stack(
        [
            edge + inward * r0 - right * w0,
            edge + inward * r0 + right * w0,
            edge + inward * r1 + right * w1,
            edge + inward * r1 - right * w1,
        ]
    )
    raise_peak = body + inward * 0.12 + right * 0.12 + np.array([0, 0, 0.80])
    return Seat(
        seat=seat,
        edge=edge,
        inward=inward,
        lateral=right,
        body=body,
        shoulder_l=shoulder_l,
        shoulder_r=shoulder_r,
        head_up=head_up,
        head_down=head_down,
        rest_l=rest_l,
        rest_r=rest_r,
        zone_centre=zone_centre,
        zone_corners=zone_corners,
        raise_peak=raise_peak,
    )


HEAD_R = 0.105  # head radius (m)
FOREARM_M = 1.6 * HAND_LEN_M  # the sprites' forearm, wrist to where it leaves the sprite


def vote_fingers(seat: Seat, left: bool) -> np.ndarray:
    """Horizontal direction (3,) of a voting fist's fingers: mostly forward, a little across the body."""
    medial = seat.lateral if left else -seat.lateral
    v = 0.8 * seat.inward + 0.6 * medial
    return np.asarray(v / np.linalg.norm(v))


def vote_wrist(seat: Seat, left: bool) -> np.ndarray:
    """Where the voting fist's wrist rests: the forearm lies on the table from an elbow at the body's side."""
    side = -seat.lateral if left else seat.lateral
    elbow = seat.edge + side * 0.21 + seat.inward * 0.0 + np.array([0.0, 0.0, 0.03])
    return np.asarray(elbow + vote_fingers(seat, left) * FOREARM_M)


@dataclass(frozen=True)
class Scene:
    """Camera, table and seats. ``hand_scale`` multiplies the life-size hand (1.0 = life size)."""

    camera: Camera
    table: TableKnobs
    seats: tuple[Seat, ...]
    hand_scale: float = 1.0

    @classmethod
    def build(
        cls,
        camera: CameraKnobs | None = None,
        table: TableKnobs | None = None,
        hand_scale: float = 1.0,
        seats: int = SEATS,
    ) -> Scene:
        if not 0.2 <= hand_scale <= 5.0:
            raise ValueError(f"hand_scale {hand_scale} must be within 0.2..5")
        table = table or TableKnobs()
        cam = Camera.from_knobs(camera or CameraKnobs())
        seat_list = tuple(make_seat(i + 1, p, n) for i, (p, n) in enumerate(seat_positions(table, seats)))
        return cls(camera=cam, table=table, seats=seat_list, hand_scale=hand_scale)

    def seat(self, n: int) -> Seat:
        return self.seats[n - 1]

    def hand_len_px(self, wrist: np.ndarray) -> float:
        """Drawn hand length (wrist to middle fingertip) in pixels for a hand at ``wrist``."""
        return self.camera.px_per_m(wrist) * HAND_LEN_M * self.hand_scale

    # ---- zones, in video pixels ---------------------------------------------------------------------

    def table_zone(self, n: int) -> np.ndarray:
        """(4, 2) the table zone polygon: where this seat's voting fist lands."""
        return self.camera.project(self.seat(n).zone_corners)

    def head_zone(self, n: int) -> np.ndarray:
        """(4, 2) an image rectangle round the upright head (where a head raised at night shows)."""
        s = self.seat(n)
        c = self.camera.project(s.head_up)
        r = self.camera.px_per_m(s.head_up) * HEAD_R * 1.7
        return np.array(
            [[c[0] - r, c[1] - r], [c[0] + r, c[1] - r], [c[0] + r, c[1] + r], [c[0] - r, c[1] + r]]
        )

    def raise_zone(self, n: int) -> np.ndarray:
        """(4, 2) an image rectangle above the head where a raised hand peaks (night shots)."""
        s = self.seat(n)
        top = self.camera.project(s.raise_peak + np.array([0, 0, 0.30]))
        bottom = self.camera.project(s.head_up + np.array([0, 0, HEAD_R * 1.3]))
        mid = self.camera.project(s.raise_peak)
        half = self.camera.px_per_m(s.raise_peak) * 0.24
        x0, x1 = min(mid[0], bottom[0]) - half, max(mid[0], bottom[0]) + half
        y0, y1 = top[1], bottom[1]
        return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])

    def layout_json(self) -> dict[str, Any]:
        """The ``layout.json`` object of CONTRACT.md (pixels rounded to 0.1)."""

        def poly(a: np.ndarray) -> list[list[float]]:
            return [[round(float(x), 1), round(float(y), 1)] for x, y in a]

        return {
            "frame_size": [self.camera.width, self.camera.height],
            "seats": [
                {
                    "seat": s.seat,
                    "table_zone": poly(self.table_zone(s.seat)),
                    "raise_zone": poly(self.raise_zone(s.seat)),
                    "head_zone": poly(self.head_zone(s.seat)),
                }
                for s in self.seats
            ],
        }


def polygon_area(poly: np.ndarray) -> float:
    x, y = poly[:, 0], poly[:, 1]
    return float(0.5 * abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))


def point_in_polygon(pt: np.ndarray, poly: np.ndarray) -> bool:
    """Even-odd rule; ``poly`` (N, 2)."""
    x, y = float(pt[0]), float(pt[1])
    inside = False
    n = len(poly)
    for i in range(n):
        x0, y0 = poly[i]
        x1, y1 = poly[(i + 1) % n]
        if (y0 > y) != (y1 > y):
            xc = x0 + (y - y0) * (x1 - x0) / (y1 - y0)
            if xc > x:
                inside = not inside
    return inside
