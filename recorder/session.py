"""A recording session: source → bounded ring → ffmpeg segments, plus host marks, all crash-safe.

Threads: the *reader* takes frames from the source and hands them to the ring without ever waiting (a
full ring drops the frame and counts it); the *writer* stamps each frame with its pts (its capture time
as media ms), feeds ffmpeg, writes the timeline and feeds the live tap; the *monitor* watches free disk.

Faults: a source that stops delivering closes the segment (what was recorded stays) and the reader tries
to reopen it; its next frame opens a new segment at its own media time (the gap keeps counting). A dead
ffmpeg is replaced by a new segment starting at the next frame. A disk about to fill stops the recording
cleanly. Everything written is durable as it goes (fsynced marks, flushed Matroska clusters, ``game.json``
rewritten atomically at every new segment), so a killed process leaves a bundle that opens.

Use: ``s = RecordingSession(bundle, source); s.start(); s.mark({"type": "vote_stop"}); s.stop()``.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gamelog.events import Event, event_to_json, parse_event
from recorder import bundle_io
from recorder.audio import AudioInput
from recorder.diskspace import DiskGuard, DiskProbe, free_bytes
from recorder.pcmtap import PcmTap
from recorder.ring import Control, EndOfStream, FrameRing, SourceGap
from recorder.sources import Frame, FrameSource, SourceEnded, SourceError, SourceLost
from recorder.tap import LiveTap
from recorder.timebase import Clock, SystemClock, Timeline, iso_wall
from recorder.writer import EncoderSettings, SegmentSpec, SegmentWriter, WriterDied

log = logging.getLogger("recorder.session")

TIMELINE_FILE = "timeline.jsonl"


@dataclass(frozen=True)
class RecorderConfig:
    segment_s: float = 300.0
    # 0.8 s at 30 fps: absorbs jitter (a moment without the CPU, the live check's landmarker starting);
    # more only delays frames on a busy machine, and what waits here is lost if the recorder is killed
    ring_frames: int = 24
    encoder: EncoderSettings = field(default_factory=EncoderSettings)
    tap_width: int = 640
    tap_every: int = 1
    disk_warn_bytes: int = 3_000_000_000
    disk_stop_bytes: int = 200_000_000
    disk_check_s: float = 1.0
    drop_report_s: float = 10.0
    reconnect_s: float = 1.0
    timeline_fsync_s: float = 1.0
    max_restarts: int = 5  # ffmpeg restarts within restart_window_s before the session gives up
    restart_window_s: float = 60.0
    players: int = 10
    rules: str = "federation"
    video_dir: str = "video"


@dataclass(frozen=True)
class Notice:
    """Something the operator should see: ``kind`` is source_lost, source_back, writer_died, disk_low,
    disk_full, frames_dropped, timeline_error, stopped."""

    t_ms: int
    kind: str
    message: str


@dataclass(frozen=True)
class RecorderStatus:
    state: str  # starting, recording, source lost, stopped
    media_ms: int
    frames_captured: int
    frames_written: int
    dropped: int  # the ring was full (the writer fell behind)
    fps: float
    segment: str | None
    segments: tuple[str, ...]
    bytes_written: int
    free_bytes: int | None
    disk_low: bool
    source_losses: int
    writer_restarts: int
    marks: int
    stop_reason: str | None
    notices: tuple[Notice, ...] = field(default=(), repr=False)


@dataclass
class _Segment:
    index: int
    rel: str
    writer: SegmentWriter
    start_ms: int
    size: tuple[int, int]
    pix_fmt: str = "rgb24"


class RecordingSession:
    def __init__(
        self,
        bundle_dir: str | Path,
        source: FrameSource,
        config: RecorderConfig | None = None,
        *,
        clock: Clock | None = None,
        microphone: AudioInput | None = None,
        disk_probe: DiskProbe = free_bytes,
        on_notice: Callable[[Notice], None] | None = None,
        writer_factory: Callable[[SegmentSpec], SegmentWriter] = SegmentWriter,
    ) -> None:
        self.bundle = Path(bundle_dir)
        self.source = source
        self.config = config or RecorderConfig()
        self.clock: Clock = clock or SystemClock()
        self.microphone = microphone
        self.on_notice = on_notice
        self._writer_factory = writer_factory
        cfg = self.config
        self.ring: FrameRing[Frame | Control] = FrameRing(cfg.ring_frames)
        self.tap = LiveTap(cfg.tap_width, every=cfg.tap_every)
        # the last seconds of the sound being recorded (when there is audio), never ahead of media time
        self.pcm = PcmTap(now_ms=lambda: float(self.media_ms()))
        self._disk = DiskGuard(
            self.bundle, warn_bytes=cfg.disk_warn_bytes, stop_bytes=cfg.disk_stop_bytes, probe=disk_probe
        )
        self._t0: float | None = None
        self._stop = threading.Event()
        self._done = threading.Event()
        self._lock = threading.Lock()
        self._mark_lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        self._closers: list[threading.Thread] = []
        self._notices: deque[Notice] = deque(maxlen=50)
        self._recent: deque[float] = deque()
        self._segments: list[str] = []
        self._current: str | None = None
        self._info: bundle_io.GameInfo | None = None
        self._events: bundle_io.EventWriter | None = None
        self._timeline: Timeline | None = None
        self._state = "starting"
        self._stop_reason: str | None = None
        self._finalized = False
        self._closed = False
        self._restarts: deque[float] = deque()
        self.captured = 0
        self.written = 0
        self.source_losses = 0
        self.writer_restarts = 0
        self.marks = 0
        self._free: int | None = None
        self._last_pts = -1  # the last pts written: pts increase strictly across segments
        self._disk_low = False

    # ---- life cycle ---------------------------------------------------------------------------------

    def start(self) -> None:
        """Open the source (a :class:`SourceError` propagates before anything is written), create the
        bundle, start the threads."""
        self._t0 = self.clock.monotonic()
        wall0 = self.clock.wall()
        self.source.open()
        try:
            self._info, self._events = bundle_io.new_bundle(
                self.bundle, started_at=iso_wall(wall0), players=self.config.players, rules=self.config.rules
            )
            self._timeline = Timeline(self.bundle / TIMELINE_FILE, self.clock, self.config.timeline_fsync_s)
        except BaseException:
            self.source.close()
            raise
        self._timeline.write(
            {
                "kind": "start",
                "mono": self._t0,
                "wall": wall0,
                "wall_iso": iso_wall(wall0),
                "source": self.source.name,
                "fps": self.source.fps,
                "size": list(self.source.size),
            },
            sync=True,
        )
        self._state = "recording"
        for name, target in (("reader", self._reader), ("writer", self._writer), ("monitor", self._monitor)):
            t = threading.Thread(target=target, name=f"recorder-{name}", daemon=True)
            self._threads.append(t)
            t.start()

    def stop(self, reason: str = "stopped") -> RecorderStatus:
        """Stop cleanly: finish the segment, rewrite game.json, close the logs, seal. Idempotent."""
        self.request_stop(reason)
        try:
            for t in self._threads:
                t.join()
        finally:
            self._finalize()
            with self._lock:
                if not self._closed:
                    self._closed = True
                    if self._events is not None:
                        self._events.close()
                    try:
                        bundle_io.seal(self.bundle)
                    except Exception:  # sealing must never cost the recording
                        log.exception("%s: sealing failed", self.bundle)
        return self.status()

    def request_stop(self, reason: str) -> None:
        with self._lock:
            if self._stop_reason is None:
                self._stop_reason = reason
        self._stop.set()

    def wait(self, timeout: float | None = None) -> bool:
        """True once the recording has ended (stopped, or stopped itself: disk full, source ended)."""
        return self._done.wait(timeout)

    # ---- marks --------------------------------------------------------------------------------------

    def media_ms(self) -> int:
        if self._t0 is None:
            return 0
        return max(0, round((self.clock.monotonic() - self._t0) * 1000))

    def mark(self, event: Event | Mapping[str, Any], *, t_ms: int | None = None) -> Event:
        """Append a host mark to events.jsonl, durably, with ``t`` = the current media time (or ``t_ms``).

        ``event`` is an :class:`Event` or a mapping with ``type`` and the type's fields; ``src`` defaults to
        ``host`` and ``id`` to a fresh one. Raises :class:`gamelog.events.EventError` for a bad mark (nothing
        is written then)."""
        if self._events is None:
            raise RuntimeError("the session has not started")
        with self._mark_lock:
            t = self.media_ms() if t_ms is None else t_ms
            obj = event_to_json(event) if isinstance(event, Event) else dict(event)
            obj["t"] = t
            obj.setdefault("src", "host")
            if not obj.get("id"):
                obj["id"] = f"{obj['src']}-{self.marks + 1}"
            ev = parse_event(obj, file=str(self.bundle / "events.jsonl"))
            self._events.append(ev)
            self.marks += 1
            return ev

    # ---- status -------------------------------------------------------------------------------------

    def status(self) -> RecorderStatus:
        with self._lock:
            segments = tuple(self._segments)
            notices = tuple(self._notices)
            recent = list(self._recent)
        fps = (
            (len(recent) - 1) / (recent[-1] - recent[0])
            if len(recent) > 2 and recent[-1] > recent[0]
            else 0.0
        )
        size = 0
        for rel in segments:
            with contextlib.suppress(OSError):
                size += (self.bundle / rel).stat().st_size
        return RecorderStatus(
            state=self._state,
            media_ms=self.media_ms(),
            frames_captured=self.captured,
            frames_written=self.written,
            dropped=self.ring.dropped,
            fps=round(fps, 2),
            segment=self._current,
            segments=segments,
            bytes_written=size,
            free_bytes=self._free,
            disk_low=self._disk_low,
            source_losses=self.source_losses,
            writer_restarts=self.writer_restarts,
            marks=self.marks,
            stop_reason=self._stop_reason,
            notices=notices,
        )

    def _notice(self, kind: str, message: str) -> None:
        n = Notice(self.media_ms(), kind, message)
        with self._lock:
            self._notices.append(n)
        (log.info if kind in ("source_back", "stopped") else log.warning)("%s: %s", kind, message)
        if self._timeline is not None:
            self._timeline.write({"kind": "notice", "what": kind, "t": n.t_ms, "message": message}, sync=True)
        if self.on_notice is not None:
            try:
                self.on_notice(n)
            except Exception:
                log.exception("notice listener failed")

    # ---- reader -------------------------------------------------------------------------------------

    def _reader(self) -> None:
        src = self.source
        is_open = True
        try:
            while not self._stop.is_set():
                if not is_open:
                    try:
                        src.open()
                        is_open = True
                        self._notice("source_back", f"{src.name} delivers again")
                    except SourceError as e:
                        log.debug("reopen failed: %s", e)
                        self._stop.wait(self.config.reconnect_s)
                        continue
                try:
                    frame = src.read()
                except SourceEnded as e:
                    self._notice("stopped", str(e))
                    self.request_stop("source ended")
                    break
                except (SourceLost, OSError, ValueError) as e:
                    self.source_losses += 1
                    self._state = "source lost"
                    self._notice("source_lost", f"{e}; recorded video is kept, retrying")
                    self.ring.push_control(SourceGap(str(e)))
                    src.close()
                    is_open = False
                    self._stop.wait(self.config.reconnect_s)
                    continue
                self.captured += 1
                if self._state == "source lost":
                    self._state = "recording"
                if src.live:
                    self.ring.push(frame)  # never waits: a full ring drops the frame and counts it
                else:
                    while not self.ring.push_wait(frame, 0.2) and not self._stop.is_set():
                        pass
        except BaseException as e:  # never leave the writer waiting
            log.exception("reader failed")
            self.request_stop(f"reader failed: {e}")
        finally:
            if is_open:
                src.close()
            self.ring.push_control(EndOfStream())

    # ---- writer -------------------------------------------------------------------------------------

    def _media_s(self, frame: Frame) -> float:
        assert self._t0 is not None
        return max(0.0, frame.t - self._t0)

    def _pts(self, frame: Frame) -> int:
        """The frame's pts: its capture time as media ms, nudged to stay strictly increasing."""
        pts = round(self._media_s(frame) * 1000)
        return pts if pts > self._last_pts else self._last_pts + 1

    def _open_segment(self, frame: Frame, pts: int) -> _Segment:
        assert self._info is not None
        fps = self.source.fps or 30.0
        index = len(self._segments) + 1
        rel = f"{self.config.video_dir}/seg-{index:04d}.mkv"
        audio = self.source.audio_for(frame) or self.microphone
        w, h = frame.size
        spec = SegmentSpec(
            self.bundle / rel, (w, h), fps, pts, audio, self.config.encoder, frame.pix_fmt, self.pcm
        )
        writer = self._writer_factory(spec)
        with self._lock:
            self._segments.append(rel)
            self._current = rel
        self._info = bundle_io.set_video(self.bundle, self._info, self._segments)
        if self._timeline is not None:
            self._timeline.write(
                {
                    "kind": "segment",
                    "seg": index,
                    "file": rel,
                    "start_ms": pts,
                    "fps": spec.fps,
                    "size": [w, h],
                    "audio": audio.describe() if audio else None,
                    "source_s": frame.source_pts,  # where in a file source the segment starts (else None)
                },
                sync=True,
            )
        return _Segment(index, rel, writer, pts, (w, h), frame.pix_fmt)

    def _close_segment(self, seg: _Segment, why: str) -> None:
        """Finish a segment on a thread of its own, so the next one is fed meanwhile."""
        with self._lock:
            if self._current == seg.rel:
                self._current = None
        if self._timeline is not None:
            self._timeline.write(
                {"kind": "segment_end", "seg": seg.index, "frames": seg.writer.frames, "why": why}
            )

        def close() -> None:
            rc = seg.writer.close()
            if rc != 0 and why != "ffmpeg died":
                self._notice("writer_died", f"{seg.rel}: ffmpeg ended with status {rc}")

        t = threading.Thread(target=close, name=f"close-{seg.index}", daemon=True)
        t.start()
        self._closers.append(t)

    def _writer_died(self, seg: _Segment, err: WriterDied) -> bool:
        """Note a dead ffmpeg; False when it keeps dying and the session should give up."""
        self.writer_restarts += 1
        now = self.clock.monotonic()
        self._restarts.append(now)
        while self._restarts and now - self._restarts[0] > self.config.restart_window_s:
            self._restarts.popleft()
        self._notice("writer_died", f"{err}; continuing in a new segment")
        self._close_segment(seg, "ffmpeg died")
        return len(self._restarts) <= self.config.max_restarts

    def _write(self, seg: _Segment, frame: Frame, pts: int) -> None:
        img = frame.image if frame.image.flags.c_contiguous else frame.image.copy()
        seg.writer.write(img.data.cast("B"), pts)
        self._last_pts = pts
        self.written += 1
        tl = self._timeline
        assert tl is not None
        wall = self.clock.wall() - (self.clock.monotonic() - frame.t)
        tl.frame(seg.index, seg.writer.frames - 1, pts, frame.t, wall, self.ring.dropped)
        with self._lock:
            self._recent.append(frame.t)
            while self._recent and frame.t - self._recent[0] > 2.0:
                self._recent.popleft()
        self.tap.put(img, pts, frame.pix_fmt)

    def _writer(self) -> None:
        seg: _Segment | None = None
        try:
            while True:
                got, item = self.ring.pop(timeout=0.25)
                if not got:
                    if seg is not None and not seg.writer.alive():
                        err = WriterDied(f"{seg.rel}: ffmpeg exited while idle")
                        self._writer_died(seg, err)
                        seg = None
                    continue
                if isinstance(item, EndOfStream):
                    break
                if isinstance(item, SourceGap):
                    if seg is not None:
                        self._close_segment(seg, "source lost")
                        seg = None
                    continue
                assert isinstance(item, Frame)
                frame = item
                pts = self._pts(frame)
                if seg is not None and (
                    pts - seg.start_ms >= self.config.segment_s * 1000
                    or seg.size != frame.size
                    or seg.pix_fmt != frame.pix_fmt
                ):
                    self._close_segment(seg, "next segment")
                    seg = None
                for attempt in (1, 2):
                    try:
                        if seg is None:
                            seg = self._open_segment(frame, pts)
                        self._write(seg, frame, pts)
                        break
                    except WriterDied as e:
                        if seg is None:  # could not even start ffmpeg
                            self.request_stop(f"cannot start ffmpeg: {e}")
                            return
                        keep_going = self._writer_died(seg, e)
                        seg = None
                        if not keep_going:
                            self.request_stop(f"ffmpeg keeps failing: {e}")
                            return
                        if attempt == 2:
                            break
        except BaseException as e:
            log.exception("writer failed")
            self.request_stop(f"writer failed: {e}")
        finally:
            if seg is not None:
                self._close_segment(seg, "stop")
            if not self._stop.is_set():  # ended early: stop the reader too, nobody takes its frames
                self.request_stop("writer ended")
            for t in self._closers:
                t.join()
            self._finalize()

    # ---- monitor ------------------------------------------------------------------------------------

    def _report_drops(self, since: tuple[float, int]) -> tuple[float, int]:
        """A notice (at most every ``drop_report_s``) when frames were dropped, as OBS logs them."""
        now, dropped = self.clock.monotonic(), self.ring.dropped
        if now - since[0] < self.config.drop_report_s:
            return since
        if dropped > since[1]:
            n = dropped - since[1]
            self._notice(
                "frames_dropped",
                f"{n} frame(s) dropped in the last {now - since[0]:.0f} s "
                f"({dropped} in all): the encoder or the disk is too slow",
            )
        return now, dropped

    def _monitor(self) -> None:
        warned = False
        drops = (self.clock.monotonic(), 0)
        while not self._stop.is_set():
            drops = self._report_drops(drops)
            try:
                state = self._disk.check()
            except OSError as e:
                log.warning("free-space probe failed: %s", e)
            else:
                self._free = state.free
                if state.level == "stop":
                    self._disk_low = True
                    self._notice("disk_full", state.message)
                    self.request_stop(state.message)
                    break
                if state.level == "warn" and not warned:
                    warned = True
                    self._disk_low = True
                    self._notice("disk_low", state.message)
            if self._timeline is not None and self._timeline.failed:
                self._notice("timeline_error", self._timeline.failed)
                self._timeline.failed = None
            self._stop.wait(self.config.disk_check_s)

    # ---- the end ------------------------------------------------------------------------------------

    def _finalize(self) -> None:
        with self._lock:
            if self._finalized:
                return
            self._finalized = True
        try:
            self.tap.close()
            if self._info is not None:
                try:
                    self._info = bundle_io.set_video(self.bundle, self._info, self._segments)
                except OSError as e:  # a full disk: game.json already lists every segment but none new
                    self._notice(
                        "bundle_error", f"{self.bundle / 'game.json'}: not rewritten at the end: {e}"
                    )
            if self._timeline is not None:
                self._timeline.write(
                    {
                        "kind": "stop",
                        "t": self.media_ms(),
                        "why": self._stop_reason,
                        "frames": self.written,
                        "dropped": self.ring.dropped,
                    },
                    sync=True,
                )
                self._timeline.close()
        finally:
            self._state = "stopped"
            self._done.set()
