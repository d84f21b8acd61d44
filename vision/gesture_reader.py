"""Read each hand's gesture from several views of one image and combine them.

MediaPipe's landmarks of one hand change with how the hand is presented: mirrored, or cut out and
scaled so that it fills more of the landmark model's input. A hand read the same way in every view
is a surer reading; a hand whose views disagree gets a lower confidence. :func:`read_hands`:

1. runs the tracker on the whole image as it is and mirrored (landmarks un-mirrored back), and takes
   every hand found in either (a hand found in both counts once: same place, same hand);
2. cuts a padded square around each hand (the hand's landmark box filling ``fill`` of the side),
   resized to ``out_size``, as it is and mirrored (optionally rotated), and runs the tracker on each;
3. classifies every view's landmarks (mapped back to the image's pixels, so "up" means the image's
   up) with :func:`vision.gestures.classify` and averages the gesture probabilities over the views
   that found the hand: the gesture is the most probable, ``conf`` its mean probability.

Measured (``bench/RESULTS.md``, "Gestures on real images"): on the real photos of ``../shared/real_hands``
the views get the same target images right as the single reading (24 of the 29 where a hand is found):
MediaPipe's own failures there — a finger aimed at the camera, small backlit hands — are wrong the same
way in every view; on rendered hands at table-camera sizes (tablesim, 50 and 80 px) they read 74/100
poses right against 68/100. It costs two whole-image tracker calls plus two per hand; the single reading
stays :func:`vision.gestures.classify` on one call's landmarks.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np
import numpy.typing as npt

from vision.gestures import GESTURES, GestureResult, classify
from vision.landmarks import HandLandmarks

DEFAULT_OUT_SIZE = 256


@dataclass(frozen=True)
class View:
    """One way of showing the image to the tracker: ``fill`` None for the whole image, else a square
    crop around a hand whose landmark box fills that share of the side; ``mirror`` flips left-right;
    ``angle`` rotates the crop (degrees, counter-clockwise on screen; crops only)."""

    fill: float | None
    mirror: bool = False
    angle: float = 0.0

    def __post_init__(self) -> None:
        if self.fill is not None and not 0.05 <= self.fill <= 1.0:
            raise ValueError(f"fill must be in 0.05..1, got {self.fill}")
        if self.fill is None and self.angle:
            raise ValueError("a whole-image view cannot be rotated")


DEFAULT_VIEWS: tuple[View, ...] = (View(None), View(None, True), View(0.3), View(0.3, True))


@dataclass(frozen=True)
class HandReading:
    """One hand of the image. ``points``: (21, 3) float32 landmarks in image pixels from the first
    view that found it; ``bbox``: x0, y0, x1, y1 around them; ``result``: the combined gesture;
    ``views``: how many views found this hand; ``per_view``: each of those views and its own reading."""

    points: npt.NDArray[np.float32]
    bbox: tuple[float, float, float, float]
    result: GestureResult
    views: int
    per_view: tuple[tuple[View, GestureResult], ...]

    def __post_init__(self) -> None:
        if self.points.shape != (21, 3) or self.points.dtype != np.float32:
            raise ValueError(f"points must be (21, 3) float32, got {self.points.shape} {self.points.dtype}")


class Detector(Protocol):
    def detect(self, image_rgb: npt.NDArray[np.uint8], ts_ms: int | None = None) -> HandLandmarks: ...


def crop_matrix(
    cx: float, cy: float, side: float, out_size: int, angle: float = 0.0, mirror: bool = False
) -> npt.NDArray[np.float64]:
    """The 2×3 affine map from image pixels to a square view of ``out_size`` pixels: the square of
    ``side`` pixels centred on (cx, cy), rotated by ``angle`` degrees and mirrored if asked."""
    s = out_size / side
    a = math.radians(angle)
    lin = s * np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]])
    if mirror:
        lin = np.array([[-1.0, 0.0], [0.0, 1.0]]) @ lin
    t = np.array([out_size / 2, out_size / 2]) - lin @ np.array([cx, cy])
    return np.hstack([lin, t[:, None]])


def to_image(points: npt.ArrayLike, matrix: npt.NDArray[np.float64]) -> npt.NDArray[np.float32]:
    """Landmarks (..., 3) in a view's pixels back to image pixels (z scaled like x)."""
    p = np.array(points, dtype=np.float64, copy=True)
    lin, t = matrix[:, :2], matrix[:, 2]
    p[..., :2] = (p[..., :2] - t) @ np.linalg.inv(lin).T
    p[..., 2] /= math.sqrt(abs(float(np.linalg.det(lin))))
    return p.astype(np.float32)


def _box(points: npt.NDArray[np.float32]) -> tuple[float, float, float, float]:
    lo = points[:, :2].min(axis=0)
    hi = points[:, :2].max(axis=0)
    return float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])


def _nearest(candidates: list[npt.NDArray[np.float32]], box: tuple[float, float, float, float]) -> int | None:
    """Index of the candidate hand whose box centre is nearest ``box``'s, if within half its size."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    reach = 0.5 * max(box[2] - box[0], box[3] - box[1], 1.0)
    best, best_d = None, reach
    for i, pts in enumerate(candidates):
        b = _box(pts)
        d = math.hypot((b[0] + b[2]) / 2 - cx, (b[1] + b[3]) / 2 - cy)
        if d < best_d:
            best, best_d = i, d
    return best


def _view_hands(
    detector: Detector,
    image: npt.NDArray[np.uint8],
    view: View,
    box: tuple[float, float, float, float] | None,
) -> list[npt.NDArray[np.float32]]:
    w = image.shape[1]
    if view.fill is None:
        src = np.ascontiguousarray(image[:, ::-1]) if view.mirror else image
        found = detector.detect(src)
        out = []
        for i in range(len(found)):
            p = found.points[i].copy()
            if view.mirror:
                p[:, 0] = w - p[:, 0]
            out.append(p)
        return out
    assert box is not None
    side = max(box[2] - box[0], box[3] - box[1], 8.0) / view.fill
    size = DEFAULT_OUT_SIZE
    m = crop_matrix((box[0] + box[2]) / 2, (box[1] + box[3]) / 2, side, size, view.angle, view.mirror)
    interp = cv2.INTER_CUBIC if size > side else cv2.INTER_AREA
    crop = cv2.warpAffine(image, m, (size, size), flags=interp, borderMode=cv2.BORDER_REPLICATE)
    found = detector.detect(np.ascontiguousarray(crop))
    return [to_image(found.points[i], m) for i in range(len(found))]


def combine(results: Sequence[GestureResult]) -> GestureResult:
    """The mean of several readings' probabilities: the most probable gesture and its mean probability."""
    if not results:
        raise ValueError("no readings to combine")
    mean = {g: float(np.mean([r.scores.get(g, 0.0) for r in results])) for g in GESTURES}
    best = max(GESTURES, key=lambda g: mean[g])
    return GestureResult(best, round(mean[best], 4), {k: round(v, 4) for k, v in mean.items()})


def read_hands(
    detector: Detector,
    image_rgb: npt.NDArray[np.uint8],
    *,
    views: Sequence[View] = DEFAULT_VIEWS,
    image_up: tuple[float, float] = (0.0, -1.0),
) -> list[HandReading]:
    """Every hand in an RGB uint8 image (H, W, 3) with its gesture read from ``views`` (see the
    module docstring). Hands are listed in the order the whole-image views found them. ``detector``
    is a :class:`vision.landmarker.HandTracker` in IMAGE mode (or anything with its ``detect``)."""
    if image_rgb.ndim != 3 or image_rgb.shape[2] != 3 or image_rgb.dtype != np.uint8:
        raise ValueError(f"expected an RGB uint8 image (H, W, 3), got {image_rgb.shape} {image_rgb.dtype}")
    whole = [v for v in views if v.fill is None]
    crops = [v for v in views if v.fill is not None]
    if not whole:
        raise ValueError("views need at least one whole-image view to find the hands")
    # per hand: the views that found it and their landmarks (image pixels)
    found: list[list[tuple[View, npt.NDArray[np.float32]]]] = []
    for view in whole:
        known = len(found)  # a view's own hands are never merged with each other
        for pts in _view_hands(detector, image_rgb, view, None):
            k = _nearest([f[0][1] for f in found[:known]], _box(pts))
            if k is None:
                found.append([(view, pts)])
            else:
                found[k].append((view, pts))
    readings: list[HandReading] = []
    for hand in found:
        box = _box(hand[0][1])
        for view in crops:
            seen = _view_hands(detector, image_rgb, view, box)
            k = _nearest(seen, box)
            if k is not None:
                hand.append((view, seen[k]))
        results = [classify(p, image_up=image_up) for _, p in hand]
        readings.append(
            HandReading(
                points=hand[0][1].astype(np.float32),
                bbox=box,
                result=combine(results),
                views=len(hand),
                per_view=tuple((v, r) for (v, _), r in zip(hand, results, strict=True)),
            )
        )
    return readings
