"""The gesture classifier on constructed hands: each gesture, rotated, mirrored, scaled."""

from __future__ import annotations

import math

import numpy as np
import pytest

from vision.gestures import GESTURES, classify, classify_hands, features
from vision.landmarks import HandLandmarks

# Canonical hand in image coordinates (y down), fingers pointing up, seen from the palm side.
MCP = {"index": (-25, -80), "middle": (-5, -85), "ring": (15, -80), "pinky": (32, -70)}
BONES = {"index": (35, 22, 18), "middle": (38, 25, 19), "ring": (35, 23, 18), "pinky": (28, 18, 16)}
STRAIGHT = (5.0, 5.0, 5.0)
CURLED = (80.0, 100.0, 70.0)
HALF = (45.0, 45.0, 30.0)
UP_Z = np.array([0.0, 0.0, -1.0])  # towards the camera


def finger(name: str, flex: tuple[float, float, float]) -> list[np.ndarray]:
    base = np.array([*MCP[name], 0.0])
    axis = base / np.linalg.norm(base)
    pts, p, theta = [base], base, 0.0
    for length, f in zip(BONES[name], flex, strict=True):
        theta += math.radians(f)
        p = p + length * (math.cos(theta) * axis + math.sin(theta) * UP_Z)
        pts.append(p)
    return pts


def thumb(state: str) -> list[np.ndarray]:
    cmc = np.array([-30.0, -25.0, 0.0])
    if state == "tucked":  # lying across the curled fingers
        return [
            cmc,
            np.array([-35.0, -45.0, -10.0]),
            np.array([-15.0, -58.0, -28.0]),
            np.array([8.0, -58.0, -32.0]),
        ]
    if state == "folded":  # folded into the open palm ("four")
        return [
            cmc,
            np.array([-30.0, -45.0, -8.0]),
            np.array([-15.0, -62.0, -12.0]),
            np.array([0.0, -72.0, -10.0]),
        ]
    d = np.array([-0.95, -0.3, 0.0]) if state == "out" else np.array([-0.75, -0.65, 0.0])
    d /= np.linalg.norm(d)
    return [cmc + d * s for s in (0.0, 30.0, 55.0, 77.0)]


SHAPES: dict[str, tuple[str, tuple[tuple[float, float, float], ...]]] = {
    # name: (thumb, flex of index, middle, ring, pinky)
    "thumb_up": ("out", (CURLED, CURLED, CURLED, CURLED)),
    "fist": ("tucked", (CURLED, CURLED, CURLED, CURLED)),
    "gun": ("out", (STRAIGHT, CURLED, CURLED, CURLED)),
    "gun2": ("out", (STRAIGHT, STRAIGHT, CURLED, CURLED)),
    "point": ("tucked", (STRAIGHT, CURLED, CURLED, CURLED)),
    "palm": ("spread", (STRAIGHT, STRAIGHT, STRAIGHT, STRAIGHT)),
    "victory": ("tucked", (STRAIGHT, STRAIGHT, CURLED, CURLED)),
    "four": ("folded", (STRAIGHT, STRAIGHT, STRAIGHT, STRAIGHT)),
    "claw": ("spread", (HALF, HALF, HALF, HALF)),
    "call": ("out", (CURLED, CURLED, CURLED, STRAIGHT)),
    "rock": ("tucked", (STRAIGHT, CURLED, CURLED, STRAIGHT)),
}


def hand(shape: str, *, angle: float = 0.0, mirror: bool = False, scale: float = 1.0) -> np.ndarray:
    """21 x 3 landmarks of ``shape``, rotated by ``angle`` degrees in the image plane (clockwise on
    screen), mirrored left-right, scaled, and moved to (500, 400)."""
    t, flexes = SHAPES[shape]
    pts = [np.zeros(3), *thumb(t)]
    for name, flex in zip(("index", "middle", "ring", "pinky"), flexes, strict=True):
        pts.extend(finger(name, flex)[0:4])
    p = np.array(pts, dtype=np.float64)
    assert p.shape == (21, 3)
    a = math.radians(angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    p[:, :2] = p[:, :2] @ rot.T
    if mirror:
        p[:, 0] = -p[:, 0]
    return p * scale + np.array([500.0, 400.0, 0.0])


# the thumb of the canonical "out" thumb points left; 90° clockwise on screen turns it up
THUMB_UP_ANGLE = 90.0 - math.degrees(math.atan2(0.3, 0.95))


@pytest.mark.parametrize(
    ("shape", "angle", "expected"),
    [
        ("thumb_up", THUMB_UP_ANGLE, "thumb_up"),
        ("fist", 0, "fist"),
        ("gun", 0, "gun"),
        ("gun2", 0, "gun"),
        ("point", 0, "point"),
        ("palm", 0, "palm"),
        ("victory", 0, "other"),
        ("four", 0, "other"),
        ("claw", 0, "other"),
        ("call", 0, "other"),
        ("rock", 0, "other"),
        ("thumb_up", THUMB_UP_ANGLE + 180, "other"),  # thumb down
        ("thumb_up", THUMB_UP_ANGLE + 90, "other"),  # thumb sideways
        ("thumb_up", THUMB_UP_ANGLE - 90, "other"),
    ],
)
def test_constructed_shapes(shape: str, angle: float, expected: str) -> None:
    res = classify(hand(shape, angle=angle))
    assert res.gesture == expected, res.scores
    assert set(res.scores) == set(GESTURES)
    assert sum(res.scores.values()) == pytest.approx(1.0, abs=1e-3)
    assert 0.0 <= res.conf <= 1.0 and res.conf == max(res.scores.values())
    if expected != "other":
        assert res.conf > 0.8


@pytest.mark.parametrize("shape", ["fist", "gun", "gun2", "point", "palm", "victory", "four"])
@pytest.mark.parametrize("mirror", [False, True])
def test_rotation_and_mirror_invariance(shape: str, mirror: bool) -> None:
    expected = classify(hand(shape)).gesture
    for angle in range(0, 360, 30):
        res = classify(hand(shape, angle=angle, mirror=mirror))
        assert res.gesture == expected, (angle, res.scores)


@pytest.mark.parametrize("mirror", [False, True])
@pytest.mark.parametrize("tilt", [-40, -20, 0, 20, 40])
def test_thumb_up_holds_near_upright_and_mirrored(tilt: float, mirror: bool) -> None:
    res = classify(hand("thumb_up", angle=THUMB_UP_ANGLE + tilt, mirror=mirror))
    assert res.gesture == "thumb_up", res.scores


def test_thumb_up_turns_to_other_as_the_thumb_goes_down() -> None:
    labels = [classify(hand("thumb_up", angle=THUMB_UP_ANGLE + t)).gesture for t in range(0, 181, 15)]
    assert labels[0] == "thumb_up" and labels[-1] == "other"
    first_other = labels.index("other")
    assert all(g == "other" for g in labels[first_other:]), labels
    assert 45 <= 15 * first_other <= 90


def test_image_up_decides_what_up_means() -> None:
    down = hand("thumb_up", angle=THUMB_UP_ANGLE + 180)
    assert classify(down).gesture == "other"
    assert classify(down, image_up=(0.0, 1.0)).gesture == "thumb_up"  # a camera mounted upside down


@pytest.mark.parametrize("scale", [0.05, 1.0, 20.0])
def test_scale_invariance(scale: float) -> None:
    assert classify(hand("gun", scale=scale)).gesture == "gun"
    assert classify(hand("fist", scale=scale)).gesture == "fist"


def test_world_like_coordinates_in_metres() -> None:
    metres = (hand("point") - np.array([500.0, 400.0, 0.0])) * 0.001
    assert classify(metres).gesture == "point"


def test_two_dimensional_landmarks_work() -> None:
    assert classify(hand("palm")[:, :2]).gesture == "palm"


def test_bad_and_degenerate_input() -> None:
    with pytest.raises(ValueError, match="21, 3"):
        classify(np.zeros((20, 3)))
    bad = hand("fist")
    bad[3, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        classify(bad)
    flat = classify(np.zeros((21, 3)))
    assert flat.gesture == "other" and flat.conf == 0.0
    assert features(np.zeros((21, 3))) is None


def test_features_are_what_the_docstring_says() -> None:
    f = features(hand("gun"))
    assert f is not None
    assert f.bend[0] < 30 and all(b > 200 for b in f.bend[1:])
    assert f.reach[0] > 1.6 and all(r < 1.3 for r in f.reach[1:])
    assert f.thumb_gap > 0.6
    g = features(hand("fist"))
    assert g is not None and g.thumb_gap < 0.35


def test_classify_hands_gives_one_result_per_hand() -> None:
    pts = np.stack([hand("fist"), hand("palm")]).astype(np.float32)
    hands = HandLandmarks(pts, np.array([0, 1], np.int8), np.ones(2, np.float32))
    assert [r.gesture for r in classify_hands(hands)] == ["fist", "palm"]


@pytest.mark.parametrize("shape", ["fist", "gun", "point", "palm", "victory"])
def test_robust_to_landmark_jitter(shape: str) -> None:
    """Jitter of 3% of the palm size on every coordinate of every joint changes the reading in at most
    1 of 40 random rotations, mirrorings and jitters (at 4% an open palm starts to fall to `other`:
    each of its four fingers must read as straight)."""
    rng = np.random.default_rng(7)
    expected = classify(hand(shape)).gesture
    misses = 0
    for _ in range(40):
        p = hand(shape, angle=float(rng.uniform(0, 360)), mirror=bool(rng.integers(2)))
        p += rng.normal(0.0, 0.03 * 80.0, p.shape)  # palm size here is about 80 px
        misses += classify(p).gesture != expected
    assert misses <= 1


def test_thumb_up_robust_to_jitter() -> None:
    rng = np.random.default_rng(11)
    misses = 0
    for _ in range(40):
        p = hand("thumb_up", angle=THUMB_UP_ANGLE + float(rng.uniform(-30, 30)), mirror=bool(rng.integers(2)))
        p += rng.normal(0.0, 0.03 * 80.0, p.shape)
        misses += classify(p).gesture != "thumb_up"
    assert misses <= 1
