"""A raise zone's pass whose peak is one sighting a hand length aside from where the hand then holds is two
hands (``vision.seatwatch._last_drop``).

Noisy 2106 (set K), seat 2 at 65.00 s: seat 3's gun, rising through seat 2's raise zone, was read there on one
frame ("gun" 0.50); from the next frame seat 2's own gun held 67 px (1.15 hand lengths) lower left, read "gun"
0.96 on every frame for 440 ms. Linked into one pass, its peak was seat 3's sighting, the merge of the zones'
sightings gave that raise to seat 3, and seat 2's shot was lost: the night became a miss. The hand had come
down only 40 px, under a hand length, so the pass was not cut where it came down.

As in ``test_shots_hold.py``, the landmarker is replaced by a finder that reports the hands listed for each
frame, and the frames are pictures with the hands painted where they are.
"""

from __future__ import annotations

import numpy as np

from tests.vision.test_shots_hold import Listed
from vision.handfinder import HandSeen
from vision.noise import NOISY_SIGMA, NoiseLevel
from vision.seatwatch import Observation, ZoneWatcher

SIDE = 30  # hands are 30 px (the stand-in finder's hand length)
X = 120  # the zone player's gun's left edge
RISE = [200, 180, 160, 130]  # its top on the frames it rises (read "point")
HOLD = 115  # where it holds (read "gun")
START = 5  # the first frame of the rise


def _hand(x: int, top: int, gesture: str, conf: float = 0.9) -> HandSeen:
    box = (float(x), float(top), float(x + SIDE), float(top + SIDE))
    return HandSeen(3, gesture, conf, conf, box, (x + SIDE / 2, top + SIDE / 2), top, 1.0, np.zeros((21, 3)))


def _watch(leap_x: int, leap_top: int) -> list[Observation]:
    """Seat 3's raise zone: its gun rises along RISE; on the frame after, a neighbour's gun passing through is
    read at (``leap_x``, ``leap_top``) and the player's gun is not; from the frame after that the player's gun
    holds at HOLD for 12 frames."""
    n = START + len(RISE) + 1 + 12 + 10
    listed: dict[int, list[HandSeen]] = {}
    painted: dict[int, list[tuple[int, int]]] = {}
    for k, top in enumerate(RISE):
        listed[START + k] = [_hand(X, top, "point")]
        painted[START + k] = [(X, top)]
    leap = START + len(RISE)
    listed[leap] = [_hand(leap_x, leap_top, "gun", 0.5)]
    painted[leap] = [(leap_x, leap_top), (X, HOLD)]
    for i in range(leap + 1, leap + 13):
        listed[i] = [_hand(X, HOLD, "gun")]
        painted[i] = [(X, HOLD)]
    finder = Listed(listed)
    w = ZoneWatcher(finder, seat=3, zone="raise_zone", frame_shape=(300, 300, 3))  # type: ignore[arg-type]
    w.noise = NoiseLevel(2 * NOISY_SIGMA)
    out: list[Observation] = []
    for i in range(n):
        finder.i = i
        f = np.full((300, 300, 3), 40, np.uint8)
        for x, top in painted.get(i, []):
            f[top : top + SIDE, x : x + SIDE] = 230
        out.extend(w.feed(f, i * 40))
    return [o for o in out if o.kind == "shot_raise"]


def test_a_peak_a_hand_length_aside_from_the_hold_is_another_hand() -> None:
    """The neighbour's sighting lies 12 px higher and 32 px aside (34 px, 1.14 hand lengths) from the hold,
    and near enough the rising hand's last sighting (42 px) to be linked to it as one pass: the held gun is a
    whole raise of its own, the sighting a partial one (the merge decides whose)."""
    raises = _watch(X + 32, HOLD - 12)
    whole = [(o.box, o.gesture) for o in raises if not o.partial]
    # fails on 0.45: one whole raise, at the neighbour's sighting
    assert whole == [(_hand(X, HOLD, "gun").box, "gun")]
    assert [(o.box, o.gesture) for o in raises if o.partial] == [(_hand(X + 32, HOLD - 12, "gun").box, "gun")]


def test_a_hand_shifting_less_than_a_hand_length_at_its_top_is_one_raise() -> None:
    """Landmarks jitter: a top sighting 20 px higher and 10 px aside (22 px) from the hold is the same
    hand."""
    raises = _watch(X + 10, HOLD - 20)
    assert len(raises) == 1 and not raises[0].partial
