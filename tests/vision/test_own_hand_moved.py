"""Session 19 (``vision.seatwatch``, analyser 0.54): two votes lost on noisy video (held-out set V).

- A hand read wholly inside what an unreadable landing covered is that landing, read after all: it no longer
  vetoes the landing (noisy V 2711, zone 5).
- A player's hand that leaves its rest in the zone, and a hand that lands near it in the same movement: the
  player's, whatever sleeve the arm's path saw (noisy V 2712, zone 2). Since 0.55 (session 20) only a hand
  whose place shows the cloth again has left: one a neighbour's arm covers is hidden, and the neighbour's
  reach that landed beside it stays the neighbour's (noisy V 2713, zone 5).

Small synthetic frames and hand readings; the finder is a stand-in (the unit under test is the watcher's
rule, not MediaPipe; the accuracy benchmark runs the real model on noisy renders).
"""

from __future__ import annotations

import numpy as np

from tests.vision.zonefakes import BG, CLEAN, OWN, OneZoneFinder, watch_frames
from tests.vision.zonefakes import hand as own_hand
from vision.handfinder import HandSeen
from vision.noise import NOISY_SIGMA, NoiseLevel, bared_share
from vision.seatwatch import OWN_MOVE, Observation, ZoneWatcher, _moved_here

NOISY = NoiseLevel(2 * NOISY_SIGMA)
CLOTH = (30, 90, 56)
INSIDE, OUTLINE = (120, 60, 40), (20, 20, 20)  # a fist seen from behind: cloth-grey inside, dark outline
REST = (120.0, 104.0, 144.0, 124.0)  # the player's other hand, lying at the zone's top from the start
FIST = (150.0, 140.0, 174.0, 164.0)  # where the vote lands
Box = tuple[float, float, float, float]


def _hand(box: Box, gesture: str, owner: int = 3, inside: float = 1.0) -> HandSeen:
    x0, y0, x1, y1 = box
    return HandSeen(
        owner, gesture, 0.7, 0.7, box, ((x0 + x1) / 2, (y0 + y1) / 2), y0, inside, np.zeros((21, 3))
    )


class LateReadFinder(OneZoneFinder):
    """Reads the rest hand as a "palm" on every look; the landing only on a plain look made after a thorough
    one (the last look of the search for a missed arrival), as ``reads``, wholly inside the zone."""

    def __init__(self, reads: str) -> None:
        self.reads = reads
        self.thorough_looks = 0

    def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
        self.thorough_looks += thorough
        seen = [_hand(REST, "palm")]
        landed = (frame[150, 160] == INSIDE).all()
        if landed and not thorough and self.thorough_looks:
            seen.append(_hand(FIST, self.reads))
        return seen


def _frame(dx: int | None) -> np.ndarray:
    f = np.zeros((300, 300, 3), np.uint8)
    f[:] = CLOTH
    x0, y0, x1, y1 = (int(v) for v in REST)
    f[y0:y1, x0:x1] = (200, 150, 120)
    if dx is not None:
        x0, y0, x1, y1 = (int(v) + dx if i % 2 == 0 else int(v) for i, v in enumerate(FIST))
        f[y0:y1, x0:x1] = OUTLINE
        f[y0 + 2 : y1 - 2, x0 + 2 : x1 - 2] = INSIDE
    return f


def _run(finder: LateReadFinder, path: list[int | None]) -> list[Observation]:
    w = ZoneWatcher(finder, seat=3, zone="table_zone", frame_shape=(300, 300, 3))  # type: ignore[arg-type]
    w.noise = NOISY
    out: list[Observation] = []
    for i, dx in enumerate(path):
        out.extend(w.feed(_frame(dx), i * 40))
    return out


# The fist comes in from the right, still from frame 9 (360 ms), and leaves the same way at frame 49.
LANDS: list[int | None] = [None] * 5 + [90, 60, 30, 10] + [0] * 40
LIFTED = LANDS + [30, 70] + [None] * 30


def test_a_landing_read_wholly_inside_what_came_is_reported_with_its_shape() -> None:
    # Failed on 0.53: the plain look read the landing "other" inside what came, and that reading vetoed the
    # unreadable landing (noisy V 2711, seat 5's re-vote lost with four rounds).
    obs = _run(LateReadFinder("other"), LIFTED)
    assert [(o.kind, o.seat, o.gesture) for o in obs] == [("hand_down", 3, "other"), ("hand_up", 3, "other")]
    assert obs[0].t == 9 * 40 and obs[0].box == FIST and obs[1].t == 49 * 40


def test_the_reading_must_lie_within_what_came() -> None:
    # The same reading shifted half its width off the landing is no reading of it: the veto stands.
    class Shifted(LateReadFinder):
        def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
            return [
                _hand((h.box[0] + 12, h.box[1], h.box[2] + 12, h.box[3]), h.gesture) if h.box == FIST else h
                for h in super().find(frame, seat, zone, thorough=thorough)
            ]

    assert _run(Shifted("other"), LANDS) == []


def test_the_players_hand_that_left_its_rest_takes_back_the_arrival_beside_it() -> None:
    size = 30.0
    left = [_hand((100.0, 150.0, 130.0, 170.0), "fist")]  # the player's fist, gone from its rest
    found = _hand((140.0, 120.0, 150.0, 150.0), "gun")  # landed 1.5 hand lengths away
    named = _hand(found.box, "gun", owner=2)  # ...given to seat 2 by the arm's path
    out = _moved_here([found], [named], left, 3, size)
    assert out[0] is found  # the hand found, followed by identity for its lift
    # Further than OWN_MOVE hand lengths from where the hand rested: the neighbour's reach stays its.
    far = (100.0 + OWN_MOVE * size + 20, 150.0, 130.0 + OWN_MOVE * size + 20, 170.0)
    assert _moved_here([_hand(far, "gun")], [_hand(far, "gun", owner=2)], left, 3, size)[0].owner == 2
    # No hand of the player left: the arm's path stands.
    assert _moved_here([found], [named], [], 3, size)[0].owner == 2
    # One hand left, two arrivals given away: only the nearer comes back.
    near2 = _hand((120.0, 150.0, 130.0, 160.0), "thumb_up")
    out = _moved_here([found, near2], [named, _hand(near2.box, "thumb_up", owner=2)], left, 3, size)
    assert [h.owner for h in out] == [2, 3]


# A neighbour's reach lands just below the player's resting palm, the sleeve across the palm (noisy V 2713).
PALM = (120, 108, 150, 132)
REACH = (126, 142, 150, 166)
SLEEVE, KNUCKLES = (40, 40, 120), (200, 160, 140)
REACHES: list[int | None] = [None] * 5 + [120, 80, 40, 10] + [0] * 30 + [40, 120] + [None] * 30


class ReachFinder(OneZoneFinder):
    """Reads the palm wherever it shows, the fist wherever it shows; the arm's path names seat 4 for the fist
    (its sleeve comes in from seat 4's side)."""

    def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
        out = []
        if (frame[120, 135] == OWN).all():
            out.append(own_hand("palm", 0.9, PALM, 1.0))
        if (frame[154, 138] == KNUCKLES).all():
            out.append(own_hand("fist", 0.9, REACH, 1.0))
        return out

    def arm_owner(
        self, before: np.ndarray, after: np.ndarray, hand: HandSeen, zone_seat: int, *_: object
    ) -> int | None:
        return 4 if hand.gesture == "fist" else None


def _reach_frame(dx: int | None, *, palm: bool, sleeve: tuple[int, int, int, int]) -> np.ndarray:
    f = np.zeros((300, 300, 3), np.uint8)
    f[:] = BG
    if palm:
        x0, y0, x1, y1 = PALM
        f[y0:y1, x0:x1] = OWN
    if dx is not None:
        x0, y0, x1, y1 = sleeve
        f[y0:y1, x0 + dx : x1] = SLEEVE
        x0, y0, x1, y1 = REACH
        f[y0:y1, x0 + dx : x1 + dx] = KNUCKLES
    return f


def test_a_resting_hand_hidden_under_a_neighbours_arm_has_not_left() -> None:
    # Failed on 0.54: the palm, hidden under the sleeve, counted as gone, and the reach landed within
    # OWN_MOVE hand lengths of it, so it became seat 3's vote (noisy V 2713: 1 of 5 rounds right).
    frames = [_reach_frame(dx, palm=True, sleeve=(118, 104, 300, 140)) for dx in REACHES]
    for level in (NOISY, CLEAN):
        obs = watch_frames(level, frames, ReachFinder())
        assert [(o.kind, o.seat, o.zone_seat) for o in obs if o.kind == "hand_down"] == [("hand_down", 4, 3)]
        assert not [o for o in obs if o.seat == 3]


def test_a_resting_hand_that_bared_its_place_has_left() -> None:
    # The palm leaves as the fist lands (its place shows the cloth), the sleeve along the fist only: the
    # player's own move, whatever the sleeve says.
    frames = [_reach_frame(dx, palm=i < 5, sleeve=(150, 146, 300, 162)) for i, dx in enumerate(REACHES)]
    for level in (NOISY, CLEAN):
        obs = watch_frames(level, frames, ReachFinder())
        assert [(o.kind, o.seat, o.t) for o in obs] == [("hand_down", 3, 9 * 40), ("hand_up", 3, 39 * 40)]


def test_bared_share_counts_what_lay_there_not_the_box() -> None:
    # A thin hand (a point, an L) fills little of its box: the share is of what lay there, and every piece of
    # it counts, joined or not (a cuff left lying across the place splits it in two).
    before = np.zeros((60, 60, 3), np.uint8)
    before[:] = CLOTH
    before[10:50, 10:18] = (200, 150, 120)  # the finger, 8 px wide
    before[42:50, 18:40] = (200, 150, 120)  # the foot of the L
    now = before.copy()
    now[10:50, 10:18] = CLOTH
    now[42:50, 18:40] = CLOTH
    now[28:32, 10:18] = (200, 150, 120)  # a strip left across the finger
    box = np.zeros((60, 60), bool)
    box[8:52, 8:42] = True
    share = bared_share(before, now, box, np.array(CLOTH, np.float32), 40.0)
    assert 0.85 <= share < 1.0
    # Nothing but cloth lay there: nothing to bare.
    assert (
        bared_share(now * 0 + np.array(CLOTH, np.uint8), now, box, np.array(CLOTH, np.float32), 40.0) == 0.0
    )
