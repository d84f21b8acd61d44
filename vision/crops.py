"""Seat crops that bring small hands up to the scale MediaPipe's palm detector needs.

The palm detector sees its input resized to 192×192, so what decides whether a hand is found is the
hand's size **relative to the crop**, not the crop's pixel count: a 50 px hand in a whole 1080p frame
is 9 px to the detector, in a 300 px seat crop 32 px, in a 200 px window 48 px. The landmark model then
works on the hand's own region of the image it was given, where upscaling the crop (cubic) gives it
more pixels to work with. So:

- :func:`crop_for_zone`: one square crop around a zone polygon, padded and clamped to the frame, with
  the factor that scales it to ``out_size`` (never below native size, at most ``max_upscale``);
- :func:`tile_zone`: overlapping square windows about ``window_hands`` hand-widths wide covering a
  zone, each upscaled, so every hand lies whole in a window where it is large enough (the accurate,
  more expensive pass);
- :func:`motion_roi`: one tight window around what moved in a zone between two frames (the cheap pass
  for a hand arriving on the table);
- :func:`extract` cuts and resizes (a turned crop, :attr:`CropSpec.angle`, with one affine warp);
  :meth:`CropSpec.to_frame` maps points back; :func:`detect_crop` runs a tracker on one crop and, while
  it finds nothing, on other looks at the same place (``retries``: turned, wider; then mirrored);
  :func:`detect_in_crops` runs it over several crops and merges the hands found twice.

What the detector is handed is the frame's own pixels, cubic-upscaled, and nothing more. Measured on
rendered life-size hands and real photos (``bench/RESULTS.md``, "Rendered hands vs MediaPipe"): an unsharp
mask after upscaling, CLAHE on luminance, a contrast stretch, gamma 0.8, Lanczos and a 384 px target each
found the same or fewer hands; sharpening and CLAHE lost 5 to 28 points. What helps is the landmarker's
confidence thresholds (:mod:`vision.landmarker`) and, at the price of more calls on every empty crop, a
second look: any other view of the same place (turned by 45°, wider, mirrored) finds a part of the hands
the first call missed, and two such retries bring rendered life-size hands from 92 % to 95 %. Turning the
crop so the arm points down (:func:`upright_angle`) did not help, nor did tighter crops.

Measured with real MediaPipe on real hands pasted at 40–60 px into 1080p frames: see
``bench/RESULTS.md`` ("Small hands: seat crops").
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

import cv2
import numpy as np
import numpy.typing as npt

from vision.landmarks import HandLandmarks

Polygon = Sequence[Sequence[float]] | npt.NDArray[np.floating]
DEFAULT_OUT_SIZE = 256
DEFAULT_HAND_PX = 50.0


@dataclass(frozen=True)
class CropSpec:
    """A crop ``[x0, x1) × [y0, y1)`` of the frame (pixels, inside the frame), resized by ``scale``
    (output pixels per frame pixel) for the detector, and turned by ``angle`` degrees about its centre.

    ``angle`` 0 is the plain crop. Otherwise the detector sees the same square turned so that the crop's
    downward direction is the frame direction ``(-sin angle, cos angle)`` (image axes, y down): what lies
    in that direction from the crop's centre appears below it (:func:`upright_angle` makes the angle that
    puts an arm at the bottom). Pixels the turned square takes from beyond the frame repeat its edge."""

    x0: int
    y0: int
    x1: int
    y1: int
    scale: float
    angle: float = 0.0

    def __post_init__(self) -> None:
        if not (self.x1 > self.x0 and self.y1 > self.y0):
            raise ValueError(f"empty crop {self}")
        if not (self.scale > 0 and math.isfinite(self.scale)):
            raise ValueError(f"scale must be positive, got {self.scale}")
        if not math.isfinite(self.angle):
            raise ValueError(f"angle must be finite, got {self.angle}")

    @property
    def width(self) -> int:
        return self.x1 - self.x0

    @property
    def height(self) -> int:
        return self.y1 - self.y0

    @property
    def out_size(self) -> tuple[int, int]:
        """(width, height) of the image :func:`extract` returns."""
        return max(1, round(self.width * self.scale)), max(1, round(self.height * self.scale))

    def turned(self, angle: float) -> CropSpec:
        """The same square turned by ``angle`` degrees (replacing any turn it had)."""
        return replace(self, angle=float(angle))

    def _rotation(self) -> npt.NDArray[np.float64]:
        """(2, 2): crop-output directions -> frame directions."""
        a = math.radians(self.angle)
        c, s = math.cos(a), math.sin(a)
        return np.array([[c, -s], [s, c]])

    def _centres(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """The crop's centre in frame pixels and in crop-output pixels (continuous coordinates)."""
        frame_c = np.array([(self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2])
        return frame_c, np.array([self.width, self.height]) * self.scale / 2

    def to_frame(self, points: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """Points (..., 2) or (..., 3) in crop-output pixels -> frame pixels (z is scaled like x)."""
        p = np.array(points, dtype=np.float32, copy=True)
        if self.angle == 0.0:
            p[..., 0] = p[..., 0] / self.scale + self.x0
            p[..., 1] = p[..., 1] / self.scale + self.y0
        else:
            frame_c, out_c = self._centres()
            xy = (p[..., :2].astype(np.float64) - out_c) / self.scale
            p[..., :2] = xy @ self._rotation().T + frame_c
        if p.shape[-1] > 2:
            p[..., 2] = p[..., 2] / self.scale
        return p

    def from_frame(self, points: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """The inverse of :meth:`to_frame`."""
        p = np.array(points, dtype=np.float32, copy=True)
        if self.angle == 0.0:
            p[..., 0] = (p[..., 0] - self.x0) * self.scale
            p[..., 1] = (p[..., 1] - self.y0) * self.scale
        else:
            frame_c, out_c = self._centres()
            xy = (p[..., :2].astype(np.float64) - frame_c) @ self._rotation()  # rotation inverse = transpose
            p[..., :2] = xy * self.scale + out_c
        if p.shape[-1] > 2:
            p[..., 2] = p[..., 2] * self.scale
        return p

    def warp_matrix(self) -> npt.NDArray[np.float64]:
        """(2, 3) affine map from crop-output pixel indices to frame pixel indices (pixel centres at
        integers), for ``cv2.warpAffine(..., flags=WARP_INVERSE_MAP)``: the same map as :meth:`to_frame`."""
        frame_c, out_c = self._centres()
        lin = self._rotation() / self.scale
        # frame_idx + 0.5 = lin @ (out_idx + 0.5 - out_c) + frame_c
        offset = frame_c - 0.5 + lin @ (np.array([0.5, 0.5]) - out_c)
        return np.hstack([lin, offset[:, None]])

    def hands_to_frame(self, hands: HandLandmarks) -> HandLandmarks:
        """Hands found in the extracted crop, in frame pixels (a turned crop's world coordinates are
        turned back too, so their x and y follow the frame's axes)."""
        if self.angle == 0.0:
            return hands.scale(1.0 / self.scale).translate(self.x0, self.y0)
        world = None
        if hands.world is not None:
            world = hands.world.copy()
            world[..., :2] = (world[..., :2].astype(np.float64) @ self._rotation().T).astype(np.float32)
        return HandLandmarks(self.to_frame(hands.points), hands.handedness, hands.score, world)


def upright_angle(arm: tuple[float, float] | npt.ArrayLike) -> float:
    """The :attr:`CropSpec.angle` that shows a hand upright: ``arm`` is the frame direction (image axes, y
    down) from the hand towards where its arm comes from (the player's shoulder); the turned crop shows
    that direction straight down, as the palm detector mostly saw hands in training. (0, 1) gives 0."""
    ax, ay = (float(v) for v in np.asarray(arm, dtype=np.float64).reshape(2))
    if not (math.isfinite(ax) and math.isfinite(ay)) or ax == ay == 0.0:
        raise ValueError(f"arm direction must be a finite non-zero vector, got {(ax, ay)}")
    return math.degrees(math.atan2(-ax, ay))


def _frame_wh(frame_shape: Sequence[int]) -> tuple[int, int]:
    if len(frame_shape) < 2 or frame_shape[0] <= 0 or frame_shape[1] <= 0:
        raise ValueError(f"bad frame shape {tuple(frame_shape)}")
    return int(frame_shape[1]), int(frame_shape[0])


def _polygon_box(polygon: Polygon) -> tuple[float, float, float, float]:
    pts = np.asarray(polygon, dtype=np.float64).reshape(-1, 2)
    if len(pts) < 1 or not np.all(np.isfinite(pts)):
        raise ValueError("zone polygon needs at least one finite point")
    return float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()), float(pts[:, 1].max())


def _square(frame_wh: tuple[int, int], cx: float, cy: float, side: float) -> tuple[int, int, int, int]:
    """A square of ``side`` centred at (cx, cy), shifted (not shrunk) to stay in the frame when it fits."""
    w, h = frame_wh
    side_i = max(2, round(side))
    x0 = round(cx - side_i / 2)
    y0 = round(cy - side_i / 2)
    x0 = min(max(x0, 0), max(w - side_i, 0))
    y0 = min(max(y0, 0), max(h - side_i, 0))
    return x0, y0, min(x0 + side_i, w), min(y0 + side_i, h)


def _scale_for(side: int, out_size: int, max_upscale: float) -> float:
    return float(min(max(out_size / max(side, 1), 1.0), max_upscale))


def crop_around(
    frame_shape: Sequence[int],
    center: tuple[float, float],
    side: float,
    *,
    out_size: int = DEFAULT_OUT_SIZE,
    max_upscale: float = 4.0,
    angle: float = 0.0,
) -> CropSpec:
    """A square window of ``side`` pixels around ``center``, clamped to the frame, scaled towards
    ``out_size`` (upscaled at most ``max_upscale`` times, never downscaled), turned by ``angle``."""
    wh = _frame_wh(frame_shape)
    x0, y0, x1, y1 = _square(wh, center[0], center[1], side)
    return CropSpec(x0, y0, x1, y1, _scale_for(max(x1 - x0, y1 - y0), out_size, max_upscale), angle)


def crop_for_zone(
    frame_shape: Sequence[int],
    polygon: Polygon,
    *,
    pad: float = 0.15,
    out_size: int = DEFAULT_OUT_SIZE,
    max_upscale: float = 4.0,
    angle: float = 0.0,
) -> CropSpec:
    """One square crop around a zone polygon: its bounding box grown by ``pad`` × its longer side on
    every side, made square, clamped to the frame, scaled towards ``out_size``."""
    bx0, by0, bx1, by1 = _polygon_box(polygon)
    side = max(bx1 - bx0, by1 - by0) * (1.0 + 2.0 * pad)
    return crop_around(
        frame_shape,
        ((bx0 + bx1) / 2, (by0 + by1) / 2),
        max(side, 8.0),
        out_size=out_size,
        max_upscale=max_upscale,
        angle=angle,
    )


def tile_zone(
    frame_shape: Sequence[int],
    polygon: Polygon,
    *,
    hand_px: float = DEFAULT_HAND_PX,
    window_hands: float = 4.0,
    overlap_hands: float = 1.2,
    pad: float = 0.1,
    out_size: int = DEFAULT_OUT_SIZE,
    max_upscale: float = 4.0,
    angle: float = 0.0,
) -> list[CropSpec]:
    """Overlapping square windows ``window_hands × hand_px`` wide covering the padded zone, with at
    least ``overlap_hands × hand_px`` of overlap so that every hand lies whole in some window.

    A zone smaller than one window gives one window (like :func:`crop_for_zone`, but sized by the hand).
    """
    if hand_px <= 0 or window_hands <= overlap_hands:
        raise ValueError("need hand_px > 0 and window_hands > overlap_hands")
    bx0, by0, bx1, by1 = _polygon_box(polygon)
    padding = pad * max(bx1 - bx0, by1 - by0)
    bx0, by0, bx1, by1 = bx0 - padding, by0 - padding, bx1 + padding, by1 + padding
    window = window_hands * hand_px
    step = window - overlap_hands * hand_px

    def centres(lo: float, hi: float) -> list[float]:
        span = hi - lo
        if span <= window:
            return [(lo + hi) / 2]
        n = math.ceil((span - window) / step) + 1
        stride = (span - window) / (n - 1)
        return [lo + window / 2 + i * stride for i in range(n)]

    specs = [
        crop_around(frame_shape, (cx, cy), window, out_size=out_size, max_upscale=max_upscale, angle=angle)
        for cy in centres(by0, by1)
        for cx in centres(bx0, bx1)
    ]
    return list(dict.fromkeys(specs))  # clamping at the frame edge can make two windows equal


def motion_roi(
    prev: npt.NDArray[np.uint8],
    cur: npt.NDArray[np.uint8],
    polygon: Polygon,
    *,
    threshold: int = 25,
    min_area: float = 0.05,
    hand_px: float = DEFAULT_HAND_PX,
    window_hands: float = 3.0,
    out_size: int = DEFAULT_OUT_SIZE,
    max_upscale: float = 4.0,
    angle: float = 0.0,
) -> CropSpec | None:
    """A tight window around what changed inside the zone between ``prev`` and ``cur`` (same-shape
    RGB or grey frames), or None when less than ``min_area`` × hand_px² pixels changed.

    The window is centred on the largest changed blob and is at least ``window_hands × hand_px``
    wide (at most the padded zone), so a hand arriving on the table is large in the detector's view.
    """
    if prev.shape != cur.shape:
        raise ValueError(f"frames differ in shape: {prev.shape} vs {cur.shape}")
    g0 = cv2.cvtColor(prev, cv2.COLOR_RGB2GRAY) if prev.ndim == 3 else prev
    g1 = cv2.cvtColor(cur, cv2.COLOR_RGB2GRAY) if cur.ndim == 3 else cur
    mask = np.zeros(g1.shape, np.uint8)
    poly = np.round(np.asarray(polygon, dtype=np.float64).reshape(-1, 2)).astype(np.int32)
    cv2.fillPoly(mask, [poly], 255)
    diff = cv2.absdiff(cv2.GaussianBlur(g0, (5, 5), 0), cv2.GaussianBlur(g1, (5, 5), 0))
    changed = ((diff > threshold) & (mask > 0)).astype(np.uint8)
    opened = cv2.morphologyEx(changed, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(opened, connectivity=8)
    if n <= 1:
        return None
    best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, w, h, area = (int(v) for v in stats[best])
    if area < min_area * hand_px * hand_px:
        return None
    bx0, by0, bx1, by1 = _polygon_box(polygon)
    zone_side = max(bx1 - bx0, by1 - by0) * 1.2
    side = min(max(1.3 * max(w, h), window_hands * hand_px), max(zone_side, window_hands * hand_px))
    return crop_around(
        cur.shape, (x + w / 2, y + h / 2), side, out_size=out_size, max_upscale=max_upscale, angle=angle
    )


def extract(frame: npt.NDArray[np.uint8], spec: CropSpec, *, cubic: bool = True) -> npt.NDArray[np.uint8]:
    """The crop of ``frame`` described by ``spec``, resized to ``spec.out_size`` (contiguous); a turned
    spec is cut with one ``cv2.warpAffine`` (the same cost as the resize)."""
    h, w = frame.shape[:2]
    if spec.x1 > w or spec.y1 > h:
        raise ValueError(f"crop {spec} does not fit a {w}x{h} frame")
    size = spec.out_size
    interp = cv2.INTER_CUBIC if cubic and spec.scale > 1 else cv2.INTER_LINEAR
    if spec.angle != 0.0:
        out = cv2.warpAffine(
            frame,
            spec.warp_matrix(),
            size,
            flags=interp | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_REPLICATE,
        )
        return np.ascontiguousarray(out)
    patch = frame[spec.y0 : spec.y1, spec.x0 : spec.x1]
    if size == (spec.width, spec.height):
        return np.ascontiguousarray(patch)
    if spec.scale < 1:
        interp = cv2.INTER_AREA
    return np.ascontiguousarray(cv2.resize(patch, size, interpolation=interp))


class _Detector(Protocol):
    def detect(self, image_rgb: npt.NDArray[np.uint8], ts_ms: int | None = None) -> HandLandmarks: ...


def merge_hands(hands: HandLandmarks, *, iou: float = 0.3) -> HandLandmarks:
    """Drop hands whose box overlaps a better-scored hand's box by more than ``iou``."""
    if len(hands) < 2:
        return hands
    boxes = hands.bboxes().astype(np.float64)
    order = np.argsort(-hands.score, kind="stable")
    keep: list[int] = []
    for i in order:
        ok = True
        for j in keep:
            ix = max(0.0, min(boxes[i, 2], boxes[j, 2]) - max(boxes[i, 0], boxes[j, 0]))
            iy = max(0.0, min(boxes[i, 3], boxes[j, 3]) - max(boxes[i, 1], boxes[j, 1]))
            inter = ix * iy
            area_i = (boxes[i, 2] - boxes[i, 0]) * (boxes[i, 3] - boxes[i, 1])
            area_j = (boxes[j, 2] - boxes[j, 0]) * (boxes[j, 3] - boxes[j, 1])
            union = area_i + area_j - inter
            if union > 0 and inter / union > iou:
                ok = False
                break
        if ok:
            keep.append(int(i))
    return hands.select(np.array(sorted(keep), dtype=np.int64))


def mirrored(hands: HandLandmarks, width: int) -> HandLandmarks:
    """Hands found in a left-right mirrored image of ``width`` pixels, in the unmirrored image: x -> width - x
    (MediaPipe's pixel x is continuous, 0 at the left edge, ``width`` at the right), world x negated,
    left and right swapped."""
    pts = hands.points.copy()
    pts[..., 0] = width - pts[..., 0]
    world = None
    if hands.world is not None:
        world = hands.world.copy()
        world[..., 0] = -world[..., 0]
    return HandLandmarks(pts, (1 - hands.handedness).astype(np.int8), hands.score, world)


def detect_crop(
    detector: _Detector,
    frame: npt.NDArray[np.uint8],
    spec: CropSpec,
    *,
    retry_mirrored: bool = False,
    retries: Sequence[CropSpec] = (),
) -> tuple[HandLandmarks, int]:
    """Hands in one crop (frame pixels) and how many detector calls it took. While nothing is found, each
    of ``retries`` (other crops of the same place: turned, tighter) is tried in turn, then, with
    ``retry_mirrored``, the first crop mirrored left-right: the palm detector is not symmetric, and a hand
    it misses one way it often finds the other (bench/RESULTS.md, "Rendered hands vs MediaPipe"). Every
    retry costs a call on every crop still empty."""
    image = extract(frame, spec)
    hands = detector.detect(image)
    if len(hands):
        return spec.hands_to_frame(hands), 1
    for calls, other in enumerate(retries, start=2):
        hands = detector.detect(extract(frame, other))
        if len(hands):
            return other.hands_to_frame(hands), calls
    calls = 1 + len(retries)
    if not retry_mirrored:
        return HandLandmarks.empty(), calls
    again = detector.detect(np.ascontiguousarray(image[:, ::-1]))
    return spec.hands_to_frame(mirrored(again, image.shape[1])), calls + 1


def detect_in_crops(
    detector: _Detector,
    frame: npt.NDArray[np.uint8],
    specs: Sequence[CropSpec],
    *,
    iou: float = 0.3,
    retry_mirrored: bool = False,
    retry_turns: Sequence[float] = (),
) -> HandLandmarks:
    """Run ``detector`` (an IMAGE-mode :class:`vision.landmarker.HandTracker`) on every crop (see
    :func:`detect_crop`); the hands in frame pixels, duplicates from overlapping crops merged."""
    return detect_in_crops_counted(
        detector, frame, specs, iou=iou, retry_mirrored=retry_mirrored, retry_turns=retry_turns
    )[0]


def detect_in_crops_counted(
    detector: _Detector,
    frame: npt.NDArray[np.uint8],
    specs: Sequence[CropSpec],
    *,
    iou: float = 0.3,
    retry_mirrored: bool = False,
    retry_turns: Sequence[float] = (),
) -> tuple[HandLandmarks, int]:
    """:func:`detect_in_crops` and how many detector calls it made: an empty crop is tried again turned
    by each of ``retry_turns`` degrees (more than its own angle) until a hand is found, then mirrored."""
    found = []
    calls = 0
    for spec in specs:
        retries = [spec.turned(spec.angle + t) for t in retry_turns]
        hands, n = detect_crop(detector, frame, spec, retry_mirrored=retry_mirrored, retries=retries)
        found.append(hands)
        calls += n
    return merge_hands(HandLandmarks.concat(found), iou=iou), calls
