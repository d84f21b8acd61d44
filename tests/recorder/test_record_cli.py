from __future__ import annotations

import json
from pathlib import Path

import pytest

from mafiacam import cli
from recorder.inspect import check_bundle


def test_without_no_ui_a_bad_source_fails_before_the_console_opens(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Without --no-ui the record console opens (tests/review_ui/test_console_window.py runs it).
    rc = cli.main(["record", "--source", "nothing_here.mp4", "--out", str(tmp_path / "g")])
    assert rc == 1
    assert "--source nothing_here.mp4: no such video file" in capsys.readouterr().err
    assert not (tmp_path / "g").exists()


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("/dev/video41", "camera /dev/video41: no such device"),
        ("3", "camera /dev/video3: no such device"),
        ("nothing_here.mp4", "--source nothing_here.mp4: no such video file"),
    ],
)
def test_bad_sources_fail_clearly_and_write_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str, message: str
) -> None:
    rc = cli.main(["record", "--source", source, "--out", str(tmp_path / "g"), "--no-ui"])
    assert rc == 1
    assert message in capsys.readouterr().err
    assert not (tmp_path / "g").exists()


def test_records_a_file_headless(tmp_path: Path, clip: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "g"
    rc = cli.main(
        [
            "record",
            "--source",
            str(clip),
            "--out",
            str(out),
            "--no-ui",
            "--speed",
            "0",
            "--preset",
            "ultrafast",
            "--players",
            "9",
        ]
    )
    assert rc == 0, capsys.readouterr().err
    assert "stopped (source ended)" in capsys.readouterr().err
    game = json.loads((out / "game.json").read_text())
    assert len(game["players"]) == 9 and game["video"] == "video/seg-0001.mkv"
    (chk,) = check_bundle(out)
    assert chk.frames == 60 and chk.error is None
    # refuses to record over it
    assert cli.main(["record", "--source", "test", "--out", str(out), "--no-ui", "--seconds", "1"]) == 1
    assert "a bundle already exists" in capsys.readouterr().err
