"""The crash-safe segment writer: one ffmpeg child process per segment, fed raw frames on stdin (planar YUV
4:2:0, the encoder's own format, or RGB).

Every frame goes down the pipe with its own pts (media time in ms, from its capture time): the frames are
wrapped, without copying pixels, as rawvideo packets in a NUT stream (PyAV muxes, ffmpeg demuxes), so the
encoder gets variable-rate frames with their true times. A frame the recorder had to drop leaves a hole
in time rather than a copy to encode, so a busy machine does not spiral into encoding copies.

Each segment is a Matroska file (H.264 yuv420p, a keyframe at least every second by time, no scene-cut
keyframes; AAC when there is audio) whose pts are media time: Matroska keeps pts in milliseconds and the
segment's input is shifted (``-itsoffset``) back to its first frame's pts. Clusters are closed at least every
quarter second and every packet is flushed to the file at once, so a killed recorder (or a killed ffmpeg)
leaves a file that decodes up to the last closed cluster: at most about a second is lost.

ffmpeg's stderr is drained on a thread into the log (and kept for error messages). A dead ffmpeg shows as
:class:`WriterDied` from :meth:`SegmentWriter.write`; the session then starts a new segment.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import signal
import subprocess
import threading
from collections import deque
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, cast

import av
import ffmpeg
import imageio_ffmpeg

from recorder.audio import AudioInput
from recorder.pcmtap import RATE as PCM_RATE
from recorder.pcmtap import PcmTap

log = logging.getLogger("recorder.writer")

MS = Fraction(1, 1000)


class WriterDied(RuntimeError):
    """The ffmpeg process of a segment is gone; the message carries its last words."""


@dataclass(frozen=True)
class EncoderSettings:
    preset: str = "veryfast"
    # zerolatency: no lookahead, no B-frames, sliced threads. Frames reach the file (and survive a
    # crash) as soon as they are encoded instead of a second or more later on a busy machine.
    tune: str | None = "zerolatency"
    crf: int = 23
    cluster_ms: int = 250
    audio_bitrate: str = "128k"
    threads: int = 0  # 0: ffmpeg decides


@dataclass(frozen=True)
class SegmentSpec:
    """One segment to write: ``start_ms`` is the pts of its first frame (media time); ``fps`` the nominal
    rate (frames carry their own times)."""

    path: Path
    size: tuple[int, int]
    fps: float
    start_ms: int
    audio: AudioInput | None = None
    encoder: EncoderSettings = field(default_factory=EncoderSettings)
    pix_fmt: str = "rgb24"  # of the frames sent: rgb24 or yuv420p
    pcm: PcmTap | None = field(default=None, compare=False)  # also send the sound there (with audio)

    @property
    def frame_bytes(self) -> int:
        w, h = self.size
        return w * h * 3 if self.pix_fmt == "rgb24" else w * h * 3 // 2


def build_command(spec: SegmentSpec, exe: str | None = None) -> list[str]:
    """The ffmpeg command line of a segment (built with ffmpeg-python)."""
    gop = max(1, round(spec.fps))
    enc = spec.encoder
    start_s = spec.start_ms / 1000
    # ffmpeg moves an input's first timestamp to 0; -itsoffset puts it back at the segment's media time.
    # A short input queue: frames wait in our ring (where they are counted), not inside ffmpeg.
    video = ffmpeg.input("pipe:0", f="nut", itsoffset=f"{start_s:.3f}", thread_queue_size=2)
    streams: list[Any] = [video["v"]]
    out_kw: dict[str, Any] = {
        "vcodec": "libx264",
        "preset": enc.preset,
        "crf": enc.crf,
        "pix_fmt": "yuv420p",
        "fps_mode": "passthrough",
        "enc_time_base": "1:1000",  # ffmpeg would round pts to 1/fps
        "force_key_frames": "expr:gte(t,n_forced*1)",
        "g": 2 * gop,
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
        streams.append(spec.audio.ffmpeg_input(start_s))
        # No -shortest: its sync queue holds raw frames (10 s of 1080p is a gigabyte) and, kept short, it
        # cuts the video when the audio runs ahead. Audio inputs are interrupted in close() once the
        # video has ended (ffmpeg still encodes every frame it was given).
        out_kw.update({"acodec": "aac", "audio_bitrate": enc.audio_bitrate})
        # The muxer holds video packets back while it waits for audio to interleave with (10 s by
        # default): everything held back is lost in a crash. Half a second at most.
        out_kw["max_interleave_delta"] = 500_000
    pcm_out = None
    if spec.audio is not None and spec.pcm is not None:
        # The live check's ear: the same sound, mono at 16 kHz as raw floats on stdout (see recorder.pcmtap).
        split = streams[1].filter_multi_output("asplit")
        streams[1] = split[0]
        pcm_kw: dict[str, Any] = {"f": "f32le", "ac": 1, "ar": PCM_RATE, "flush_packets": 1}
        pcm_out = ffmpeg.output(split[1], "pipe:1", **pcm_kw)
    out = ffmpeg.output(*streams, str(spec.path), **out_kw)
    if pcm_out is not None:
        out = ffmpeg.merge_outputs(out, pcm_out)
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
        pcm = spec.pcm if spec.audio is not None else None
        try:
            self._proc = subprocess.Popen(
                self.cmd,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE if pcm is not None else subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
        except OSError as e:
            raise WriterDied(f"{spec.path.name}: cannot start ffmpeg: {e}") from None
        self._drain = threading.Thread(target=self._drain_stderr, name="ffmpeg-stderr", daemon=True)
        self._drain.start()
        self._pcm_reader: threading.Thread | None = None
        if pcm is not None:
            self._pcm_reader = threading.Thread(
                target=self._read_pcm, args=(pcm,), name="ffmpeg-pcm", daemon=True
            )
            self._pcm_reader.start()
        self._frame_bytes = spec.frame_bytes
        self.last_pts: int | None = None
        self._mux: Any = None
        self._stream: Any = None
        try:
            self._open_mux()
        except (OSError, ValueError, av.error.FFmpegError):
            self._proc.kill()
            self._proc.wait()
            raise self._died() from None
        log.info("segment %s started (pid %d): %s", spec.path.name, self._proc.pid, " ".join(self.cmd))

    def _open_mux(self) -> None:
        assert self._proc.stdin is not None
        w, h = self.spec.size
        mux = av.open(self._proc.stdin, "w", format="nut", container_options={"flush_packets": "1"})
        st = mux.add_stream("rawvideo", rate=Fraction(self.spec.fps).limit_denominator(1001))
        st.width, st.height, st.pix_fmt = w, h, self.spec.pix_fmt
        st.codec_context.time_base = MS
        st.time_base = MS
        mux.start_encoding()
        self._mux, self._stream = mux, st

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

    def _read_pcm(self, pcm: PcmTap) -> None:
        """Drain the sound output (ffmpeg would stall on a full pipe) into the tap."""
        assert self._proc.stdout is not None
        track = pcm.track(self.spec.start_ms)
        out = cast(io.BufferedReader, self._proc.stdout)
        while chunk := out.read1(65536):
            track.feed(chunk)

    def _died(self) -> WriterDied:
        rc = self._proc.poll()
        self._drain.join(timeout=1)
        last = self.stderr_tail[-1] if self.stderr_tail else "no message"
        return WriterDied(
            f"{self.spec.path.name}: ffmpeg exited (status {rc}) after {self.frames} frames: {last}"
        )

    def write(self, data: bytes | memoryview, pts_ms: int) -> None:
        """Send one frame (in the segment's pixel format) with its pts (media ms, strictly increasing within
        the segment)."""
        if len(data) != self._frame_bytes:
            raise ValueError(f"frame of {len(data)} bytes, the segment takes {self._frame_bytes}")
        if self.last_pts is not None and pts_ms <= self.last_pts:
            raise ValueError(f"pts {pts_ms} ms does not follow {self.last_pts} ms")
        pkt = av.Packet(cast(bytes, data))  # any buffer will do
        pkt.pts = pkt.dts = pts_ms - self.spec.start_ms
        pkt.time_base = MS
        pkt.stream = self._stream
        try:
            self._mux.mux(pkt)
        except (OSError, ValueError, av.error.FFmpegError):
            raise self._died() from None
        self.last_pts = pts_ms
        self.frames += 1

    def close(self, timeout: float = 20.0) -> int:
        """Finish the segment: end of input, wait for ffmpeg to write the rest. Returns its exit status."""
        if self._mux is not None:
            with contextlib.suppress(OSError, ValueError, av.error.FFmpegError):
                self._mux.close()
            self._mux = None
        stdin = self._proc.stdin
        if stdin is not None and not stdin.closed:
            with contextlib.suppress(OSError):
                stdin.close()
        interrupted = False
        if self.spec.audio is not None:  # an audio input goes on after the video: ask ffmpeg to finish
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._proc.wait(timeout=0.5)
            if self._proc.poll() is None:
                self._proc.send_signal(signal.SIGINT if os.name == "posix" else signal.SIGTERM)
                interrupted = True
        try:
            rc = self._proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            log.error("ffmpeg %s did not finish in %.0f s: killed", self.spec.path.name, timeout)
            self._proc.kill()
            rc = self._proc.wait()
        self._drain.join(timeout=2)
        if self._pcm_reader is not None:
            self._pcm_reader.join(timeout=2)
        for pipe in (self._proc.stderr, self._proc.stdout):
            if pipe is not None:
                pipe.close()
        if interrupted and rc == 255:  # ffmpeg's status after a requested interrupt
            rc = 0
        if rc != 0:
            log.error("ffmpeg %s ended with status %s", self.spec.path.name, rc)
        return rc

    def kill(self) -> None:
        """Kill ffmpeg at once (fault injection and emergency stop)."""
        self._proc.kill()
        self._proc.wait()
