"""The MediaPipe hand landmarker behind one small class, :class:`HandTracker`.

One tracker per worker thread or process: a MediaPipe task is **not thread-safe** (give each worker
its own tracker, or serve one tracker from a single-worker executor). Close it explicitly, or use it
as a context manager: MediaPipe's own ``__del__`` prints errors when it runs at interpreter exit.

MediaPipe's native code logs to stderr (LiteRT "INFO:" lines on creation, glog warnings on the first
frame) and no environment variable silences all of it. With ``quiet=True`` (the default) the tracker
captures the process's stderr while it creates the task, runs its first frame and closes it, and
replays what was captured only when that step fails. Set ``MAFIACAM_MP_VERBOSE=1`` to see everything.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import Any, Literal

os.environ.setdefault("GLOG_minloglevel", "2")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import mediapipe as mp
import numpy as np
import numpy.typing as npt
from mediapipe.tasks.python import vision as mp_vision
from mediapipe.tasks.python.core.base_options import BaseOptions

from vision.landmarks import HandLandmarks
from vision.models import hand_model_path

Mode = Literal["image", "video"]
_stderr_lock = threading.Lock()

# MediaPipe's own defaults are 0.5. Life-size hands (40-60 px at 1080p) in a seat crop often score just
# under that; at 0.3 the rendered-hand benchmark finds 90.5% instead of 86.9% at life size, real photos at
# 40 px 72% instead of 63%, with about as few false hands on hand-free crops (bench/RESULTS.md,
# "Rendered hands vs MediaPipe").
DETECTION_CONFIDENCE = 0.3
PRESENCE_CONFIDENCE = 0.3


@contextlib.contextmanager
def _captured_stderr(enabled: bool) -> Iterator[list[str]]:
    """Redirect file descriptor 2 into a temporary file; the text lands in the yielded list."""
    out: list[str] = []
    if not enabled or os.environ.get("MAFIACAM_MP_VERBOSE"):
        yield out
        return
    with _stderr_lock, tempfile.TemporaryFile(mode="w+b") as tmp:
        sys.stderr.flush()
        saved = os.dup(2)
        os.dup2(tmp.fileno(), 2)
        try:
            yield out
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            tmp.seek(0)
            out.append(tmp.read().decode("utf-8", "replace"))


class TrackerError(RuntimeError):
    """MediaPipe failed to create the landmarker or to process a frame."""


class HandTracker:
    """MediaPipe's ``HandLandmarker`` in IMAGE or VIDEO mode, returning :class:`HandLandmarks`.

    In VIDEO mode the landmarker tracks hands between calls (palm detection runs only when it lost
    them) and every call needs ``ts_ms``, strictly increasing. Not thread-safe: one per worker.

    VIDEO mode finds hands in more frames, but its tracked region can carry a wrong reading of the
    fingers from frame to frame (on a real thumbs-up clip: read as "point" in 26 of 33 frames, where
    IMAGE mode reads thumb_up in 27 of 35; ``bench/RESULTS.md``). Track presence in VIDEO mode; read
    the gesture of a decisive frame with an IMAGE-mode tracker.
    """

    def __init__(
        self,
        model_path: Path | None = None,
        *,
        mode: Mode = "image",
        num_hands: int = 2,
        min_detection_confidence: float = DETECTION_CONFIDENCE,
        min_presence_confidence: float = PRESENCE_CONFIDENCE,
        min_tracking_confidence: float = 0.5,
        quiet: bool = True,
    ) -> None:
        if mode not in ("image", "video"):
            raise ValueError(f"mode must be 'image' or 'video', got {mode!r}")
        if num_hands < 1:
            raise ValueError(f"num_hands must be at least 1, got {num_hands}")
        path = hand_model_path() if model_path is None else Path(model_path)
        self.mode: Mode = mode
        self.num_hands = num_hands
        self._quiet = quiet
        self._last_ts: int | None = None
        self._frames = 0
        running = mp_vision.RunningMode.VIDEO if mode == "video" else mp_vision.RunningMode.IMAGE
        options = mp_vision.HandLandmarkerOptions(
            base_options=BaseOptions(model_asset_path=str(path)),
            running_mode=running,
            num_hands=num_hands,
            min_hand_detection_confidence=min_detection_confidence,
            min_hand_presence_confidence=min_presence_confidence,
            min_tracking_confidence=min_tracking_confidence,
        )
        self._task: Any = None
        with _captured_stderr(quiet) as log:
            try:
                self._task = mp_vision.HandLandmarker.create_from_options(options)
                err: Exception | None = None
            except (RuntimeError, ValueError, OSError) as e:
                err = e
        if err is not None:
            detail = "".join(log).strip()
            raise TrackerError(f"cannot load hand model {path}: {err}\n{detail}".rstrip()) from err

    def detect(self, image_rgb: npt.NDArray[np.uint8], ts_ms: int | None = None) -> HandLandmarks:
        """Hands in an RGB uint8 image (H, W, 3); points in that image's pixels.

        VIDEO mode needs ``ts_ms`` (milliseconds, strictly increasing); IMAGE mode ignores it.
        """
        if self._task is None:
            raise TrackerError("this HandTracker is closed")
        if image_rgb.ndim != 3 or image_rgb.shape[2] != 3 or image_rgb.dtype != np.uint8:
            raise ValueError(
                f"expected an RGB uint8 image (H, W, 3), got {image_rgb.shape} {image_rgb.dtype}"
            )
        if self.mode == "video":
            if ts_ms is None:
                raise ValueError("VIDEO mode needs ts_ms for every frame")
            if self._last_ts is not None and ts_ms <= self._last_ts:
                raise ValueError(f"ts_ms must increase: got {ts_ms} after {self._last_ts}")
        h, w = image_rgb.shape[:2]
        mp_image = mp.Image(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(image_rgb))
        with _captured_stderr(self._quiet and self._frames == 0) as log:
            try:
                if self.mode == "video":
                    result = self._task.detect_for_video(mp_image, int(ts_ms))  # type: ignore[arg-type]
                else:
                    result = self._task.detect(mp_image)
                err: Exception | None = None
            except (RuntimeError, ValueError) as e:
                err = e
        if err is not None:
            raise TrackerError(
                f"hand landmarker failed on a {w}x{h} image: {err}\n{''.join(log)}".rstrip()
            ) from err
        self._frames += 1
        if self.mode == "video":
            self._last_ts = int(ts_ms)  # type: ignore[arg-type]
        return HandLandmarks.from_mediapipe(result, w, h)

    def close(self) -> None:
        """Free the native landmarker; safe to call twice."""
        task, self._task = self._task, None
        if task is not None:
            with _captured_stderr(self._quiet):
                task.close()

    @property
    def closed(self) -> bool:
        return self._task is None

    def __enter__(self) -> HandTracker:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
