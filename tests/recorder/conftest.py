"""Small media made on the fly (PyAV), and a source that stops delivering on cue."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import pytest

from recorder.sources import Frame, SourceError, SourceLost, TestPatternSource


def make_clip(
    path: Path, *, seconds: float = 2.0, size: tuple[int, int] = (160, 120), fps: int = 30, audio: bool = True
) -> Path:
    """An H.264 clip whose frame i has grey level (i * 8) % 256 and, optionally, an AAC track: a 440 Hz
    tone, loud from 0.5 s to 1.0 s of the file and faint elsewhere (tests can tell where audio came from)."""
    w, h = size
    with av.open(str(path), "w") as c:
        vs = c.add_stream("libx264", rate=fps)
        vs.width, vs.height, vs.pix_fmt = w, h, "yuv420p"
        vs.options = {"preset": "ultrafast"}
        as_ = None
        if audio:
            as_ = c.add_stream("aac", rate=48000)
            as_.layout = "mono"
        n = round(seconds * fps)
        for i in range(n):
            img = np.full((h, w, 3), (i * 8) % 256, np.uint8)
            frame = av.VideoFrame.from_ndarray(img, format="rgb24")
            for p in vs.encode(frame):
                c.mux(p)
        for p in vs.encode():
            c.mux(p)
        if as_ is not None:
            sr, chunk = 48000, 1024
            total = round(seconds * sr)
            for k in range(0, total, chunk):
                t = (np.arange(k, min(total, k + chunk)) / sr).astype(np.float32)
                amp = np.where((t >= 0.5) & (t < 1.0), 0.5, 0.02).astype(np.float32)
                af = av.AudioFrame.from_ndarray(
                    (amp * np.sin(2 * np.pi * 440 * t))[None], format="flt", layout="mono"
                )
                af.sample_rate = sr
                af.pts = k
                af.time_base = Fraction(1, sr)
                for p in as_.encode(af):
                    c.mux(p)
            for p in as_.encode():
                c.mux(p)
    return path


@pytest.fixture(scope="session")
def clip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_clip(tmp_path_factory.mktemp("media") / "clip.mp4")


class FlakySource(TestPatternSource):
    """A test pattern that is "unplugged" after ``lose_after`` frames: reads raise SourceLost, and
    ``open()`` fails ``refuse`` times before the camera "comes back"."""

    __test__ = False

    def __init__(self, lose_after: int, refuse: int, **kw: object) -> None:
        super().__init__(**kw)  # type: ignore[arg-type]
        self.lose_after = lose_after
        self.refuse = refuse
        self.delivered = 0
        self.opens = 0
        self.lost = False

    def open(self) -> None:
        self.opens += 1
        if self.lost:
            if self.refuse > 0:
                self.refuse -= 1
                raise SourceError("camera /dev/video9: no such device")
            self.lost = False
        super().open()

    def read(self) -> Frame:
        if self.delivered == self.lose_after and not self.lost and self.opens == 1:
            self.lost = True
            raise SourceLost("camera /dev/video9: stopped delivering")
        self.delivered += 1
        return super().read()
