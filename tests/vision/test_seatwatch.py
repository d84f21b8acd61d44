"""Per-zone timing from pixel motion: hand_down at the first still frame, hand_up at the first moving one.

The landmarker is replaced here by a finder that sees the drawn square (the unit under test is the state
machine, not MediaPipe; the analyser's end-to-end tests use the real model).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from tests.vision.zonefakes import OneZoneFinder
from vision.handfinder import HandFinder, HandSeen
from vision.seatwatch import ZoneWatcher


class SquareFinder(OneZoneFinder):
    """Finds a bright square inside the zone and calls it a hand of ``owner``."""

    def __init__(self, owner: int = 3, gesture: str = "thumb_up") -> None:
        self.owner = owner
        self.gesture = gesture
        self.calls = 0

    def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
        self.calls += 1
        sub = frame[100:180, 100:200, 0]
        ys, xs = np.nonzero(sub > 200)
        if len(xs) < 50:
            return []
        x0, y0, x1, y1 = xs.min() + 100, ys.min() + 100, xs.max() + 100, ys.max() + 100
        pts = np.zeros((21, 3), np.float32)
        return [
            HandSeen(
                self.owner,
                self.gesture,
                0.9,
                0.9,
                (x0, y0, x1, y1),
                ((x0 + x1) / 2, (y0 + y1) / 2),
                y0,
                1.0,
                pts,
            )
        ]


def frames(path_x: list[int], y: int = 120) -> list[np.ndarray]:
    out = []
    for x in path_x:
        f = np.full((300, 300, 3), 40, np.uint8)
        if x is not None:
            f[y : y + 30, x : x + 30] = 230
        out.append(f)
    return out


def run(xs: list[int], finder: SquareFinder | None = None) -> list:
    finder = finder or SquareFinder()
    w = ZoneWatcher(finder, seat=3, zone="table_zone", frame_shape=(300, 300, 3))  # type: ignore[arg-type]
    obs = []
    for i, f in enumerate(frames(xs)):
        obs.extend(w.feed(f, i * 40))
    return obs


def test_hand_arrives_and_rests_gives_hand_down_at_first_still_frame() -> None:
    # Off to the left, moves in over frames 2..6, rests from frame 6 on.
    xs = [0, 0, 20, 50, 80, 110, 130, 130, 130, 130, 130]
    obs = run(xs)
    assert [(o.kind, o.t) for o in obs] == [("hand_down", 6 * 40)]
    assert obs[0].seat == 3 and obs[0].gesture == "thumb_up"


def test_hand_leaving_gives_hand_up_at_first_moving_frame() -> None:
    xs = [130] * 5 + [150, 200, 260, 270, 270, 270, 270]
    obs = run(xs)
    assert [(o.kind, o.t) for o in obs] == [("hand_up", 5 * 40)]


def test_resting_hand_at_stretch_start_is_not_a_new_vote() -> None:
    obs = run([130] * 12)
    assert obs == []


def test_hand_passing_through_without_stopping_gives_nothing() -> None:
    xs = [0, 30, 60, 90, 120, 150, 180, 210, 240, 260, 260, 260, 260]
    obs = run(xs)
    assert all(o.kind != "hand_down" or o.t >= 9 * 40 for o in obs)
    assert not any(o.kind == "hand_down" for o in obs)


def test_owner_comes_from_the_finder() -> None:
    obs = run([0, 0, 40, 80, 120, 130, 130, 130], SquareFinder(owner=4))
    assert obs and obs[0].seat == 4 and obs[0].zone_seat == 3


def test_landmarker_runs_only_around_movements() -> None:
    finder = SquareFinder()
    run([0, 0, 20, 50, 80, 110, 130] + [130] * 40, finder)
    assert finder.calls <= 3


def _two_seat_finder() -> HandFinder:
    from gamelog.layout import Layout, SeatZones

    def box(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
        return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))

    seats = (
        SeatZones(1, box(100, 150, 200, 230), box(20, 0, 120, 60), box(30, 230, 90, 290)),  # body lower left
        SeatZones(2, box(210, 150, 300, 230), box(300, 0, 400, 60), box(330, 230, 390, 290)),  # lower right
    )
    return HandFinder(Layout((400, 300), seats), tracker=object())  # type: ignore[arg-type]


def _hand_at(cx: float, cy: float) -> HandSeen:
    pts = np.zeros((21, 3), np.float32)
    return HandSeen(
        1, "thumb_up", 0.9, 0.9, (cx - 12, cy - 12, cx + 12, cy + 12), (cx, cy), cy - 12, 1.0, pts
    )


def test_arm_path_names_the_neighbour_who_reached_in() -> None:
    import cv2

    finder = _two_seat_finder()
    before = np.full((300, 400, 3), 40, np.uint8)
    after = before.copy()
    hand = _hand_at(150, 190)
    cv2.rectangle(after, (138, 178), (162, 202), (230, 200, 180), -1)
    # The sleeve runs from the hand down and to the right, towards seat 2's head (360, 260).
    cv2.line(after, (150, 190), (330, 250), (90, 60, 200), 14)
    assert finder.arm_owner(before, after, hand, zone_seat=1) == 2
    # The same hand with its arm running towards seat 1's body belongs to seat 1.
    own = before.copy()
    cv2.rectangle(own, (138, 178), (162, 202), (230, 200, 180), -1)
    cv2.line(own, (150, 190), (70, 250), (90, 60, 200), 14)
    assert finder.arm_owner(before, own, hand, zone_seat=1) == 1


def test_arm_path_says_nothing_without_an_arm() -> None:
    import cv2

    finder = _two_seat_finder()
    before = np.full((300, 400, 3), 40, np.uint8)
    after = before.copy()
    cv2.rectangle(after, (138, 178), (162, 202), (230, 200, 180), -1)
    assert finder.arm_owner(before, after, _hand_at(150, 190), zone_seat=1) is None


class FlakyFinder(SquareFinder):
    """Misses the hand on its first looks at the still picture, as MediaPipe does with small fists."""

    def __init__(self, misses: int) -> None:
        super().__init__()
        self.misses = misses

    def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
        found = super().find(frame, seat, zone)
        if found and self.misses > 0:
            self.misses -= 1
            return []
        return found


def test_a_hand_missed_at_the_settle_is_found_again_and_timed_to_the_settle() -> None:
    xs = [0, 0, 20, 50, 80, 110, 130] + [130] * 14
    obs = run(xs, FlakyFinder(misses=2))  # the stretch start looks once (empty zone), then misses once
    assert [(o.kind, o.t) for o in obs] == [("hand_down", 6 * 40)]


def test_no_recheck_forever_when_nothing_arrived() -> None:
    finder = SquareFinder()
    xs = [130] * 3 + [131] * 30  # a resting hand shifts by a pixel: no arrival, a few thorough looks only
    run(xs, finder)
    assert finder.calls <= 1 + 1 + 6 + 1


def test_a_relaxed_hand_resting_at_the_start_leaving_is_no_lift() -> None:
    """Only votes (or voting shapes) are followed for lifts; a hand at rest moving away is not one."""
    xs = [130] * 5 + [150, 200, 260, 270, 270, 270, 270]
    assert run(xs, SquareFinder(gesture="palm")) == []


class BlobFinder(SquareFinder):
    """Each bright blob in the zone is a hand (a voting fist)."""

    def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
        import cv2

        self.calls += 1
        sub = (frame[100:180, 100:200, 0] > 200).astype(np.uint8)
        n, _, stats, cents = cv2.connectedComponentsWithStats(sub)
        out = []
        for k in range(1, n):
            x, y, w, h, area = stats[k]
            if area < 50 or x == 0 or x + w >= 100:
                continue  # only blobs wholly inside the zone
            box = (float(x + 100), float(y + 100), float(x + w + 100), float(y + h + 100))
            c = (float(cents[k][0] + 100), float(cents[k][1] + 100))
            out.append(HandSeen(3, "thumb_up", 0.9, 0.9, box, c, box[1], 1.0, np.zeros((21, 3), np.float32)))
        return out


def test_a_hand_is_timed_by_its_own_stillness_not_by_another_moving_in_the_zone() -> None:
    frames_ = []
    for i in range(26):
        f = np.full((300, 300, 3), 40, np.uint8)
        x = min(120, 10 + 22 * i)  # the voter's fist: still from frame 5 on
        f[110:130, x : x + 20] = 230
        if 3 <= i <= 14:  # a neighbour's hand passes along the bottom of the zone until frame 14
            y = 150
            xn = 100 + 8 * (i - 3)
            f[y : y + 15, xn : xn + 15] = 230
        frames_.append(f)
    finder = BlobFinder()
    w = ZoneWatcher(finder, seat=3, zone="table_zone", frame_shape=(300, 300, 3))  # type: ignore[arg-type]
    obs = [o for i, f in enumerate(frames_) for o in w.feed(f, i * 40)]
    downs = [(o.kind, o.t) for o in obs if o.kind == "hand_down"]
    assert downs == [("hand_down", 5 * 40)]


class BlindFinder(SquareFinder):
    """A landmarker that never reads the hand (a fist seen from behind)."""

    def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
        self.calls += 1
        return []


def test_a_landing_the_landmarker_cannot_read_is_reported_with_low_confidence() -> None:
    xs = [0, 0, 20, 50, 80, 110, 130] + [130] * 20
    obs = run(xs, BlindFinder())
    assert [(o.kind, o.t, o.gesture) for o in obs] == [("hand_down", 6 * 40, "other")]
    assert obs[0].conf < 0.5  # the referee lists it for the judge


def test_something_leaving_the_zone_is_no_unseen_landing() -> None:
    xs = [130] * 4 + [160, 200, 250, 280] + [280] * 20
    assert run(xs, BlindFinder()) == []


def test_an_unreadable_landing_that_leaves_gives_its_hand_up() -> None:
    xs = [0, 0, 20, 50, 80, 110, 130] + [130] * 16 + [160, 200, 250, 280] + [280] * 6
    obs = run(xs, BlindFinder())
    assert [(o.kind, o.t) for o in obs] == [("hand_down", 6 * 40), ("hand_up", 23 * 40)]


def test_a_relaxed_hand_coming_back_right_after_a_lift_is_not_a_landing() -> None:
    class ShapeFinder(SquareFinder):
        """A fist at the voting place (x 130), a relaxed hand at the resting place (x 105)."""

        def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
            found = super().find(frame, seat, zone)
            return [dataclasses.replace(h, gesture="thumb_up" if h.box[0] >= 120 else "palm") for h in found]

    xs = [0, 0, 40, 80, 110, 130] + [130] * 8 + [120, 110, 105] + [105] * 10
    obs = run(xs, ShapeFinder())
    assert [o.kind for o in obs] == ["hand_down", "hand_up"]


def test_an_unreadable_hand_back_right_after_a_lift_is_not_a_landing() -> None:
    """The voter's fist (read) leaves the zone and the relaxed hand comes back to rest where the landmarker
    cannot read it: the end of the lift, not a new landing. Long after a lift it is one (for review)."""

    class FistOnly(SquareFinder):
        def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
            return [h for h in super().find(frame, seat, zone) if h.box[0] >= 120]

    land = [0, 0, 40, 80, 110, 130] + [130] * 8
    leave = [160, 220, 280] + [280] * 3
    back = [220, 160, 105] + [105] * 16
    obs = run(land + leave + back, FistOnly())
    assert [o.kind for o in obs] == ["hand_down", "hand_up"]
    later = run(land + leave + [280] * 70 + back, FistOnly())
    assert [(o.kind, o.gesture) for o in later] == [
        ("hand_down", "thumb_up"),
        ("hand_up", "other"),
        ("hand_down", "other"),
    ]


def test_an_unreadable_landing_brought_by_a_neighbours_arm_is_the_neighbours() -> None:
    class NeighbourArm(BlindFinder):
        def arm_owner(
            self, before: np.ndarray, after: np.ndarray, hand: HandSeen, zone_seat: int, *_: object
        ) -> int:
            return 4

    obs = run([0, 0, 20, 50, 80, 110, 130] + [130] * 16 + [160, 200, 250, 280] + [280] * 6, NeighbourArm())
    assert [(o.kind, o.seat, o.zone_seat) for o in obs] == [("hand_down", 4, 3), ("hand_up", 4, 3)]


def test_a_hand_lying_in_a_raise_zone_missed_at_the_start_is_no_shot() -> None:
    """The detector misses a hand lying in the raise zone on the stretch's first frame; a head moving in
    the zone later makes the zone active and the hand is found then: its place has not changed, so it is
    no raise. A hand that does rise there is one."""
    out = []
    for rising in (False, True):
        finder = FlakyFinder(misses=1)
        w = ZoneWatcher(finder, seat=3, zone="raise_zone", frame_shape=(300, 300, 3))  # type: ignore[arg-type]
        obs = []
        for i in range(30):
            f = np.full((300, 300, 3), 40, np.uint8)
            y = 120 if not rising else max(120, 170 - 12 * max(0, i - 5))
            # the hand (lying, or rising from below the zone's middle), 0.7 hand lengths across: a raised
            # thumb-up a whole hand length square is no hand (see RAISE_MAX_THICK)
            f[y : y + 22, 130:152] = 230
            if 5 <= i <= 12:  # a head (darker, unseen by the finder) moving in the zone
                f[150:175, 100 + 8 * (i - 5) : 125 + 8 * (i - 5)] = 120
            obs.extend(w.feed(f, i * 40))
        out.append([o.kind for o in obs])
    assert out == [[], ["shot_raise"]]


def test_the_sleeve_colour_names_the_neighbour_whose_arm_reached_in() -> None:
    """Where the arm's direction cannot tell two bodies apart, its colour can: it is the colour of the
    neighbour's clothes, not of the zone's own player's. Dressed alike, the colour decides nothing."""
    import cv2

    finder = _two_seat_finder()
    green, blue = (60, 140, 60), (50, 60, 200)

    def scene(own: tuple[int, int, int], other: tuple[int, int, int], arm: tuple[int, int, int]) -> tuple:
        before = np.full((360, 400, 3), 40, np.uint8)
        cv2.rectangle(before, (35, 290), (85, 340), own, -1)  # seat 1's torso (below its head zone)
        cv2.rectangle(before, (335, 290), (385, 340), other, -1)  # seat 2's torso
        after = before.copy()
        cv2.rectangle(after, (138, 178), (162, 202), (230, 200, 180), -1)
        cv2.line(after, (150, 190), (210, 330), arm, 14)  # straight down: between the two bodies
        return before, after

    hand = _hand_at(150, 190)
    assert finder.arm_owner(*scene(green, blue, blue), hand, zone_seat=1) == 2
    assert finder.arm_owner(*scene(green, blue, green), hand, zone_seat=1) != 2
    assert finder.arm_owner(*scene(blue, blue, blue), hand, zone_seat=1) != 2


def test_a_fist_landing_while_another_hand_leaves_is_looked_for_again() -> None:
    """A relaxed hand leaves the zone while a fist lands elsewhere in it, and the quick look at the settle
    misses the fist (MediaPipe passes over it): what changed is more than the hand that left, so the watcher
    looks again, thoroughly, and times the fist to the settle."""

    class HiddenFist(BlobFinder):
        def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
            found = super().find(frame, seat, zone)
            shaped = [dataclasses.replace(h, gesture="palm" if h.box[0] < 130 else "thumb_up") for h in found]
            return shaped if thorough else [h for h in shaped if h.gesture == "palm"]

    frames_ = []
    for i in range(30):
        f = np.full((300, 300, 3), 40, np.uint8)
        xr = 105 - 25 * max(0, i - 3)  # the relaxed hand leaves to the left from frame 4
        if xr >= 0:
            f[150:170, max(0, xr) : xr + 20] = 230
        xf = max(150, 290 - 30 * max(0, i - 3))  # the fist comes in from the right, still from frame 8
        f[110:130, xf : min(300, xf + 20)] = 230
        frames_.append(f)
    finder = HiddenFist()
    w = ZoneWatcher(finder, seat=3, zone="table_zone", frame_shape=(300, 300, 3))  # type: ignore[arg-type]
    obs = [o for i, f in enumerate(frames_) for o in w.feed(f, i * 40)]
    assert [(o.kind, o.t, o.gesture) for o in obs] == [("hand_down", 8 * 40, "thumb_up")]


def test_a_hand_back_where_it_rested_when_the_stretch_began_is_no_landing() -> None:
    """A relaxed hand resting at the zone's edge goes away (a reach into the neighbour's zone) and comes back
    to the same place: not a vote, whether the landmarker reads it (a palm) or not. A voting fist placed
    there is one, and a relaxed hand landing at a new place is reported (for the judge)."""
    rest, away = [105] * 4 + [140, 200, 260] + [280] * 30, [220, 160, 105] + [105] * 16
    assert run(rest + away, SquareFinder(gesture="palm")) == []
    assert run(rest + away, BlindFinder()) == []
    assert [o.kind for o in run(rest + away, SquareFinder(gesture="thumb_up"))] == ["hand_up", "hand_down"]
    elsewhere = [220, 160, 130] + [130] * 16
    assert [o.kind for o in run(rest + elsewhere, SquareFinder(gesture="palm"))] == ["hand_down"]


def test_a_relaxed_hand_found_only_on_a_second_look_after_a_lift_is_not_a_landing() -> None:
    """The voter's fist leaves; the relaxed hand comes back to rest and the quick look at the settle misses
    it (found on the thorough look a frame later): still the end of the lift, as at a settle."""

    class Shaped(SquareFinder):
        def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
            found = super().find(frame, seat, zone)
            if found and found[0].box[0] < 120:
                return [dataclasses.replace(h, gesture="palm") for h in found] if thorough else []
            return found

    land = [0, 0, 40, 80, 110, 130] + [130] * 8
    leave = [160, 220, 280] + [280] * 3
    back = [220, 160, 105] + [105] * 16
    assert [o.kind for o in run(land + leave + back, Shaped())] == ["hand_down", "hand_up"]


def test_the_arm_is_compared_with_the_picture_from_before_it_set_off() -> None:
    """The zone sees a hand only when it enters; the arm's path is judged against the picture from
    ARM_BEFORE_MS before that, when a neighbour's arm had not yet crossed the frame."""
    from vision.seatwatch import ARM_BEFORE_MS

    seen: list[int] = []

    class Recorder(SquareFinder):
        def arm_owner(
            self, before: np.ndarray, after: np.ndarray, hand: HandSeen, zone_seat: int, *_: object
        ) -> None:
            seen.append(int(before[0, 0, 1]))  # each frame is stamped with its number
            return None

    finder = Recorder()
    w = ZoneWatcher(finder, seat=3, zone="table_zone", frame_shape=(300, 300, 3))  # type: ignore[arg-type]
    xs = [None] * 40 + [0, 20, 50, 80, 110, 130] + [130] * 6
    for i, f in enumerate(frames(xs)):
        f[0, 0, 1] = i
        w.feed(f, i * 40)
    start = 40 + 3  # the first frame that changed inside the zone (x 80 reaches it)
    assert seen and start - seen[0] >= ARM_BEFORE_MS / 40 - 1
    assert start - seen[0] <= ARM_BEFORE_MS / 40 + 8  # not from long before either


def _raise_watch(hands_per_frame: list[list[tuple[int, int, int]]]) -> list:
    """A raise zone whose finder reports (owner, x, top) hands, drawn as squares so the zone is active."""

    class Listed(SquareFinder):
        i = 0

        def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
            out = []
            for owner, x, top in hands_per_frame[min(Listed.i, len(hands_per_frame) - 1)]:
                box = (float(x), float(top), float(x + 20), float(top + 20))
                out.append(
                    HandSeen(
                        owner,
                        "gun",
                        0.9,
                        0.9,
                        box,
                        (x + 10.0, top + 10.0),
                        float(top),
                        1.0,
                        np.zeros((21, 3)),
                    )
                )
            return out

    finder = Listed()
    w = ZoneWatcher(finder, seat=3, zone="raise_zone", frame_shape=(300, 300, 3))  # type: ignore[arg-type]
    obs = []
    for i, hands in enumerate(hands_per_frame):
        Listed.i = i
        f = np.full((300, 300, 3), 40, np.uint8)
        for _, x, top in hands:
            f[top : top + 20, x : x + 20] = 230
        if not hands and any(hands_per_frame[:i]):
            f[160:175, 100 + 10 * i : 115 + 10 * i] = 120  # an arm moving on (no hand): the zone stays active
        obs.extend(w.feed(f, i * 40))
    return obs


def test_a_neighbours_hand_rising_through_the_zone_does_not_hide_the_players_raise() -> None:
    """Two players raise together: the neighbour's hand passes higher through this zone and leaves it;
    the zone player's own hand rises after it and holds. Both raises are reported, the player's whole."""
    empty: list[tuple[int, int, int]] = []
    frames_ = [empty] * 3
    frames_ += [[(4, 150, 150)], [(4, 150, 120)], [(4, 155, 100)]]  # the neighbour's hand, leaving upwards
    frames_ += [empty] * 3
    frames_ += [[(3, 120, 170 - 12 * k)] for k in range(5)]  # the player's own hand rises to 122
    frames_ += [[(3, 120, 122)]] * 8
    obs = _raise_watch(frames_)
    got = sorted((o.seat, o.partial) for o in obs if o.kind == "shot_raise")
    assert got == [(3, False), (4, True)]
    own = next(o for o in obs if o.seat == 3)
    assert own.box is not None and own.box[1] == 122


def test_one_hand_followed_through_the_zone_gives_one_raise() -> None:
    empty: list[tuple[int, int, int]] = []
    frames_ = [empty] * 3 + [[(3, 120, 170 - 12 * k)] for k in range(5)] + [[(3, 120, 122)]] * 8
    assert [o.seat for o in _raise_watch(frames_) if o.kind == "shot_raise"] == [3]


def test_a_resting_fist_the_landmarker_misses_once_has_not_left() -> None:
    """Another hand moves in the zone and leaves; at that settle the landmarker passes over the voter's fist,
    which has not moved: no lift. A fist that does leave gives its hand_up."""

    class MissesTheFistOnce(BlobFinder):
        looks = 0

        def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
            found = super().find(frame, seat, zone)
            if len(found) == 1 and found[0].box[0] == 150 and frame[165, 105, 0] < 100:
                MissesTheFistOnce.looks += 1
                if MissesTheFistOnce.looks == 2:
                    return []
            return found

    def scene(fist_leaves: bool) -> list:
        frames_ = []
        for i in range(50):
            f = np.full((300, 300, 3), 40, np.uint8)
            xf = max(150, 290 - 35 * i) if not (fist_leaves and i >= 30) else min(300, 150 + 40 * (i - 29))
            f[110:130, xf : min(300, xf + 20)] = 230  # the voter's fist, still from frame 4
            if 12 <= i <= 20:  # another hand passes along the bottom of the zone and leaves
                xn = 100 + 20 * (i - 12)
                f[160:175, xn : xn + 15] = 230
            frames_.append(f)
        MissesTheFistOnce.looks = 0
        w = ZoneWatcher(MissesTheFistOnce(), seat=3, zone="table_zone", frame_shape=(300, 300, 3))  # type: ignore[arg-type]
        return [(o.kind, o.t) for i, f in enumerate(frames_) for o in w.feed(f, i * 40)]

    assert [k for k, _ in scene(False)] == ["hand_down"]
    assert [k for k, _ in scene(True)] == ["hand_down", "hand_up"]
