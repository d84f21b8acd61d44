"""Which changed pixels are the arm that brought a hand: the evidence :meth:`HandFinder.arm_owner` judges.

A hand arriving in a table zone changed the picture along its arm as well as at the hand. Some of that
difference is not the hand's arm, and some of the arm does not show in a plain grey difference; each made a
player's own vote look like a neighbour's reach or the reverse (tuning seeds 405, 513 and 514:
bench/RESULTS.md, "Session 4: attribution"; the last two points: "Session 7: attribution"):

* **What left.** The picture from before the movement may hold a neighbour's arm that has since gone back
  (a reach or a vote a second earlier). Where it was, the picture shows again what it showed when the
  stretch began. A pixel that looks as it did then was uncovered, not covered: it is no arm.
* **What is beside the hand.** A neighbour's arm passing close to a fist joins its changed region at the
  fingers or the side. The hand's own arm leaves the hand at its wrist, away from the knuckles, so only
  the part of the region on the wrist's side counts, when the landmarks give a wrist.
* **What changed in colour only.** A sleeve can be as bright as the cloth it crosses (a blue sleeve on the
  green cloth: grey 64 against 68), so a grey difference keeps only the hand and a sliver of cuff, too
  little to judge. The difference is taken per colour channel (clean 920 and 812: a neighbour's reach read
  as the zone player's vote).
* **What the hand uncovered.** A hand that rested at the table's edge and moved onto the card left its
  rest place showing the cloth again; when it rested there since the stretch began, the first frame does not
  reveal that. An arm covers the cloth with a sleeve or skin, so a changed pixel that now shows the cloth's
  colour is no arm (clean tuning seeds 806 and 906: a far-side player's own thumb-up read as the green-clad
  neighbour's reach because the uncovered green cloth measured as that neighbour's sleeve; bench/RESULTS.md,
  "Session 7: attribution").
* **What settled before the hand came.** The picture compared against is taken a second before the zone's
  movement, so a neighbour's arm that came to rest in that second (its own vote beside this zone) is part of
  the change and can touch the hand's own arm (noisy tuning seeds 1001 and 1007: 2,700 px of the
  neighbour's sleeve joined to the player's fist, so the vote became the neighbour's reach). Only what
  changed since the zone's picture just before its movement moved with the hand. A reach still counts: its
  sleeve moves along with the hand it brings. An arm resting under a still hand or finger is split by it,
  so changed pixels a few apart are taken as one region ("Session 8: attribution").
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt

ARM_DELTA = 18  # levels of any one colour channel (after a 5×5 blur) that count as changed along an arm
WRIST = 0
# The arm leaves the hand within this angle of the direction from the hand's centre to its wrist. Wider
# takes in a neighbour's arm lying beside a fist (seed 405: seat 5's sleeve 61° from seat 4's wrist).
WRIST_CONE_DEG = 50.0
# The wrist direction is trusted only when the wrist lies this far from the hand's centre (in hand-box
# sides); a flat, unreadable hand has no landmarks at all.
WRIST_MIN_OFFSET = 0.1
# A changed pixel whose colour (after a 5×5 blur) lies this close to the cloth's (``cloth_distance``) shows
# the cloth: it was uncovered, not covered by an arm. Uncovered cloth measures 0.00-0.05 on the traced games;
# the sleeve nearest the green cloth there (a green-clad player's, clean 906 seat 5) 0.3-0.6.
CLOTH_NEAR = 0.15
# Changed pixels this close (a square kernel's side, px) are one region: an arm passing under a resting hand
# or finger that did not move is split by it, a few pixels apart at its edge (clean 1008: 5 px kept the
# neighbour's sleeve apart from its pointing hand).
CLOSE_PX = 7
# The strip joined to the wrist (wrist_strip): this long past the wrist along the forearm and this wide on
# each side of its line, in expected hand lengths. Clean 1105: the grey forearm runs half a hand length from
# the wrist before a neighbour's blue sleeve crosses it.
STRIP_LEN, STRIP_HALF_WIDTH = 0.5, 0.3
MIDDLE_KNUCKLE = 9


def _blur(img: npt.NDArray[np.uint8], box: tuple[int, int, int, int]) -> npt.NDArray[np.int16]:
    """The box of an (H, W, 3) frame, blurred 5×5: (h, w, 3) signed levels."""
    x0, y0, x1, y1 = box
    blurred = cv2.GaussianBlur(np.ascontiguousarray(img[y0:y1, x0:x1]), (5, 5), 0)
    out: npt.NDArray[np.int16] = blurred.astype(np.int16)
    return out


def _diff(a: npt.NDArray[np.int16], b: npt.NDArray[np.int16]) -> npt.NDArray[np.int16]:
    """How much each pixel changed between two (h, w, 3) blurred boxes: its largest channel difference."""
    out: npt.NDArray[np.int16] = np.abs(a - b).max(axis=2)
    return out


def cloth_distance(rgb: npt.NDArray[np.float64], cloth: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """How far each of ``rgb``'s (N, 3) colours is from the cloth's (3,) colour: the difference of their
    chromaticities (r, g, b over their sum), plus a smaller part for a difference in brightness (shading
    changes the brightness of the cloth, not its chromaticity). Returns (N,) distances."""
    if rgb.ndim != 2 or rgb.shape[1] != 3 or cloth.shape != (3,):
        raise ValueError(f"cloth_distance: expected (N, 3) and (3,) colours, got {rgb.shape}, {cloth.shape}")
    sa = rgb.sum(axis=1, keepdims=True) + 10.0
    sb = float(cloth.sum()) + 10.0
    chroma = np.linalg.norm((rgb + 10.0 / 3) / sa - (cloth + 10.0 / 3) / sb, axis=1)
    out: npt.NDArray[np.float64] = 3.0 * chroma + 0.5 * np.abs(np.log(sa[:, 0] / sb))
    return out


def arm_pixels(
    before: npt.NDArray[np.uint8],
    after: npt.NDArray[np.uint8],
    centre: tuple[float, float],
    points: npt.NDArray[np.float32],
    size: float,
    background: npt.NDArray[np.uint8] | None = None,
    cloth: npt.NDArray[np.float64] | None = None,
    recent: npt.NDArray[np.uint8] | None = None,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]] | None:
    """The changed region joined to a hand, and which of its pixels are its arm.

    ``before``/``after``/``background``/``recent``: (H, W, 3) RGB frames (``background``: the stretch's
    first frame; ``recent``: the zone's picture just before its movement; both optional). ``cloth``: the
    (3,) RGB colour of the table's cloth around the zone (optional: without it no pixel is ruled out by its
    colour). ``centre``: the hand's centre; ``points``: its (21, 3) landmarks in
    frame pixels (all zero when unread); ``size``: the hand box's larger side. Returns ``(pts, arm)``: the
    region's (N, 2) frame pixel coordinates and an (N,) mask of those beyond the hand on its wrist's side
    (and not cloth-coloured, given ``cloth``), or None when nothing changed at the hand. With ``recent``
    only pixels that changed since it as well count: what settled before the movement is no part of it."""
    if points.shape != (21, 3):
        raise ValueError(f"points: expected (21, 3) landmarks, got {points.shape}")
    h, w = after.shape[:2]
    cx, cy = centre
    r = 3.0 * size
    box = (int(max(0, cx - r)), int(max(0, cy - r)), int(min(w, cx + r)), int(min(h, cy + r)))
    x0, y0, x1, y1 = box
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    now = _blur(after, box)
    changed = _diff(_blur(before, box), now) > ARM_DELTA
    if background is not None:
        changed &= _diff(_blur(background, box), now) > ARM_DELTA  # uncovered, not covered
    if recent is not None:
        changed &= _diff(_blur(recent, box), now) > ARM_DELTA  # moved with the hand, not settled before
    kernel = np.ones((CLOSE_PX, CLOSE_PX), np.uint8)
    mask = cv2.morphologyEx(changed.astype(np.uint8), cv2.MORPH_CLOSE, kernel)
    n, labels, _, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    hx, hy = int(cx - x0), int(cy - y0)
    if n <= 1 or not (0 <= hy < labels.shape[0] and 0 <= hx < labels.shape[1]):
        return None
    lab = labels[hy, hx]
    if lab == 0:
        # the centre of a fist may not change much; take the component nearest to it
        ys, xs = np.nonzero(labels)
        k = int(np.argmin((xs - hx) ** 2 + (ys - hy) ** 2))
        lab = labels[ys[k], xs[k]]
    ys, xs = np.nonzero(labels == lab)
    pts = np.stack([xs + x0, ys + y0], axis=1).astype(np.float64)
    rel = pts - np.array([cx, cy])
    arm = np.hypot(rel[:, 0], rel[:, 1]) > 0.9 * size
    if np.any(points[:, :2]):
        wrist = points[WRIST, :2].astype(np.float64) - points[:, :2].astype(np.float64).mean(axis=0)
        reach = float(np.hypot(*wrist))
        if reach >= WRIST_MIN_OFFSET * size:
            cos = (rel @ (wrist / reach)) / np.maximum(np.hypot(rel[:, 0], rel[:, 1]), 1e-6)
            arm &= cos >= math.cos(math.radians(WRIST_CONE_DEG))
    if cloth is not None:
        rgb = now[ys, xs].astype(np.float64)
        arm &= cloth_distance(rgb, cloth.astype(np.float64)) > CLOTH_NEAR  # uncovered cloth, no arm
    return pts, arm


def wrist_strip(
    pts: npt.NDArray[np.float64],
    after: npt.NDArray[np.uint8],
    points: npt.NDArray[np.float32],
    hand_len: float,
    cloth: npt.NDArray[np.float64] | None = None,
) -> npt.NDArray[np.bool_] | None:
    """Which of a changed region's (N, 2) pixels ``pts`` (frame coordinates, from :func:`arm_pixels`) are the
    forearm joined to the hand's wrist: those within ``STRIP_LEN`` hand lengths past the wrist along the
    middle knuckle-to-wrist direction and ``STRIP_HALF_WIDTH`` of its line, not cloth-coloured (given the
    (3,) ``cloth``). ``after``: the (H, W, 3) RGB frame; ``points``: the hand's (21, 3) landmarks;
    ``hand_len``: the expected hand length in pixels. Returns an (N,) mask, or None when the landmarks give
    no wrist direction (unread, or the wrist on the knuckle)."""
    if points.shape != (21, 3):
        raise ValueError(f"points: expected (21, 3) landmarks, got {points.shape}")
    if pts.ndim != 2 or pts.shape[1] != 2:
        raise ValueError(f"pts: expected (N, 2) pixels, got {pts.shape}")
    wrist = points[WRIST, :2].astype(np.float64)
    back = wrist - points[MIDDLE_KNUCKLE, :2].astype(np.float64)
    length = float(np.hypot(*back))
    if not np.any(points[:, :2]) or length < WRIST_MIN_OFFSET * hand_len:
        return None
    u = back / length
    rel = pts - wrist
    along = rel @ u
    across = np.abs(rel @ np.array([-u[1], u[0]]))
    strip = (along >= 0) & (along < STRIP_LEN * hand_len) & (across <= STRIP_HALF_WIDTH * hand_len)
    if cloth is not None and strip.any():
        h, w = after.shape[:2]
        xs = np.clip(pts[:, 0].astype(np.int64), 0, w - 1)
        ys = np.clip(pts[:, 1].astype(np.int64), 0, h - 1)
        idx = np.nonzero(strip)[0]
        x0, y0 = int(xs[idx].min()), int(ys[idx].min())
        x1, y1 = int(xs[idx].max()) + 1, int(ys[idx].max()) + 1
        now = _blur(after, (max(0, x0 - 2), max(0, y0 - 2), min(w, x1 + 2), min(h, y1 + 2)))
        ox, oy = max(0, x0 - 2), max(0, y0 - 2)
        rgb = now[ys[idx] - oy, xs[idx] - ox].astype(np.float64)
        strip[idx] = cloth_distance(rgb, cloth.astype(np.float64)) > CLOTH_NEAR
    out: npt.NDArray[np.bool_] = strip
    return out
