from __future__ import annotations

import time
from pathlib import Path

import av
import numpy as np
import pytest

from recorder.audio import FileAudio
from recorder.inspect import check_segment
from recorder.writer import EncoderSettings, SegmentSpec, SegmentWriter, WriterDied, build_command

W, H, FPS = 160, 96, 30.0


def grey(i: int) -> bytes:
    return np.full((H, W, 3), (i * 8) % 256, np.uint8).tobytes()


def test_command_line_has_the_crash_safe_settings(tmp_path: Path) -> None:
    cmd = build_command(
        SegmentSpec(tmp_path / "s.mkv", (W, H), FPS, 2.0, encoder=EncoderSettings("ultrafast"))
    )
    line = " ".join(cmd)
    parts = ["-f rawvideo", "-pix_fmt rgb24", "-s 160x96", "-i pipe:0", "-itsoffset 2.000000", "-g 30"]
    parts += ["-keyint_min 30", "-sc_threshold 0", "-pix_fmt yuv420p", "-preset ultrafast", "-f matroska"]
    parts += ["-flush_packets 1", "-cluster_time_limit 500", "-vcodec libx264"]
    for part in parts:
        assert part in line, part


def test_segment_pts_are_media_time_and_keyframes_every_second(tmp_path: Path) -> None:
    spec = SegmentSpec(tmp_path / "s.mkv", (W, H), FPS, 61 / 30, encoder=EncoderSettings("ultrafast"))
    w = SegmentWriter(spec)
    for i in range(75):
        w.write(grey(i))
    assert w.close() == 0
    with av.open(str(spec.path)) as c:
        vs = c.streams.video[0]
        assert vs.time_base * 1000 == 1
        pkts = [p for p in c.demux(vs) if p.pts is not None]
    pts = sorted(p.pts for p in pkts)
    assert len(pts) == 75
    assert pts[0] == 2033 and pts[1] == 2067 and pts[-1] == 2033 + round(74 * 1000 / 30)
    keys = sorted(p.pts for p in pkts if p.is_keyframe)
    assert keys == [2033, 3033, 4033]


def test_wrong_frame_size_is_refused(tmp_path: Path) -> None:
    w = SegmentWriter(SegmentSpec(tmp_path / "s.mkv", (W, H), FPS, 0.0))
    with pytest.raises(ValueError, match="the segment takes"):
        w.write(b"\0" * 10)
    w.close()


def test_killed_ffmpeg_is_reported_and_the_file_keeps_what_was_flushed(tmp_path: Path) -> None:
    spec = SegmentSpec(tmp_path / "s.mkv", (W, H), FPS, 0.0, encoder=EncoderSettings("ultrafast"))
    w = SegmentWriter(spec)
    for i in range(90):
        w.write(grey(i))
    time.sleep(0.5)  # let ffmpeg encode what it was given (its flush is what the test checks)
    w.kill()
    with pytest.raises(WriterDied, match=r"s\.mkv: ffmpeg exited .* after 90 frames"):
        for i in range(200):
            w.write(grey(i))
    chk = check_segment(spec.path)
    # clusters close every 500 ms: at most about half a second plus the encoder's delay is lost
    assert chk.frames >= 60, chk
    assert chk.last_ms is not None and chk.last_ms >= 2000


def test_audio_of_a_file_passes_through(tmp_path: Path, clip: Path) -> None:
    spec = SegmentSpec(
        tmp_path / "s.mkv",
        (W, H),
        FPS,
        1.0,
        audio=FileAudio(clip, offset_s=0.5),
        encoder=EncoderSettings("ultrafast"),
    )
    w = SegmentWriter(spec)
    for i in range(30):
        w.write(grey(i))
    assert w.close() == 0
    with av.open(str(spec.path)) as c:
        a = c.streams.audio[0]
        frames = list(c.decode(a))
    assert a.codec_context.name == "aac"
    assert frames[0].pts is not None and frames[0].pts == 1000  # starts with the segment, at media 1.0 s
    loud = [f.pts for f in frames if float(np.abs(f.to_ndarray()).max()) > 0.2]
    # the file's loud stretch (0.5-1.0 s) follows the file offset 0.5 s: media 1.0-1.5 s
    assert loud and abs(loud[0] - 1000) <= 30 and abs(loud[-1] - 1480) <= 30, loud
