"""Session 10 (``vision.seatwatch``): a raise zone whose one crop finds only a hand lying where it lay when
the stretch began (seen from the camera, seat 2's hand resting on the table lies inside seat 1's raise zone)
is looked at thoroughly, as when the crop finds none: the gun raised beside that hand is read by the tiled
pass.

As in ``test_shots_hold.py``, the landmarker is replaced by a finder that reports listed hands, on real
painted frames (the zone's change detection and "did its place change since the stretch began" run on them).
"""

from __future__ import annotations

import numpy as np

from tests.vision.test_shots_hold import NOISY, PATH, SIDE, STILL_FROM, TOP, X, _hand, _whole
from tests.vision.zonefakes import OneZoneFinder
from vision.handfinder import HandSeen
from vision.noise import NOISY_SIGMA, NoiseLevel
from vision.seatwatch import Observation, ZoneWatcher

# The neighbour's resting hand: a flat "palm" 33 x 10 px at the zone's lower edge (hands are 30 px): longer
# than a raised hand that does not aim (RAISE_MAX_SIDE), so never a raise itself (noisy 1510: seat 2's palm in
# seat 1's raise zone, 40 x 17 px where hands are 69 px long, read on every frame).
PALM_BOX = (165.0, 168.0, 198.0, 178.0)


def _palm() -> HandSeen:
    x0, y0, x1, y1 = PALM_BOX
    return HandSeen(3, "palm", 0.9, 0.9, PALM_BOX, ((x0 + x1) / 2, (y0 + y1) / 2), y0, 0.6, np.zeros((21, 3)))


class BesideRest(OneZoneFinder):
    """The one crop reads only the resting palm (``find`` not thorough); the thorough look also reads the
    painted gun, as a "gun" on the frame as fed and as a "fist" through the denoise filter (noisy 1510:
    "point" 0.82-0.94 on the tiled pass, "fist" 0.98 denoised). ``gun`` False: there is no gun to read."""

    def __init__(self, gun: bool = True) -> None:
        self.gun = gun
        self.frame: np.ndarray | None = None
        self.top: int | None = None
        self.calls = self.thorough = 0

    def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
        self.calls += 1
        self.thorough += thorough
        hands = [_palm()]
        if thorough and self.gun and self.top is not None:
            hands.append(_hand(X, self.top, "gun" if frame is self.frame else "fist"))
        return hands


def _raises(finder: BesideRest, sigma: float, path: list[int | None] = PATH) -> list[Observation]:
    w = ZoneWatcher(finder, seat=3, zone="raise_zone", frame_shape=(300, 300, 3))  # type: ignore[arg-type]
    w.noise = NoiseLevel(sigma)
    out = []
    for i, top in enumerate(path):
        f = np.full((300, 300, 3), 40, np.uint8)
        x0, y0, x1, y1 = (int(v) for v in PALM_BOX)
        f[y0:y1, x0:x1] = 200
        if top is not None:
            f[top : top + SIDE, X : X + SIDE] = 230
        finder.frame, finder.top = f, top
        out.extend(w.feed(f, i * 40))
    return [o for o in out if o.kind == "shot_raise"]


def test_a_gun_raised_beside_a_hand_lying_there_since_the_start_is_read() -> None:
    """Noisy 1510 seat 1: the plain look found only seat 2's resting palm (not hand-sized for a raise), so
    neither the tiled pass nor the settle's thorough look ran, and the gun was lost; it fails on 0.35."""
    assert _whole(_raises(BesideRest(), NOISY)) == [(STILL_FROM, "gun", TOP)]


def test_the_resting_hand_alone_is_no_raise() -> None:
    """Looking thoroughly invents nothing: with no gun, the thorough looks read only the palm."""
    finder = BesideRest(gun=False)
    assert _raises(finder, NOISY) == []
    assert finder.thorough > 0


def test_a_hand_that_moved_there_gets_no_extra_look() -> None:
    """Only a hand whose place shows what it showed when the stretch began calls for the tiled pass: the
    same palm painted only from the movement on (it came there) does not, nor does clean video."""

    class CameThere(BesideRest):
        def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
            self.calls += 1
            self.thorough += thorough
            return [_palm()] if self.top is not None else []

    came = CameThere()
    w = ZoneWatcher(came, seat=3, zone="raise_zone", frame_shape=(300, 300, 3))  # type: ignore[arg-type]
    w.noise = NoiseLevel(NOISY)
    for i, top in enumerate(PATH):
        f = np.full((300, 300, 3), 40, np.uint8)
        if top is not None:
            x0, y0, x1, y1 = (int(v) for v in PALM_BOX)
            f[y0:y1, x0:x1] = 200
        came.frame, came.top = f, top
        w.feed(f, i * 40)
    noisy_thorough = came.thorough
    clean = BesideRest()
    _raises(clean, 0.3 * NOISY_SIGMA)
    # The settle's denoised aim looks (two, thorough) are the only thorough looks on noisy video; clean video
    # keeps the one crop's answer.
    assert noisy_thorough <= 2
    assert clean.thorough == 0
