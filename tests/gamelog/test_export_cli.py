"""``mafiacam export``: real bundles on disk, the real referee and the real hash chain."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from gamelog.manifest import seal, verify
from mafiacam import cli


@pytest.fixture
def bundle(shared_dir: Path, tmp_path: Path) -> Path:
    dst = tmp_path / "game"
    shutil.copytree(shared_dir / "contract_examples" / "01-majority-and-kill", dst)
    return dst


def test_mafiaratings_to_stdout(bundle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["export", str(bundle), "--format", "mafiaratings", "--club-id", "5"]) == 0
    out, err = capsys.readouterr()
    record = json.loads(out)
    assert record["clubId"] == 5 and len(record["players"]) == 10
    assert record["players"][4]["death"] == {"round": 0, "type": "day"}
    assert "no winner yet" in err


def test_sheet_of_sealed_bundle_prints_the_verified_head(
    bundle: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seal(bundle)
    head = verify(bundle).head
    before = {p.name: p.read_bytes() for p in bundle.iterdir()}
    out = tmp_path / "sheet.html"
    assert cli.main(["export", str(bundle), "--format", "sheet", "--lang", "en", "--out", str(out)]) == 0
    doc = out.read_text(encoding="utf-8")
    assert f'data-head="{head}" data-status="sealed"' in doc and "Game record" in doc
    assert capsys.readouterr().out == ""
    assert {p.name: p.read_bytes() for p in bundle.iterdir()} == before  # export never touches the bundle
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".sheet")] == []  # no temp file left


def test_sheet_of_tampered_bundle_says_so(bundle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seal(bundle)
    log = bundle / "events.jsonl"
    log.write_text(log.read_text(encoding="utf-8").replace('"target": 9', '"target": 3'), encoding="utf-8")
    assert cli.main(["export", str(bundle)]) == 0
    out, err = capsys.readouterr()
    assert 'data-head=""' in out and 'data-status="broken"' in out
    assert "warning" in err and "events.jsonl" in err


def test_unsealed_hand_entered_bundle_is_marked(bundle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["export", str(bundle), "--lang", "ru"]) == 0
    out = capsys.readouterr().out
    assert "Протокол игры" in out and 'data-status="unchained"' in out  # never chained: nothing anchored
    assert "mafiacam verify --seal" in out


def test_bundle_without_roles_fails_for_mafiaratings_with_its_path(
    bundle: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = bundle / "events.jsonl"
    lines = [ln for ln in log.read_text(encoding="utf-8").splitlines() if '"roles"' not in ln]
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert cli.main(["export", str(bundle), "--format", "mafiaratings"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert str(bundle) in err and "roles" in err
    assert cli.main(["export", str(bundle), "--format", "sheet"]) == 0  # the sheet prints, roles blank
    assert 'id="roles-unknown"' in capsys.readouterr().out


def test_missing_bundle_and_bad_scoring_fail_cleanly(
    bundle: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["export", str(tmp_path / "nope")]) == 1
    assert "nope" in capsys.readouterr().err
    assert cli.main(["export", str(bundle), "--scoring", "1,x"]) == 1
    assert "scoring" in capsys.readouterr().err
    out = tmp_path / "missing-dir" / "x.html"
    assert cli.main(["export", str(bundle), "--out", str(out)]) == 1
    assert "missing-dir" in capsys.readouterr().err


def test_out_file_is_readable_by_others_and_replaced_whole(bundle: Path, tmp_path: Path) -> None:
    out = tmp_path / "record.json"
    out.write_text("old contents that are much longer than nothing" * 100, encoding="utf-8")
    assert cli.main(["export", str(bundle), "--format", "mafiaratings", "--out", str(out)]) == 0
    assert json.loads(out.read_text(encoding="utf-8"))["features"] == "gsdutlhvknw"
    assert out.stat().st_mode & 0o644 == 0o644
