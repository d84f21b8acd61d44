"""The crash-safe segment writer: one ffmpeg child process per segment, fed raw RGB frames on stdin.

Each segment is a Matroska file (H.264 yuv420p, a keyframe every second, no scene-cut keyframes; AAC
when there is audio) whose pts are media time: the segment's first frame is shifted to the segment's start
(``-itsoffset``) and Matroska keeps pts in milliseconds. Clusters are closed at least every half second and
every packet is flushed to the file at once, so a killed recorder (or a killed ffmpeg) leaves a file that
decodes up to the last closed cluster: at most about a second is lost.

ffmpeg's stderr is drained on a thread into the log (and kept for error messages). A dead ffmpeg shows as
:class:`WriterDied` from :meth:`SegmentWriter.write`; the session then starts a new segment.
"""

from __future__ import annotations

import contextlib
import logging
import subprocess
import threading
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import ffmpeg
import imageio_ffmpeg

from recorder.audio import AudioInput

log = logging.getLogger("recorder.writer")


class WriterDied(RuntimeError):
    """The ffmpeg process of a segment is gone; the message carries its last words."""


@dataclass(frozen=True)
class EncoderSettings:
    preset: str = "veryfast"
    # zerolatency: no lookahead, no B-frames, sliced threads. Frames reach the file (and survive a
    # crash) as soon as they are encoded instead of a second or more later on a busy machine.
    tune: str | None = "zerolatency"
    crf: int = 23
    cluster_ms: int = 500
    audio_bitrate: str = "128k"
    threads: int = 0  # 0: ffmpeg decides


@dataclass(frozen=True)
class SegmentSpec:
    """One segment to write: ``start_s`` is the media time of its first slot."""

    path: Path
    size: tuple[int, int]
    fps: float
    start_s: float
    audio: AudioInput | None = None
    encoder: EncoderSettings = field(default_factory=EncoderSettings)


def build_command(spec: SegmentSpec, exe: str | None = None) -> list[str]:
    """The ffmpeg command line of a segment (built with ffmpeg-python)."""
    w, h = spec.size
    fps = spec.fps
    gop = max(1, round(fps))
    enc = spec.encoder
    video = ffmpeg.input(
        "pipe:0",
        f="rawvideo",
        pix_fmt="rgb24",
        s=f"{w}x{h}",
        framerate=f"{fps:g}",
        itsoffset=f"{spec.start_s:.6f}",
    )
    streams: list[Any] = [video["v"]]
    out_kw: dict[str, Any] = {
        "vcodec": "libx264",
        "preset": enc.preset,
        "crf": enc.crf,
        "pix_fmt": "yuv420p",
        "g": gop,
        "keyint_min": gop,
        "sc_threshold": 0,
        "f": "matroska",
        "cluster_time_limit": enc.cluster_ms,
        "flush_packets": 1,
    }
    if enc.threads:
        out_kw["threads"] = enc.threads
    if enc.tune:
        out_kw["tune"] = enc.tune
    if spec.audio is not None:
        streams.append(spec.audio.ffmpeg_input(spec.start_s))
        # -shortest ends a looped audio input with the video; its sync queue holds raw frames, so
        # keep that queue short (the default, 10 s of raw 1080p, is about a gigabyte).
        out_kw.update({"acodec": "aac", "audio_bitrate": enc.audio_bitrate, "shortest": None})
        out_kw["shortest_buf_duration"] = 0.5
    out = ffmpeg.output(*streams, str(spec.path), **out_kw)
    out = out.global_args("-hide_banner", "-nostats", "-loglevel", "warning")
    return list(ffmpeg.compile(out, cmd=exe or imageio_ffmpeg.get_ffmpeg_exe(), overwrite_output=True))


class SegmentWriter:
    """A running ffmpeg for one segment."""

    def __init__(self, spec: SegmentSpec, exe: str | None = None) -> None:
        self.spec = spec
        self.cmd = build_command(spec, exe)
        self.frames = 0
        self.stderr_tail: deque[str] = deque(maxlen=30)
        spec.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._proc = subprocess.Popen(
                self.cmd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
            )
        except OSError as e:
            raise WriterDied(f"{spec.path.name}: cannot start ffmpeg: {e}") from None
        self._drain = threading.Thread(target=self._drain_stderr, name="ffmpeg-stderr", daemon=True)
        self._drain.start()
        self._frame_bytes = spec.size[0] * spec.size[1] * 3
        log.info("segment %s started (pid %d): %s", spec.path.name, self._proc.pid, " ".join(self.cmd))

    @property
    def pid(self) -> int:
        return self._proc.pid

    def alive(self) -> bool:
        return self._proc.poll() is None

    def _drain_stderr(self) -> None:
        assert self._proc.stderr is not None
        for raw in self._proc.stderr:
            line = raw.decode("utf-8", "replace").rstrip()
            if line:
                self.stderr_tail.append(line)
                log.warning("ffmpeg %s: %s", self.spec.path.name, line)

    def _died(self) -> WriterDied:
        rc = self._proc.poll()
        self._drain.join(timeout=1)
        last = self.stderr_tail[-1] if self.stderr_tail else "no message"
        return WriterDied(
            f"{self.spec.path.name}: ffmpeg exited (status {rc}) after {self.frames} frames: {last}"
        )

    def write(self, data: bytes | memoryview) -> None:
        if len(data) != self._frame_bytes:
            raise ValueError(f"frame of {len(data)} bytes, the segment takes {self._frame_bytes}")
        stdin = self._proc.stdin
        assert stdin is not None
        try:
            stdin.write(data)
        except (BrokenPipeError, OSError, ValueError):
            raise self._died() from None
        self.frames += 1

    def close(self, timeout: float = 20.0) -> int:
        """Finish the segment: end of input, wait for ffmpeg to write the rest. Returns its exit status."""
        stdin = self._proc.stdin
        if stdin is not None and not stdin.closed:
            with contextlib.suppress(OSError):
                stdin.close()
        try:
            rc = self._proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            log.error("ffmpeg %s did not finish in %.0f s: killed", self.spec.path.name, timeout)
            self._proc.kill()
            rc = self._proc.wait()
        self._drain.join(timeout=2)
        if self._proc.stderr is not None:
            self._proc.stderr.close()
        if rc != 0:
            log.error("ffmpeg %s ended with status %s", self.spec.path.name, rc)
        return rc

    def kill(self) -> None:
        """Kill ffmpeg at once (fault injection and emergency stop)."""
        self._proc.kill()
        self._proc.wait()
