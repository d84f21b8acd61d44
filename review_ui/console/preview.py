"""The preview picture, made off the UI thread.

:class:`PreviewMaker` is a frame sink of the :class:`~review_ui.console.recorder_bridge.RecorderBridge`: on
the fan-out thread it takes at most one tap frame per ``every_s``, scales it to at most ``max_width``
pixels across and turns it into a QImage (a QImage, unlike a QPixmap, may be made on any thread). The
window's timer then only swaps the picture and repaints, so a 1080p recording costs the UI thread a
draw, not a conversion.
"""

from __future__ import annotations

import threading
import time

import cv2
import numpy as np

from recorder.tap import TapFrame
from review_ui.decoder_worker import ShownFrame, to_qimage


class PreviewMaker:
    def __init__(self, every_s: float = 0.066, max_width: int = 960) -> None:
        self.every_s = every_s
        self.max_width = max_width
        self._lock = threading.Lock()
        self._seq = 0
        self._shown: ShownFrame | None = None
        self._raw: np.ndarray | None = None
        self._last = 0.0

    def __call__(self, frame: TapFrame) -> None:
        now = time.monotonic()
        if now - self._last < self.every_s:
            return
        self._last = now
        img = frame.image
        h, w = img.shape[:2]
        if w > self.max_width:
            img = cv2.resize(
                img, (self.max_width, round(h * self.max_width / w)), interpolation=cv2.INTER_AREA
            )
        qimage = to_qimage(img)
        with self._lock:
            self._seq += 1
            self._shown = ShownFrame(qimage, frame.t_ms, None, 0, self._seq)
            self._raw = frame.image

    def latest(self) -> tuple[int, ShownFrame | None, np.ndarray | None]:
        """(sequence number, the picture to show, the full tap frame it came from)."""
        with self._lock:
            return self._seq, self._shown, self._raw
