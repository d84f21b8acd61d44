"""A neighbour's reach leaving a zone while the zone's player places a vote where it lay (``ZoneWatcher``).

Clean tuning seed 1116, zone 7: seat 6 reached into zone 7 (58.24-59.30 s); as the reach left, seat 7 placed
its thumb-up at 59.98 s a few pixels from where seat 6's palm had lain, in one movement with the reach's
departure. At the settle the landmarker's plain look read only seat 7's resting hand at the zone's edge (not
placed there); the thorough look reads the thumb at 0.95. On 0.33 the reach's departure explained all that
had changed (the change lay within the departed palm's padded box), so no look for a missed arrival
followed, and the late vote was lost. What a neighbour's reach leaves no longer explains a change at its
place: the zone's own player votes there.
"""

from __future__ import annotations

import numpy as np

from tests.vision.zonefakes import OneZoneFinder
from vision.handfinder import HandSeen
from vision.seatwatch import ZoneWatcher

BG = (30, 90, 56)
REACH = (200, 50, 50)
THUMB = (230, 200, 180)
PTS = np.zeros((21, 3), np.float32)


class Finder(OneZoneFinder):
    """The zone (100-200, 100-180) of seat 1; the reach's palm and the thumb are read only on a thorough
    look (as in 1116: the palm was found by the look for a missed arrival); the arm rule names seat 2 for
    the palm."""

    def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
        if not thorough:
            return []
        if tuple(frame[130, 150]) == REACH:
            return [HandSeen(1, "palm", 0.7, 0.7, (140, 120, 160, 140), (150, 130), 120, 1.0, PTS)]
        if tuple(frame[140, 156]) == THUMB:
            return [HandSeen(1, "thumb_up", 0.95, 0.95, (146, 128, 166, 148), (156, 138), 128, 1.0, PTS)]
        return []

    def arm_owner(self, before: np.ndarray, after: np.ndarray, hand: HandSeen, *args: object) -> int | None:
        return 2 if hand.gesture == "palm" else None


def _frames() -> list[np.ndarray]:
    out = []
    for i in range(70):
        f = np.full((300, 300, 3), BG, np.uint8)
        if 5 <= i < 30:
            f[120:140, 140:160] = REACH  # seat 2's palm, lying from frame 5 to 29
        if i >= 30:
            f[128:148, 146:166] = THUMB  # seat 1's thumb-up lands as the palm leaves
        out.append(f)
    return out


def test_a_vote_placed_where_a_neighbours_reach_left_is_looked_for() -> None:
    w = ZoneWatcher(Finder(), seat=1, zone="table_zone", frame_shape=(300, 300, 3))  # type: ignore[arg-type]
    seen = [o for i, f in enumerate(_frames()) for o in w.feed(f, i * 40)]
    kinds = [(o.kind, o.seat, o.gesture) for o in seen]
    assert ("hand_down", 2, "palm") in kinds  # the reach, seat 2's
    assert any(k[:2] == ("hand_up", 2) for k in kinds)  # and its leaving
    downs = [o for o in seen if o.kind == "hand_down" and o.seat == 1]
    assert [(o.gesture, o.t) for o in downs] == [("thumb_up", 1200)]  # the late vote, timed to its landing
