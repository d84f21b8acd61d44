"""Where each seat's eye-mask band really is: found in the night's bowed reference, not assumed.

The night watch used to look for the mask in a disc halfway between the seat's head zone and its table zone
(where a bowed head leans). At some seats that disc holds more dark clothing or shadow than band, or the band
sits at its edge, so a mask taken off changes too small a share of it, and a nod moving the clothing's edge
changes a large one (session 4: 13-38 reference-dark pixels at seat 8, most of them not the band).

The band is a **dark bar across a face**: a run of dark pixels only a band's height tall (at most
:data:`BAR_THICK` head widths) with lighter pixels (skin, hair) just above and below it, and as wide as a
band (:data:`BAR_WIDE` head widths and more). Dark clothing or a shadow is either thicker than that or has
no light both above and below. The watch takes the bar nearest the assumed bowed place within
:data:`SEARCH` head widths of it and watches those pixels (with a ring round them, where a band moved by a
nod shows up dark again). No bar found: the disc as before.
"""

from __future__ import annotations

import cv2
import numpy as np

DARK_LEVEL = 60  # the band is darker than this in every channel (as the watch's own DARK_LEVEL)
LIGHT_LEVEL = 90  # ...and the face above and below it lighter than this in some channel
BAR_THICK = 0.2  # the band's height at most this many head widths (tablesim: ~0.1)
BAR_WIDE = (
    0.15  # its width at least this many head widths (tablesim 0.2-0.45; a face turned away shows an end)
)
BAR_LONG = 1.2  # ...and at most this many (a dark table edge or a sleeve is longer)
SEARCH = 0.75  # head widths from the assumed bowed place within which the band is looked for
LIGHT_GAP = 2  # px beyond the run's ends in which the lighter face must show (blur)
BAND_MIN = 0.01  # a band this small (in head squares) is a sliver a nod can hide: not watched
FLAT = 2.0  # a band is at least this many times as wide as it is tall
JOIN = 0.1  # head widths: bars this far apart along the band are one band
RING_PX = 3  # the ring round the band, in working px


def bar_pixels(ref: np.ndarray, scale: float) -> np.ndarray:
    """Dark pixels of ``ref`` (h, w, 3) uint8 in vertical runs at most ``BAR_THICK * scale`` tall with a
    lighter pixel within :data:`LIGHT_GAP` px above and below the run: (h, w) bool."""
    dark = np.all(ref < DARK_LEVEL, axis=2)
    light = np.any(ref > LIGHT_LEVEL, axis=2)
    h, w = dark.shape
    tall = max(1, round(BAR_THICK * scale))
    out = np.zeros_like(dark)
    # the light within LIGHT_GAP rows above / below every row
    pad_l = np.zeros((h + 2 * LIGHT_GAP, w), bool)
    pad_l[LIGHT_GAP : LIGHT_GAP + h] = light
    d = dark.astype(np.int8)
    # run starts and ends per column
    edges = np.diff(np.vstack([np.zeros((1, w), np.int8), d, np.zeros((1, w), np.int8)]), axis=0)
    starts_y, starts_x = np.nonzero(edges == 1)
    ends_y, ends_x = np.nonzero(edges == -1)
    so, eo = np.lexsort((starts_y, starts_x)), np.lexsort((ends_y, ends_x))
    for y0, y1, x in zip(starts_y[so], ends_y[eo], starts_x[so], strict=True):
        if y1 - y0 > tall:
            continue
        above = pad_l[y0 : y0 + LIGHT_GAP, x].any()  # rows y0-GAP .. y0-1
        below = pad_l[y1 + LIGHT_GAP : y1 + 2 * LIGHT_GAP, x].any()  # rows y1 .. y1+GAP-1
        if above and below:
            out[y0:y1, x] = True
    return out


def find_band(ref: np.ndarray, centre: np.ndarray, scale: float) -> np.ndarray | None:
    """The band nearest ``centre`` (x, y working px) in the reference (h, w, 3): a bool (h, w) mask of its
    dark pixels, or None when no bar of a band's size lies within :data:`SEARCH` head widths."""
    h, w = ref.shape[:2]
    reach = SEARCH * scale + BAR_LONG * scale
    x0, y0 = max(0, int(centre[0] - reach)), max(0, int(centre[1] - reach))
    x1, y1 = min(w, int(centre[0] + reach) + 1), min(h, int(centre[1] + reach) + 1)
    if x1 <= x0 or y1 <= y0:
        return None
    sub = ref[y0:y1, x0:x1]
    bars = bar_pixels(sub, scale).astype(np.uint8)
    # a band's columns may be cut where the blur leaves no light just above or below: join bars a tenth
    # of a head width apart along the band, and take the dark pixels between them too
    gap = max(3, round(JOIN * scale) | 1)
    bars = cv2.morphologyEx(bars, cv2.MORPH_CLOSE, np.ones((1, gap), np.uint8))
    bars &= np.all(sub < DARK_LEVEL, axis=2).astype(np.uint8)
    count, lab, stats, _ = cv2.connectedComponentsWithStats(bars, connectivity=8)
    best, best_d = 0, np.inf
    cx, cy = centre[0] - x0, centre[1] - y0
    for k in range(1, count):
        width = stats[k, cv2.CC_STAT_WIDTH]
        if not (BAR_WIDE * scale <= width <= BAR_LONG * scale) or width < FLAT * stats[k, cv2.CC_STAT_HEIGHT]:
            continue
        ys, xs = np.nonzero(lab == k)
        dist = float(np.hypot(xs - cx, ys - cy).min())
        if dist <= SEARCH * scale and dist < best_d:
            best, best_d = k, dist
    if not best or stats[best, cv2.CC_STAT_AREA] < BAND_MIN * scale**2:
        return None
    out = np.zeros((h, w), bool)
    out[y0:y1, x0:x1] = lab == best
    return out


def band_ring(band: np.ndarray) -> np.ndarray:
    """The pixels round ``band`` (h, w) bool within :data:`RING_PX` px, the band itself excluded."""
    k = np.ones((2 * RING_PX + 1, 2 * RING_PX + 1), np.uint8)
    grown: np.ndarray = cv2.dilate(band.astype(np.uint8), k).astype(bool) & ~band
    return grown
