"""Hand landmarks as numpy arrays, in pixels of the image the caller gave to the landmarker.

MediaPipe's 21 hand joints: the wrist, then four joints per finger from the knuckle out
(thumb: CMC, MCP, IP, TIP; fingers: MCP, PIP, DIP, TIP).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

WRIST = 0
THUMB_CMC, THUMB_MCP, THUMB_IP, THUMB_TIP = 1, 2, 3, 4
INDEX_MCP, INDEX_PIP, INDEX_DIP, INDEX_TIP = 5, 6, 7, 8
MIDDLE_MCP, MIDDLE_PIP, MIDDLE_DIP, MIDDLE_TIP = 9, 10, 11, 12
RING_MCP, RING_PIP, RING_DIP, RING_TIP = 13, 14, 15, 16
PINKY_MCP, PINKY_PIP, PINKY_DIP, PINKY_TIP = 17, 18, 19, 20
NUM_JOINTS = 21

JOINT_NAMES: tuple[str, ...] = (
    "wrist",
    "thumb_cmc",
    "thumb_mcp",
    "thumb_ip",
    "thumb_tip",
    "index_mcp",
    "index_pip",
    "index_dip",
    "index_tip",
    "middle_mcp",
    "middle_pip",
    "middle_dip",
    "middle_tip",
    "ring_mcp",
    "ring_pip",
    "ring_dip",
    "ring_tip",
    "pinky_mcp",
    "pinky_pip",
    "pinky_dip",
    "pinky_tip",
)
# finger name -> its four joint indices, from the base out
FINGERS: dict[str, tuple[int, int, int, int]] = {
    "thumb": (THUMB_CMC, THUMB_MCP, THUMB_IP, THUMB_TIP),
    "index": (INDEX_MCP, INDEX_PIP, INDEX_DIP, INDEX_TIP),
    "middle": (MIDDLE_MCP, MIDDLE_PIP, MIDDLE_DIP, MIDDLE_TIP),
    "ring": (RING_MCP, RING_PIP, RING_DIP, RING_TIP),
    "pinky": (PINKY_MCP, PINKY_PIP, PINKY_DIP, PINKY_TIP),
}
LEFT, RIGHT = 0, 1

FloatArray = npt.NDArray[np.float32]


def _check(name: str, arr: npt.NDArray[np.generic], shape: tuple[int, ...], dtype: type[np.generic]) -> None:
    if arr.shape != shape or arr.dtype != dtype:
        want = "(" + ", ".join("N" if d < 0 else str(d) for d in shape) + ")"
        raise ValueError(f"{name} must be {want} {np.dtype(dtype)}, got {arr.shape} {arr.dtype}")


@dataclass(frozen=True)
class HandLandmarks:
    """N hands found in one image.

    - ``points``: (N, 21, 3) float32: x, y in pixels of the image given to the landmarker (or of the
      frame after :meth:`translate` / :meth:`scale`); z is MediaPipe's depth relative to the wrist,
      scaled like x (pixels; smaller is nearer the camera).
    - ``handedness``: (N,) int8, 0 left, 1 right, as MediaPipe reports it (it assumes a mirrored,
      selfie-style image; for a camera facing the players it names the other hand).
    - ``score``: (N,) float32, MediaPipe's handedness score (0..1).
    - ``world``: optional (N, 21, 3) float32, metric coordinates in metres around the hand's centre.
    """

    points: FloatArray
    handedness: npt.NDArray[np.int8]
    score: FloatArray
    world: FloatArray | None = None

    def __post_init__(self) -> None:
        n = self.points.shape[0] if self.points.ndim == 3 else -1
        _check("points", self.points, (n, NUM_JOINTS, 3), np.float32)
        _check("handedness", self.handedness, (n,), np.int8)
        _check("score", self.score, (n,), np.float32)
        if self.world is not None:
            _check("world", self.world, (n, NUM_JOINTS, 3), np.float32)

    def __len__(self) -> int:
        return int(self.points.shape[0])

    @classmethod
    def empty(cls) -> HandLandmarks:
        return cls(
            points=np.zeros((0, NUM_JOINTS, 3), np.float32),
            handedness=np.zeros(0, np.int8),
            score=np.zeros(0, np.float32),
            world=np.zeros((0, NUM_JOINTS, 3), np.float32),
        )

    @classmethod
    def from_mediapipe(cls, result: Any, width: int, height: int) -> HandLandmarks:
        """Adapt a ``HandLandmarkerResult`` for an image of ``width`` x ``height`` pixels."""
        hands = list(result.hand_landmarks)
        if not hands:
            return cls.empty()
        points = np.array(
            [[(p.x * width, p.y * height, p.z * width) for p in hand] for hand in hands], np.float32
        )
        handedness = np.array(
            [LEFT if cats and cats[0].category_name == "Left" else RIGHT for cats in result.handedness],
            np.int8,
        )
        score = np.array([cats[0].score if cats else 0.0 for cats in result.handedness], np.float32)
        world_list = list(result.hand_world_landmarks)
        world = (
            np.array([[(p.x, p.y, p.z) for p in hand] for hand in world_list], np.float32)
            if len(world_list) == len(hands)
            else None
        )
        return cls(points=points, handedness=handedness, score=score, world=world)

    @classmethod
    def concat(cls, parts: list[HandLandmarks]) -> HandLandmarks:
        """All hands of ``parts`` in one set (``world`` kept only when every part has it)."""
        parts = [p for p in parts if len(p)]
        if not parts:
            return cls.empty()
        worlds = [p.world for p in parts]
        return cls(
            points=np.concatenate([p.points for p in parts]),
            handedness=np.concatenate([p.handedness for p in parts]),
            score=np.concatenate([p.score for p in parts]),
            world=None if any(w is None for w in worlds) else np.concatenate(worlds),  # type: ignore[arg-type]
        )

    def select(self, index: npt.ArrayLike) -> HandLandmarks:
        """The hands picked by an index array or boolean mask."""
        idx = np.asarray(index)
        return HandLandmarks(
            points=self.points[idx].reshape(-1, NUM_JOINTS, 3),
            handedness=self.handedness[idx].reshape(-1),
            score=self.score[idx].reshape(-1),
            world=None if self.world is None else self.world[idx].reshape(-1, NUM_JOINTS, 3),
        )

    def translate(self, dx: float, dy: float) -> HandLandmarks:
        """Shift x and y by (dx, dy) pixels, e.g. from a crop's corner to the frame."""
        pts = self.points.copy()
        pts[..., 0] += dx
        pts[..., 1] += dy
        return HandLandmarks(pts, self.handedness, self.score, self.world)

    def scale(self, sx: float, sy: float | None = None) -> HandLandmarks:
        """Multiply x by ``sx``, y by ``sy`` (default ``sx``) and z by ``sx``."""
        sy = sx if sy is None else sy
        pts = self.points * np.array([sx, sy, sx], np.float32)
        return HandLandmarks(pts.astype(np.float32), self.handedness, self.score, self.world)

    def bboxes(self) -> FloatArray:
        """(N, 4) float32 boxes ``x0, y0, x1, y1`` around each hand's 21 points."""
        if not len(self):
            return np.zeros((0, 4), np.float32)
        lo = self.points[..., :2].min(axis=1)
        hi = self.points[..., :2].max(axis=1)
        return np.concatenate([lo, hi], axis=1).astype(np.float32)
