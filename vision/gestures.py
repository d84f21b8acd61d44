"""Hand gesture from 21 landmarks: thumb_up, fist, gun, point, palm or other, with a confidence.

A small hand-written model, no fitting: each finger's extension and the thumb's state are turned
into probabilities by logistic curves on geometric features, and each gesture is a template over
those states (which fingers extended, which curled, thumb out or tucked, thumb pointing up). The
templates are mutually exclusive, so treating the states as independent gives every gesture a
probability and ``other`` gets the rest: a hand between two shapes (a claw, a half-open grip) lands
in ``other`` rather than in the nearest gesture.

Features (all ratios and angles, so the size of the hand does not matter):

- finger bend: the sum of the angles between successive bones, wrist→knuckle→…→tip (degrees; about
  0–60 for a straight finger, 150–300 for a curled one), and the tip's distance from the wrist over
  the knuckle's distance from the wrist (about 1.7–2.3 straight, 0.6–1.2 curled);
- thumb out: the thumb tip's distance to the nearest joint of the other fingers over the palm size
  (a fist's thumb lies on the fingers: 0.1–0.35; a raised or spread thumb: 0.6–1.4), and the thumb's
  own bend;
- thumb up: the cosine between the thumb (knuckle to tip) and the image's up direction.

``gun`` accepts the middle finger extended beside the index (the two-finger pistol many players
make; HaGRID's own "gun" class is drawn that way), so HaGRID's "three2" (thumb, index and middle
out) also reads as ``gun``: at a raised-hand moment at night that is the right call.

Everything except "thumb up" is invariant to mirroring and to in-plane rotation; ``thumb_up`` needs
the thumb within about 60° of ``image_up``, so a thumb pointing down or sideways is ``other``.
The curves' midpoints and widths were set from MediaPipe landmarks of the real photos in
``../shared/real_hands`` (see ``bench/RESULTS.md``, "Gestures on real images", for what that means
for the figures measured on the same photos).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from vision.landmarks import (
    FINGERS,
    INDEX_MCP,
    MIDDLE_MCP,
    PINKY_MCP,
    THUMB_MCP,
    THUMB_TIP,
    WRIST,
    HandLandmarks,
)

GESTURES: tuple[str, ...] = ("thumb_up", "fist", "gun", "point", "palm", "other")
# The shapes that aim: a shooting round's raises are finger-guns, and a blurred or foreshortened gun (or a
# pointing finger seen edge on) reads as "point"; hands going up to the masks at nightfall and at
# "Доброе утро" read as palm, fist or other.
AIMED: tuple[str, ...] = ("gun", "point")
TARGETS: tuple[str, ...] = GESTURES[:-1]

# logistic curves: (midpoint, width); probability = 1 / (1 + exp(-(x - mid) / width)), sign by use
BEND_MID, BEND_WIDTH = 100.0, 14.0  # degrees; below the midpoint = extended
REACH_MID, REACH_WIDTH = 1.45, 0.10  # tip/knuckle distance from the wrist; above = extended
THUMB_GAP_MID, THUMB_GAP_WIDTH = 0.50, 0.07  # thumb tip gap / palm size; above = thumb out
THUMB_BEND_MID, THUMB_BEND_WIDTH = 75.0, 12.0  # thumb bend (degrees); below = straight
PALM_GAP_MID, PALM_GAP_WIDTH = 0.30, 0.06  # an open palm only needs the thumb off the palm
UP_MID, UP_WIDTH = 0.45, 0.10  # cosine of thumb vs image up; above = pointing up


@dataclass(frozen=True)
class GestureFeatures:
    """The geometric features of one hand (see the module docstring)."""

    bend: tuple[float, float, float, float]  # index, middle, ring, pinky (degrees)
    reach: tuple[float, float, float, float]  # tip/knuckle distance from the wrist
    thumb_gap: float  # thumb tip to the nearest other joint, over the palm size
    thumb_bend: float  # degrees
    thumb_up_cos: float  # cosine between the thumb and image up (0 when the thumb has no length in 2D)


@dataclass(frozen=True)
class GestureResult:
    """``gesture`` is the most probable of :data:`GESTURES`, ``conf`` its probability (0..1);
    ``scores`` holds every gesture's probability (they sum to 1)."""

    gesture: str
    conf: float
    scores: dict[str, float] = field(default_factory=dict)


def _sig(x: float) -> float:
    return float(1.0 / (1.0 + np.exp(-np.clip(x, -60.0, 60.0))))


def _angle(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]) -> float:
    na, nb = float(np.linalg.norm(a)), float(np.linalg.norm(b))
    if na < 1e-9 or nb < 1e-9:
        return 0.0
    return float(np.degrees(np.arccos(np.clip(float(a @ b) / (na * nb), -1.0, 1.0))))


def _palm_size(p: npt.NDArray[np.float64]) -> float:
    d = np.linalg.norm
    return float(
        np.mean(
            [
                d(p[INDEX_MCP] - p[WRIST]),
                d(p[MIDDLE_MCP] - p[WRIST]),
                d(p[PINKY_MCP] - p[WRIST]),
                1.3 * d(p[INDEX_MCP] - p[PINKY_MCP]),
            ]
        )
    )


def features(points: npt.ArrayLike, image_up: tuple[float, float] = (0.0, -1.0)) -> GestureFeatures | None:
    """Features of one hand's (21, 3) (or (21, 2)) landmarks; None for a degenerate hand."""
    p = np.asarray(points, dtype=np.float64)
    if p.ndim != 2 or p.shape[0] != 21 or p.shape[1] not in (2, 3):
        raise ValueError(f"expected (21, 3) landmarks, got shape {p.shape}")
    if not np.all(np.isfinite(p)):
        raise ValueError("landmarks contain NaN or infinite values")
    if p.shape[1] == 2:
        p = np.concatenate([p, np.zeros((21, 1))], axis=1)
    size = _palm_size(p)
    if size < 1e-6:
        return None
    bends: list[float] = []
    reaches: list[float] = []
    for name in ("index", "middle", "ring", "pinky"):
        joints = (WRIST, *FINGERS[name])
        bones = [p[joints[k + 1]] - p[joints[k]] for k in range(4)]
        bends.append(sum(_angle(bones[k], bones[k + 1]) for k in range(3)))
        base = float(np.linalg.norm(p[joints[1]] - p[WRIST]))
        reaches.append(float(np.linalg.norm(p[joints[4]] - p[WRIST])) / max(base, 1e-9))
    thumb = FINGERS["thumb"]
    tbones = [p[thumb[k + 1]] - p[thumb[k]] for k in range(3)]
    thumb_bend = _angle(tbones[0], tbones[1]) + _angle(tbones[1], tbones[2])
    others = p[INDEX_MCP:]
    gap = float(np.min(np.linalg.norm(others - p[THUMB_TIP], axis=1))) / size
    v = p[THUMB_TIP, :2] - p[THUMB_MCP, :2]
    up = np.asarray(image_up, dtype=np.float64)
    nv, nu = float(np.linalg.norm(v)), float(np.linalg.norm(up))
    cos_up = float(v @ up) / (nv * nu) if nv > 1e-9 and nu > 1e-9 else 0.0
    return GestureFeatures(
        bend=(bends[0], bends[1], bends[2], bends[3]),
        reach=(reaches[0], reaches[1], reaches[2], reaches[3]),
        thumb_gap=gap,
        thumb_bend=thumb_bend,
        thumb_up_cos=cos_up,
    )


def probabilities(f: GestureFeatures) -> dict[str, float]:
    """Every gesture's probability from the features (they sum to 1)."""
    ext = [
        float(np.sqrt(_sig((BEND_MID - b) / BEND_WIDTH) * _sig((r - REACH_MID) / REACH_WIDTH)))
        for b, r in zip(f.bend, f.reach, strict=True)
    ]
    cur = [1.0 - e for e in ext]
    t_out = _sig((f.thumb_gap - THUMB_GAP_MID) / THUMB_GAP_WIDTH) * _sig(
        (THUMB_BEND_MID - f.thumb_bend) / THUMB_BEND_WIDTH
    )
    t_in = 1.0 - t_out
    t_up = _sig((f.thumb_up_cos - UP_MID) / UP_WIDTH)
    others_curled = cur[1] * cur[2] * cur[3]
    scores = {
        "thumb_up": t_out * t_up * cur[0] * others_curled,
        "fist": t_in * cur[0] * others_curled,
        # a finger-gun is drawn with the index alone or with index and middle together
        "gun": t_out * ext[0] * cur[2] * cur[3],
        "point": t_in * ext[0] * others_curled,
        "palm": _sig((f.thumb_gap - PALM_GAP_MID) / PALM_GAP_WIDTH) * ext[0] * ext[1] * ext[2] * ext[3],
    }
    scores["other"] = max(0.0, 1.0 - sum(scores.values()))
    total = sum(scores.values())
    return {k: v / total for k, v in scores.items()}


def classify(landmarks_21x3: npt.ArrayLike, *, image_up: tuple[float, float] = (0.0, -1.0)) -> GestureResult:
    """The gesture of one hand from its 21 landmarks (image pixels with z, or world coordinates).

    ``image_up`` is the image's up direction in the landmarks' x, y axes: (0, -1) for image
    coordinates, where y grows downwards, and for MediaPipe's world landmarks, whose axes follow the
    camera's (on the real photos world landmarks read 23 of 30 target images right, image ones 24).
    Only ``thumb_up`` depends on it.
    """
    f = features(landmarks_21x3, image_up)
    if f is None:
        scores = dict.fromkeys(GESTURES, 0.0)
        scores["other"] = 1.0
        return GestureResult("other", 0.0, scores)
    scores = probabilities(f)
    best = max(GESTURES, key=lambda g: scores[g])
    return GestureResult(best, round(scores[best], 4), {k: round(v, 4) for k, v in scores.items()})


def classify_hands(
    hands: HandLandmarks, *, image_up: tuple[float, float] = (0.0, -1.0)
) -> list[GestureResult]:
    """One result per hand of ``hands`` (image coordinates)."""
    return [classify(hands.points[i], image_up=image_up) for i in range(len(hands))]
