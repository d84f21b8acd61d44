"""Per-seat watchers: from consecutive frames to timed ``hand_down``, ``hand_up`` and ``shot_raise``.

Timing comes from cheap pixel motion, shape and ownership from the landmarker:

* Every frame, each watched zone's pixels are compared with the previous frame's (grey, blurred). A
  zone is *active* while enough of its pixels change.
* When activity stops (``SETTLE_FRAMES`` quiet frames), the last frame that changed is the first frame
  of the new still picture. The landmarker looks at the zone then (the picture has not changed since,
  so the current frame will do): a hand that arrived gives ``hand_down`` at that first still frame; a
  hand that is gone gives ``hand_up`` at the first frame where it moved.
* A raise zone (night shots) runs the landmarker on every active frame and reports ``shot_raise`` at
  the frame where the hand is highest (the first such frame if it holds there).

The landmarker therefore runs a handful of times per hand movement, not on every frame of every seat.
"""

from __future__ import annotations

import dataclasses
import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from vision.gestures import AIMED
from vision.handfinder import HandFinder, HandSeen, _padded_box
from vision.noise import (
    NOISY_UNSEEN_MIN_AREA,
    NoiseLevel,
    bared_share,
    covered,
    denoised,
    measure,
    restored_share,
    settle_frames,
    start_shapes_trusted,
    uncovered,
    uncovered_share,
)

PIXEL_DELTA = 14  # grey levels (after a 3×3 blur) that count as a change, above compression noise
ACTIVE_SHARE = 0.004  # share of the zone's pixels that must change for the zone to be active
ACTIVE_MIN_PX = 12
SETTLE_FRAMES = 2
TOP_TOLERANCE_PX = 1.0
RECHECK_FRAMES = 12
CUT_LOOK_FRAMES = 8  # a look for a missed arrival cut short after this many frames ends there (_look_cut)
HISTORY_FRAMES = 250  # ten seconds at 25 fps: longer activities time their hands by the zone
TABLE_INSIDE = 0.75  # share of a hand's landmarks inside a table zone for it to count as placed there
# A hand read at a settle where a hand lay at the zone's edge before the movement, with fewer than this share
# of its landmarks inside, is that resting hand read with a few more of them inside (noisy 1703, seat 1's rest
# hand at zone 1's corner: 0.57-0.86 inside from one look to the next while it lay still; the same player's
# thumb-up, placed in the zone 2 s later, 1.0). See ZoneWatcher._at_edge.
EDGE_INSIDE = 0.9
VOTING_SHAPES = ("thumb_up", "fist")
# A hand read at a settle at a resting hand's place with a box at least this many times the resting hand's
# is that hand read together with what came beside it (see ZoneWatcher._grown_over). Set from two cases: noisy
# 1918 zone 5 (2.2), and noisy 2155 zone 5 (1.475, so 0.44's 1.5 missed it; 425 of the 570 px outside the
# palm's box had changed, 2.3 times the minimum). How much a resting hand's box grows from look to look when
# nothing came beside it was not measured; the change outside its box is what tells.
GROWN_AREA = 1.25
# A landing the landmarker cannot read: hand-sized (in units of the seat's hand length squared; a fist seen
# from behind shows about 0.14 of it inside the zone on the sample game), and not cloth.
UNSEEN_MIN_AREA, UNSEEN_MAX_AREA = 0.12, 4.0
UNSEEN_CLOTH_DIST = 40.0  # RGB distance from the cloth's colour
UNSEEN_CONF = 0.3
# A small covered part (below NOISY_UNSEEN_MIN_AREA) is a landing when nothing lay within ALONE_PAD hand
# lengths of it and that much of its surroundings was cloth (_alone)
ALONE_PAD, ALONE_CLOTH_SHARE = 0.25, 0.9
UNCOVERED_GONE = 0.5  # noisy video: an unreadable landing has left when this share of its part is cloth again
FLICKER_MS = 40  # a movement this short (two changed frames at 25 fps) is a flicker (see _ZoneState.pending)
RETURN_MS = 2500  # a hand coming back to rest this soon after a lift is the lift's end
ARM_BEFORE_MS = 1000  # the picture an arriving hand's arm is compared against: this long before the movement
ARM_STEP, ARM_PAST = 4, 12  # frames kept for it: every 4th, the last 12 (about two seconds at 25 fps)
PASS_GAP_FRAMES = 2  # a raise zone's hand unseen for more active frames than this has left (another pass)
# A hand that holds, found more than this many hand lengths lower than the hand seen just before it, is
# another hand: the one before rose out of the zone (clean 619: seat 9's gun crossing the top of seat 10's
# zone, then seat 10's own gun rising from 2.1 hand lengths lower, two frames later).
RAISE_JUMP = 1.0
# A pass whose hand was highest when first seen and then went this many hand lengths lower is a hand coming
# down, not a raise (clean 620: seat 3's gun lowered through seat 1's zone, 0.4 hand lengths down).
LOWERING = 0.25
# A raised hand's box spans at least this share of the seat's hand length (true raises' peaks: 0.48 and up on
# the tuning games; the head-and-mask false hands 0.31-0.40).
RAISE_MIN_SIDE = 0.42
# ...and, unless it aims, at least this share across its narrower side: the landmarker also reads a flat
# sliver (a neighbour's head going down through the zone after a peek, noisy 708: an "other" 38 x 11 px where
# hands are 63 px long, 0.17) as a hand. A pointing finger seen edge on is thinner (noisy 606: seat 4's
# "point", 0.19); the thinnest true sighting of another shape on the tuning games: 0.32.
RAISE_MIN_THICK = 0.25
# ...and, unless it aims, at most this share across: a fist or palm raised at night spans at most 0.67 of
# it on the narrower side (tuning games 401-720), but the landmarker also reads a masked head coming up from
# the table as a "fist" a whole hand length square (clean 817, seat 8: 51 x 51 px, hands 51 px long;
# noisy 607, seat 7: an "other" 1.05 x 0.96). Aiming shapes are spared: a gun seen side on spans up to 0.77.
RAISE_MAX_THICK = 0.75
# ...and, unless it aims, at most this long: true raises of other shapes span at most 0.81 of the hand length,
# while heads and masks uncovered by a neighbour's arm moving away read as hands 0.85-1.12 long (noisy 801,
# seat 9: an "other" 61 x 34 px where hands are 58 px long, held).
RAISE_MAX_SIDE = 0.95
# An aiming hand's landmarks span at most this many hand lengths: the guns and points of true raises on the
# tuning games' sightings measured up to 1.12; noisy 1209's false raise by seat 1 was a "point" 2.1 long, 0.4
# across, read along seat 2's rising arm.
RAISE_MAX_AIM_SIDE = 1.6
# On noisy video, a raise zone whose plain look finds no hand may look again through the denoise filter. Off:
# on the noisy tuning games it found 3 raises no plain look saw, but it also read peeking heads as raised
# hands (6 more false raises, 2 nights turned into misses); see bench/RESULTS.md, "Session 4: shots".
DENOISED_RAISE_LOOK = False
# A raise zone's sightings of one hand on consecutive frames lie within this many hand lengths of each other
# (tablesim's raises move about one hand length a frame at their fastest); farther, another hand.
TRACK_LINK = 1.6
# A hand whose sightings stayed within HELD_STILL hand lengths of its top for HELD_MS held there: a whole
# raise even though the zone never settled (four frames at 25 fps).
HELD_MS, HELD_STILL = 120, 0.1
TOP_NEAR = 0.15  # hand lengths: sightings this close to a pass's top are the hand at its top
# A hand seen rising on at least this many moving frames before it came to rest where a reported hand held is
# a new raise (ZoneWatcher._rose_into). Set from one case, noisy 1909, seat 10's gun: seen on 7 frames of
# its rise (tablesim's raises take about 300 ms, 7-8 frames at 25 fps). Requiring more than three is meant to
# keep a landmarker's stray reading from counting; how many sightings stray readings give was not measured.
RISE_SIGHTINGS = 3
# The denoised look at a raise zone's settle keeps an aiming hand read at least this sure of its shape: the
# guns it found on the noisy tuning games read 0.51-0.98; a peeking head read as a "point" 0.36 (noisy 610).
DENOISED_AIM_CONF = 0.45
# Noisy video: a vote whose place uncovered this much cloth (hand lengths squared) has left (see _vote_left).
VOTE_LEFT_AREA = 0.2
# A hand seen coming down may be lost for this many frames and found again lower on: still coming down.
JOIN_GAP_FRAMES = 6
UNCHANGED_SHARE = 0.1  # a hand's box with fewer changed pixels than this share shows a hand that did not move
PART_EDGE_PX = 2  # an unreadable landing's part grown by this much: the blurred rim the colour rule leaves
# A part something came to cover, not taken for an unreadable landing, of at least LOOK_MIN_AREA
# hand lengths squared, is looked at through a crop LOOK_SIDE hand lengths across (ZoneWatcher._looked_at);
# a voting shape read there on a place at least LOOK_CLOTH_SHARE cloth before the movement is the arrival.
LOOK_MIN_AREA, LOOK_SIDE, LOOK_CLOTH_SHARE = 0.08, 2.0, 0.7
LEFT_BARED = 0.5  # share of a resting hand's place that shows the cloth again once the hand has left (_bared)
OWN_MOVE = 3.0  # hand lengths: a player's hand leaving its rest in the zone lands this near it (_moved_here)
CAME_SHARE = 0.8  # a hand read with this share of its box in a landing's part is that landing (_landing_read)
# A hand whose landmarks' places changed at no more than this many of its 21 points lay still (_kept_still).
MOVED_POINTS = 3
KEPT_COLOUR = 3 * PIXEL_DELTA  # clean video: a colour channel changed this much at a landmark (_kept_still)
LAY_BESIDE_SHARE = 0.5  # a read hand's box must keep this share outside a landing's part to tell it lay there
# A neighbour's reach, told by its home zone (ZoneWatcher.reach_owner): a movement of a table zone that bares
# at least AWAY_AREA hand lengths squared of what lay inside it (a resting hand left), and a later one, within
# AWAY_MAX_MS, after which AWAY_BACK_SHARE of that part shows again what it showed (the hand came back). A
# landing in the next zone begins at most REACH_LEAD_MS after the hand left, and the hand comes back at most
# REACH_BACK_MS after that landing's lift (tuning: clean LL 4318, noisy LL 4314 and MM 4418: 440-480 ms and
# 200 ms; the areas 0.13-0.16, their returns restoring 1.00).
AWAY_AREA, AWAY_BACK_SHARE, AWAY_MAX_MS = 0.1, 0.6, 8000
REACH_LEAD_MS, REACH_BACK_MS, REACH_EARLY_MS = 1500, 1500, 300
# An unreadable landing against a rest hand read at the zone's edge before it must be this many hand lengths
# thick (its widest disc) for that hand not to veto it (ZoneWatcher._not_what_came): a fist 0.6, a rest hand
# slid 4 px in 0.2
LANDING_THICK = 0.4
LAY_BESIDE_THICK_SHARE = 0.35  # ...and a hand at the edge beside it this share of its box left to tell
# Noisy video: a raise zone that settled with no hand that moved found is looked at on this many of the still
# frames after (see ZoneWatcher._hold_look): a held gun the settle's looks missed is read on a later frame.
HOLD_LOOK_FRAMES = 8
# A row of the raise zone with at least this many changed pixels is part of what a raise changed (the top of
# a held hand, ZoneWatcher._hold_end_look); single pixels are left to the noise.
HELD_ROW_PX = 3
# Noisy video: a raise zone that has kept moving for MOVING_LOOK_AFTER_MS with no hand found moving in it by
# the plain look gets a thorough look through the denoise filter on every other moving frame, at most
# MOVING_LOOKS times a movement (ZoneWatcher._moving_look). Measured on noisy 1816, seat 2: a gun held in
# front of the seat's grey sleeve while the zone never settled (79.56-80.20 s), read by no plain look,
# through the filter "point"/"gun" 0.74-0.97 on 7 of 14 moving frames. 200 ms is longer than the noise's
# flickers that start a movement (tablesim's raises take about 300 ms to rise).
MOVING_LOOK_AFTER_MS, MOVING_LOOKS = 200, 6
# A relaxed hand found by the look for a missed arrival within this share of its box's side of a hand of the
# same shape read there before the movement is that hand found again (ZoneWatcher._found_again). Clean 1915,
# zone 2: the palm found again 1.6 px from where it was read before, its box 41 px across (0.04). Set from
# that one case; how near a vote landing beside a resting hand of the same shape can lie was not measured.
FOUND_AGAIN_SHIFT = 0.15
# A voting shape read wholly inside the zone by the look for a missed arrival, close to a relaxed hand resting
# at the zone's edge but sharing at most this share of its box with that hand's, landed beside it
# (ZoneWatcher._landed_beside). Noisy 2179, zone 6: the fist's box shared 0.21 of itself with the rest hand's.
BESIDE_SHARED = 0.35
# A vote come against the rest hand (_made_there): its box at least MADE_CHANGED changed, and at least
# MADE_CLOTH_SHARE of it cloth before the movement (noisy NN 4505: 0.41 and 0.66).
MADE_CHANGED, MADE_CLOTH_SHARE = 0.35, 0.4


@dataclass(frozen=True)
class Observation:
    """What a watcher reports: an event kind at a frame time, with its evidence."""

    kind: str  # hand_down, hand_up, shot_raise, unknown_object
    seat: int  # the owner of the hand (may differ from the zone's seat)
    zone_seat: int
    t: int
    conf: float
    gesture: str = "other"
    box: tuple[float, float, float, float] | None = None
    partial: bool = False  # a raise whose hand left this zone before it stopped (seen only in part)


Box = tuple[float, float, float, float]


@dataclass
class _Away:
    """A part of a table zone that a movement bared (a resting hand left it): when that movement began, the
    part (the zone rectangle's mask), the zone's picture before it (H×W×3 RGB), and when the movement began
    after which the part showed that picture again (the hand came back), if one did. The part and the
    picture are let go once it came back or AWAY_MAX_MS passed."""

    left: int
    part: npt.NDArray[np.bool_] | None
    before: npt.NDArray[np.uint8] | None
    back: int | None = None

    def away_at(self, t: int) -> bool:
        """The hand had left by ``t`` (at most AWAY_MAX_MS before) and had not begun to come back."""
        return self.left <= t <= self.left + AWAY_MAX_MS and (self.back is None or self.back >= t)


@dataclass
class _ZoneState:
    resting: list[HandSeen] = field(default_factory=list)  # hands resting in the zone
    active_since: int | None = None  # t of the first changed frame of the current activity
    last_change: int | None = None  # t of the last changed frame
    quiet: int = 0
    trail: list[tuple[int, HandSeen]] = field(default_factory=list)  # raise zones: hands per active frame
    raised: HandSeen | None = None  # raise zones: a hand holding at the top after its peak was reported
    # unreadable landings: where, the cloth's colour there, whose arm brought it, and on noisy video the part
    # of the zone it covers (the zone rectangle's mask)
    unseen: list[tuple[Box, npt.NDArray[np.float32], int, npt.NDArray[np.bool_] | None]] = field(
        default_factory=list
    )
    placed: list[HandSeen] = field(default_factory=list)  # resting hands that are votes (or voting shapes)
    last_up: dict[int, int] = field(default_factory=dict)  # when each owner's hand last left the zone
    static: list[HandSeen] = field(default_factory=list)  # raise zones: hands there when the stretch began
    # table zones: hands read lying at the zone's edge (inside < TABLE_INSIDE) on the last still look (the
    # stretch's first frame, the last settle): see _at_edge
    edge: list[HandSeen] = field(default_factory=list)
    recheck: int = 0  # frames left to look again for an arrival the landmarker missed at the settle
    recheck_t: int = 0  # when the picture became still
    # noisy video: a look for a missed arrival that a new movement interrupted (when the picture became still,
    # and the picture before the movement), resumed if that movement was only a flicker
    pending: tuple[int, npt.NDArray[np.uint8], list[HandSeen]] | None = None
    # the hands resting before the movement that the look for a missed arrival follows
    look_before: list[HandSeen] = field(default_factory=list)
    # ...and the hands read at the zone's edge before it (``edge`` then)
    look_edge: list[HandSeen] = field(default_factory=list)
    # raise zones, noisy video: frames left to look for a held hand the settle missed, when the zone became
    # still, and the last hand seen moving before it
    hold: int = 0
    hold_t: int = 0
    hold_last: HandSeen | None = None
    # raise zones, noisy video: the hand read on the first frame of the movement that cut the hold look short
    # (ZoneWatcher._hold_end_look), kept until that movement settles: the hand coming down, or rising on
    held_end: Observation | None = None
    # raise zones, noisy video: looks made through the denoise filter in the current movement, and the last
    # aiming hand one read (ZoneWatcher._moving_look)
    moving_looks: int = 0
    moving_aim: tuple[int, HandSeen] | None = None


class ZoneWatcher:
    """One zone of one seat (``table_zone`` or ``raise_zone``)."""

    def __init__(self, finder: HandFinder, seat: int, zone: str, frame_shape: tuple[int, ...]) -> None:
        self.finder = finder
        self.seat = seat
        self.zone = zone
        poly = finder.polygon(seat, zone)
        h, w = frame_shape[:2]
        x0 = int(max(0, np.floor(poly[:, 0].min())))
        y0 = int(max(0, np.floor(poly[:, 1].min())))
        x1 = int(min(w, np.ceil(poly[:, 0].max()) + 1))
        y1 = int(min(h, np.ceil(poly[:, 1].max()) + 1))
        self.rect = (x0, y0, x1, y1)
        self.mask = _zone_mask(poly, self.rect)
        area = int(self.mask.sum())
        self.active_px = max(ACTIVE_MIN_PX, int(ACTIVE_SHARE * area))
        self._prev: npt.NDArray[np.uint8] | None = None
        self._still: npt.NDArray[np.uint8] | None = None  # the picture before the current activity
        self._start: npt.NDArray[np.uint8] | None = None  # the zone's grey picture when the stretch began
        self._first: npt.NDArray[np.uint8] | None = None  # the stretch's first frame (see vision.armpath)
        self._last_frame: npt.NDArray[np.uint8] | None = None
        self._moved_last: npt.NDArray[np.uint8] | None = None  # raise zones: the last frame that changed
        # grey zone pictures of the current activity (and the one before it), for per-hand timing
        self._hist: deque[tuple[int, npt.NDArray[np.uint8]]] = deque(maxlen=HISTORY_FRAMES)
        self.state = _ZoneState()
        self._n = 0  # frames fed
        # every ARM_STEP-th frame of the last seconds, to see an arm's whole path (see _attribute)
        self._past: deque[tuple[int, npt.NDArray[np.uint8]]] = deque(maxlen=ARM_PAST)
        self._arm_before: npt.NDArray[np.uint8] | None = None
        self._trail_no: dict[int, int] = {}  # raise zones: the frame number of each trail entry, by t
        self.noise: NoiseLevel | None = None  # the video's noise, measured by TableWatch on its first frame
        self._edge_seen: list[HandSeen] = []  # table zones: the hands at the zone's edge of the last look
        self._start_edge: list[HandSeen] = []  # table zones: the hands at its edge when the stretch began
        # table zones: the other table zones of the same watch, by seat (TableWatch), what each movement bared
        # and whether it came back (_note_aways), and every landing reported here, (t, owner)
        self.table: dict[int, ZoneWatcher] = {}
        self.aways: list[_Away] = []
        self.downs: list[tuple[int, int]] = []

    def _grey(self, frame: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
        x0, y0, x1, y1 = self.rect
        g = cv2.cvtColor(np.ascontiguousarray(frame[y0:y1, x0:x1]), cv2.COLOR_RGB2GRAY)
        out: npt.NDArray[np.uint8] = cv2.GaussianBlur(g, (3, 3), 0)
        return out

    def changed_pixels(self, grey: npt.NDArray[np.uint8]) -> int:
        if self._prev is None:
            return 0
        diff = cv2.absdiff(grey, self._prev)
        return int(np.count_nonzero((diff > PIXEL_DELTA) & self.mask))

    def feed(self, frame: npt.NDArray[np.uint8], t: int) -> list[Observation]:
        out = self._feed(frame, t)
        self.downs.extend((o.t, o.seat) for o in out if o.kind == "hand_down")
        return out

    def _feed(self, frame: npt.NDArray[np.uint8], t: int) -> list[Observation]:
        self._n += 1
        grey = self._grey(frame)
        changed = self.changed_pixels(grey)
        first = self._prev is None
        prev_grey, self._prev = self._prev, grey
        last, self._last_frame = self._last_frame, frame
        if self._n % ARM_STEP == 1:
            self._past.append((t, frame))
        st = self.state
        out: list[Observation] = []
        if first:
            self._start = grey
            self._first = frame
            # What is already in the zone when the stretch starts is not a new arrival. Of those hands, only
            # a voting shape is followed for a lift: a relaxed hand moving off the table is no lift of a vote.
            hands = self._hands(frame)
            if self.zone == "table_zone":
                st.resting = hands
                st.edge = self._start_edge = self._edge_seen
                st.placed = [
                    h for h in hands if h.gesture in VOTING_SHAPES and start_shapes_trusted(self.noise)
                ]
            else:
                st.static = hands
        if changed >= self.active_px:
            if st.active_since is None and last is not None and self._look_cut():
                out.extend(self._unseen_arrival(last))
                if out:
                    st.recheck = 0  # the look ended: what came was found
            if st.active_since is None:
                st.pending = (
                    (st.recheck_t, self._still, st.look_before)
                    if st.recheck and self._still is not None
                    else None
                )
            hold_left, st.recheck, st.hold = st.hold, 0, 0
            if st.active_since is None:
                if hold_left and self.zone == "raise_zone" and last is not None:
                    out.extend(self._hold_end_look(frame, grey, last))  # before _still is this movement's
                st.active_since = t
                st.moving_looks, st.moving_aim = 0, None
                self._still = last
                early = [f for ft, f in self._past if ft <= t - ARM_BEFORE_MS]
                self._arm_before = early[-1] if early else (self._past[0][1] if self._past else last)
                self._hist.clear()
                if prev_grey is not None:
                    self._hist.append((-1, prev_grey))
            st.last_change = t
            self._trail_no[t] = self._n
            st.quiet = 0
            self._hist.append((t, grey))
            if self.zone == "raise_zone":
                self._moved_last = frame
                moving = [h for h in self._hands(frame) if all(_moved(s, h) for s in st.static)]
                # Every moving hand, not only the highest: two hands in one zone (a neighbour's rising
                # through it while this seat's gun holds) are followed apart (see _tracks).
                st.trail.extend((t, h) for h in moving)
                if self._noisy():
                    out.extend(self._moving_look(frame, grey, t))
            return out
        if st.active_since is not None:
            self._hist.append((t, grey))
        if st.active_since is None:
            if st.recheck and self.zone == "table_zone":
                out.extend(self._recheck(frame))
            if st.hold and self.zone == "raise_zone":
                out.extend(self._hold_look(frame))
            return out
        st.quiet += 1
        if st.quiet < (
            settle_frames(self.noise, SETTLE_FRAMES) if self.zone == "table_zone" else SETTLE_FRAMES
        ):
            return out
        out.extend(self._settle(frame, t))
        return out

    def _look_cut(self) -> bool:
        """Noisy video: a new movement starts while the look for a missed arrival is on, after at least
        :data:`CUT_LOOK_FRAMES` of its frames: the look ends as it would have ended, on the last still
        picture (:meth:`_unseen_arrival`). The movement is often the same hand leaving again: a vote put down
        and lifted within a second (the lift before the count is a foul of its own) left no settle after the
        look, and the vote was lost (noisy PP 4711, zone 6: the fist lay from 38.82 s to 39.60 s, the
        landmarker read nothing on the settle's frame and on five thorough looks, and the lift came two
        frames before the look would have ended; MM 4418, zone 5, the same at 47.33-47.87 s)."""
        st = self.state
        return (
            self.zone == "table_zone"
            and self._noisy()
            and st.recheck > 0
            and RECHECK_FRAMES - st.recheck >= CUT_LOOK_FRAMES
        )

    def _recheck(self, frame: npt.NDArray[np.uint8]) -> list[Observation]:
        """A movement settled but the landmarker saw no arrival: a small fist is found on some frames of the
        same still picture and not on others (sensor noise), so look again for a few frames, thoroughly. An
        arrival found then is timed to when the picture became still."""
        st = self.state
        st.recheck -= 1
        if st.recheck % 2:
            return []
        now = self._hands(frame, thorough=True)
        grey = self._grey(frame)
        now = [h for h in now if not self._reach_read_again(h, st.resting, grey)]
        arrivals = [
            h
            for h in now
            if all(_moved(b, h) for b in st.resting)
            or self._landed_beside(h, frame)
            or self._made_there(h, frame, grey)
        ]
        lying = [
            h for h in arrivals if self._lay_there(h, frame) or self._on_unseen(h.box) or self._found_again(h)
        ]
        if lying:  # a hand that lay there all along, found now: resting, and the arrival is still to find
            st.resting = st.resting + lying
            arrivals = [h for h in arrivals if not any(h is x for x in lying)]
        if not arrivals:
            return self._unseen_arrival(frame) if st.recheck <= 0 else []
        st.recheck = 0
        if self._still is not None:
            arrivals = [self._attribute(h, frame) for h in arrivals]
        st.resting = st.resting + arrivals
        # As at a settle: a relaxed hand found coming back to rest right after its owner's lift ends it. (The
        # settle also drops a hand of any shape going back to its rest at the zone's edge, _back_to_rest;
        # this look does not, so far: applying it here too could change what a game reports (not measured).)
        reported = [
            h
            for h in arrivals
            if not (
                h.gesture not in VOTING_SHAPES
                and (self._returning(h.owner, st.recheck_t) or self._back_to_start(h.box, frame))
            )
        ]
        st.placed.extend(reported)
        return [self._down(h, st.recheck_t) for h in reported]

    def _landed_beside(self, hand: HandSeen, frame: npt.NDArray[np.uint8]) -> bool:
        """``hand``, found by the look for a missed arrival, matches a resting hand (_moved) only because
        their centres lie close: it is a voting shape wholly inside the zone (EDGE_INSIDE), every resting hand
        it matches is a relaxed one lying at the zone's edge (under EDGE_INSIDE inside) whose box shares at
        most BESIDE_SHARED of ``hand``'s, and ``hand``'s place showed the cloth before the movement
        (_was_cloth). A vote put down against the player's own rest hand, not that hand read again (noisy
        2179, zone 6 at 38.80 s: the rest hand read "other" 0.62, 0.81 inside, box 23 x 31 px; every look
        after the settle read the vote as a "fist" 0.84-0.89 wholly inside, 26 x 9 px, its centre 11.9 px
        from the rest hand's, under half that hand's box, so it was taken for that hand and seat 6's vote was
        never reported)."""
        if hand.gesture not in VOTING_SHAPES or hand.inside < EDGE_INSIDE or self._still is None:
            return False
        same = [b for b in self.state.resting if not _moved(b, hand)]
        if not same or not all(
            b.gesture not in VOTING_SHAPES
            and b.inside < EDGE_INSIDE
            and _shared(b.box, hand.box) <= BESIDE_SHARED * _area(hand.box)
            for b in same
        ):
            return False
        before, _, cloth = self._zone_pictures(frame)
        return self._was_cloth(hand.box, before, cloth)

    def _made_there(self, hand: HandSeen, frame: npt.NDArray[np.uint8], grey: npt.NDArray[np.uint8]) -> bool:
        """``hand``, found by the look for a missed arrival, matches a resting hand (_moved) only because a
        vote came against the player's rest hand and the settle read the two as one: ``hand`` is a voting
        shape wholly inside the zone (EDGE_INSIDE) on a place of which at least MADE_CHANGED changed in the
        movement, and every resting hand it matches is the zone player's, relaxed and no vote (the rest hand,
        or what came read with it as one relaxed hand). Noisy NN 4505, zone 4 at
        59.64 s: seat 4's thumb-up came down against the lower edge of its resting palm, 18 px from the
        palm's centre, the palm's place 0.06 changed; the settle read an "other" 0.58 13 px from the palm
        and took it for the palm; every look after read "thumb_up" 0.66-0.69 wholly inside, on a place 0.41
        changed, and the vote was lost (4 rounds). On the same look the "other" readings' places had
        changed 0.29; 0.66 of the thumb-up's box had shown the cloth. (_landed_beside is this for a rest hand
        at the zone's edge, on what was all but cloth.)"""
        if hand.gesture not in VOTING_SHAPES or hand.inside < EDGE_INSIDE or self._still is None:
            return False
        share = self._changed_share(hand.box, grey)
        if share is None or share < MADE_CHANGED:
            return False
        before, _, cloth = self._zone_pictures(frame)
        if self._cloth_share(hand.box, before, cloth) < MADE_CLOTH_SHARE:
            return False  # a rest hand shifting or curling in place: nothing came onto the cloth
        same = [b for b in self.state.resting if not _moved(b, hand)]
        return bool(same) and all(
            b.owner == self.seat and b.gesture not in VOTING_SHAPES and not _placed(b, self.state.placed)
            for b in same
        )

    def _reach_read_again(self, hand: HandSeen, resting: list[HandSeen], grey: npt.NDArray[np.uint8]) -> bool:
        """``hand``, read now, lies where a hand the arm's path gave to a neighbour rests (``resting``), and
        its place shows what it showed before the movement: that neighbour's reach read again (the finder
        reads every hand in a table zone as the zone player's), not a landing. The reach keeps its owner as it
        lies there, so its lift is the neighbour's; a hand landing where it lies changes the place, and is
        one."""
        return any(b.owner != self.seat and not _apart(b, hand) for b in resting) and self._unchanged(
            hand.box, grey
        )

    def _found_again(self, hand: HandSeen) -> bool:
        """``hand``, a relaxed hand found by the look for a missed arrival, lies where a hand lay before the
        movement (read then, passed over at the settle): that hand, found again, not a landing. Clean 1915,
        zone 2 at 58.40 s: seat 3's arm reached over seat 2's resting palm, the settle's look passed over the
        palm and its place had changed (the sleeve lay across it), so it counted as gone; found again at the
        same place 80 ms later, it became seat 2's "palm" landing, a vote for the candidate then called, and
        seat 2's true vote 10 s later could not count. As for _lay_there on clean video, a voting shape
        found there is still a landing; and only the same shape at the same place (FOUND_AGAIN_SHIFT): a vote
        landing beside where the player's rest hand lay, read as a relaxed hand, is still a landing."""
        if hand.gesture in VOTING_SHAPES:
            return False
        side = max(hand.box[2] - hand.box[0], hand.box[3] - hand.box[1], 1.0)
        # ``b.owner`` may have been given to a neighbour whose arm brought it (_attribute), while the
        # finder's ``hand.owner`` is always the zone's seat: a neighbour's hand resting in the zone is never
        # found again here, only the zone player's own.
        return any(
            b.gesture == hand.gesture
            and b.owner == hand.owner
            and _distance(b, hand) <= FOUND_AGAIN_SHIFT * side
            for b in self.state.look_before
        )

    def _unseen_arrival(self, frame: npt.NDArray[np.uint8]) -> list[Observation]:
        """The landmarker never found a hand, yet something hand-sized that is not the table came to rest in
        the zone (a fist seen from behind, a palm, an elbow). Report it as a landing of unknown shape with a
        low confidence: the referee counts it and lists it for the judge ("needs review"), rather than
        silently dropping a vote the camera saw."""
        st = self.state
        if self._still is None:
            return []
        if self._returning(self.seat, st.recheck_t):
            return []  # the hand coming back to rest after its lift (a vote is a fist the landmarker reads)
        # Noisy video: by colour first; the grey rule still finds what it found before (a near-side thumb seen
        # from above covers less than the colour rule's minimum; noisy game 501, seat 10).
        found = (self._covered(frame) if self._noisy() else None) or self._grey_blob(frame)
        if found is None:
            return self._looked_at(frame)
        box, cloth, part = found
        if self._as_at_start(box, frame) or self._on_unseen(box):
            return []
        # A hand the landmarker does read there, only mostly outside the zone (one coming back to rest at
        # the zone's edge), is no unreadable landing; on noisy video unless it is not what came (a hand
        # lying there beside the landing: _not_what_came).
        seen = self.finder.find(frame, self.seat, self.zone)
        read = self._landing_read(seen, part, frame)
        if read:
            return read
        for h in seen:
            if _shared(h.box, box) > 0 and not (self._noisy() and self._not_what_came(h, part, frame)):
                return []
        if self._both_hands_stay(box, part, seen, frame):
            return []
        # Whose arm brought it: a neighbour reaching into the zone is the neighbour's (see _attribute).
        centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        none = np.zeros((21, 3), np.float32)
        blob_hand = HandSeen(self.seat, "other", UNSEEN_CONF, UNSEEN_CONF, box, centre, box[1], 1.0, none)
        # An arm whose path names no neighbour leaves the landing the zone player's, at low confidence for
        # the judge. Analyser 0.41 gave it to a neighbour whose hand had left its own zone meanwhile: right
        # on noisy 1903 and 1915 (set I, tuning), but blind on set J (noisy 2013, zone 8 at 46.00 s) it took
        # seat 8's true vote away for seat 7, whose hand had left zone 7 to vote there itself, with the same
        # figures as the reaches it was made for (0.15 hand lengths squared left, 0.01 covered, the landing
        # 0.13 hand lengths further from seat 7's body than from seat 8's).
        owner = self._attribute(blob_hand, frame).owner
        if owner != self.seat and self._returning(owner, st.recheck_t):
            return []  # a neighbour's hand coming back after its reach left
        self.state.unseen.append((box, cloth, owner, part))
        t = self.state.recheck_t
        return [Observation("hand_down", owner, self.seat, t, UNSEEN_CONF, "other", box)]

    def _landing_read(
        self, seen: list[HandSeen], part: npt.NDArray[np.bool_] | None, frame: npt.NDArray[np.uint8]
    ) -> list[Observation]:
        """Noisy video: of ``seen`` (the zone's hands now), one wholly inside the zone (EDGE_INSIDE) whose box
        lies within the part something came to cover (CAME_SHARE of it, with a rim) on what was cloth is the
        unreadable landing, read after all: reported as a landing of the shape read, as the look at what
        came reports one (:meth:`_looked_at`), and followed as a hand from then on. Before 0.54 such a hand
        vetoed the landing as a hand read there (noisy V 2711, zone 5: seat 5's re-vote landed against its
        other hand at the zone's far edge; the settle read the two as one "palm" and took it for the rest
        hand; the recheck read the landing "other" wholly inside, its box all within the part, and that
        reading stopped the landing: the vote and four rounds were lost)."""
        if part is None or not self._noisy():
            return []
        st = self.state
        before, _, cloth = self._zone_pictures(frame)
        rim = _with_rim(part)
        for h in seen:
            bx0, by0, bx1, by1 = self._box_px(h.box)
            if h.inside < EDGE_INSIDE or bx1 - bx0 < 2 or by1 - by0 < 2:
                continue
            within = np.count_nonzero(rim[by0:by1, bx0:bx1]) / ((bx1 - bx0) * (by1 - by0))
            if within < CAME_SHARE or not self._was_cloth(h.box, before, cloth) or self._lay_there(h, frame):
                continue
            hand = self._attribute(h, frame)
            if hand.owner != self.seat and self._returning(hand.owner, st.recheck_t):
                return []
            return self._landed(hand)
        return []

    def _landed(self, hand: HandSeen) -> list[Observation]:
        """A landing found by a look after the settle (the look at what came, a reading of an unreadable
        landing): followed as a hand placed in the zone from now on, timed when the picture became still."""
        st = self.state
        st.resting = [*st.resting, hand]
        st.placed.append(hand)
        return [self._down(hand, st.recheck_t)]

    def _both_hands_stay(
        self, box: Box, part: npt.NDArray[np.bool_] | None, seen: list[HandSeen], frame: npt.NDArray[np.uint8]
    ) -> bool:
        """Two of the zone player's hands, read now (``seen``, at the zone's edge too) or resting since the
        settle, at least a hand length apart, lie where they lay before the movement, apart from what came
        (``part``, or ``box`` for the grey rule's landing): the player has no third hand, so the unreadable
        landing is a neighbour's reach (noisy 2151, zone 10 at 66.32 s: seat 9's pointing hand held at the
        zone's top edge, its dark sleeve across the zone; the arm's changed pixels named no one, and seat 10's
        palm in the zone and thumb at its bottom edge lay still throughout; 0.45 reported the sleeve as seat
        10's vote, and seat 10's true vote 4 s later was lost)."""
        if self._still is None:
            return False
        if part is None:
            bx0, by0, bx1, by1 = self._box_px(box)
            part = np.zeros_like(self.mask)
            part[by0:by1, bx0:bx1] = True
        beside = _with_rim(part)
        grey = self._grey(frame)
        own = [h for h in [*seen, *self.state.resting] if h.owner == self.seat]
        stays = [h for h in own if self._lay_beside(h.box, grey, beside)]
        return _two_apart(stays, self.finder.hand_size(self.seat))

    def _third_hand(
        self,
        hand: HandSeen,
        named: HandSeen,
        now: list[HandSeen],
        edge: list[HandSeen],
        frame: npt.NDArray[np.uint8],
    ) -> HandSeen:
        """``named`` (``hand`` just after ``_attribute``: the finder's arm angles are its) kept for the zone
        player's own, while two other hands read at this settle or before it (in the zone or at its edge), at
        least a hand length apart and each nearer the player's body than any neighbour's, lay still where they
        lay before the movement (``_kept_still``): the player has no third hand, so it is a neighbour's reach,
        the neighbour the arm's path runs nearest to (or, when it named none, whose body lies nearest). Clean
        GG 3812, zone 1 at 37.64 s: seat 2's bent arm brought a pointing hand read as a thumb-up 0.84; its
        forearm ran 1° from seat 1's body, both players in white; seat 1's palm at the table's edge (seat 2's
        elbow passing under it) and its thumb at the zone's bottom edge lay still throughout; the reach was
        taken for seat 1's vote for the wrong candidate."""
        if named.owner != self.seat or self._still is None:
            return named
        still = [h for h in (*now, *edge, *self.state.edge, *self.state.resting) if h is not hand]
        still = [h for h in still if self._kept_still(h, frame)]
        if len(still) < 2:
            return named
        near = self.finder.neighbours(self.seat)
        if not near:
            return named

        def gap(h: HandSeen, seat: int) -> float:
            return float(np.hypot(*(np.asarray(h.centre, dtype=np.float64) - self.finder.body(seat))))

        others = [h for h in still if all(gap(h, self.seat) < gap(h, s) for s in near)]
        if not _two_apart(others, self.finder.hand_size(self.seat)):
            return named
        angles = self.finder.last_arm_angles
        seat = min(near, key=lambda s: (angles.get(s, 360.0), gap(hand, s)))
        return dataclasses.replace(named, owner=seat)

    def _kept_still(
        self, hand: HandSeen, frame: npt.NDArray[np.uint8], before: npt.NDArray[np.uint8] | None = None
    ) -> bool:
        """The places of the read hand's landmarks show what they showed before the movement (or in the
        frame ``before``), all but MOVED_POINTS of them: the hand did not move, though an arm passing beside
        or under it changed its box. False for a hand without landmarks."""
        if before is None:
            before = self._still
        assert before is not None
        pts = hand.points[:, :2]
        if not np.any(pts):
            return False
        h, w = frame.shape[:2]
        x0 = int(max(0, np.floor(pts[:, 0].min()) - 3))
        y0 = int(max(0, np.floor(pts[:, 1].min()) - 3))
        x1 = int(min(w, np.ceil(pts[:, 0].max()) + 4))
        y1 = int(min(h, np.ceil(pts[:, 1].max()) + 4))
        if x1 - x0 < 3 or y1 - y0 < 3:
            return False

        def grey(img: npt.NDArray[np.uint8]) -> npt.NDArray[np.int16]:
            g = cv2.cvtColor(np.ascontiguousarray(img[y0:y1, x0:x1]), cv2.COLOR_RGB2GRAY)
            out: npt.NDArray[np.int16] = cv2.GaussianBlur(g, (3, 3), 0).astype(np.int16)
            return out

        d = np.abs(grey(frame) - grey(before))
        xs = np.clip(np.round(pts[:, 0]).astype(np.int64) - x0, 0, x1 - x0 - 1)
        ys = np.clip(np.round(pts[:, 1]).astype(np.int64) - y0, 0, y1 - y0 - 1)
        moved = d[ys, xs] > PIXEL_DELTA
        if not self._noisy():
            # Clean video: dark skin on the green cloth has nearly the cloth's grey level; in colour it
            # differs (clean PP 4718, zone 5 at 38.40 s: seat 5's fist, read "other" 0.52 beside where its
            # rest hand had lain, changed 3 of its 21 points in grey, 8 by more than KEPT_COLOUR in a channel,
            # and was taken for a hand lying there since the stretch began: the vote and six rounds lost).
            def colour(img: npt.NDArray[np.uint8]) -> npt.NDArray[np.int16]:
                c = np.ascontiguousarray(img[y0:y1, x0:x1])
                out: npt.NDArray[np.int16] = cv2.GaussianBlur(c, (3, 3), 0).astype(np.int16)
                return out

            dc = np.abs(colour(frame) - colour(before)).max(axis=2)
            moved |= dc[ys, xs] > KEPT_COLOUR
        return int(np.count_nonzero(moved)) <= MOVED_POINTS

    def _looked_at(self, frame: npt.NDArray[np.uint8]) -> list[Observation]:
        """The look for a missed arrival found no hand, and no unreadable landing either: one look through
        a crop LOOK_SIDE hand lengths across, centred on the part something came to cover, plainly and then
        through the denoise filter (noisy 1006, seat 10: a thumb-up seen from behind, its sleeve the cloth's
        green, covered 0.153 hand lengths squared; no look at the zone read it, the crop two hands across
        read "thumb_up" 0.91). A voting shape read on the part, on what was cloth before, is the arrival.
        Clean video too since 0.44 (clean 2139, zone 4 at 59.36 s: seat 4's thumb-up landed against its
        other hand, which lay relaxed at the zone's edge; every look at the zone read only that hand, and
        the grey level changed on 105 px, under half an unreadable landing's minimum of 231: the skin's grey
        is near the cloth's; the crop read "thumb_up" 0.60)."""
        st = self.state
        x0, y0 = self.rect[:2]
        before, now, cloth = self._zone_pictures(frame)
        part = covered(before, now, self.mask, cloth, UNSEEN_CLOTH_DIST)
        size = self.finder.hand_size(self.seat)
        if part is None or part.area < LOOK_MIN_AREA * size * size:
            return []
        px0, py0, px1, py1 = (float(v) for v in part.box)
        spot = (x0 + px0, y0 + py0, x0 + px1, y0 + py1)
        centre = ((spot[0] + spot[2]) / 2, (spot[1] + spot[3]) / 2)
        grey = self._grey(frame)
        landed: list[HandSeen] = []  # hands of any shape that came to lie on what was cloth
        found: list[HandSeen] = []
        for denoise in (False, True):
            image = self._denoised_frame(frame) if denoise else frame
            landed += [
                h
                for h in self.finder.look_at(image, self.seat, self.zone, centre, LOOK_SIDE * size)
                if h.inside >= TABLE_INSIDE
                and _shared(h.box, spot) > 0
                and all(_moved(b, h) for b in st.resting)
                and self._was_cloth(h.box, before, cloth)
                and not self._unchanged(h.box, grey)
                and not self._lay_there(h, frame)
                and not self._on_unseen(h.box)
                and not self._back_to_start(h.box, frame)
            ]
            found = [h for h in landed if h.gesture in VOTING_SHAPES]
            if found:
                break
        if not found:
            # No voting shape, but a hand wholly inside the zone on what was cloth, where something
            # hand-sized (an unreadable landing's minimum) came to cover it: a landing of another shape,
            # reported as such for the judge, rather than a vote the camera saw silently dropped (clean 2801
            # and 2819, zone 5: seat 5's thumb-up landed against its other hand, standing at the zone's far
            # edge; the grey level changed on 157 px, under the grey rule's 185, the colour on 634; both
            # looks read the landing "other" 0.44-0.77 wholly inside, and only that).
            found = (
                [h for h in landed if h.inside >= EDGE_INSIDE]
                if part.area >= UNSEEN_MIN_AREA * size * size
                else []
            )
            if not found:
                return []
        return self._landed(self._attribute(found[0], frame))

    def _box_px(self, box: Box) -> tuple[int, int, int, int]:
        """``box`` (frame pixels) as x0, y0, x1, y1 in the zone rectangle's pixels, clipped to it (x1, y1
        exclusive)."""
        x0, y0, _, _ = self.rect
        h, w = self.mask.shape
        return (
            int(max(0, box[0] - x0)),
            int(max(0, box[1] - y0)),
            int(min(w, box[2] - x0 + 1)),
            int(min(h, box[3] - y0 + 1)),
        )

    def _was_cloth(self, box: Box, before: npt.NDArray[np.uint8], cloth: npt.NDArray[np.float32]) -> bool:
        """At least LOOK_CLOTH_SHARE of the zone inside ``box`` showed the cloth in ``before`` (the zone's
        rectangle before the movement): a hand came to lie there, rather than one lying there shifted."""
        return self._cloth_share(box, before, cloth) >= LOOK_CLOTH_SHARE

    def _cloth_share(self, box: Box, before: npt.NDArray[np.uint8], cloth: npt.NDArray[np.float32]) -> float:
        """The share of the zone inside ``box`` (frame pixels) that shows the cloth in ``before`` (the zone's
        rectangle); 0 when the box holds none of the zone."""
        bx0, by0, bx1, by1 = self._box_px(box)
        inside = self.mask[by0:by1, bx0:bx1]
        if bx1 - bx0 < 2 or by1 - by0 < 2 or not inside.any():
            return 0.0
        b = cv2.blur(np.ascontiguousarray(before), (3, 3)).astype(np.float32)[by0:by1, bx0:bx1][inside]
        near = np.linalg.norm(b - np.asarray(cloth, np.float32).reshape(1, 3), axis=1) <= UNSEEN_CLOTH_DIST
        return float(np.mean(near))

    def _not_what_came(
        self, hand: HandSeen, part: npt.NDArray[np.bool_] | None, frame: npt.NDArray[np.uint8]
    ) -> bool:
        """Noisy video: ``hand``, read overlapping an unreadable landing (``part``: the colour rule's part,
        None for the grey rule's), is not what came: its place looks as it did before the movement (a rest
        hand at the zone's edge beside the landing); or it is a hand that rested in the zone before the
        movement and still lies there: its place, apart from the landing's part, looks as it did (a far-side
        vote landing right beside the player's other hand, read as that hand or as the fist: noisy 702 and
        705, seat 5), unless both of the player's hands still lie there. A resting hand that shifted
        uncovers some of its place, and still vetoes."""
        grey = self._grey(frame)
        if self._unchanged(hand.box, grey):
            return True
        if part is None:
            return False
        beside = _with_rim(part)
        stays = [b for b in self.state.look_before if self._unchanged(b.box, grey, leave_out=beside)]
        if sum(b.owner == self.seat for b in stays) >= 2:
            # Both of the player's hands still lie where they lay: what came is a neighbour's reach, and the
            # veto stands (noisy 507: seat 1's reach beside seat 2's resting fist, its palm lying above).
            return False
        if any(not _moved(b, hand) for b in stays):
            return True
        # A hand at the zone's edge (mostly outside it: never read resting, TABLE_INSIDE) that no hand read
        # before the movement matches lay there all the same if its place, apart from the landing's part,
        # looks as before and most of its place is left to tell (noisy 805, seat 6: a far-side thumb-up
        # landing against the fingertips of a hand hanging into the zone, read as an "other" 0.57 inside;
        # 3 of the 135 pixels of its box beside the part changed).
        if any(not _moved(b, hand) for b in self.state.look_before):
            return False
        if hand.inside < TABLE_INSIDE and self._lay_beside(hand.box, grey, beside):
            return True
        # So is a hand read at the edge before the movement whose landmarks now lie a little further inside
        # (_still_at_edge), if the place it was read at then, apart from the landing's part, looks as it did:
        # the landing against it pulls its landmarks in (noisy FF 3715, zone 5: seat 5's rest palm at the
        # zone's far edge, 0.62 inside at the stretch's start, 0.76 with the thumb-up landed against it; taken
        # for what came, it vetoed the landing and seat 5's re-vote was lost, four rounds). Its place then,
        # not its box now; and only for a landing a good part of a hand thick (LANDING_THICK): a rest hand
        # sliding in covers a strip beside itself and, the zone's edge cutting its trailing side off, leaves
        # its place looking as it did (the case's fist 23.5 px thick, 0.60 of the seat's hand length).
        if _thickness(part) < LANDING_THICK * self.finder.hand_size(self.seat):
            return False
        # Against a landing that thick, a hand at the edge lay there if less of its place is left to tell,
        # LAY_BESIDE_THICK_SHARE of its box (noisy GG 3805, zone 5 again: seat 5's rest hand at the far edge,
        # read "other" 0.67 inside only after the thumb-up landed against it, 22 px thick; 145 of its 361
        # pixels lay beside the landing, 4 of them changed; the veto lost seat 5's vote).
        if hand.inside < TABLE_INSIDE and self._lay_beside(hand.box, grey, beside, LAY_BESIDE_THICK_SHARE):
            return True
        return hand.inside < EDGE_INSIDE and any(
            not _moved(e, hand) and self._lay_beside(e.box, grey, beside) for e in self.state.look_edge
        )

    def _lay_beside(
        self,
        box: Box,
        grey: npt.NDArray[np.uint8],
        part: npt.NDArray[np.bool_],
        share: float = LAY_BESIDE_SHARE,
    ) -> bool:
        """``box`` apart from ``part`` (the zone rectangle's mask) keeps at least ``share`` of its pixels,
        and they show what they showed before the movement."""
        bx0, by0, bx1, by1 = self._box_px(box)
        if bx1 - bx0 < 2 or by1 - by0 < 2:
            return False
        left = int(np.count_nonzero(~part[by0:by1, bx0:bx1]))
        return left >= share * (bx1 - bx0) * (by1 - by0) and self._unchanged(box, grey, leave_out=part)

    def _noisy(self) -> bool:
        return self.noise is not None and self.noise.noisy

    def _on_unseen(self, box: Box) -> bool:
        """Noisy video: ``box`` overlaps an unreadable landing still in the zone, so what is found there is
        that hand (read now, or shifting), not a new landing."""
        return any(part is not None and _shared(b, box) > 0 for b, _, _, part in self.state.unseen)

    def _grey_blob(
        self, frame: npt.NDArray[np.uint8]
    ) -> tuple[Box, npt.NDArray[np.float32], npt.NDArray[np.bool_] | None] | None:
        """The largest part of the zone whose grey level changed since before the movement, if it is
        hand-sized and not cloth-coloured now: its box, and the cloth's colour."""
        assert self._still is not None
        before, after = self._grey(self._still), self._grey(frame)
        changed = ((cv2.absdiff(before, after) > 2 * PIXEL_DELTA) & self.mask).astype(np.uint8)
        changed = cv2.morphologyEx(changed, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        n, labels, stats, _ = cv2.connectedComponentsWithStats(changed, connectivity=8)
        if n <= 1:
            return None
        k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        area = int(stats[k, cv2.CC_STAT_AREA])
        hand = self.finder.hand_size(self.seat)
        if not UNSEEN_MIN_AREA * hand * hand <= area <= UNSEEN_MAX_AREA * hand * hand:
            return None
        blob = labels == k
        table = self.mask & ~blob
        if not table.any():
            return None
        x0, y0, x1, y1 = self.rect
        now_rgb = frame[y0:y1, x0:x1].astype(np.float32)
        cloth = np.median(self._still[y0:y1, x0:x1][table].astype(np.float32), axis=0)
        # An arrival covers the cloth with something else; a departure uncovers the cloth.
        if float(np.linalg.norm(now_rgb[blob].mean(axis=0) - cloth)) < UNSEEN_CLOTH_DIST:
            return None
        bx, by, bw, bh = (int(v) for v in stats[k, :4])
        return (float(x0 + bx), float(y0 + by), float(x0 + bx + bw), float(y0 + by + bh)), cloth, None

    def _covered(
        self, frame: npt.NDArray[np.uint8]
    ) -> tuple[Box, npt.NDArray[np.float32], npt.NDArray[np.bool_] | None] | None:
        """Noisy video: the largest part of the zone something not cloth-coloured came to cover since before
        the movement (:func:`vision.noise.covered`), if it is hand-sized: its box, the cloth's colour and the
        part itself (the zone rectangle's mask), to see it leave."""
        x0, y0 = self.rect[:2]
        before, now, cloth = self._zone_pictures(frame)
        part = covered(before, now, self.mask, cloth, UNSEEN_CLOTH_DIST)
        hand = self.finder.hand_size(self.seat)
        lo, hi = NOISY_UNSEEN_MIN_AREA * hand * hand, UNSEEN_MAX_AREA * hand * hand
        if part is None or part.area > hi:
            return None
        bx0, by0, bx1, by1 = part.box
        box = (float(x0 + bx0), float(y0 + by0), float(x0 + bx1), float(y0 + by1))
        if part.area < lo and not (
            part.area >= UNSEEN_MIN_AREA * hand * hand and self._alone(box, hand, before, cloth)
        ):
            return None
        return box, cloth, part.mask

    def _alone(
        self, box: Box, hand: float, before: npt.NDArray[np.uint8], cloth: npt.NDArray[np.float32]
    ) -> bool:
        """Noisy video: ``box`` (a part something came to cover), grown by ALONE_PAD hand lengths (``hand``),
        shares nothing with any hand lying in the zone or at its edge, read before the movement or since, or
        with an unreadable landing still there; and at least ALONE_CLOTH_SHARE of it showed the cloth before
        the movement (``before``: the zone's rectangle), so no hand the landmarker never read lay beside it.
        A resting hand that shifts covers a small part beside itself (0.11-0.14 hand lengths squared on the
        tuning games, below NOISY_UNSEEN_MIN_AREA); a part that small standing alone on the cloth is something
        that came (noisy Z 3107, zone 10: seat 10's far-side thumb-up, 0.154 of the seat's hand length
        squared, 0.38 hand lengths from the player's resting palm, never read by the landmarker)."""
        st = self.state
        pad = ALONE_PAD * hand
        grown = (box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad)
        lying = [h.box for h in (*st.look_before, *st.resting, *st.edge)] + [b for b, _, _, _ in st.unseen]
        if any(_shared(grown, b) > 0 for b in lying):
            return False
        return self._cloth_share(grown, before, cloth) >= ALONE_CLOTH_SHARE

    def _as_at_start(self, box: Box, frame: npt.NDArray[np.uint8]) -> bool:
        """The place ``box`` shows what it showed when the stretch began: what lay there then lies there now.
        For a part of the zone that changed since before the movement (_unseen_arrival), nothing came to it:
        what changed was something that had come since, and has gone, a hand come back to its rest
        (_back_to_start) or a neighbour's reach gone from over the player's rest hand. Clean KK 4213, zone
        7 at 38.76 s: seat 6's reach lay across seat 7's resting hand and was read as seat 6's; when it left,
        the part it uncovered held some of that hand, so it was not cloth-coloured, and 0.70 reported it as
        seat 7's unreadable landing, a vote for a player who did not vote (two rounds lost). No pixel of that
        part's box differed from the stretch's first frame."""
        return self._start is not None and self._unchanged(box, self._grey(frame), self._start)

    def _back_to_start(self, box: Box, frame: npt.NDArray[np.uint8]) -> bool:
        """The place looks as it did when the stretch began, and something lay there then (not the bare
        cloth): a hand that rested there, went away (a reach, a gesture) and came back to rest."""
        if self._still is None or not self._as_at_start(box, frame):
            return False
        x0, y0, _, _ = self.rect
        h, w = self.mask.shape
        bx0, by0, bx1, by1 = self._box_px(box)
        region = self._still[y0 : y0 + h, x0 : x0 + w][by0:by1, bx0:bx1][self.mask[by0:by1, bx0:bx1]]
        now = frame[y0 : y0 + h, x0 : x0 + w][by0:by1, bx0:bx1][self.mask[by0:by1, bx0:bx1]]
        if len(region) == 0:
            return False
        # What came back differs from what was there just before (the cloth the hand had uncovered).
        return (
            float(
                np.linalg.norm(now.astype(np.float32).mean(axis=0) - region.astype(np.float32).mean(axis=0))
            )
            >= UNSEEN_CLOTH_DIST
        )

    def _lay_there(self, hand: HandSeen, frame: npt.NDArray[np.uint8]) -> bool:
        """A hand whose place shows what it showed when the stretch began lay there then, and is no landing.
        On noisy video any hand: the landmarker misses a hand resting there at the stretch's start and finds
        it later, reading its shape as a fist or thumb as often as not. On clean video a relaxed hand: the
        landmarker can miss one resting in the zone at the stretch's start and find it only at a vote's
        settle, where it is no vote's hand (clean 803 and 817, seat 1: the rest hand beside a thumb-up the
        landmarker did not read was taken for the arrival; it stayed when the thumb-up left, so the lift was
        never seen). A voting shape found there on clean video is still a landing: a fist that rested there
        at the start, was lifted and put back in the same place."""
        if self._start is None or (not self._noisy() and hand.gesture in VOTING_SHAPES):
            return False
        if self._as_at_start(hand.box, frame):
            return True
        # An arm passing beside or under a relaxed hand changes its box but not the hand (clean GG 3812,
        # zone 1: seat 2's elbow under seat 1's rest palm, read for the first time at seat 2's reach). Not a
        # voting shape: a fist formed where the rest hand lay shows skin at the same places.
        return (
            hand.gesture not in VOTING_SHAPES
            and self._first is not None
            and self._kept_still(hand, frame, self._first)
        )

    def _unseen_gone(self, frame: npt.NDArray[np.uint8], started: int) -> list[Observation]:
        """An unreadable landing is gone when its place shows the cloth again."""
        out: list[Observation] = []
        keep = []
        for box, cloth, owner, part in self.state.unseen:
            if part is not None:
                # Noisy video: half the part it covered shows the cloth again (the box's mean colour would
                # also hold the rest hand beside it).
                rx0, ry0, rx1, ry1 = self.rect
                share = uncovered_share(part, frame[ry0:ry1, rx0:rx1], cloth, UNSEEN_CLOTH_DIST)
                gone = share >= UNCOVERED_GONE
            else:
                x0, y0, x1, y1 = (round(v) for v in box)
                region = frame[y0 : max(y0 + 1, y1), x0 : max(x0 + 1, x1)].reshape(-1, 3).astype(np.float32)
                gone = float(np.linalg.norm(region.mean(axis=0) - cloth)) < UNSEEN_CLOTH_DIST
            if gone:
                out.append(Observation("hand_up", owner, self.seat, started, UNSEEN_CONF))
            else:
                keep.append((box, cloth, owner, part))
        self.state.unseen = keep
        return out

    def _hands(self, frame: npt.NDArray[np.uint8], *, thorough: bool = False) -> list[HandSeen]:
        hands = self.finder.find(frame, self.seat, self.zone, thorough=thorough)
        if self.zone == "raise_zone":
            if (
                not thorough
                and hands
                and self.state.active_since is None
                and self._noisy()
                and all(self._lay_since_start(h, frame) for h in hands)
            ):
                # The one crop found only hands lying where they lay when the stretch began, and so skipped
                # the tiled pass (HandFinder.find): look thoroughly, as when it finds none. Only on a still
                # zone (the stretch's first frame, a settle, the hold look): a gun that holds is read there,
                # and looking on every moving frame too cost twice the calls for the same raises (noisy
                # 1301-1307, 1303, 1410, 1510: +7.9% of the analyses' calls, +4.7% this way).
                hands, thorough = self.finder.find(frame, self.seat, self.zone, thorough=True), True
            return self._raised(frame, hands, thorough=thorough)
        if self.zone == "table_zone":
            # A vote is a hand placed in the zone: a hand resting at its edge (mostly outside) is not one.
            self._edge_seen = [h for h in hands if h.inside < TABLE_INSIDE]
            hands = [h for h in hands if h.inside >= TABLE_INSIDE]
            if not hands and self.noise is not None and self.noise.noisy:
                hands = self._denoised_look(frame, thorough=thorough)
        return hands

    def _lay_since_start(self, hand: HandSeen, frame: npt.NDArray[np.uint8]) -> bool:
        """Noisy video, a raise zone: ``hand``'s place shows what it showed when the stretch began. Seen from
        the camera, a neighbour's hand lying on the table can lie inside a raise zone: seat 2's resting hand
        in seat 1's (noisy 1510: a "palm" 0.9, 0.62 of its landmarks inside seat 1's raise zone, on every
        frame of the night). The zone's one crop finds that hand and passes over the gun raised beside it,
        which the tiled pass reads ("point" 0.82-0.94 on every frame of its hold)."""
        return self._as_at_start(hand.box, frame)

    def _denoised_frame(self, frame: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
        """``frame`` with the zone (padded by 0.6 of its size) through the denoise filter of
        :mod:`vision.noise`, for another look on noisy video."""
        return denoised(frame, _padded_box(self.finder.polygon(self.seat, self.zone), frame.shape, 0.6))

    def _denoised_look(self, frame: npt.NDArray[np.uint8], *, thorough: bool) -> list[HandSeen]:
        """On noisy video, the zone once more through a denoise filter (:mod:`vision.noise`)."""
        hands = self.finder.find(self._denoised_frame(frame), self.seat, self.zone, thorough=thorough)
        return [h for h in hands if h.inside >= TABLE_INSIDE]

    def _raised(
        self, frame: npt.NDArray[np.uint8], hands: list[HandSeen], *, thorough: bool
    ) -> list[HandSeen]:
        """The raise zone's hands that are hand-sized; with DENOISED_RAISE_LOOK on noisy video, when the
        plain look finds none, the zone once more through the denoise filter (a raised gun on a blurred,
        blocky video: noisy game 501, seat 7's hand found on 5 of 7 frames of its raise denoised, on none
        plainly)."""
        hands = [h for h in hands if _hand_sized(h, self.finder.hand_size(h.owner))]
        if hands or not DENOISED_RAISE_LOOK or self.noise is None or not self.noise.noisy:
            return hands
        again = self.finder.find(self._denoised_frame(frame), self.seat, self.zone, thorough=thorough)
        return [h for h in again if _hand_sized(h, self.finder.hand_size(h.owner))]

    def _denoised_aim(self, frame: npt.NDArray[np.uint8], grey: npt.NDArray[np.uint8]) -> list[HandSeen]:
        """Noisy video, a raise zone settling with no hand that moved found: one thorough look through the
        denoise filter, keeping only aiming hands (gun or point) that moved. The plain look misses a held gun
        on blurred, blocky video (noisy 1001, seat 2: found as a "thumb_up" while rising, then on none of the
        ten frames it held; denoised, a gun on every one). Heads and masks, which the same filter also turns
        into hands (bench/RESULTS.md, "Session 4: shots"), read as other shapes, or as an aiming shape with a
        low confidence (DENOISED_AIM_CONF), and are not kept."""
        seen = self.finder.find(self._denoised_frame(frame), self.seat, self.zone, thorough=True)
        st = self.state
        return [
            h
            for h in seen
            if h.gesture in AIMED
            and h.conf >= DENOISED_AIM_CONF
            and _hand_sized(h, self.finder.hand_size(h.owner))
            and all(_moved(s, h) for s in st.static)
            and not self._unchanged(h.box, grey)
        ]

    def _hold_look(self, frame: npt.NDArray[np.uint8]) -> list[Observation]:
        """Noisy video, a still frame after a raise zone settled with no hand that moved found: one more
        look, plain and through the denoise filter by turns (one landmarker call a frame). A hand-sized hand
        whose place changed since before the movement is a whole raise, timed when the zone became still, if
        it aims (gun or point, DENOISED_AIM_CONF sure) or, on a plain look, is where the hand was last seen
        moving. The settle's frames are often ones a held gun is not read on: noisy 1102 seat 4, nothing at
        the settle, "gun" plainly on the next frames; 1101 seat 1, a gun over a neighbour's head, read
        "fist" rising and on the hold's later frames; 409 seat 5, "other" at the settle, "gun" 0.54 on the
        next four frames through the filter."""
        st = self.state
        st.hold -= 1
        grey = self._grey(frame)
        plain = (HOLD_LOOK_FRAMES - st.hold) % 2 == 1
        if plain:
            seen = self._hands(frame)
        else:
            seen = self._raised(
                frame, self.finder.find(self._denoised_frame(frame), self.seat, self.zone), thorough=False
            )
        found = [
            h
            for h in seen
            if all(_moved(s, h) for s in st.static)
            and not self._unchanged(h.box, grey)
            and (
                (h.gesture in AIMED and h.conf >= DENOISED_AIM_CONF)
                or (plain and st.hold_last is not None and not _moved(st.hold_last, h))
            )
        ]
        if not found:
            return []
        h = min(found, key=lambda x: x.top_y)
        st.hold, st.raised = 0, h
        return [Observation("shot_raise", h.owner, self.seat, st.hold_t, h.conf, h.gesture, h.box)]

    def _hold_end_look(
        self, frame: npt.NDArray[np.uint8], grey: npt.NDArray[np.uint8], held: npt.NDArray[np.uint8]
    ) -> list[Observation]:
        """Noisy video: the zone moves again while the hold look (:meth:`_hold_look`) is on, having found
        nothing; ``held`` is the last still frame. A held hand that is let down starts from where it held:
        on the first frame of that movement it is still at its top, and its shape may read there when it
        read on none of the still frames (noisy 1706, seat 2: a gun held in front of the seat's own white
        shirt; no look read it on the settle and hold frames, the denoise filter a "thumb_up" 0.65 there;
        on the first frame down, through the filter, a "gun" 0.98). One thorough look through the filter,
        kept as :meth:`_denoised_aim` keeps it (an aiming hand, DENOISED_AIM_CONF sure, whose place changed
        since before the raise), and only if it is no higher than the top of what the raise had changed in
        the still picture (less LOWERING hand lengths): a hand coming down, not one rising further, whose
        new top is that movement's own settle's business. It must also lie below the zone's top edge: a hand
        held in this zone, not an arm passing through it to a hand above (noisy 1604: seat 3's forearm, as
        it came down through seat 2's zone, read as a "point" 0.97, 10 x 70 px, reaching 9 px above the
        zone). The raise is timed when the zone became still.

        The hand is reported when this movement settles, and only if that settle reports no raise higher than
        it: on its first frame, a hand that had held low and then rises on looks the same as one let down
        (noisy 1810, seat 10: a gun read at 99.92 s on its way up to its peak at 100.32 s; reported at once,
        it took the shot into the call before and the settle's own raise was read as the same hand)."""
        st = self.state
        assert self._still is not None  # the picture before the raise: the hold look follows a settle
        changed = (cv2.absdiff(self._grey(self._still), self._grey(held)) > PIXEL_DELTA) & self.mask
        rows = np.nonzero(np.count_nonzero(changed, axis=1) >= HELD_ROW_PX)[0]
        if not rows.size:
            return []
        top = self.rect[1] + int(rows[0])
        found = [
            h
            for h in self._denoised_aim(frame, grey)
            if h.top_y >= max(top - LOWERING * self.finder.hand_size(h.owner), self.rect[1])
        ]
        if not found:
            return []
        h = min(found, key=lambda x: x.top_y)
        st.held_end = Observation("shot_raise", h.owner, self.seat, st.hold_t, h.conf, h.gesture, h.box)
        return []

    def _after_hold_end(self, held_end: Observation, raised: list[Observation]) -> list[Observation]:
        """The movement that cut the hold look short has settled (see :meth:`_hold_end_look`). A raise of
        another hand that peaks more than LOWERING hand lengths above the hand read on its first frame: the
        hand rose on, and that peak is the raise (noisy 1810 seat 10: read at 99.92 s 95 px below its peak).
        Otherwise the hand was let down from where it held: it is the raise, and what the settle made of the
        same hand on its way down (a raise at the movement's first frame, noisy 1805 seat 1) is no other."""
        assert held_end.box is not None
        x0, y0, x1, y1 = held_end.box
        size = max(x1 - x0, y1 - y0, 1.0)
        rise = LOWERING * self.finder.hand_size(held_end.seat)

        def same(o: Observation) -> bool:
            assert o.box is not None
            cx, cy = (o.box[0] + o.box[2]) / 2, (o.box[1] + o.box[3]) / 2
            return math.hypot(cx - (x0 + x1) / 2, cy - (y0 + y1) / 2) <= 0.5 * size

        others = [o for o in raised if o.box is None or not same(o)]
        if any(o.box is not None and o.box[1] < y0 - rise for o in others):
            return raised
        return [held_end, *others]

    def _moving_look(
        self, frame: npt.NDArray[np.uint8], grey: npt.NDArray[np.uint8], t: int
    ) -> list[Observation]:
        """Noisy video, a raise zone moving for MOVING_LOOK_AFTER_MS in which the plain look has found no hand
        that moved: a gun held while something else keeps the zone moving (a neighbour's arm, the sleeve
        under it) is reported only at a settle that comes after it is let down, and on noisy video the plain
        look may read it on no frame (noisy 1816, seat 2: a gun held in front of a grey sleeve, found by no
        plain look; through the denoise filter "point" or "gun" on half the moving frames). One thorough look
        through the filter on every other frame, at most MOVING_LOOKS a movement, kept as
        :meth:`_denoised_aim` keeps a hand (aiming, DENOISED_AIM_CONF sure, hand-sized, its place changed)
        and inside the zone's top edge (an arm passing through to a hand above it is not held here). A
        hand held is read at the same place on two such looks: a whole raise, timed at the first of them.
        Heads and masks that the filter reads as aiming shapes rarely read so twice at one place."""
        st = self.state
        if (
            st.raised is not None
            or st.held_end is not None  # the movement's first frame read a hand: its settle decides
            or st.trail
            or st.active_since is None
            or t - st.active_since < MOVING_LOOK_AFTER_MS
            or st.moving_looks >= MOVING_LOOKS
            or self._n % 2
        ):
            return []
        st.moving_looks += 1
        aims = [h for h in self._denoised_aim(frame, grey) if h.top_y >= self.rect[1]]
        if not aims:
            return []
        h = min(aims, key=lambda x: x.top_y)
        if st.moving_aim is None or _moved(st.moving_aim[1], h):
            st.moving_aim = (t, h)
            return []
        st.raised = h
        return [Observation("shot_raise", h.owner, self.seat, st.moving_aim[0], h.conf, h.gesture, h.box)]

    def _settle(self, frame: npt.NDArray[np.uint8], t: int) -> list[Observation]:
        st = self.state
        assert st.active_since is not None and st.last_change is not None
        started, still_from = st.active_since, st.last_change
        st.active_since = None
        st.quiet = 0
        now = self._hands(frame)
        if self.zone == "raise_zone":
            # A hand whose place looks as it did before the movement did not move: it lay there (missed
            # at the stretch's start, the detector flickering on it), and a raise is a hand that moved.
            grey = self._grey(frame)
            lying = [h for h in now if self._unchanged(h.box, grey)]
            if now and all(_still_there(h, lying, st.static) for h in now):
                # The one look found only hands lying there: the detector keeps to one hand at that scale,
                # and a gun held beside a resting hand is passed over (clean 808 and 906, seat 1: a rest
                # hand at the zone's edge found on every frame of the hold, the gun on none). Look again
                # thoroughly, once per settle.
                now = self._hands(frame, thorough=True)
                lying = [h for h in now if self._unchanged(h.box, grey)]
            if self._noisy() and all(_still_there(h, lying, st.static) for h in now):
                aim = self._denoised_aim(frame, grey)
                if not aim and self._moved_last is not None:
                    # The movement's last frame, where the hand came to its top: a held gun read through
                    # the filter there and on neither of the settle's frames (noisy 704 seat 2, "gun" 0.96
                    # at the top, "other" 0.98 after; 1108 seat 7, "gun" 0.86, then nothing).
                    aim = self._denoised_aim(self._moved_last, self._grey(self._moved_last))
                now = now + aim
            seen_at = dict(self._hist)
            lying += [h for t, h in st.trail if t in seen_at and self._unchanged(h.box, seen_at[t])]
            st.static.extend(lying)
            # the hands seen moving, taken before _settle_raise uses up the trail
            moving = [h for _, h in st.trail if all(_moved(s, h) for s in st.static)]
            fresh = [h for h in now if not any(h is x for x in lying)]
            raised = self._settle_raise(fresh, still_from)
            held_end, st.held_end = st.held_end, None
            if held_end is not None:
                return self._after_hold_end(held_end, raised)
            # Noisy video: no hand found holding, though a hand-sized part of the zone changed: look on.
            if (
                self._noisy()
                and st.raised is None
                and all(o.partial for o in raised)
                and self._unexplained(frame, [])
            ):
                st.hold, st.hold_t = HOLD_LOOK_FRAMES, still_from
                st.hold_last = moving[-1] if moving else None
            return raised
        self._note_aways(frame, started)
        out: list[Observation] = self._unseen_gone(frame, started)
        edge_now = self._edge_seen
        before = st.resting
        matched_before: set[int] = set()
        arrivals: list[HandSeen] = []
        grey = self._grey(frame)
        for k, h in enumerate(now):
            j = next((i for i, b in enumerate(before) if i not in matched_before and not _moved(b, h)), None)
            if j is None:
                arrivals.append(h)
            else:
                matched_before.add(j)
                if self._grown_over(h, before[j], grey):
                    now[k] = before[j]  # the resting hand read together with what came beside it
        # A flicker that cut a look for a missed arrival short (noisy video): a hand found at a place the
        # flicker did not change may be that look's arrival (flicker_cut below).
        short = self._noisy() and still_from - started <= FLICKER_MS  # a flicker of a frame or two
        cut_short = short and st.pending is not None
        # On noisy video a hand found where the zone looks as it did when the stretch began lay there (missed
        # until now): it rests, and is no arrival; the movement's arrival, if any, is still to be found. Nor
        # does a flicker of a frame or two with no look for a missed arrival pending bring a hand: one found
        # then whose place shows what it showed just before lay there unread (noisy 1912, zone 5: seat 5's
        # rest palm at the zone's corner, read for the first time at a one-frame flicker beside the player's
        # vote, 0.3% of its box changed, a false landing at 86.00 s). Only at a flicker: a longer movement's
        # settle may find the arrival a movement before it missed, its place unchanged since (noisy 1806,
        # zone 9: the thumb-up landed at 67.68 s, found at the next settle, 68.16 s). As for _lay_there, on
        # clean video the landmarker's reading is trusted.
        flicker_only = short and st.pending is None
        again = [h for h in arrivals if self._reach_read_again(h, before, grey)]
        if again:
            now = [h for h in now if not any(h is x for x in again)]
        arrivals = [
            h
            for h in arrivals
            if not any(h is x for x in again)
            and not self._lay_there(h, frame)
            and not self._on_unseen(h.box)
            and not self._at_edge(h, st.edge, grey)
            and not (flicker_only and self._unchanged(h.box, grey))
        ]
        if arrivals:
            arrivals += self._beside(frame, now, before)
        else:
            arrivals = self._reshaped(frame, now, before, matched_before, grey)
        if arrivals:
            now = [*now, *(h for h in arrivals if not any(h is x for x in now))]
        # A resting hand the landmarker passes over this time, whose place still shows what it showed before
        # the movement (another hand moved nearby), has not left.
        for i, b in enumerate(before):
            if i not in matched_before and self._unchanged(b.box, grey):
                matched_before.add(i)
                now = [*now, b]
        for i, b in enumerate(before):
            if i in matched_before and _placed(b, st.placed) and self._vote_left(b, frame):
                matched_before.discard(i)  # what is read there now is the hand that lay beside the vote
        departed = False
        for i, b in enumerate(before):
            if i not in matched_before:
                departed = True
                if _placed(b, st.placed):
                    out.append(Observation("hand_up", b.owner, self.seat, started, b.conf))
        st.placed = [p for p in st.placed if any(p is h for h in before)]
        gone = [b for i, b in enumerate(before) if i not in matched_before]
        if not start_shapes_trusted(self.noise):
            # On noisy video only a vote's lift explains what changed: a hand leaving its rest to vote often
            # lands right beside it, inside the padding around the place it left.
            gone = [b for b in gone if _placed(b, st.placed)]
            departed = bool(gone)
        # Noisy video: a flicker of a frame or two beside the hands lying in the zone, in which no hand came
        # or left and which left no hand-sized change behind, while no look for a missed arrival was on,
        # brought nothing to look for (noisy 1008, seat 5: the look that followed one read the vote lying
        # there as a "fist" beside its "palm" reading, a second landing; nothing had changed since before it).
        flicker = flicker_only and bool(now) and not self._unexplained(frame, [])
        if (
            not arrivals
            and not (flicker and not departed)
            # A neighbour's reach that left explains no change at its place: the zone's own player often
            # votes right there as it leaves (clean 1116, zone 7: the thumb-up, read only on a thorough look).
            and (not departed or self._unexplained(frame, [b for b in gone if b.owner == self.seat] + now))
        ):
            # Something moved and settled, but no hand came (and what left does not explain all that
            # changed: a fist landing beside a hand that left): look again on the next frames.
            st.recheck, st.recheck_t, st.look_before = RECHECK_FRAMES, still_from, before
            st.look_edge = st.edge
            if cut_short and st.pending is not None:  # (st.pending again for mypy)
                # A flicker of a frame or two (the encoder's, a cuff's) cut the look for a missed arrival
                # short: look on, from when the picture first became still (noisy game 605, seat 4).
                st.recheck_t, self._still, st.look_before = st.pending
            elif self._noisy() and st.pending is not None:
                # A longer movement cut that look short after fewer frames than _look_cut waits for: what
                # came with the movement before may lie here still, hidden from that look by what has gone
                # since. Look against the picture from before that movement, from when it first became still
                # (noisy QQ 4806, zone 4: seat 4's fist came down at 38.56 s under seat 5's reaching arm; the
                # settle at 38.72 s read neither, the reach left two frames later, and the look after that
                # compared with a picture that already held the fist: the vote and seven rounds were lost).
                st.recheck_t, self._still = st.pending[0], st.pending[1]
        # Noisy video: a hand found still where it lay before a flicker that cut the look for a missed
        # arrival short came when the picture first became still, before the flicker (noisy 1008, seat 3:
        # its thumb-up landed at 58.56 s, the look found it at a one-frame flicker 0.44 s later).
        flicker_cut = st.pending[0] if cut_short and st.pending is not None else None
        st.pending = None
        if arrivals and self._still is not None:
            found = list(arrivals)
            # each hand judged by its arm, then at once (the finder's last arm angles are this arm's) by
            # the player's hands lying still
            named = [self._third_hand(h, self._attribute(h, frame), now, edge_now, frame) for h in arrivals]
            given = _one_reach_each(arrivals, named, self.seat, self.finder)
            # Only a hand whose place shows the cloth again has left: one a neighbour's reaching arm covers
            # is still there, hidden (noisy V 2713, zone 5: seat 6's fist landed 0.8 hand lengths below seat
            # 5's resting palm, the sleeve over it; none of the palm's place bared, and the reach became seat
            # 5's vote; seat 2's fist that rose into a thumb-up in V 2712 bared 0.84 of its place).
            left = [
                b
                for i, b in enumerate(before)
                if i not in matched_before and b.owner == self.seat and self._bared(b, frame) >= LEFT_BARED
            ]
            arrivals = _moved_here(arrivals, given, left, self.seat, self.finder.hand_size(self.seat))
            # The zone follows each hand as it was judged: one a neighbour's arm brought rests here as that
            # neighbour's, and its lift is the neighbour's (before 0.77 the hand as found stayed among the
            # resting ones as the zone player's, not placed: the reach's lift went unreported, and the
            # player's own vote landing where it had lain could be taken for it; noisy OO 4605, zone 7).
            now = [next((a for f, a in zip(found, arrivals, strict=True) if f is h), h) for h in now]
        # A relaxed hand coming back to rest right after the same player's hand left the table is the end
        # of that movement, not a new landing (a vote is a fist; other shapes are only reported when they
        # arrive on their own, for the judge).
        for o in out:
            if o.kind == "hand_up":
                st.last_up[o.seat] = started
        reported = [
            h
            for h in arrivals
            if not (
                h.gesture not in VOTING_SHAPES
                and (self._returning(h.owner, started) or self._back_to_start(h.box, frame))
            )
            and not self._back_to_rest(h, started, frame)
        ]
        out.extend(
            self._down(
                h,
                flicker_cut
                if flicker_cut is not None and self._unchanged(h.box, grey)
                else self._local_still(h, still_from),
            )
            for h in reported
        )
        # A hand matched to one seen before keeps its identity (placed or not).
        for h in now:
            for j, b in enumerate(before):
                if j in matched_before and not _moved(b, h) and _placed(b, st.placed):
                    st.placed.append(h)
                    break
        st.placed.extend(reported)
        st.resting = now
        st.edge = edge_now
        return out

    def _at_edge(self, hand: HandSeen, edge: list[HandSeen], grey: npt.NDArray[np.uint8]) -> bool:
        """``hand``, found at a settle, is a hand that lay at the zone's edge before the movement: read then
        at the same place with most of its landmarks outside the zone (one of ``edge``), and now still with
        fewer than EDGE_INSIDE of them inside. The landmarks of a hand resting across the zone's border shift
        from look to look, and another hand moving nearby (a neighbour's arm reaching across it) changes its
        picture, so neither TABLE_INSIDE nor an unchanged place (_lay_there) holds it (noisy 1703, zone 1:
        seat 1's rest hand, 0.62 inside before seat 2's reach and 0.76 at its settle, with seat 2's sleeve
        lying over it, was reported as seat 1's landing and, when the sleeve left, as its lift). As for
        _lay_there, on clean video a voting shape found there is still a landing.

        Nor is it that hand when it is that hand read together with something that came beside it
        (_grown_over, ``grey`` the picture now): the arrival is still to find (noisy AA 3218, zone 5: seat 5's
        thumb-up landed against its rest palm at the zone's far edge; the palm read 21 x 31 px before, the
        settle one "other" 29 x 32 px over both, taken for the palm, and the vote was never reported)."""
        if not self._noisy() and hand.gesture in VOTING_SHAPES:
            return False
        if not _still_at_edge(hand, edge):
            return False
        return not any(not _moved(e, hand) and self._grown_over(hand, e, grey) for e in edge)

    def _grown_over(self, hand: HandSeen, rest: HandSeen, grey: npt.NDArray[np.uint8]) -> bool:
        """``hand``, read at a settle at the place of the resting hand ``rest``, is ``rest`` read together
        with something that came to lie beside it: its box is at least GROWN_AREA times ``rest``'s, and the
        part of it outside ``rest``'s box holds a hand-sized change since before the movement (UNSEEN_MIN_AREA
        hand lengths squared). The zone then keeps ``rest``'s own sighting, so that the look for a missed
        arrival tells the newcomer from it (noisy 1918, zone 5: seat 5's thumb-up landed against the fingers
        of its rest palm at the zone's corner; the settle read one "other" 35 x 34 px over both where the palm
        had read 21 x 26, and the look's later reads of the thumb-up alone, "other" 0.93, lay within half that
        box of its centre, so they were taken for the resting hand and the vote was never reported). A resting
        hand that only shifts keeps its box's size."""
        hw, hh = hand.box[2] - hand.box[0], hand.box[3] - hand.box[1]
        rw, rh = rest.box[2] - rest.box[0], rest.box[3] - rest.box[1]
        if hw * hh < GROWN_AREA * max(rw * rh, 1.0) or self._still is None:
            return False
        bx0, by0, bx1, by1 = self._box_px(hand.box)
        rx0, ry0, rx1, ry1 = self._box_px(rest.box)
        changed = cv2.absdiff(self._grey(self._still), grey) > PIXEL_DELTA
        outside = np.zeros_like(self.mask)
        outside[by0:by1, bx0:bx1] = True
        outside[ry0:ry1, rx0:rx1] = False
        size = self.finder.hand_size(self.seat)
        return int(np.count_nonzero(changed & outside & self.mask)) >= UNSEEN_MIN_AREA * size * size

    def _back_to_rest(self, hand: HandSeen, started: int, frame: npt.NDArray[np.uint8]) -> bool:
        """``hand``, of any shape, found coming to rest right after its owner's own lift (_returning), is that
        hand going back to where it rested at the zone's edge when the stretch began: read there then with
        most of its landmarks outside the zone (one of the stretch's first edge hands), still under
        EDGE_INSIDE inside, and its place looks as it did then and not as just before (_back_to_start). A rest
        hand, not a vote, whatever shape the landmarker reads (clean 1910, zone 1: seat 1's thumb-up was
        lifted at 70.08 s and the hand went straight back to its rest at the zone's bottom corner, read there
        as a "thumb_up" 0.86 with 0.62 inside when the stretch began and as a "fist" 0.97 with 0.81 inside
        when it settled: a false landing at 70.56 s)."""
        return (
            _still_at_edge(hand, self._start_edge)
            and self._returning(hand.owner, started)
            and self._back_to_start(hand.box, frame)
        )

    def _returning(self, owner: int, t: int) -> bool:
        """A hand of ``owner`` coming to rest at ``t`` follows that owner's own lift from the zone by at most
        RETURN_MS: it ends that movement (a relaxed hand put back), and is no landing. Only the same owner's
        lift counts: a neighbour's reach leaving the zone says nothing of the zone player's hand landing
        after it (clean 1404, zone 5: seat 4's reach left at 59.08 s; seat 5's late thumb-up, landing at
        59.88 s where the reach had lain, was read only as an "other" by the look for a missed arrival, and
        was dropped as a hand coming back from that lift)."""
        up = self.state.last_up.get(owner)
        if up is None or t - up > RETURN_MS:
            return False
        # A lift taken for the player's own that was a neighbour's reach, as its home zone told by now, is no
        # lift of the player's hand (clean LL 4318, zone 5: seat 4's reach, an unreadable landing at 58.52 s
        # given to seat 5, left at 59.32 s; seat 5's late thumb-up, read as an "other" 0.8 s later, was
        # dropped as seat 5's hand coming back).
        down = max((d for d, o in self.downs if o == owner and d < up), default=None)
        return owner != self.seat or down is None or self.reach_owner(down, up) is None

    def _note_aways(self, frame: npt.NDArray[np.uint8], started: int) -> None:
        """At a settle of a table zone's movement that began at ``started``: a part bared by an earlier
        movement (one of ``aways``, not yet back, left at most AWAY_MAX_MS ago) that shows again at least
        AWAY_BACK_SHARE of what it showed before is back now; and what this movement bared, at least
        AWAY_AREA hand lengths squared, is noted as away."""
        if self._still is None:
            return
        before, now, cloth = self._zone_pictures(frame)
        for a in self.aways:
            if a.part is None or a.before is None or a.left == started:
                continue
            if started <= a.left + AWAY_MAX_MS and (
                restored_share(a.before, now, a.part, UNSEEN_CLOTH_DIST) >= AWAY_BACK_SHARE
            ):
                a.back = started
            if a.back is not None or started > a.left + AWAY_MAX_MS:
                a.part = a.before = None
        gone = uncovered(before, now, self.mask, cloth, UNSEEN_CLOTH_DIST)
        hand = self.finder.hand_size(self.seat)
        if gone is not None and gone.area >= AWAY_AREA * hand * hand:
            self.aways.append(_Away(started, gone.mask, before.copy()))

    def reach_owner(self, down: int, up: int) -> int | None:
        """The neighbour whose hand a landing in this table zone at ``down``, lifted at ``up``, was, as the
        neighbours' own zones tell: one neighbour's resting hand was away from its zone for the landing's
        time (went_and_came_back), and no resting hand of this zone was away at the landing (the zone
        player's own hand, gone to vote). None when that is not so of exactly one neighbour.
        Noisy LL 4314, zone 6: seat 7's pointing reach, read as a "fist" 0.97, its black sleeve over seat 6's
        black clothes, the changed arm pointing 2.8° from seat 6's body; seat 7's rest hand left zone 7
        0.44 s before the landing and came back 0.2 s after the lift. Seat 6's hands lay still, though the
        reaching arm touched one (7 of its 21 landmark places changed)."""
        if any(a.away_at(down) for a in self.aways):
            return None
        landing = (self.seat, down, self.seat)
        who = [
            n
            for n in self.finder.neighbours(self.seat)
            if n in self.table and self.table[n].went_and_came_back(down, up, landing) is not None
        ]
        return who[0] if len(who) == 1 else None

    def own_after_all(self, owner: int, down: int, up: int) -> bool:
        """A landing in this table zone at ``down``, lifted at ``up``, that the arm's path gave to the
        neighbour ``owner``, is the zone player's own, as the two zones tell: a resting hand of this zone went
        away for the landing's time and came back (went_and_came_back), and no resting hand of the
        neighbour's zone was away at the landing (_Away.away_at). Noisy MM 4410, zone 4 at 59.92 s: seat 4's
        own thumb-up, never read, was found by its colour and given to seat 5 by the arm's path (8.3° from
        seat 5's body, the sleeves alike); seat 4's hand had left zone 4 0.44 s before and came back 0.52 s
        after the lift, while seat 5's hand left zone 5 only 80 ms after the landing, for its own vote
        there."""
        home = self.table.get(owner)
        if home is None or self.went_and_came_back(down, up, (self.seat, down, owner)) is None:
            return False
        return not any(a.away_at(down) for a in home.aways)

    def went_and_came_back(self, down: int, up: int, landing: tuple[int, int, int]) -> _Away | None:
        """What a resting hand of this table zone bared at most REACH_LEAD_MS before a landing (in any zone)
        at ``down``, and showed again at most REACH_BACK_MS after that landing's lift at ``up``
        (REACH_EARLY_MS before it, the lift being timed when the zone saw it), with no other landing of this
        zone's player (in any zone) nor in this zone meanwhile, but that landing itself (``landing``: its
        zone's seat, time and owner): the hand was away for that landing's time. None if there is none."""
        for a in self.aways:
            if a.back is None or not a.left <= down <= a.left + REACH_LEAD_MS:
                continue
            if not up - REACH_EARLY_MS <= a.back <= up + REACH_BACK_MS:
                continue
            back = a.back
            if any(
                a.left <= t <= back and (w.seat, t, o) != landing and (w is self or o == self.seat)
                for w in self.table.values()
                for t, o in w.downs
            ):
                continue
            return a
        return None

    def _unexplained(self, frame: npt.NDArray[np.uint8], hands: list[HandSeen]) -> bool:
        """A hand-sized part of the zone changed since before the movement away from ``hands`` (those that
        left or are there now)."""
        if self._still is None:
            return False
        changed = cv2.absdiff(self._grey(self._still), self._grey(frame)) > 2 * PIXEL_DELTA
        changed = (changed & self.mask).astype(np.uint8)
        changed = cv2.morphologyEx(changed, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        x0, y0, _, _ = self.rect
        size = self.finder.hand_size(self.seat)
        for h in hands:
            p = 0.3 * size
            bx0, by0 = int(max(0, h.box[0] - p - x0)), int(max(0, h.box[1] - p - y0))
            changed[by0 : int(max(0, h.box[3] + p - y0 + 1)), bx0 : int(max(0, h.box[2] + p - x0 + 1))] = 0
        return int(changed.sum()) >= UNSEEN_MIN_AREA * size * size

    def _zone_pictures(
        self, frame: npt.NDArray[np.uint8]
    ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8], npt.NDArray[np.float32]]:
        """The zone's rectangle before the movement and in ``frame`` (H×W×3 RGB), and the cloth's colour
        (the median of the zone before the movement), for :func:`vision.noise.covered` and ``uncovered``."""
        assert self._still is not None
        x0, y0, x1, y1 = self.rect
        before = self._still[y0:y1, x0:x1]
        return before, frame[y0:y1, x0:x1], np.median(before[self.mask].astype(np.float32), axis=0)

    def _bared(self, hand: HandSeen, frame: npt.NDArray[np.uint8]) -> float:
        """Of the pixels of ``hand``'s box, inside the zone, that showed something other than the cloth before
        the movement, the share that shows the cloth in ``frame`` (:func:`vision.noise.bared_share`): how much
        of what lay there the hand uncovered by leaving. 0 when nothing but cloth lay in the box."""
        if self._still is None:
            return 0.0
        bx0, by0, bx1, by1 = self._box_px(hand.box)
        inside = self.mask[by0:by1, bx0:bx1]
        if bx1 - bx0 < 2 or by1 - by0 < 2 or not inside.any():
            return 0.0
        before, now, cloth = self._zone_pictures(frame)
        part = np.zeros_like(self.mask)
        part[by0:by1, bx0:bx1] = inside
        return bared_share(before, now, part, cloth, UNSEEN_CLOTH_DIST)

    def _vote_left(self, vote: HandSeen, frame: npt.NDArray[np.uint8]) -> bool:
        """Noisy video: the vote ``vote``, though a hand is still read at its place, has left: a part of the
        zone at least VOTE_LEFT_AREA hand lengths squared, touching the vote's box, showed a hand before the
        movement and shows the cloth now, more than anything came to cover (noisy 1004 seat 6, 1006 seat 7:
        the thumb-up landed over the player's relaxed hand lying at the table's edge, and the landmarker read
        that hand at both the landing and the lift, so the lift was never seen; what the lift uncovered
        measured 0.34 and 0.31, what it covered 0.24 and 0.21)."""
        if not self._noisy() or self._still is None:
            return False
        x0, y0 = self.rect[:2]
        before, now, cloth = self._zone_pictures(frame)
        gone = uncovered(before, now, self.mask, cloth, UNSEEN_CLOTH_DIST)
        hand = self.finder.hand_size(self.seat)
        if gone is None or gone.area < VOTE_LEFT_AREA * hand * hand:
            return False
        came = covered(before, now, self.mask, cloth, UNSEEN_CLOTH_DIST)
        if came is not None and came.area >= gone.area:
            return False
        bx0, by0, bx1, by1 = gone.box
        vx0, vy0, vx1, vy1 = vote.box
        return x0 + bx0 <= vx1 and vx0 <= x0 + bx1 and y0 + by0 <= vy1 and vy0 <= y0 + by1

    def _reshaped(
        self,
        frame: npt.NDArray[np.uint8],
        now: list[HandSeen],
        before: list[HandSeen],
        matched: set[int],
        grey: npt.NDArray[np.uint8],
    ) -> list[HandSeen]:
        """Clean video: the zone player's resting hand, no longer read at its place, which changed, while no
        hand was found arriving and a hand-sized part of the cloth is covered now: the hand did not leave (a
        hand leaving the zone shows the cloth again) but made a vote right there, which the one look passed
        over. Look once more, thoroughly (clean 2003, zone 7: the rest hand turned into a thumb-up just below
        its place; the look read only the other rest hand, the change lay mostly within the padding around
        the place the rest hand left, so no look followed, and the missed vote cost six rounds; the cloth it
        covered measured 0.21 hand lengths squared, the thorough look read "thumb_up" 0.98)."""
        if not start_shapes_trusted(self.noise) or self._still is None:
            return []
        left = [
            b
            for i, b in enumerate(before)
            if i not in matched
            and b.owner == self.seat
            and not _placed(b, self.state.placed)
            and not self._unchanged(b.box, grey)
        ]
        if not left:
            return []
        was, looks, cloth = self._zone_pictures(frame)
        came = covered(was, looks, self.mask, cloth, UNSEEN_CLOTH_DIST)
        hand = self.finder.hand_size(self.seat)
        if came is None or came.area < UNSEEN_MIN_AREA * hand * hand:
            return []
        return [
            h
            for h in self._hands(frame, thorough=True)
            if h.gesture in VOTING_SHAPES
            and all(_moved(x, h) for x in now + before)
            and not self._unchanged(h.box, grey)
            and not self._on_unseen(h.box)
            and not self._at_edge(h, self.state.edge, grey)
        ]

    def _beside(
        self, frame: npt.NDArray[np.uint8], now: list[HandSeen], before: list[HandSeen]
    ) -> list[HandSeen]:
        """Voting hands that landed in the same movement as the arrival found, passed over by the one look:
        a hand-sized part of the zone changed away from every hand found now or resting before, so look
        once more, thoroughly (clean 1004, seat 8: its thumb-up landed as seat 9's reach came in beside it;
        the look found only the reach, and the thumb-up was found a second later, when the reach left)."""
        if not self._unexplained(frame, now + before):
            return []
        grey = self._grey(frame)

        def landed(hands: list[HandSeen]) -> list[HandSeen]:
            return [
                h
                for h in hands
                if h.gesture in VOTING_SHAPES
                and all(_moved(x, h) for x in now + before)
                and not self._unchanged(h.box, grey)
                and not self._lay_there(h, frame)
                and not self._on_unseen(h.box)
            ]

        found = landed(self._hands(frame, thorough=True))
        if not found and self._noisy():
            # Noisy video: the thorough look read the other hand again, so once more through the denoise
            # filter (noisy 1004, seat 8: the reach's "point" on every look; denoised, the thumb-up too).
            found = landed(self._denoised_look(frame, thorough=True))
        return found

    def _unchanged(
        self,
        box: Box,
        grey: npt.NDArray[np.uint8],
        before: npt.NDArray[np.uint8] | None = None,
        leave_out: npt.NDArray[np.bool_] | None = None,
    ) -> bool:
        """The box of the zone's grey picture ``grey`` shows what it showed before the current movement
        (few pixels changed), or what the grey picture ``before`` shows; the pixels of ``leave_out`` (the
        zone rectangle's mask) not counted."""
        share = self._changed_share(box, grey, before, leave_out)
        return share is not None and share < UNCHANGED_SHARE

    def _changed_share(
        self,
        box: Box,
        grey: npt.NDArray[np.uint8],
        before: npt.NDArray[np.uint8] | None = None,
        leave_out: npt.NDArray[np.bool_] | None = None,
    ) -> float | None:
        """The share of the box's pixels (those of ``leave_out`` not counted) whose grey level in ``grey``
        differs by more than PIXEL_DELTA from the picture before the current movement (or ``before``);
        None when there is no such picture or no pixel to count."""
        if before is None and self._still is None:
            return None
        bx0, by0, bx1, by1 = self._box_px(box)
        if bx1 - bx0 < 2 or by1 - by0 < 2:
            return None
        if before is None:
            assert self._still is not None
            before = self._grey(self._still)
        d = cv2.absdiff(before[by0:by1, bx0:bx1], grey[by0:by1, bx0:bx1])
        if leave_out is not None:
            d = d[~leave_out[by0:by1, bx0:bx1]]
            if d.size == 0:
                return None
        return float(np.count_nonzero(d > PIXEL_DELTA)) / d.size

    def _local_still(self, hand: HandSeen, zone_still: int) -> int:
        """When this hand stopped moving: the last frame that changed around the hand itself. Another
        hand still moving elsewhere in the zone (a neighbour's arm reaching across) must not delay it."""
        x0, y0, _, _ = self.rect
        h, w = self.mask.shape
        pad = 0.25 * max(hand.box[2] - hand.box[0], hand.box[3] - hand.box[1])
        bx0 = int(max(0, hand.box[0] - pad - x0))
        by0 = int(max(0, hand.box[1] - pad - y0))
        bx1 = int(min(w, hand.box[2] + pad - x0 + 1))
        by1 = int(min(h, hand.box[3] + pad - y0 + 1))
        if bx1 - bx0 < 2 or by1 - by0 < 2 or len(self._hist) < 2:
            return zone_still
        need = max(ACTIVE_MIN_PX // 2, int(ACTIVE_SHARE * (bx1 - bx0) * (by1 - by0) * 4))
        hist = list(self._hist)
        for (_, g0), (t1, g1) in zip(reversed(hist[:-1]), reversed(hist[1:]), strict=True):
            d = cv2.absdiff(g1[by0:by1, bx0:bx1], g0[by0:by1, bx0:bx1])
            if int(np.count_nonzero(d > PIXEL_DELTA)) >= need and t1 >= 0:
                return min(t1, zone_still)
        return zone_still

    def _attribute(self, hand: HandSeen, frame: npt.NDArray[np.uint8]) -> HandSeen:
        """The arm's path (what changed since before the movement) names the owner when it is clear. The
        picture before is taken ARM_BEFORE_MS before the zone saw the movement: a neighbour's arm is
        already on its way across before its hand enters the zone, and only the whole path (and its sleeve)
        tells whose it is."""
        before = self._arm_before if self._arm_before is not None else self._still
        assert before is not None
        arm = self.finder.arm_owner(before, frame, hand, self.seat, self._first, self._still)
        if arm is None or arm == hand.owner:
            return hand
        return dataclasses.replace(hand, owner=arm)

    def _down(self, hand: HandSeen, t: int) -> Observation:
        return Observation("hand_down", hand.owner, self.seat, t, hand.conf, hand.gesture, hand.box)

    def _rose_into(
        self, held: HandSeen, hands: list[HandSeen], trail: list[tuple[int, HandSeen]], still_from: int
    ) -> bool:
        """A raise zone settles with a hand where the hand reported before (``held``) was held, and this
        movement's sightings show that hand rising into that place from more than RAISE_JUMP hand lengths
        below: lowest when first seen, on at least RISE_SIGHTINGS frames, never above where it came to rest.
        Two hands cannot hold at one place: what was held there had gone (let down unseen, or it was no hand
        at all), and this is a new raise. Noisy 1909, seat 10: seat 9's head lifting for a peek was read
        through seat 10's zone as a "point" 0.81 (72.60 s) and kept as the zone's held hand; seat 10's gun
        then rose from 1.3 hand lengths lower to hold right there (73.36 s) and was taken for that hand
        shifting at the top, so the night's second shot was never reported."""
        there = [h for h in hands if not _moved(held, h)]
        if not there or not trail:
            return False
        end = min(there, key=lambda h: h.top_y)
        numbered = _numbered(trail, self._trail_no, end, still_from)
        passes = _tracks(numbered, TRACK_LINK * self.finder.hand_size(self.seat))
        seen = next(p for p in passes if p[-1][1] is end)
        size = self.finder.hand_size(end.owner)
        tops = [h.top_y for _, h in seen]
        return (
            len(seen) > RISE_SIGHTINGS
            and tops[0] - end.top_y > RAISE_JUMP * size
            and tops[0] >= max(tops)
            and min(tops) >= end.top_y - HELD_STILL * size
        )

    def _settle_raise(self, hands: list[HandSeen], still_from: int) -> list[Observation]:
        st = self.state
        trail = st.trail
        st.trail = []
        # Hands lying in the zone since the stretch began are never raises; of the others, the highest.
        fresh = [h for h in hands if all(_moved(s, h) for s in st.static)]
        trail = [(t, h) for t, h in trail if all(_moved(s, h) for s in st.static)]
        if st.raised is not None and self._rose_into(st.raised, fresh, trail, still_from):
            st.raised = None  # what held there is gone: a hand rose into its place (see _rose_into)
        if st.raised is not None:
            # The reported hand moved again: coming down, or shifting at the top. One raise, one peak; a
            # different hand appearing elsewhere is a new raise.
            others = [h for h in fresh if _moved(st.raised, h)]
            if not others:
                if not any(not _moved(st.raised, h) for h in fresh):
                    st.raised = None
                return []
            held = st.raised
            fresh = others
            trail = [(t, h) for t, h in trail if _moved(held, h)]
        now = min(fresh, key=lambda h: h.top_y) if fresh else None
        if now is not None:
            trail.append((still_from, now))
        numbers, self._trail_no = self._trail_no, {}
        if not trail:
            return []
        st.raised = now
        # Each hand passing through has its own peak: a neighbour's hand rising through this zone and out
        # of it (two players raising together) must not hide the zone player's raise. A hand is followed
        # while it is seen on nearly every frame; its owner is the one at its peak. A hand that left the
        # zone before the movement stopped was seen only in part.
        numbered = _numbered(trail[:-1] if now is not None else trail, numbers, now, still_from)
        passes = _tracks(numbered, TRACK_LINK * self.finder.hand_size(self.seat))
        passes = _joined(
            passes,
            {id(h): no for no, _, h in numbered},
            TRACK_LINK * self.finder.hand_size(self.seat),
            LOWERING * self.finder.hand_size(self.seat),
        )
        for i, seen in enumerate(passes):
            if now is not None and seen[-1][1] is now:
                # Cut where the hand came down, or leapt aside and down, more than a hand length: what was
                # seen before is another hand (noisy 2106, seat 2 at 65.00 s: seat 3's gun rising through the
                # zone, read on one frame 1.15 hand lengths up and aside from where seat 2's gun then held).
                cut = _last_drop(seen, RAISE_JUMP * self.finder.hand_size(now.owner))
                if cut:
                    passes[i : i + 1] = [seen[:cut], seen[cut:]]
                break
        passes = [_without_flickers(seen, RAISE_JUMP * self.finder.hand_size(self.seat)) for seen in passes]
        # Per owner, the highest hand that holds here and the highest that passed through (the merge of the
        # zones' sightings decides which hand the one passing through was).
        best: dict[tuple[int, bool], tuple[int, HandSeen, bool]] = {}
        for seen in passes:
            top = min(h.top_y for _, h in seen)
            t_peak, peak = next((t, h) for t, h in seen if h.top_y <= top + TOP_TOLERANCE_PX)
            if peak.gesture not in AIMED:
                # The shape at the top is the aimed one read there, if any: a gun held up read "other" on
                # one frame and "point" on the next (noisy 2213, seat 10 at 69.96 s).
                near = TOP_NEAR * self.finder.hand_size(peak.owner)
                t_peak, peak = next(
                    ((t, h) for t, h in seen if h.top_y <= top + near and h.gesture in AIMED), (t_peak, peak)
                )
            holds = now is not None and seen[-1][1] is now
            lowering = LOWERING * self.finder.hand_size(peak.owner)
            # Held still at its top for a while, though the zone never settled (another hand kept moving in
            # it): a whole raise (clean 703: seat 2's gun held 160 ms while seat 3's came down through seat
            # 2's zone; on the noisy render of the same game the landmarker found that gun only on two of
            # those frames, first at its top, so the hand seemed to be coming down).
            held = not holds and _held_at_top(
                seen, top, HELD_MS, HELD_STILL * self.finder.hand_size(peak.owner)
            )
            if not holds and not held and peak is seen[0][1] and _lowered(seen, lowering):
                continue  # a hand coming down
            if holds and now is not None and now.top_y <= top + TOP_TOLERANCE_PX:
                # The hand holds at the top: the peak is where it came to rest.
                t_peak, peak = still_from, now
            holds = holds or held
            old = best.get((peak.owner, holds))
            if old is None or peak.top_y < old[1].top_y or (holds and peak.top_y <= old[1].top_y + 1):
                best[(peak.owner, holds)] = (t_peak, peak, holds)
        out: list[Observation] = []
        for t_peak, peak, holds in best.values():
            obs = Observation("shot_raise", peak.owner, self.seat, t_peak, peak.conf, peak.gesture, peak.box)
            out.append(dataclasses.replace(obs, partial=not holds))
        return out


def _numbered(
    trail: list[tuple[int, HandSeen]], numbers: dict[int, int], end: HandSeen | None, end_t: int
) -> list[tuple[int, int, HandSeen]]:
    """A raise zone's sightings ``trail`` (t, hand) with the frame number of each (``numbers``, by t; an
    entry without one keeps the number before it), then the hand found at the settle, ``end`` (if any), at
    ``end_t``: it comes a frame or two after the last changed frame, so it gets a frame of its own."""
    numbered: list[tuple[int, int, HandSeen]] = []
    no = -10
    for t, h in trail:
        no = numbers.get(t, no)
        numbered.append((no, t, h))
    if end is not None:
        numbered.append((max(numbers.values(), default=0) + 1, end_t, end))
    return numbered


def _tracks(numbered: list[tuple[int, int, HandSeen]], link_px: float) -> list[list[tuple[int, HandSeen]]]:
    """The raise zone's sightings (frame number, t, hand; several hands a frame, in frame order) linked into
    one list of (t, hand) per hand: each sighting joins the nearest open track whose last hand is within
    ``link_px`` (nearest pairs first); a track unseen for more than PASS_GAP_FRAMES frames has ended."""
    tracks: list[list[tuple[int, HandSeen]]] = []
    last: list[int] = []  # each track's last frame number
    frames: dict[int, list[tuple[int, HandSeen]]] = {}
    for no, t, h in numbered:
        frames.setdefault(no, []).append((t, h))
    for no, seen in frames.items():
        open_ = [i for i in range(len(tracks)) if last[i] < no <= last[i] + PASS_GAP_FRAMES + 1]
        pairs = sorted((_distance(tracks[i][-1][1], h), i, j) for i in open_ for j, (_, h) in enumerate(seen))
        used_t: set[int] = set()
        used_h: set[int] = set()
        for d, i, j in pairs:
            if d > link_px or i in used_t or j in used_h:
                continue
            tracks[i].append(seen[j])
            last[i] = no
            used_t.add(i)
            used_h.add(j)
        for j, th in enumerate(seen):
            if j not in used_h:
                tracks.append([th])
                last.append(no)
    return sorted(tracks, key=lambda tr: tr[0][0])


def _joined(
    passes: list[list[tuple[int, HandSeen]]], frame_of: dict[int, int], link_px: float, drop_px: float
) -> list[list[tuple[int, HandSeen]]]:
    """Passes (in order of their first sighting) with each one that goes on a hand coming down joined to it:
    a pass that ended more than ``drop_px`` below its top, followed within JOIN_GAP_FRAMES frames by one that
    begins within ``link_px`` of its last sighting and no higher. The landmarker loses a lowering hand for a
    few frames (clean 1020: seat 2's gun coming down through seat 1's raise zone, read "palm" twice, lost for
    three frames, then read "gun" 0.7 hand lengths lower once: alone, that last sighting was a raise seen in
    part, a gun, and so a false shot by seat 1)."""
    out: list[list[tuple[int, HandSeen]]] = []
    for seen in passes:
        first_no = frame_of.get(id(seen[0][1]), 0)
        for prev in out:
            end = prev[-1][1]
            gap = first_no - frame_of.get(id(end), 0)
            top = min(h.top_y for _, h in prev)
            if (
                0 < gap <= JOIN_GAP_FRAMES
                and end.top_y - top > drop_px
                and seen[0][1].top_y >= end.top_y
                and _distance(end, seen[0][1]) <= link_px
            ):
                prev.extend(seen)
                break
        else:
            out.append(list(seen))
    return out


def _one_reach_each(
    seen: list[HandSeen], arrivals: list[HandSeen], zone_seat: int, finder: HandFinder
) -> list[HandSeen]:
    """A neighbour reaches into a zone with one arm: of the hands that landed in one movement and were all
    given to the same neighbour, only the one lying furthest towards that neighbour's body (measured against
    the zone's own player's) is the reach; the others are the zone's own player's. Clean 1402, zone 6 at
    57.92 s: seat 6's thumb-up and seat 5's reach landed together; seat 5's sleeve lay next to both (the
    thumb-up's wrist strip 0.25 from either seat's clothes), so both went to seat 5 and seat 6's re-vote
    was lost (5 rounds). The reach lay 20 px further from seat 5's body than from seat 6's, the thumb-up
    69 px. A pointing hand is taken for the reach first (see below). ``seen``: the hands as found,
    ``arrivals``: the same after ``_attribute``; a hand given back is the one found (the zone keeps following
    it by identity, for its lift)."""
    by_seat: dict[int, list[int]] = {}
    for i, h in enumerate(arrivals):
        if h.owner != zone_seat:
            by_seat.setdefault(h.owner, []).append(i)
    out = list(arrivals)
    for seat, idx in by_seat.items():
        if len(idx) < 2:
            continue

        def lean(i: int, seat: int = seat) -> float:
            """How much further from the neighbour's body than from the zone player's the hand lies (px)."""
            c = np.asarray(arrivals[i].centre, dtype=np.float64)
            return float(np.hypot(*(c - finder.body(seat))) - np.hypot(*(c - finder.body(zone_seat))))

        # A pointing hand (an aimed shape: a reach points) is the reach before any other: noisy 2168, zone 9
        # at 38.36 s: seat 10's pointing reach and seat 9's thumb-up landed in one movement, both given to
        # seat 8 by the sleeve's colour; the thumb-up lay further towards seat 8's body and was taken for the
        # reach, so seat 9's vote was lost (2 rounds). (A cuff read beside the reach reads "palm" or "other".)
        aimed = [i for i in idx if seen[i].gesture in AIMED]
        reach = min(aimed or idx, key=lean)
        for i in idx:
            # Only a voting shape is given back: a neighbour's pointing hand read twice (the hand, and its
            # cuff as a second "palm" or "other") must not become a vote of the zone's player.
            if i != reach and seen[i].gesture in VOTING_SHAPES:
                out[i] = _given_back(seen[i], zone_seat)
    return out


def _moved_here(
    seen: list[HandSeen], arrivals: list[HandSeen], left: list[HandSeen], zone_seat: int, size: float
) -> list[HandSeen]:
    """The zone's own player moved a hand within the zone: each of the player's hands that rested in the
    zone and left it in the movement (``left``) gives back to the player the nearest arrival the arm's path
    gave to a neighbour, if it lies within OWN_MOVE hand lengths (``size``) of where that hand rested. One
    hand left and one came: the player's, not a neighbour's reach (noisy V 2712, zone 2: seat 2's fist lay
    at the zone's bottom and rose into a thumb-up 1.7 hand lengths away; the grey sleeve across the cloth
    towards seat 1 named seat 1, and seat 2's vote became seat 1's reach; analysers up to 0.53).
    ``seen``: the hands as found, ``arrivals``: the same after attribution; as in :func:`_one_reach_each`,
    a hand given back is the one found (the zone follows it by identity, for its lift)."""
    out = list(arrivals)
    for b in left:
        given = [i for i, h in enumerate(out) if h.owner != zone_seat and _distance(h, b) <= OWN_MOVE * size]
        if given:
            i = min(given, key=lambda i: _distance(out[i], b))
            out[i] = _given_back(seen[i], zone_seat)
    return out


def _given_back(found: HandSeen, zone_seat: int) -> HandSeen:
    """A hand the arm's path gave to a neighbour, given back to the zone's player: the very hand found when
    the finder named the zone's player (the zone follows it by identity, for its lift)."""
    return found if found.owner == zone_seat else dataclasses.replace(found, owner=zone_seat)


def _area(box: Box) -> float:
    return max(box[2] - box[0], 0.0) * max(box[3] - box[1], 0.0)


def _thickness(part: npt.NDArray[np.bool_]) -> float:
    """The diameter of the widest disc inside a mask (px)."""
    dist = cv2.distanceTransform(part.astype(np.uint8), cv2.DIST_L2, 3)
    return 2.0 * float(dist.max()) if dist.size else 0.0


def _with_rim(part: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """An unreadable landing's part (a mask) grown by PART_EDGE_PX, to take in the blurred rim the colour
    rule leaves."""
    k = 2 * PART_EDGE_PX + 1
    return cv2.dilate(part.astype(np.uint8), np.ones((k, k), np.uint8)) > 0


def _shared(a: Box, b: Box) -> float:
    """The area two boxes share, in pixels squared (0 when they do not overlap)."""
    return _area((max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])))


def _two_apart(hands: list[HandSeen], size: float) -> bool:
    """Two of ``hands`` lie at least ``size`` pixels apart: two hands, not one read twice."""
    return any(_distance(a, b) >= size for i, a in enumerate(hands) for b in hands[i + 1 :])


def _distance(a: HandSeen, b: HandSeen) -> float:
    """Between two hands' centres, in pixels."""
    return float(np.hypot(b.centre[0] - a.centre[0], b.centre[1] - a.centre[1]))


def _held_at_top(seen: list[tuple[int, HandSeen]], top: float, min_ms: int, still_px: float) -> bool:
    """The track's hand stayed within ``still_px`` of its top, sighting after sighting, for ``min_ms``."""
    since: int | None = None
    for t, h in seen:
        if h.top_y > top + still_px:
            since = None
            continue
        since = t if since is None else since
        if t - since >= min_ms:
            return True
    return False


def _last_drop(seen: list[tuple[int, HandSeen]], drop_px: float) -> int:
    """Where in a pass a hand was last found more than ``drop_px`` lower than the one before it, or lower and
    more than ``drop_px`` away (0: nowhere); a rising hand is never found lower than it was, nor leaps aside
    as it comes to its top."""
    for k in range(len(seen) - 1, 0, -1):
        a, b = seen[k - 1][1], seen[k][1]
        if b.top_y - a.top_y > drop_px or (b.top_y > a.top_y and _distance(a, b) > drop_px):
            return k
    return 0


def _without_flickers(seen: list[tuple[int, HandSeen]], jump_px: float) -> list[tuple[int, HandSeen]]:
    """A pass without the sightings that leap more than ``jump_px`` away from a hand that stays where it
    was on the frames either side (within LOWERING of ``jump_px``): a hand does not leap aside and straight
    back between two frames; what was read there is something else (noisy 2221, seat 2 at 90.20 s: a
    reading 1.3 hand lengths above seat 2's held gun, between two sightings of the gun 1 px apart, became the
    pass's peak and its "other" hid the shot)."""
    out = list(seen)
    k = 1
    while k < len(out) - 1:
        a, b, c = out[k - 1][1], out[k][1], out[k + 1][1]
        if _distance(a, c) <= LOWERING * jump_px and min(_distance(a, b), _distance(b, c)) > jump_px:
            del out[k]
        else:
            k += 1
    return out


def _lowered(seen: list[tuple[int, HandSeen]], drop_px: float) -> bool:
    """The pass's hand ended more than ``drop_px`` lower than it was first seen."""
    return seen[-1][1].top_y - seen[0][1].top_y > drop_px


def peak_seat(trail: list[tuple[int, HandSeen]]) -> int:
    return min(trail, key=lambda th: th[1].top_y)[1].owner


def _hand_sized(hand: HandSeen, hand_px: float) -> bool:
    """A raised hand's landmarks span at least RAISE_MIN_SIDE of the owner's hand length (the landmarker
    also finds tiny "hands" in a lowered head and its mask, 22 px across where hands are 57 px long), and
    unless it aims, between RAISE_MIN_THICK and RAISE_MAX_THICK of it across and at most RAISE_MAX_SIDE
    long (not a flat sliver, not a head); if it aims, at most RAISE_MAX_AIM_SIDE long (not an arm)."""
    w, h = hand.box[2] - hand.box[0], hand.box[3] - hand.box[1]
    if hand.gesture in AIMED:
        return RAISE_MIN_SIDE * hand_px <= max(w, h) <= RAISE_MAX_AIM_SIDE * hand_px
    thick = RAISE_MIN_THICK * hand_px <= min(w, h) <= RAISE_MAX_THICK * hand_px
    return RAISE_MIN_SIDE * hand_px <= max(w, h) <= RAISE_MAX_SIDE * hand_px and thick


def _still_there(hand: HandSeen, lying: list[HandSeen], static: list[HandSeen]) -> bool:
    """A raise zone's hand found at a settle lay there: its place did not change (one of ``lying``), or it
    is where a hand lay when the stretch began (``static``)."""
    return _placed(hand, lying) or not all(_moved(s, hand) for s in static)


def _placed(hand: HandSeen, placed: list[HandSeen]) -> bool:
    return any(hand is p for p in placed)


def _moved(a: HandSeen, b: HandSeen) -> bool:
    """Two sightings of a resting hand differ enough to be a new placement."""
    return _apart(a, b) or a.owner != b.owner


def _apart(a: HandSeen, b: HandSeen) -> bool:
    """Two sightings lie too far apart to be one resting hand, whoever each was given to."""
    size = max(a.box[2] - a.box[0], a.box[3] - a.box[1], 1.0)
    return _distance(a, b) > 0.5 * size


def _still_at_edge(hand: HandSeen, edge: list[HandSeen]) -> bool:
    """``hand`` still has fewer than EDGE_INSIDE of its landmarks inside the zone and has not moved from one
    of ``edge``, hands read at the zone's edge earlier (ZoneWatcher._at_edge, ZoneWatcher._back_to_rest)."""
    return hand.inside < EDGE_INSIDE and any(not _moved(e, hand) for e in edge)


def _zone_mask(poly: npt.NDArray[np.float64], rect: tuple[int, int, int, int]) -> npt.NDArray[np.bool_]:
    """The pixels of the crop ``rect`` (x0, y0, x1, y1) of the frame inside the polygon ``poly``. The callers
    round their crops differently (ZoneWatcher's own, _padded_box's), so each passes its own."""
    x0, y0, x1, y1 = rect
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(mask, [np.round(poly - [x0, y0]).astype(np.int32)], 1)
    return mask.astype(bool)


class TableWatch:
    """All seats' zones of one kind over consecutive frames of one stretch."""

    def __init__(
        self,
        finder: HandFinder,
        zones: str | tuple[str, ...],
        frame_shape: tuple[int, ...],
        seats: tuple[int, ...] | None = None,
    ) -> None:
        names = (zones,) if isinstance(zones, str) else zones
        seats = seats if seats is not None else finder.layout.seat_numbers
        self.watchers = [ZoneWatcher(finder, s, z, frame_shape) for z in names for s in seats]
        self._table = {w.seat: w for w in self.watchers if w.zone == "table_zone"}
        for w in self._table.values():
            w.table = self._table
        self.noise: NoiseLevel | None = None

    def feed(self, frame: npt.NDArray[np.uint8], t: int) -> list[Observation]:
        if self.noise is None:
            self.noise = measure(frame)
            for w in self.watchers:
                w.noise = self.noise
        out: list[Observation] = []
        for w in self.watchers:
            out.extend(w.feed(frame, t))
        return out

    def reaches_resolved(self, obs: list[Observation]) -> list[Observation]:
        """``obs`` (this watch's observations, in any order) with each landing a table zone gave its own
        player, and its lift, given instead to the neighbour whose reach it was (ZoneWatcher.reach_owner), and
        each one the arm's path gave to a neighbour given back to the zone's player whose hand it was
        (ZoneWatcher.own_after_all): call once the stretch is watched, when every zone has seen the hands
        come back."""
        table = self._table
        out = sorted(obs, key=lambda o: o.t)
        for i, o in enumerate(out):
            if o.kind != "hand_down" or o.zone_seat not in table:
                continue
            # its lift: the next of that seat in that zone, if no other landing of theirs there comes first
            lift = next(
                (
                    k
                    for k in range(i + 1, len(out))
                    if out[k].kind in ("hand_up", "hand_down")
                    and out[k].zone_seat == o.zone_seat
                    and out[k].seat == o.seat
                ),
                None,
            )
            if lift is None or out[lift].kind != "hand_up":
                continue
            zone, up = table[o.zone_seat], out[lift].t
            if o.seat == o.zone_seat:
                seat = zone.reach_owner(o.t, up)
            else:
                seat = o.zone_seat if zone.own_after_all(o.seat, o.t, up) else None
            if seat is not None:
                out[i] = dataclasses.replace(o, seat=seat)
                out[lift] = dataclasses.replace(out[lift], seat=seat)
        return out


FrameSource = Callable[[], "tuple[npt.NDArray[np.uint8], int] | None"]
