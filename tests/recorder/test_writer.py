from __future__ import annotations

import itertools
import time
from pathlib import Path

import av
import numpy as np
import pytest

from recorder.audio import FileAudio, Microphone
from recorder.inspect import check_segment
from recorder.pcmtap import PcmTap
from recorder.writer import EncoderSettings, SegmentSpec, SegmentWriter, WriterDied, build_command
from tests.recorder.conftest import make_clip

W, H, FPS = 160, 96, 30.0
FAST = EncoderSettings("ultrafast")


def grey(i: int) -> bytes:
    return np.full((H, W, 3), (i * 8) % 256, np.uint8).tobytes()


def test_command_line_has_the_crash_safe_settings(tmp_path: Path) -> None:
    line = " ".join(build_command(SegmentSpec(tmp_path / "s.mkv", (W, H), FPS, 2033, encoder=FAST)))
    parts = ["-f nut", "-itsoffset 2.033", "-i pipe:0", "-fps_mode passthrough", "-enc_time_base 1:1000"]
    parts += ["-force_key_frames expr:gte(t,n_forced*1)", "-sc_threshold 0", "-pix_fmt yuv420p"]
    parts += ["-preset ultrafast", "-tune zerolatency", "-f matroska", "-flush_packets 1"]
    parts += ["-cluster_time_limit 250", "-vcodec libx264"]
    for part in parts:
        assert part in line, part


def test_pts_are_the_given_media_times_and_keyframes_come_every_second(tmp_path: Path) -> None:
    spec = SegmentSpec(tmp_path / "s.mkv", (W, H), FPS, 2033, encoder=FAST)
    w = SegmentWriter(spec)
    # irregular capture times, with a 700 ms hole (frames the recorder had to drop)
    given = [2033 + round(i * 33.4) + (700 if i >= 40 else 0) for i in range(80)]
    for i, pts in enumerate(given):
        w.write(grey(i), pts)
    assert w.close() == 0
    with av.open(str(spec.path)) as c:
        vs = c.streams.video[0]
        assert vs.time_base * 1000 == 1
        pkts = [p for p in c.demux(vs) if p.pts is not None]
    assert sorted(p.pts for p in pkts) == given  # exact: the hole stays a hole, nothing is copied in
    keys = sorted(p.pts for p in pkts if p.is_keyframe)
    assert keys[0] == 2033
    assert all(0 < b - a <= 1040 for a, b in itertools.pairwise(keys)), keys
    assert keys[-1] >= given[-1] - 1040


def test_bad_frames_are_refused(tmp_path: Path) -> None:
    w = SegmentWriter(SegmentSpec(tmp_path / "s.mkv", (W, H), FPS, 0, encoder=FAST))
    with pytest.raises(ValueError, match="the segment takes"):
        w.write(b"\0" * 10, 0)
    w.write(grey(0), 0)
    with pytest.raises(ValueError, match="pts 0 ms does not follow 0 ms"):
        w.write(grey(1), 0)
    assert w.close() == 0


def test_killed_ffmpeg_is_reported_and_the_file_keeps_what_was_flushed(tmp_path: Path) -> None:
    spec = SegmentSpec(tmp_path / "s.mkv", (W, H), FPS, 0, encoder=FAST)
    w = SegmentWriter(spec)
    for i in range(90):
        w.write(grey(i), round(i * 1000 / 30))
    time.sleep(0.5)  # let ffmpeg encode what it was given (its flush is what the test checks)
    w.kill()
    with pytest.raises(WriterDied, match=r"s\.mkv: ffmpeg exited .* after 90 frames"):
        for i in range(90, 300):
            w.write(grey(i), round(i * 1000 / 30))
    chk = check_segment(spec.path)
    # clusters close every 250 ms: at most about that plus the encoder's delay is lost
    assert chk.frames >= 60, chk
    assert chk.last_ms is not None and chk.last_ms >= 2000


def test_audio_of_a_file_passes_through(tmp_path: Path, clip: Path) -> None:
    spec = SegmentSpec(
        tmp_path / "s.mkv", (W, H), FPS, 1000, audio=FileAudio(clip, offset_s=0.5), encoder=FAST
    )
    w = SegmentWriter(spec)
    for i in range(30):
        w.write(grey(i), 1000 + round(i * 1000 / 30))
    assert w.close() == 0
    with av.open(str(spec.path)) as c:
        a = c.streams.audio[0]
        frames = list(c.decode(a))
    assert a.codec_context.name == "aac"
    assert frames[0].pts is not None and frames[0].pts == 1000  # starts with the segment, at media 1.0 s
    loud = [f.pts for f in frames if float(np.abs(f.to_ndarray()).max()) > 0.2]
    # the file's loud stretch (0.5-1.0 s) follows the file offset 0.5 s: media 1.0-1.5 s
    assert loud and abs(loud[0] - 1000) <= 30 and abs(loud[-1] - 1480) <= 30, loud


def test_a_live_microphone_is_stopped_with_the_video(tmp_path: Path) -> None:
    """A live audio input never ends by itself; closing the segment must still finish the file. A real-time
    sine from ffmpeg's lavfi stands in for the microphone (this machine has none)."""
    mic = Microphone("lavfi", "sine=f=440:r=48000,arealtime")
    spec = SegmentSpec(tmp_path / "s.mkv", (W, H), FPS, 500, audio=mic, encoder=FAST)
    w = SegmentWriter(spec)
    for i in range(20):
        w.write(grey(i), 500 + round(i * 1000 / 30))
        time.sleep(1 / 30)
    assert w.close(timeout=10) == 0
    with av.open(str(spec.path)) as c:
        audio = [f.pts for f in c.decode(c.streams.audio[0])]
    chk = check_segment(spec.path)
    assert chk.frames == 20 and chk.error is None
    assert audio[0] == 500 and 900 < audio[-1] < 5000


def test_file_audio_ends_with_the_segment_not_with_the_file(tmp_path: Path) -> None:
    long_clip = make_clip(tmp_path / "long.mp4", seconds=6.0, size=(64, 48))
    spec = SegmentSpec(tmp_path / "s.mkv", (W, H), FPS, 0, audio=FileAudio(long_clip), encoder=FAST)
    w = SegmentWriter(spec)
    for i in range(15):  # half a second of video, in real time
        w.write(grey(i), round(i * 1000 / 30))
        time.sleep(1 / 30)
    assert w.close(timeout=10) == 0
    with av.open(str(spec.path)) as c:
        audio = [f.pts for f in c.decode(c.streams.audio[0])]
    assert audio[0] == 0 and audio[-1] < 3000, audio[-1]  # not the file's 6 s


def test_the_sound_reaches_the_pcm_tap_at_its_media_time(tmp_path: Path) -> None:
    """The live check's ear: the segment's sound also comes out as 16 kHz floats, placed at media time. The
    clip's tone is loud from 0.5 to 1.0 s of the file; played from 0.25 s into a segment starting at media
    time 3000 ms, it is loud from 3250 to 3750 ms."""
    tone = make_clip(tmp_path / "tone.mp4", seconds=2.0, size=(64, 48))
    pcm = PcmTap()
    spec = SegmentSpec(
        tmp_path / "s.mkv", (W, H), FPS, 3000, audio=FileAudio(tone, offset_s=0.25), encoder=FAST, pcm=pcm
    )
    w = SegmentWriter(spec)
    for i in range(36):
        w.write(grey(i), 3000 + round(i * 1000 / 30))
        time.sleep(1 / 30)
    assert pcm.wait_for(3900, timeout=10), pcm.covered_ms()
    win = pcm.window(3000, 3900)
    assert w.close(timeout=10) == 0
    assert win is not None and win.heard > 0.95
    rms = [float(np.sqrt(np.mean(win.samples[k : k + 800] ** 2))) for k in range(0, len(win.samples), 800)]
    loud = [3000 + 50 * i for i, r in enumerate(rms) if r > 0.1]  # 50 ms blocks
    assert loud and abs(loud[0] - 3250) <= 60 and abs(loud[-1] + 50 - 3750) <= 60, loud
    assert pcm.window(0, 1000) is None  # nothing heard then
