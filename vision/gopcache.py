"""The decoded-GOP cache behind frame stepping: PyAV frames grouped by GOP, least recently used evicted.

Frames stay in the decoder's own compact format (4:2:0 YUV, 3 MB at 1080p) and are converted to RGB only
when asked for. Tried and dropped: copying each frame into recycled numpy buffers and converting with
OpenCV, to spare the decoder's buffer pool; on this machine it was slower (an extra copy, and OpenCV's
threaded conversion competes for the two cores), see bench/RESULTS.md.
"""

from __future__ import annotations

import bisect
from collections import OrderedDict
from collections.abc import Iterable

import av
import numpy as np


class StoredFrame:
    """One decoded frame kept in the cache."""

    __slots__ = ("av_frame", "key", "nbytes", "pts")

    def __init__(self, vf: av.VideoFrame) -> None:
        self.av_frame = vf
        self.pts = int(vf.pts or 0)  # frames without pts never reach the cache
        self.key = bool(vf.key_frame)
        self.nbytes = sum(p.buffer_size for p in vf.planes)

    def rgb(self) -> np.ndarray:
        """(height, width, 3) uint8 RGB, a new array owned by the caller."""
        return frame_rgb(self.av_frame)


def frame_rgb(vf: av.VideoFrame) -> np.ndarray:
    """RGB of a PyAV frame (FFmpeg's conversion; every reading path uses this one)."""
    return vf.to_ndarray(format="rgb24")


class Gop:
    """Decoded frames of one group of pictures, in presentation order."""

    __slots__ = ("complete", "end_pts", "frames", "nbytes", "pts")

    def __init__(self) -> None:
        self.frames: list[StoredFrame] = []
        self.pts: list[int] = []
        self.complete = False  # the next keyframe (or the end of the segment) has been seen
        self.end_pts: int | None = None  # pts of the next keyframe; None at the segment's end
        self.nbytes = 0


class GopCache:
    """GOPs keyed by (segment, first pts), least recently used evicted beyond ``max_bytes``."""

    def __init__(self, max_bytes: int, keep_at_least: int = 2) -> None:
        self.max_bytes = max_bytes
        self.keep_at_least = keep_at_least
        self._gops: OrderedDict[tuple[int, int], Gop] = OrderedDict()
        self._keys: dict[int, list[int]] = {}
        self.nbytes = 0
        self.decoded = 0

    def __len__(self) -> int:
        return len(self._gops)

    def new_gop(self, segment: int, first_pts: int) -> Gop:
        self._drop((segment, first_pts))
        gop = Gop()
        self._gops[(segment, first_pts)] = gop
        bisect.insort(self._keys.setdefault(segment, []), first_pts)
        return gop

    def get_or_new(self, segment: int, first_pts: int) -> Gop:
        """The cached GOP starting at ``first_pts`` (decoding it again adds only frames it lacks), else a
        new one."""
        gop = self._gops.get((segment, first_pts))
        if gop is not None and gop.pts and gop.pts[0] == first_pts:
            self._gops.move_to_end((segment, first_pts))
            return gop
        return self.new_gop(segment, first_pts)

    def append(self, gop: Gop, vf: av.VideoFrame, busy: Iterable[Gop | None] = ()) -> None:
        """Store a decoded frame at the end of ``gop``; ``busy`` GOPs (being filled) are never evicted."""
        self.decoded += 1
        stored = StoredFrame(vf)
        gop.frames.append(stored)
        gop.pts.append(stored.pts)
        gop.nbytes += stored.nbytes
        self.nbytes += stored.nbytes
        self._evict({id(g) for g in busy if g is not None} | {id(gop)})

    def _evict(self, busy: set[int]) -> None:
        for key in list(self._gops):
            if self.nbytes <= self.max_bytes or len(self._gops) <= self.keep_at_least:
                return
            if id(self._gops[key]) not in busy:
                self._drop(key)

    def _drop(self, key: tuple[int, int]) -> None:
        gop = self._gops.pop(key, None)
        if gop is None:
            return
        keys = self._keys[key[0]]
        keys.pop(bisect.bisect_left(keys, key[1]))
        self.nbytes -= gop.nbytes
        gop.frames = []
        gop.pts = []

    def containing(self, segment: int, pts: int) -> Gop | None:
        """The cached GOP with the greatest first pts at or before ``pts`` (marked recently used)."""
        keys = self._keys.get(segment, [])
        i = bisect.bisect_right(keys, pts) - 1
        if i < 0:
            return None
        key = (segment, keys[i])
        self._gops.move_to_end(key)
        return self._gops[key]

    def at_or_before(self, segment: int, pts: int) -> tuple[Gop, int] | None:
        """(gop, i): the cached last frame with pts <= ``pts``, only when it is certainly the last."""
        gop = self.containing(segment, pts)
        if gop is None or not gop.pts or gop.pts[0] > pts:
            return None
        if pts < gop.pts[-1]:
            return gop, bisect.bisect_right(gop.pts, pts) - 1
        if gop.complete and (gop.end_pts is None or pts < gop.end_pts):
            return gop, len(gop.pts) - 1
        return None

    def exact(self, segment: int, pts: int) -> tuple[Gop, int] | None:
        """(gop, i) of the cached frame with exactly this pts."""
        gop = self.containing(segment, pts)
        if gop is None or not gop.pts:
            return None
        i = bisect.bisect_left(gop.pts, pts)
        return (gop, i) if i < len(gop.pts) and gop.pts[i] == pts else None

    def after(self, segment: int, pts: int) -> tuple[Gop, int] | bool | None:
        """(gop, i) of the cached first frame with pts > ``pts``; False at the end; None if not cached."""
        gop = self.containing(segment, pts)
        if gop is None or not gop.pts or gop.pts[0] > pts:
            return None
        if pts < gop.pts[-1]:
            return gop, bisect.bisect_right(gop.pts, pts)
        if not gop.complete:
            return None
        if gop.end_pts is None:
            return False
        nxt = self._gops.get((segment, gop.end_pts))
        if nxt is not None and nxt.pts and nxt.pts[0] == gop.end_pts:
            self._gops.move_to_end((segment, gop.end_pts))
            return nxt, 0
        return None

    def clear(self) -> None:
        self._gops.clear()
        self._keys.clear()
        self.nbytes = 0
