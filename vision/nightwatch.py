"""Night watch: heads raised, masks lifted and hands moving while the table sleeps.

From a night's start to the day, every seat should sit still with the head bowed and the eye mask on. The
watch compares each sampled frame with the **bowed reference**: the per-pixel median of the stretch's
samples (heads are down almost all night, so a peek of a few seconds does not reach the median). Pixels that
differ (a change mask) are grouped into connected blobs and each blob is explained by the layout:

* **head up** — a blob lying mostly inside head paths and little in table or raise zones, given to the seat
  whose *head path* holds most of it. The head path is the capsule from where the head is bowed to where it
  is upright (the head zone); the bowed place is not in the layout and is taken halfway from the head zone
  towards the seat's table zone (a bowed head leans over the table). Not while the seat's hand is in its
  raise zone (a raised arm crosses the head path). Each head up lists the other seats' arms seen up then
  (0.9, ``extra["arms"]``): a neighbour's gun held in front of the peeking head is read by the landmarker
  through the same zones as the head, and the arm up in its own raise zone, clear of every head path, tells
  the analyser it is a hand.
* **mask** — the bowed place only *loses* dark pixels (the black band turns to skin) while no hand is over
  it and the head does not rise: the mask lifted. A lost pixel counts only when it turned *light*
  (brighter than the reference by :data:`DIFF_LEVEL`, as skin is against the band), and the light ones
  must hold :data:`MASK_AREA` of a head's square (0.7): a band lifted turns 0.013-0.04 head squares light
  wherever the disc sits on it, a cuff or a sleeve's shade over a shadow's rim at a mid-side seat under
  0.008. 0.6 also asked for a share of the disc's dark pixels, which lost the bands of heads with dark
  hair or clothes in the disc (a band is a tenth to a third of them). A hand blob over the disc mutes it
  only when most of the blob lies off the disc (at the near seats the band's own change is a bar shaped
  like an arm's strip), and an arm in the seat's raise zone does not (a neighbour's shot crosses it).
  Without the share, two more things light a band's area: a hand shifted under the band (its outline's
  change crosses it) and a head shifted in a dark hood (a crescent along its edge); so the light pixels
  must lie in a horizontal bar (:data:`BAR_RATIO`) and be a good part of their change (:data:`BLOB_LIT`).
  Even so a hand shifted under a bowed head lit a band's bar (its outline or its sleeve's edge crossing the
  band: every false mask of 0.7 on the fidgety nights of seeds 3-8), so (0.8) no mask is read in a sample
  where the seat's own table zone changed (:data:`HAND_STILL`): a band taken off changes the band alone.
* **touch** — a hand blob spanning two neighbours' regions (body and table zone); it belongs to the seat
  whose bowed head it comes nearest (the arm's root at the owner's shoulder; at the other seat only the
  hand arrives). Not when the touched seat's own zone was already moving in the :data:`OWN_FIRST`
  samples before the blob spanned both: that is the touched seat's own hand (a sign at the black
  players' meeting, a raised arm), whose root happens to lie over its neighbour in the picture — a reach
  arrives from the other seat, the zone it reaches is still until then. A reach also carries the
  toucher's hand off its rest, so the toucher's own table zone must change during the touch (0.8: a
  neighbour's hand shifted beside a bowed head at a mid-side seat spans both seats and lies nearest that
  head). In ``shooting`` stretches not while either seat has a hand up in its raise zone (a shot crossing
  a neighbour).
* **gesture** — other hand blobs in the seat's table or raise zone: hands moving. Not reported in
  ``shooting`` stretches, where raised hands are the shots (the referee times those).
* **arm raise** (0.10, ``shooting`` stretches only) — the seat's arm up in its own raise zone clear of every
  head path while its own resting hand left the table zone: a raise, reported as a ``shot_raise`` of shape
  "other" with a low confidence and ``extra["seen_by"] = "arm"``. The landmarker reads the hand's shape and
  its peak; on blurred, blocky video it misses a held gun on every frame now and then, and the analyser
  keeps the arm's raise only where the landmarker read no raise by that seat (``vision.analyzer``).

**Fidget or violation** is told by size and duration in the seat's own scale, never by pixel counts:
every seat has ``scale`` (its head width) and ``rise`` (how far a rise above the table shows at that seat:
from its table zone to its raise zone). A head moved by d px changes about 2·d·width px (the strip it
left and the strip it covers), so its move is d / rise (an estimate that reads low: the strips' ends stick
out of the head path and are not counted, and strips a pixel or two thin vanish in the speck filter, so a
nod of a few per cent reads about nothing); a head up needs :data:`LIFT_MIN` of the rise held
for :data:`HOLD_SAMPLES` samples (a peek raises the head and holds it; a nod is small and returns), and
:data:`HAND_LIFT` times as much while the seat's own table zone changes (0.8: a resting hand shifted under
the bowed head at a near seat changes its outline inside the head path, a small lift). A hand
counts only when its change spans :data:`SPAN_MIN` head widths, covers :data:`AREA_MIN` of a head's
square and is :data:`THICK_MIN` head widths thick somewhere (the widest disc inside it): a gesture or a
touch carries the whole hand well away from its rest, so its change holds a hand's width; a hand or an
arm shifted a few centimetres changes thin strips along its outline, which can be as long as a gesture
(an arm's edge) but are only as thick as the shift (0.12–0.18 head widths on the bench's fidgety nights,
whole hands 0.22–0.35).

A head's change must also be broad (0.4): a head is round, so the change it leaves is about as broad as it
is long, while a forearm shifted beside a bowed head leaves a long thin strip; at the seats nearest the
camera that strip lies along the head's path in the picture. A blob :data:`ELONG_MAX` times as long as
it is broad (the spread of its pixels along and across its main axis) and under :data:`THICK_MIN` head
widths thick is an arm's, a hand blob, not a head (on the bench's fidgety nights such strips measured
3.7-4.8 and 0.10-0.14 head widths, lifts of 10-20 % of a peek 1.1-2.1; a full peek sweeping up its
path is as long as a strip but a head's width thick).
A mask off must hold :data:`MASK_HOLD` samples: a nod bobs the band's edge for half a second.

Other facts must hold for :data:`MIN_SAMPLES` samples. Known limits: a head kept up for most of a stretch
(the mafia's meeting filling night 0) becomes the reference, so its timing comes out inverted; the
analyser cuts long nights into one-minute stretches, and a fact crossing a cut is reported in two parts.
The own-hand rules of 0.8 compare the table zone with the reference, not with the sample before: a player
who takes the mask off by hand and rests the hand somewhere new is read as "hand moved" until the stretch
ends (tablesim's mask acts move no hand, so the bench does not show that case).

Measured in ``bench/bench_nightwatch.py`` (see ``bench/RESULTS.md``). MediaPipe's face detectors were tried
first: on bowed, masked heads seen from above they found a third of the raised heads and fired on bowed ones,
so the appearance change is the signal; the face model is not loaded.

Sampling: :data:`STEP_MS` (160 ms, about 6 frames a second) from ``start_ms`` to ``end_ms``; every frame is
decoded (the codec needs them), only the samples are converted and compared, on a copy of the frame scaled
so that a head zone is about :data:`WORK_HEAD_PX` pixels wide.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from gamelog.events import Event, HeadUp, NightMotion, ShotRaise
from gamelog.layout import Layout

NAME = "mafiacam-nightwatch"
VERSION = "0.11"
STEP_MS = 160
WORK_HEAD_PX = 40.0  # head-zone width at the working scale
DIFF_LEVEL = 30  # 8-bit levels: a pixel differs from the reference by more than this in any channel
DARK_LEVEL = 60  # the eye mask is darker than this in every channel
SETTLE_MS = 3000  # heads still going down at the start of a stretch
SETTLE_KEEP_MS = 5000  # ...but a head still up this long after the start is reported
END_GUARD_MS = 1200  # heads rising for the day just before the day mark
HEAD_SHARE = 0.15  # head path changed share that counts as the head up
MASK_AREA = 0.01  # the bowed place's dark pixels turned light hold this share of a head's square
BAR_RATIO = 2.0  # ...lie in a horizontal bar, this many times as wide as tall (bands 2.3-5.7 on seeds 5-6)
BAR_TALL = 0.06  # ...this many head widths tall (bands 0.075+, a hand's edge slid under the band 0.043)
BLOB_LIT = 0.28  # ...and are this share of their changed blobs (bands 0.30-0.73, a hand shifted 0.19-0.27)
HAND_STILL = 0.01  # ...while under this share of the seat's own table zone changed (a hand shifted 0.022+)
HAND_LIFT = 1.5  # a head up while the seat's own table zone changed needs this many LIFT_MIN
MOVE_PX_SHARE = 0.075  # table/raise zone changed share that counts as a hand moving
TOUCH_PX_SHARE = 0.08  # neighbour's table zone share reached by one's own blob
RAISED_SHARE = 0.03  # raise zone changed share: a hand is up (a shot, a gesture), not a head
# A head_up lists the other seats' arms up (their raise zones changed clear of every head path) from this long
# before the lift to this long after the head went down: the analyser tells a neighbour's raised hand from the
# head it passes in front of by it (vision.analyzer.ARM_UP_MS)
ARMS_NEAR_MS = 1000
# A shooting stretch: the seat's arm up in its raise zone clear of every head path (``high``) while its own
# table zone changed (its resting hand left) at least this share, in the run or ARM_TABLE_BEFORE samples
# before it, is a raise (``arm_raise``, a ``shot_raise`` of shape "other" with ARM_RAISE_CONF, for the judge),
# whether or not the landmarker read the hand (the analyser keeps it only where it did not). Measured on the
# 13 seen noisy games with known heads and missed guns (sets 14xx-33xx, FF 3700/3711/3715): every one of 33
# true raises lit such a run (own table 0.056-0.304), and every run of a seat that did not raise (a
# neighbour's arm crossing its raise zone) had its own table zone unchanged (0.000).
ARM_TABLE = 0.03
ARM_TABLE_BEFORE = 4
ARM_RAISE_CONF = 0.3
# ...once: a second run of the same arm this soon after the first one's time is that arm coming down through
# the zone (noisy GG 3814: seat 10's arm up from 76.16 s to 76.80 s and lit again from 77.28 s to 77.44 s on
# its way down; counted twice, "shot more than once", the kill lost). The analyser merges one seat's raise
# sightings as close as this (vision.analyzer.DEDUPE_MS).
ARM_ONCE_MS = 1500
MIN_SAMPLES = 2  # a fact must hold in this many consecutive samples
HOLD_SAMPLES = 5  # ...a head up this many (held two thirds of a second: a nod returns sooner)
MASK_HOLD = 6  # ...a mask off this many (0.8 s: a nod's bob darkens or lightens the band for 0.5-0.64 s)
OWN_FIRST = 2  # samples before a touch in which the touched seat's own hand moving makes it that hand
GAP_SAMPLES = 2  # two runs closer than this many samples are one fact
REF_SAMPLES = 25  # samples in the reference's median
LIFT_MIN = (
    0.03  # a head up: it moved by this share of the seat's rise (a 4 % nod: ~0.015, a 15 % lift: ~0.05)
)
SPAN_MIN = 0.9  # a hand away from its rest: its change spans this many of the seat's head widths...
AREA_MIN = 0.15  # ...and covers this share of a head's square (a hand shifted 3 cm: under 0.08)
THICK_MIN = 0.2  # ...and is this many head widths thick somewhere (a whole hand, not an arm's edge)
ELONG_MAX = 3.0  # a change this many times as long as broad and under THICK_MIN thick is an arm's strip


@dataclass(frozen=True)
class SeatMasks:
    """One seat's regions at the working scale, as boolean images (h, w) of the working frame.

    head_path: the capsule from the bowed place to the head zone. bowed: the disc of the bowed head.
    table, raise_: the seat's own zones minus its head path. body: head path, table and the ground between.
    axis: (c_down, c_up) in working px, (2, 2). The seat's own scale, in working px: ``scale`` its head
    width (the head zone's width), ``rise`` how far a rise from the table shows at that seat (from its
    table zone's centre to its raise zone's centre: the same height at every seat, seen from the camera).
    """

    seat: int
    head_path: np.ndarray
    bowed: np.ndarray
    table: np.ndarray
    raise_: np.ndarray
    body: np.ndarray
    axis: np.ndarray
    scale: float = 1.0
    rise: float = 1.0

    def __post_init__(self) -> None:
        shape = self.head_path.shape
        for name in ("bowed", "table", "raise_", "body"):
            m = getattr(self, name)
            if m.shape != shape or m.dtype != np.bool_:
                raise ValueError(f"{name} must be a bool array of shape {shape}, got {m.shape} {m.dtype}")
        if self.axis.shape != (2, 2):
            raise ValueError(f"axis must be (2, 2), got {self.axis.shape}")
        if not (self.scale > 0 and self.rise > 0):
            raise ValueError(f"scale and rise must be positive, got {self.scale}, {self.rise}")


@dataclass(frozen=True)
class Geometry:
    """Where to look: the crop of the frame holding every zone, its scale, and every seat's masks."""

    crop: tuple[int, int, int, int]  # x0, y0, x1, y1 in frame px
    scale: float
    size: tuple[int, int]  # working width, height
    seats: tuple[SeatMasks, ...]
    neighbours: dict[int, tuple[int, ...]]

    @classmethod
    def from_layout(cls, layout: Layout) -> Geometry:
        polys = [
            np.asarray(p, np.float64) for s in layout.seats for p in (s.table_zone, s.raise_zone, s.head_zone)
        ]
        heads = [np.asarray(s.head_zone, np.float64) for s in layout.seats]
        head_w = float(np.median([np.ptp(h[:, 0]) for h in heads]))
        scale = min(1.0, WORK_HEAD_PX / max(head_w, 1.0))
        allp = np.concatenate(polys)
        pad = head_w
        w_img, h_img = layout.frame_size
        x0, y0 = max(0, int(allp[:, 0].min() - pad)), max(0, int(allp[:, 1].min() - pad))
        x1, y1 = min(w_img, int(allp[:, 0].max() + pad)), min(h_img, int(allp[:, 1].max() + pad))
        size = (max(1, round((x1 - x0) * scale)), max(1, round((y1 - y0) * scale)))
        off = np.array([x0, y0], np.float64)

        def poly_mask(poly: Any) -> np.ndarray:
            m = np.zeros((size[1], size[0]), np.uint8)
            pts = np.round((np.asarray(poly, np.float64) - off) * scale * 16).astype(np.int32)
            cv2.fillPoly(m, [pts], 1, cv2.LINE_8, shift=4)
            return m.astype(bool)

        seats = []
        for s in layout.seats:
            hz = (np.asarray(s.head_zone, np.float64) - off) * scale
            tz = (np.asarray(s.table_zone, np.float64) - off) * scale
            rz = (np.asarray(s.raise_zone, np.float64) - off) * scale
            c_up, c_tab = hz.mean(0), tz.mean(0)
            c_down = c_up + 0.5 * (c_tab - c_up)
            r = 0.5 * float(np.ptp(hz[:, 0]))
            path = np.zeros((size[1], size[0]), np.uint8)
            cv2.line(path, _ip(c_up), _ip(c_down), 1, max(1, round(1.2 * r)))
            cv2.circle(path, _ip(c_up), round(0.7 * r), 1, -1)
            cv2.circle(path, _ip(c_down), round(0.6 * r), 1, -1)
            bowed = np.zeros_like(path)
            cv2.circle(bowed, _ip(c_down), round(0.6 * r), 1, -1)
            body = path.copy()
            cv2.line(body, _ip(c_down), _ip(c_tab), 1, max(1, round(1.6 * r)))
            head_path = path.astype(bool)
            table = poly_mask(s.table_zone) & ~head_path
            raise_ = poly_mask(s.raise_zone) & ~head_path
            seats.append(
                SeatMasks(
                    seat=s.seat,
                    head_path=head_path,
                    bowed=bowed.astype(bool),
                    table=table,
                    raise_=raise_,
                    body=body.astype(bool) | table,
                    axis=np.array([c_down, c_up]),
                    scale=max(1.0, 2.0 * r),
                    rise=max(1.0, float(np.linalg.norm(rz.mean(0) - tz.mean(0)))),
                )
            )
        order = sorted(s.seat for s in layout.seats)
        n = len(order)
        nb = {
            order[i]: tuple(sorted({order[(i - 1) % n], order[(i + 1) % n]} - {order[i]})) for i in range(n)
        }
        return cls((x0, y0, x1, y1), scale, size, tuple(seats), nb)

    def work(self, image: np.ndarray) -> np.ndarray:
        """The working copy of a frame: cropped and scaled, lightly blurred (h, w, 3) uint8."""
        x0, y0, x1, y1 = self.crop
        sub = image[y0:y1, x0:x1]
        if self.scale < 1.0:
            sub = cv2.resize(sub, self.size, interpolation=cv2.INTER_AREA)
        return cv2.GaussianBlur(sub, (3, 3), 0)


def _ip(p: np.ndarray) -> tuple[int, int]:
    return (round(float(p[0])), round(float(p[1])))


@dataclass(frozen=True)
class Series:
    """Per seat and sample: ``head`` (changed share of the head path), ``mask`` (the bowed place's dark
    pixels turned light, in head squares), ``move`` (hands: the larger changed share of the table and raise
    zones), ``raised`` (the raise zone's share alone), ``high`` (any change in the raise zone clear of every
    head path: an arm up), ``touch`` (seat → neighbour reached, share of the neighbour's table zone), ``lift``
    (how far the head moved, in the seat's ``rise``: a head moved by d px changes about 2·d·(head width)
    px, so d = changed head px / (2·scale)), ``span`` (the seat's largest hand change that covers at least
    :data:`AREA_MIN` of a head's square: its diagonal in head widths), ``table`` (the changed share of the
    seat's own table zone, any change: its resting hand moved). Arrays (n,), n = len(times); ``high_box``
    (n, 4): the box of the ``high`` change in frame pixels (x0, y0, x1, y1; NaN where there is none)."""

    times: np.ndarray
    head: dict[int, np.ndarray]
    mask: dict[int, np.ndarray]
    move: dict[int, np.ndarray]
    raised: dict[int, np.ndarray]
    touch: dict[tuple[int, int], np.ndarray]
    high: dict[int, np.ndarray] = field(default_factory=dict)
    lift: dict[int, np.ndarray] = field(default_factory=dict)
    span: dict[int, np.ndarray] = field(default_factory=dict)
    thick: dict[int, np.ndarray] = field(default_factory=dict)
    table: dict[int, np.ndarray] = field(default_factory=dict)
    high_box: dict[int, np.ndarray] = field(default_factory=dict)

    def __post_init__(self) -> None:
        n = len(self.times)
        for k, v in self.high_box.items():
            if v.shape != (n, 4):
                raise ValueError(f"high_box[{k}] must have shape ({n}, 4), got {v.shape}")
        for name in ("head", "mask", "move", "raised", "touch", "high", "lift", "span", "thick", "table"):
            for k, v in getattr(self, name).items():
                if v.shape != (n,):
                    raise ValueError(f"{name}[{k}] must have shape ({n},), got {v.shape}")


def sample(timeline: Any, geo: Geometry, start_ms: int, end_ms: int) -> tuple[np.ndarray, np.ndarray]:
    """(times (n,) int64, working frames (n, h, w, 3) uint8) every :data:`STEP_MS` in the stretch."""
    times: list[int] = []
    cap = max(1, (end_ms - start_ms) // STEP_MS + 2)
    frames = np.zeros((cap, geo.size[1], geo.size[0], 3), np.uint8)
    for fr in timeline.iter_frames(start_ms, end_ms, step_ms=STEP_MS):
        if len(times) == len(frames):
            frames = np.concatenate([frames, np.zeros_like(frames)])
        frames[len(times)] = geo.work(fr.image)
        times.append(int(fr.pts_ms))
    return np.array(times, np.int64), frames[: len(times)]


def reference(times: np.ndarray, frames: np.ndarray) -> np.ndarray:
    """The bowed reference: per-pixel median of up to :data:`REF_SAMPLES` samples spread over the stretch
    after heads have settled (h, w, 3) uint8."""
    settled = frames[times >= times[0] + SETTLE_MS] if len(times) else frames
    if len(settled) < 5:
        settled = frames
    pick = settled[np.unique(np.linspace(0, len(settled) - 1, min(len(settled), REF_SAMPLES)).astype(int))]
    ref: np.ndarray = np.median(pick, axis=0).astype(np.uint8)
    return ref


def _idx(mask: np.ndarray) -> np.ndarray:
    return np.flatnonzero(mask.ravel())


def _count(labels: np.ndarray, idx: np.ndarray, n: int) -> np.ndarray:
    c = np.bincount(labels[idx], minlength=n)
    c[0] = 0
    return c


def changed_mask(cur: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """Pixels (h, w) uint8 0/1 that differ from the reference by more than :data:`DIFF_LEVEL` in any
    channel, specks removed."""
    d = cv2.split(cv2.absdiff(cur, ref))
    _, diff = cv2.threshold(cv2.max(cv2.max(d[0], d[1]), d[2]), DIFF_LEVEL, 1, cv2.THRESH_BINARY)
    return cv2.morphologyEx(diff, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def elongation(lab: np.ndarray, xs: np.ndarray, ys: np.ndarray, count: int) -> np.ndarray:
    """Every blob's length over breadth (count,): the ratio of the standard deviations of its pixels along
    their main axis and across it (a disc or a square 1, a bar ten times as long as wide about 10).
    ``lab``, ``xs``, ``ys`` (m,): each changed pixel's blob label and position."""
    n = np.maximum(np.bincount(lab, minlength=count), 1).astype(np.float64)
    xf, yf = xs.astype(np.float64), ys.astype(np.float64)
    mx, my = np.bincount(lab, xf, count) / n, np.bincount(lab, yf, count) / n
    dx, dy = xf - mx[lab], yf - my[lab]
    # a pixel is a unit square: add its own spread (1/12) so that a one-pixel line has a breadth
    sxx = np.bincount(lab, dx * dx, count) / n + 1.0 / 12
    syy = np.bincount(lab, dy * dy, count) / n + 1.0 / 12
    sxy = np.bincount(lab, dx * dy, count) / n
    half, root = (sxx + syy) / 2, np.sqrt(((sxx - syy) / 2) ** 2 + sxy**2)
    out: np.ndarray = np.sqrt((half + root) / np.maximum(half - root, 1e-9))
    return out


def _band_off(
    lit: np.ndarray,
    labels: np.ndarray,
    area: np.ndarray,
    ref: np.ndarray,
    flat: np.ndarray,
    w_img: int,
    scale: float = WORK_HEAD_PX,
) -> bool:
    """Whether the disc's pixels turned light (``lit``, flat indices (m,)) are a band taken off: a
    horizontal bar (their spread across :data:`BAR_RATIO` times their spread up and down; a head shifted
    in a dark hood lights a crescent along its edge, 1.2-1.3) whose change is mostly itself (the light
    pixels hold :data:`BLOB_LIT` of the changed blobs they lie in; a hand shifted under the band changes
    its whole outline and lights a sliver of it, 0.19-0.27), and at least :data:`BAR_TALL` of ``scale``
    (the seat's head width) tall (a hand's edge sliding under the band by a pixel or two lights a line two
    pixels tall). ``labels`` (h·w,) the changed pixels' blob,
    ``area`` (count,) each blob's size, ``ref`` (h, w, 3) the reference, ``flat`` (h·w, 3) the sample."""
    ys, xs = np.divmod(lit, w_img)
    tall = ys.var() + 1.0 / 12
    if xs.var() + 1.0 / 12 < BAR_RATIO**2 * tall or 12.0 * tall < (BAR_TALL * scale) ** 2:
        return False
    blobs = np.unique(labels[lit])
    blobs = blobs[blobs > 0]
    if not len(blobs):
        return False
    pix = np.flatnonzero(np.isin(labels, blobs))
    light = _turned_light(ref.reshape(-1, 3)[pix].astype(np.int16), flat[pix].astype(np.int16))
    return bool(light.sum() >= BLOB_LIT * area[blobs].sum())


def _turned_light(was: np.ndarray, now: np.ndarray) -> np.ndarray:
    """Which of the (n, 3) int16 pixels were dark in the reference (``was``) and turned light in the sample
    (``now``): no longer dark, and brighter by DIFF_LEVEL in some channel, as skin is against the band (a
    sleeve or a shadow sliding over a dark rim shifts its shade by less). Returns (n,) bools."""
    return (
        np.all(was < DARK_LEVEL, axis=1)
        & ~np.all(now < DARK_LEVEL, axis=1)
        & np.any(now - was > DIFF_LEVEL, axis=1)
    )


def measure(geo: Geometry, times: np.ndarray, frames: np.ndarray, ref: np.ndarray) -> Series:
    """The per-seat signals of every sample against the bowed reference.

    Each blob of changed pixels is a hand when a quarter of it lies in table or raise zones, else a head
    when half of it lies in head paths (it belongs to the seat whose head path holds most of it). Sizes
    are judged against the seat's own scale: a head's move by its change over twice its width, in the
    seat's rise; a hand's reach by its blob's diagonal in the seat's head widths."""
    n = len(times)
    head = {s.seat: np.zeros(n) for s in geo.seats}
    mask = {s.seat: np.zeros(n) for s in geo.seats}
    move = {s.seat: np.zeros(n) for s in geo.seats}
    raised = {s.seat: np.zeros(n) for s in geo.seats}
    high = {s.seat: np.zeros(n) for s in geo.seats}
    lift = {s.seat: np.zeros(n) for s in geo.seats}
    span = {s.seat: np.zeros(n) for s in geo.seats}
    thick = {s.seat: np.zeros(n) for s in geo.seats}
    table = {s.seat: np.zeros(n) for s in geo.seats}
    high_box = {s.seat: np.full((n, 4), np.nan) for s in geo.seats}
    cx0, cy0 = geo.crop[:2]
    touch = {(s.seat, o): np.zeros(n) for s in geo.seats for o in geo.neighbours[s.seat]}
    kernel = np.ones((5, 5), np.uint8)
    hp_any = np.any([s.head_path for s in geo.seats], axis=0)
    # a rising head spills out of its path, often into a neighbour's raise zone: a ring round every head
    # path is not hand ground
    ring = cv2.dilate(hp_any.astype(np.uint8), np.ones((9, 9), np.uint8)).astype(bool)
    hands_any = np.any([s.table | s.raise_ for s in geo.seats], axis=0) & ~ring
    i_hp_any, i_hands = _idx(hp_any), _idx(hands_any)
    i_hp = {s.seat: _idx(s.head_path) for s in geo.seats}
    i_bowed = {s.seat: _idx(s.bowed) for s in geo.seats}
    i_table = {s.seat: _idx(s.table) for s in geo.seats}
    # the raise zone away from every head path: only a raised arm gets there, never a rising head
    i_high = {s.seat: _idx(s.raise_ & ~ring) for s in geo.seats}
    i_raise = {s.seat: _idx(s.raise_) for s in geo.seats}
    i_zones = {s.seat: _idx(s.body | s.table | s.raise_) for s in geo.seats}
    # a hand reaching a neighbour: its blob lies partly on the seat's own side and partly on the neighbour's
    i_near = {s.seat: _idx(cv2.dilate((s.table | s.body).astype(np.uint8), kernel)) for s in geo.seats}
    i_tnear = {s.seat: _idx(cv2.dilate(s.table.astype(np.uint8), kernel)) for s in geo.seats}
    cen = {s.seat: s.axis[0] for s in geo.seats}
    pairs = sorted({(min(s.seat, o), max(s.seat, o)) for s in geo.seats for o in geo.neighbours[s.seat]})
    ref_dark = np.all(ref < DARK_LEVEL, axis=2).ravel()
    ref16 = {s.seat: ref.reshape(-1, 3)[i_bowed[s.seat]].astype(np.int16) for s in geo.seats}
    scales = np.array([s.scale for s in geo.seats])
    w_img = geo.size[0]
    for i in range(n):
        cur = frames[i]
        changed = changed_mask(cur, ref)
        if not changed.any():
            continue
        # group pixels a few px apart (an arm split by the sleeve's edge) but count only changed ones
        count, lab2 = cv2.connectedComponents(cv2.dilate(changed, kernel), connectivity=8)
        labels = (lab2 * changed).ravel()
        area = np.bincount(labels, minlength=count)
        area[0] = 0
        safe = np.maximum(area, 1)
        nz = np.flatnonzero(labels)
        lab_nz = labels[nz]
        ys, xs = np.divmod(nz, w_img)
        # every blob's thickness: the diameter of the widest disc inside its changed pixels (working px)
        wide = np.zeros(count)
        if len(nz):
            dist = cv2.distanceTransform(changed, cv2.DIST_L2, 3).ravel()
            np.maximum.at(wide, lab_nz, 2.0 * dist[nz])
        hp_counts = {seat: _count(labels, ix, count) for seat, ix in i_hp.items()}
        owner = np.argmax(np.stack([hp_counts[s.seat] for s in geo.seats]), axis=0)
        # a head is round: a small move of a head with a face or a band on it leaves a change about as
        # broad as it is long, a long one (a peek sweeping up its path) a head's width thick; a forearm
        # shifted beside a bowed head leaves a long strip only an arm's edge thick, which at the seats
        # nearest the camera lies along the head's path: that is an arm (a hand blob), not a head
        strip = (elongation(lab_nz, xs, ys, count) >= ELONG_MAX) & (wide < THICK_MIN * scales[owner])
        is_head = (
            (_count(labels, i_hp_any, count) >= 0.5 * safe)
            & (_count(labels, i_hands, count) < 0.25 * safe)
            & ~strip
        )
        is_hand = ~is_head & (area > 0)
        # every blob's bounding-box diagonal in working px
        diag = np.zeros(count)
        if len(nz):
            x0, x1 = np.full(count, 1 << 30), np.full(count, -1)
            y0, y1 = x0.copy(), x1.copy()
            np.minimum.at(x0, lab_nz, xs)
            np.maximum.at(x1, lab_nz, xs)
            np.minimum.at(y0, lab_nz, ys)
            np.maximum.at(y1, lab_nz, ys)
            ok = x1 >= 0
            diag[ok] = np.hypot(x1[ok] - x0[ok] + 1, y1[ok] - y0[ok] + 1)
        flat = cur.reshape(-1, 3)
        changed_flat = changed.ravel()
        # each hand blob belongs to the seat whose zones hold most of it (raise zones overlap)
        zone_counts = np.stack([_count(labels, i_zones[s.seat], count) for s in geo.seats])
        hand_owner = np.argmax(zone_counts, axis=0)
        mine_hand = [is_hand & (hand_owner == k) for k in range(len(geo.seats))]
        in_disc = [_count(labels, i_bowed[s.seat], count) for s in geo.seats]
        for k, s in enumerate(geo.seats):
            mine = is_head & (owner == k)
            head_px = float(area[mine].sum())
            head[s.seat][i] = min(1.0, head_px / max(1, len(i_hp[s.seat])))
            lift[s.seat][i] = head_px / (2.0 * s.scale * s.rise)
            big = mine_hand[k] & (area >= AREA_MIN * s.scale**2) & (wide >= THICK_MIN * s.scale)
            if big.any():
                span[s.seat][i] = float(diag[big].max()) / s.scale
            ib = i_bowed[s.seat]
            # a hand over the disc mutes it; a band's own change is no hand, though at the near seats its
            # bar (a head wide, a fifth as tall) is shaped like an arm's strip: a hand comes from outside,
            # so a blob counts only when most of it lies off the disc
            if not (is_hand & (in_disc[k] < 0.5 * safe))[labels[ib]].any():
                rd, dk = ref_dark[ib], np.all(flat[ib] < DARK_LEVEL, axis=1)
                nd = int(rd.sum())
                lost, gained = int((rd & ~dk).sum()), int((~rd & dk).sum())
                if nd >= 4 and lost and gained < 0.25 * max(1, lost):
                    lit = ib[_turned_light(ref16[s.seat], flat[ib].astype(np.int16))]
                    few = len(lit) < MASK_AREA * s.scale**2
                    if few or _band_off(lit, labels, area, ref, flat, w_img, s.scale):
                        mask[s.seat][i] = len(lit) / s.scale**2
            hand_px = mine_hand[k][labels]
            it, ir = i_table[s.seat], i_raise[s.seat]
            raised[s.seat][i] = float(hand_px[ir].sum()) / max(1, len(ir))
            ih = i_high[s.seat]
            high[s.seat][i] = float(changed_flat[ih].sum()) / max(1, len(ih))
            if high[s.seat][i] > RAISED_SHARE:
                hy, hx = np.divmod(ih[changed_flat[ih] > 0], w_img)
                high_box[s.seat][i] = (
                    cx0 + hx.min() / geo.scale,
                    cy0 + hy.min() / geo.scale,
                    cx0 + (hx.max() + 1) / geo.scale,
                    cy0 + (hy.max() + 1) / geo.scale,
                )
            move[s.seat][i] = max(float(hand_px[it].sum()) / max(1, len(it)), raised[s.seat][i])
            table[s.seat][i] = float(changed_flat[it].sum()) / max(1, len(it))
        # a hand blob spanning two neighbours' regions, and reaching well beyond a resting hand's own
        # footprint (its diagonal at least SPAN_MIN head widths of either seat), is a touch
        in_region = {s.seat: _count(labels, i_near[s.seat], count) for s in geo.seats}
        in_table = {s.seat: _count(labels, i_tnear[s.seat], count) for s in geo.seats}
        for s in geo.seats:
            sel = is_hand & (area >= AREA_MIN * s.scale**2) & (diag >= SPAN_MIN * s.scale)
            sel &= in_region[s.seat] >= 0.15 * safe
            if sel.any():
                thick[s.seat][i] = float(wide[sel].max()) / s.scale
        seat_k = {s.seat: k for k, s in enumerate(geo.seats)}
        for s_, o in pairs:
            sc = min(scales[seat_k[s_]], scales[seat_k[o]])
            far = (diag >= SPAN_MIN * sc) & (area >= AREA_MIN * sc**2) & (wide >= THICK_MIN * sc)
            span_ = is_hand & far & (in_region[s_] >= 0.15 * safe) & (in_region[o] >= 0.15 * safe)
            if not span_.any():
                continue
            # the arm comes from its owner: of the two seats, the one whose bowed head the blob comes
            # nearest (in its own head widths) — the arm's root is at that seat's shoulder, while at the
            # other seat only the hand arrives, on its table zone
            for lab in np.flatnonzero(span_):
                sel = lab_nz == lab
                gap = {
                    x: float(np.hypot(xs[sel] - cen[x][0], ys[sel] - cen[x][1]).min()) / scales[seat_k[x]]
                    for x in (s_, o)
                }
                a_, b_ = (s_, o) if gap[s_] < gap[o] else (o, s_)
                touch[(a_, b_)][i] += float(in_table[b_][lab]) / max(1, len(i_table[b_]))
    return Series(times, head, mask, move, raised, touch, high, lift, span, thick, table, high_box)


def runs(flags: np.ndarray, min_len: int = MIN_SAMPLES, gap: int = GAP_SAMPLES) -> list[tuple[int, int]]:
    """Index ranges ``[a, b]`` (inclusive) where ``flags`` holds for ``min_len`` samples or more; runs
    separated by fewer than ``gap`` samples are merged first."""
    out: list[list[int]] = []
    for i in np.flatnonzero(flags):
        if out and i - out[-1][1] <= gap:
            out[-1][1] = int(i)
        else:
            out.append([int(i), int(i)])
    return [(a, b) for a, b in out if b - a + 1 >= min_len]


@dataclass(frozen=True)
class Fact:
    """One thing seen: ``kind`` is ``head_up``, ``arm_raise`` or a night-motion kind (``mask``, ``touch``,
    ``gesture``); ``into`` is the neighbour reached by a touch."""

    kind: str
    seat: int
    t: int
    until: int
    conf: float
    into: int = 0
    arms: tuple[tuple[int, int, int], ...] = ()  # head_up: other seats' arms up then (seat, from, to)
    box: tuple[float, float, float, float] | None = None  # arm_raise: where the arm was seen, frame px


def _conf(peak: float, threshold: float) -> float:
    return round(min(0.99, 0.5 + 0.5 * (peak - threshold) / threshold), 3)


def facts(series: Series, start_ms: int, end_ms: int, *, shooting: bool = False) -> list[Fact]:
    """Turn the signals into facts, seat by seat.

    Heads settle at a night's start and rise at its end: when half the seats move in the first
    :data:`SETTLE_MS`, a fact starting then counts only if it lasts :data:`SETTLE_KEEP_MS` from the start;
    when half the seats move in the last :data:`END_GUARD_MS`, a fact starting then is dropped. A raised
    hand (a shot, a gesture) passing over the head path is not a head. In ``shooting`` stretches raised
    hands are the shots: no ``gesture`` facts there, and no touch while either seat's hand is up.
    """
    times = series.times
    if len(times) < MIN_SAMPLES:
        return []
    out: list[Fact] = []

    # Only where the whole table moves together (heads going down at the night's start, up at the day):
    # a stretch cut in the middle of a night starts and ends without that, and keeps every fact.
    first = times < times[0] + SETTLE_MS
    last = times >= end_ms - END_GUARD_MS
    ups = [series.head[s] > HEAD_SHARE for s in series.head]
    settling = np.mean([u[first].any() for u in ups]) >= 0.5
    rising = bool(last.any()) and np.mean([u[last].any() for u in ups]) >= 0.5

    def keep(a: int, b: int) -> bool:
        ta, tb = int(times[a]), int(times[b])
        if settling and ta - int(times[0]) < SETTLE_MS and tb - int(times[0]) < SETTLE_KEEP_MS:
            return False
        return not (rising and ta >= end_ms - END_GUARD_MS)

    def near(x: np.ndarray, k: int = 3) -> np.ndarray:
        """``x`` or any of its ``k`` neighbouring samples."""
        y = x.copy()
        for d in range(1, k + 1):
            y[d:] |= x[:-d]
            y[:-d] |= x[d:]
        return y

    # every seat's arm up in its raise zone, clear of the head paths: sample index runs, found once for the
    # head_ups' ``arms`` and the arm raises
    arm_runs = {seat: runs(series.high.get(seat, series.raised[seat]) > RAISED_SHARE) for seat in series.head}
    for seat in sorted(series.head):
        # a hand up in the raise zone, clear of the head paths: the head signal there is the arm
        raised = near(series.high.get(seat, series.raised[seat]) > RAISED_SHARE)
        head = series.head[seat]
        lift = series.lift.get(seat, head)
        # the seat's own resting hand moved (its table zone changed): at the near seats a hand shifted under
        # the bowed head changes its outline inside the head path, which reads as a small lift (seed 8
        # quiet00 seat 1: 0.033 for a second): there a head up must rise further
        hand = series.table.get(seat, np.zeros(len(times))) >= HAND_STILL
        lift = np.where(hand & (lift < HAND_LIFT * LIFT_MIN), 0.0, lift)
        # a peek raises the head by a good share of its way up and holds it there; a nod returns at once
        up = (lift >= LIFT_MIN) & ~raised
        for a, b in runs(up, min_len=HOLD_SAMPLES):
            if keep(a, b):
                peak = float(lift[a : b + 1].max())
                ta, tb = int(times[a]), int(times[b])
                arms = tuple(
                    (other, int(times[i]), int(times[j]))
                    for other in sorted(arm_runs)
                    if other != seat
                    for i, j in arm_runs[other]
                    if times[i] <= tb + ARMS_NEAR_MS and times[j] >= ta - ARMS_NEAR_MS
                )
                out.append(Fact("head_up", seat, ta, tb, _conf(peak, LIFT_MIN), arms=arms))
        m = series.mask[seat]
        # not muted by an arm in the raise zone (a neighbour's shot crosses it): a hand over the band
        # mutes the signal itself, sample by sample
        off = (m >= MASK_AREA) & ~near(head > HEAD_SHARE)
        # a hand shifted under the bowed head lights a band-sized bar along its outline or its sleeve's edge
        # (0.7's seven false masks on the fidgety nights of seeds 3-8); a band taken off changes the band
        # alone: no mask in a sample where the seat's own table zone changed (its resting hand moved)
        off &= series.table.get(seat, np.zeros(len(times))) < HAND_STILL
        # a mask taken off stays off; a nod bobs the band's edge for half a second and returns
        for a, b in runs(off, min_len=MASK_HOLD):
            if keep(a, b):
                peak = float(m[a : b + 1].max())
                out.append(Fact("mask", seat, int(times[a]), int(times[b]), _conf(peak, MASK_AREA)))
        touching = np.zeros(len(times), bool)  # touching a neighbour, or touched by one
        for (s, o), v in series.touch.items():
            if o == seat:
                touching |= v > TOUCH_PX_SHARE
            if s != seat:
                continue
            hit = v > TOUCH_PX_SHARE
            if shooting:  # a raised hand crossing a neighbour during the count is a shot (either seat's)
                hit &= ~raised & ~near(series.high.get(o, series.raised[o]) > RAISED_SHARE)
            touching |= hit
            for a, b in runs(hit):
                # the hand on the neighbour's zone is the neighbour's own when that zone was already
                # moving before any arm spanned the two seats (its owner raised it: a sign at the meeting,
                # a shot): the blob reaching this seat is that arm's root, not this seat's reach
                if (series.move[o][max(0, a - OWN_FIRST) : a] > MOVE_PX_SHARE).any():
                    continue
                # a reach carries the hand off its rest, so the toucher's own table zone changes; a
                # neighbour's hand shifted beside this seat's bowed head (mid-side seats sit close in the
                # picture) spans both seats while this seat's zone stays still (seed 8 quiet03, seat 2)
                if s in series.table and not (series.table[s][a : b + 1] >= HAND_STILL).any():
                    continue
                if keep(a, b):
                    peak = float(v[a : b + 1].max())
                    who, whom = s, o
                    out.append(
                        Fact("touch", who, int(times[a]), int(times[b]), _conf(peak, TOUCH_PX_SHARE), whom)
                    )
        if shooting:
            out.extend(_arm_raises(series, seat, arm_runs[seat], keep))
            continue
        mv = series.move[seat]
        # a hand gesture carries the hand well away from its rest; a hand shifted on the table stays on
        # its own footprint
        far = series.span.get(seat, np.full(len(times), np.inf)) >= SPAN_MIN
        gest = (mv > MOVE_PX_SHARE) & far & ~near(touching) & ~up
        for a, b in runs(gest):
            if keep(a, b):
                peak = float(mv[a : b + 1].max())
                out.append(Fact("gesture", seat, int(times[a]), int(times[b]), _conf(peak, MOVE_PX_SHARE)))
    return sorted(_one_toucher(out), key=lambda f: (f.t, f.seat, f.kind))


def _arm_raises(series: Series, seat: int, arm_up: list[tuple[int, int]], keep: Any) -> list[Fact]:
    """A shooting stretch: the seat's arm seen up in its own raise zone, clear of every head path (``arm_up``:
    the sample index runs of that), while (or just after) its own resting hand left the table zone: a raise,
    whatever the landmarker read (see ARM_TABLE). Its time is one step after the arm was first seen up (the
    hand's top), ``box`` where the arm was seen at its largest; ``keep(a, b)`` drops runs at the stretch's
    settling start and rising end."""
    boxes = series.high_box.get(seat)
    high = series.high.get(seat)
    table = series.table.get(seat)
    if boxes is None or high is None or table is None:
        return []
    times = series.times
    out: list[Fact] = []
    for a, b in arm_up:
        if not keep(a, b) or table[max(0, a - ARM_TABLE_BEFORE) : b + 1].max() < ARM_TABLE:
            continue
        if out and int(times[a]) - out[-1].t < ARM_ONCE_MS:
            continue  # the same arm coming down (see ARM_ONCE_MS)
        top = a + int(np.argmax(high[a : b + 1]))
        if np.isnan(boxes[top]).any():
            continue
        t = min(int(times[a]) + STEP_MS, int(times[b]))
        box = tuple(round(float(v), 1) for v in boxes[top])
        out.append(Fact("arm_raise", seat, t, int(times[b]), ARM_RAISE_CONF, box=box))  # type: ignore[arg-type]
    return out


def _one_toucher(found: list[Fact]) -> list[Fact]:
    """A hand resting in a neighbour's zone looks like either seat reaching the other; the arm is first
    seen while it travels from its owner, so of two overlapping touches between the same two seats the
    earlier one (then the stronger) stands, stretched to cover both."""
    touches = sorted((f for f in found if f.kind == "touch"), key=lambda f: (f.t, -f.conf))
    kept: list[Fact] = []
    for f in touches:
        clash = next(
            (k for k in kept if {k.seat, k.into} == {f.seat, f.into} and f.t <= k.until and k.t <= f.until),
            None,
        )
        if clash is None:
            kept.append(f)
        else:
            kept[kept.index(clash)] = Fact(
                "touch", clash.seat, clash.t, max(clash.until, f.until), clash.conf, clash.into
            )
    return [f for f in found if f.kind != "touch"] + kept


def to_events(found: Iterable[Fact], *, coarse: bool = False) -> list[Event]:
    """``head_up`` and ``night_motion`` events (src vision) with deterministic ids."""
    out: list[Event] = []
    for f in found:
        extra: dict[str, Any] = {"analyser": f"{NAME}/{VERSION}"}
        if f.into:
            extra["into"] = f.into
        if f.arms:
            extra["arms"] = [list(a) for a in f.arms]
        if coarse:
            extra["coarse"] = True
        if f.kind == "arm_raise":
            extra["seen_by"] = "arm"
            extra["until"] = f.until
            out.append(
                ShotRaise(
                    t=f.t,
                    src="vision",
                    id=f"vis:shot_raise:{f.seat}:{f.t}:arm:{VERSION}",
                    seat=f.seat,
                    gesture="other",
                    conf=f.conf,
                    box=f.box,
                    extra=extra,
                )
            )
            continue
        if f.kind == "head_up":
            ev_id = f"vis:head_up:{f.seat}:{f.t}:{VERSION}"
            out.append(
                HeadUp(t=f.t, src="vision", id=ev_id, seat=f.seat, until=f.until, conf=f.conf, extra=extra)
            )
        else:
            ev_id = f"vis:night_motion:{f.seat}:{f.t}:{f.kind}:{VERSION}"
            out.append(
                NightMotion(
                    t=f.t,
                    src="vision",
                    id=ev_id,
                    seat=f.seat,
                    kind=f.kind,
                    until=f.until,
                    conf=f.conf,
                    extra=extra,
                )
            )
    return out


def night_pass(
    timeline: Any, layout: Layout, start_ms: int, end_ms: int, *, shooting: bool = False
) -> list[Event]:
    """Night watch over ``[start_ms, end_ms)`` of ``timeline`` (a :class:`vision.video.VideoTimeline`) with
    ``layout`` (in the video's pixels): samples every :data:`STEP_MS`, compares with the bowed reference
    and returns ``head_up`` / ``night_motion`` events. ``shooting``: a shooting round (no gestures).
    ``MAFIACAM_NIGHTWATCH=0`` in the environment turns the pass off (the cost benchmark's baseline)."""
    if os.environ.get("MAFIACAM_NIGHTWATCH", "1") == "0" or end_ms - start_ms < 2 * STEP_MS:
        return []
    geo = Geometry.from_layout(layout)
    times, frames = sample(timeline, geo, start_ms, end_ms)
    if len(times) < MIN_SAMPLES:
        return []
    series = measure(geo, times, frames, reference(times, frames))
    return to_events(facts(series, start_ms, end_ms, shooting=shooting))
