"""Frame-accurate access to a game's video: one timeline in media milliseconds over one or more segments.

* Frames are addressed by presentation time (pts), never by frame counters. ``frame_at(t)`` returns the frame
  on screen at ``t``: the last frame whose time is at or before ``t``.
* Timeline ms: for segments whose pts run on from one to the next (a segmenting recorder), the timeline is
  the video's own pts in ms, gaps included. For segments whose pts restart at zero, each segment starts where
  the previous one ended. A bundle may store each segment's start (``{"path": ..., "t0": ms}``); stored
  starts win.
* Seeking goes to the keyframe before the target and decodes forward. Decoded groups of pictures (GOPs) are
  kept in an LRU cache (as compact YUV frames, converted to RGB on access) so stepping backwards is instant.
* A packet index per segment (:mod:`vision.keyframes`) is built in a background thread; the first frame
  does not wait for it. Damage (truncation, overwritten bytes, missing segments, decode errors) is
  reported as ``(from_ms, to_ms, reason)`` in :attr:`VideoTimeline.damaged`, and reading continues after it.

Not thread-safe per instance except that :meth:`iter_frames` opens its own containers; the review player
drives one instance from a single decode thread.
"""

from __future__ import annotations

__all__ = [
    "Damage",
    "DecodeStats",
    "Frame",
    "SegmentSpec",
    "VideoError",
    "VideoTimeline",
    "parse_video_field",
    "tune_allocator",
]

import bisect
import ctypes
import platform
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import av
import numpy as np

from vision.fragments import is_mp4, mp4_resume_points
from vision.gopcache import Gop, GopCache, frame_rgb
from vision.keyframes import open_input, scan_packets
from vision.segments import Segment, SegmentSpec, VideoError, parse_video_field, part_reason

DEFAULT_CACHE_BYTES = 512 * 1024 * 1024
# Without an index, decode forward from the current position instead of seeking when the target is this
# close ahead (ms); with an index, decode forward whenever the target is in the GOP being decoded.
FORWARD_DECODE_MS = 1500


def tune_allocator() -> bool:
    """Serve frame-sized allocations from the heap instead of fresh mmaps (glibc only; process-wide).

    A GOP cache keeps dozens of multi-megabyte frames alive, so glibc hands each new frame a fresh mmap:
    page faults on every frame and munmap on every eviction. Raising the mmap threshold to its maximum
    (32 MiB) and the trim threshold keeps freed frame buffers for reuse. In bench/bench_seek.py this made
    sequential 1080p decoding through the cache about twice as fast. Applications (the review window,
    the benchmark) opt in; the library never changes the allocator on its own. Returns True when set.
    """
    if not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc":
        return False
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return False
    m_trim_threshold, m_mmap_threshold = -1, -3
    ok_mmap = libc.mallopt(m_mmap_threshold, 32 * 1024 * 1024)
    ok_trim = libc.mallopt(m_trim_threshold, 256 * 1024 * 1024)
    return bool(ok_mmap and ok_trim)


@dataclass(frozen=True)
class Damage:
    """A stretch of the timeline that could not be read as recorded."""

    from_ms: int
    to_ms: int
    reason: str


@dataclass(frozen=True, eq=False)
class Frame:
    """One decoded frame.

    image: (height, width, 3) uint8 RGB.
    pts_ms: timeline time of the frame in ms; pts: the stream pts inside its segment.
    """

    image: np.ndarray
    pts_ms: int
    index_in_gop: int
    segment: int
    pts: int
    key: bool

    def __post_init__(self) -> None:
        if self.image.ndim != 3 or self.image.shape[2] != 3 or self.image.dtype != np.uint8:
            raise ValueError(f"image must be (h, w, 3) uint8, got {self.image.shape} {self.image.dtype}")


@dataclass(frozen=True)
class DecodeStats:
    """Work done so far by a timeline's random-access reader."""

    seeks: int
    decoded: int  # frames decoded into the GOP cache
    cached_gops: int
    cached_bytes: int


class VideoTimeline:
    """One or more video segments read as one timeline in media ms (see the module docstring)."""

    def __init__(
        self,
        sources: str | Path | Sequence[str | Path | SegmentSpec],
        *,
        cache_bytes: int = DEFAULT_CACHE_BYTES,
        threads: int = 2,
        background_index: bool = True,
        index: bool = True,
        on_change: Callable[[], None] | None = None,
    ) -> None:
        items = [sources] if isinstance(sources, (str, Path)) else list(sources)
        specs = [s if isinstance(s, SegmentSpec) else SegmentSpec(Path(s)) for s in items]
        if not specs:
            raise VideoError("no video segments given")
        self._lock = threading.RLock()
        self._threads = threads
        self._on_change = on_change
        self._changed = threading.Event()
        self._damage: list[Damage] = []
        self._segments: list[Segment] = []
        self._cache = GopCache(cache_bytes)
        self._open_segments(specs)
        if not self._segments:
            reasons = "; ".join(d.reason for d in self._damage)
            raise VideoError(f"no readable video: {reasons}")
        self._stop = threading.Event()
        self._index_done = threading.Event()
        self._index_thread: threading.Thread | None = None
        if not index:
            self._index_done.set()  # no index wanted (benchmarks): seek with the container's own index
        elif background_index:
            self._index_thread = threading.Thread(target=self._build_index, name="video-index", daemon=True)
            self._index_thread.start()
        else:
            self._build_index()

    # -- opening --------------------------------------------------------------------------------------
    def _open_segments(self, specs: list[SegmentSpec]) -> None:
        prev_end_ms: int | None = None
        missing: list[str] = []
        for spec in specs:
            try:
                if not spec.path.is_file():
                    raise FileNotFoundError(f"segment file missing: {spec.path}")
                seg = Segment(len(self._segments), spec.path, self._threads)
            except (av.error.FFmpegError, OSError, VideoError) as e:
                missing.append(str(e) if isinstance(e, FileNotFoundError) else f"{spec.path}: {e}")
                continue
            abs_ms = seg.first_pts * seg.tb * 1000
            if spec.t0 is not None:
                seg.offset_ms = spec.t0
            elif prev_end_ms is None:
                seg.offset_ms = round(abs_ms)
            else:
                continuous = round(abs_ms)
                # pts that run on (a segmenting recorder) keep their own time, gaps included; pts that
                # restart start where the previous segment ended
                seg.offset_ms = continuous if continuous >= prev_end_ms - 100 else prev_end_ms
            for why in missing:
                at = prev_end_ms if prev_end_ms is not None else seg.offset_ms
                self._damage.append(Damage(at, max(at, seg.offset_ms), why))
            missing = []
            self._add_segment(seg)
            prev_end_ms = seg.to_ms(seg.end_pts())
            for part in self._parts_after_damage(seg):
                why = f"{spec.path.name}: {part_reason(part)}"
                self._damage.append(Damage(prev_end_ms, max(prev_end_ms, part.offset_ms), why))
                self._add_segment(part)
                prev_end_ms = part.to_ms(part.end_pts())
        for why in missing:
            at = prev_end_ms or 0
            self._damage.append(Damage(at, at, why))

    def _add_segment(self, seg: Segment) -> None:
        seg.number = len(self._segments)
        seg.on_decode_error = self._decode_error_handler(seg)
        self._segments.append(seg)

    def _parts_after_damage(self, seg: Segment) -> list[Segment]:
        """Later readable parts of a fragmented MP4 whose middle is damaged (see vision.fragments)."""
        if not is_mp4(seg.path):
            return []
        init_end, resumes = mp4_resume_points(seg.path)
        parts: list[Segment] = []
        prev = seg
        for r in resumes:
            try:
                part = Segment(-1, seg.path, self._threads, hide=(init_end, r.resume_at))
            except (av.error.FFmpegError, OSError, VideoError):
                continue
            part.damage_bytes = (r.damage_from, r.resume_at)
            part.offset_ms = seg.offset_ms + round((part.first_pts - seg.first_pts) * seg.tb * 1000)
            prev.has_next_part = True
            parts.append(part)
            prev = part
        return parts

    def _decode_error_handler(self, seg: Segment) -> Callable[[int, str], None]:
        def report(pts: int, why: str) -> None:
            t = seg.to_ms(pts)
            self._add_damage(Damage(t, t, f"{seg.path.name}: {why}"))

        return report

    def _add_damage(self, d: Damage) -> None:
        """Record damage (call with the lock held); listeners hear of it from :meth:`_notify`."""
        for old in self._damage:
            if old.reason == d.reason and old.from_ms - 1000 <= d.from_ms <= old.to_ms + 1000:
                if d.from_ms < old.from_ms or d.to_ms > old.to_ms:
                    self._damage.remove(old)
                    merged = Damage(min(old.from_ms, d.from_ms), max(old.to_ms, d.to_ms), d.reason)
                    self._damage.append(merged)
                    self._changed.set()
                break
        else:
            self._damage.append(d)
            self._changed.set()

    def _notify(self) -> None:
        """Tell ``on_change`` about new damage or index state; never called with the lock held, so a
        listener may read the timeline's properties from any thread without a lock-order deadlock."""
        if self._changed.is_set():
            self._changed.clear()
            if self._on_change is not None and not self._stop.is_set():
                self._on_change()

    def _build_index(self) -> None:
        try:
            for seg in self._segments:
                if self._stop.is_set():
                    return
                try:
                    index = scan_packets(seg.path, self._stop, seg.hide, not seg.has_next_part)
                except (av.error.FFmpegError, OSError) as e:
                    with self._lock:
                        why = f"{seg.path}: cannot index: {e}"
                        self._add_damage(Damage(seg.offset_ms, seg.offset_ms, why))
                    self._notify()
                    continue
                if not index.complete:
                    return
                with self._lock:
                    seg.index = index
                    if seg.has_next_part and seg.number + 1 < len(self._segments):
                        self._refine_part_damage(seg, self._segments[seg.number + 1])
                    for d in index.damaged:
                        self._add_damage(
                            Damage(seg.to_ms(d.from_pts), seg.to_ms(d.to_pts), f"{seg.path.name}: {d.reason}")
                        )
                self._notify()
        finally:
            self._index_done.set()
            self._changed.set()
            self._notify()

    def _refine_part_damage(self, seg: Segment, part: Segment) -> None:
        """Once indexed, the readable end of ``seg`` is known exactly: start the skipped stretch there."""
        if seg.index is None:
            return
        reason = f"{part.path.name}: {part_reason(part)}"
        for d in list(self._damage):
            if d.reason == reason:
                self._damage.remove(d)
                self._damage.append(Damage(seg.to_ms(seg.index.end_pts), d.to_ms, reason))
                self._changed.set()

    # -- facts ----------------------------------------------------------------------------------------
    @property
    def index_ready(self) -> bool:
        return self._index_done.is_set()

    def wait_index(self, timeout: float | None = None) -> bool:
        return self._index_done.wait(timeout)

    @property
    def start_ms(self) -> int:
        return self._segments[0].offset_ms

    @property
    def duration_ms(self) -> int:
        """End of the last readable frame on the timeline (provisional until the index is ready)."""
        last = self._segments[-1]
        return last.to_ms(last.end_pts())

    @property
    def fps(self) -> float:
        s = self._segments[0].stream
        rate = s.average_rate or s.guessed_rate or s.base_rate
        return float(rate) if rate else 25.0

    @property
    def frame_size(self) -> tuple[int, int]:
        cc = self._segments[0].stream.codec_context
        return (int(cc.width), int(cc.height))

    @property
    def segment_paths(self) -> list[Path]:
        return [s.path for s in self._segments]

    @property
    def damaged(self) -> list[Damage]:
        with self._lock:
            return sorted(self._damage, key=lambda d: (d.from_ms, d.to_ms, d.reason))

    @property
    def stats(self) -> DecodeStats:
        """Counters for tests and benchmarks."""
        with self._lock:
            seeks = sum(s.seeks for s in self._segments)
            return DecodeStats(seeks, self._cache.decoded, len(self._cache), self._cache.nbytes)

    def frame_number(self, frame: Frame) -> int | None:
        """The frame's number on the whole timeline (0-based), once the index is ready; else None."""
        if not self.index_ready:
            return None
        base = 0
        for seg in self._segments:
            if seg.index is None:
                return None
            if seg.number == frame.segment:
                n = seg.index.frame_number(frame.pts)
                return None if n is None else base + n
            base += len(seg.index)
        return None

    # -- decoding -------------------------------------------------------------------------------------
    def _decode_past(self, seg: Segment, pts: int) -> None:
        """Decode until a frame with pts > ``pts`` (or the segment's end) is cached, seeking if needed."""
        target_kf = seg.index.keyframe_at_or_before(pts) if seg.index is not None else None
        cur = seg.cursor_pts
        use_cursor = cur is not None and cur <= pts and seg.cursor_gop is not None
        if use_cursor and cur is not None:
            if target_kf is not None:
                gop_start = seg.cursor_gop.pts[0] if seg.cursor_gop and seg.cursor_gop.pts else cur
                use_cursor = target_kf <= gop_start or target_kf <= cur
            else:
                use_cursor = float((pts - cur) * seg.tb * 1000) <= FORWARD_DECODE_MS
        if not use_cursor:
            self._seek_for(seg, pts, target_kf)
        while seg.cursor_pts is None or seg.cursor_pts <= pts:
            frame = seg.next_decoded()
            if frame is None:
                if seg.cursor_gop is not None:
                    seg.cursor_gop.complete = True
                    seg.cursor_gop.end_pts = None
                seg.cursor_gop = None
                return
            fpts = int(frame.pts or 0)  # next_decoded never returns a frame without pts
            if seg.cursor_pts is not None and fpts <= seg.cursor_pts:
                continue  # a leading frame of an open GOP, or a repeat after an error
            if seg.cursor_gop is None or frame.key_frame:
                if seg.cursor_gop is not None:
                    seg.cursor_gop.complete = True
                    seg.cursor_gop.end_pts = fpts
                seg.cursor_gop = self._cache.get_or_new(seg.number, fpts)
            if not seg.cursor_gop.pts or fpts > seg.cursor_gop.pts[-1]:
                self._append(seg.cursor_gop, frame)  # else: already cached (a GOP decoded again)
            seg.cursor_pts = fpts
            if fpts > pts:
                return

    def _seek_for(self, seg: Segment, pts: int, keyframe: int | None) -> None:
        """Seek so that decoding starts at or before ``pts`` (retrying earlier if the demuxer overshoots)."""
        attempts = [keyframe if keyframe is not None else pts]
        step = int(2 / seg.tb)
        attempts += [pts - step, pts - 5 * step, seg.first_pts]
        for at in attempts:
            seg.seek(at)
            frame = seg.next_decoded()
            if frame is None or frame.pts is None:
                continue
            if int(frame.pts) <= max(pts, seg.first_pts) or at <= seg.first_pts:
                gop = self._cache.get_or_new(seg.number, int(frame.pts))
                seg.cursor_gop = gop
                if not gop.pts:
                    self._append(gop, frame)
                seg.cursor_pts = int(frame.pts)
                return
        seg.seek(seg.first_pts)

    def _append(self, gop: Gop, frame: av.VideoFrame) -> None:
        self._cache.append(gop, frame, busy=[s.cursor_gop for s in self._segments])

    def _make_frame(self, seg: Segment, gop: Gop, i: int) -> Frame:
        stored = gop.frames[i]
        return Frame(stored.rgb(), seg.to_ms(stored.pts), i, seg.number, stored.pts, stored.key)

    def _segment_for(self, t_ms: int) -> Segment:
        starts = [s.offset_ms for s in self._segments]
        i = max(0, bisect.bisect_right(starts, t_ms) - 1)
        return self._segments[i]

    def _frame_at_pts(self, seg: Segment, pts: int, unless: Frame | None = None) -> Frame | None:
        pts = max(pts, seg.first_pts)
        for _ in range(2):
            hit = self._cache.at_or_before(seg.number, pts)
            if hit is None and seg.index is not None:
                # the index names the frame exactly: no need to have decoded the one after it
                exact = seg.index.frame_at_or_before(pts)
                hit = self._cache.exact(seg.number, exact) if exact is not None else None
            if hit is not None:
                gop, i = hit
                if unless is not None and unless.segment == seg.number and unless.pts == gop.pts[i]:
                    return unless
                return self._make_frame(seg, gop, i)
            self._decode_past(seg, pts)
        hit = self._cache.at_or_before(seg.number, pts)
        if hit is None:
            near = self._cache.containing(seg.number, pts)
            if near is None or not near.pts:
                return None
            gop = near
            i = bisect.bisect_right(gop.pts, pts) - 1 if gop.pts[0] <= pts else 0
            return self._make_frame(seg, gop, i)
        return self._make_frame(seg, *hit)

    # -- public access --------------------------------------------------------------------------------
    def frame_at(self, t_ms: int, *, unless: Frame | None = None) -> Frame:
        """The frame on screen at timeline time ``t_ms`` (clamped to the video).

        When that frame is ``unless`` (a frame already shown), ``unless`` itself is returned without
        converting the picture again: a player polling at its clock rate pays nothing between frames.
        """
        try:
            with self._lock:
                seg = self._segment_for(t_ms)
                frame = self._frame_at_pts(seg, seg.last_pts_at_or_before(t_ms), unless)
                if frame is None:
                    # nothing readable in this segment at or before t: the nearest readable frame instead
                    for other in [*self._segments[seg.number + 1 :], *reversed(self._segments[: seg.number])]:
                        frame = self._frame_at_pts(other, other.first_pts)
                        if frame is not None:
                            break
                if frame is None:
                    raise VideoError(f"no decodable frame near {t_ms} ms in {seg.path}")
                return frame
        finally:
            self._notify()

    def next_frame(self, frame: Frame) -> Frame | None:
        """The frame after ``frame`` (crossing into the next segment); None at the end."""
        try:
            with self._lock:
                seg = self._segments[frame.segment]
                hit = self._cache.after(seg.number, frame.pts)
                if hit is None:
                    self._decode_past(seg, frame.pts)
                    hit = self._cache.after(seg.number, frame.pts)
                if isinstance(hit, tuple):
                    return self._make_frame(seg, *hit)
                for nxt in self._segments[frame.segment + 1 :]:
                    out = self._frame_at_pts(nxt, nxt.first_pts)
                    if out is not None:
                        return out
                return None
        finally:
            self._notify()

    def prev_frame(self, frame: Frame) -> Frame | None:
        """The frame before ``frame`` (crossing into the previous segment); None at the start."""
        try:
            with self._lock:
                seg = self._segments[frame.segment]
                if frame.pts > seg.first_pts:
                    out = self._frame_at_pts(seg, frame.pts - 1)
                    if out is not None and out.pts < frame.pts:
                        return out
                for prev in reversed(self._segments[: frame.segment]):
                    out = self._frame_at_pts(prev, prev.end_pts() + 1_000_000_000)
                    if out is not None:
                        return out
                return None
        finally:
            self._notify()

    def decode_ahead(self, frame: Frame) -> bool:
        """Make sure the frame after ``frame`` is decoded and cached (a player calls it while idle during
        playback, so the next frame's request only converts it). Returns True when it decoded."""
        try:
            with self._lock:
                seg = self._segments[frame.segment]
                if self._cache.after(seg.number, frame.pts) is not None:
                    return False
                self._decode_past(seg, frame.pts)
                return True
        finally:
            self._notify()

    def warm_before(self, frame: Frame, within: int = 8) -> bool:
        """Decode the GOP before ``frame`` into the cache when ``frame`` is among the first ``within``
        frames of its GOP, so that stepping back across the GOP start is instant too. Returns True when it
        decoded something. A player calls it while idle after a backward step."""
        try:
            with self._lock:
                seg = self._segments[frame.segment]
                if frame.index_in_gop >= within or frame.pts <= seg.first_pts:
                    return False
                gop = self._cache.containing(seg.number, frame.pts)
                if gop is None or not gop.pts or gop.pts[0] <= seg.first_pts:
                    return False
                before = gop.pts[0] - 1
                if self._cache.at_or_before(seg.number, before) is not None:
                    return False
                self._decode_past(seg, before)
                return True
        finally:
            self._notify()

    def iter_frames(
        self,
        start_ms: int | None = None,
        end_ms: int | None = None,
        step_ms: int | None = None,
        *,
        keyframes_only: bool = False,
    ) -> Iterator[Frame]:
        """Sequential decode for analysis: frames with ``start_ms <= pts_ms < end_ms``.

        With ``step_ms``, yields the first frame at or after each multiple of ``step_ms`` from ``start_ms``
        (the frames between are decoded but not converted). With ``keyframes_only``, the decoder skips every
        frame but the keyframes (about one a second in our recordings), which is far cheaper than decoding
        and dropping them: the sparse reading of the analyser. Opens its own containers with threaded
        decoding, so it does not disturb :meth:`frame_at`'s cursor and may run in another thread.
        """
        start = self.start_ms if start_ms is None else start_ms
        next_due = start
        for seg in self._segments:
            if end_ms is not None and seg.offset_ms >= end_ms:
                return
            with open_input(seg.path, seg.hide) as container:
                stream = container.streams.video[0]
                stream.thread_type = "AUTO"
                stream.thread_count = self._threads
                if keyframes_only:
                    stream.codec_context.skip_frame = "NONKEY"
                if start > seg.offset_ms:
                    container.seek(max(seg.last_pts_at_or_before(start), seg.first_pts), stream=stream)
                index_in_gop = -1
                try:
                    for packet in container.demux(stream):
                        try:
                            decoded = packet.decode()
                        except av.error.FFmpegError as e:
                            if packet.pts is not None:
                                t = seg.to_ms(int(packet.pts))
                                with self._lock:
                                    self._add_damage(Damage(t, t, f"{seg.path.name}: decode error: {e}"))
                                self._notify()
                            continue
                        for vf in decoded:
                            if vf.pts is None:
                                continue
                            index_in_gop = 0 if vf.key_frame else index_in_gop + 1
                            t = seg.to_ms(int(vf.pts))
                            if end_ms is not None and t >= end_ms:
                                return
                            if t < start or t < next_due:
                                continue
                            if step_ms:
                                next_due = start + ((t - start) // step_ms + 1) * step_ms
                            image = frame_rgb(vf)
                            yield Frame(image, t, index_in_gop, seg.number, int(vf.pts), bool(vf.key_frame))
                except (av.error.FFmpegError, OSError) as e:
                    with self._lock:
                        self._add_damage(Damage(next_due, next_due, f"{seg.path.name}: read error: {e}"))
                    self._notify()

    def close(self) -> None:
        self._stop.set()
        if self._index_thread is not None:
            self._index_thread.join(timeout=10)
        with self._lock:
            for seg in self._segments:
                seg.close()
            self._cache.clear()

    def __enter__(self) -> VideoTimeline:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
