"""RecordingSession end to end with real ffmpeg processes, and each fault the recorder must survive."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest

from gamelog.bundle import BundleError, load_bundle
from gamelog.events import EventError, VoteCall
from gamelog.manifest import verify
from recorder.camera import CameraSource
from recorder.inspect import check_bundle
from recorder.session import Notice, RecorderConfig, RecordingSession
from recorder.sources import FileSource, TestPatternSource
from recorder.timebase import ManualClock, read_timeline
from recorder.writer import EncoderSettings, SegmentWriter
from tests.recorder.conftest import FlakySource

FAST = EncoderSettings(preset="ultrafast")


def config(**kw: object) -> RecorderConfig:
    base: dict[str, object] = {
        "encoder": FAST,
        "disk_warn_bytes": 0,
        "disk_stop_bytes": 0,
        "reconnect_s": 0.2,
    }
    base.update(kw)
    return RecorderConfig(**base)  # type: ignore[arg-type]


def timeline_pts(bundle: Path) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for r in read_timeline(bundle / "timeline.jsonl"):
        if r["kind"] == "frame":
            out.setdefault(r["seg"], []).append(r["pts"])
    return out


def run_for(session: RecordingSession, seconds: float) -> None:
    session.start()
    try:
        time.sleep(seconds)
    finally:
        session.stop()


def test_records_segments_marks_and_a_sealed_bundle(tmp_path: Path) -> None:
    bundle = tmp_path / "game"
    s = RecordingSession(bundle, TestPatternSource((320, 180), 30.0), config(segment_s=1.0))
    s.start()
    tapped = []
    try:
        marks = []
        for i in range(4):
            time.sleep(0.45)
            marks.append(s.mark({"type": "vote_call", "candidate": i + 1, "round": "main"}))
            f = s.tap.get(timeout=1.0)
            assert f is not None
            tapped.append(f)
        marks.append(s.mark(VoteCall(t=0, src="host", round="all")))
        with pytest.raises(EventError, match=r"events.jsonl: field 'type': unknown event type"):
            s.mark({"type": "no_such_mark"})
        # marks carry the clock's media time; on a loaded machine capture runs behind it, so let the
        # frames catch up with the marks before stopping (the video must cover them, checked below)
        deadline = time.monotonic() + 10.0
        while time.monotonic() < deadline:
            f = s.tap.get(timeout=1.0)
            if f is not None and f.t_ms >= marks[-1].t:
                break
    finally:
        st = s.stop()
    # marks: media time, increasing, all on disk exactly once with ids
    assert [m.t for m in marks] == sorted(m.t for m in marks) and 400 <= marks[0].t <= 1500
    loaded = load_bundle(bundle)
    assert loaded.bad_lines == ()
    assert all(p.startswith("layout.json: missing") for p in loaded.problems), (
        loaded.problems
    )  # calibrated later
    assert [(e.id, e.t) for e in loaded.events] == [(m.id, m.t) for m in marks]
    # game.json: format, wall-clock start, seats, the segments in order
    game = json.loads((bundle / "game.json").read_text())
    assert game["format"] == "mafiacam/1" and game["started_at"].endswith("+00:00")
    assert [p["name"] for p in game["players"]] == [f"Seat {i}" for i in range(1, 11)]
    assert game["video"] == list(st.segments) and len(st.segments) >= 2
    # the video's own pts are media time and match the timeline frame for frame
    checks = check_bundle(bundle)
    pts = timeline_pts(bundle)
    for i, chk in enumerate(checks, 1):
        assert chk.error is None, chk
        assert chk.frames == len(pts[i]) and chk.first_ms == pts[i][0] and chk.last_ms == pts[i][-1]
    assert checks[1].first_ms > checks[0].last_ms  # continuous, no overlap
    assert checks[-1].last_ms >= marks[-2].t
    # status adds up
    assert st.state == "stopped" and st.frames_written == st.frames_captured - st.dropped
    # the capture rate is measured, and never above the source's (on a loaded machine a live source skips
    # frames like a camera, so no lower bound beyond zero: tests assert no wall-clock speed)
    assert 0 < st.fps <= 1.2 * 30.0 and st.marks == 5 and st.bytes_written > 0
    # the live tap saw small frames stamped with real pts
    all_pts = {p for seg in pts.values() for p in seg}
    assert all(f.image.shape == (180, 320, 3) and f.t_ms in all_pts for f in tapped)
    # sealed by gamelog.manifest
    assert verify(bundle).ok


def test_unplugged_source_keeps_the_video_and_continues_in_a_new_segment(tmp_path: Path) -> None:
    notices: list[Notice] = []
    src = FlakySource(lose_after=25, refuse=2, size_wh=(160, 96), rate=30.0)
    s = RecordingSession(tmp_path / "g", src, config(), on_notice=notices.append)
    run_for(s, 2.5)
    st = s.status()
    kinds = [n.kind for n in notices]
    assert kinds[:2] == ["source_lost", "source_back"]
    assert "/dev/video9" in notices[0].message
    assert st.source_losses == 1 and len(st.segments) == 2
    first, second = check_bundle(tmp_path / "g")
    assert first.error is None and second.error is None
    assert first.frames == 25  # everything captured before the loss is kept
    # media time kept counting through the gap (two refused reopen attempts, 0.2 s apart)
    gap = second.first_ms - first.last_ms
    assert second.first_ms is not None and gap >= 300
    assert abs(second.first_ms - notices[1].t_ms) < 200


def test_real_camera_pipe_yanked_then_back(tmp_path: Path) -> None:
    """The ffmpeg camera path: its process is killed (the camera is unplugged); the session reopens it."""
    src = CameraSource(
        "lavfi",
        size=(160, 96),
        fps=25.0,
        stall_s=1.0,
        input_args=["-re", "-f", "lavfi", "-i", "testsrc2=size=160x96:rate=25"],
    )
    s = RecordingSession(tmp_path / "g", src, config())
    s.start()
    try:
        time.sleep(1.2)
        assert src.pid is not None
        os.kill(src.pid, signal.SIGKILL)
        time.sleep(1.8)
    finally:
        st = s.stop()
    assert st.source_losses == 1 and len(st.segments) == 2, st
    checks = check_bundle(tmp_path / "g")
    assert all(c.error is None and c.frames > 5 for c in checks), checks


def test_killed_ffmpeg_restarts_into_a_new_segment(tmp_path: Path) -> None:
    notices: list[Notice] = []
    s = RecordingSession(
        tmp_path / "g", TestPatternSource((160, 96), 30.0), config(), on_notice=notices.append
    )
    s.start()
    try:
        time.sleep(1.5)
        seg = s._current
        pid = _writer_pid(s)
        kill_ms = s.media_ms()
        os.kill(pid, signal.SIGKILL)
        time.sleep(1.0)
    finally:
        st = s.stop()
    assert seg == "video/seg-0001.mkv"
    assert st.writer_restarts == 1 and len(st.segments) == 2
    assert any(n.kind == "writer_died" and "seg-0001.mkv" in n.message for n in notices)
    first, second = check_bundle(tmp_path / "g")
    # the killed segment decodes up to shortly before the kill; the next one picks up at once
    assert first.last_ms is not None and first.last_ms >= kill_ms - 1200, (first, kill_ms)
    assert second.first_ms is not None and second.first_ms - kill_ms < 500, (second, kill_ms)


def _writer_pid(s: RecordingSession) -> int:
    """The pid of the running segment's ffmpeg (read from the process table by its output file)."""
    target = str(s.bundle / (s._current or ""))
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                cmd = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if target.encode() in cmd:
                return int(pid)
    raise AssertionError(f"no ffmpeg writing {target}")


def test_low_disk_warns_then_stops_cleanly(tmp_path: Path) -> None:
    free = iter([10_000_000_000, 900_000_000, 900_000_000, 150_000_000])
    last = [0]

    def probe(path: Path) -> int:
        assert path == tmp_path / "g"
        last[0] = next(free, 150_000_000)
        return last[0]

    notices: list[Notice] = []
    cfg = config(disk_warn_bytes=1_000_000_000, disk_stop_bytes=200_000_000, disk_check_s=0.3)
    s = RecordingSession(
        tmp_path / "g", TestPatternSource((160, 96), 30.0), cfg, disk_probe=probe, on_notice=notices.append
    )
    s.start()
    assert s.wait(timeout=10), "the recorder should stop by itself when the disk is nearly full"
    s.mark({"type": "vote_stop"})  # marks still go to the log after the video stopped
    st = s.stop()
    assert [n.kind for n in notices][:2] == ["disk_low", "disk_full"]
    assert "900 MB left" in notices[0].message
    assert st.stop_reason is not None and st.stop_reason.startswith("disk almost full (150 MB left)")
    assert st.disk_low and st.free_bytes == 150_000_000
    (chk,) = check_bundle(tmp_path / "g")
    assert chk.error is None and chk.frames > 10
    assert verify(tmp_path / "g").ok


class SlowDiskWriter(SegmentWriter):
    """The real ffmpeg writer behind a disk that takes 80 ms per frame."""

    def write(self, data: bytes | memoryview, pts_ms: int) -> None:
        time.sleep(0.08)
        super().write(data, pts_ms)


def test_a_slow_writer_drops_frames_and_counts_every_one(tmp_path: Path) -> None:
    src = TestPatternSource((160, 96), 30.0)
    notices: list[Notice] = []
    cfg = config(ring_frames=4, drop_report_s=0.5, disk_check_s=0.2)
    s = RecordingSession(tmp_path / "g", src, cfg, writer_factory=SlowDiskWriter, on_notice=notices.append)
    run_for(s, 1.5)
    st = s.status()
    assert st.dropped > 0  # the camera never waited for the disk
    drops = [n for n in notices if n.kind == "frames_dropped"]
    assert drops and "the encoder or the disk is too slow" in drops[0].message
    assert st.frames_captured == st.frames_written + st.dropped
    recs = list(read_timeline(tmp_path / "g" / "timeline.jsonl"))
    t0 = recs[0]["mono"]
    frames = [r for r in recs if r["kind"] == "frame"]
    assert frames[-1]["dropped"] <= st.dropped and frames[-1]["dropped"] > 0
    # however late they were written, frames keep the pts of their capture time
    for r in frames:
        assert abs(r["pts"] - (r["mono"] - t0) * 1000) <= 1, r
    (chk,) = check_bundle(tmp_path / "g")
    assert chk.frames == len(frames)


def test_file_source_with_audio_ends_by_itself(tmp_path: Path, clip: Path) -> None:
    s = RecordingSession(tmp_path / "g", FileSource(clip, speed=1.0), config())
    s.start()
    assert s.wait(timeout=10)
    st = s.stop()
    assert st.stop_reason == "source ended"
    (chk,) = check_bundle(tmp_path / "g")
    assert chk.has_audio and chk.error is None
    # every one of the clip's 60 frames was read; each is in the file or counted as dropped (a live source
    # drops when the writer falls behind, which depends on the machine's load, so no fixed count is asked)
    assert st.frames_captured == 60
    assert chk.frames == st.frames_written == st.frames_captured - st.dropped > 0


def test_an_existing_bundle_is_never_overwritten(tmp_path: Path) -> None:
    bundle = tmp_path / "g"
    s = RecordingSession(bundle, TestPatternSource((160, 96), 30.0), config())
    run_for(s, 0.5)
    before = (bundle / "game.json").read_bytes()
    src = TestPatternSource((160, 96), 30.0)
    with pytest.raises(BundleError, match="a bundle already exists"):
        RecordingSession(bundle, src, config()).start()
    assert (bundle / "game.json").read_bytes() == before


def test_marks_and_start_time_follow_the_injected_clock(tmp_path: Path) -> None:
    clock = ManualClock(start=500.0, wall_start=1_800_000_000.0)
    src = TestPatternSource((160, 96), 30.0, clock=clock, realtime=False)
    s = RecordingSession(tmp_path / "g", src, config(), clock=clock)
    s.start()
    try:
        clock.advance(2.5)
        first = s.mark({"type": "vote_call", "candidate": 4, "round": "main"})
        clock.advance(0.25)
        second = s.mark({"type": "vote_stop"})
        third = s.mark({"type": "vote_count", "candidate": 4, "count": 3}, t_ms=2900)
        time.sleep(0.3)
    finally:
        s.stop()
    assert (first.t, second.t, third.t) == (2500, 2750, 2900)
    assert [e.t for e in load_bundle(tmp_path / "g").events] == [2500, 2750, 2900]
    game = json.loads((tmp_path / "g" / "game.json").read_text())
    assert game["started_at"] == "2027-01-15T08:00:00.000+00:00"
    # frames carry the source's capture times on the same clock: 1/30 s apart from the start
    (chk,) = check_bundle(tmp_path / "g")
    assert chk.first_ms == 0 and chk.frames > 3
    assert chk.last_ms == round((chk.frames - 1) * 1000 / 30)
