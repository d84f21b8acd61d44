"""``mafiacam referee BUNDLE [--json]``: bad lines to stderr with file:line, exit 1 when unreadable."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mafiacam import cli


def copy_example(project_root: Path, tmp_path: Path) -> Path:
    dst = tmp_path / "game"
    shutil.copytree(project_root / "examples" / "full-game", dst)
    return dst


def test_json_output_is_the_contract_shape(
    project_root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bundle = copy_example(project_root, tmp_path)
    assert cli.main(["referee", str(bundle), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in (
        "rules",
        "winner",
        "win_reason",
        "alive",
        "days",
        "nights",
        "fouls",
        "removed",
        "violations",
        "needs_review",
        "disagreements",
    ):
        assert key in out
    assert out["winner"] == "red"


def test_bad_lines_go_to_stderr_and_the_rest_is_refereed(
    project_root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bundle = copy_example(project_root, tmp_path)
    lines = (bundle / "events.jsonl").read_text(encoding="utf-8").splitlines()
    lines.insert(5, '{"t": "soon", "type": "speech", "src": "host", "seat": 1}')
    lines.insert(9, "not json")
    (bundle / "events.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert cli.main(["referee", str(bundle)]) == 0
    captured = capsys.readouterr()
    assert "events.jsonl:6:" in captured.err and "events.jsonl:10:" in captured.err
    assert "Result: red win" in captured.out


def test_unreadable_bundle_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["referee", str(tmp_path / "missing")]) == 1
    assert "missing" in capsys.readouterr().err
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "game.json").write_text("{", encoding="utf-8")
    assert cli.main(["referee", str(tmp_path / "broken")]) == 1


def test_unknown_rule_option_exits_1(
    project_root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bundle = copy_example(project_root, tmp_path)
    game = json.loads((bundle / "game.json").read_text(encoding="utf-8"))
    game["rule_options"] = {"tie_break": "coin"}
    (bundle / "game.json").write_text(json.dumps(game), encoding="utf-8")
    assert cli.main(["referee", str(bundle), "--json"]) == 1
    assert "unknown rule option 'tie_break'" in capsys.readouterr().err
