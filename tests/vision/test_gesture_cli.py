"""`mafiacam gesture`: one JSON line per image, errors named on stderr, exit status 1 at the end."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from mafiacam import cli


def test_gesture_lines_and_errors(
    shared_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    thumb = shared_dir / "real_hands" / "mediapipe-samples" / "gesture_hand_thumb_up.jpg"
    two = shared_dir / "real_hands" / "hagrid" / "gestures_tile_r4c3_thumb_index2.png"
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((120, 160, 3), 200, np.uint8))
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"\xff\xd8 this is not really a jpeg")
    missing = tmp_path / "missing.png"
    rc = cli.main(["gesture", str(thumb), str(broken), str(two), str(missing), str(blank)])
    out, err = capsys.readouterr()
    assert rc == 1
    lines = [json.loads(line) for line in out.splitlines()]
    assert [d["file"] for d in lines] == [str(thumb), str(two), str(blank)]
    for d in lines:
        assert set(d) == {"file", "hands"}
        for h in d["hands"]:
            assert set(h) == {"gesture", "conf", "bbox"}
            assert isinstance(h["conf"], float) and 0.0 <= h["conf"] <= 1.0
            assert len(h["bbox"]) == 4 and all(isinstance(v, int) for v in h["bbox"])
            x0, y0, x1, y1 = h["bbox"]
            assert x0 < x1 and y0 < y1
    assert [h["gesture"] for h in lines[0]["hands"]] == ["thumb_up"]
    w = cv2.imread(str(thumb)).shape[1]
    assert lines[0]["hands"][0]["bbox"][2] <= w + 1
    assert [h["gesture"] for h in lines[1]["hands"]] == ["gun", "gun"]
    assert lines[2]["hands"] == []
    assert f"{broken}: cannot read image" in err
    assert f"{missing}: cannot read image" in err


def test_all_good_images_exit_zero(
    shared_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = shared_dir / "real_hands" / "hagrid" / "gestures_tile_r1c3_fist.png"
    # a name with spaces and non-ASCII letters survives into the JSON unchanged
    odd = tmp_path / "кулак 1.png"
    shutil.copy(src, odd)
    assert cli.main(["gesture", str(odd)]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    d = json.loads(line)
    assert d["file"] == str(odd) and [h["gesture"] for h in d["hands"]] == ["fist"]


def test_single_view_reads_the_same_hand(shared_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    thumb = shared_dir / "real_hands" / "mediapipe-samples" / "gesture_hand_thumb_up.jpg"
    assert cli.main(["gesture", str(thumb)]) == 0
    assert cli.main(["gesture", "--single-view", str(thumb)]) == 0
    many, one = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert [h["gesture"] for h in many["hands"]] == [h["gesture"] for h in one["hands"]] == ["thumb_up"]
    # both boxes come from the as-is view's landmarks
    assert many["hands"][0]["bbox"] == one["hands"][0]["bbox"]


def test_missing_model_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MAFIACAM_MODELS", str(tmp_path))
    (tmp_path / "SHA256SUMS").write_text("0" * 64 + "  hand_landmarker.task\n")
    assert cli.main(["gesture", str(tmp_path / "x.png")]) == 1
    err = capsys.readouterr().err
    assert "hand_landmarker.task" in err and "build_models.py" in err
