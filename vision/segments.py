"""One segment file of a game's video: its container, its time mapping, and its decode cursor.

:class:`vision.video.VideoTimeline` strings segments into one timeline; this module knows one file. A
bundle's ``"video"`` is read here too (:func:`parse_video_field`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import av

from vision.gopcache import Gop
from vision.keyframes import KeyframeIndex, declared_end, open_input


class VideoError(Exception):
    """The video cannot be read at all (every segment missing or unreadable)."""


@dataclass(frozen=True)
class SegmentSpec:
    """A segment file and, when the bundle stores it, the timeline ms of its first frame."""

    path: Path
    t0: int | None = None


def parse_video_field(bundle_dir: Path, video: Any) -> list[SegmentSpec]:
    """Read ``game.json``'s ``"video"``: a path, or a list of paths / ``{"path", "t0"}`` objects."""
    if video is None:
        return []
    items = video if isinstance(video, list) else [video]
    specs: list[SegmentSpec] = []
    for i, item in enumerate(items):
        if isinstance(item, str):
            specs.append(SegmentSpec(bundle_dir / item))
        elif isinstance(item, dict) and isinstance(item.get("path"), str):
            t0 = item.get("t0", item.get("start_ms"))
            if t0 is not None and not isinstance(t0, int):
                raise ValueError(f"{bundle_dir / 'game.json'}: video[{i}].t0 must be an integer (ms)")
            specs.append(SegmentSpec(bundle_dir / item["path"], t0))
        else:
            raise ValueError(f"{bundle_dir / 'game.json'}: video[{i}] must be a path or {{'path': ...}}")
    return specs


class Segment:
    """One readable segment file: its container, its time mapping and its decode cursor."""

    def __init__(self, number: int, path: Path, threads: int, hide: tuple[int, int] | None = None) -> None:
        self.number = number
        self.path = path
        self.hide = hide  # a byte range skipped to read past damage in a fragmented MP4
        self.has_next_part = False  # a later part of the same file follows (read past damage)
        self.damage_bytes: tuple[int, int] | None = None  # for a later part: the skipped byte range
        self.container = open_input(path, hide)
        if not self.container.streams.video:
            self.container.close()
            raise VideoError(f"{path}: no video stream")
        self.stream = self.container.streams.video[0]
        self.stream.thread_type = "AUTO"
        self.stream.thread_count = threads
        self.tb = Fraction(self.stream.time_base) if self.stream.time_base else Fraction(1, 1000)
        self.first_pts = self._first_pts()
        self.offset_ms = 0  # set by the timeline
        self.index: KeyframeIndex | None = None
        self.seeks = 0
        self._cursor: Iterator[av.VideoFrame] | None = None
        self.cursor_pts: int | None = None  # pts of the last frame the cursor produced
        self.cursor_gop: Gop | None = None
        self.on_decode_error: Callable[[int, str], None] = lambda pts, why: None

    def _first_pts(self) -> int:
        if self.stream.start_time is not None:
            return int(self.stream.start_time)
        for packet in self.container.demux(self.stream):
            if packet.pts is not None:
                self.container.seek(0, stream=self.stream)
                return int(packet.pts)
        return 0

    def declared_end_pts(self) -> int | None:
        return declared_end(self.container, self.stream, self.tb)

    def end_pts(self) -> int:
        if self.index is not None and len(self.index):
            return self.index.end_pts
        declared = self.declared_end_pts()
        return declared if declared is not None else self.first_pts

    def to_ms(self, pts: int) -> int:
        x = (pts - self.first_pts) * self.tb * 1000
        return self.offset_ms + int(x + Fraction(1, 2)) if x >= 0 else self.offset_ms + round(x)

    def last_pts_at_or_before(self, t_ms: int) -> int:
        """The largest pts whose timeline ms (rounded half up) is at most ``t_ms``."""
        k = t_ms - self.offset_ms
        bound = self.first_pts + (Fraction(k) + Fraction(1, 2)) / (self.tb * 1000)
        return math.ceil(bound) - 1

    # -- decoding -------------------------------------------------------------------------------------
    def _frames_after_seek(self) -> Iterator[av.VideoFrame]:
        for packet in self.container.demux(self.stream):
            try:
                frames = packet.decode()
            except av.error.FFmpegError as e:
                pts = packet.pts if packet.pts is not None else (self.cursor_pts or self.first_pts)
                self.on_decode_error(int(pts), f"decode error: {e}")
                continue
            if packet.is_corrupt and packet.pts is not None:
                self.on_decode_error(int(packet.pts), "corrupt packet")
            yield from frames

    def seek(self, pts: int) -> None:
        self.seeks += 1
        self.container.seek(max(pts, self.first_pts), stream=self.stream, backward=True)
        self._cursor = self._frames_after_seek()
        self.cursor_pts = None
        self.cursor_gop = None

    def next_decoded(self) -> av.VideoFrame | None:
        """The next frame from the cursor (None at the end of the segment)."""
        if self._cursor is None:
            self.seek(self.first_pts)
        assert self._cursor is not None
        try:
            while True:
                try:
                    frame = next(self._cursor)
                except (av.error.FFmpegError, OSError) as e:
                    self.on_decode_error(int(self.cursor_pts or self.first_pts), f"read error: {e}")
                    self._cursor = None
                    return None
                if frame.pts is None:
                    continue
                return frame
        except StopIteration:
            return None

    def close(self) -> None:
        self._cursor = None
        self.container.close()


def part_reason(part: Segment) -> str:
    a, b = part.damage_bytes or (0, 0)
    return f"corrupt data in bytes {a}-{b} skipped; reading resumed after it"
