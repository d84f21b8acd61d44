"""``mafiacam sim``: random games and scripts into bundles; clear errors for bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mafiacam import cli
from tablesim.randomgame import random_script_json
from tablesim.script import load_script
from tablesim.truthcheck import referee_mismatches

SMALL = [
    "--size",
    "256x144",
    "--fps",
    "10",
    "--quiet",
    "--room-noise",
    "-99",
    "--murmur",
    "-99",
    "--speech",
    "-99",
]


def test_a_random_game_makes_a_complete_bundle_the_referee_agrees_with(tmp_path: Path) -> None:
    out = tmp_path / "g2"
    script_file = tmp_path / "g2.script.json"
    rc = cli.main(
        ["sim", "--random", "--seed", "2", "--out", str(out), "--write-script", str(script_file), *SMALL]
    )
    assert rc == 0
    for name in ("game.json", "layout.json", "events.jsonl", "truth.json", "video.mp4"):
        assert (out / name).is_file(), name
    game = json.loads((out / "game.json").read_text(encoding="utf-8"))
    assert game["format"] == "mafiacam/1" and game["video"] == "video.mp4" and len(game["players"]) == 10
    layout = json.loads((out / "layout.json").read_text(encoding="utf-8"))
    assert layout["frame_size"] == [256, 144]
    assert referee_mismatches(out) == []
    # the saved script is the random game, and reads back as a valid script
    assert json.loads(script_file.read_text(encoding="utf-8")) == random_script_json(2)
    assert load_script(script_file).seed == 2


def test_a_bad_script_is_reported_with_file_and_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "tablesim/1", "roles": {"don": 1, "mafia": [2, 3], "sheriff": 3}}))
    rc = cli.main(["sim", str(bad), "--out", str(tmp_path / "x"), "--quiet"])
    assert rc == 1
    err = capsys.readouterr().err
    assert f"{bad}: roles.sheriff: the sheriff cannot be black" in err
    assert not (tmp_path / "x").exists()


def test_script_or_random_but_not_both(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["sim", "--out", str(tmp_path / "x"), "--quiet"]) == 2
    assert cli.main(["sim", "a.json", "--random", "--out", str(tmp_path / "x"), "--quiet"]) == 2
    assert cli.main(["sim", "--random", "--out", str(tmp_path / "x"), "--size", "big", "--quiet"]) == 1
    assert "--size" in capsys.readouterr().err


def test_an_existing_bundle_is_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "kept"
    out.mkdir()
    (out / "game.json").write_text("{}")
    assert cli.main(["sim", "--random", "--out", str(out), *SMALL]) == 1
    assert "not empty" in capsys.readouterr().err
    assert (out / "game.json").read_text() == "{}"
