"""When a neighbour's reach leaves, the place it lay on looks as it did when the stretch began: nothing landed
there (``ZoneWatcher._unseen_arrival``).

Clean KK 4213, zone 7 at 38.76 s: seat 6 reached with a pointing hand over seat 7's resting hand and was read
as seat 6's reach. When it left, the look for a missed arrival compared the zone with its picture just before
that movement, the reach still in it. The changed part, where the reach had lain, held some of seat 7's hand
it had uncovered, so it was not cloth-coloured, and 0.70 reported it as seat 7's unreadable landing. That
was a vote for the candidate then called, for a player who did not vote (one round gained a voter, the next
lost one). Every pixel of that part's box showed what it had shown when the stretch began.

Small synthetic frames; the finder is a stand-in (the unit under test is the watcher's rule).
"""

from __future__ import annotations

import numpy as np

from tests.vision.zonefakes import BG, CLEAN, OWN, OneZoneFinder, watch_frames
from vision.handfinder import HandSeen
from vision.seatwatch import UNSEEN_CONF

NEAR = (245, 215, 190)  # seat 4's hand
SLEEVE = (20, 20, 28)  # seat 4's black sleeve
REST = (150, 130, 185, 165)  # seat 3's resting hand (x0, y0, x1, y1), on the zone's right
REACH = (118, 128, 148, 150)  # seat 4's hand, reaching in left of it
ARM = (148, 134, 200, 146)  # its sleeve, over seat 3's hand and out of the zone's right edge
LANDED = (120, 112, 146, 132)  # seat 3's own fist, landing where the cloth showed


def _paint(f: np.ndarray, box: tuple[int, int, int, int], colour: tuple[int, int, int]) -> None:
    x0, y0, x1, y1 = box
    f[y0:y1, x0:x1] = colour


class Finder(OneZoneFinder):
    """Reads seat 4's hand wherever it is painted (a "palm"), and nothing else; the arm's path names seat 4
    for that hand (its black sleeve, as on the case's frames)."""

    def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
        x0, y0, x1, y1 = REACH
        if tuple(frame[(y0 + y1) // 2, (x0 + x1) // 2]) != NEAR:
            return []
        box = (float(x0), float(y0), float(x1), float(y1))
        centre = ((x0 + x1) / 2, (y0 + y1) / 2)
        return [HandSeen(3, "palm", 0.85, 0.85, box, centre, y0, 1.0, np.zeros((21, 3), np.float32))]

    def arm_owner(
        self, before: np.ndarray, after: np.ndarray, hand: HandSeen, zone_seat: int, *_: object
    ) -> int | None:
        return 4 if hand.gesture == "palm" else None


def _frames(*, fist: bool = False) -> list[np.ndarray]:
    """Seat 3's hand rests on the zone's right from the start; from frame 30 (1.2 s) seat 4's hand lies in
    the zone, its sleeve across seat 3's hand; from frame 60 it is gone (``fist``: seat 3's own fist lands
    at the zone's top left as it goes)."""
    out = []
    for i in range(110):
        f = np.full((300, 300, 3), BG, np.uint8)
        _paint(f, REST, OWN)
        if 30 <= i < 60:
            _paint(f, REACH, NEAR)
            _paint(f, ARM, SLEEVE)
        elif i >= 60 and fist:
            _paint(f, LANDED, OWN)
        out.append(f)
    return out


def test_a_reach_gone_leaves_no_landing_where_the_place_looks_as_at_the_stretchs_start() -> None:
    obs = watch_frames(CLEAN, _frames(), Finder())
    assert [(o.kind, o.seat, o.zone_seat) for o in obs if o.kind == "hand_down"] == [("hand_down", 4, 3)]
    assert [o for o in obs if o.seat == 3] == []


def test_an_unreadable_landing_as_a_reach_goes_is_still_the_players() -> None:
    # The player's own fist, never read, lands on the cloth as the reach leaves: its place looks nothing like
    # the stretch's start, so it stays an unreadable landing of the zone player, for the judge.
    obs = watch_frames(CLEAN, _frames(fist=True), Finder())
    assert [(o.kind, o.seat) for o in obs][:1] == [("hand_down", 4)]
    landed = [o for o in obs if o.seat == 3]
    assert [(o.kind, o.conf, o.gesture) for o in landed] == [("hand_down", UNSEEN_CONF, "other")]
    assert landed[0].box is not None and landed[0].box[1] < REST[1]
