"""Night watch 0.6 and 0.7: a mask off needs the band's pixels to turn light as skin does, and enough of them.

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
HAIR = (38, 30, 26)


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
    assert _mask(geo, ref, off, seat.seat) >= nw.MASK_AREA


@pytest.mark.parametrize("k", [2, 7])
def test_a_dozen_dark_pixels_turning_light_are_a_rim_not_a_band(geo: nw.Geometry, k: int) -> None:
    """A dark rim of 4 x 3 px turned light, all of it, is no mask off: 12 px at a 40 px head, 0.0075 head
    squares (the seat-3 false masks of 0.6 on seeds 6 and 7 turned 11 px light, a cuff over a shadow's
    rim; the smallest band traced, at seat 8, 21 px, 0.013); a band's strip is. Fails on 0.6 (its
    threshold was 0.006, with a share of the disc's dark pixels that a rim alone in the disc meets)."""
    seat = geo.seats[k]
    assert 0.006 < 12 / seat.scale**2 < 0.01  # above 0.6's threshold, under 0.7's MASK_AREA
    ref = _head(geo, seat)
    cx, cy = (round(float(v)) for v in seat.axis[0])
    cv2.rectangle(ref, (cx - 2, cy), (cx + 1, cy + 2), BAND, -1)
    assert _found(geo, ref, _head(geo, seat), seat.seat) == []
    ref_band = _head(geo, seat)
    _patch(ref_band, seat, 0.5, 0.2, BAND)
    assert _found(geo, ref_band, _head(geo, seat), seat.seat) == [("mask", seat.seat, 10 * nw.STEP_MS)]


def _found(geo: nw.Geometry, ref: np.ndarray, cur: np.ndarray, seat: int) -> list[tuple[str, int, int]]:
    """The mask facts of a stretch of 40 samples showing ``cur`` in samples 10-25, else ``ref`` (with a
    change elsewhere every other sample)."""
    n = 40
    frames = np.stack([ref] * n)
    frames[10:26] = cur
    frames[1::2] = [_elsewhere(geo, f, seat) for f in frames[1::2]]
    series = nw.measure(geo, np.arange(n, dtype=np.int64) * nw.STEP_MS, frames, ref)
    return [(f.kind, f.seat, f.t) for f in nw.facts(series, 0, n * nw.STEP_MS) if f.kind == "mask"]


@pytest.mark.parametrize("k", [2, 4, 7])
def test_a_band_on_a_head_of_dark_hair_is_found(geo: nw.Geometry, k: int) -> None:
    """Where the disc also holds dark hair the band is a fifth of its dark pixels: lifted, it turns a
    band's area light, and that is the mask off (0.7). 0.6 asked for 0.38 of the disc's dark pixels and
    missed it (traced on seeds 4-6 at seats 3, 4, 5, 7, 8, 9: shares 0.09-0.35, areas 0.013-0.04)."""
    seat = geo.seats[k]
    cy = float(seat.axis[0][1])
    ref = _head(geo, seat)
    hair = seat.bowed & (np.arange(ref.shape[0])[:, None] < cy + 0.05 * seat.scale)
    ref[hair] = HAIR
    _patch_at(ref, seat, 0.4, 0.12, 0.15, BAND)
    off = _head(geo, seat)
    off[hair] = HAIR
    dark = np.all(ref < nw.DARK_LEVEL, axis=2) & seat.bowed
    band = int(dark.sum()) - int((np.all(off < nw.DARK_LEVEL, axis=2) & seat.bowed).sum())
    assert band / int(dark.sum()) < 0.3  # the band is a small share of the disc's dark pixels
    assert _found(geo, ref, off, seat.seat) == [("mask", seat.seat, 10 * nw.STEP_MS)]
    assert _found(geo, ref, ref, seat.seat) == []


@pytest.mark.parametrize("k", [0, 9])
def test_a_bands_bar_at_a_near_seat_is_no_hand_over_it(geo: nw.Geometry, k: int) -> None:
    """At the seats nearest the camera the band's change is a bar 0.45 x 0.12 head widths (traced: 25 x 7
    px at seat 1, seed 6 ep08), shaped like an arm's strip, so 0.6 took it for a hand over the disc and
    read nothing. A blob lying mostly in the disc is the band's own change: the mask off is found. A hand
    that comes from outside over the disc still mutes it."""
    seat = geo.seats[k]
    ref = _head(geo, seat)
    _patch(ref, seat, 0.45, 0.12, BAND)
    assert _found(geo, ref, _head(geo, seat), seat.seat) == [("mask", seat.seat, 10 * nw.STEP_MS)]
    covered = _head(geo, seat)
    cx, cy = seat.axis[0]
    r = round(0.5 * seat.scale)
    x0, y0 = round(float(cx)), round(float(cy) - r / 2)
    cv2.rectangle(covered, (x0 - r // 3, y0), (x0 + 3 * r, y0 + r), (250, 250, 250), -1)
    assert _found(geo, ref, covered, seat.seat) == []


def test_a_neighbours_arm_in_the_raise_zone_does_not_hide_a_mask_off() -> None:
    """A neighbour's shot crossing the seat's raise zone while its mask is off (seed 6 ep19 and seed 5
    ep05, seat 10, during the shots of seats 9 and 1's neighbours) does not cut the mask fact: 0.6 muted
    the mask by the seat's raise zone and lost both."""
    n = 60
    s = _series(3, n)
    s.mask[3][20:32] = 1.0
    s.high[3][24:27] = 0.1
    found = nw.facts(s, 0, n * nw.STEP_MS, shooting=True)
    assert [(f.kind, f.seat, f.t, f.until) for f in found] == [("mask", 3, 20 * nw.STEP_MS, 31 * nw.STEP_MS)]


def _series(seat: int, n: int) -> nw.Series:
    z = {seat: np.zeros(n)}
    return nw.Series(
        times=np.arange(n, dtype=np.int64) * nw.STEP_MS,
        head={seat: np.zeros(n)},
        mask={seat: np.zeros(n)},
        move={seat: np.zeros(n)},
        raised={seat: np.zeros(n)},
        touch={},
        high={seat: np.zeros(n)},
        lift=dict(z),
    )


def _patch_at(
    img: np.ndarray, seat: nw.SeatMasks, wide: float, tall: float, down: float, colour: tuple[int, ...]
) -> None:
    """Paint a ``wide`` x ``tall`` rectangle centred ``down`` head widths below the bowed place's centre."""
    cx, cy = seat.axis[0]
    w, h = max(1, round(wide * seat.scale)), max(1, round(tall * seat.scale))
    x0, y0 = round(float(cx) - w / 2), round(float(cy) + down * seat.scale - h / 2)
    cv2.rectangle(img, (x0, y0), (x0 + w - 1, y0 + h - 1), colour, -1)


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


def _picture_parts(
    lit_px: np.ndarray, blob_px: np.ndarray, w: int = 60, h: int = 40
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(lit flat indices, labels (h·w,), blob areas, reference (h, w, 3), sample (h·w, 3)) for
    :func:`nw._band_off`: the pixels ``blob_px`` (bool (h, w)) changed, as one blob; of them ``lit_px``
    were band-dark in the reference and turned skin, the rest changed from skin to a sleeve's colour."""
    ref = np.full((h, w, 3), SKIN, np.uint8)
    ref[lit_px] = BAND
    cur = ref.copy()
    cur[blob_px] = (94, 45, 44)
    cur[lit_px] = SKIN
    labels = blob_px.ravel().astype(np.int64)
    area = np.array([0, int(blob_px.sum())])
    return np.flatnonzero(lit_px.ravel()), labels, area, ref, cur.reshape(-1, 3)


def test_a_band_off_is_a_bar_that_is_most_of_its_change() -> None:
    """0.7's two checks on the light pixels (the first cut without them, f057a4e, raised three false masks
    on seed 6): a band taken off is a horizontal bar and most of its own change -> a band; the same bar
    inside a hand's outline four times its size (a hand shifted under the band: 0.19-0.27 of the blob)
    -> no band; a crescent along a head's edge (a head shifted in a dark hood: spread ratio 1.2-1.3),
    all of its blob -> no band; a line two pixels tall at a 46 px head (a hand's edge sliding under the
    band, seed 5's quiet nights at seats 2 and 9) -> no band."""
    h, w = 40, 60
    yy, xx = np.mgrid[0:h, 0:w]
    bar = (abs(yy - 20) <= 2) & (abs(xx - 30) <= 10)
    args = _picture_parts(bar, bar)
    assert nw._band_off(*args, w)
    box = (abs(yy - 20) <= 9) & (abs(xx - 30) <= 20)
    outline = bar | (box & ((abs(yy - 20) >= 7) | (abs(xx - 30) >= 17)))
    assert bar.sum() / outline.sum() < nw.BLOB_LIT
    args = _picture_parts(bar, outline)
    assert not nw._band_off(*args, w)
    r = np.hypot(yy - 20, xx - 30)
    crescent = (r >= 7) & (r <= 11) & (yy <= 24) & (xx <= 38)
    assert crescent.sum() >= 0.8 * bar.sum()
    args = _picture_parts(crescent, crescent)
    assert not nw._band_off(*args, w)
    line = (yy >= 20) & (yy <= 21) & (abs(xx - 30) <= 10)  # a hand's edge slid under the band: 2 px tall
    args = _picture_parts(line, line)
    assert not nw._band_off(*args, w, 46.4)
    assert nw._band_off(*_picture_parts(bar, bar), w, 46.4)
