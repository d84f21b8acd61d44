"""How noisy a video is, and a second, denoised look at a zone when the first finds no hand.

A camera in a dim club room gives sensor noise; a streaming bitrate turns it into compression blocks and
smears a 50 px hand. On such video the hand landmarker misses resting fists it finds on clean video. Two
pieces, both measured on the video itself rather than set for one camera:

* :func:`noise_sigma` estimates the noise left in a frame: the mean absolute response of a Laplacian-
  difference kernel that cancels smooth shading and straight edges (for Gaussian noise of deviation σ on
  a flat picture it returns σ), over the pixels away from the picture's strongest edges. The video's
  encoder decides how much of the camera's noise survives, so this is the figure that matters, not the
  camera's. Measured on 1080p tablesim games (``bench/RESULTS.md``, "Vision under noise"): clean renders
  and the sample game 0.17–0.18, the noisy knobs (σ 6 noise, blur 1.2, CRF 32) 0.41–0.43.
* :func:`denoised` returns a copy of the frame with one box passed through a non-local-means filter,
  which removes noise and block edges while keeping a hand's outline. The seat watcher looks there again
  when the first look found no hand and the video measured at least :data:`NOISY_SIGMA`: on the noisy
  tuning seeds this found 24 of 29 resting vote hands where the plain look found 16.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

# The kernel (second differences along x and y combined) is blind to constant, linear and bilinear
# shading; its response to white noise of deviation σ has deviation 6σ.
_KERNEL = np.array([[1, -2, 1], [-2, 4, -2], [1, -2, 1]], np.float32)
EDGE_SHARE = 0.1  # the share of pixels with the strongest gradient left out (edges are picture, not noise)
NOISY_SIGMA = 0.3  # grey levels: at and above this, table zones get a denoised second look
NLM_STRENGTH = 5.0  # the filter's h (grey levels): 5 and 8 found the same hands on the tuning seeds
NLM_TEMPLATE, NLM_SEARCH = 5, 15
# On noisy video a zone's picture must stay still this many frames before a landing is read (2 on clean
# video): a hand pausing on its way in for two or three frames is read as a fist on noisy video, then lifts.
NOISY_SETTLE_FRAMES = 4


@dataclass(frozen=True)
class NoiseLevel:
    """One video's noise estimate (grey levels) and whether it calls for the denoised second look."""

    sigma: float

    def __post_init__(self) -> None:
        if not (self.sigma >= 0 and np.isfinite(self.sigma)):
            raise ValueError(f"noise sigma must be finite and >= 0, got {self.sigma}")

    @property
    def noisy(self) -> bool:
        return self.sigma >= NOISY_SIGMA


def settle_frames(level: NoiseLevel | None, clean: int) -> int:
    """How many still frames end a zone's movement: ``clean`` on clean video, more on noisy video."""
    return max(clean, NOISY_SETTLE_FRAMES) if level is not None and level.noisy else clean


def start_shapes_trusted(level: NoiseLevel | None) -> bool:
    """Whether a voting shape read on a hand already resting in a zone when a stretch begins makes it a vote
    to follow for its lift. Not on noisy video: a vote stretch begins before the call, so those hands are
    relaxed hands at rest, and the noisy picture reads them as fists. Followed, the hand's move to the vote
    would be a false lift, and the vote landing right after it (its shape read as relaxed) the lift's end."""
    return level is None or not level.noisy


def noise_sigma(image: npt.NDArray[np.uint8]) -> float:
    """The noise deviation of ``image`` (H×W grey or H×W×3 RGB, uint8, at least 3×3) in grey levels."""
    if image.ndim not in (2, 3) or image.shape[0] < 3 or image.shape[1] < 3:
        raise ValueError(f"need an H×W or H×W×3 image of at least 3×3 pixels, got shape {image.shape}")
    grey = image if image.ndim == 2 else cv2.cvtColor(np.ascontiguousarray(image), cv2.COLOR_RGB2GRAY)
    g = grey.astype(np.float32)
    response = np.abs(cv2.filter2D(g, -1, _KERNEL))[1:-1, 1:-1]
    grad = np.hypot(cv2.Sobel(g, cv2.CV_32F, 1, 0), cv2.Sobel(g, cv2.CV_32F, 0, 1))[1:-1, 1:-1]
    keep = grad <= np.quantile(grad, 1.0 - EDGE_SHARE)
    if not keep.any():
        keep = np.ones_like(keep)
    return float(np.sqrt(np.pi / 2.0) * float(response[keep].mean()) / 6.0)


def measure(image: npt.NDArray[np.uint8]) -> NoiseLevel:
    return NoiseLevel(noise_sigma(image))


def denoised(frame: npt.NDArray[np.uint8], box: tuple[int, int, int, int]) -> npt.NDArray[np.uint8]:
    """A copy of ``frame`` (H×W×3 RGB) with ``box`` = (x0, y0, x1, y1), clipped to the frame, passed through
    the non-local-means filter; the rest of the frame is unchanged."""
    if frame.ndim != 3 or frame.shape[2] != 3:
        raise ValueError(f"need an H×W×3 frame, got shape {frame.shape}")
    h, w = frame.shape[:2]
    x0, y0 = max(0, box[0]), max(0, box[1])
    x1, y1 = min(w, box[2]), min(h, box[3])
    out = frame.copy()
    if x1 - x0 < 3 or y1 - y0 < 3:
        return out
    region = np.ascontiguousarray(frame[y0:y1, x0:x1])
    out[y0:y1, x0:x1] = cv2.fastNlMeansDenoisingColored(
        region, None, NLM_STRENGTH, NLM_STRENGTH, NLM_TEMPLATE, NLM_SEARCH
    )
    return out


# A hand landing on noisy video that the landmarker never reads is found by its colour: the pixels that now
# differ in colour both from the picture before the movement and from the cloth. The grey difference used on
# clean video splits a small hand seen from behind (39-44 px on the far side) into pieces below a hand's area
# on the noisy picture: skin on green cloth differs by about 40 grey levels but by 100-150 in RGB.
# Its minimum area (in the seat's hand length squared) for an unreadable landing: the missed landings of the
# noisy tuning games covered 0.20-0.54, small shifts 0.11-0.14 (a hand coming back to rest after a lift,
# 0.14-0.24, is told apart by that lift: seatwatch.RETURN_MS).
NOISY_UNSEEN_MIN_AREA = 0.16
COVER_BLUR = 3  # box blur (px) of both pictures before the colour comparison: the sensor noise, not the hand


@dataclass(frozen=True)
class Covered:
    """The largest connected part of a zone that something not cloth-coloured came to cover.

    ``mask`` is the zone's rectangle (H×W bool, True on the part), ``box`` = (x0, y0, x1, y1) in the zone
    rectangle's pixels (x1, y1 exclusive), ``area`` the part's pixel count."""

    mask: npt.NDArray[np.bool_]
    box: tuple[int, int, int, int]
    area: int

    def __post_init__(self) -> None:
        if self.mask.ndim != 2 or self.mask.dtype != np.bool_:
            raise ValueError(f"need an H×W bool mask, got {self.mask.dtype} of shape {self.mask.shape}")
        if self.area != int(self.mask.sum()):
            raise ValueError(f"area {self.area} is not the mask's {int(self.mask.sum())} pixels")


def _blurred(
    before: npt.NDArray[np.uint8], now: npt.NDArray[np.uint8], zone: npt.NDArray[np.bool_]
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """``before`` and ``now`` (H×W×3 RGB, matching ``zone``) after a small blur, as float32."""
    if before.shape != now.shape or now.ndim != 3 or now.shape[:2] != zone.shape:
        raise ValueError(f"pictures {before.shape}, {now.shape} and zone {zone.shape} do not match")
    k = (COVER_BLUR, COVER_BLUR)
    b = cv2.blur(np.ascontiguousarray(before), k).astype(np.float32)
    n = cv2.blur(np.ascontiguousarray(now), k).astype(np.float32)
    return b, n


def _largest(hit: npt.NDArray[np.bool_]) -> Covered | None:
    """The largest connected part of ``hit`` (H×W bool) after a 3×3 opening, or None when there is none."""
    hit8 = cv2.morphologyEx(hit.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(hit8, connectivity=8)
    if count <= 1:
        return None
    i = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, w, h = (int(v) for v in stats[i, :4])
    return Covered(labels == i, (x, y, x + w, y + h), int(stats[i, cv2.CC_STAT_AREA]))


def covered(
    before: npt.NDArray[np.uint8],
    now: npt.NDArray[np.uint8],
    zone: npt.NDArray[np.bool_],
    cloth: npt.NDArray[np.float32],
    dist: float,
) -> Covered | None:
    """The largest part of ``zone`` (H×W bool) where ``now`` (H×W×3 RGB) differs by more than ``dist`` (RGB
    distance, after a small blur) both from ``before`` (same shape) and from the cloth's colour ``cloth``,
    or None when there is none. A hand arriving covers the cloth; a hand leaving uncovers it (its place is
    cloth-coloured now) and a hand moving over another hand changes little in colour, so neither counts."""
    b, n = _blurred(before, now, zone)
    cloth = np.asarray(cloth, np.float32).reshape(1, 1, 3)
    hit = (np.linalg.norm(n - b, axis=2) > dist) & (np.linalg.norm(n - cloth, axis=2) > dist) & zone
    return _largest(hit)


def uncovered_share(
    part: npt.NDArray[np.bool_], now: npt.NDArray[np.uint8], cloth: npt.NDArray[np.float32], dist: float
) -> float:
    """The share of ``part`` (H×W bool, not empty) where ``now`` (H×W×3 RGB) shows the cloth again."""
    if not part.any():
        raise ValueError("empty part")
    n = cv2.blur(np.ascontiguousarray(now), (COVER_BLUR, COVER_BLUR)).astype(np.float32)[part]
    return float(np.mean(np.linalg.norm(n - np.asarray(cloth, np.float32).reshape(1, 3), axis=1) <= dist))


def bared_share(
    before: npt.NDArray[np.uint8],
    now: npt.NDArray[np.uint8],
    part: npt.NDArray[np.bool_],
    cloth: npt.NDArray[np.float32],
    dist: float,
) -> float:
    """Of the pixels of ``part`` (H×W bool) that showed something other than the cloth in ``before`` (H×W×3
    RGB), the share that shows the cloth in ``now`` and has changed, after the same small blur as
    :func:`covered`; every such pixel counts, joined or not. 0 when none showed anything but the cloth."""
    b, n = _blurred(before, now, part)
    cloth = np.asarray(cloth, np.float32).reshape(1, 1, 3)
    was = (np.linalg.norm(b - cloth, axis=2) > dist) & part
    if not was.any():
        return 0.0
    hit = was & (np.linalg.norm(n - cloth, axis=2) <= dist) & (np.linalg.norm(n - b, axis=2) > dist)
    return float(np.count_nonzero(hit)) / float(np.count_nonzero(was))


def restored_share(
    before: npt.NDArray[np.uint8], now: npt.NDArray[np.uint8], part: npt.NDArray[np.bool_], dist: float
) -> float:
    """The share of ``part`` (H×W bool, not empty) where ``now`` shows what ``before`` showed (H×W×3 RGB, RGB
    distance at most ``dist`` after the same small blur as :func:`covered`): a hand back where it lay."""
    if not part.any():
        raise ValueError("empty part")
    b, n = _blurred(before, now, part)
    return float(np.mean(np.linalg.norm(n - b, axis=2)[part] <= dist))


def uncovered(
    before: npt.NDArray[np.uint8],
    now: npt.NDArray[np.uint8],
    zone: npt.NDArray[np.bool_],
    cloth: npt.NDArray[np.float32],
    dist: float,
) -> Covered | None:
    """The largest part of ``zone`` (H×W bool) that showed something other than the cloth in ``before``
    (H×W×3 RGB) and shows the cloth in ``now``: what a hand leaving uncovered (RGB distances over ``dist``
    after the same small blur as :func:`covered`); None when there is none."""
    b, n = _blurred(before, now, zone)
    cloth = np.asarray(cloth, np.float32).reshape(1, 1, 3)
    was = np.linalg.norm(b - cloth, axis=2) > dist
    hit = was & (np.linalg.norm(n - cloth, axis=2) <= dist) & (np.linalg.norm(n - b, axis=2) > dist) & zone
    return _largest(hit)
