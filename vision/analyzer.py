"""The batch analyser behind ``mafiacam analyze``: a bundle's video in, ``vision.jsonl`` out.

1. Plan (:mod:`vision.schedule`): dense stretches (every frame) around the host's vote windows and
   shooting rounds, sparse stretches (keyframes only, about one a second, motion-gated) elsewhere.
2. Run the stretches on a pool of worker processes (one landmarker each). Every finished stretch is
   cached in ``BUNDLE/.analysis/<version>/`` so an interrupted run resumes where it stopped.
3. Without host marks, the whole recording is scanned (table and raise zones read every
   :data:`SCAN_STEP_MS`, each stretch a little past its end); clusters of hands landing together (day) or
   raised (night) become ``proposed_window`` events, and those windows are analysed densely in a second pass.
4. Merge, give every event a deterministic id, and replace ``vision.jsonl`` whole (atomically: never a
   half-written file or line). Host and judge events are never touched.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from gamelog.bundle import Bundle, load_bundle
from gamelog.events import (
    Event,
    HandDown,
    HandUp,
    HeadUp,
    NightMotion,
    ProposedWindow,
    ShotRaise,
    event_to_json,
    sort_key,
)
from gamelog.fusion import VOTING_GESTURES
from gamelog.jsonl import write_events_replace
from gamelog.layout import Layout, Layouts, SeatZones, distance_to_polygon, point_in_polygon
from gamelog.nights import RAISE_AT_PEEK
from vision.gestures import AIMED
from vision.schedule import DENSE, SPARSE, Stretch, plan, split_for_workers

ANALYSER = "mafiacam-vision"
VERSION = "0.83"
VISION_FILE = "vision.jsonl"
AUDIO_FILE = "audio.jsonl"
CACHE_DIR = ".analysis"
SPARSE_COST = 0.08  # a sparse (keyframe) second costs about this much of a dense second
PROPOSE_MIN_SEATS = 2  # hands landing on this many table zones within PROPOSE_SPAN_MS propose a vote window
SCAN = "scan"  # the kind of a stretch of a recording without marks: table and raise zones watched
PROPOSE_SPAN_MS = 4000
# A lone voting fist landing this soon after a proposed window's last hand extends that window: a day's later
# candidates often get one vote each (clean KK 4200-4205: six of the second windows, one hand each, were
# proposed as nothing; the calls come 8 s apart).
PROPOSE_JOIN_MS = 10000
# Without marks, the recording is read every SCAN_STEP_MS (the frames between are decoded, not converted), not
# on keyframes only (about one a second): a gun is up for 0.6-0.8 s, and on the sample game both of night 1's
# guns fell between two keyframes (107.3-107.8 s, 107.5-108.1 s): no shooting round was proposed. A vote hand
# lies 1.5-3 s before its lift, and the zone must be still for two readings to settle: at a keyframe a second,
# most of a day's later windows were proposed as nothing (clean KK 4200: 66.48-67.96 s, 67.12-69.60 s).
SCAN_STEP_MS = 400
# ...and each scan stretch is read this long past its end, so that hands landing just before it settle (KK
# 4200: eight hands at 58.5-59.9 s, the stretch ending at 60 s); what is found after its end is the next's.
SCAN_OVERLAP_MS = 3000
# A proposed vote window starts this long before its first hand: the first hand found lands 3.1-3.9 s after
# the call on the tuning games (bench/RESULTS.md, "Session 4: shots"; 3 s left 5 windows' calls outside).
PROPOSE_LEAD_MS = 4500


class AnalyzeError(Exception):
    """The bundle cannot be analysed (no video, no layout); the message names the file."""


@dataclass
class Report:
    """What a run did, written to ``BUNDLE/.analysis/report.json`` and printed by the command."""

    bundle: str
    duration_ms: int
    stretches: int
    dense_ms: int
    cached: int
    events: int
    proposed: int
    wall_s: float
    landmarker_calls: int = 0
    onsets: int = 0  # speech_onset events written to audio.jsonl
    damaged: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def speed(self) -> float:
        return self.duration_ms / 1000.0 / self.wall_s if self.wall_s > 0 else float("inf")


# ---- the work of one stretch (runs in a worker process) ----------------------------------------------

_WORKER: dict[str, Any] = {}


def _layout_at(layouts: Layouts, t: int, size: tuple[int, int]) -> Layout:
    """The layout in force at ``t``, in the pixels of a video whose frames are ``size``."""
    layout = layouts.at(t)
    return layout if tuple(layout.frame_size) == tuple(size) else _scaled_layout(layout, size)


def _scaled_layout(layout: Layout, size: tuple[int, int]) -> Layout:
    """The layout scaled to a video whose frame size differs from the layout's."""
    sx, sy = size[0] / layout.frame_size[0], size[1] / layout.frame_size[1]

    def sc(poly: tuple[tuple[float, float], ...]) -> tuple[tuple[float, float], ...]:
        return tuple((x * sx, y * sy) for x, y in poly)

    seats = tuple(
        SeatZones(s.seat, sc(s.table_zone), sc(s.raise_zone), sc(s.head_zone)) for s in layout.seats
    )
    return Layout(size, seats, layout.from_t)


def run_stretch(bundle_dir: str, video: list[str], layouts: Layouts, stretch: Stretch) -> dict[str, Any]:
    """Analyse one stretch; returns ``{"events": [json...], "calls": n, "damaged": [...]}``."""
    from vision.handfinder import HandFinder
    from vision.seatwatch import TableWatch
    from vision.video import VideoTimeline

    key = "|".join(str(Path(bundle_dir) / v) for v in video)
    timeline = _WORKER.get(key)
    if timeline is None:
        timeline = VideoTimeline([Path(bundle_dir) / v for v in video])
        _WORKER.clear()
        _WORKER[key] = timeline
    size = timeline.frame_size
    layout = _layout_at(layouts, stretch.start, size)
    # Night stretches watch the raise zones (shots); day stretches the table zones (votes); a recording
    # without marks is scanned for both (it is not known when it is night).
    zones: tuple[str, ...] = ("table_zone",)
    if stretch.kind in ("shooting", "night"):
        zones = ("raise_zone",)
    elif stretch.kind == SCAN:
        zones = ("table_zone", "raise_zone")
    obs = []
    with HandFinder(layout) as finder:
        watch = None
        if stretch.mode == DENSE:
            frames = timeline.iter_frames(stretch.start, stretch.end)
        elif stretch.kind == SCAN:
            frames = timeline.iter_frames(stretch.start, stretch.end + SCAN_OVERLAP_MS, SCAN_STEP_MS)
        else:
            frames = _keyframes(timeline, stretch.start, stretch.end)
        for fr in frames:
            if watch is None:
                watch = TableWatch(finder, zones, fr.image.shape)
            obs.extend(watch.feed(fr.image, int(fr.pts_ms)))
        calls = finder.calls
    if watch is not None:
        obs = watch.reaches_resolved(obs)  # a neighbour's reach, told by its home zone
    if stretch.kind == SCAN:
        obs = [
            o for o in obs if o.t < stretch.end
        ]  # read past the end to let hands settle; the rest is the next's
    night: list[Event] = []
    if stretch.kind in ("night", "shooting"):
        from vision.nightwatch import night_pass  # heads, masks, hands at night; samples ~6 frames a second

        night = night_pass(timeline, layout, stretch.start, stretch.end, shooting=stretch.kind == "shooting")
    obs, as_heads = _heads_before_merge(_off_the_table(obs, layout), night, layout)
    kept = _dedupe(obs, layout)
    out = [event_to_json(_to_event(o, stretch)) for o in kept]
    out += [event_to_json(e) for e in _arms_unread(night, kept)]
    out += [event_to_json(_raise_at_peek(o, h, stretch.mode == SPARSE)) for o, h in _one_per_raise(as_heads)]
    damaged = [f"{d.from_ms}-{d.to_ms} ms: {d.reason}" for d in timeline.damaged]
    return {"events": out, "calls": calls, "damaged": damaged}


# A raised hand is held above the head, well clear of the table: a raise sighting centred in a table zone or
# within this many hand lengths (its box's size) of one is a hand at the table. Clean 1704: seat 2's hand
# shapes the gun on the table before it rises (63.00 s, the raise's peak at 63.58 s), inside the corner of
# seat 1's raise zone that covers seat 2's table zone, and was read as seat 1's "gun" 0.98 centred 3 px
# (0.08 of its box) outside seat 2's table zone. On sets F and G and the session-10 tuning games
# (102 renders, 254 true raises, analysed by 0.35–0.37) every true raise lay 1.14 hand lengths or more from
# every table zone (seat 1's gun above seat 2's table zone, seen from the camera); the next false one 0.90.
TABLE_REACH = 0.5


def _off_the_table(obs: list[Any], layout: Layout) -> list[Any]:
    """Drop raise sightings that lie at a table zone: a hand resting there or getting ready on the table
    (shaping the gun before it rises) is no raise, whichever raise zone it was seen through. Table zones
    are where hands rest for the votes, so this holds for any layout whose raise zones are drawn above
    the heads; only where a raise zone reaches down over a table zone can such a sighting be made."""
    tables = [s.table_zone for s in layout.seats]

    def at_table(o: Any) -> bool:
        return any(_box_at(o.box, z, TABLE_REACH) for z in tables)

    return [o for o in obs if not (o.kind == "shot_raise" and o.box is not None and at_table(o))]


def _box_at(box: tuple[float, float, float, float], zone: Any, reach: float) -> bool:
    """Whether a hand's box is centred in ``zone`` or within ``reach`` hand lengths (the box's size) of it."""
    centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    size = max(box[2] - box[0], box[3] - box[1], 1.0)
    return point_in_polygon(centre, zone) or distance_to_polygon(centre, zone) <= reach * size


RAISE_SPEED = 40.0  # hand lengths a second: faster than any raise (tablesim's are about 27)
# A whole sighting's hand was still for this long after it (the zone settles after two still frames at 25 fps)
HOLD_MS = 80.0
HELD_APART = 1.0  # hand lengths: two whole raise sightings farther apart than this are two hands
# A raise is held at its top and let down: tablesim holds it 250 ms and lowers it over 650 ms. Two whole
# sightings in two seats' own zones this far apart in time are two raises, whichever was higher (on the blind
# noisy sets AA and BB and V's 2705-2706, 87 true raises, 600 ms and 900 ms split the same: one more raise
# found, no false one). A hand seen still on its way up through the neighbour's zone was 320 ms before its
# peak (noisy 503).
HELD_TWICE_MS = 900
# A hand rising to a raise is seen near the line from its seat's table zone to where it is held: on the noisy
# sets AA, BB and V's 2705-2706 the partial sightings that were a neighbour's hand rising or coming down lay
# 0.09-0.47 of its hand lengths from that line; two that were another seat's gun, seen in part in its own zone
# 120 ms before the neighbour's peak, 2.10 (V 2706, seat 2 beside seat 3) and 2.26 (BB 3315, seat 10 below
# seat 9), and both nights were lost. Two more lay on the line (0.10, 0.34: V 2705, BB 3302) and stay lost.
OFF_PATH = 1.5
DEDUPE_MS = {"hand_down": 120, "hand_up": 120, "shot_raise": 1500}
# A raise is held before it comes down: a non-aiming sighting this long or longer after a neighbour's aimed
# one can be that hand coming down. Set F's mafia raised together within 280 ms or 2.8 s or more apart;
# noisy 1601's hand coming down was seen 800 ms after its peak, the sample game's 680 ms.
DOWN_MS = 500
DOWN_REACH = 5.5  # hand lengths, as for a partial sighting on the way up (noisy 1601's: 3.3)


def _dedupe(obs: list[Any], layout: Layout | None = None) -> list[Any]:
    """One hand seen from two zones (a neighbour's arm across a boundary, a raised hand crossing
    overlapping raise zones) is one fact: keep the sighting from the owner's own zone, else the most
    confident. A raise is one gesture of about a second and a half. ``layout``: the stretch's seats (their
    table zones tell where a raised hand rose from)."""
    obs = _merge_raises(obs, layout)
    out: list[Any] = []
    for o in sorted(obs, key=lambda o: (o.kind, o.seat, o.t)):
        prev = out[-1] if out else None
        within_ms = DEDUPE_MS.get(o.kind, 120)
        if prev is not None and prev.kind == o.kind and prev.seat == o.seat and o.t - prev.t <= within_ms:
            if o.kind == "shot_raise":
                # One raise seen through two overlapping raise zones: the peak is the highest sighting.
                if o.box is not None and prev.box is not None and o.box[1] < prev.box[1]:
                    out[-1] = o
                continue
            if (o.zone_seat == o.seat) > (prev.zone_seat == prev.seat) or (
                (o.zone_seat == o.seat) == (prev.zone_seat == prev.seat) and o.conf > prev.conf
            ):
                out[-1] = o
            continue
        out.append(o)
    return sorted(out, key=lambda o: (o.t, o.seat, o.kind))


def _merge_raises(obs: list[Any], layout: Layout | None = None) -> list[Any]:
    """A raised hand crossing two overlapping raise zones is seen twice, and the lower sighting may be given
    to the neighbour whose head it passes over: sightings within a raise's duration and a hand's reach of
    each other are one raise, owned and timed by the highest of those that aim (noisy 607: a head-high "other"
    in seat 8's zone, 0.8 hand lengths above seat 8's gun and 480 ms before it, took seat 8's shot)."""
    raises = sorted((o for o in obs if o.kind == "shot_raise" and o.box is not None), key=lambda o: o.t)
    rest = [o for o in obs if not (o.kind == "shot_raise" and o.box is not None)]
    # A hand seen only in part counts only if it aimed: on the tuning games the partial sightings that were
    # raises read gun or point, and the false ones palm, fist or other (heads, masks, hands coming down).
    raises = [o for o in raises if _may_count(o)]

    def apart(a: Any, b: Any) -> float:
        """How far apart two sightings are, in hand lengths (the size of ``a``'s box)."""
        size = max(a.box[2] - a.box[0], a.box[3] - a.box[1], 1.0)
        dx = (a.box[0] + a.box[2] - b.box[0] - b.box[2]) / 2
        dy = (a.box[1] + a.box[3] - b.box[1] - b.box[3]) / 2
        return float((dx * dx + dy * dy) ** 0.5 / size)

    def near(a: Any, b: Any, reach: float) -> bool:
        return abs(a.t - b.t) <= DEDUPE_MS["shot_raise"] and apart(a, b) <= reach

    def travelled(a: Any, b: Any) -> bool:
        # One hand can be at both places only if there was time to move between them: a raise is fast
        # but not instant (RAISE_SPEED hand lengths a second at most).
        # A hand seen whole was still there for HOLD_MS after it (clean 620: seat 2's gun held 120 ms before
        # seat 3's, 2.6 hand lengths away, is another hand).
        d = apart(a, b)
        first = a if a.t <= b.t else b
        return d <= 1.0 or abs(a.t - b.t) - (0.0 if first.partial else HOLD_MS) >= 1000.0 * d / RAISE_SPEED

    def two_held(a: Any, b: Any) -> bool:
        # Two whole sightings (each hand still when its zone's movement ended) more than a hand length
        # apart, the lower one not seen before the higher one, are two hands: one rising hand is seen low
        # first. (Seats 8 and 9 raising together: their guns held 2.45 hand lengths apart, seat 9's lower
        # one at the same moment or 200 ms after seat 8's. Noisy 503: seat 9's gun, seen still in seat 10's
        # zone on its way up 320 ms before its peak, is one raise.)
        # A lower one seen first is two hands too when both were held in their own seats' zones
        # HELD_TWICE_MS or more apart (blind noisy BB 3311: seat 3's gun held at 73.68 s, seat 4's 1.24 s
        # later 2.9 hand lengths higher; merged, the night lost seat 3's shot).
        low, high = (a, b) if a.box[1] > b.box[1] else (b, a)
        return (
            not a.partial
            and not b.partial
            and apart(a, b) > HELD_APART
            and (low.t >= high.t or _held_twice(a, b))
        )

    def beside(a: Any, b: Any) -> bool:
        # Seen from the same raise zone or a neighbour's: a hand rises through the zones that overlap its
        # own (noisy 413: seat 2's gun, seen in part 5.1 hand lengths below seat 4's, two zones away).
        return abs(a.zone_seat - b.zone_seat) <= 1

    def still_up(a: Any, b: Any) -> bool:
        # An aimed sighting lower than a whole aimed one by more than a hand length, seen after it but
        # sooner than a raised hand comes down (DOWN_MS), is another hand: the whole one is still held up
        # at its peak. (Clean 2616, held out: seats 9 and 10 raised together, seat 10's gun held in front of
        # seat 9's head was seen only in part, 120 ms before seat 9's peak and 400 ms after it, 2.9 hand
        # lengths lower, and was taken for seat 9's hand on its way up: the night lost seat 10's shot.)
        held, other = (a, b) if a.t <= b.t else (b, a)
        return (
            not held.partial
            and held.gesture in AIMED
            and other.gesture in AIMED
            and 0 < other.t - held.t < DOWN_MS
            and other.box[1] > held.box[1]
            and apart(other, held) > HELD_APART
        )

    tables = {z.seat: _centre(z.table_zone) for z in layout.seats} if layout is not None else {}

    def off_path(a: Any, b: Any) -> bool:
        # Of a partial and a whole sighting: the partial one aims, in its own seat's zone, and lies OFF_PATH
        # hand lengths or more from the line along which the whole one's hand rose (from its seat's table
        # zone to where it was held): another seat's hand, not that hand on its way up.
        part, held = (a, b) if a.partial else (b, a)
        if not part.partial or held.partial or part.gesture not in AIMED:
            return False
        if not (part.seat == part.zone_seat != held.seat) or held.seat not in tables:
            return False
        return _off_line(part.box, tables[held.seat], held.box) >= OFF_PATH

    # A raise seen only in part (the hand rose out of a neighbour's zone on its way up) is the same raise
    # as a whole sighting nearby, seen when the hand could have got there: drop it for that one. (Two
    # players raising together are seen at the same moment in two places.)
    whole = [o for o in raises if not o.partial]

    def rising_into(o: Any) -> Any:
        """The whole sighting that partial ``o`` can be the rising hand of, or None."""
        return next(
            (
                w
                for w in whole
                if near(o, w, 5.5)
                and travelled(o, w)
                and beside(o, w)
                and not still_up(o, w)
                and not off_path(o, w)
            ),
            None,
        )

    def two_hands(a: Any, b: Any) -> bool:
        # Farther apart than one hand could travel in the time between the two sightings.
        return apart(a, b) > HELD_APART and not travelled(a, b)

    into = {id(o): w for o in raises if o.partial and (w := rising_into(o)) is not None}
    rising = [o for o in raises if id(o) in into]
    # ...but two partial sightings no one hand could have linked are two hands rising: the one named for
    # another seat than the whole sighting's is kept. (Noisy 2616, held out: seats 9 and 10 raised together;
    # seat 9's rising hand was seen in seat 10's zone at 68.52 s and seat 10's gun, 4.1 hand lengths lower,
    # 40 ms later; seat 10's gun was not found again.)
    two_rising = {
        id(b)
        for a in rising
        for b in rising
        if into[id(b)] is into[id(a)] and a.seat == into[id(a)].seat != b.seat and two_hands(a, b)
    }
    risers = [(o, into[id(o)]) for o in rising if id(o) not in two_rising]
    raises = [o for o in raises if id(o) not in into or id(o) in two_rising]

    def rose_elsewhere(a: Any, b: Any) -> bool:
        # Two whole sightings, each in its own seat's zone, and the higher one's hand seen rising somewhere
        # no one hand could link with the lower one: the lower one is another hand, held in its own zone.
        # (Clean 2706, held out: seat 2's gun held in its zone at 98.28 s, seat 3's rising hand seen in seat
        # 2's zone at the same moment 2.4 hand lengths away, seat 3's gun whole 280 ms later: two raises.)
        if a.partial or b.partial or a.seat == b.seat or a.zone_seat != a.seat or b.zone_seat != b.seat:
            return False
        low, high = (a, b) if a.box[1] > b.box[1] else (b, a)
        return any(w is high and two_hands(r, low) for r, w in risers)

    # Sightings within 3 hand lengths (2.5 before 0.28; noisy 503's was 2.51) are one hand seen through
    # overlapping zones, owned by the highest, if one hand could have been at both places (noisy game 501:
    # seat 7's partial sighting 2.4 hand lengths and 40 ms from seat 8's held gun is another hand).
    # An aimed sighting that can be another aimed raise's hand coming down (noisy 1602: seat 8's gun let down
    # through seat 9's zone, read as a "point" 0.51 600 ms after seat 8's, 4.3 hand lengths lower) does not
    # take the raise it merges with (seat 10's "other" 0.92 in its own zone 680 ms before): the hand seen
    # there first keeps it.
    kept: list[Any] = []
    for o in raises:
        for i, k in enumerate(kept):
            if (
                near(o, k, 3.0)
                and travelled(o, k)
                and not two_held(o, k)
                and not still_up(o, k)
                and not rose_elsewhere(o, k)
                and not off_path(o, k)
            ):
                if (o.gesture in AIMED, -o.box[1]) > (k.gesture in AIMED, -k.box[1]) and not (
                    k.gesture not in AIMED
                    and o.t > k.t
                    and any(_coming_down(o, j) for j in kept if j is not k and j.gesture in AIMED)
                ):
                    kept[i] = o
                break
        else:
            kept.append(o)
    # A hand coming down from an aimed raise passes, whole but no longer aiming, through the raise zone
    # below its own (noisy 1601: seat 9's "point" at 74.32 s, then an "other" in seat 10's zone 800 ms later,
    # 3.3 hand lengths lower, taken for seat 10's raise). Only sightings that do not aim are dropped: a true
    # raise seen beside another is a raise held together with it (within 280 ms on set F) or a later one.
    aimed = [k for k in kept if k.gesture in AIMED]
    kept = [o for o in kept if o.gesture in AIMED or not any(_coming_down(o, k) for k in aimed)]
    return rest + kept


def _centre(poly: Sequence[tuple[float, float]]) -> tuple[float, float]:
    return (sum(x for x, _ in poly) / len(poly), sum(y for _, y in poly) / len(poly))


def _off_line(box: Any, start: tuple[float, float], held: Any) -> float:
    """How far the centre of ``box`` lies from the line from ``start`` through the centre of box ``held``,
    in hand lengths (``held``'s size)."""
    size = max(held[2] - held[0], held[3] - held[1], 1.0)
    hx, hy = (held[0] + held[2]) / 2, (held[1] + held[3]) / 2
    px, py = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    dx, dy = hx - start[0], hy - start[1]
    length = max((dx * dx + dy * dy) ** 0.5, 1.0)
    return float(abs((px - start[0]) * dy - (py - start[1]) * dx) / length / size)


def _held_twice(a: Any, b: Any) -> bool:
    """Whether whole raise sightings ``a`` and ``b`` are two seats' hands each held in its own raise zone,
    HELD_TWICE_MS or more apart: one hand is held up once and then let down."""
    return (
        a.seat != b.seat
        and a.zone_seat == a.seat
        and b.zone_seat == b.seat
        and abs(a.t - b.t) >= HELD_TWICE_MS
    )


def _coming_down(o: Any, k: Any) -> bool:
    """Whether sighting ``o`` (not aiming) can be the hand of the aimed raise ``k`` on its way down: seen
    from the same or the next raise zone, DOWN_MS to DEDUPE_MS after it, lower and within DOWN_REACH hand
    lengths of it (the size of ``k``'s box)."""
    size = max(k.box[2] - k.box[0], k.box[3] - k.box[1], 1.0)
    dx = (o.box[0] + o.box[2] - k.box[0] - k.box[2]) / 2
    dy = (o.box[1] + o.box[3] - k.box[1] - k.box[3]) / 2
    return (
        abs(o.zone_seat - k.zone_seat) <= 1
        and DOWN_MS <= o.t - k.t <= DEDUPE_MS["shot_raise"]
        and dy > 0
        and (dx * dx + dy * dy) ** 0.5 / size <= DOWN_REACH
    )


# A raise seen in or beside a neighbour's head zone this close to that neighbour's head lifting or going
# down again is the head: the peeking head of seat 8 lies inside seat 9's raise zone (clean 1611 and 1612:
# "point" raises 120 ms after and 40 ms before seat 8's head_up, centred in seat 8's head zone). On set F (30
# games) no true raise lay in a lifting head's zone; the nearest true raise to a neighbour's head lift was
# 520 ms away, outside it.
PEEK_MS = 400
# ...but a raise seen more than this long before the night pass saw the head lift is no head lifting: the
# head had not moved yet. A head read as a hand was seen at most 40 ms before its head_up (clean 1611, 1712);
# the night pass looks every 160 ms (nightwatch.STEP_MS), so 1.5 of its steps. Clean and noisy 2163 (held
# out): seat 10's gun held from 93.56 s in front of seat 9's head zone, 360 ms before seat 9's head_up at
# 93.92 s (a peek, true lift 94.04 s), was dropped as that head and the night lost its kill.
HEAD_LEAD_MS = 240
# How far outside the head zone (in hand lengths, the raise box's size) the moving head is still read. The
# zone holds the head once it is up; on its way up or down the head passes just outside it (clean 1712: seat
# 9's neck and chin rising, read as seat 10's "gun" 0.65, 40 ms before seat 9's head_up, centred 15 px = 0.45
# of its box below seat 9's head zone). On sets F and G and the session-10 tuning games (102 renders, 254 true
# raises) every true raise within PEEK_MS of a neighbour's head lift or fall lay 159 px or more (3.6 hand
# lengths) from that head's zone.
HEAD_REACH = 1.0
# ...but a sighting read as a gun after the night pass last saw the head up (its ``until``) is a hand: a head
# going down is read as a pointing finger or no shape at all. The head's outline, not the hand's, ends the
# peek, and a gun rising through the neighbour's head path keeps that outline "up" a step longer. Of the 14
# sightings taken for heads in the analyses of sets U, V and W by 0.51 (120 games), 6 were true raises; the 4
# read as a gun after the head's ``until`` (+80 to +200 ms) were all true raises, and two of them lost their
# night (clean and noisy V 2705, clean W 2815: a gun 120-200 ms after the neighbour's peek ended). The heads
# taken after ``until`` were read "other" (+120 ms) and "point"; every head read as a gun was lifting (noisy
# W 2812, +80 ms after the lift; clean 1712, 40 ms before it).
FALL_GUN = "gun"
# ...and so is a confident "point" then (FALL_POINT_CONF sure). Blind noisy AA 3202 and BB 3301 lost their
# nights to it: the neighbour's gun held in front of the head zone read "point" 0.69 80 ms after ``until``
# (3202, seat 10 over seat 9's head) and 0.83 360 ms after it (3301, seat 9 over seat 8's). The heads read
# "point" that are known were less sure: 0.49 at ``until`` (noisy 1710), 0.32 40 ms before it (noisy 1405),
# 0.55 lifting (BB 3307).
FALL_POINT_CONF = 0.6
# ...and none of these holds for a raise by a seat whose arm the same night pass saw up in its own raise zone,
# clear of every head path (a rising head never gets there: nightwatch's ``high``), within this long of the
# raise (one night-pass step): that is the seat's hand held up in front of the peeking neighbour's head, not
# the head (blind clean and noisy FF 3700: seat 3's gun read "point" 0.59 80 ms after seat 4's head_up, its
# arm up in seat 3's raise zone from 73.44 s to 73.92 s, was taken for seat 4's head and the night lost its
# kill; clean S 2422 the same).
ARM_UP_MS = 160
# A seat's own raise is held above its head, in the raise zone over its head zone; a "raise" by that seat
# centred inside its own head zone while that head lifts or goes down is the head itself (noisy 1809: seat 8's
# head lifting, read as seat 8's "palm" 0.90 through seat 9's raise zone 120 ms after seat 8's head_up,
# centred inside seat 8's head zone; the shooting stretch then held a shot by a seat that never raised). On
# sets F, G and H and the session-9 and -10 tuning games (483 analyses by 0.35-0.38, 1198 true raise
# sightings) no true raise was seen within 3 s of its own seat's head lift or fall. Only the zone itself
# counts (no reach): the seat's own raise zone lies right above it.


def _heads_not_hands(events: list[Event], layouts: Layouts, size: tuple[int, int]) -> list[Event]:
    """Drop raises that are a head lifting or going down (a peek), a neighbour's or its own, not a hand.

    Seats' head zones lie inside their neighbours' raise zones (seat 8's head inside seat 9's raise zone),
    so a head lifting at night moves in a raise zone and the landmarker may read it as a pointing hand; the
    same head going down at the end of the peek moves there again (noisy 1710: seat 9's head going down,
    read as seat 10's "point" 0.49 at the very frame the night pass ends the peek; noisy 1405: seat 2's, 40 ms
    before, as seat 1's). The night pass sees the head lift (``head_up``) and go down (its ``until``); a
    raise by another seat whose box is centred in that head's zone, or within HEAD_REACH hand lengths of it,
    and seen within PEEK_MS of the lift or of the fall is that head. So is a raise by the peeking seat itself
    centred inside its own head zone then (noisy 1809): a hand raised by that seat is held above its head.
    Whole events (all stretches) are looked at here, as a lift and the raise it made may fall into two
    stretches.

    A dropped raise is not lost: it is replaced by a ``night_motion`` of kind RAISE_AT_PEEK by the raising
    seat (:func:`_raise_at_peek`), which the referee never counts as a shot but lists for the judge with the
    number being called then. A hand held up in front of a neighbour's head zone while that neighbour peeks
    looks like the head to these rules (clean S 2422: seat 10's gun, its top 160 ms after seat 9's head
    lifted, inside seat 9's head zone); the night pass tells it by its arm, seen up in the raising seat's own
    raise zone clear of every head path (ARM_UP_MS), and it is kept."""
    heads = [e for e in events if isinstance(e, HeadUp)]
    if not heads:
        return events

    def zone_of(seat: int, t: int) -> tuple[tuple[float, float], ...] | None:
        return next((s.head_zone for s in _layout_at(layouts, t, size).seats if s.seat == seat), None)

    out: list[Event] = []
    for e in events:
        head = _head_of(e, heads, zone_of) if isinstance(e, ShotRaise) and e.src == "vision" else None
        out.append(e if head is None else _raise_at_peek(e, head, bool(e.extra.get("coarse"))))
    return out


def _head_of(
    r: Any, heads: list[HeadUp], zone_of: Callable[[int, int], tuple[tuple[float, float], ...] | None]
) -> int | None:
    """The seat whose head (one of ``heads``, lifting or going down) raise ``r`` (an event or a zone's
    sighting: seat, t, box) is, or None (see :func:`_heads_not_hands`); ``zone_of(seat, t)`` gives a seat's
    head zone."""
    if r.box is None:
        return None
    for h in heads:
        if h.seat != r.seat and _arm_up(h, r.seat, r.t):
            continue
        lifting = -HEAD_LEAD_MS <= r.t - h.t <= PEEK_MS
        falling = abs(r.t - h.until) <= PEEK_MS and not (r.t > h.until and _a_hand_after_the_fall(r))
        if not lifting and not falling:
            continue
        zone = zone_of(h.seat, r.t)
        if zone is not None and _box_at(r.box, zone, HEAD_REACH if h.seat != r.seat else 0.0):
            return h.seat
    return None


def _arm_up(head: HeadUp, seat: int, t: int) -> bool:
    """Whether the night pass that saw ``head`` lift also saw ``seat``'s arm up in its raise zone, clear of
    every head path, within ARM_UP_MS of ``t`` (``head.extra["arms"]``; see ARM_UP_MS)."""
    return any(
        int(a[0]) == seat and int(a[1]) - ARM_UP_MS <= t <= int(a[2]) + ARM_UP_MS
        for a in head.extra.get("arms", ())
    )


def _a_hand_after_the_fall(r: Any) -> bool:
    """Whether raise ``r``, seen after the neighbour's head was last seen up, reads as a hand: a gun, or a
    point FALL_POINT_CONF sure (see FALL_GUN)."""
    return bool(r.gesture == FALL_GUN or (r.gesture == "point" and r.conf >= FALL_POINT_CONF))


def _raise_at_peek(r: Any, head: int, coarse: bool) -> NightMotion:
    """Raise ``r`` (a ``shot_raise`` event or a zone's sighting) taken for seat ``head``'s head, kept for
    the judge as a ``night_motion`` of kind RAISE_AT_PEEK by the raising seat (at the raise's top, ``until``
    = ``t``); ``extra`` holds the head's seat, the hand shape read, its confidence and box."""
    extra: dict[str, Any] = {
        "analyser": f"{ANALYSER}/{VERSION}",
        "head_of": head,
        "gesture": r.gesture,
        "box": [round(float(v), 1) for v in r.box],
    }
    if coarse:
        extra["coarse"] = True
    return NightMotion(
        t=r.t,
        src="vision",
        id=f"vis:night_motion:{r.seat}:{r.t}:{RAISE_AT_PEEK}:{VERSION}",
        seat=r.seat,
        kind=RAISE_AT_PEEK,
        until=r.t,
        conf=round(float(r.conf), 3),
        extra=extra,
    )


def _may_count(o: Any) -> bool:
    """Whether raise sighting ``o`` may count as a raise: seen whole, or aiming (see :func:`_dedupe`)."""
    return not o.partial or o.gesture in AIMED


def _one_per_raise(as_heads: list[tuple[Any, int]]) -> list[tuple[Any, int]]:
    """Of the raise sightings taken for heads (with the head's seat), those a judge needs to see: the ones
    that would have counted as raises (seen whole, or aiming; see :func:`_dedupe`), one per raising seat and
    head within DEDUPE_MS of each other (the most confident)."""
    out: list[tuple[Any, int]] = []
    for o, head in sorted(as_heads, key=lambda p: p[0].t):
        if not _may_count(o):
            continue
        same = next(
            (
                i
                for i, (k, kh) in enumerate(out)
                if kh == head and k.seat == o.seat and o.t - k.t < DEDUPE_MS["shot_raise"]
            ),
            None,
        )
        if same is None:
            out.append((o, head))
        elif o.conf > out[same][0].conf:
            out[same] = (o, head)
    return out


# A raise the night pass saw by its arm (nightwatch ``arm_raise``) is kept only where the landmarker found no
# raise by that seat this near it: the landmarker's reading, with its hand shape and its peak, stands where it
# has one. Blind noisy FF 3711: seat 7's gun, held for half a second, was read by the landmarker on no frame
# of its rise or hold, only on its way down (taken for a hand coming down), and the night lost its kill; the
# night pass saw seat 7's arm up from 73.64 s to 74.12 s and its resting hand gone from the table.
ARM_NEAR_MS = DEDUPE_MS["shot_raise"]


def _arms_unread(night: list[Event], kept: list[Any]) -> list[Event]:
    """The night pass's events, without its raises seen by the arm (``extra["seen_by"] == "arm"``) where the
    stretch's merged raise sightings ``kept`` hold a raise by the same seat within ARM_NEAR_MS."""

    def read(e: ShotRaise) -> bool:
        return any(
            o.kind == "shot_raise" and o.seat == e.seat and abs(o.t - e.t) <= ARM_NEAR_MS for o in kept
        )

    return [
        e for e in night if not (isinstance(e, ShotRaise) and e.extra.get("seen_by") == "arm" and read(e))
    ]


def _heads_before_merge(
    obs: list[Any], night: list[Event], layout: Layout
) -> tuple[list[Any], list[tuple[Any, int]]]:
    """A stretch's raise sightings without those the stretch's own night pass shows to be a head lifting or
    going down (:func:`_head_of`), dropped before the sightings are merged: a head merged with a true raise
    takes it, and dropping the head afterwards (:func:`_heads_not_hands`, which sees every stretch's events)
    loses the raise with it. Noisy 1909: seat 9's head lifting for a peek, read through seat 10's raise zone
    as a "point" 0.81 (72.60 s, 80 ms after its head_up), merged with seat 10's own gun held 760 ms later at
    the same place (read "other" 0.91, so the aiming head owned the merge) and was dropped as the head, and
    the night lost seat 10's shot. Returns the sightings kept and the dropped ones with the head's seat (kept
    for the judge, :func:`_raise_at_peek`).

    The head zones are those of ``layout``, the layout at the stretch's start (the one its zones were watched
    with), whatever the sighting's time; :func:`_heads_not_hands` takes each event's layout at its own time.
    The two differ only when the layout is re-marked during a stretch."""
    heads = [e for e in night if isinstance(e, HeadUp)]
    if not heads:
        return obs, []
    zones = {s.seat: s.head_zone for s in layout.seats}

    def zone_of(seat: int, t: int) -> tuple[tuple[float, float], ...] | None:
        return zones.get(seat)

    kept: list[Any] = []
    dropped: list[tuple[Any, int]] = []
    for o in obs:
        head = _head_of(o, heads, zone_of) if o.kind == "shot_raise" else None
        if head is None:
            kept.append(o)
        else:
            dropped.append((o, head))
    return kept, dropped


def _keyframes(timeline: Any, start: int, end: int) -> Any:
    """Keyframes only (about one a second in our recordings): cheap to decode, enough for gating."""
    return timeline.iter_frames(start, end, keyframes_only=True)


def _to_event(o: Any, stretch: Stretch) -> Event:
    extra: dict[str, Any] = {"analyser": f"{ANALYSER}/{VERSION}"}
    if o.zone_seat != o.seat:
        extra["zone_seat"] = o.zone_seat
    if stretch.mode == SPARSE:
        extra["coarse"] = True  # timed to about a second only (keyframes)
    ev_id = f"vis:{o.kind}:{o.seat}:{o.t}:{VERSION}"
    conf = round(float(o.conf), 3)
    if o.kind == "hand_down":
        return HandDown(
            t=o.t, src="vision", id=ev_id, seat=o.seat, gesture=o.gesture, conf=conf, box=o.box, extra=extra
        )
    if o.kind == "hand_up":
        return HandUp(t=o.t, src="vision", id=ev_id, seat=o.seat, conf=conf, extra=extra)
    if o.kind == "shot_raise":
        return ShotRaise(
            t=o.t, src="vision", id=ev_id, seat=o.seat, gesture=o.gesture, conf=conf, box=o.box, extra=extra
        )
    raise ValueError(f"unknown observation kind {o.kind}")


def _init_worker() -> None:
    os.environ.setdefault("GLOG_minloglevel", "2")
    os.environ.setdefault("OMP_NUM_THREADS", "1")


# ---- the driver ---------------------------------------------------------------------------------------

Progress = Callable[[float, int, int, float], None]  # fraction done, stretches done, total, elapsed s


def _cost(st: Stretch) -> float:
    return st.duration * (1.0 if st.mode == DENSE else SPARSE_COST)


def analyze(
    bundle_path: str | Path,
    *,
    workers: int = 2,
    progress: Progress | None = None,
    resume: bool = True,
    use_marks: bool = True,
    spot_words: bool = False,
) -> Report:
    path = Path(bundle_path)
    bundle = load_bundle(path)
    if not bundle.game.video:
        raise AnalyzeError(f'{path / "game.json"}: the game has no video to analyse ("video": null)')
    if bundle.layout is None:
        raise AnalyzeError(f"{path / 'layout.json'}: missing; calibrate the seats first")
    for v in bundle.game.video:
        if not (path / v).exists():
            raise AnalyzeError(f"{path / 'game.json'}: video segment {v} does not exist")
    from vision.video import VideoTimeline

    t0 = time.monotonic()
    tl = VideoTimeline([path / v for v in bundle.game.video])
    duration = int(tl.duration_ms) + 1
    warnings: list[str] = []
    lay0 = bundle.layout.at(0)
    if tuple(lay0.frame_size) != tuple(tl.frame_size):
        warnings.append(
            f"{path / 'layout.json'}: frame size {lay0.frame_size} differs from the video's {tl.frame_size};"
            " zones scaled to the video"
        )
    marks = [e for e in bundle.events if e.src in ("host", "judge")] if use_marks else []
    stretches = split_for_workers(plan(marks, duration))
    if not marks:
        stretches = [Stretch(st.start, st.end, SCAN, st.mode) for st in stretches]
    stretches = _cut_at_layouts(stretches, bundle.layout)
    cache = path / CACHE_DIR / VERSION
    cache.mkdir(parents=True, exist_ok=True)
    results, calls, damaged, cached = _run(path, bundle, stretches, cache, workers, progress, resume)
    events = [ev for st in stretches for ev in results[st.key]]
    proposed: list[Event] = []
    if not marks:
        proposed = propose_windows(events, duration)
        extra = [
            Stretch(max(0, p.t), min(duration, _until(p)), _kind(p), DENSE)
            for p in proposed
            if isinstance(p, ProposedWindow)
        ]
        if extra:
            more, c2, d2, k2 = _run(path, bundle, extra, cache, workers, None, resume)
            calls += c2
            cached += k2
            damaged += d2
            # Dense results replace the coarse ones inside proposed windows.
            events = [e for e in events if not any(s.start <= e.t < s.end for s in extra)] + [
                ev for st in extra for ev in more[st.key]
            ]
            stretches = stretches + extra
            # The windows again, from the frame-accurate hands: two windows a few seconds apart, merged
            # from the keyframes, come apart, and each is bounded by its own hands.
            proposed = propose_windows(events, duration)
    events = _heads_not_hands(events, bundle.layout, tuple(tl.frame_size))
    all_events = sorted(events + proposed, key=lambda e: (e.t, e.TYPE, getattr(e, "seat", 0)))
    all_events = _unique_ids(all_events)
    write_events_replace(path / VISION_FILE, all_events)
    onsets = _audio_pass(path, list(bundle.game.video), marks, warnings, spot_words=spot_words)
    report = Report(
        bundle=str(path),
        duration_ms=duration,
        stretches=len(stretches),
        dense_ms=sum(s.duration for s in stretches if s.mode == DENSE),
        cached=cached,
        events=len(all_events),
        proposed=len(proposed),
        onsets=onsets,
        wall_s=round(time.monotonic() - t0, 3),
        landmarker_calls=calls,
        damaged=sorted(set(damaged)),
        warnings=warnings,
    )
    (path / CACHE_DIR / "report.json").write_text(json.dumps(asdict(report), indent=1), encoding="utf-8")
    return report


def _audio_pass(
    path: Path, video: list[str], marks: list[Event], warnings: list[str], *, spot_words: bool = False
) -> int:
    """The host's spoken words behind the keystroke marks, into ``audio.jsonl`` (replaced whole); with
    ``spot_words``, also "Спасибо" and the numbers spotted from the host's recorded templates, proposed as
    marks (``proposed_window`` of kind ``vote_stop`` / ``shot_call``) for the host or a judge to confirm."""
    from vision.onsets import onset_events, read_audio

    audio = read_audio([path / v for v in video])
    if audio is None:
        warnings.append(f"{path}: the recording has no audio track; vote windows close at the keystrokes")
        write_events_replace(path / AUDIO_FILE, [])
        return 0
    from vision.keywords import load_templates, spot_marks

    try:
        templates = load_templates(path)  # [] when the bundle has no voice_templates/
    except ValueError as e:
        warnings.append(str(e))
        templates = []
    # With the host's templates, each mark's word is also laid over the audio (onsets in noisy rooms).
    evs: list[Event] = list(onset_events(marks, audio, templates=templates))
    if spot_words:
        if not templates:
            warnings.append(f"{path}: no voice templates recorded; no marks proposed from the host's voice")
        else:
            evs += spot_marks(audio, templates)
    write_events_replace(path / AUDIO_FILE, sorted(evs, key=sort_key))
    return len(evs)


def _until(p: Event) -> int:
    return int(getattr(p, "until", p.t))


def _kind(p: Event) -> str:
    return "vote" if getattr(p, "kind", "") == "vote" else "shooting"


def _cut_at_layouts(stretches: list[Stretch], layouts: Layouts) -> list[Stretch]:
    cuts = [lay.from_t for lay in layouts.layouts if lay.from_t > 0]
    out: list[Stretch] = []
    for st in stretches:
        a = st.start
        for c in cuts:
            if a < c < st.end:
                out.append(Stretch(a, c, st.kind, st.mode))
                a = c
        out.append(Stretch(a, st.end, st.kind, st.mode))
    return out


def _run(
    path: Path,
    bundle: Bundle,
    stretches: Sequence[Stretch],
    cache: Path,
    workers: int,
    progress: Progress | None,
    resume: bool,
) -> tuple[dict[str, list[Event]], int, list[str], int]:
    from gamelog.jsonl import read_events

    results: dict[str, list[Event]] = {}
    todo: list[Stretch] = []
    for st in stretches:
        f = cache / f"{st.key}.jsonl"
        if resume and f.exists():
            rr = read_events(f)
            if not rr.bad:
                results[st.key] = list(rr.events)
                continue
        todo.append(st)
    cached = len(stretches) - len(todo)
    total = sum(_cost(s) for s in stretches) or 1.0
    done_cost = sum(_cost(s) for s in stretches if s.key in results)
    calls = 0
    damaged: list[str] = []
    start = time.monotonic()
    assert bundle.layout is not None
    video = list(bundle.game.video)
    # Longest first: the pool finishes together.
    todo.sort(key=_cost, reverse=True)

    def finished(st: Stretch, res: dict[str, Any]) -> None:
        nonlocal calls, done_cost
        from gamelog.events import parse_event

        evs = [parse_event(obj) for obj in res["events"]]
        write_events_replace(cache / f"{st.key}.jsonl", evs)
        results[st.key] = evs
        calls += int(res["calls"])
        damaged.extend(res["damaged"])
        done_cost += _cost(st)
        if progress:
            progress(done_cost / total, len(results), len(stretches), time.monotonic() - start)

    if progress:
        progress(done_cost / total, len(results), len(stretches), 0.0)
    if workers <= 1 or len(todo) <= 1:
        for st in todo:
            finished(st, run_stretch(str(path), video, bundle.layout, st))
        return results, calls, damaged, cached
    ctx = mp.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_init_worker) as pool:
        pending: dict[Future[dict[str, Any]], Stretch] = {
            pool.submit(run_stretch, str(path), video, bundle.layout, st): st for st in todo
        }
        try:
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    st = pending.pop(fut)
                    finished(st, fut.result())
        except BaseException:
            for fut in pending:
                fut.cancel()
            raise
    return results, calls, damaged, cached


def _unique_ids(events: list[Event]) -> list[Event]:
    """Ids are built from type, seat, t and version; two facts that collide get a suffix."""
    import dataclasses

    seen: dict[str, int] = {}
    out = []
    for e in events:
        base = e.id or f"vis:{e.TYPE}:{getattr(e, 'seat', '-')}:{e.t}:{VERSION}"
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.append(
            e if n == 0 and e.id == base else dataclasses.replace(e, id=base if n == 0 else f"{base}.{n}")
        )
    return out


def propose_windows(events: Sequence[Event], duration: int) -> list[Event]:
    """Without marks: many hands landing on table zones together propose a vote window; raised hands in
    raise zones propose a shooting round. The judge confirms them in the review window."""
    downs = sorted((e for e in events if isinstance(e, HandDown)), key=lambda e: e.t)
    raises = sorted((e for e in events if isinstance(e, ShotRaise)), key=lambda e: e.t)
    out: list[Event] = []
    clusters: list[tuple[int, int, set[int]]] = []  # first hand, last hand, seats
    i = 0
    while i < len(downs):
        j = i
        seats = set()
        while j < len(downs) and downs[j].t - downs[i].t <= PROPOSE_SPAN_MS:
            seats.add(downs[j].seat)
            j += 1
        if len(seats) >= PROPOSE_MIN_SEATS:
            clusters.append((downs[i].t, downs[j - 1].t, seats))
            i = j
        elif (
            clusters
            and downs[i].gesture in VOTING_GESTURES
            and downs[i].t <= clusters[-1][1] + PROPOSE_JOIN_MS
        ):
            first, _, seats = clusters[-1]  # a lone vote soon after a window: the next candidate's
            clusters[-1] = (first, downs[i].t, seats | {downs[i].seat})
            i += 1
        else:
            i += 1
    for first, last, seats in clusters:
        a, b = max(0, first - PROPOSE_LEAD_MS), min(duration, last + 6000)
        out.append(
            ProposedWindow(
                t=a,
                src="vision",
                kind="vote",
                until=b,
                id=f"vis:proposed_window:vote:{a}:{VERSION}",
                extra={"analyser": f"{ANALYSER}/{VERSION}", "seats": sorted(seats)},
            )
        )
    if raises:
        groups: list[list[ShotRaise]] = [[raises[0]]]
        for r in raises[1:]:
            if r.t - groups[-1][-1].t <= 20000:
                groups[-1].append(r)
            else:
                groups.append([r])
        for g in groups:
            if not _shooting(g):
                continue
            a, b = max(0, g[0].t - 16000), min(duration, g[-1].t + 16000)
            out.append(
                ProposedWindow(
                    t=a,
                    src="vision",
                    kind="shooting",
                    until=b,
                    id=f"vis:proposed_window:shooting:{a}:{VERSION}",
                    extra={"analyser": f"{ANALYSER}/{VERSION}"},
                )
            )
    return out


def _shooting(raises: Sequence[ShotRaise]) -> bool:
    """Raises that look like a shooting round: a finger-gun, or two seats aiming. Night masks going on and
    off raise hands too (2-4 seats within a second, read as palm, fist, other, at most one "point"), and
    without marks these proposed a round at every nightfall (clean 401, 405, 503)."""
    return any(r.gesture == "gun" for r in raises) or len({r.seat for r in raises if r.gesture in AIMED}) >= 2


def progress_printer(stream: Any = None, *, label: str = "analyse", unit: str = "stretches") -> Progress:
    """A one-line progress bar with an ETA on stderr: ``analyse [####....]  45.0%  3/8 stretches ...``."""
    out = stream or sys.stderr
    last = [0.0]

    def show(frac: float, done: int, total: int, elapsed: float) -> None:
        now = time.monotonic()
        if now - last[0] < 0.5 and done < total:
            return
        last[0] = now
        width = 30
        bar = "#" * int(frac * width) + "." * (width - int(frac * width))
        eta = (elapsed / frac - elapsed) if frac > 0.001 and elapsed > 0 else None
        eta_s = "--:--" if eta is None else f"{int(eta) // 60:02d}:{int(eta) % 60:02d}"
        out.write(
            f"\r{label} [{bar}] {frac * 100:5.1f}%  {done}/{total} {unit}  "
            f"elapsed {int(elapsed) // 60:02d}:{int(elapsed) % 60:02d}  ETA {eta_s} "
        )
        if done >= total:
            out.write("\n")
        out.flush()

    return show
