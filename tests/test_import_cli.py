"""``mafiacam import``: an old recording becomes a bundle with a proposed layout, ready to analyse."""

from __future__ import annotations

import json
from pathlib import Path

import av
import cv2
import numpy as np
import pytest

from mafiacam import cli


def table_video(path: Path, frames: int = 30) -> None:
    with av.open(str(path), "w") as c:
        s = c.add_stream("libx264", rate=25)
        s.width, s.height, s.pix_fmt = 480, 270, "yuv420p"
        for i in range(frames):
            img = np.full((270, 480, 3), 50, np.uint8)
            cv2.ellipse(img, (240, 140), (90, 110), 0, 0, 360, (30, 110, 60), -1)
            cv2.putText(img, str(i), (10, 30), cv2.FONT_HERSHEY_SIMPLEX, 1, (255, 255, 255), 2)
            for p in s.encode(av.VideoFrame.from_ndarray(img, format="rgb24")):
                c.mux(p)
        for p in s.encode():
            c.mux(p)


def test_import_makes_a_bundle_with_the_video_and_a_layout(tmp_path: Path) -> None:
    video = tmp_path / "old game.mp4"
    table_video(video)
    out = tmp_path / "bundle"
    assert cli.main(["import", str(video), "--out", str(out)]) == 0
    game = json.loads((out / "game.json").read_text())
    assert game["format"] == "mafiacam/1" and game["video"] in ("old game.mp4", ["old game.mp4"])
    assert (out / "old game.mp4").stat().st_size == video.stat().st_size
    layout = json.loads((out / "layout.json").read_text())
    assert len(layout["seats"]) == 10 and layout["frame_size"] == [480, 270]


def test_an_unreadable_video_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "broken.mp4"
    bad.write_bytes(b"not a video at all" * 100)
    assert cli.main(["import", str(bad), "--out", str(tmp_path / "b")]) == 1
    assert "broken.mp4" in capsys.readouterr().err
