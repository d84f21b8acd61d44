"""Session 11 (``vision.seatwatch``, ``ZoneWatcher._hold_end_look``): on noisy video, a held gun that no look
read while it held is read on the first frame it comes down, when the zone moves again while the hold look
is still on.

Noisy 1706, seat 2: the gun held in front of the seat's own white shirt; the plain and thorough looks read
nothing on the settle and hold frames, the denoise filter a "thumb_up" 0.65 there, and "gun" 0.98 on the
first frame of the hand's way down. As in ``test_shots_hold.py``, the landmarker is replaced by a finder
that reads painted frames: nothing on a noisy picture, a hand on a denoised one.
"""

from __future__ import annotations

import numpy as np

from tests.vision.test_shots_hold import (
    NOISY,
    SIDE,
    STILL_FROM,
    TOP,
    GunAtTopOnly,
    Listed,
    X,
    _hand,
    _whole,
    fed,
)
from vision.handfinder import HandSeen
from vision.noise import NOISY_SIGMA
from vision.seatwatch import Observation

# The hand's top per frame: absent, rising four frames, held at its peak for five (the zone settles on the
# second still frame, 9, and the hold look runs on 10 and 11), then let down from frame 12 on, and gone.
DOWN = 12
PATH_DOWN: list[int | None] = (
    [None] * 3
    + [150 - 10 * k for k in range(4)]
    + [TOP] * 5
    + [TOP + 8, TOP + 20, TOP + 35, TOP + 50]
    + [None] * 8
)


def _raises(finder: Listed, sigma: float, path: list[int | None] = PATH_DOWN) -> list[Observation]:
    return [o for _, o in fed(finder, sigma, path)]


class ThumbUpThroughFilter(GunAtTopOnly):
    """Through the filter, a "thumb_up" (not aiming) on every frame but ``gun_frame``, read "gun" there."""

    def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
        seen = super().find(frame, seat, zone, thorough=thorough)
        return [h if h.gesture == "gun" else _hand(h.box[0], h.box[1], "thumb_up", 0.65) for h in seen]


def test_a_gun_read_only_on_its_first_frame_down_is_a_whole_raise() -> None:
    """Noisy 1706 seat 2 (lost on 0.37: the night read as a miss): the raise is timed when the zone became
    still, not when the hand came down."""
    raises = _whole(_raises(ThumbUpThroughFilter(gun_frame=DOWN), NOISY))
    assert [(t, g) for t, g, _ in raises] == [(STILL_FROM, "gun")]
    assert raises[0][2] <= TOP + 8  # where the hand was on that frame, near its top


def test_no_aiming_hand_on_the_first_frame_down_is_no_raise() -> None:
    """What does not aim there (a head, a hand that is no gun) is not kept, nor a gun read later on the way
    down: only the movement's first frame shows the hand where it held."""
    assert _raises(ThumbUpThroughFilter(gun_frame=-1), NOISY) == []
    assert _whole(_raises(ThumbUpThroughFilter(gun_frame=DOWN + 1), NOISY)) == []


class ArmThroughTheTop(ThumbUpThroughFilter):
    """On the first frame down, a "point" 10 px across and 40 long reaching above the zone's top edge (y 100):
    an arm passing through the zone to a hand above it (noisy 1604: seat 3's forearm in seat 2's zone)."""

    def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
        seen = super().find(frame, seat, zone, thorough=thorough)
        if not any(h.gesture == "gun" for h in seen):
            return seen
        box = (float(X), 95.0, float(X + 10), 135.0)
        return [HandSeen(3, "point", 0.97, 0.9, box, (X + 5.0, 115.0), 95.0, 0.9, np.zeros((21, 3)))]


# The same raise held 2 px below the zone's top edge (y 100), so that only that edge tells the arm.
PATH_HIGH: list[int | None] = [None if v is None else v - 8 for v in PATH_DOWN]


def test_an_aiming_shape_reaching_out_of_the_zones_top_is_no_raise() -> None:
    """Within LOWERING of the held hand's top, but out of the zone: not kept. A gun read there inside the
    zone is."""
    assert _raises(ArmThroughTheTop(gun_frame=DOWN), NOISY, PATH_HIGH) == []
    assert [
        (t, g) for t, g, _ in _whole(_raises(ThumbUpThroughFilter(gun_frame=DOWN), NOISY, PATH_HIGH))
    ] == [(STILL_FROM, "gun")]


def test_no_look_once_the_hold_look_is_over_nor_on_clean_video() -> None:
    """The look is the hold look's last: after HOLD_LOOK_FRAMES still frames the hand coming down is another
    movement (its own settle decides), and clean video has no hold look."""
    late = [*PATH_DOWN[:DOWN], *[TOP] * 10, *PATH_DOWN[DOWN:]]
    assert _whole(_raises(ThumbUpThroughFilter(gun_frame=DOWN + 10), NOISY, late)) == []
    # clean video: no look through the filter at all, so the gun read only there is never seen
    assert _raises(ThumbUpThroughFilter(gun_frame=DOWN), 0.3 * NOISY_SIGMA) == []


# The hand held one hand length low for five frames, then rising on to its peak at TOP.
LOW = TOP + SIDE
PATH_ON: list[int | None] = (
    [None] * 3 + [LOW + 30 - 10 * k for k in range(4)] + [LOW] * 5 + [LOW - 10, LOW - 20, TOP] + [TOP] * 10
)


class GunRisingOn(Listed):
    """Nothing while the hand holds low; on the first frame of its rise a "gun" read a little below where it
    held (noisy 1810: the box 95 px under the peak, below what the raise had changed), then a "gun" where
    it is."""

    def __init__(self, path: list[int | None]) -> None:
        listed = {i: [_hand(X, top, "gun")] for i, top in enumerate(path) if top is not None and i > DOWN}
        super().__init__({**listed, DOWN: [_hand(X, LOW + 5, "gun")]})


def test_a_hand_read_on_the_first_frame_of_a_rise_on_leaves_the_raise_to_its_peak() -> None:
    """Noisy 1810, seat 10 (lost on 0.38: the night read as a miss): the gun read on the first frame of the
    movement after the hold was on its way up; reported at once, it was timed when the zone first became still
    (in the call before), and the settle at the true peak took the hand for the one already reported. The
    settle's raise at the higher peak is the raise, and the hand on the first frame is not reported."""
    raises = _whole(_raises(GunRisingOn(PATH_ON), NOISY, PATH_ON))
    assert [top for _, _, top in raises] == [TOP]
    assert raises[0][0] > STILL_FROM


def test_a_hand_let_down_after_the_hold_is_reported_when_the_zone_settles() -> None:
    """The hand coming down is reported once that movement settles, timed when the zone first became still."""
    when = [(i, o.t) for i, o in fed(ThumbUpThroughFilter(gun_frame=DOWN), NOISY, PATH_DOWN) if not o.partial]
    assert [t for _, t in when] == [STILL_FROM]
    assert when[0][0] > DOWN + 4  # reported after the hand came down and the zone settled, not on frame DOWN
