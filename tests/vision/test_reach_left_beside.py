"""A neighbour's reach read as the zone player's own landing (analyser 0.40a).

Two ways it happened on set I: the reach's hand is never read and only its arm, lying in the zone, is found
as an unreadable landing whose arm's path names no neighbour (noisy 1903 zone 10, noisy 1915 zone 2); or the
reach lies over the zone player's resting palm, the settle's look passes over the palm and the look for a
missed arrival finds it again, as a landing (clean 1915 zone 2). Small synthetic frames on clean video (the
grey rule finds the unreadable landing); the finder is a stand-in, the unit under test is the watcher's rule.
"""

from __future__ import annotations

import numpy as np

from tests.vision.zonefakes import BG, CLEAN, ZONE, OneZoneFinder, watch_frames
from vision.handfinder import HandSeen
from vision.seatwatch import UNSEEN_CONF

SKIN = (200, 150, 120)
SLEEVE = (220, 200, 180)  # a light sleeve: the grey rule sees it on the green cloth
# Seat 3's zone is ZONE (x 100-200, y 100-180); seat 2's lies to its left, seat 4's to its right.
ZONES = {
    2: np.array([[10, 100], [90, 100], [90, 180], [10, 180]], dtype=np.float64),
    3: ZONE,
    4: np.array([[210, 100], [290, 100], [290, 180], [210, 180]], dtype=np.float64),
}
# Where each seat's arms come from. Seat 2 sits beside seat 3's zone's upper left corner, so an arm lying
# along that zone's top edge lies about as near seat 2's body as seat 3's.
BODIES = {2: (0.0, 200.0), 3: (150.0, 260.0), 4: (300.0, 260.0)}
REST = (40, 130, 64, 154)  # seat 2's resting hand in its own zone
ARM = (100, 100, 160, 112)  # the reach lying along seat 3's zone's top edge (x0, y0, x1, y1)


class ThreeZones(OneZoneFinder):
    """Three table zones side by side; the landmarker reads no hand (the reach's hand lies outside the zone,
    its arm is no hand) and the arm's path names no owner."""

    def polygon(self, seat: int, zone: str) -> np.ndarray:
        return ZONES[seat]

    def near(self, seat: int) -> tuple[int, ...]:
        return tuple(s for s in (seat - 1, seat, seat + 1) if s in ZONES)

    def body(self, seat: int) -> np.ndarray:
        return np.asarray(BODIES[seat], dtype=np.float64)

    def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
        return []


def _frame(rest: tuple[int, int, int, int] | None, arm_x1: int | None) -> np.ndarray:
    f = np.zeros((300, 300, 3), np.uint8)
    f[:] = BG
    if rest is not None:
        x0, y0, x1, y1 = rest
        f[y0:y1, x0:x1] = SKIN
    if arm_x1 is not None:
        f[ARM[1] : ARM[3], ARM[0] : arm_x1] = SLEEVE
    return f


def _reach(rest_after: tuple[int, int, int, int] | None) -> list[np.ndarray]:
    """Seat 2's hand rests in its zone for 1.2 s, then goes to ``rest_after`` (None: out of its zone) as an
    arm comes to lie along seat 3's zone's top edge, and stays there."""
    return (
        [_frame(REST, None)] * 30
        + [_frame(rest_after, 120), _frame(rest_after, 140)]
        + [_frame(rest_after, ARM[2])] * 30
    )


def test_an_unreadable_landing_as_a_neighbours_hand_leaves_its_own_zone_is_that_neighbours_reach() -> None:
    # Failed on 0.39: the arm's path named no one, so the landing was seat 3's (a vote for the candidate
    # then called; noisy 1903 and 1915 lost 9 rounds so).
    obs = watch_frames(CLEAN, _reach(None), ThreeZones())
    assert [(o.kind, o.seat, o.zone_seat, o.conf) for o in obs] == [("hand_down", 2, 3, UNSEEN_CONF)]


def test_the_landing_stays_the_zone_players_when_the_neighbours_hand_stays_or_lands_in_its_own_zone() -> None:
    # The neighbour's hand still resting where it lay, or moved within its own zone (a vote of its own:
    # as much covered as uncovered), says nothing of whose the landing is.
    assert [(o.kind, o.seat) for o in watch_frames(CLEAN, _reach(REST), ThreeZones())] == [("hand_down", 3)]
    moved = (REST[0] + 10, REST[1] + 20, REST[2] + 10, REST[3] + 20)
    assert [(o.kind, o.seat) for o in watch_frames(CLEAN, _reach(moved), ThreeZones())] == [("hand_down", 3)]


def test_a_landing_far_nearer_the_zone_players_body_stays_theirs() -> None:
    # Seat 2's body far off to the left: the landing lies much nearer seat 3's body than seat 2's, a hand of
    # seat 3's own, whatever seat 2 did meanwhile.
    class FarNeighbour(ThreeZones):
        def body(self, seat: int) -> np.ndarray:
            return np.asarray((-200.0, 200.0) if seat == 2 else BODIES[seat], dtype=np.float64)

    assert [(o.kind, o.seat) for o in watch_frames(CLEAN, _reach(None), FarNeighbour())] == [("hand_down", 3)]


PALM = (120, 104, 150, 124)  # seat 3's resting palm, under the reach's arm (x0, y0, x1, y1)


def _palm_frames() -> list[np.ndarray]:
    """Seat 3's palm rests in its zone; then an arm comes to lie across it and beyond, and stays."""

    def frame(arm_x1: int | None) -> np.ndarray:
        f = _frame(REST, None)
        x0, y0, x1, y1 = PALM
        f[y0:y1, x0:x1] = SKIN
        if arm_x1 is not None:
            f[ARM[1] : ARM[3] + 4, ARM[0] : arm_x1] = SLEEVE
        return f

    return [frame(None)] * 30 + [frame(130), frame(150)] + [frame(ARM[2] + 30)] * 30


class PalmPassedOver(ThreeZones):
    """Seat 3's resting palm is read on the stretch's first frame and again on the frames after the settle,
    but not on the settle's first look (the reach's arm lies across it)."""

    def __init__(self) -> None:
        self.looks = 0

    def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
        self.looks += 1
        if self.looks == 2:
            return []  # the settle's look
        x0, y0, x1, y1 = (float(v) for v in PALM)
        pts = np.zeros((21, 3), np.float32)
        return [HandSeen(3, "palm", 0.8, 0.8, (x0, y0, x1, y1), ((x0 + x1) / 2, (y0 + y1) / 2), y0, 1.0, pts)]


def test_a_resting_palm_passed_over_at_the_settle_and_found_again_is_no_landing() -> None:
    # Failed on 0.39: the palm, gone at the settle (its place changed under the arm), was a "palm" landing
    # when the look for a missed arrival found it again at the same place (clean 1915, zone 2).
    frames = _palm_frames()
    assert [o for o in watch_frames(CLEAN, frames, PalmPassedOver()) if o.kind == "hand_down"] == []


def test_a_relaxed_hand_of_another_shape_or_place_found_after_the_settle_is_still_a_landing() -> None:
    # Only the same shape at the same place is the resting hand found again: a vote landing beside where
    # the player's rest hand lay, read as a relaxed hand, stays a landing (as on 0.39).
    class Shifted(PalmPassedOver):
        def __init__(self, gesture: str, dx: float) -> None:
            super().__init__()
            self.gesture, self.dx = gesture, dx

        def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
            seen = super().find(frame, seat, zone, thorough=thorough)
            if self.looks <= 2:
                return seen
            x0, y0, x1, y1 = seen[0].box
            box = (x0 + self.dx, y0, x1 + self.dx, y1)
            centre = (seen[0].centre[0] + self.dx, seen[0].centre[1])
            return [HandSeen(3, self.gesture, 0.8, 0.8, box, centre, y0, 1.0, seen[0].points)]

    frames = _palm_frames()
    for finder in (Shifted("other", 0.0), Shifted("palm", 8.0)):
        downs = [
            (o.kind, o.seat, o.gesture) for o in watch_frames(CLEAN, frames, finder) if o.kind == "hand_down"
        ]
        assert downs == [("hand_down", 3, finder.gesture)]
