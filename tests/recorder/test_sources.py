from __future__ import annotations

import itertools
import os
import signal
from pathlib import Path

import cv2
import numpy as np
import pytest

from recorder.audio import FileAudio, Microphone, find_microphone
from recorder.camera import CameraSource, list_cameras
from recorder.sources import (
    FileSource,
    Frame,
    SourceEnded,
    SourceError,
    SourceLost,
    TestPatternSource,
    parse_size,
    yuv420_to_rgb,
)
from recorder.timebase import ManualClock


def test_frame_checks_its_shape() -> None:
    with pytest.raises(ValueError, match=r"\(H, W, 3\) uint8"):
        Frame(np.zeros((4, 4), np.uint8), 0.0)


@pytest.mark.parametrize(("text", "size"), [("1280x720", (1280, 720)), ("64X48", (64, 48))])
def test_parse_size(text: str, size: tuple[int, int]) -> None:
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["1280", "12x7", "axb", "0x0"])
def test_parse_size_refuses(text: str) -> None:
    with pytest.raises(ValueError, match="size"):
        parse_size(text)


def test_test_pattern_moves_and_keeps_time() -> None:
    clock = ManualClock()
    src = TestPatternSource((320, 180), 25.0, clock=clock)
    src.open()
    frames = [src.read() for _ in range(5)]
    src.close()
    assert all(f.image.shape == (180, 320, 3) for f in frames)
    # real-time pacing on the injected clock: 1/25 s apart
    assert np.diff([f.t for f in frames]) == pytest.approx([0.04] * 4)
    # the bars move and the counter changes: consecutive frames differ
    assert all(not np.array_equal(a.image, b.image) for a, b in itertools.pairwise(frames))
    # returned buffers are owned: changing one frame does not touch the next
    frames[0].image[:] = 0
    assert frames[1].image.any()


def test_file_source_plays_as_if_live(clip: Path) -> None:
    clock = ManualClock()
    src = FileSource(clip, speed=1.0, clock=clock)
    src.open()
    assert src.size == (160, 120) and src.fps == pytest.approx(30)
    t_open = clock.monotonic()
    frames = []
    with pytest.raises(SourceEnded, match=r"clip.mp4: end of file"):
        while True:
            frames.append(src.read())
    src.close()
    assert len(frames) == 60
    # frames come as the file's own YUV 4:2:0, no RGB on the way to the encoder
    assert all(f.pix_fmt == "yuv420p" and f.image.shape == (180, 160) for f in frames)
    assert all(f.size == (160, 120) for f in frames)
    # grey level i*8 written by the fixture comes back (H.264 is near lossless on flat frames)
    rgb = [yuv420_to_rgb(f.image) for f in frames[:4]]
    assert [int(x[60, 80, 0]) for x in rgb] == pytest.approx([0, 8, 16, 24], abs=3)
    # real speed on the injected clock: the last frame is due 59/30 s after opening
    assert frames[-1].t - t_open == pytest.approx(59 / 30, abs=1e-6)
    assert frames[-1].source_pts == pytest.approx(59 / 30, abs=1e-3)
    audio = src.audio_for(frames[30])
    assert isinstance(audio, FileAudio) and audio.offset_s == pytest.approx(1.0, abs=1e-3)


def test_file_source_at_double_speed(clip: Path) -> None:
    clock = ManualClock()
    src = FileSource(clip, speed=2.0, clock=clock)
    src.open()
    t_open = clock.monotonic()
    frames = [src.read() for _ in range(31)]
    src.close()
    assert frames[30].t - t_open == pytest.approx(1.0 / 2, abs=1e-6)  # 30 frames of 1/30 s, twice as fast
    assert frames[30].source_pts == pytest.approx(1.0, abs=1e-3)
    assert src.audio_for(frames[0]) is None  # audio passes through only at real speed


def test_file_source_fast_and_looping(clip: Path) -> None:
    clock = ManualClock()
    src = FileSource(clip, speed=None, loop=True, clock=clock)
    src.open()
    frames = [src.read() for _ in range(130)]
    src.close()
    assert clock.monotonic() == 1000.0  # as fast as possible: never waited
    ts = np.array([f.t for f in frames]) - frames[0].t
    assert np.all(np.diff(ts) > 0)  # capture times keep counting across the loop
    assert ts[129] == pytest.approx(129 / 30, abs=0.002)
    assert src.audio_for(frames[0]) is None  # audio passes through only at real speed


def test_file_source_errors_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match=r"missing\.mp4: no such video file"):
        FileSource(tmp_path / "missing.mp4").open()
    bad = tmp_path / "notes.mp4"
    bad.write_text("this is not a video\n")
    with pytest.raises(SourceError, match=r"notes\.mp4: cannot open as video"):
        FileSource(bad).open()


def test_missing_camera_is_a_clear_error() -> None:
    src = CameraSource("/dev/video57")
    with pytest.raises(SourceError, match=r"camera /dev/video57: no such device \(cameras on this machine: "):
        src.open()
    with pytest.raises(SourceError, match=r"/dev/video57"):
        CameraSource("57").open()


def test_list_cameras_reads_v4l2(tmp_path: Path) -> None:
    dev, sysfs = tmp_path / "dev", tmp_path / "sys"
    dev.mkdir()
    for i, name in ((0, "Table cam"), (10, "")):
        (dev / f"video{i}").touch()
        if name:
            (sysfs / f"video{i}").mkdir(parents=True)
            (sysfs / f"video{i}" / "name").write_text(name + "\n")
    cams = list_cameras(sys_root=sysfs, dev_root=dev)
    assert [(c.device, c.name) for c in cams] == [
        (str(dev / "video0"), "Table cam"),
        (str(dev / "video10"), "video10"),
    ]
    assert list_cameras(sys_root=sysfs, dev_root=tmp_path / "nothing") == []


def test_camera_pipe_delivers_and_reports_loss() -> None:
    """The camera path (ffmpeg child → raw pipe → reader thread) with a synthetic input instead of V4L2."""
    src = CameraSource(
        "lavfi",
        size=(128, 96),
        fps=25.0,
        stall_s=3.0,
        input_args=["-re", "-f", "lavfi", "-i", "testsrc2=size=128x96:rate=25"],
    )
    src.open()
    try:
        frames = [src.read() for _ in range(5)]
        assert all(f.pix_fmt == "yuv420p" and f.image.shape == (144, 128) for f in frames)
        assert all(f.size == (128, 96) for f in frames)
        assert np.all(np.diff([f.t for f in frames]) > 0)
        assert src.pid is not None
        os.kill(src.pid, signal.SIGKILL)  # the camera is yanked out
        with pytest.raises(SourceLost, match="camera lavfi: stopped delivering"):
            for _ in range(20):
                src.read()
    finally:
        src.close()


def test_camera_probe_failure_names_the_camera() -> None:
    src = CameraSource("lavfi", input_args=["-f", "lavfi", "-i", "nosuchfilter=size=8x8"])
    with pytest.raises(SourceError, match=r"camera lavfi: cannot open"):
        src.open()


def test_find_microphone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PULSE_SERVER", raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    cards = tmp_path / "cards"
    cards.write_text("--- no soundcards ---\n")
    assert find_microphone(cards) is None
    assert find_microphone(tmp_path / "absent") is None
    cards.write_text(" 0 [PCH            ]: HDA-Intel - HDA Intel PCH\n")
    assert find_microphone(cards) == Microphone("alsa", "default")


def test_yuv420_frames_are_checked_and_scaled_per_plane() -> None:
    with pytest.raises(ValueError, match=r"\(H \* 3 / 2, W\) uint8 for yuv420p"):
        Frame(np.zeros((100, 64), np.uint8), 0.0, pix_fmt="yuv420p")
    with pytest.raises(ValueError, match="rgb24 or yuv420p"):
        Frame(np.zeros((96, 64), np.uint8), 0.0, pix_fmt="nv12")
    rgb = np.zeros((120, 160, 3), np.uint8)
    rgb[:, 80:] = (200, 40, 40)  # red right half
    yuv = cv2.cvtColor(rgb, cv2.COLOR_RGB2YUV_I420)
    f = Frame(yuv, 0.0, pix_fmt="yuv420p")
    assert f.size == (160, 120)
    small = yuv420_to_rgb(yuv, 80)
    assert small.shape == (60, 80, 3)
    assert small[30, 10].tolist() == pytest.approx([0, 0, 0], abs=4)
    assert small[30, 70].tolist() == pytest.approx([200, 40, 40], abs=8)
