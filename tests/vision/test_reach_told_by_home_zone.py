"""A neighbour's reach read as the zone player's own landing is given back to the neighbour when the
neighbour's own zone tells it: a resting hand left there just before the landing and came back just after
its lift, with no landing of the neighbour's meanwhile, while none of the zone player's hands left
(``ZoneWatcher.reach_owner``, ``TableWatch.reaches_resolved``).

Noisy LL 4314, zone 6 at 66.56 s: seat 7's pointing reach was read as a "fist" 0.97. Both players wear black,
so the changed arm stopped at the table's edge and pointed 2.8° from seat 6's body, and 0.71 counted it as
seat 6's vote for the candidate then called. Seat 7's rest hand left zone 7 0.44 s before the landing and
came back 0.2 s after the lift. Clean LL 4318, zone 5: the same for seat 4's reach, and seat 5's own late
vote, read only as an "other" 0.8 s after the reach's lift, was dropped as seat 5's hand coming back from it.

Small synthetic frames of two zones side by side; the finder is a stand-in (the units under test are the
watchers' rules).
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.zonefakes import BG, OWN, OneZoneFinder
from vision.handfinder import HandSeen
from vision.seatwatch import Observation, TableWatch

ZONES = {
    3: np.array([[100, 100], [200, 100], [200, 180], [100, 180]], dtype=np.float64),
    4: np.array([[220, 100], [320, 100], [320, 180], [220, 180]], dtype=np.float64),
}
HOME = (265, 140, 295, 165)  # seat 4's resting hand, in zone 4
REACH = (150, 130, 178, 152)  # seat 4's reaching hand, in zone 3
VOTE = (115, 112, 140, 134)  # seat 3's own late vote, at zone 3's top left
VOTE4 = (230, 110, 255, 132)  # seat 4's own vote, in zone 4
REST3 = (105, 150, 130, 175)  # seat 3's resting hand, at zone 3's bottom left
PTS = np.zeros((21, 3), np.float32)


def _paint(f: np.ndarray, box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    f[y0:y1, x0:x1] = OWN


def _painted(frame: np.ndarray, box: tuple[int, int, int, int]) -> bool:
    x0, y0, x1, y1 = box
    return tuple(frame[(y0 + y1) // 2, (x0 + x1) // 2]) == OWN


def _seen(seat: int, gesture: str, conf: float, box: tuple[int, int, int, int]) -> HandSeen:
    b = tuple(float(v) for v in box)
    return HandSeen(seat, gesture, conf, conf, b, ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2), b[1], 1.0, PTS)


class Finder(OneZoneFinder):
    """Two zones; in zone 3 reads the reach as seat 3's "fist" 0.95 (the arm names no one, as black on black
    in the case, unless ``arm_names``) and seat 3's late vote as an "other" 0.5; in zone 4 reads seat 4's own
    vote as a "thumb_up"; nothing else (the resting hands are never read: what tells the reach is their
    places)."""

    def __init__(self, arm_names: int | None = None, *, unread: bool = False) -> None:
        self.arm_names = arm_names
        self.unread = unread  # the hand landing in zone 3 at frame 40 is never read (found by the watcher)

    def arm_owner(
        self, before: np.ndarray, after: np.ndarray, hand: HandSeen, zone_seat: int, *_: object
    ) -> int | None:
        """``arm_names`` for the hand at the reach's place (read, or found unread there), no one elsewhere."""
        x0, y0, x1, y1 = REACH
        return self.arm_names if x0 <= hand.centre[0] <= x1 and y0 <= hand.centre[1] <= y1 else None

    def polygon(self, seat: int, zone: str) -> np.ndarray:
        return ZONES[seat]

    def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
        if seat == 3:
            out = [_seen(3, "fist", 0.95, REACH)] if _painted(frame, REACH) and not self.unread else []
            return out + ([_seen(3, "other", 0.5, VOTE)] if _painted(frame, VOTE) else [])
        return [_seen(4, "thumb_up", 0.9, VOTE4)] if _painted(frame, VOTE4) else []


def _frames(*, home_away: bool = True, votes4: bool = False, rest3: bool = False) -> list[np.ndarray]:
    """130 frames 40 ms apart: seat 4's hand leaves its rest at frame 30 (1.2 s) (``home_away``), lies in
    zone 3 from frame 40 to 70, and is back at its rest from frame 75; seat 3's own late vote lands at frame
    90 (3.6 s). ``votes4``: seat 4's hand lands as a vote in zone 4 meanwhile (frames 35-72) instead of being
    away. ``rest3``: seat 3's resting hand lies in zone 3 and leaves it at frame 30, back at frame 75."""
    out = []
    for i in range(130):
        f = np.full((300, 400, 3), BG, np.uint8)
        if not home_away or not 30 <= i < 75:
            _paint(f, HOME)
        if votes4 and 35 <= i < 72:
            _paint(f, VOTE4)
        if rest3 and not 30 <= i < 75:
            _paint(f, REST3)
        if 40 <= i < 70:
            _paint(f, REACH)
        if i >= 90:
            _paint(f, VOTE)
        out.append(f)
    return out


def _watch(frames: list[np.ndarray], finder: Finder | None = None) -> list[Observation]:
    finder = finder or Finder()
    w = TableWatch(finder, "table_zone", frames[0].shape, seats=(3, 4))  # type: ignore[arg-type]
    obs: list[Observation] = []
    for i, f in enumerate(frames):
        obs.extend(w.feed(f, i * 40))
    return w.reaches_resolved(obs)


def _in_zone3(obs: list[Observation]) -> list[tuple[str, int, str]]:
    return [(o.kind, o.seat, o.gesture) for o in obs if o.zone_seat == 3]


def test_a_reach_whose_hand_left_its_home_zone_and_came_back_is_the_neighbours() -> None:
    obs = _watch(_frames())
    got = _in_zone3(obs)
    assert got[:2] == [("hand_down", 4, "fist"), ("hand_up", 4, "other")]
    # and the zone player's own late vote after the reach's lift is a landing, not a hand coming back
    assert got[2:] == [("hand_down", 3, "other")]
    assert [o.t for o in obs if o.zone_seat == 3 and o.seat == 3] == [3600]


def test_a_neighbour_voting_in_its_own_zone_meanwhile_does_not_make_the_landing_a_reach() -> None:
    # Seat 4's hand went to vote in zone 4: its rest place was bared and covered again as well, but seat 4
    # landed meanwhile, so the landing in zone 3 stays seat 3's (and seat 3's "other" is its hand coming
    # back).
    obs = _watch(_frames(votes4=True))
    assert [(o.kind, o.seat) for o in obs if o.zone_seat == 4][:1] == [("hand_down", 4)]
    assert _in_zone3(obs) == [("hand_down", 3, "fist"), ("hand_up", 3, "other")]


def test_the_zone_players_own_hand_leaving_keeps_the_landing_the_players() -> None:
    # Seat 3's own resting hand left zone 3 as the hand landed: the player's own vote, whatever seat 4's hand
    # did meanwhile.
    obs = _watch(_frames(rest3=True))
    assert _in_zone3(obs)[:2] == [("hand_down", 3, "fist"), ("hand_up", 3, "other")]


def test_no_hand_away_from_the_neighbours_zone_keeps_the_landing_the_players() -> None:
    obs = _watch(_frames(home_away=False))
    assert _in_zone3(obs)[:2] == [("hand_down", 3, "fist"), ("hand_up", 3, "other")]


def test_the_players_own_hand_away_for_the_landings_time_takes_it_back_from_the_neighbour() -> None:
    # Noisy MM 4410, zone 4: the player's own vote, never read, found by the watcher and given to the
    # neighbour by the arm's path, while the player's hand was away from its rest for the landing's time and
    # the neighbour's stayed home.
    obs = _watch(_frames(home_away=False, rest3=True), Finder(arm_names=4, unread=True))
    assert _in_zone3(obs)[:2] == [("hand_down", 3, "other"), ("hand_up", 3, "other")]


def test_the_neighbours_hand_away_too_leaves_the_landing_the_neighbours() -> None:
    obs = _watch(_frames(rest3=True), Finder(arm_names=4, unread=True))
    assert _in_zone3(obs)[:2] == [("hand_down", 4, "other"), ("hand_up", 4, "other")]


def test_a_neighbour_landing_at_home_at_the_same_moment_explains_its_hand_away() -> None:
    # Seat 4's hand left its rest to vote in zone 4, landing on the very frame the hand in zone 3 settled,
    # and both were lifted together: seat 4's away is its own vote, and the landing in zone 3 stays seat 3's.
    frames = _frames(votes4=True)
    for i, f in enumerate(frames):
        if 35 <= i < 40:  # seat 4's vote comes down with the hand in zone 3 (both settle together)
            x0, y0, x1, y1 = VOTE4
            f[y0:y1, x0:x1] = BG
        if 40 <= i < 70:
            x0, y0, x1, y1 = VOTE4
            f[y0:y1, x0:x1] = OWN
        elif i >= 70:
            x0, y0, x1, y1 = VOTE4
            f[y0:y1, x0:x1] = BG
    obs = _watch(frames)
    downs = {(o.zone_seat, o.t) for o in obs if o.kind == "hand_down" and o.t < 3000}
    assert len({t for _, t in downs}) == 1, downs  # the two landings share their time
    assert _in_zone3(obs)[:2] == [("hand_down", 3, "fist"), ("hand_up", 3, "other")]


@pytest.mark.parametrize("at", [55, 66])
def test_a_neighbours_reach_read_again_at_a_later_settle_is_still_the_reach(at: int) -> None:
    # Seat 4's reach, read and given to seat 4 by the arm's path, lies in zone 3 while seat 3's own hand comes
    # down beside it (frame ``at``): the finder reads the reach again, as every hand there, as seat 3's; that
    # is the reach still lying (its owner kept), not a new landing, and its lift is seat 4's, once.
    frames = _frames(home_away=False)
    for f in frames[at:]:
        x0, y0, x1, y1 = VOTE
        f[y0:y1, x0:x1] = OWN
    got = [(o.kind, o.seat, o.gesture, o.t) for o in _watch(frames, Finder(arm_names=4)) if o.zone_seat == 3]
    assert got == [
        ("hand_down", 4, "fist", 1600),
        ("hand_down", 3, "other", at * 40),
        ("hand_up", 4, "other", 2800),
    ]
