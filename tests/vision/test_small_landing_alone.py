"""Session 20 (``vision.seatwatch``, analyser 0.56): on noisy video a small unreadable landing standing alone.

An unreadable landing is found by the colour it brings onto the cloth, and must cover NOISY_UNSEEN_MIN_AREA of
the seat's hand length squared: a resting hand that shifts covers a little beside itself. A smaller part
(down to UNSEEN_MIN_AREA, the clean video's minimum) counts when it lies away from every hand lying in the
zone (noisy Z 3107, zone 10: seat 10's thumb-up covered 0.154, 0.38 hand lengths from the resting palm, and
the landmarker never read it; two rounds lost).

Small synthetic frames; the finder is a stand-in (the unit under test is the watcher's rule, not MediaPipe).
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.zonefakes import BG, NOISY, OWN, OneZoneFinder, hand, watch_frames
from vision.handfinder import HandSeen
from vision.noise import NOISY_UNSEEN_MIN_AREA, covered
from vision.seatwatch import ALONE_PAD, UNSEEN_CONF, UNSEEN_MIN_AREA

HAND = 30.0  # the stand-in finder's hand length
PALM = (110, 105, 140, 125)  # the player's resting palm, read on every look
SKIN = (200, 150, 120)
SMALL, TINY = (8, 11), (6, 8)  # parts' sides (px)


class PalmFinder(OneZoneFinder):
    """Reads the resting palm wherever it shows (``inside``: the share of its landmarks in the zone), or
    never (``reads`` False); never the small landing."""

    def __init__(self, *, reads: bool = True, inside: float = 1.0) -> None:
        self.reads, self.inside = reads, inside

    def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
        if not self.reads or not (frame[115, 125] == OWN).all():
            return []
        return [hand("palm", 0.9, PALM, self.inside)]


def _frames(x: int, y: int, w: int, h: int) -> list[np.ndarray]:
    """The palm lies still; a ``w`` × ``h`` skin part comes in from the right and rests at (x, y), then
    leaves."""
    out = []
    for dx in [None] * 5 + [90, 60, 30, 10] + [0] * 40 + [40, 90] + [None] * 20:
        f = np.zeros((300, 300, 3), np.uint8)
        f[:] = BG
        f[PALM[1] : PALM[3], PALM[0] : PALM[2]] = OWN
        if dx is not None:
            f[y : y + h, x + dx : x + dx + w] = SKIN
        out.append(f)
    return out


def _covered_area(w: int, h: int) -> int:
    """What the colour rule measures for a ``w`` × ``h`` part at rest (its blurred rim included)."""
    frames = _frames(165, 145, w, h)
    x0, y0, x1, y1 = 100, 100, 200, 180  # the zone's rectangle
    zone = np.ones((y1 - y0, x1 - x0), bool)
    part = covered(frames[0][y0:y1, x0:x1], frames[20][y0:y1, x0:x1], zone, np.array(BG, np.float32), 40.0)
    assert part is not None
    return part.area


def test_the_part_sizes_lie_between_the_two_minimums() -> None:
    # What the tests below rely on: SMALL covers between the two minimums, TINY less than both.
    assert UNSEEN_MIN_AREA * HAND**2 <= _covered_area(*SMALL) < NOISY_UNSEEN_MIN_AREA * HAND**2
    assert _covered_area(*TINY) < UNSEEN_MIN_AREA * HAND**2


def test_a_small_part_alone_is_an_unreadable_landing() -> None:
    # Failed on 0.55: below NOISY_UNSEEN_MIN_AREA, nothing was reported.
    obs = watch_frames(NOISY, _frames(165, 145, *SMALL), PalmFinder())
    downs = [o for o in obs if o.kind == "hand_down"]
    assert [(o.seat, o.gesture, o.conf, o.t) for o in downs] == [(3, "other", UNSEEN_CONF, 9 * 40)]
    assert downs[0].box is not None and downs[0].box[0] >= 160
    assert [o.kind for o in obs] == ["hand_down", "hand_up"]  # and it is seen to leave


@pytest.mark.parametrize(
    "finder",
    [PalmFinder(), PalmFinder(inside=0.6), PalmFinder(reads=False)],
    ids=["read", "read-at-the-edge", "never-read"],
)
def test_the_same_part_beside_a_resting_hand_is_no_landing(finder: PalmFinder) -> None:
    # 5 px (a sixth of a hand length) from the palm, within ALONE_PAD: it may be the palm shifting. Nothing,
    # as before, whether the palm is read in the zone, read at its edge (mostly outside it), or never read
    # (then the cloth around the part tells: the palm lay there).
    assert ALONE_PAD * HAND > 5
    obs = watch_frames(NOISY, _frames(PALM[2] + 5, 110, *SMALL), finder)
    assert [o for o in obs if o.kind == "hand_down"] == []


def test_a_part_below_the_clean_minimum_is_no_landing_even_alone() -> None:
    assert watch_frames(NOISY, _frames(165, 145, *TINY), PalmFinder()) == []
