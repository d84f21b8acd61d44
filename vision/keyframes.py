"""Per-segment packet index: every video packet's pts and keyframe flag, read by demuxing without decoding.

The index is what lets the player seek straight to the keyframe before a target, number frames for the
time code, and find damaged stretches (gaps in the packet times, corrupt packets, a file that ends before
its header says it should) without decoding a single frame. It is cheap (a pass over the packet headers)
but reads the whole file, so :class:`vision.video.VideoTimeline` builds it in the background.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from pathlib import Path

import av
import numpy as np

from vision.fragments import HiddenRangeFile

# A stretch with no packets longer than this many nominal frame intervals (and longer than GAP_MIN_MS) is
# reported as damaged: a variable frame rate stays well under it, lost or overwritten data does not.
GAP_FACTOR = 4.0
GAP_MIN_MS = 250.0


@dataclass(frozen=True)
class PtsDamage:
    """A damaged stretch inside one segment, in the stream's pts units."""

    from_pts: int
    to_pts: int
    reason: str


@dataclass(frozen=True, eq=False)
class KeyframeIndex:
    """The packet index of one segment's video stream.

    pts: (n,) int64, presentation times in stream time base, ascending.
    key: (n,) bool, True where the packet starts a keyframe.
    """

    pts: np.ndarray
    key: np.ndarray
    time_base: Fraction
    end_pts: int  # pts just after the last readable frame (last pts + its duration)
    damaged: tuple[PtsDamage, ...]
    complete: bool  # False when the scan was stopped before the end of the file

    def __post_init__(self) -> None:
        if self.pts.ndim != 1 or self.pts.dtype != np.int64:
            raise ValueError(f"pts must be (n,) int64, got {self.pts.shape} {self.pts.dtype}")
        if self.key.shape != self.pts.shape or self.key.dtype != np.bool_:
            raise ValueError(f"key must be (n,) bool like pts, got {self.key.shape} {self.key.dtype}")

    def __len__(self) -> int:
        return int(self.pts.shape[0])

    @cached_property
    def keyframe_pts(self) -> np.ndarray:
        """(k,) int64: pts of the keyframes, ascending."""
        kpts: np.ndarray = self.pts[self.key]
        return kpts

    def keyframe_at_or_before(self, pts: int) -> int | None:
        """pts of the last keyframe at or before ``pts`` (None when there is none)."""
        kpts = self.keyframe_pts
        i = int(np.searchsorted(kpts, pts, side="right")) - 1
        return int(kpts[i]) if i >= 0 else None

    def frame_at_or_before(self, pts: int) -> int | None:
        """pts of the last frame at or before ``pts`` (None before the first frame)."""
        i = int(np.searchsorted(self.pts, pts, side="right")) - 1
        return int(self.pts[i]) if i >= 0 else None

    def frame_number(self, pts: int) -> int | None:
        """Index of the frame with exactly this pts in the segment (None when not a frame time)."""
        i = int(np.searchsorted(self.pts, pts))
        return i if i < len(self) and int(self.pts[i]) == pts else None


def _median_step(pts: np.ndarray) -> float:
    if pts.shape[0] < 2:
        return 0.0
    return float(np.median(np.diff(pts)))


def open_input(path: Path, hide: tuple[int, int] | None = None) -> av.container.InputContainer:
    """Open a video file; with ``hide``, that byte range of a fragmented MP4 is skipped (see fragments)."""
    source: str | HiddenRangeFile = str(path) if hide is None else HiddenRangeFile(path, *hide)
    container = av.open(source, format=None if hide is None else "mp4")
    if not isinstance(container, av.container.InputContainer):
        raise TypeError(f"{path}: not opened for reading")
    return container


def scan_packets(
    path: Path,
    stop: threading.Event | None = None,
    hide: tuple[int, int] | None = None,
    check_unread: bool = True,
) -> KeyframeIndex:
    """Demux ``path``'s first video stream (no decoding) into a :class:`KeyframeIndex`.

    Raises ``av.error.FFmpegError`` / ``OSError`` only when the file cannot be opened at all; damage found
    while reading is reported in the index instead.
    """
    container = open_input(path, hide)
    file_size = path.stat().st_size
    try:
        stream = container.streams.video[0]
        tb = Fraction(stream.time_base) if stream.time_base is not None else Fraction(1, 1000)
        pts_list: list[int] = []
        key_list: list[bool] = []
        dur_list: list[int] = []
        damaged: list[PtsDamage] = []
        complete = True
        read_end = 0
        try:
            for packet in container.demux(stream):
                if stop is not None and stop.is_set():
                    complete = False
                    break
                pts = packet.pts if packet.pts is not None else packet.dts
                if pts is None:
                    continue
                if packet.is_corrupt:
                    end = pts + int(packet.duration or 0)
                    why = "corrupt packet (incomplete or damaged data)"
                    damaged.append(PtsDamage(int(pts), int(end), why))
                if packet.pos is not None and packet.pos >= 0:
                    read_end = max(read_end, packet.pos + packet.size)
                pts_list.append(int(pts))
                key_list.append(bool(packet.is_keyframe))
                dur_list.append(int(packet.duration or 0))
        except (av.error.FFmpegError, OSError) as e:
            last = max(pts_list) if pts_list else 0
            damaged.append(PtsDamage(last, last, f"unreadable after this point: {e}"))
        order = np.argsort(np.asarray(pts_list, np.int64), kind="stable")
        all_pts = np.asarray(pts_list, np.int64)[order]
        key = np.asarray(key_list, np.bool_)[order]
        durs = np.asarray(dur_list, np.int64)[order]
        step = _median_step(all_pts)
        end_pts = int(all_pts[-1] + (durs[-1] if durs[-1] > 0 else round(step))) if all_pts.shape[0] else 0
        if all_pts.shape[0] >= 2 and step > 0:
            gap_min = max(GAP_FACTOR * step, GAP_MIN_MS / 1000 / float(tb))
            diffs = np.diff(all_pts)
            for i in np.nonzero(diffs > gap_min)[0]:
                a, b = int(all_pts[i]), int(all_pts[i + 1])
                ms = float((b - a) * tb * 1000)
                damaged.append(PtsDamage(a, b, f"no frames for {ms:.0f} ms (lost or overwritten data)"))
        if complete and all_pts.shape[0] and hide is None:
            declared = declared_end(container, stream, tb)
            if declared is not None and declared - end_pts > max(2 * step, 0.2 / float(tb)):
                ms = float((declared - end_pts) * tb * 1000)
                damaged.append(
                    PtsDamage(end_pts, declared, f"file ends {ms:.0f} ms before its declared end (truncated)")
                )
        unread = file_size - read_end
        if complete and check_unread and all_pts.shape[0] and unread > max(4096, file_size // 100):
            damaged.append(PtsDamage(end_pts, end_pts, f"{unread} bytes after this point could not be read"))
        damaged.sort(key=lambda d: (d.from_pts, d.to_pts))
        return KeyframeIndex(all_pts, key, tb, end_pts, tuple(damaged), complete)
    finally:
        container.close()


def declared_end(container: av.container.InputContainer, stream: av.VideoStream, tb: Fraction) -> int | None:
    """The end pts the container header claims (None when it claims nothing)."""
    start = stream.start_time or 0
    if stream.duration:
        return int(start + stream.duration)
    tag = stream.metadata.get("DURATION") if "matroska" in container.format.name else None
    if tag:
        # Matroska's per-track DURATION tag (ffmpeg writes it): the video's own end, where the container's
        # duration also covers a sound track that ran on a little after the last frame
        try:
            h, m, sec = tag.split(":")
            return int(Fraction(int(h) * 3600 + int(m) * 60) / tb + Fraction(sec) / tb)
        except ValueError:
            pass
    if container.duration:
        # Matroska's header duration is the last timestamp, not a length: a segment whose timestamps start
        # at 3 min (a segmenting recorder) says 6 min for 3 min of video. Elsewhere it is a length from start.
        c0 = 0 if "matroska" in container.format.name else container.start_time or 0
        return int((Fraction(c0 + container.duration, av.time_base)) / tb)
    return None
