"""Session 12 (``vision.seatwatch.ZoneWatcher._rose_into``): a hand that rises into the place where the raise
zone's reported hand was held is a new raise, not that hand shifting at the top.

Noisy 1909, seat 10: seat 9's head lifting for a peek was read through seat 10's raise zone as a "point"
(72.60 s) and kept as the zone's held hand; seat 10's gun then rose from 1.3 hand lengths lower and held
right there (73.36 s). The settle took it for the held hand, and the night's second shot was never reported.

As in ``test_shots_hold.py``, the landmarker is replaced by a finder that reports the hands listed for each
frame, and the frames are real pictures with the hands painted where they are.
"""

from __future__ import annotations

import numpy as np

from tests.vision.test_shots_hold import Listed
from vision.handfinder import HandSeen
from vision.noise import NOISY_SIGMA, NoiseLevel
from vision.seatwatch import RISE_SIGHTINGS, Observation, ZoneWatcher

X, SIDE, TOP = 130, 30, 110  # both hands' left edge, size and top where they hold (px; hands are 30 px)
HEAD_GREY, GUN_GREY = 230, 150  # the head and the gun look different: the gun's place changed
HEAD_STILL = 6 * 40  # the head's movement's last changed frame
HEAD_GONE = 14  # the frame the head leaves the zone (goes down) as the gun starts to rise


def _hand(top: float, gesture: str) -> HandSeen:
    box = (float(X), float(top), float(X + SIDE), float(top + SIDE))
    return HandSeen(3, gesture, 0.8, 0.9, box, (X + SIDE / 2, top + SIDE / 2), top, 1.0, np.zeros((21, 3)))


def _watch(
    head: list[int | None], gun: list[int | None], listed: dict[int, list[HandSeen]]
) -> list[Observation]:
    """Seat 3's raise zone fed frames 40 ms apart with the head's and the gun's top per frame (None: not in
    the zone) painted; the whole raises it reported."""
    finder = Listed(listed)
    w = ZoneWatcher(finder, seat=3, zone="raise_zone", frame_shape=(300, 300, 3))  # type: ignore[arg-type]
    w.noise = NoiseLevel(0.3 * NOISY_SIGMA)
    out: list[Observation] = []
    for i, (h, g) in enumerate(zip(head, gun, strict=True)):
        finder.i = i
        f = np.full((300, 300, 3), 40, np.uint8)
        if h is not None:
            f[h : h + SIDE, X : X + SIDE] = HEAD_GREY
        if g is not None:
            f[g : g + SIDE, X : X + SIDE] = GUN_GREY
        out.extend(w.feed(f, i * 40))
    return [o for o in out if o.kind == "shot_raise" and not o.partial]


def _scene(rise: list[int]) -> tuple[list[int | None], list[int | None], dict[int, list[HandSeen]]]:
    """The head comes up (frames 3-6) and holds, read as a "point" on every still frame; at HEAD_GONE it is
    gone and the gun rises along ``rise`` (its top per frame, read as a "gun" on each) to hold at TOP."""
    n = HEAD_GONE + len(rise) + 10
    head: list[int | None] = (
        [None] * 3 + [140, 130, 120, TOP] + [TOP] * (HEAD_GONE - 7) + [None] * (n - HEAD_GONE)
    )
    gun: list[int | None] = [None] * HEAD_GONE + list(rise) + [TOP] * 10
    listed = {i: [_hand(TOP, "point")] for i in range(7, HEAD_GONE)}
    for i, top in enumerate([*rise, *[TOP] * 10], start=HEAD_GONE):
        listed[i] = [_hand(top, "gun")]
    return head, gun, listed


def test_a_gun_rising_into_a_held_heads_place_is_a_new_raise() -> None:
    """The head is reported when its zone settles; the gun, seen rising from two hand lengths lower on the
    seven frames of its rise to hold where the head held, is a second raise, timed when it came to rest.
    0.39 reported only the head (the merge and the night pass then drop it as a head, and the gun was
    lost)."""
    rise = [170, 160, 150, 140, 130, 120, TOP]
    head, gun, listed = _scene(rise)
    raises = _watch(head, gun, listed)
    assert [(o.t, o.gesture) for o in raises] == [
        (HEAD_STILL, "point"),
        ((HEAD_GONE + len(rise) - 1) * 40, "gun"),
    ]


def test_a_hand_shifting_at_its_top_or_seen_rising_on_few_frames_is_the_held_hand() -> None:
    """The held hand dipping less than a hand length and coming back (RAISE_JUMP), or a hand seen on too few
    frames of its rise (RISE_SIGHTINGS), is not taken for a new raise: one raise, one peak."""
    dip = [TOP + 10, TOP + 20, TOP + 10, TOP]
    head, gun, listed = _scene(dip)
    assert [o.gesture for o in _watch(head, gun, listed)] == ["point"]
    # A rise from 40 px (over a hand length) lower, read on each of its frames: the settle's hand makes one
    # sighting more, so RISE_SIGHTINGS - 1 frames are too few and RISE_SIGHTINGS enough.
    for frames, shots in ((RISE_SIGHTINGS - 1, ["point"]), (RISE_SIGHTINGS, ["point", "gun"])):
        rise = [round(v) for v in np.linspace(TOP + 40, TOP, frames)]
        assert [o.gesture for o in _watch(*_scene(rise))] == shots, frames


def test_a_hand_that_went_lower_after_it_was_first_seen_is_no_rise_into_the_place() -> None:
    """The hand must be lowest when first seen: one seen going down before it comes up to the held place
    (a hand coming down and back) is the held hand."""
    head, gun, listed = _scene([150, 170, 150, 130, TOP])
    assert [o.gesture for o in _watch(head, gun, listed)] == ["point"]


def test_a_hand_that_rose_above_the_held_place_and_came_back_is_no_rise_into_it() -> None:
    """The hand must never be above where it came to rest: one that passed above the held place and came
    back down to it is the held hand moving at the top."""
    head, gun, listed = _scene([170, 150, 130, TOP, TOP - 20, TOP - 10, TOP])
    assert [o.gesture for o in _watch(head, gun, listed)] == ["point"]
