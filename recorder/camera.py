"""A camera read through an ffmpeg child process (V4L2 on Linux, DirectShow on Windows, AVFoundation on
macOS), delivering raw frames on a pipe: planar YUV 4:2:0 (what the encoder takes, half the bytes of RGB),
or RGB when the picture has an odd width or height.

A thread reads the pipe so ``read()`` can give up after ``stall_s`` seconds without a frame: an unplugged
camera either closes the pipe or just stops, and both become :class:`SourceLost`. A missing device is a
:class:`SourceError` naming it and the cameras that do exist.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import queue
import re
import subprocess
import sys
import threading
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import imageio_ffmpeg
import numpy as np

from recorder.audio import AudioInput
from recorder.sources import Frame, SourceError, SourceLost
from recorder.timebase import Clock, SystemClock

log = logging.getLogger("recorder.camera")


@dataclass(frozen=True)
class CameraInfo:
    device: str  # what --source takes: /dev/video0, "video=Name", or an AVFoundation index
    name: str


def list_cameras(
    sys_root: Path = Path("/sys/class/video4linux"), dev_root: Path = Path("/dev")
) -> list[CameraInfo]:
    """The cameras this machine offers (empty when there are none)."""
    if sys.platform.startswith("linux"):
        out: list[CameraInfo] = []
        for dev in sorted(dev_root.glob("video*"), key=lambda p: (len(p.name), p.name)):
            name_file = sys_root / dev.name / "name"
            try:
                name = name_file.read_text(encoding="utf-8").strip()
            except OSError:
                name = dev.name
            out.append(CameraInfo(str(dev), name))
        return out
    fmt = "dshow" if sys.platform == "win32" else "avfoundation"
    cmd = [imageio_ffmpeg.get_ffmpeg_exe(), "-hide_banner", "-list_devices", "true", "-f", fmt, "-i", "dummy"]
    try:
        text = subprocess.run(cmd, capture_output=True, text=True, timeout=10, check=False).stderr
    except (OSError, subprocess.TimeoutExpired):
        return []
    cams: list[CameraInfo] = []
    if fmt == "dshow":
        for m in re.finditer(r'"([^"]+)" \(video\)', text):
            cams.append(CameraInfo(f"video={m.group(1)}", m.group(1)))
    else:
        video = text.split("audio devices")[0]
        for m in re.finditer(r"\[(\d+)\] (.+)", video):
            cams.append(CameraInfo(m.group(1), m.group(2).strip()))
    return cams


def camera_input_args(device: str, size: tuple[int, int] | None, fps: float | None) -> list[str]:
    """ffmpeg input arguments for a camera on this system."""
    if device.isdigit() and sys.platform.startswith("linux"):
        device = f"/dev/video{device}"
    opts: list[str] = []
    if fps:
        opts += ["-framerate", f"{fps:g}"]
    if size:
        opts += ["-video_size", f"{size[0]}x{size[1]}"]
    if sys.platform.startswith("linux"):
        return ["-f", "v4l2", *opts, "-i", device]
    if sys.platform == "win32":
        return ["-f", "dshow", "-rtbufsize", "64M", *opts, "-i", device]
    return ["-f", "avfoundation", *opts, "-i", device]


class CameraSource:
    """A live camera. ``input_args`` replaces the device input (any ffmpeg input: tests use lavfi)."""

    def __init__(
        self,
        device: str,
        *,
        size: tuple[int, int] | None = None,
        fps: float | None = None,
        clock: Clock | None = None,
        stall_s: float = 2.0,
        input_args: list[str] | None = None,
    ) -> None:
        self.device = device
        self.name = f"camera {device}"
        self.clock: Clock = clock or SystemClock()
        self.stall_s = stall_s
        self._want_size = size
        self._want_fps = fps
        self._input_args = input_args
        self._size = size or (0, 0)
        self._fps = fps or 30.0
        self._proc: subprocess.Popen[bytes] | None = None
        self._frames: queue.Queue[Frame | None] = queue.Queue(maxsize=4)
        self._stderr: deque[str] = deque(maxlen=20)
        self._threads: list[threading.Thread] = []
        self.pix_fmt = "yuv420p"

    @property
    def live(self) -> bool:
        return True

    @property
    def size(self) -> tuple[int, int]:
        return self._size

    @property
    def fps(self) -> float:
        return self._fps

    def _check_device(self) -> None:
        if self._input_args is not None or not sys.platform.startswith("linux"):
            return
        dev = f"/dev/video{self.device}" if self.device.isdigit() else self.device
        if not os.path.exists(dev):
            found = ", ".join(c.device for c in list_cameras()) or "none"
            raise SourceError(f"camera {dev}: no such device (cameras on this machine: {found})")

    def _probe_size(self, args: list[str]) -> tuple[int, int, float]:
        """Ask ffmpeg what the input delivers (when the size was not forced)."""
        cmd = [imageio_ffmpeg.get_ffmpeg_exe(), "-hide_banner", *args, "-frames:v", "1", "-f", "null", "-"]
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=15, check=False)
        except subprocess.TimeoutExpired:
            raise SourceError(f"{self.name}: no answer within 15 s") from None
        m = re.search(r"Video: .*?(\d{2,5})x(\d{2,5})", r.stderr)
        if r.returncode != 0 or not m:
            last = r.stderr.strip().splitlines()[-1:] or ["no output"]
            raise SourceError(f"{self.name}: cannot open: {last[0]}")
        f = re.search(r"([\d.]+) fps", r.stderr)
        return int(m.group(1)), int(m.group(2)), float(f.group(1)) if f else self._fps

    def open(self) -> None:
        self._check_device()
        args = self._input_args or camera_input_args(self.device, self._want_size, self._want_fps)
        if self._want_size is None or self._want_fps is None:
            w, h, fps = self._probe_size(args)
            self._size = self._want_size or (w, h)
            self._fps = self._want_fps or fps
        w, h = self._size
        self.pix_fmt = "rgb24" if w % 2 or h % 2 else "yuv420p"
        cmd = [imageio_ffmpeg.get_ffmpeg_exe(), "-hide_banner", "-loglevel", "warning", "-nostdin", *args]
        cmd += ["-f", "rawvideo", "-pix_fmt", self.pix_fmt, "-s", f"{w}x{h}", "pipe:1"]
        try:
            self._proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
        except OSError as e:
            raise SourceError(f"{self.name}: cannot start ffmpeg: {e}") from None
        self._frames = queue.Queue(maxsize=4)
        proc = self._proc
        self._threads = [
            threading.Thread(
                target=self._pump, args=(proc, w, h, self.pix_fmt), name="camera-pipe", daemon=True
            ),
            threading.Thread(target=self._drain, args=(proc,), name="camera-stderr", daemon=True),
        ]
        for t in self._threads:
            t.start()

    def _pump(self, proc: subprocess.Popen[bytes], w: int, h: int, pix_fmt: str) -> None:
        yuv = pix_fmt == "yuv420p"
        n = w * h * 3 // 2 if yuv else w * h * 3
        shape = (h * 3 // 2, w) if yuv else (h, w, 3)
        stream = cast(io.RawIOBase, proc.stdout)  # unbuffered (bufsize=0)
        while True:
            buf = bytearray(n)
            view = memoryview(buf)
            got = 0
            while got < n:
                k = stream.readinto(view[got:])
                if not k:
                    self._put(None)
                    return
                got += k
            img = np.frombuffer(buf, np.uint8).reshape(shape)
            frame = Frame(img, self.clock.monotonic(), pix_fmt=pix_fmt)
            self._put(frame)

    def _put(self, item: Frame | None) -> None:
        while True:
            try:
                self._frames.put_nowait(item)
                return
            except queue.Full:  # the reader is late: keep the newest, as a camera would
                with contextlib.suppress(queue.Empty):
                    self._frames.get_nowait()

    def _drain(self, proc: subprocess.Popen[bytes]) -> None:
        assert proc.stderr is not None
        for raw in proc.stderr:
            line = raw.decode("utf-8", "replace").rstrip()
            if line:
                self._stderr.append(line)
                log.warning("%s: ffmpeg: %s", self.name, line)

    def read(self) -> Frame:
        if self._proc is None:
            raise SourceLost(f"{self.name}: not open")
        try:
            item = self._frames.get(timeout=self.stall_s)
        except queue.Empty:
            raise SourceLost(f"{self.name}: no frame for {self.stall_s:g} s") from None
        if item is None:
            why = self._stderr[-1] if self._stderr else "the stream ended"
            raise SourceLost(f"{self.name}: stopped delivering ({why})")
        return item

    def close(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            for s in (proc.stdout, proc.stderr):
                if s is not None:
                    s.close()
        for t in self._threads:
            t.join(timeout=2)
        self._threads = []

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc else None

    def audio_for(self, frame: Frame) -> AudioInput | None:
        return None
