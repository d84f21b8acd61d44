"""``mafiacam verify BUNDLE``: OK + head and exit 0 when intact, each problem and exit 1, exit 2 on usage."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gamelog.bundle import GameInfo, create_bundle
from gamelog.events import Foul, Night
from gamelog.jsonl import EventWriter
from gamelog.manifest import verify
from mafiacam import cli


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    path = create_bundle(
        tmp_path / "g", GameInfo.new([f"p{i}" for i in range(10)], started_at="2024-05-01T19:00:00")
    )
    with EventWriter(path / "events.jsonl") as w:
        w.append(Night(t=1000, src="host", n=0, id="h1"))
        w.append(Foul(t=2000, src="host", seat=4, reason="x", id="h2"))
    return path


def test_intact_prints_ok_and_head(bundle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["verify", str(bundle)]) == 0
    out = capsys.readouterr().out
    head = verify(bundle).head
    assert out.splitlines()[0] == f"OK {head}"
    assert "2 lines chained" in out


def test_tampered_prints_each_problem_and_exits_1(bundle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = bundle / "events.jsonl"
    log.write_text(log.read_text(encoding="utf-8").replace('"seat": 4', '"seat": 5'), encoding="utf-8")
    assert cli.main(["verify", str(bundle)]) == 1
    cap = capsys.readouterr()
    assert "events.jsonl:2: line changed after it was recorded" in cap.out.splitlines()
    assert "NOT intact (1 problem)" in cap.err


def test_usage_errors_exit_2(tmp_path: Path, bundle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["verify", str(tmp_path / "nope")]) == 2
    assert "no such bundle folder" in capsys.readouterr().err
    assert cli.main(["verify", str(bundle), "--expect-head", "xyz"]) == 2
    with pytest.raises(SystemExit) as e:
        cli.main(["verify"])
    assert e.value.code == 2


def test_expect_head_and_json(bundle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    head = verify(bundle).head
    assert cli.main(["verify", str(bundle), "--expect-head", head[:12], "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is True and report["head"] == head and report["matched_line"] == 2
    assert cli.main(["verify", str(bundle), "--expect-head", "0123456789abcdef"]) == 1


def test_seal_flag_chains_a_hand_entered_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = create_bundle(tmp_path / "g", GameInfo.new(["a"] * 10, started_at="2024-05-01T19:00:00"))
    (path / "events.jsonl").write_text('{"t": 1, "type": "night", "src": "host", "n": 0}\n', encoding="utf-8")
    assert cli.main(["verify", str(path)]) == 1
    assert "not chained" in capsys.readouterr().out
    assert cli.main(["verify", "--seal", str(path)]) == 0
    assert capsys.readouterr().out.startswith("OK ")


def test_missing_game_json_is_a_problem_not_a_crash(bundle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (bundle / "game.json").unlink()
    assert cli.main(["verify", str(bundle)]) == 1
    assert "game.json: missing" in capsys.readouterr().out


def test_real_process_exit_status(bundle: Path) -> None:
    ok = subprocess.run(
        [sys.executable, "-m", "mafiacam", "verify", str(bundle)], capture_output=True, text=True
    )
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.startswith("OK ")
    (bundle / "events.jsonl.chain").write_text("garbage\n")
    bad = subprocess.run(
        [sys.executable, "-m", "mafiacam", "verify", str(bundle)], capture_output=True, text=True
    )
    assert bad.returncode == 1
    assert "events.jsonl.chain:1: chain entry is not readable" in bad.stdout


def test_unreadable_file_is_named_not_a_traceback(bundle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    chain = bundle / "events.jsonl.chain"
    chain.unlink()
    chain.mkdir()  # something that cannot be read as a file
    assert cli.main(["verify", str(bundle)]) == 1
    err = capsys.readouterr().err
    assert "cannot read" in err and "events.jsonl.chain" in err
