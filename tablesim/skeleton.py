"""Hand kinematics for tablesim: 21 joints per pose, in MediaPipe's landmark order.

Hand frame (units of ``hand_len``, the wrist → middle fingertip distance with the fingers straight):
origin at the wrist; +y from the wrist toward the middle-finger MCP (distal); +x toward the thumb side of a
RIGHT hand; +z out of the PALM (palmar). A left hand is the mirror image (x → -x).

Note: the first draft of this API had +z dorsal. With +x toward the thumb and +y distal that frame is
left-handed for a right hand, so a proper rotation into the (right-handed) camera frame would have drawn a
mirrored hand. +z palmar makes the right hand's frame right-handed; everything else is unchanged.

Camera frame: x right, y down, z away from the camera (into the scene). ``rotation(yaw, pitch, roll)`` maps
the hand frame into it. At (0, 0, 0) the hand stands upright with the fingers pointing up in the image and
the palm facing the camera (a right hand's thumb is then on the image's right). Then, in this order:
yaw turns the hand about the image's vertical axis (180 shows the back of the hand), pitch tips the
fingertips away from the camera (90 lays an upright hand flat, fingers pointing into the scene), roll turns
it in the image plane (clockwise on screen for positive roll).

Proportions follow published adult hand anthropometry: palm (wrist → middle MCP) ≈ 0.48 of the hand
length, palm breadth ≈ 0.45, finger lengths index : middle : ring : little ≈ 0.89 : 1 : 0.94 : 0.74,
phalanges proximal : middle : distal ≈ 0.47 : 0.29 : 0.24 of each finger.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

POSES = ("relaxed", "thumb_up", "gun", "palm", "flat", "point", "fist")

FINGERS = ("thumb", "index", "middle", "ring", "pinky")
_PARTS = [("cmc", "mcp", "ip", "tip")] + [("mcp", "pip", "dip", "tip")] * 4
JOINT_NAMES: tuple[str, ...] = (
    "wrist",
    *(f"{finger}_{part}" for finger, parts in zip(FINGERS, _PARTS, strict=True) for part in parts),
)
# First joint index of each finger's chain of four joints.
CHAIN_START = {"thumb": 1, "index": 5, "middle": 9, "ring": 13, "pinky": 17}

# MCP joint centres (x, y, z) in the hand frame, hand_len = 1.
_MCP = {
    "index": (0.105, 0.470, 0.0),
    "middle": (0.0, 0.480, 0.0),
    "ring": (-0.097, 0.458, 0.0),
    "pinky": (-0.184, 0.418, 0.0),
}
_FINGER_LEN = {"index": 0.462, "middle": 0.520, "ring": 0.489, "pinky": 0.385}
_PHALANX_RATIO = (0.47, 0.29, 0.24)
_THUMB_CMC = (0.115, 0.115, 0.035)
_THUMB_LEN = (0.215, 0.160, 0.135)  # metacarpal, proximal phalanx, distal phalanx + pad

# Per pose: spread (deg, + toward the thumb) and flexion (MCP, PIP, DIP; deg, + toward the palm) per finger.
_Flex = tuple[float, float, float]
_CURLED: dict[str, _Flex] = {
    "index": (86.0, 100.0, 62.0),
    "middle": (88.0, 102.0, 62.0),
    "ring": (90.0, 104.0, 62.0),
    "pinky": (92.0, 106.0, 60.0),
}
_SPREAD: dict[str, dict[str, float]] = {
    "relaxed": {"index": 5.0, "middle": 0.0, "ring": -5.0, "pinky": -10.0},
    "palm": {"index": 13.0, "middle": 2.0, "ring": -9.0, "pinky": -21.0},
    "flat": {"index": -2.0, "middle": 0.0, "ring": 2.0, "pinky": 3.0},
    "curled": {"index": 2.0, "middle": 0.0, "ring": -3.0, "pinky": -6.0},
}
_FLEX: dict[str, dict[str, _Flex]] = {
    "relaxed": {
        "index": (18.0, 28.0, 14.0),
        "middle": (22.0, 34.0, 16.0),
        "ring": (26.0, 38.0, 18.0),
        "pinky": (30.0, 42.0, 18.0),
    },
    "palm": dict.fromkeys(("index", "middle", "ring", "pinky"), (-4.0, 2.0, 2.0)),
    "flat": dict.fromkeys(("index", "middle", "ring", "pinky"), (0.0, 2.0, 2.0)),
    "fist": _CURLED,
    "thumb_up": _CURLED,
    "gun": {**_CURLED, "index": (4.0, 4.0, 2.0)},
    "point": {**_CURLED, "index": (2.0, 2.0, 2.0)},
}
# Thumb: the direction of each of its three bones (metacarpal, proximal, distal) and the way its nail faces.
_ThumbDirs = tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]
_THUMB: dict[str, tuple[_ThumbDirs, tuple[float, float, float]]] = {
    "relaxed": (((0.55, 0.75, 0.38), (0.45, 0.85, 0.28), (0.30, 0.93, 0.22)), (0.7, 0.0, -0.7)),
    "palm": (((0.70, 0.68, 0.22), (0.80, 0.60, 0.05), (0.78, 0.62, -0.02)), (0.3, -0.2, -0.9)),
    "flat": (((0.52, 0.82, 0.22), (0.40, 0.91, 0.08), (0.30, 0.95, 0.02)), (0.4, 0.0, -0.9)),
    "thumb_up": (((0.50, 0.78, 0.38), (0.80, 0.55, 0.22), (0.90, 0.42, 0.10)), (0.0, 0.3, -0.95)),
    "gun": (((0.48, 0.80, 0.36), (0.72, 0.66, 0.20), (0.78, 0.62, 0.10)), (0.0, 0.3, -0.95)),
    "fist": (((0.35, 0.72, 0.60), (-0.45, 0.52, 0.73), (-0.85, 0.30, 0.40)), (0.0, 0.9, 0.4)),
    "point": (((0.35, 0.72, 0.60), (-0.45, 0.52, 0.73), (-0.85, 0.30, 0.40)), (0.0, 0.9, 0.4)),
}


@dataclass(frozen=True)
class HandModel:
    """Joints plus what a renderer needs to dress them.

    joints: (21, 3) float64 hand-frame positions (MediaPipe order).
    dorsal: (21, 3) float64 unit vectors; row j is the nail/back-of-hand direction of the bone that ENDS at
        joint j (row 0 and the chain roots are the palm's dorsal direction).
    """

    joints: np.ndarray
    dorsal: np.ndarray

    def __post_init__(self) -> None:
        for name in ("joints", "dorsal"):
            arr = getattr(self, name)
            if arr.shape != (21, 3):
                raise ValueError(f"HandModel.{name} must have shape (21, 3), got {arr.shape}")


def _unit(v: np.ndarray) -> np.ndarray:
    return np.asarray(v / np.linalg.norm(v), dtype=np.float64)


def hand_model(
    pose: str,
    *,
    left: bool = False,
    hand_len: float = 1.0,
    jitter: float = 0.0,
    rng: np.random.Generator | None = None,
) -> HandModel:
    """The posed hand: joints and bone orientations in the hand frame (see module docstring).

    jitter scales random perturbations of the joint angles (1.0 ≈ ±6° flexion, ±3° spread); the same
    ``rng`` state gives the same hand. Without ``rng`` a fixed seed is used, so calls are deterministic.
    """
    if pose not in POSES:
        raise ValueError(f"unknown hand pose {pose!r}; expected one of {', '.join(POSES)}")
    if hand_len <= 0:
        raise ValueError(f"hand_len must be positive, got {hand_len}")
    if jitter < 0:
        raise ValueError(f"jitter must be >= 0, got {jitter}")
    if jitter > 0 and rng is None:
        rng = np.random.default_rng(0)
    joints = np.zeros((21, 3))
    dorsal = np.tile([0.0, 0.0, -1.0], (21, 1))
    spread_key = pose if pose in _SPREAD else "curled"
    for finger in ("index", "middle", "ring", "pinky"):
        start = CHAIN_START[finger]
        spread = np.radians(_SPREAD[spread_key][finger])
        flex = np.radians(np.array(_FLEX[pose][finger]))
        if rng is not None and jitter > 0:
            spread = spread + np.radians(3.0 * jitter) * rng.uniform(-1, 1)
            flex = flex + np.radians(6.0 * jitter) * rng.uniform(-1, 1, 3)
        fwd = np.array([np.sin(spread), np.cos(spread), 0.0])
        palmar = np.array([0.0, 0.0, 1.0])
        pos = np.array(_MCP[finger], dtype=np.float64)
        joints[start] = pos
        for bone in range(3):
            c, s = np.cos(flex[bone]), np.sin(flex[bone])
            fwd, palmar = c * fwd + s * palmar, -s * fwd + c * palmar
            pos = pos + fwd * _FINGER_LEN[finger] * _PHALANX_RATIO[bone]
            joints[start + bone + 1] = pos
            dorsal[start + bone + 1] = -palmar
    dirs, nail = _THUMB[pose]
    pos = np.array(_THUMB_CMC, dtype=np.float64)
    joints[1] = pos
    nail_v = np.array(nail, dtype=np.float64)
    for bone in range(3):
        d = np.array(dirs[bone], dtype=np.float64)
        if rng is not None and jitter > 0:
            d = d + 0.08 * jitter * rng.uniform(-1, 1, 3)
        d = _unit(d)
        pos = pos + d * _THUMB_LEN[bone]
        joints[2 + bone] = pos
        dorsal[2 + bone] = _unit(nail_v - d * float(nail_v @ d) + 1e-9)
    joints *= hand_len
    if left:
        joints[:, 0] *= -1.0
        dorsal[:, 0] *= -1.0
    return HandModel(joints=joints, dorsal=dorsal)


def hand_joints(
    pose: str,
    *,
    left: bool = False,
    hand_len: float = 1.0,
    jitter: float = 0.0,
    rng: np.random.Generator | None = None,
) -> np.ndarray:
    """(21, 3) float64 joint positions of ``pose`` in the hand frame, MediaPipe order (see JOINT_NAMES)."""
    return hand_model(pose, left=left, hand_len=hand_len, jitter=jitter, rng=rng).joints


def _rx(a: float) -> np.ndarray:
    c, s = np.cos(a), np.sin(a)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def _ry(a: float) -> np.ndarray:
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def _rz(a: float) -> np.ndarray:
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


# Neutral: fingers up in the image (hand +y → camera -y), palm toward the camera (+z → camera -z).
_NEUTRAL = np.array([[1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, -1.0]])


def rotation(yaw: float, pitch: float, roll: float) -> np.ndarray:
    """Degrees → (3, 3) rotation matrix taking hand-frame vectors to camera-frame vectors.

    ``R = Rz(roll) @ Rx(-pitch) @ Ry(yaw) @ NEUTRAL`` with the camera axes: see the module docstring.
    Positive pitch moves the fingertips away from the camera; positive roll turns clockwise on screen.
    """
    return np.asarray(_rz(np.radians(roll)) @ _rx(-np.radians(pitch)) @ _ry(np.radians(yaw)) @ _NEUTRAL)


def angles_from_rotation(rot: np.ndarray) -> tuple[float, float, float]:
    """(yaw, pitch, roll) in degrees with ``rotation(yaw, pitch, roll) == rot``; pitch in [-90, 90].

    Lets a scene build an orientation as a matrix (e.g. a hand lying on a table seen by an elevated camera)
    and still use the angle-keyed ``SpriteCache``.
    """
    q = np.asarray(rot, dtype=np.float64) @ _NEUTRAL.T
    pitch = np.degrees(np.arcsin(np.clip(-q[2, 1], -1.0, 1.0)))
    yaw = np.degrees(np.arctan2(-q[2, 0], q[2, 2]))
    roll = np.degrees(np.arctan2(-q[0, 1], q[1, 1]))
    return float(yaw), float(pitch), float(roll)


def hand_in_world(
    distal: np.ndarray | tuple[float, float, float], palmar: np.ndarray | tuple[float, float, float]
) -> np.ndarray:
    """(3, 3) hand frame → world frame matrix for a hand whose fingers point along ``distal`` and whose palm
    faces ``palmar`` (world vectors; ``palmar`` is made orthogonal to ``distal``). Right-hand convention: the
    thumb side is distal × palmar; a left hand uses the same matrix (its geometry is mirrored)."""
    y = np.asarray(distal, dtype=np.float64)
    y = y / np.linalg.norm(y)
    z = np.asarray(palmar, dtype=np.float64)
    z = z - y * float(z @ y)
    norm = np.linalg.norm(z)
    if norm < 1e-9:
        raise ValueError("palmar direction must not be parallel to the distal direction")
    z = z / norm
    return np.stack([np.cross(y, z), y, z], axis=1)


def camera_from_world(elevation: float) -> np.ndarray:
    """(3, 3) world → camera matrix for a camera looking horizontally along world +Y, tilted down by
    ``elevation`` degrees. World: X right, Y away from the camera along the table, Z up."""
    e = np.radians(elevation)
    x = np.array([1.0, 0.0, 0.0])
    z = np.array([0.0, np.cos(e), -np.sin(e)])
    return np.stack([x, np.cross(z, x), z], axis=0)
