"""Night watch: heads raised, masks lifted and hands moving while the table sleeps.

From a night's start to the day, every seat should sit still with the head bowed and the eye mask on. The
watch compares each sampled frame with the **bowed reference**: the per-pixel median of the stretch's
samples (heads are down almost all night, so a peek of a few seconds does not reach the median). Pixels that
differ (a change mask) are grouped into connected blobs and each blob is explained by the layout:

* **head up** — a blob lying mostly inside head paths and little in table or raise zones, given to the seat
  whose *head path* holds most of it. The head path is the capsule from where the head is bowed to where it
  is upright (the head zone); the bowed place is not in the layout and is taken halfway from the head zone
  towards the seat's table zone (a bowed head leans over the table). Not while the seat's hand is in its
  raise zone (a raised arm crosses the head path).
* **mask** — the bowed place only *loses* dark pixels (the black band turns to skin) while no hand is over
  it and the head does not rise: the mask lifted.
* **touch** — a hand blob spanning two neighbours' regions (body and table zone); it belongs to the seat
  whose hand moved around the onset, else to the one whose head path (shoulder side) holds more of it.
* **gesture** — other hand blobs in the seat's table or raise zone: hands moving. Not reported in
  ``shooting`` stretches, where raised hands are the shots (the referee times those).

Every fact must hold for :data:`MIN_SAMPLES` samples. Known limits: a head kept up for most of a stretch
(the mafia's meeting filling night 0) becomes the reference, so its timing comes out inverted; the
analyser cuts long nights into one-minute stretches, and a fact crossing a cut is reported in two parts.

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

from gamelog.events import Event, HeadUp, NightMotion
from gamelog.layout import Layout

NAME = "mafiacam-nightwatch"
VERSION = "0.1"
STEP_MS = 160
WORK_HEAD_PX = 40.0  # head-zone width at the working scale
DIFF_LEVEL = 30  # 8-bit levels: a pixel differs from the reference by more than this in any channel
DARK_LEVEL = 60  # the eye mask is darker than this in every channel
SETTLE_MS = 3000  # heads still going down at the start of a stretch
SETTLE_KEEP_MS = 5000  # ...but a head still up this long after the start is reported
END_GUARD_MS = 1200  # heads rising for the day just before the day mark
HEAD_SHARE = 0.15  # head path changed share that counts as the head up
MASK_LOST = 0.38  # share of the reference's dark pixels in the bowed place that turned light
MOVE_PX_SHARE = 0.075  # table/raise zone changed share that counts as a hand moving
TOUCH_PX_SHARE = 0.08  # neighbour's table zone share reached by one's own blob
RAISED_SHARE = 0.03  # raise zone changed share: a hand is up (a shot, a gesture), not a head
MIN_SAMPLES = 2  # a fact must hold in this many consecutive samples
GAP_SAMPLES = 2  # two runs closer than this many samples are one fact


@dataclass(frozen=True)
class SeatMasks:
    """One seat's regions at the working scale, as boolean images (h, w) of the working frame.

    head_path: the capsule from the bowed place to the head zone. bowed: the disc of the bowed head.
    table, raise_: the seat's own zones minus its head path. body: head path, table and the ground between.
    axis: (c_down, c_up) in working px, (2, 2).
    """

    seat: int
    head_path: np.ndarray
    bowed: np.ndarray
    table: np.ndarray
    raise_: np.ndarray
    body: np.ndarray
    axis: np.ndarray

    def __post_init__(self) -> None:
        shape = self.head_path.shape
        for name in ("bowed", "table", "raise_", "body"):
            m = getattr(self, name)
            if m.shape != shape or m.dtype != np.bool_:
                raise ValueError(f"{name} must be a bool array of shape {shape}, got {m.shape} {m.dtype}")
        if self.axis.shape != (2, 2):
            raise ValueError(f"axis must be (2, 2), got {self.axis.shape}")


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
    """Per seat and sample: ``head`` (changed share of the head path), ``mask`` (share of the bowed place's
    dark pixels turned light), ``move`` (hands: the larger changed share of the table and raise zones),
    ``raised`` (the raise zone's share alone), ``high`` (any change in the raise zone clear of every head
    path: an arm up), ``touch`` (seat → neighbour reached, share of the neighbour's
    table zone). Arrays (n,), n = len(times)."""

    times: np.ndarray
    head: dict[int, np.ndarray]
    mask: dict[int, np.ndarray]
    move: dict[int, np.ndarray]
    raised: dict[int, np.ndarray]
    touch: dict[tuple[int, int], np.ndarray]
    high: dict[int, np.ndarray] = field(default_factory=dict)

    def __post_init__(self) -> None:
        n = len(self.times)
        for name in ("head", "mask", "move", "raised", "touch", "high"):
            for k, v in getattr(self, name).items():
                if v.shape != (n,):
                    raise ValueError(f"{name}[{k}] must have shape ({n},), got {v.shape}")


def sample(timeline: Any, geo: Geometry, start_ms: int, end_ms: int) -> tuple[np.ndarray, np.ndarray]:
    """(times (n,) int64, working frames (n, h, w, 3) uint8) every :data:`STEP_MS` in the stretch."""
    times, frames = [], []
    for fr in timeline.iter_frames(start_ms, end_ms, step_ms=STEP_MS):
        times.append(int(fr.pts_ms))
        frames.append(geo.work(fr.image))
    if not frames:
        return np.zeros(0, np.int64), np.zeros((0, geo.size[1], geo.size[0], 3), np.uint8)
    return np.array(times, np.int64), np.stack(frames)


def reference(times: np.ndarray, frames: np.ndarray) -> np.ndarray:
    """The bowed reference: per-pixel median of the samples after heads have settled (h, w, 3) uint8."""
    settled = frames[times >= times[0] + SETTLE_MS] if len(times) else frames
    if len(settled) < 5:
        settled = frames
    pick = settled[:: max(1, len(settled) // 60)]
    return np.median(pick, axis=0).astype(np.uint8)


def _idx(mask: np.ndarray) -> np.ndarray:
    return np.flatnonzero(mask.ravel())


def _count(labels: np.ndarray, idx: np.ndarray, n: int) -> np.ndarray:
    c = np.bincount(labels[idx], minlength=n)
    c[0] = 0
    return c


def measure(geo: Geometry, times: np.ndarray, frames: np.ndarray, ref: np.ndarray) -> Series:
    """The per-seat signals of every sample against the bowed reference.

    Each blob of changed pixels is a hand when a quarter of it lies in table or raise zones, else a head
    when half of it lies in head paths (it belongs to the seat whose head path holds most of it)."""
    n = len(times)
    head = {s.seat: np.zeros(n) for s in geo.seats}
    mask = {s.seat: np.zeros(n) for s in geo.seats}
    move = {s.seat: np.zeros(n) for s in geo.seats}
    raised = {s.seat: np.zeros(n) for s in geo.seats}
    high = {s.seat: np.zeros(n) for s in geo.seats}
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
    i_pnear = {s.seat: _idx(cv2.dilate(s.head_path.astype(np.uint8), kernel)) for s in geo.seats}
    pairs = sorted({(min(s.seat, o), max(s.seat, o)) for s in geo.seats for o in geo.neighbours[s.seat]})
    ref_dark = np.all(ref < DARK_LEVEL, axis=2).ravel()
    small = np.ones((3, 3), np.uint8)
    for i in range(n):
        cur = frames[i]
        d = cv2.split(cv2.absdiff(cur, ref))
        _, diff = cv2.threshold(cv2.max(cv2.max(d[0], d[1]), d[2]), DIFF_LEVEL, 1, cv2.THRESH_BINARY)
        changed = cv2.morphologyEx(diff, cv2.MORPH_OPEN, small)
        if not changed.any():
            continue
        # group pixels a few px apart (an arm split by the sleeve's edge) but count only changed ones
        count, lab2 = cv2.connectedComponents(cv2.dilate(changed, kernel), connectivity=8)
        labels = (lab2 * changed).ravel()
        area = np.bincount(labels, minlength=count)
        area[0] = 0
        safe = np.maximum(area, 1)
        is_head = (_count(labels, i_hp_any, count) >= 0.5 * safe) & (
            _count(labels, i_hands, count) < 0.25 * safe
        )
        is_hand = ~is_head & (area > 0)
        hp_counts = {seat: _count(labels, ix, count) for seat, ix in i_hp.items()}
        owner = np.argmax(np.stack([hp_counts[s.seat] for s in geo.seats]), axis=0)
        flat = cur.reshape(-1, 3)
        changed_flat = changed.ravel()
        # each hand blob belongs to the seat whose zones hold most of it (raise zones overlap)
        zone_counts = np.stack([_count(labels, i_zones[s.seat], count) for s in geo.seats])
        hand_owner = np.argmax(zone_counts, axis=0)
        mine_hand = [is_hand & (hand_owner == k) for k in range(len(geo.seats))]
        for k, s in enumerate(geo.seats):
            mine = is_head & (owner == k)
            head[s.seat][i] = min(1.0, float(area[mine].sum()) / max(1, len(i_hp[s.seat])))
            ib = i_bowed[s.seat]
            if not is_hand[labels[ib]].any():
                rd, dk = ref_dark[ib], np.all(flat[ib] < DARK_LEVEL, axis=1)
                nd = int(rd.sum())
                lost, gained = int((rd & ~dk).sum()), int((~rd & dk).sum())
                if nd >= 4 and gained < 0.25 * max(1, lost):
                    mask[s.seat][i] = lost / nd
            hand_px = mine_hand[k][labels]
            it, ir = i_table[s.seat], i_raise[s.seat]
            raised[s.seat][i] = float(hand_px[ir].sum()) / max(1, len(ir))
            ih = i_high[s.seat]
            high[s.seat][i] = float(changed_flat[ih].sum()) / max(1, len(ih))
            move[s.seat][i] = max(float(hand_px[it].sum()) / max(1, len(it)), raised[s.seat][i])
        # a hand blob spanning two neighbours' regions is a touch
        in_region = {s.seat: _count(labels, i_near[s.seat], count) for s in geo.seats}
        in_table = {s.seat: _count(labels, i_tnear[s.seat], count) for s in geo.seats}
        in_path = {s.seat: _count(labels, i_pnear[s.seat], count) for s in geo.seats}
        for s_, o in pairs:
            span = is_hand & (in_region[s_] >= 0.15 * safe) & (in_region[o] >= 0.15 * safe)
            if not span.any():
                continue
            for a_, b_ in ((s_, o), (o, s_)):
                # the arm hangs from the owner's shoulder, beside its head path; failing that, the hand
                # end lies in the touched seat's table zone
                shoulder = in_path[a_] - in_path[b_]
                reach = span & ((shoulder > 0) | ((shoulder == 0) & (in_table[b_] > in_table[a_])))
                touch[(a_, b_)][i] = float(in_table[b_][reach].sum()) / max(1, len(i_table[b_]))
    return Series(times, head, mask, move, raised, touch, high)


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
    """One thing seen: ``kind`` is ``head_up`` or a night-motion kind (``mask``, ``touch``, ``gesture``);
    ``into`` is the neighbour reached by a touch."""

    kind: str
    seat: int
    t: int
    until: int
    conf: float
    into: int = 0


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

    for seat in sorted(series.head):
        # a hand up in the raise zone, clear of the head paths: the head signal there is the arm
        raised = near(series.high.get(seat, series.raised[seat]) > RAISED_SHARE)
        arm_up = near(series.raised[seat] > MOVE_PX_SHARE)  # a hand clearly up: not a touch
        head = series.head[seat]
        up = (head > HEAD_SHARE) & ~raised
        for a, b in runs(up):
            if keep(a, b):
                peak = float(head[a : b + 1].max())
                out.append(Fact("head_up", seat, int(times[a]), int(times[b]), _conf(peak, HEAD_SHARE)))
        m = series.mask[seat]
        off = (m > MASK_LOST) & ~near(head > HEAD_SHARE) & ~raised
        for a, b in runs(off, min_len=MIN_SAMPLES + 1):
            if keep(a, b):
                peak = float(m[a : b + 1].max())
                out.append(Fact("mask", seat, int(times[a]), int(times[b]), _conf(peak, MASK_LOST)))
        touching = np.zeros(len(times), bool)  # touching a neighbour, or touched by one
        for (s, o), v in series.touch.items():
            if o == seat:
                touching |= v > TOUCH_PX_SHARE
            if s != seat:
                continue
            hit = v > TOUCH_PX_SHARE
            if shooting:  # a raised hand crossing a neighbour during the count is a shot
                hit &= ~arm_up & ~near(series.raised[o] > MOVE_PX_SHARE)
            touching |= hit
            for a, b in runs(hit):
                if keep(a, b):
                    peak = float(v[a : b + 1].max())
                    # the hand moves in its owner's zones as it sets off and crosses (blobs go to the seat
                    # whose zones hold most of them): whose hand moved around the onset
                    w = slice(max(0, a - 4), a + 2)
                    mine, theirs = series.move[s][w].sum(), series.move[o][w].sum()
                    who, whom = (o, s) if theirs > mine else (s, o)
                    out.append(
                        Fact("touch", who, int(times[a]), int(times[b]), _conf(peak, TOUCH_PX_SHARE), whom)
                    )
        if shooting:
            continue
        mv = series.move[seat]
        gest = (mv > MOVE_PX_SHARE) & ~near(touching) & ~up
        for a, b in runs(gest):
            if keep(a, b):
                peak = float(mv[a : b + 1].max())
                out.append(Fact("gesture", seat, int(times[a]), int(times[b]), _conf(peak, MOVE_PX_SHARE)))
    return sorted(_one_toucher(out), key=lambda f: (f.t, f.seat, f.kind))


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
        if coarse:
            extra["coarse"] = True
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
