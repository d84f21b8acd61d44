"""A hand landing in a zone while two of the zone player's hands lie still where they lay is a neighbour's
reach, even when the landmarker reads it as a voting shape and the arm's path names no one
(``ZoneWatcher._third_hand``); and a relaxed hand read for the first time whose landmarks' places did not
change since the stretch began lay there, though an arm passing under it changed its box
(``ZoneWatcher._lay_there``).

Clean GG 3812, zone 1 at 37.64 s: seat 2's bent arm brought a pointing hand, read as a thumb-up 0.84; its
forearm ran 1° from seat 1's body and both players wore white, so the arm named no one. Seat 1's palm at the
table's edge (seat 2's elbow passing under it) and its other hand at the zone's bottom edge lay still; 0.69
counted the reach as seat 1's vote for the wrong candidate and the palm as a second landing.

Small synthetic frames; the finder is a stand-in (the unit under test is the watcher's rule).
"""

from __future__ import annotations

import numpy as np

from tests.vision.zonefakes import BG, CLEAN, NOISY, OWN, OneZoneFinder, watch_frames
from vision.handfinder import HandSeen

SLEEVE = (200, 200, 200)  # the reaching neighbour's sleeve
ELBOW = (40, 40, 60)  # its elbow, in shadow
NEW = (235, 190, 170)  # the hand that comes
LEFT_BOX = (110, 150, 140, 170)  # the player's palm, lower left of the zone (100-200, 100-180)
RIGHT_BOX = (160, 160, 190, 178)  # the player's other hand, lower right
COME_BOX = (140, 110, 165, 130)  # where the new hand lands, at the zone's top


def _points(box: tuple[int, int, int, int]) -> np.ndarray:
    """21 landmarks spread over the inside of ``box`` (frame pixels)."""
    x0, y0, x1, y1 = box
    xs = np.linspace(x0 + 3, x1 - 3, 7)
    ys = np.linspace(y0 + 3, y1 - 3, 3)
    return np.array([(x, y, 0.0) for y in ys for x in xs], np.float32)


def _seen(gesture: str, box: tuple[int, int, int, int]) -> HandSeen:
    centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    return HandSeen(3, gesture, 0.9, 0.9, tuple(map(float, box)), centre, box[1], 1.0, _points(box))


class Finder(OneZoneFinder):
    """Reads each hand wherever it is painted, with landmarks; the arm's path names no one."""

    def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
        out = []
        shown = ((OWN, "palm", LEFT_BOX), (OWN, "relaxed", RIGHT_BOX), (NEW, "thumb_up", COME_BOX))
        for colour, gesture, box in shown:
            x0, y0, x1, y1 = box
            if tuple(frame[(y0 + y1) // 2, (x0 + x1) // 2]) == colour:
                out.append(_seen(gesture, box))
        return out


def _frames(*, right_leaves: bool = False, right_at: tuple[int, int, int, int] = RIGHT_BOX) -> list:
    """Both hands lie in the zone; from frame 20 (0.8 s) a hand lies at its top, its sleeve running out of
    the zone's right edge (``right_leaves``: the right hand goes at the same time, the player's own vote)."""
    out = []
    for i in range(80):
        f = np.full((300, 300, 3), BG, np.uint8)
        f[LEFT_BOX[1] : LEFT_BOX[3], LEFT_BOX[0] : LEFT_BOX[2]] = OWN
        if not (right_leaves and i >= 20):
            f[right_at[1] : right_at[3], right_at[0] : right_at[2]] = OWN
        if i >= 20:
            f[112:128, 165:300] = SLEEVE
            f[COME_BOX[1] : COME_BOX[3], COME_BOX[0] : COME_BOX[2]] = NEW
        out.append(f)
    return out


def _downs(seen: list) -> list[tuple[int, int]]:
    return [(o.seat, o.t) for o in seen if o.kind == "hand_down"]


def test_a_hand_coming_while_both_of_the_players_hands_lie_still_is_a_neighbours_reach() -> None:
    for level in (CLEAN, NOISY):
        seen = watch_frames(level, _frames(), Finder())
        # fails on 0.69: [(3, 800)], the reach counted as seat 3's thumb-up vote
        assert _downs(seen) == [(4, 800)], level  # seat 4's body lies nearest the hand that came


def test_the_players_own_hand_leaving_as_one_comes_is_the_players_vote() -> None:
    for level in (CLEAN, NOISY):
        seen = watch_frames(level, _frames(right_leaves=True), Finder())
        assert _downs(seen) == [(3, 800)], level


def test_a_still_hand_nearer_a_neighbours_body_is_not_the_players() -> None:
    """A hand lying at the zone's right corner, nearer seat 4's body than seat 3's, may be seat 4's own
    rest hand: with it the player has only one hand seen still, and the landing stays the player's."""

    class Corner(Finder):
        def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
            out = [h for h in super().find(frame, seat, zone) if h.gesture != "relaxed"]
            if tuple(frame[110, 190]) == OWN:
                out.append(_seen("relaxed", (182, 100, 198, 120)))
            return out

    for level in (CLEAN, NOISY):
        seen = watch_frames(level, _frames(right_at=(182, 100, 198, 120)), Corner())
        assert _downs(seen) == [(3, 800)], level


def test_a_relaxed_hand_first_read_under_a_passing_arm_lay_there() -> None:
    """The palm is read only once the neighbour's arm passes under the edge of its box: it is no landing."""

    class LateRead(Finder):
        def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
            out = [h for h in super().find(frame, seat, zone) if h.gesture != "thumb_up"]
            if tuple(frame[115, 180]) != SLEEVE:
                out = [h for h in out if h.gesture != "palm"]
            return out

    def frames() -> list[np.ndarray]:
        out = []
        for i, f in enumerate(_frames(right_leaves=False)):
            f[COME_BOX[1] : COME_BOX[3], COME_BOX[0] : COME_BOX[2]] = BG
            if i >= 20:
                f[112:128, 165:300] = SLEEVE
                f[150:152, 100:200] = ELBOW  # the elbow under the top rows of the palm's box
            out.append(f)
        return out

    for level in (CLEAN, NOISY):
        seen = watch_frames(level, frames(), LateRead())
        # fails on 0.69: a "palm" landing at 0.8 s (the sleeve's change is still reported, of unknown shape)
        assert [o.t for o in seen if o.kind == "hand_down" and o.gesture == "palm"] == [], level
