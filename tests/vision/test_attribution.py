"""Whose arm brought a hand to the table (``HandFinder.arm_owner``, ``vision.armpath``): a player's own vote
is never given to a neighbour on evidence that is not the neighbour's arm joining the hand.

Small synthetic frames on a two-seat layout: seat 1's body is at the lower left, seat 2's at the lower
right, the hand in seat 1's table zone. Each case is one failure traced on a tuning seed
(bench/RESULTS.md, "Session 4: attribution").
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from gamelog.layout import Layout, SeatZones
from vision.armpath import arm_pixels
from vision.handfinder import HandFinder, HandSeen
from vision.seatwatch import ZoneWatcher

BG = 40
SKIN = (230, 200, 180)
GREEN, BLUE = (60, 140, 60), (50, 60, 200)


def _finder() -> HandFinder:
    def box(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
        return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))

    seats = (
        SeatZones(1, box(100, 150, 200, 230), box(20, 0, 120, 60), box(30, 230, 90, 290)),  # body lower left
        SeatZones(2, box(210, 150, 300, 230), box(300, 0, 400, 60), box(330, 230, 390, 290)),  # lower right
    )
    return HandFinder(Layout((400, 360), seats), tracker=object())  # type: ignore[arg-type]


def _hand(wrist: tuple[float, float] | None = None) -> HandSeen:
    """A fist centred at (150, 190); with ``wrist``, landmarks whose wrist lies there (their mean at the
    centre), else no landmarks (an unreadable hand)."""
    pts = np.zeros((21, 3), np.float32)
    if wrist is not None:
        pts[0, :2] = wrist
        pts[1:, :2] = ((21 * 150 - wrist[0]) / 20, (21 * 190 - wrist[1]) / 20)
    return HandSeen(1, "fist", 0.9, 0.9, (138.0, 178.0, 162.0, 202.0), (150.0, 190.0), 178.0, 1.0, pts)


def _blank(torsos: tuple[tuple[int, int, int], tuple[int, int, int]] | None = None) -> np.ndarray:
    img = np.full((360, 400, 3), BG, np.uint8)
    if torsos is not None:
        cv2.rectangle(img, (35, 290), (85, 340), torsos[0], -1)  # seat 1's torso (below its head zone)
        cv2.rectangle(img, (335, 290), (385, 340), torsos[1], -1)  # seat 2's torso
    return img


def _fist(img: np.ndarray) -> np.ndarray:
    out = img.copy()
    cv2.rectangle(out, (138, 178), (162, 202), SKIN, -1)
    return out


def test_an_arm_that_left_before_the_hand_came_is_not_the_hands_arm() -> None:
    """Seed 513: seat 6's arm lay across seat 5's zone in the picture from a second before; when seat 5's
    own hand landed, the place the arm had left changed too and was read as seat 6's arm. Where the
    picture shows again what it showed when the stretch began, something was uncovered: no arm."""
    finder = _finder()
    first = _blank()
    before = first.copy()
    cv2.line(before, (160, 195), (330, 250), BLUE, 14)  # the neighbour's arm, towards seat 2's body
    after = _fist(first)  # the arm has gone back; the zone player's fist has landed
    found = arm_pixels(before, after, (150.0, 190.0), np.zeros((21, 3), np.float32), 24.0)
    assert found is not None and found[1].sum() > 200  # without the stretch's first frame: the arm's place
    found = arm_pixels(before, after, (150.0, 190.0), np.zeros((21, 3), np.float32), 24.0, first)
    assert found is None or found[1].sum() == 0  # with it: nothing of the arm is left
    assert finder.arm_owner(before, after, _hand(), 1, first) is None  # the hand's own player


def test_an_arm_that_arrived_is_still_seen_with_the_first_frame() -> None:
    """A neighbour's arm that did reach in covered what the first frame showed: still the neighbour's."""
    finder = _finder()
    first = _blank()
    after = _fist(first)
    cv2.line(after, (150, 190), (330, 250), BLUE, 14)
    assert finder.arm_owner(first, after, _hand(), 1, first) == 2


@pytest.mark.parametrize(
    ("wrist", "owner"),
    [
        ((140.0, 196.0), None),  # the fist's wrist faces seat 1's side: the sleeve beside it is no arm of it
        ((160.0, 196.0), 2),  # the wrist faces the sleeve: it is the hand's arm, seat 2's
    ],
)
def test_only_the_changed_region_on_the_wrists_side_is_the_arm(
    wrist: tuple[float, float], owner: int | None
) -> None:
    """Seed 405: seat 5's sleeve reached into seat 4's zone beside seat 4's fist and joined its changed
    region at the knuckles; seat 4's own forearm had not moved. The hand's arm leaves it at the wrist."""
    finder = _finder()
    before = _blank((GREEN, BLUE))
    cv2.line(before, (140, 196), (60, 260), GREEN, 12)  # seat 1's forearm, already there
    after = _fist(before)
    cv2.line(after, (160, 196), (330, 250), BLUE, 14)  # seat 2's sleeve, arriving beside the fist
    assert finder.arm_owner(before, after, _hand(wrist), 1, before) == owner


def test_without_a_readable_wrist_the_whole_region_counts() -> None:
    """An unreadable hand has no landmarks: every changed pixel beyond it is the arm, as before."""
    finder = _finder()
    before = _blank((GREEN, BLUE))
    after = _fist(before)
    cv2.line(after, (160, 196), (330, 250), BLUE, 14)
    assert finder.arm_owner(before, after, _hand(), 1, before) == 2


def test_the_direction_alone_names_no_neighbour_against_the_sleeves_colour() -> None:
    """Seed 514: seat 7's grey cuff, straight above its thumb-up fist, pointed at seat 6's body; the cuff's
    colour was seat 7's clothes', not seat 6's. A player's own vote is the normal case: the arm's direction
    gives the hand to a neighbour only if the sleeve does not speak for the zone's own player."""
    finder = _finder()
    before = _blank((GREEN, BLUE))
    own_colour = _fist(before)
    cv2.line(own_colour, (150, 190), (330, 250), GREEN, 14)  # towards seat 2's body, in seat 1's colour
    assert finder.arm_owner(before, own_colour, _hand(), 1, before) is None
    neighbours = _fist(before)
    cv2.line(neighbours, (150, 190), (330, 250), BLUE, 14)
    assert finder.arm_owner(before, neighbours, _hand(), 1, before) == 2


def test_arm_pixels_rejects_landmarks_of_the_wrong_shape() -> None:
    img = _blank()
    with pytest.raises(ValueError, match="21, 3"):
        arm_pixels(img, img, (150.0, 190.0), np.zeros((5, 3), np.float32), 24.0)


def test_the_watcher_gives_the_arm_rule_the_stretchs_first_frame() -> None:
    """The zone watcher hands ``arm_owner`` the first frame of the stretch it watches (its background), and
    the zone's picture just before its movement began (what has changed since then moved with the hand)."""
    seen: list[int] = []
    recent_seen: list[int] = []

    class Recorder:
        calls = 0

        def polygon(self, seat: int, zone: str) -> np.ndarray:
            return np.array([[100, 100], [200, 100], [200, 180], [100, 180]], dtype=np.float64)

        def hand_size(self, seat: int) -> float:
            return 30.0

        def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
            if frame[130, 150, 0] < 200:
                return []
            pts = np.zeros((21, 3), np.float32)
            return [HandSeen(1, "fist", 0.9, 0.9, (140, 120, 160, 140), (150, 130), 120, 1.0, pts)]

        def arm_owner(
            self,
            before: np.ndarray,
            after: np.ndarray,
            hand: HandSeen,
            zone_seat: int,
            background: np.ndarray,
            recent: np.ndarray,
        ) -> None:
            seen.append(int(background[0, 0, 1]))
            recent_seen.append(int(recent[0, 0, 1]))
            return None

    w = ZoneWatcher(Recorder(), seat=1, zone="table_zone", frame_shape=(300, 300, 3))  # type: ignore[arg-type]
    for i in range(20):
        f = np.full((300, 300, 3), BG, np.uint8)
        f[0, 0, 1] = i + 1  # each frame stamped with its number
        if i >= 5:
            f[120:140, 140:160] = 230  # the fist lands at frame 5
        w.feed(f, i * 40)
    assert seen == [1]
    assert recent_seen == [5]  # frame 4, the last before the fist landed


def test_the_direction_alone_needs_an_arms_worth_of_pixels() -> None:
    """Seed 417: on the wrist's side of seat 4's thumb-up fist only a short stub of its cuff changed (90 px,
    too little to judge a sleeve by), and it pointed at seat 5's body. Too little to name a neighbour."""
    finder = _finder()
    before = _blank((GREEN, BLUE))
    stub = _fist(before)
    cv2.line(
        stub, (150, 190), (215, 225), BLUE, 2
    )  # a thin stub towards seat 2's body: 138 px beyond the hand
    assert finder.arm_owner(before, stub, _hand(), 1, before) is None
    arm = _fist(before)
    cv2.line(arm, (150, 190), (330, 250), BLUE, 14)  # a whole arm the same way
    assert finder.arm_owner(before, arm, _hand(), 1, before) == 2
