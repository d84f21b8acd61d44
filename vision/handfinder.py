"""Find hands in one seat's zone of a frame, classify their shape, and say whose they are.

The landmarker runs on a padded crop around the zone, scaled up so life-size hands reach the palm
detector's scale (:mod:`vision.crops`). A hand found is attributed by **where its arm comes from**,
not only by where the hand is: the forearm runs from the wrist away from the knuckles, and the seat
whose body (the head zone's centre) lies best along that line owns the hand. A neighbour reaching into
the zone is therefore reported as the neighbour's hand.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from gamelog.layout import Layout, polygon_area
from vision.crops import crop_for_zone, detect_in_crops, tile_zone
from vision.gestures import classify
from vision.landmarker import HandTracker
from vision.landmarks import HandLandmarks

WRIST, MIDDLE_MCP = 0, 9
# The zone's own seat wins attribution unless another seat lines up with the forearm this much better.
OWN_SEAT_BIAS_DEG = 50.0
NEIGHBOUR_MAX_DEG = 25.0


@dataclass(frozen=True)
class HandSeen:
    """One hand found in a zone: its owner, shape, confidence and where it is (frame pixels)."""

    owner: int
    gesture: str
    conf: float  # how sure the shape is (MediaPipe gives no per-hand detection score in IMAGE mode)
    gesture_conf: float
    box: tuple[float, float, float, float]
    centre: tuple[float, float]
    top_y: float
    inside: float  # share of the hand's landmarks inside the zone polygon
    points: npt.NDArray[np.float32]  # (21, 3) frame pixels


def _inside(points: npt.NDArray[np.float32], polygon: npt.NDArray[np.float64]) -> float:
    import cv2

    contour = polygon.astype(np.float32).reshape(-1, 1, 2)
    hits = sum(cv2.pointPolygonTest(contour, (float(x), float(y)), False) >= 0 for x, y in points[:, :2])
    return hits / len(points)


class HandFinder:
    """Per-worker hand finder over one layout. Owns an IMAGE-mode tracker unless one is given."""

    def __init__(self, layout: Layout, tracker: HandTracker | None = None, *, hand_px: float = 0.0) -> None:
        self.layout = layout
        self._own = tracker is None
        self.tracker = tracker if tracker is not None else HandTracker(mode="image", num_hands=2)
        self.hand_px = hand_px
        self.calls = 0
        self._anchors = {
            s.seat: np.mean(np.asarray(s.head_zone, dtype=np.float64), axis=0) for s in layout.seats
        }
        self._polys = {
            (s.seat, name): np.asarray(s.zone(name), dtype=np.float64)
            for s in layout.seats
            for name in ("table_zone", "raise_zone", "head_zone")
        }

    def close(self) -> None:
        if self._own:
            self.tracker.close()

    def __enter__(self) -> HandFinder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def polygon(self, seat: int, zone: str) -> npt.NDArray[np.float64]:
        return self._polys[(seat, zone)]

    def hand_size(self, seat: int) -> float:
        """Expected hand length in pixels at ``seat``: a table zone is drawn about a hand and a third across
        (measured on tablesim layouts, where the true size is known: 0.68-0.83 of the zone's square root)."""
        if self.hand_px > 0:
            return self.hand_px
        area = polygon_area(tuple((float(x), float(y)) for x, y in self._polys[(seat, "table_zone")]))
        return float(np.clip(0.75 * np.sqrt(area), 20.0, 400.0))

    def detect(
        self, frame: npt.NDArray[np.uint8], seat: int, zone: str, *, tiles: bool = False
    ) -> HandLandmarks:
        poly = self._polys[(seat, zone)]
        specs = [crop_for_zone(frame.shape, poly, pad=0.25)]
        if tiles:
            # Windows three hands wide: the measured best for 40-60 px hands (bench/RESULTS.md, small hands).
            specs = tile_zone(frame.shape, poly, hand_px=self.hand_size(seat), window_hands=3.0)
        self.calls += len(specs)
        return detect_in_crops(self.tracker, frame, specs)

    def find(self, frame: npt.NDArray[np.uint8], seat: int, zone: str) -> list[HandSeen]:
        """Hands whose landmarks lie mostly in ``seat``'s ``zone``, best first. A second, tiled pass runs
        when the single crop finds nothing."""
        hands = self.detect(frame, seat, zone)
        if len(hands) == 0:
            hands = self.detect(frame, seat, zone, tiles=True)
        poly = self._polys[(seat, zone)]
        out: list[HandSeen] = []
        up = (0.0, -1.0)
        for i in range(len(hands)):
            pts = hands.points[i]
            inside = _inside(pts, poly)
            if inside < 0.5:
                continue
            g = classify(pts, image_up=up)
            x0, y0 = float(pts[:, 0].min()), float(pts[:, 1].min())
            x1, y1 = float(pts[:, 0].max()), float(pts[:, 1].max())
            out.append(
                HandSeen(
                    owner=self.owner(pts, seat),
                    gesture=g.gesture,
                    conf=round(g.conf, 3),
                    gesture_conf=round(g.conf, 3),
                    box=(round(x0, 1), round(y0, 1), round(x1, 1), round(y1, 1)),
                    centre=(float(pts[:, 0].mean()), float(pts[:, 1].mean())),
                    top_y=y0,
                    inside=inside,
                    points=pts,
                )
            )
        out.sort(key=lambda h: (-h.inside, -h.conf))
        return out

    def owner(self, points: npt.NDArray[np.float32], zone_seat: int) -> int:
        """The seat the hand's arm comes from: the body anchor best aligned with the forearm direction."""
        wrist = points[WRIST, :2].astype(np.float64)
        knuckle = points[MIDDLE_MCP, :2].astype(np.float64)
        arm = wrist - knuckle
        norm = float(np.hypot(*arm))
        if norm < 1e-6:
            return zone_seat
        arm /= norm
        best_seat, best_angle = zone_seat, math.inf
        angles: dict[int, float] = {}
        for seat, anchor in self._anchors.items():
            to_body = anchor - wrist
            d = float(np.hypot(*to_body))
            if d < 1e-6:
                continue
            cos = float(np.clip(np.dot(arm, to_body / d), -1.0, 1.0))
            angles[seat] = math.degrees(math.acos(cos))
            if angles[seat] < best_angle:
                best_seat, best_angle = seat, angles[seat]
        own = angles.get(zone_seat, math.inf)
        # A fist's wrist-to-knuckle line is short and noisy on a 50 px hand: give the hand to another seat
        # only when its forearm clearly points there and clearly away from the zone's own player.
        if best_seat != zone_seat and (
            best_angle > NEIGHBOUR_MAX_DEG or own - best_angle < OWN_SEAT_BIAS_DEG
        ):
            return zone_seat
        return best_seat
