"""Frame-accurate access over generated videos whose frames carry their own number in pixels."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from tests.vision.media import read_frame_number, write_video
from vision.keyframes import scan_packets
from vision.video import Frame, SegmentSpec, VideoError, VideoTimeline, parse_video_field

FPS = 25
STEP = 1000 // FPS  # 40 ms a frame, GOP of 25 = one keyframe a second


@pytest.fixture(scope="module")
def media(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("media")


def number(frame: Frame) -> int:
    return read_frame_number(frame.image)


def walk_forward(tl: VideoTimeline, start_ms: int = 0) -> list[Frame]:
    out: list[Frame] = []
    f: Frame | None = tl.frame_at(start_ms)
    while f is not None:
        out.append(f)
        f = tl.next_frame(f)
    return out


@pytest.mark.parametrize(
    ("name", "bframes"),
    [("plain.mkv", 0), ("frag.mp4", 0), ("bframes.mkv", 2), ("bframes.plain.mp4", 2)],
)
def test_frame_at_returns_the_exact_frame(media: Path, name: str, bframes: int) -> None:
    path = write_video(media / name, n_frames=150, bframes=bframes)
    rng = random.Random(7)
    times = [0, 1, 39, 40, 41, 999, 1000, 1001, 5960, 5999, *rng.sample(range(6000), 60)]
    with VideoTimeline(path) as tl:
        for t in times:
            f = tl.frame_at(t)
            assert number(f) == t // STEP, f"t={t}"
            assert f.pts_ms == (t // STEP) * STEP
            assert f.index_in_gop == (t // STEP) % 25
        assert tl.frame_at(10_000).pts_ms == 5960  # past the end: the last frame
        assert tl.frame_size == (320, 240)
        assert tl.fps == pytest.approx(25.0)
        assert tl.wait_index(10)
        assert tl.duration_ms == 6000
        assert tl.damaged == []


def test_backward_steps_equal_forward_decode(media: Path) -> None:
    path = write_video(media / "back.mkv", n_frames=100, bframes=2)
    with VideoTimeline(path) as tl:
        forward = {f.pts_ms: f.image for f in tl.iter_frames()}
        assert len(forward) == 100
        f: Frame | None = tl.frame_at(3999)
        seen: list[int] = []
        while f is not None:
            assert np.array_equal(f.image, forward[f.pts_ms]), f"frame {f.pts_ms} differs"
            seen.append(number(f))
            f = tl.prev_frame(f)
        assert seen == list(range(99, -1, -1))


def test_stepping_back_inside_a_cached_gop_decodes_nothing(media: Path) -> None:
    path = write_video(media / "cache.mkv", n_frames=100)
    with VideoTimeline(path, background_index=False) as tl:
        f = tl.frame_at(2960)  # last frame of the GOP 2000..2960
        before = tl.stats
        for _ in range(24):
            prev = tl.prev_frame(f)
            assert prev is not None
            f = prev
        assert number(f) == 50
        after = tl.stats
        assert (after.seeks, after.decoded) == (before.seeks, before.decoded)
        # one more step back crosses into the previous GOP: one seek, that GOP decoded once
        prev = tl.prev_frame(f)
        assert prev is not None and number(prev) == 49
        assert tl.stats.seeks == after.seeks + 1
        assert tl.stats.decoded - after.decoded <= 26


def test_warming_the_previous_gop_makes_the_step_across_it_free(media: Path) -> None:
    path = write_video(media / "warm.mkv", n_frames=100)
    with VideoTimeline(path) as tl:
        f = tl.frame_at(2080)  # third frame of the GOP starting at 2000
        assert not tl.warm_before(f, within=2)  # not close enough to the GOP start
        assert tl.warm_before(f, within=8)
        assert not tl.warm_before(f, within=8)  # already cached
        before = tl.stats
        for want in (51, 50, 49, 48, 30):
            f = tl.prev_frame(f) if want != 30 else tl.frame_at(1200)
            assert f is not None and number(f) == want
        assert (tl.stats.seeks, tl.stats.decoded) == (before.seeks, before.decoded)


def test_playback_decodes_ahead_so_the_due_frame_only_needs_converting(media: Path) -> None:
    path = write_video(media / "ahead.mkv", n_frames=100)
    with VideoTimeline(path) as tl:
        assert tl.wait_index(10)
        f = tl.frame_at(1000)  # decodes 1040 too, to be sure 1000 is the last frame at or before 1000
        assert not tl.decode_ahead(f)
        for t in range(1040, 1400, 40):
            assert t == 1040 or tl.decode_ahead(f)  # exactly one frame: the next
            assert not tl.decode_ahead(f)  # already there
            before = tl.stats.decoded
            f = tl.frame_at(t)  # the index names the frame: no need to decode the one after it first
            assert number(f) == t // STEP
            assert tl.stats.decoded == before


def test_sequential_next_frame_never_seeks(media: Path) -> None:
    path = write_video(media / "seq.mkv", n_frames=100)
    with VideoTimeline(path) as tl:
        frames = walk_forward(tl)
        assert [number(f) for f in frames] == list(range(100))
        assert tl.stats.seeks == 1


def test_keyframe_index_from_packets(media: Path) -> None:
    path = write_video(media / "index.mp4", n_frames=110)
    index = scan_packets(path)
    assert len(index) == 110
    ms = index.keyframe_pts * index.time_base * 1000
    assert [int(x) for x in ms] == [0, 1000, 2000, 3000, 4000]
    assert index.keyframe_at_or_before(int(2500 / 1000 / index.time_base)) == int(2 / index.time_base)
    assert index.damaged == ()


def test_variable_frame_rate_is_addressed_by_pts(media: Path) -> None:
    rng = np.random.default_rng(3)
    times = np.concatenate([[0], np.cumsum(rng.integers(15, 90, 119))]).astype(int)
    path = write_video(media / "vfr.mkv", pts_ms=times.tolist())
    with VideoTimeline(path) as tl:
        for t in range(0, int(times[-1]) + 100, 11):
            i = int(np.searchsorted(times, t, side="right")) - 1
            f = tl.frame_at(t)
            assert (number(f), f.pts_ms) == (i, int(times[i])), f"t={t}"
        tl.wait_index(10)
        assert tl.damaged == []
        first = tl.frame_at(0)
        assert tl.frame_number(tl.frame_at(int(times[77]))) == 77
        assert tl.frame_number(first) == 0


def test_segments_with_restarting_pts_form_one_timeline(media: Path) -> None:
    paths = [write_video(media / f"reset{i}.mkv", n_frames=50, first_number=50 * i) for i in range(3)]
    with VideoTimeline(paths) as tl:
        frames = walk_forward(tl)
        assert [number(f) for f in frames] == list(range(150))
        assert [f.pts_ms for f in frames] == [i * STEP for i in range(150)]
        assert [f.segment for f in frames[48:53]] == [0, 0, 1, 1, 1]
        assert number(tl.frame_at(4010)) == 100
        back = tl.prev_frame(tl.frame_at(4000))
        assert back is not None and (number(back), back.segment) == (99, 1)
        assert tl.duration_ms == 6000


def test_segments_with_running_pts_keep_a_gap_and_report_a_missing_file(media: Path) -> None:
    a = write_video(media / "run0.mkv", n_frames=50, first_number=0)
    c = write_video(media / "run2.mkv", n_frames=50, first_number=100, start_ms=4000)
    missing = media / "run1.mkv"
    with VideoTimeline([a, missing, c]) as tl:
        assert number(tl.frame_at(1960)) == 49
        assert number(tl.frame_at(3000)) == 49  # in the gap: the last frame shown
        f = tl.frame_at(4000)
        assert (number(f), f.pts_ms) == (100, 4000)
        nxt = tl.next_frame(tl.frame_at(1960))
        assert nxt is not None and (number(nxt), nxt.pts_ms) == (100, 4000)
        gaps = [d for d in tl.damaged if "missing" in d.reason]
        assert len(gaps) == 1
        assert (gaps[0].from_ms, gaps[0].to_ms) == (2000, 4000)
        assert str(missing) in gaps[0].reason


def test_stored_segment_starts_win(media: Path) -> None:
    a = write_video(media / "st0.mkv", n_frames=25, first_number=0)
    b = write_video(media / "st1.mkv", n_frames=25, first_number=25)
    specs = parse_video_field(media, [{"path": a.name, "t0": 0}, {"path": b.name, "t0": 5000}])
    assert specs == [SegmentSpec(a, 0), SegmentSpec(b, 5000)]
    with VideoTimeline(specs) as tl:
        f = tl.frame_at(5040)
        assert (number(f), f.pts_ms) == (26, 5040)
        assert number(tl.frame_at(4000)) == 24


def _damage(path: Path, out: Path, kind: str) -> Path:
    data = bytearray(path.read_bytes())
    if kind == "truncate":
        out.write_bytes(bytes(data[: len(data) // 2]))
    else:
        mid = len(data) // 2
        noise = np.random.default_rng(11).integers(0, 256, 20_000, dtype=np.uint8).tobytes()
        data[mid : mid + len(noise)] = noise
        out.write_bytes(bytes(data))
    return out


@pytest.mark.parametrize("suffix", ["mkv", "mp4"])
def test_truncated_file_opens_up_to_the_cut(media: Path, suffix: str) -> None:
    good = write_video(media / f"full.{suffix}", n_frames=250)
    bad = _damage(good, media / f"cut.{suffix}", "truncate")
    with VideoTimeline(bad) as tl:
        assert tl.wait_index(10)
        assert len(tl.damaged) >= 1
        cut = tl.damaged[0]
        assert 3000 < cut.from_ms < 7000
        assert "cut." in cut.reason
        frames = walk_forward(tl)
        assert [number(f) for f in frames] == list(range(len(frames)))
        assert frames[-1].pts_ms <= cut.from_ms
        assert tl.duration_ms <= cut.from_ms + STEP
        assert number(tl.frame_at(9000)) == number(frames[-1])


@pytest.mark.parametrize("suffix", ["mkv", "mp4"])
def test_corrupt_stretch_is_reported_and_reading_continues_after_it(media: Path, suffix: str) -> None:
    good = write_video(media / f"whole.{suffix}", n_frames=250)
    bad = _damage(good, media / f"corrupt.{suffix}", "overwrite")
    with VideoTimeline(bad) as tl:
        assert tl.wait_index(10)
        stretches = [d for d in tl.damaged if d.to_ms > d.from_ms]
        assert stretches, tl.damaged
        hole = stretches[0]
        assert 3000 < hole.from_ms < hole.to_ms < 8000
        frames = walk_forward(tl)
        for f in frames:  # every frame that decodes is the right one
            assert number(f) * STEP == f.pts_ms
        after = [f for f in frames if f.pts_ms >= hole.to_ms]
        assert after and after[-1].pts_ms == 9960
        assert number(tl.frame_at(9000)) == 225


def test_unreadable_input_is_an_error_naming_the_file(media: Path) -> None:
    junk = media / "junk.mkv"
    junk.write_bytes(np.random.default_rng(5).integers(0, 256, 50_000, dtype=np.uint8).tobytes())
    with pytest.raises(VideoError, match=r"junk\.mkv"):
        VideoTimeline(junk)
    good = write_video(media / "ok.mkv", n_frames=25)
    with VideoTimeline([good, junk]) as tl:
        assert any("junk.mkv" in d.reason for d in tl.damaged)
        assert number(tl.frame_at(500)) == 12


def test_iter_frames_samples_a_range(media: Path) -> None:
    path = write_video(media / "iter.mkv", n_frames=150)
    with VideoTimeline(path) as tl:
        got = [(f.pts_ms, number(f)) for f in tl.iter_frames(1010, 3000, step_ms=500)]
        assert got == [(1040, 26), (1520, 38), (2040, 51), (2520, 63)]
        every = [number(f) for f in tl.iter_frames(2000, 2400)]
        assert every == list(range(50, 60))


@pytest.mark.parametrize(("name", "bframes"), [("key.mkv", 0), ("key.frag.mp4", 0), ("keyb.plain.mp4", 2)])
def test_iter_frames_keyframes_only_yields_the_keyframes_in_range(
    media: Path, name: str, bframes: int
) -> None:
    path = write_video(media / name, n_frames=150, bframes=bframes)
    with VideoTimeline(path) as tl:
        got = [
            (f.pts_ms, number(f), f.key, f.index_in_gop)
            for f in tl.iter_frames(900, 5000, keyframes_only=True)
        ]
    assert got == [(1000 * k, 25 * k, True, 0) for k in range(1, 5)]


def test_iter_frames_keyframes_only_runs_across_segments(media: Path) -> None:
    a = write_video(media / "ka.mkv", n_frames=50)
    b = write_video(media / "kb.mkv", n_frames=75, first_number=50)
    with VideoTimeline([a, b]) as tl:
        got = [(f.pts_ms, number(f), f.segment) for f in tl.iter_frames(500, keyframes_only=True)]
    assert got == [(1000, 25, 0), (2000, 50, 1), (3000, 75, 1), (4000, 100, 1)]


def _offset_mkv(src: Path, out: Path, offset_s: float) -> Path:
    """A copy of ``src`` whose timestamps start at ``offset_s`` (as a segmenting recorder writes its later
    segments): Matroska then declares the last timestamp as its duration, not the length."""
    import subprocess

    import imageio_ffmpeg

    cmd = [imageio_ffmpeg.get_ffmpeg_exe(), "-loglevel", "error", "-y", "-i", str(src), "-c", "copy"]
    subprocess.run([*cmd, "-output_ts_offset", str(offset_s), str(out)], check=True)
    return out


def test_a_later_matroska_segment_is_not_taken_for_a_truncated_file(media: Path) -> None:
    """Two recorder-style segments, the second's timestamps starting where the first ends: one timeline with
    no damage; the same offset file cut in half is still reported as truncated."""
    first = write_video(media / "seg1.mkv", n_frames=100)
    second = _offset_mkv(write_video(media / "seg2-src.mkv", n_frames=100), media / "seg2.mkv", 4.0)
    with VideoTimeline([first, second]) as tl:
        assert tl.wait_index(10)
        assert tl.damaged == []
        assert 7800 <= tl.duration_ms <= 8100
    cut = _damage(second, media / "seg2-cut.mkv", "truncate")
    with VideoTimeline(cut) as tl:
        assert tl.wait_index(10)
        assert tl.damaged and "truncated" in tl.damaged[0].reason


def test_sound_running_on_after_the_last_frame_is_not_a_truncation(tmp_path: Path) -> None:
    """A recording stopped with its sound 0.6 s longer than its video (the encoder's tail): Matroska's
    container duration covers the sound, the video track's own DURATION tag is its end — no damage."""
    import subprocess

    import imageio_ffmpeg

    out = tmp_path / "tail.mkv"
    video, sound = "testsrc2=size=160x120:rate=25:duration=2", "sine=duration=2.6"
    codecs = ["-c:v", "libx264", "-c:a", "aac", "-b:a", "24k", str(out)]
    ffmpeg = [imageio_ffmpeg.get_ffmpeg_exe(), "-loglevel", "error", "-y"]
    subprocess.run([*ffmpeg, "-f", "lavfi", "-i", video, "-f", "lavfi", "-i", sound, *codecs], check=True)
    with VideoTimeline(out) as tl:
        assert tl.wait_index(10)
        assert tl.damaged == []
        assert 1900 <= tl.duration_ms <= 2100
