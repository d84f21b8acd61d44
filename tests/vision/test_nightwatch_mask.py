"""Night watch 0.6: a mask off needs the band's pixels to turn light as skin does, and enough of them.

Small synthetic working pictures on the sample game's layout: a light head at a seat's bowed place with a
dark patch in it. 0.4 read every dark pixel that crossed DARK_LEVEL as the band gone; at the mid-side seats
the disc holds only a few dark pixels of shadow, and a sleeve's shade sliding over them (a change smaller
than DIFF_LEVEL) or a shadow's rim of a dozen pixels lightening read as a mask off."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from gamelog.layout import read_layout
from vision import nightwatch as nw

GREY = (120, 120, 120)
SKIN = (200, 160, 130)
BAND = (30, 30, 40)


@pytest.fixture(scope="module")
def geo(project_root: Path) -> nw.Geometry:
    layout = read_layout(project_root / "sample_videos/sample_game/layout.json").at(0)
    return nw.Geometry.from_layout(layout)


def _head(geo: nw.Geometry, seat: nw.SeatMasks) -> np.ndarray:
    """Grey working picture (h, w, 3) with a skin disc filling ``seat``'s bowed place."""
    img = np.full((geo.size[1], geo.size[0], 3), GREY, np.uint8)
    img[seat.bowed] = SKIN
    return img


def _patch(img: np.ndarray, seat: nw.SeatMasks, wide: float, tall: float, colour: tuple[int, ...]) -> None:
    """Paint a ``wide`` x ``tall`` (head widths) rectangle centred on the bowed place."""
    cx, cy = seat.axis[0]
    w, h = max(1, round(wide * seat.scale)), max(1, round(tall * seat.scale))
    x0, y0 = round(float(cx) - w / 2), round(float(cy) - h / 2)
    cv2.rectangle(img, (x0, y0), (x0 + w - 1, y0 + h - 1), colour, -1)


def _elsewhere(geo: nw.Geometry, img: np.ndarray, seat: int) -> np.ndarray:
    """``img`` with a hand-sized change on the table zone across from ``seat`` (on a real night something
    always changes somewhere: the watch skips a sample identical to the reference)."""
    other = next(s for s in geo.seats if s.seat == (seat + 4) % len(geo.seats) + 1)
    ys, xs = np.nonzero(other.table)
    out = img.copy()
    cx, cy, r = round(float(xs.mean())), round(float(ys.mean())), max(3, round(0.2 * other.scale))
    cv2.rectangle(out, (cx - r, cy - r), (cx + r, cy + r), (250, 250, 250), -1)
    return out


def _mask(geo: nw.Geometry, ref: np.ndarray, cur: np.ndarray, seat: int) -> float:
    cur = _elsewhere(geo, cur, seat)
    series = nw.measure(geo, np.array([0, 160], np.int64), np.stack([ref, cur]), ref)
    return float(series.mask[seat][1])


@pytest.mark.parametrize("k", [2, 7])
def test_a_shade_sliding_over_a_dark_rim_is_not_a_mask_off(geo: nw.Geometry, k: int) -> None:
    """Dark pixels that cross DARK_LEVEL by a shade change under DIFF_LEVEL (a blue sleeve's edge over a
    shadow: traced at seat 8, 30,33,43 -> 31,40,66) are no band lifted; the same patch turned to skin
    is (0.4 read both as 1.0)."""
    seat = geo.seats[k]
    ref = _head(geo, seat)
    _patch(ref, seat, 0.5, 0.2, BAND)
    shade = ref.copy()
    _patch(shade, seat, 0.5, 0.2, (30, 42, 40 + nw.DIFF_LEVEL))
    off = ref.copy()
    _patch(off, seat, 0.5, 0.2, SKIN)
    assert _mask(geo, ref, shade, seat.seat) == 0.0
    assert _mask(geo, ref, off, seat.seat) > nw.MASK_LOST


@pytest.mark.parametrize("k", [2, 7])
def test_a_dozen_dark_pixels_turning_light_are_a_rim_not_a_band(geo: nw.Geometry, k: int) -> None:
    """A dark sliver smaller than MASK_AREA of a head's square turned light, all of it, is no mask off (the
    shadow rims of seat 8's false alarms turned at most 5 px light, 0.003 head squares; the smallest band
    found held 15 px, 0.009); a band's strip is."""
    seat = geo.seats[k]
    side = np.sqrt(0.8 * nw.MASK_AREA)  # a square sliver of about 0.8 MASK_AREA head squares
    assert round(side * seat.scale) ** 2 >= 4  # enough dark pixels for 0.4's rule to judge
    ref = _head(geo, seat)
    _patch(ref, seat, side, side, BAND)
    sliver_off = _head(geo, seat)
    assert _mask(geo, ref, sliver_off, seat.seat) == 0.0
    ref_band = _head(geo, seat)
    _patch(ref_band, seat, 0.5, 0.2, BAND)
    assert _mask(geo, ref_band, _head(geo, seat), seat.seat) > nw.MASK_LOST


def test_the_mask_fact_needs_the_band_lifted_and_held(geo: nw.Geometry) -> None:
    """Over a stretch: the shade change held for two seconds gives no fact; the band turned to skin for
    the same two seconds is one mask fact at that seat."""
    seat = geo.seats[7]
    ref = _head(geo, seat)
    _patch(ref, seat, 0.5, 0.2, BAND)
    shade, off = ref.copy(), ref.copy()
    _patch(shade, seat, 0.5, 0.2, (30, 42, 40 + nw.DIFF_LEVEL))
    _patch(off, seat, 0.5, 0.2, SKIN)
    n = 60
    times = np.arange(n, dtype=np.int64) * nw.STEP_MS
    for cur, expected in ((shade, []), (off, [("mask", seat.seat, 30 * nw.STEP_MS)])):
        frames = np.stack([ref] * n)
        frames[30:43] = cur
        frames[1::2] = [_elsewhere(geo, f, seat.seat) for f in frames[1::2]]
        series = nw.measure(geo, times, frames, ref)
        found = nw.facts(series, 0, n * nw.STEP_MS)
        assert [(f.kind, f.seat, f.t) for f in found] == expected
