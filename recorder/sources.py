"""Frame sources: one interface for a camera, a video file played as if live, and a test pattern.

A source is opened, then ``read()`` returns the next :class:`Frame` (an RGB or YUV 4:2:0 image the
caller may keep: a source never reuses a returned buffer, so the capture path needs no further copy) with
its monotonic capture time. A source that stops delivering raises :class:`SourceLost` (the session closes
the segment and tries ``open()`` again); a source that has nothing more (a file played once) raises
:class:`SourceEnded`. ``open()`` failing raises :class:`SourceError` naming the device or file.

The camera lives in :mod:`recorder.camera`; audio inputs in :mod:`recorder.audio`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import av
import cv2
import numpy as np

from recorder.audio import AudioInput, FileAudio
from recorder.timebase import Clock, SystemClock


class SourceError(RuntimeError):
    """A source could not be opened; the message names the device or file."""


class SourceLost(RuntimeError):
    """The source stopped delivering (camera unplugged, stalled); it may come back after ``open()``."""


class SourceEnded(RuntimeError):
    """The source has no more frames (a file played to its end)."""


@dataclass(frozen=True)
class Frame:
    """One captured frame.

    image: (H, W, 3) uint8 RGB when ``pix_fmt`` is ``rgb24``; (H * 3 / 2, W) uint8 planar YUV 4:2:0 (the Y
    plane, then U and V at half size, as ffmpeg's ``yuv420p``) when it is ``yuv420p``: the encoder's own
    format, half the bytes of RGB and no conversion on the way. Owned by the receiver.
    t: monotonic capture time in seconds (the clock the session uses).
    source_pts: the position in the source medium in seconds (a file's pts), None for live sources.
    """

    image: np.ndarray
    t: float
    source_pts: float | None = None
    pix_fmt: str = "rgb24"

    def __post_init__(self) -> None:
        img = self.image
        if img.dtype != np.uint8:
            raise ValueError(f"Frame.image must be uint8, got {img.dtype}")
        if self.pix_fmt == "rgb24":
            if img.ndim != 3 or img.shape[2] != 3:
                raise ValueError(f"Frame.image must be (H, W, 3) uint8 for rgb24, got {img.shape}")
        elif self.pix_fmt == "yuv420p":
            if img.ndim != 2 or img.shape[0] % 3 or img.shape[1] % 2 or (img.shape[0] // 3) % 2:
                raise ValueError(f"Frame.image must be (H * 3 / 2, W) uint8 for yuv420p, got {img.shape}")
        else:
            raise ValueError(f"Frame.pix_fmt must be rgb24 or yuv420p, got {self.pix_fmt!r}")

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of the picture."""
        h, w = self.image.shape[:2]
        return (w, h * 2 // 3) if self.pix_fmt == "yuv420p" else (w, h)


def yuv420_to_rgb(image: np.ndarray, width: int | None = None) -> np.ndarray:
    """A planar YUV 4:2:0 frame ((H * 3 / 2, W) uint8) as RGB, scaled down to ``width`` pixels across first
    when it is wider (each plane on its own: the full-size RGB picture is never made)."""
    hh, w = image.shape
    h = hh * 2 // 3
    if width is None or w <= width:
        return cv2.cvtColor(image, cv2.COLOR_YUV2RGB_I420)
    nw = max(2, width // 2 * 2)
    nh = max(2, round(h * nw / w) // 2 * 2)
    y = cv2.resize(image[:h], (nw, nh), interpolation=cv2.INTER_AREA)
    chroma = image[h:].reshape(2, h // 2, w // 2)
    u = cv2.resize(chroma[0], (nw // 2, nh // 2), interpolation=cv2.INTER_AREA)
    v = cv2.resize(chroma[1], (nw // 2, nh // 2), interpolation=cv2.INTER_AREA)
    small = np.concatenate([y, u.reshape(-1, nw), v.reshape(-1, nw)])
    return cv2.cvtColor(small, cv2.COLOR_YUV2RGB_I420)


class FrameSource(Protocol):
    """What the session needs from a source."""

    name: str

    @property
    def live(self) -> bool:
        """True for a source that cannot wait (a camera, anything paced in real time): its frames are
        dropped and counted when the recorder falls behind. False: the recorder makes it wait."""
        ...

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of the frames; known after ``open()``."""
        ...

    @property
    def fps(self) -> float: ...

    def open(self) -> None: ...

    def read(self) -> Frame: ...

    def close(self) -> None: ...

    def audio_for(self, frame: Frame) -> AudioInput | None:
        """The audio that belongs with a segment starting at ``frame`` (None: no audio)."""
        ...


def parse_size(text: str) -> tuple[int, int]:
    """``"1280x720"`` → (1280, 720); a clear ValueError otherwise."""
    try:
        w, h = (int(x) for x in text.lower().split("x"))
    except ValueError:
        raise ValueError(f"size must look like 1280x720, got {text!r}") from None
    if w < 16 or h < 16 or w % 2 or h % 2:
        raise ValueError(f"size must be even and at least 16x16, got {text!r}")
    return w, h


class _Pacer:
    """Frame ``i`` is due at ``t0 + i / rate``; a source that falls behind skips ahead like a camera."""

    def __init__(self, clock: Clock, rate: float, first: int = 0) -> None:
        self.clock = clock
        self.rate = rate
        self.first = first
        self.t0 = clock.monotonic()

    def wait(self, i: int) -> float:
        due = self.t0 + (i - self.first) / self.rate
        now = self.clock.monotonic()
        if due > now:
            self.clock.sleep(due - now)
            return due
        return now


@dataclass
class TestPatternSource:
    """Moving colour bars with a frame counter and a clock, at any size and rate, delivered in real time
    (``realtime=False``: as fast as asked, with capture times still spaced by 1/fps)."""

    size_wh: tuple[int, int] = (640, 360)
    rate: float = 30.0
    clock: Clock = field(default_factory=SystemClock)
    realtime: bool = True
    name: str = "test pattern"
    _i: int = 0
    _pacer: _Pacer | None = None
    _row: np.ndarray | None = None

    __test__ = False  # not a pytest class

    @property
    def live(self) -> bool:
        return self.realtime

    @property
    def size(self) -> tuple[int, int]:
        return self.size_wh

    @property
    def fps(self) -> float:
        return self.rate

    def open(self) -> None:
        w, _ = self.size_wh
        hues = (np.arange(w * 2) * 180 // (w // 2 + 1)) % 180
        hsv = np.stack([hues, np.full_like(hues, 200), np.full_like(hues, 230)], axis=-1).astype(np.uint8)
        self._row = cv2.cvtColor(hsv[None], cv2.COLOR_HSV2RGB)[0]
        self._pacer = _Pacer(self.clock, self.rate, first=self._i)

    def read(self) -> Frame:
        if self._pacer is None or self._row is None:
            raise SourceLost(f"{self.name}: not open")
        w, h = self.size_wh
        i = self._i
        if self.realtime:
            t = self._pacer.wait(i)
            behind = int((t - self._pacer.t0) * self.rate) - (i - self._pacer.first)
            if behind > 1:  # fell behind: skip like a camera would
                i += behind
        else:
            t = self._pacer.t0 + (i - self._pacer.first) / self.rate
        self._i = i + 1
        shift = (i * 4) % w
        img = np.broadcast_to(self._row[shift : shift + w], (h, w, 3)).copy()
        scale = max(0.5, h / 360)
        thick = max(1, int(2 * scale))
        label = f"#{i:07d}  {t - self._pacer.t0:9.3f}s"
        cv2.rectangle(img, (0, 0), (int(360 * scale), int(40 * scale)), (0, 0, 0), -1)
        cv2.putText(img, label, (int(8 * scale), int(28 * scale)), 0, 0.7 * scale, (255, 255, 255), thick)
        return Frame(img, t)

    def close(self) -> None:
        self._pacer = None

    def audio_for(self, frame: Frame) -> AudioInput | None:
        return None


class FileSource:
    """A video file played as if it were a live camera.

    ``speed``: 1.0 plays in real time, 2.0 twice as fast, None as fast as frames decode (capture times are
    then virtual: the opening time plus the file's own pts, and the source is not live: the recorder waits
    for it instead of dropping frames). ``loop`` starts over at the end. The file's audio track passes
    through when playing at real speed. Frames come as planar YUV 4:2:0 (``pix_fmt="rgb24"`` for RGB): what
    the file holds and the encoder takes, with no colour conversion in between (a file of odd width or height
    comes as RGB).
    """

    def __init__(
        self,
        path: str | Path,
        *,
        speed: float | None = 1.0,
        loop: bool = False,
        clock: Clock | None = None,
        pix_fmt: str = "yuv420p",
    ) -> None:
        self.path = Path(path)
        self.pix_fmt = pix_fmt
        self._fmt = pix_fmt
        self.speed = speed
        self.loop = loop
        self.clock: Clock = clock or SystemClock()
        self.name = str(self.path)
        self._container: Any = None
        self._frames: Any = None
        self._size = (0, 0)
        self._fps = 0.0
        self._has_audio = False
        self._duration = 0.0
        self._t0 = 0.0
        self._loop_offset = 0.0
        self._last_pts = 0.0
        self._first_pts: float | None = None

    @property
    def live(self) -> bool:
        return self.speed is not None

    @property
    def size(self) -> tuple[int, int]:
        return self._size

    @property
    def fps(self) -> float:
        return self._fps

    def open(self) -> None:
        if not self.path.is_file():
            raise SourceError(f"{self.path}: no such video file")
        try:
            self._container = av.open(str(self.path))
        except av.error.FFmpegError as e:
            raise SourceError(f"{self.path}: cannot open as video: {e}") from None
        if not self._container.streams.video:
            self._container.close()
            raise SourceError(f"{self.path}: has no video stream")
        vs = self._container.streams.video[0]
        vs.thread_type = "AUTO"
        self._size = (vs.codec_context.width, vs.codec_context.height)
        odd = self._size[0] % 2 or self._size[1] % 2
        self._fmt = "rgb24" if odd else self.pix_fmt
        rate = vs.average_rate or vs.guessed_rate
        self._fps = float(rate) if rate else 30.0
        self._has_audio = bool(self._container.streams.audio)
        dur = self._container.duration
        self._duration = dur / 1_000_000 if dur else 0.0
        self._frames = self._container.decode(vs)
        self._t0 = self.clock.monotonic()
        self._loop_offset = 0.0
        self._first_pts = None

    def _next(self) -> Any:
        try:
            return next(self._frames)
        except StopIteration:
            return None
        except av.error.FFmpegError as e:
            raise SourceLost(f"{self.path}: decoding failed at {self._last_pts:.3f}s: {e}") from None

    def read(self) -> Frame:
        if self._frames is None:
            raise SourceLost(f"{self.path}: not open")
        vf = self._next()
        if vf is None:
            if not self.loop:
                raise SourceEnded(f"{self.path}: end of file at {self._last_pts:.3f}s")
            self._loop_offset += max(self._last_pts + 1 / self._fps, self._duration)
            self._container.seek(0)
            self._frames = self._container.decode(self._container.streams.video[0])
            vf = self._next()
            if vf is None:
                raise SourceEnded(f"{self.path}: no frames after rewinding")
        pts = float(vf.pts * vf.time_base) if vf.pts is not None else self._last_pts + 1 / self._fps
        if self._first_pts is None:
            self._first_pts = pts
        self._last_pts = pts
        media = self._loop_offset + pts - self._first_pts
        img = vf.to_ndarray(format=self._fmt)
        if not img.flags.c_contiguous:
            img = np.ascontiguousarray(img)
        if self.speed is None:
            t = self._t0 + media
        else:
            t = self._t0 + media / self.speed
            now = self.clock.monotonic()
            if t > now:
                self.clock.sleep(t - now)
            else:
                t = now
        return Frame(img, t, source_pts=pts, pix_fmt=self._fmt)

    def close(self) -> None:
        if self._container is not None:
            self._container.close()
        self._container = None
        self._frames = None

    def audio_for(self, frame: Frame) -> AudioInput | None:
        if not self._has_audio or self.speed != 1.0 or frame.source_pts is None:
            return None
        offset = frame.source_pts
        if self.loop and self._duration > 0:
            offset = math.fmod(offset, self._duration)
        return FileAudio(self.path, offset_s=offset)
