"""The video's noise estimate, the denoise filter, and the seat watcher's second look on noisy video.

Small synthetic frames; the watcher's finder is a stand-in that sees a bright square only when its pixels
are smooth (the unit under test is the rule, not MediaPipe; the accuracy benchmark runs the real model).
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.zonefakes import OneZoneFinder
from vision.handfinder import HandSeen
from vision.noise import NOISY_SIGMA, NoiseLevel, denoised, measure, noise_sigma, restored_share
from vision.seatwatch import TableWatch, ZoneWatcher


def _noisy(shape: tuple[int, ...], base: float, sigma: float, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.clip(base + rng.normal(0.0, sigma, shape), 0, 255).round().astype(np.uint8)


@pytest.mark.parametrize("sigma", [2.0, 4.0, 8.0])
def test_noise_sigma_measures_gaussian_noise_on_a_flat_picture(sigma: float) -> None:
    est = noise_sigma(_noisy((240, 320), 120.0, sigma))
    # The strongest tenth of the picture's gradients is left out as edges, which trims the noise's tail
    # too: the estimate reads somewhat low, never above the truth.
    assert 0.75 * sigma <= est <= 1.05 * sigma


def test_noise_sigma_ignores_smooth_shading_and_straight_edges() -> None:
    y, x = np.mgrid[0:80, 0:150]
    assert noise_sigma((20 + x + y).astype(np.uint8)) < 0.05
    y, x = np.mgrid[0:240, 0:320]
    blocks = np.where(((x // 40) + (y // 40)) % 2 == 0, 50, 200).astype(np.uint8)
    assert noise_sigma(blocks) < 0.3
    # The same edges with noise read as the noise, not as the edges.
    noise = np.random.default_rng(3).normal(0.0, 3.0, blocks.shape)
    assert 2.2 <= noise_sigma(np.clip(blocks + noise, 0, 255).round().astype(np.uint8)) <= 3.3


def test_noise_sigma_grows_with_the_noise_and_reads_rgb() -> None:
    vals = [noise_sigma(_noisy((120, 160, 3), 100.0, s, seed=1)) for s in (0.0, 1.0, 3.0, 6.0)]
    assert vals == sorted(vals) and vals[0] < 0.05 and vals[-1] > 3.5  # grey mixes three channels: σ 6 → 4.0


def test_noise_sigma_rejects_what_is_not_an_image() -> None:
    with pytest.raises(ValueError, match="3×3"):
        noise_sigma(np.zeros((2, 10), np.uint8))
    with pytest.raises(ValueError, match="shape"):
        noise_sigma(np.zeros((4, 4, 3, 1), np.uint8))


def test_noise_level_threshold_and_checks() -> None:
    assert NoiseLevel(NOISY_SIGMA).noisy and not NoiseLevel(0.9 * NOISY_SIGMA).noisy
    assert measure(_noisy((64, 64), 128.0, 5.0)).noisy
    assert not measure(np.full((64, 64), 128, np.uint8)).noisy
    for bad in (-0.1, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="sigma"):
            NoiseLevel(bad)


def test_denoised_filters_only_the_box() -> None:
    frame = _noisy((120, 160, 3), 120.0, 6.0, seed=2)
    out = denoised(frame, (40, 30, 120, 90))
    assert out.shape == frame.shape and out is not frame
    inside = (slice(30, 90), slice(40, 120))
    assert float(out[inside].astype(np.float32).std()) < 0.6 * float(frame[inside].astype(np.float32).std())
    mask = np.ones(frame.shape[:2], bool)
    mask[inside] = False
    assert np.array_equal(out[mask], frame[mask])


def test_denoised_clips_the_box_and_rejects_grey() -> None:
    frame = _noisy((50, 60, 3), 100.0, 6.0)
    out = denoised(frame, (-20, -20, 500, 500))
    assert out.shape == frame.shape and not np.array_equal(out, frame)
    assert np.array_equal(denoised(frame, (10, 10, 11, 40)), frame)  # too thin to filter: unchanged
    with pytest.raises(ValueError, match="H×W×3"):
        denoised(frame[:, :, 0], (0, 0, 10, 10))


class SmoothSquareFinder(OneZoneFinder):
    """Finds a bright square in the zone only where its pixels are smooth (as the landmarker loses a hand
    under heavy noise); counts its looks."""

    def __init__(self) -> None:
        self.calls = 0

    def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
        self.calls += 1
        sub = frame[100:180, 100:200, 0].astype(np.float32)
        ys, xs = np.nonzero(sub > 170)
        if len(xs) < 200:
            return []
        x0, y0, x1, y1 = xs.min() + 100, ys.min() + 100, xs.max() + 100, ys.max() + 100
        core = frame[y0 + 3 : y1 - 2, x0 + 3 : x1 - 2, 0].astype(np.float32)
        if core.size == 0 or float(core.std()) > 6.0:
            return []
        box = (float(x0), float(y0), float(x1), float(y1))
        centre = ((x0 + x1) / 2, (y0 + y1) / 2)
        return [HandSeen(3, "fist", 0.9, 0.9, box, centre, float(y0), 1.0, np.zeros((21, 3), np.float32))]


def _frames(xs: list[int], sigma: float) -> list[np.ndarray]:
    out = []
    for i, x in enumerate(xs):
        f = np.full((300, 300, 3), 60.0)
        f[120:150, x : x + 30] = 210.0
        rng = np.random.default_rng(100 + i)
        # Noise on the hand only while still on the same frames (a still picture stays the same in a
        # compressed video): the background is flat so the watcher's change detector is not disturbed.
        noise = np.random.default_rng(7).normal(0.0, sigma, (30, 30, 3))
        f[120:150, x : x + 30] += noise if x == xs[-1] else rng.normal(0.0, sigma, (30, 30, 3))
        out.append(np.clip(f, 0, 255).round().astype(np.uint8))
    return out


ARRIVAL = [0, 0, 20, 50, 80, 110, 130, 130, 130, 130, 130]


def _watch(sigma: float, level: float, xs: list[int] = ARRIVAL) -> tuple[list, SmoothSquareFinder]:
    finder = SmoothSquareFinder()
    w = ZoneWatcher(finder, seat=3, zone="table_zone", frame_shape=(300, 300, 3))  # type: ignore[arg-type]
    w.noise = NoiseLevel(level)
    obs = []
    for i, f in enumerate(_frames(xs, sigma)):
        obs.extend(w.feed(f, i * 40))
    return obs, finder


def test_restored_share_tells_a_hand_back_at_its_place_from_one_elsewhere() -> None:
    rng = np.random.default_rng(3)
    cloth = np.full((40, 60, 3), (30, 90, 56), np.uint8)
    before = cloth.copy()
    before[10:25, 10:30] = (230, 200, 180)  # the hand at rest
    part = np.zeros((40, 60), bool)
    part[10:25, 10:30] = True
    noisy = np.clip(before.astype(int) + rng.normal(0, 6, before.shape), 0, 255).astype(np.uint8)
    assert restored_share(before, noisy, part, 40.0) > 0.95  # back, seen through sensor noise
    moved = cloth.copy()
    moved[10:25, 20:40] = (230, 200, 180)  # half of it back over its place
    assert 0.3 < restored_share(before, moved, part, 40.0) < 0.6  # (the blur takes a column at the edge)
    assert restored_share(before, cloth, part, 40.0) == 0.0  # gone: the cloth shows
    with pytest.raises(ValueError, match="empty part"):
        restored_share(before, cloth, np.zeros((40, 60), bool), 40.0)


def test_noisy_video_gets_a_denoised_second_look_that_finds_the_hand() -> None:
    obs, _ = _watch(sigma=12.0, level=2 * NOISY_SIGMA)
    downs = [o for o in obs if o.kind == "hand_down"]
    assert [(o.seat, o.t, o.gesture) for o in downs] == [(3, 6 * 40, "fist")]


def test_clean_video_gets_no_second_look() -> None:
    obs, finder = _watch(sigma=12.0, level=0.5 * NOISY_SIGMA)
    assert not any(o.kind == "hand_down" and o.gesture == "fist" for o in obs)
    _, noisy_finder = _watch(sigma=12.0, level=2 * NOISY_SIGMA)
    assert noisy_finder.calls > finder.calls


def test_a_hand_found_at_once_needs_no_second_look() -> None:
    quiet_obs, quiet = _watch(sigma=0.0, level=0.5 * NOISY_SIGMA)
    obs, noisy = _watch(sigma=0.0, level=2 * NOISY_SIGMA)
    assert [(o.kind, o.t) for o in obs] == [(o.kind, o.t) for o in quiet_obs] == [("hand_down", 6 * 40)]
    # The one extra look is the empty zone at the stretch's first frame; the settle found the hand at once.
    assert noisy.calls == quiet.calls + 1
    _, resting = _watch(sigma=0.0, level=2 * NOISY_SIGMA, xs=[130] * 8)
    assert resting.calls == 1


def test_table_watch_measures_the_video_once_and_tells_its_watchers() -> None:
    from gamelog.layout import Layout, SeatZones
    from vision.handfinder import HandFinder

    def box(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
        return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))

    seats = (SeatZones(1, box(100, 150, 200, 230), box(20, 0, 120, 60), box(30, 230, 90, 290)),)
    finder = HandFinder(Layout((400, 300), seats), tracker=object())  # type: ignore[arg-type]
    watch = TableWatch(finder, "table_zone", (300, 400, 3))
    watch.watchers = []  # the measurement alone (no landmarker here)
    noisy = _noisy((300, 400, 3), 100.0, 5.0)
    watch.feed(noisy, 0)
    assert watch.noise is not None and watch.noise.noisy
    watch.feed(np.full((300, 400, 3), 100, np.uint8), 40)
    assert watch.noise.noisy  # measured on the first frame of the stretch only


class ReturningHandFinder(OneZoneFinder):
    """A fist at x 130 read at once; the same hand back at x 150 is relaxed ("other") and read only by a
    thorough look (as on noisy video, where the settle's first look misses it)."""

    def __init__(self) -> None:
        self.calls = 0

    def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
        self.calls += 1
        ys, xs = np.nonzero(frame[100:180, 100:200, 0] > 170)
        if len(xs) < 200:
            return []
        x0, y0, x1, y1 = xs.min() + 100, ys.min() + 100, xs.max() + 100, ys.max() + 100
        gesture = "fist" if x0 < 140 else "other"
        if gesture == "other" and not thorough:
            return []
        box = (float(x0), float(y0), float(x1), float(y1))
        centre = ((x0 + x1) / 2, (y0 + y1) / 2)
        return [HandSeen(3, gesture, 0.9, 0.9, box, centre, float(y0), 1.0, np.zeros((21, 3), np.float32))]


def _returning(xs: list[int]) -> list:
    finder = ReturningHandFinder()
    w = ZoneWatcher(finder, seat=3, zone="table_zone", frame_shape=(300, 300, 3))  # type: ignore[arg-type]
    obs = []
    for i, f in enumerate(_frames(xs, 0.0)):
        obs.extend(w.feed(f, i * 40))
    return obs


def test_a_relaxed_hand_found_late_right_after_a_lift_is_the_lifts_end() -> None:
    # A fist rests, is lifted (frame 5), and comes back to rest relaxed at frame 9, within RETURN_MS.
    xs = [130] * 5 + [200, 260, 200, 150] + [150] * 20
    obs = _returning(xs)
    assert [(o.kind, o.t) for o in obs] == [("hand_up", 5 * 40)]


def test_a_relaxed_hand_found_late_long_after_a_lift_is_still_reported() -> None:
    xs = [130] * 5 + [200] + [260] * 80 + [200, 150] + [150] * 20
    obs = _returning(xs)
    assert [(o.kind, o.gesture) for o in obs] == [("hand_up", "other"), ("hand_down", "other")]
    assert obs[1].t == 87 * 40


def test_a_few_changed_pixels_beyond_the_hand_are_no_sleeve() -> None:
    """On blurred, compressed video a dark sleeve on a dark cloth may hardly change the picture: what is left
    beyond the hand is a stub (a finger, the hand's blurred edge), too little to read a sleeve's colour
    from. The neighbour whose clothes that stub matches is not named for it; a whole arm still names him."""
    import cv2

    from gamelog.layout import Layout, SeatZones
    from vision.handfinder import HandFinder

    def box(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
        return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))

    seats = (
        SeatZones(1, box(100, 150, 200, 230), box(20, 0, 120, 60), box(30, 230, 90, 290)),
        SeatZones(2, box(210, 150, 300, 230), box(300, 0, 400, 60), box(330, 230, 390, 290)),
    )
    finder = HandFinder(Layout((400, 300), seats), tracker=object())  # type: ignore[arg-type]
    green, blue = (60, 140, 60), (50, 60, 200)
    before = np.full((360, 400, 3), 40, np.uint8)
    cv2.rectangle(before, (35, 290), (85, 340), green, -1)  # seat 1's torso
    cv2.rectangle(before, (335, 290), (385, 340), blue, -1)  # seat 2's torso
    hand_only = before.copy()
    cv2.rectangle(hand_only, (138, 178), (162, 202), (230, 200, 180), -1)
    stub, arm = hand_only.copy(), hand_only.copy()
    cv2.line(stub, (150, 190), (156, 220), blue, 5)
    cv2.line(arm, (150, 190), (210, 330), blue, 14)
    pts = np.zeros((21, 3), np.float32)
    hand = HandSeen(1, "fist", 0.9, 0.9, (138.0, 178.0, 162.0, 202.0), (150.0, 190.0), 178.0, 1.0, pts)
    assert finder.arm_owner(before, stub, hand, zone_seat=1) != 2
    assert finder.arm_owner(before, arm, hand, zone_seat=1) == 2
