"""``mafiacam archive verify`` and ``mafiacam archive export``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from gamelog.manifest import seal

Run = Callable[..., tuple[int, str, str]]


def test_verify_all_intact(archive_dir: Path, run_cli: Run) -> None:
    seal(archive_dir / "spring" / "t3-g1")  # the hand-entered log, chained now
    rc, out, err = run_cli("archive", "verify", str(archive_dir))
    assert rc == 0, out + err
    assert [ln.split()[0] for ln in out.splitlines()] == ["SEALED"] * 3
    assert "all 3 bundles intact" in err


def test_verify_unchained_needs_a_flag(archive_dir: Path, run_cli: Run) -> None:
    rc, out, err = run_cli("archive", "verify", str(archive_dir))
    assert rc == 1
    assert "UNCHAINED spring/t3-g1" in out and "1 never chained" in err
    rc, _, _ = run_cli("archive", "verify", str(archive_dir), "--allow-unchained")
    assert rc == 0


def test_verify_reports_each_kind_of_damage(archive_dir: Path, run_cli: Run) -> None:
    a = archive_dir / "cup" / "final-t1-g1"
    lines = (a / "events.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    lines[40] = lines[40].replace("}", ', "note": "x"}')
    (a / "events.jsonl").write_text("".join(lines), encoding="utf-8")
    b = archive_dir / "cup" / "final-t2-g2" / "game.json"
    b.write_text(b.read_text(encoding="utf-8").replace("Кубок", "Kubok"), encoding="utf-8")
    rc, out, err = run_cli("archive", "verify", str(archive_dir), "--allow-unchained", "--json")
    assert rc == 1 and "2 of 3 bundles NOT intact" in err
    rep = json.loads(out)
    assert rep["ok"] is False
    got = {x["path"]: x for x in rep["bundles"]}
    assert got["cup/final-t1-g1"]["integrity"] == "broken"
    assert "events.jsonl:41: line changed after it was recorded" in got["cup/final-t1-g1"]["problems"]
    assert "game.json: file changed after it was sealed" in got["cup/final-t2-g2"]["problems"]
    assert got["spring/t3-g1"]["integrity"] == "unchained"


def test_verify_rehashes_what_the_index_would_skip(archive_dir: Path, run_cli: Run) -> None:
    """A sealed file changed in place with its size and mtime kept: the index trusts stat() for
    segments, verify reads every byte."""
    import os

    b = archive_dir / "cup" / "final-t2-g2"
    seg = b / "seg.bin"
    seg.write_bytes(b"\0" * 1000)
    g = json.loads((b / "game.json").read_text(encoding="utf-8"))
    g["video"] = ["seg.bin"]
    (b / "game.json").write_text(json.dumps(g, ensure_ascii=False), encoding="utf-8")
    (b / "manifest.json").unlink()
    seal(b)
    assert run_cli("archive", "list", str(archive_dir))[0] == 0
    st = seg.stat()
    seg.write_bytes(b"\1" * 1000)
    os.utime(seg, ns=(st.st_atime_ns, st.st_mtime_ns))
    rc, out, _ = run_cli("archive", "verify", str(archive_dir), "--allow-unchained")
    assert rc == 1
    assert "seg.bin: segment changed after it was sealed (segment 1)" in out


def test_export_mafiaratings(indexed_archive: Path, run_cli: Run, tmp_path: Path) -> None:
    out_dir = tmp_path / "site"
    rc, _, err = run_cli(
        "archive", "export", str(indexed_archive), "--tournament", "кубок сибири", "--format", "mafiaratings",
        "--out", str(out_dir),
    )  # fmt: skip
    assert rc == 0, err
    index = json.loads((out_dir / "index.json").read_text(encoding="utf-8"))
    assert index["exported"] == 2 and index["failed"] == 0
    files = [g["file"] for g in index["games"]]
    assert files == ["2025-03-01_финал_t1_g1.json", "2025-03-02_финал_t2_g2.json"]
    g1 = json.loads((out_dir / files[0]).read_text(encoding="utf-8"))
    assert g1["winner"] == "civ" and g1["tableNum"] == 1 and g1["gameNum"] == 1
    assert g1["players"][6]["name"] == "Мария Ёлкина"
    assert index["games"][0]["chain"]["status"] == "sealed" and len(index["games"][0]["chain"]["head"]) == 64
    assert sorted(p.name for p in out_dir.iterdir()) == sorted([*files, "index.json"])


def test_export_sheets(indexed_archive: Path, run_cli: Run, tmp_path: Path) -> None:
    out_dir = tmp_path / "sheets"
    rc, _, err = run_cli(
        "archive", "export", str(indexed_archive), "--tournament", "Spring Open", "--exact",
        "--format", "sheets", "--out", str(out_dir),
    )  # fmt: skip
    assert rc == 0, err
    sheet = (out_dir / "2025-04-12_t3_g1.html").read_text(encoding="utf-8")
    assert sheet.startswith("<!DOCTYPE html>") and "Искра" in sheet
    index = (out_dir / "index.html").read_text(encoding="utf-8")
    assert 'href="2025-04-12_t3_g1.html"' in index and "Spring Open" in index


def test_export_lists_games_it_cannot_export(archive_dir: Path, run_cli: Run, tmp_path: Path) -> None:
    """The rating site needs roles: a game without them is listed with the reason; the others go on."""
    log = archive_dir / "cup" / "final-t1-g1" / "events.jsonl"
    lines = [ln for ln in log.read_text(encoding="utf-8").splitlines(keepends=True) if '"roles"' not in ln]
    log.write_text("".join(lines), encoding="utf-8")
    out_dir = tmp_path / "site"
    rc, _, err = run_cli(
        "archive", "export", str(archive_dir), "--tournament", "Кубок", "--format", "mafiaratings",
        "--out", str(out_dir),
    )  # fmt: skip
    assert rc == 1
    assert "cup/final-t1-g1: not exported:" in err and "roles" in err
    index = json.loads((out_dir / "index.json").read_text(encoding="utf-8"))
    assert [g["file"] is None for g in index["games"]] == [True, False]
    assert "roles" in index["games"][0]["error"]


def test_export_unknown_tournament(indexed_archive: Path, run_cli: Run, tmp_path: Path) -> None:
    rc, _, err = run_cli(
        "archive", "export", str(indexed_archive), "--tournament", "Nope", "--format", "sheets",
        "--out", str(tmp_path / "x"),
    )  # fmt: skip
    assert rc == 1 and "no game of a tournament matching 'Nope'" in err
