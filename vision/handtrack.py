"""Whose hand came to rest in a table zone, from where it came: follow it back to its owner's place.

Every hand starts a vote resting in front of its owner (at the table's edge, either side of the player) and
travels from there to the zone. So the hand that landed is followed backwards through the frames the zone
watcher keeps (every few frames of the last seconds): on each earlier frame the landmarker looks around
the hand's last known place, and the hand found nearest it, within a step's reach, is the same hand one
look earlier. Hands that lie in the same crop *after* the landing are resting hands (the owner's other
hand, a neighbour's), never the travelling one. The hand's place when it stopped moving is its origin,
and the seat whose side of the table holds that origin owns the hand.

This does not depend on which changed pixels are "the arm" (:mod:`vision.armpath`), which two neighbours'
arms moving at once can fool (seeds 602, 610, 603; bench/RESULTS.md, "Session 5: attribution"). A path
that does not move far enough, or whose origin lies between two seats, says nothing, and the arm's rules
decide as before.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

# Sizes are in the seat's hand lengths.
CROP_SIDES = 3.0  # the square looked at around the hand's last known place (wider: small fists are missed)
LINK_SIDES = 1.5  # the farthest a hand moves between two looks (every 4th frame at 25 fps: 160 ms)
START_SIDES = 0.5  # the landed hand is the one found this close to where the watcher saw it
STATIC_SIDES = 0.5  # a hand this close to one lying in the crop after the landing is that resting hand
STILL_SIDES = 0.2  # a hand this close to its place one look later did not move
MIN_TRAVEL = 0.4  # a path says something only when the hand came at least this far
STILL_LOOKS = 2  # looks without movement (after it moved) that make the origin
MISSES = 2  # looks in a row without the hand before the path ends
# The origin must have emptied: at most this share of its pixels (a box of ORIGIN_SIDES hand lengths) looks
# as it did while the hand lay there, else a hand still lies there and the path jumped to it.
ORIGIN_SIDES, ORIGIN_SAME, ORIGIN_DELTA = 0.6, 0.5, 18
# The origin names a seat when it lies this much nearer that seat's side than any other seat's.
HOME_MARGIN = 0.6

Look = Callable[[npt.NDArray[np.uint8], tuple[float, float], float], npt.NDArray[np.float64]]
"""(frame, centre, side) -> the (N, 2) centres of the hands the landmarker finds in that square."""


@dataclass(frozen=True)
class HandPath:
    """A landed hand's places, from the landing back to its origin. ``places``: (N, 2) frame pixels, N ≥ 1;
    ``times``: the N frame times (the landing frame's may be -1)."""

    places: npt.NDArray[np.float64]
    times: tuple[int, ...]

    def __post_init__(self) -> None:
        if self.places.ndim != 2 or self.places.shape[1] != 2 or len(self.places) < 1:
            raise ValueError(f"places: expected (N, 2) with N >= 1, got {self.places.shape}")
        if len(self.times) != len(self.places):
            raise ValueError(f"times: {len(self.times)} for {len(self.places)} places")

    @property
    def origin(self) -> npt.NDArray[np.float64]:
        out: npt.NDArray[np.float64] = self.places[-1]
        return out

    @property
    def travel(self) -> float:
        """How far the origin lies from the landing (pixels)."""
        return float(np.hypot(*(self.places[-1] - self.places[0])))


def _nearest(
    centres: npt.NDArray[np.float64], pos: npt.NDArray[np.float64]
) -> tuple[int, float] | tuple[None, float]:
    if len(centres) == 0:
        return None, float("inf")
    d = np.hypot(centres[:, 0] - pos[0], centres[:, 1] - pos[1])
    k = int(np.argmin(d))
    return k, float(d[k])


def follow_back(
    frames: Sequence[tuple[int, npt.NDArray[np.uint8]]],
    start: tuple[float, float],
    size: float,
    look: Look,
) -> HandPath | None:
    """Follow the hand landed at ``start`` back through ``frames`` (the landing frame first, then earlier
    ones, latest first). ``size``: the seat's hand length in pixels. None when the landing frame shows no
    hand at ``start`` (the landmarker cannot read it: nothing to follow)."""
    if not frames:
        return None
    pos = np.asarray(start, dtype=np.float64)
    side = CROP_SIDES * size
    t0, f0 = frames[0]
    found = look(f0, (float(pos[0]), float(pos[1])), side)
    k, d = _nearest(found, pos)
    if k is None or d > START_SIDES * size:
        return None
    pos = found[k].astype(np.float64)
    static = np.delete(found, k, axis=0)
    places, times, seen_on = [pos], [t0], [f0]
    misses = still = 0
    for t, frame in frames[1:]:
        seen = look(frame, (float(pos[0]), float(pos[1])), side)
        if len(static) and len(seen):
            gap = np.hypot(seen[:, None, 0] - static[None, :, 0], seen[:, None, 1] - static[None, :, 1])
            seen = seen[gap.min(axis=1) > STATIC_SIDES * size]
        k, d = _nearest(seen, pos)
        if k is None or d > LINK_SIDES * size * (1 + misses):
            misses += 1
            if misses > MISSES:
                break
            continue
        misses = 0
        moved = float(np.hypot(*(places[-1] - places[0]))) >= MIN_TRAVEL * size
        still = still + 1 if d < STILL_SIDES * size and moved else 0
        pos = seen[k].astype(np.float64)
        places.append(pos)
        times.append(t)
        seen_on.append(frame)
        if still >= STILL_LOOKS:
            break
    travel = float(np.hypot(*(places[-1] - places[0])))
    if travel >= MIN_TRAVEL * size and _still_there(f0, seen_on[-1], places[-1], size):
        return None
    return HandPath(np.array(places, dtype=np.float64), tuple(times))


def _still_there(
    now: npt.NDArray[np.uint8], then: npt.NDArray[np.uint8], centre: npt.NDArray[np.float64], size: float
) -> bool:
    """The place at ``centre`` looks in ``now`` mostly as it did in ``then``: what lay there still does."""
    h, w = now.shape[:2]
    r = 0.5 * ORIGIN_SIDES * size
    x0, y0 = int(max(0, centre[0] - r)), int(max(0, centre[1] - r))
    x1, y1 = int(min(w, centre[0] + r + 1)), int(min(h, centre[1] + r + 1))
    if x1 - x0 < 2 or y1 - y0 < 2:
        return False
    a = cv2.cvtColor(np.ascontiguousarray(now[y0:y1, x0:x1]), cv2.COLOR_RGB2GRAY)
    b = cv2.cvtColor(np.ascontiguousarray(then[y0:y1, x0:x1]), cv2.COLOR_RGB2GRAY)
    same = cv2.absdiff(a, b) <= ORIGIN_DELTA
    return float(same.mean()) > ORIGIN_SAME


def _segment_distance(
    p: npt.NDArray[np.float64], a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]
) -> float:
    ab = b - a
    den = float(ab @ ab)
    u = 0.0 if den < 1e-9 else float(np.clip((p - a) @ ab / den, 0.0, 1.0))
    return float(np.hypot(*(p - (a + u * ab))))


def home_seat(
    path: HandPath,
    homes: dict[int, tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]],
    size: float,
) -> int | None:
    """The seat whose side of the table the path came from, or None when the path does not say. ``homes``:
    each candidate seat's line from its table zone's centre to its body (the hands rest along it, either
    side). The hand must have travelled MIN_TRAVEL hand lengths, and its origin lie clearly (HOME_MARGIN)
    nearer one seat's line than every other's."""
    if path.travel < MIN_TRAVEL * size or len(homes) < 2:
        return None
    dist = {s: _segment_distance(path.origin, a, b) for s, (a, b) in homes.items()}
    ranked = sorted(dist, key=lambda s: dist[s])
    best, second = ranked[0], ranked[1]
    if dist[best] < HOME_MARGIN * dist[second]:
        return best
    return None
