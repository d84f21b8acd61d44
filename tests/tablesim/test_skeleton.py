"""Hand kinematics: joint layout per pose, proportions, mirroring, rotations."""

from __future__ import annotations

import numpy as np
import pytest

from tablesim.skeleton import (
    CHAIN_START,
    JOINT_NAMES,
    POSES,
    angles_from_rotation,
    camera_from_world,
    hand_in_world,
    hand_joints,
    rotation,
)

TIPS = {"thumb": 4, "index": 8, "middle": 12, "ring": 16, "pinky": 20}
FOUR = ("index", "middle", "ring", "pinky")


def chain_length(j: np.ndarray, finger: str) -> float:
    s = CHAIN_START[finger]
    return float(sum(np.linalg.norm(j[s + i + 1] - j[s + i]) for i in range(3)))


def is_curled(j: np.ndarray, finger: str) -> bool:
    """A curled finger's tip has come back toward the wrist past its own MCP and lies on the palm side."""
    s = CHAIN_START[finger]
    return bool(j[s + 3, 1] < j[s, 1] and j[s + 3, 2] > 0.05)


def is_straight(j: np.ndarray, finger: str) -> bool:
    s = CHAIN_START[finger]
    return bool(np.linalg.norm(j[s + 3] - j[s]) > 0.97 * chain_length(j, finger))


def test_joint_names_follow_mediapipe_order() -> None:
    assert len(JOINT_NAMES) == 21
    assert JOINT_NAMES[:5] == ("wrist", "thumb_cmc", "thumb_mcp", "thumb_ip", "thumb_tip")
    assert JOINT_NAMES[5:9] == ("index_mcp", "index_pip", "index_dip", "index_tip")
    assert JOINT_NAMES[9] == "middle_mcp" and JOINT_NAMES[13] == "ring_mcp" and JOINT_NAMES[20] == "pinky_tip"


@pytest.mark.parametrize("pose", POSES)
def test_every_pose_has_the_frame_anchors(pose: str) -> None:
    j = hand_joints(pose)
    assert j.shape == (21, 3) and j.dtype == np.float64
    assert np.allclose(j[0], 0.0)  # wrist at the origin
    assert abs(j[9, 0]) < 1e-9 and abs(j[9, 2]) < 1e-9 and j[9, 1] > 0.4  # middle MCP on +y
    # The thumb is on the +x side of a right hand, the little finger on the -x side.
    assert j[1, 0] > 0.05 and j[2, 0] > 0.05 and j[17, 0] < -0.1


def test_hand_length_and_proportions_of_the_flat_hand() -> None:
    j = hand_joints("flat", hand_len=2.0)
    assert np.linalg.norm(j[12] - j[0]) == pytest.approx(2.0, rel=0.01)
    palm = np.linalg.norm(j[9] - j[0]) / 2.0
    assert 0.44 < palm < 0.52  # wrist → middle MCP ≈ 0.48 hand length
    lengths = {f: chain_length(j, f) / 2.0 for f in FOUR}
    assert lengths["middle"] > lengths["ring"] > lengths["index"] > lengths["pinky"]
    assert lengths["index"] / lengths["middle"] == pytest.approx(0.89, abs=0.03)
    assert lengths["pinky"] / lengths["middle"] == pytest.approx(0.74, abs=0.04)
    s = CHAIN_START["middle"]
    bones = [np.linalg.norm(j[s + i + 1] - j[s + i]) for i in range(3)]
    assert bones[0] > bones[1] > bones[2]  # proximal > middle > distal phalanx


def test_thumb_up_is_a_fist_with_the_thumb_standing_out() -> None:
    j = hand_joints("thumb_up")
    assert all(is_curled(j, f) for f in FOUR)
    others = np.delete(j, [1, 2, 3, 4], axis=0)
    # Resting on the little-finger side, "up" is +x: the thumb tip clears the whole fist by a margin.
    assert j[4, 0] > others[:, 0].max() + 0.15
    thumb_bones = np.linalg.norm(j[3] - j[2]) + np.linalg.norm(j[4] - j[3])
    assert np.linalg.norm(j[4] - j[2]) > 0.97 * thumb_bones  # and it is held straight


@pytest.mark.parametrize("pose", ["gun", "point"])
def test_index_is_extended_and_the_rest_curled(pose: str) -> None:
    j = hand_joints(pose)
    assert is_straight(j, "index")
    assert all(is_curled(j, f) for f in ("middle", "ring", "pinky"))
    assert j[8, 1] > max(j[TIPS[f], 1] for f in ("middle", "ring", "pinky")) + 0.3


def test_gun_cocks_the_thumb_and_point_tucks_it() -> None:
    gun, point = hand_joints("gun"), hand_joints("point")
    assert gun[4, 0] > gun[5, 0] + 0.15  # thumb up, clear of the index knuckle
    assert point[4, 0] < point[5, 0]  # thumb folded across toward the middle finger
    assert point[4, 2] > 0.15  # on the palm side of the curled fingers


def test_fist_folds_every_fingertip() -> None:
    j = hand_joints("fist")
    assert all(is_curled(j, f) for f in FOUR)
    assert j[4, 0] < j[5, 0] and j[4, 2] > 0.15  # thumb across the front of the fingers


@pytest.mark.parametrize("pose", ["palm", "flat"])
def test_open_hands_are_straight_and_palm_is_spread(pose: str) -> None:
    j = hand_joints(pose)
    assert all(is_straight(j, f) for f in FOUR)
    gaps = np.abs(np.diff(j[[8, 12, 16, 20], 0]))  # sideways distance between neighbouring fingertips
    if pose == "palm":
        assert gaps.min() > 0.14  # spread
    else:
        assert gaps.max() < 0.095  # together (a fingertip is ~0.075 wide)


def test_relaxed_curls_gently() -> None:
    j = hand_joints("relaxed")
    for f in FOUR:
        assert not is_straight(j, f) and not is_curled(j, f)


def test_left_hand_is_the_mirror_image() -> None:
    for pose in POSES:
        right, left = hand_joints(pose), hand_joints(pose, left=True)
        assert np.allclose(left[:, 0], -right[:, 0]) and np.allclose(left[:, 1:], right[:, 1:])


def test_jitter_is_seeded_and_bounded() -> None:
    a = hand_joints("relaxed", jitter=1.0, rng=np.random.default_rng(5))
    b = hand_joints("relaxed", jitter=1.0, rng=np.random.default_rng(5))
    c = hand_joints("relaxed", jitter=1.0, rng=np.random.default_rng(6))
    assert np.array_equal(a, b) and not np.allclose(a, c)
    assert np.max(np.linalg.norm(a - hand_joints("relaxed"), axis=1)) < 0.12
    assert np.array_equal(
        hand_joints("relaxed", jitter=0.0, rng=np.random.default_rng(1)), hand_joints("relaxed")
    )


def test_bad_arguments_are_named() -> None:
    with pytest.raises(ValueError, match="thumbs_down"):
        hand_joints("thumbs_down")
    with pytest.raises(ValueError, match="hand_len"):
        hand_joints("fist", hand_len=0.0)


@pytest.mark.parametrize(
    "angles", [(0, 0, 0), (30, -20, 45), (180, 89, -170), (-75, 10, 300), (12.5, -60, 7)]
)
def test_rotation_is_proper_and_round_trips(angles: tuple[float, float, float]) -> None:
    r = rotation(*angles)
    assert np.allclose(r @ r.T, np.eye(3)) and np.linalg.det(r) == pytest.approx(1.0)
    assert np.allclose(rotation(*angles_from_rotation(r)), r)


def test_rotation_axes_mean_what_the_docstring_says() -> None:
    distal, palmar = np.array([0.0, 1.0, 0.0]), np.array([0.0, 0.0, 1.0])
    assert np.allclose(rotation(0, 0, 0) @ distal, [0, -1, 0])  # fingers up in the image
    assert np.allclose(rotation(0, 0, 0) @ palmar, [0, 0, -1])  # palm toward the camera
    assert np.allclose(rotation(180, 0, 0) @ palmar, [0, 0, 1])  # back of the hand toward the camera
    assert np.allclose(rotation(0, 90, 0) @ distal, [0, 0, 1])  # fingertips tipped away from the camera
    assert np.allclose(rotation(0, 0, 90) @ distal, [1, 0, 0])  # clockwise on screen: up → right
    # Thumb on the image's right for a right palm facing the camera.
    assert (rotation(0, 0, 0) @ hand_joints("palm")[4])[0] > 0.3


def test_world_helpers_lay_a_hand_on_the_table() -> None:
    world = hand_in_world((0.0, 1.0, 0.0), (0.0, 0.0, -1.0))  # palm down, fingers away from the camera
    assert np.linalg.det(world) == pytest.approx(1.0)
    assert np.allclose(world @ [1.0, 0.0, 0.0], [-1.0, 0.0, 0.0])  # a right thumb on the left
    top_down = camera_from_world(90.0) @ world
    assert np.allclose(top_down @ [0.0, 0.0, 1.0], [0.0, 0.0, 1.0])  # the palm faces away from the camera
    with pytest.raises(ValueError):
        hand_in_world((0.0, 1.0, 0.0), (0.0, 2.0, 0.0))
