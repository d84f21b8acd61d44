"""A stand-in for :class:`vision.handfinder.HandFinder` in the watcher's tests: one table zone, hands 30 px,
no arm evidence. Subclasses supply ``find`` (what the "landmarker" sees in a frame)."""

from __future__ import annotations

import numpy as np

from vision.handfinder import HandSeen
from vision.noise import NOISY_SIGMA, NoiseLevel
from vision.seatwatch import Observation, ZoneWatcher

ZONE = np.array([[100, 100], [200, 100], [200, 180], [100, 180]], dtype=np.float64)
NOISY, CLEAN = NoiseLevel(2 * NOISY_SIGMA), NoiseLevel(0.5 * NOISY_SIGMA)
BG = (30, 90, 56)  # the cloth
OWN = (230, 200, 180)  # seat 3's hands
PTS = np.zeros((21, 3), np.float32)


def hand(gesture: str, conf: float, box: tuple[float, float, float, float], inside: float) -> HandSeen:
    """Seat 3's hand read as ``gesture`` at ``box`` with ``inside`` of its landmarks in the zone."""
    centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    return HandSeen(3, gesture, conf, conf, box, centre, box[1], inside, PTS)


def own(seen: list[Observation]) -> list[tuple[str, str, int]]:
    """Seat 3's observations as (kind, gesture, t)."""
    return [(o.kind, o.gesture, o.t) for o in seen if o.seat == 3]


class OneZoneFinder:
    """The parts of the finder a :class:`vision.seatwatch.ZoneWatcher` asks for besides ``find``: every zone
    is :data:`ZONE`, every seat's hand is 30 px, a look at one place reads nothing, and the arm never names an
    owner (the arm's path has tests of its own in ``test_attribution.py``)."""

    last_arm_angles: dict[int, float] = {}  # noqa: RUF012 (never written: the arm names no one)

    def polygon(self, seat: int, zone: str) -> np.ndarray:
        return ZONE

    def neighbours(self, seat: int) -> tuple[int, ...]:
        return (seat - 1, seat + 1)

    def body(self, seat: int) -> np.ndarray:
        """Seat 3 sits below the zone, seat 2 to its left, seat 4 to its right."""
        return np.array({2: (-40.0, 140.0), 3: (150.0, 280.0), 4: (340.0, 140.0)}.get(seat, (150.0, -200.0)))

    def arm_owner(
        self, before: np.ndarray, after: np.ndarray, hand: HandSeen, zone_seat: int, *_: object
    ) -> int | None:
        return None

    def hand_size(self, seat: int) -> float:
        return 30.0

    def look_at(
        self, frame: np.ndarray, seat: int, zone: str, centre: tuple[float, float], side: float
    ) -> list[HandSeen]:
        """A look through a crop around one place (noisy video, what came): reads nothing unless a test's
        finder says otherwise."""
        return []


def watch_frames(level: NoiseLevel, frames: list[np.ndarray], finder: OneZoneFinder) -> list[Observation]:
    """Seat 3's table-zone watcher at noise ``level`` fed ``frames`` 40 ms apart (300 x 300 pictures); what
    it reported."""
    w = ZoneWatcher(finder, seat=3, zone="table_zone", frame_shape=(300, 300, 3))  # type: ignore[arg-type]
    w.noise = level
    out: list[Observation] = []
    for i, f in enumerate(frames):
        out.extend(w.feed(f, i * 40))
    return out


def edge_rest_frames(vote: tuple[int, int, int, int], *, n: int = 100, at: int = 60) -> list[np.ndarray]:
    """``n`` 300 x 300 frames: seat 3's rest hand lies across the zone's left border (rows 120-150, columns
    90-112) throughout; the vote (rows ``vote[0]:vote[1]``, columns ``vote[2]:vote[3]``) lands at frame ``at``
    and stays."""
    r0, r1, c0, c1 = vote
    out = []
    for i in range(n):
        f = np.full((300, 300, 3), BG, np.uint8)
        f[120:151, 90:113] = OWN
        if i >= at:
            f[r0:r1, c0:c1] = OWN
        out.append(f)
    return out
