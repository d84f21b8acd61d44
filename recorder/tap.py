"""The live-analysis tap: small frames taken from the pipeline before encoding.

The writer thread puts every ``every``-th frame, downscaled to ``width`` pixels across (and made RGB);
a consumer (the live vote counter) takes the newest with :meth:`LiveTap.get`. The tap never slows the
recording: when the consumer is behind, the oldest waiting frame is dropped and counted.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass

import cv2
import numpy as np

from recorder.sources import yuv420_to_rgb


@dataclass(frozen=True)
class TapFrame:
    """image: (h, w, 3) uint8 RGB, downscaled; t_ms: the frame's media time (its pts)."""

    image: np.ndarray
    t_ms: int

    def __post_init__(self) -> None:
        if self.image.ndim != 3 or self.image.shape[2] != 3 or self.image.dtype != np.uint8:
            raise ValueError(f"TapFrame.image must be (h, w, 3) uint8, got {self.image.shape}")


class LiveTap:
    def __init__(self, width: int = 640, *, every: int = 1, maxlen: int = 2) -> None:
        self.width = width
        self.every = max(1, every)
        self._q: deque[TapFrame] = deque()
        self._maxlen = maxlen
        self._cond = threading.Condition()
        self._closed = False
        self._seen = 0
        self.delivered = 0
        self.dropped = 0

    def put(self, image: np.ndarray, t_ms: int, pix_fmt: str = "rgb24") -> None:
        """Offer a frame (RGB, or planar YUV 4:2:0: scaled down per plane, then made RGB)."""
        self._seen += 1
        if (self._seen - 1) % self.every:
            return
        h, w = image.shape[:2]
        if pix_fmt == "yuv420p":
            small = yuv420_to_rgb(image, self.width)
        elif w > self.width:
            small = cv2.resize(
                image, (self.width, max(2, round(h * self.width / w))), interpolation=cv2.INTER_AREA
            )
        else:
            small = image.copy()
        with self._cond:
            if len(self._q) >= self._maxlen:
                self._q.popleft()
                self.dropped += 1
            self._q.append(TapFrame(small, t_ms))
            self._cond.notify()

    def get(self, timeout: float | None = None) -> TapFrame | None:
        """The oldest waiting frame; None on timeout or once closed and empty."""
        with self._cond:
            if not self._cond.wait_for(lambda: bool(self._q) or self._closed, timeout):
                return None
            if not self._q:
                return None
            self.delivered += 1
            return self._q.popleft()

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    @property
    def closed(self) -> bool:
        return self._closed
