"""Whose hand came to rest in a table zone, from where it came (``vision.handtrack``,
``HandFinder.track_owner`` and the zone watcher's use of it): the landed hand is followed back to its
owner's place.

Small synthetic frames on a two-seat layout: seat 1's body lower left, seat 2's lower right, hands 30 px
squares. The "landmarker" is scripted: each frame is stamped with its number, and a look returns the
scripted hands inside the square it is asked about. Each watcher case is one failure traced on a tuning
seed (bench/RESULTS.md, "Session 5: attribution"): the arm's rule alone gives the wrong owner there.
"""

from __future__ import annotations

import numpy as np
import pytest

from gamelog.layout import Layout, SeatZones
from vision.handfinder import HandFinder, HandSeen
from vision.handtrack import HandPath, follow_back, home_seat
from vision.seatwatch import ZoneWatcher

BG, SKIN, HAND = 40, 230, 30.0
Point = tuple[float, float]


def _box(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


LAYOUT = Layout(
    (400, 360),
    (
        SeatZones(1, _box(100, 150, 200, 230), _box(20, 0, 120, 60), _box(30, 230, 90, 290)),
        SeatZones(2, _box(210, 150, 300, 230), _box(300, 0, 400, 60), _box(330, 230, 390, 290)),
    ),
)
# Along seat 1's line (its zone's centre to its body) and seat 2's.
REST_1, REST_2 = (110.0, 246.0), (307.0, 252.0)


def _glide(a: Point, b: Point, start: int, frames: int, total: int) -> list[Point]:
    """A hand resting at ``a``, moving to ``b`` over ``frames`` frames from frame ``start``, then resting."""
    out = []
    for i in range(total):
        u = float(np.clip((i - start) / frames, 0.0, 1.0))
        out.append((a[0] + u * (b[0] - a[0]), a[1] + u * (b[1] - a[1])))
    return out


class Scripted(HandFinder):
    """A real finder (its layout, homes and rules) whose landmarker is a script: ``hands[i]`` lists where the
    hands are in frame ``i`` (``seen[i]``, if given, the ones a look finds there); ``arm`` is what the arm's
    rule says."""

    def __init__(
        self, hands: list[list[Point]], arm: int | None, seen: list[list[Point]] | None = None
    ) -> None:
        super().__init__(LAYOUT, tracker=object(), hand_px=HAND)  # type: ignore[arg-type]
        self.hands, self.seen, self.arm = hands, seen if seen is not None else hands, arm
        self.looks = 0

    def frame(self, i: int) -> np.ndarray:
        img = np.full((360, 400, 3), BG, np.uint8)
        img[0, 0, 1] = i
        for x, y in self.hands[i]:
            img[int(y) - 7 : int(y) + 8, int(x) - 7 : int(x) + 8] = SKIN
        return img

    def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
        out = []
        for x, y in self.seen[int(frame[0, 0, 1])]:
            if 100 <= x <= 200 and 150 <= y <= 230:
                pts = np.zeros((21, 3), np.float32)
                box = (x - 7, y - 7, x + 7, y + 7)
                out.append(HandSeen(seat, "thumb_up", 0.9, 0.9, box, (x, y), y - 7, 1.0, pts))
        return out

    def hands_near(self, frame: np.ndarray, centre: Point, side: float) -> np.ndarray:
        self.looks += 1
        found = [
            p
            for p in self.seen[int(frame[0, 0, 1])]
            if abs(p[0] - centre[0]) <= side / 2 and abs(p[1] - centre[1]) <= side / 2
        ]
        return np.array(found, np.float64).reshape(-1, 2)

    def arm_owner(
        self, before: np.ndarray, after: np.ndarray, hand: HandSeen, zone_seat: int, *_: object
    ) -> int | None:
        return self.arm


def _watch(finder: Scripted) -> list[tuple[str, int, int]]:
    w = ZoneWatcher(finder, seat=1, zone="table_zone", frame_shape=(360, 400, 3))
    out = []
    for i in range(len(finder.hands)):
        out += [(o.kind, o.seat, o.zone_seat) for o in w.feed(finder.frame(i), i * 40)]
    return out


def test_an_own_vote_is_the_own_players_though_the_arm_names_a_neighbour() -> None:
    """Seeds 602 and 610: seat 4's (5's) fist came from its own right-hand rest, but the changed pixels
    taken for its arm pointed at (were coloured like) the neighbour, and the vote became a reach. The hand
    followed back starts at the own player's place."""
    vote = _glide(REST_1, (165.0, 195.0), 12, 11, 30)
    finder = Scripted([[p] for p in vote], arm=2)
    assert _watch(finder) == [("hand_down", 1, 1)]
    assert finder.looks >= 3


def test_a_reach_is_the_reachers_though_the_arm_names_the_zones_player() -> None:
    """Seed 603: seat 10's pointing hand reached into zone 9; its arm's direction and colour did not name
    seat 10, so it counted as seat 9's vote. Followed back, it comes from seat 10's place."""
    reach = _glide(REST_2, (190.0, 195.0), 12, 16, 34)
    assert _watch(Scripted([[p] for p in reach], arm=None)) == [("hand_down", 2, 1)]


def test_without_a_path_the_arm_still_decides() -> None:
    """A hand the landmarker cannot follow (found only once landed) keeps the arm's verdict."""
    reach = _glide(REST_2, (190.0, 195.0), 12, 16, 34)
    landed = [[p] if i >= 30 else [] for i, p in enumerate(reach)]
    assert _watch(Scripted([[p] for p in reach], arm=2, seen=landed)) == [("hand_down", 2, 1)]
    assert _watch(Scripted([[p] for p in reach], arm=None, seen=landed)) == [("hand_down", 1, 1)]


def test_the_path_does_not_jump_to_a_resting_hand() -> None:
    """Seed 603 at 46.6 s: the travelling fist was not found mid-way, and the nearest hand one look earlier
    was a resting one. A hand lying in the crop after the landing is never the travelling one."""
    vote = _glide(REST_1, (165.0, 195.0), 12, 11, 30)
    resting = (175.0, 240.0)  # a hand at rest, lying there throughout
    hands = [[p, resting] for p in vote]
    seen = [[resting] if 15 <= i <= 18 else [p, resting] for i, p in enumerate(vote)]
    finder = Scripted(hands, arm=None, seen=seen)
    frames = [(-1, finder.frame(29))] + [(i * 40, finder.frame(i)) for i in range(28, 0, -4)]
    path = follow_back(frames, (165.0, 195.0), HAND, finder.hands_near)
    assert path is not None
    assert all(float(np.hypot(*(p - np.array(resting)))) > 10 for p in path.places)
    assert float(np.hypot(*(path.origin - np.array(REST_1)))) < 1.0


def test_an_origin_where_a_hand_still_lies_is_no_origin() -> None:
    """The look at the landing missed a hand lying near it; one look earlier the path linked to it. Its
    place has not emptied since, so the path is not trusted."""
    lying = (140.0, 240.0)
    hands = [[(165.0, 195.0), lying]] * 10
    seen = [[(165.0, 195.0)]] + [[lying]] * 9
    finder = Scripted(hands, arm=None, seen=seen)
    frames = [(i * 40, finder.frame(i)) for i in range(10)]
    assert follow_back(frames, (165.0, 195.0), HAND, finder.hands_near) is None


def test_the_origin_names_a_seat_only_when_clearly_on_its_side() -> None:
    finder = Scripted([[]], arm=None)
    homes = {s: (finder.polygon(s, "table_zone").mean(axis=0), finder._anchors[s]) for s in (1, 2)}

    def path(origin: Point) -> HandPath:
        return HandPath(np.array([(190.0, 195.0), origin]), (-1, 0))

    assert home_seat(path(REST_1), homes, HAND) == 1
    assert home_seat(path(REST_2), homes, HAND) == 2
    assert home_seat(path((205.0, 260.0)), homes, HAND) is None  # between the two seats
    assert home_seat(path((195.0, 200.0)), homes, HAND) is None  # it hardly moved


def test_hand_path_checks_its_shapes() -> None:
    with pytest.raises(ValueError, match="N, 2"):
        HandPath(np.zeros((0, 2)), ())
    with pytest.raises(ValueError, match="times"):
        HandPath(np.zeros((2, 2)), (1,))
