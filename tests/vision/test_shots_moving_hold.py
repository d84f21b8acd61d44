"""Session 11 (``vision.seatwatch``, ``ZoneWatcher._moving_look``): on noisy video, a gun held while the raise
zone never settles (something else keeps moving in it) and that no plain look reads is read through the
denoise filter while the zone moves.

Noisy 1816, seat 2: the gun held in front of the seat's grey sleeve at 79.56-80.20 s while the zone kept
moving; no plain look read it, the denoise filter "point" or "gun" 0.74-0.97 on 7 of the 14 moving frames.
The zone settled only after the hand was let down, so the settle's looks found nothing and the night read
as a miss. As in ``test_shots_hold.py``, the landmarker is replaced by a finder that reads painted frames:
nothing on a noisy picture, a hand on a denoised one.
"""

from __future__ import annotations

import numpy as np

from tests.vision.test_shots_hold import NOISY, TOP, GunAtTopOnly, _hand, fed, painted
from vision.handfinder import HandSeen
from vision.noise import NOISY_SIGMA
from vision.seatwatch import MOVING_LOOKS, Observation

# The hand's top per frame: absent, rising four frames (3-6), held at its peak (7-17), then gone. A dim patch
# at the zone's lower right flickers from frame 3 to 24, so the zone settles only after the hand is gone.
PATH: list[int | None] = [None] * 3 + [150 - 10 * k for k in range(4)] + [TOP] * 11 + [None] * 14
FLICKER = range(3, 25)


def _flickering(i: int, top: int | None) -> np.ndarray:
    f = painted(i, top)
    if i in FLICKER:
        f[150:175, 170:195] = 100.0 if i % 2 else 130.0  # not bright enough to read as a hand
    return f


def _raises(finder: GunAtTopOnly, sigma: float, path: list[int | None] = PATH) -> list[Observation]:
    return [o for _, o in fed(finder, sigma, path, _flickering)]


class GunThroughFilter(GunAtTopOnly):
    """Through the filter, the painted hand reads as ``gesture`` ``conf`` sure, shifted ``drift`` px to the
    right on each frame; the plain look (noisy pixels) reads nothing."""

    def __init__(self, gesture: str = "gun", conf: float = 0.9, drift: float = 0.0) -> None:
        super().__init__(gun_frame=-1)
        self.gesture, self.conf, self.drift = gesture, conf, drift

    def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
        seen = super().find(frame, seat, zone, thorough=thorough)
        return [_hand(h.box[0] + self.drift * self.i, h.box[1], self.gesture, self.conf) for h in seen]


def test_a_gun_held_while_the_zone_keeps_moving_is_a_whole_raise() -> None:
    """Lost on 0.38 (no raise at all). Read at one place on two looks: a whole raise, timed at the first."""
    raises = [o for o in _raises(GunThroughFilter(), NOISY) if not o.partial]
    assert [(o.t, o.gesture, int(o.box[1]) if o.box else -1) for o in raises] == [(9 * 40, "gun", TOP)]


def test_a_shape_that_does_not_aim_or_is_not_held_is_no_raise() -> None:
    """A shape that does not aim, an aiming one read unsure (a peeking head, "point" 0.36 on noisy 610), and
    one read at a new place on each look (a head or arm passing, not a hand held) are not kept."""
    assert _raises(GunThroughFilter("fist"), NOISY) == []
    assert _raises(GunThroughFilter("point", conf=0.36), NOISY) == []
    assert _raises(GunThroughFilter(drift=12.0), NOISY) == []


def test_the_look_is_for_noisy_video_only_and_limited() -> None:
    """Clean video gets no look through the filter; on noisy video at most MOVING_LOOKS a movement."""
    assert _raises(GunThroughFilter(), 0.3 * NOISY_SIGMA) == []
    clean, noisy = GunThroughFilter("fist"), GunThroughFilter("fist")
    _raises(clean, 0.3 * NOISY_SIGMA)
    _raises(noisy, NOISY)
    # the settle's denoised looks and the hold look's come on top of the moving looks
    assert 1 <= noisy.calls - clean.calls <= MOVING_LOOKS + 12
