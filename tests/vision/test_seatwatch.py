"""Per-zone timing from pixel motion: hand_down at the first still frame, hand_up at the first moving one.

The landmarker is replaced here by a finder that sees the drawn square (the unit under test is the state
machine, not MediaPipe; the analyser's end-to-end tests use the real model).
"""

from __future__ import annotations

import numpy as np

from vision.handfinder import HandSeen
from vision.seatwatch import ZoneWatcher

ZONE = np.array([[100, 100], [200, 100], [200, 180], [100, 180]], dtype=np.float64)


class SquareFinder:
    """Finds a bright square inside the zone and calls it a hand of ``owner``."""

    def __init__(self, owner: int = 3) -> None:
        self.owner = owner
        self.calls = 0

    def polygon(self, seat: int, zone: str) -> np.ndarray:
        return ZONE

    def find(self, frame: np.ndarray, seat: int, zone: str) -> list[HandSeen]:
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
                "thumb_up",
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
