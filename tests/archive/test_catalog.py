"""The catalogue: indexing, incremental re-indexing, adding, and damaged bundles listed, never dropped."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from archive.catalog import DB_FILE, ArchiveError, Catalog
from archive.search import Query, search
from gamelog.manifest import seal
from tests.archive.conftest import FULL_GAME, make_bundle, spring_game


def by_path(cat: Catalog) -> dict[str, dict]:
    return {g["path"]: g for g in cat.games()}


def test_index_reads_every_field(archive_dir: Path) -> None:
    with Catalog(archive_dir) as cat:
        res = cat.refresh()
        assert sorted(res.indexed) == ["cup/final-t1-g1", "cup/final-t2-g2", "spring/t3-g1"]
        games = by_path(cat)
    a = games["cup/final-t1-g1"]
    assert (a["date"], a["tournament"], a["stage"], a["table_name"], a["game_number"]) == (
        "2025-03-01",
        "Кубок Сибири",
        "финал",
        "1",
        1,
    )
    assert a["winner"] == "red" and a["status"] == "ok" and a["integrity"] == "sealed"
    assert len(a["head"]) == 64
    assert a["players"][6] == {"seat": 7, "name": "Мария Ёлкина", "role": "red"}
    assert {p["role"] for p in a["players"]} == {"red", "sheriff", "mafia", "don"}
    assert (a["protests"], a["open_protests"]) == (2, 1)
    assert a["disagreements"] > 0
    assert a["analysis"] == "no video"
    b = games["cup/final-t2-g2"]
    assert b["min_vote_margin_ms"] == 150
    c = games["spring/t3-g1"]
    assert c["integrity"] == "unchained" and c["status"] == "ok"
    assert (archive_dir / DB_FILE).is_file()


def test_show_has_protests_and_margins(archive_dir: Path) -> None:
    with Catalog(archive_dir) as cat:
        cat.refresh()
        a = cat.find("cup/final-t1-g1")
        b = cat.find("cup/final-t2-g2")
    assert a is not None and b is not None
    p1, p2 = a["protests"]
    assert (p1["protest"], p1["by_seat"], p1["outcome"]) == ("p1", 9, "rejected")
    assert (p2["protest"], p2["outcome"]) == ("p2", None)
    closest = min(b["margins"], key=lambda m: m["margin_ms"])
    assert closest == {
        "t": 817899,
        "seat": 5,
        "candidate": "7",
        "call_t": 816049,
        "close_t": 818049,
        "margin_ms": 150,
        "counted": True,
        "late": False,
    }
    # every counted vote of the two windows (4 + 6) is measured
    assert sum(m["counted"] for m in b["margins"]) == 10


def test_wal_mode(archive_dir: Path) -> None:
    with Catalog(archive_dir) as cat:
        assert cat.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_reindex_is_incremental(archive_dir: Path) -> None:
    with Catalog(archive_dir) as cat:
        cat.refresh()
        again = cat.refresh()
        assert again.indexed == () and again.unchanged == 3
        # a judge's decision appended to one bundle: only that one is read again
        log = archive_dir / "cup" / "final-t1-g1" / "events.jsonl"
        line = {
            "t": 2480000,
            "type": "decision",
            "src": "judge",
            "protest": "p2",
            "outcome": "upheld",
            "id": "j9",
        }
        with open(log, "a", encoding="utf-8") as f:
            f.write(json.dumps(line) + "\n")
        seal(log.parent)
        third = cat.refresh()
        assert third.indexed == ("cup/final-t1-g1",) and third.unchanged == 2
        assert by_path(cat)["cup/final-t1-g1"]["open_protests"] == 0


def test_same_size_same_mtime_edit_of_game_json_is_seen(archive_dir: Path) -> None:
    game = archive_dir / "spring" / "t3-g1" / "game.json"
    with Catalog(archive_dir) as cat:
        cat.refresh()
        st = game.stat()
        text = game.read_text(encoding="utf-8").replace('"3"', '"4"')
        game.write_text(text, encoding="utf-8")
        os.utime(game, ns=(st.st_atime_ns, st.st_mtime_ns))
        assert cat.refresh().indexed == ("spring/t3-g1",)
        assert by_path(cat)["spring/t3-g1"]["table_name"] == "4"


def test_add_copies_and_links(tmp_path: Path, shared_dir: Path) -> None:
    src = spring_game(tmp_path / "outside" / "game", shared_dir)
    (src / ".analysis").mkdir()
    (src / ".analysis" / "x.jsonl").write_text("cache\n")
    with Catalog(tmp_path / "arc") as cat:
        dest = cat.add(src)
        assert dest == (tmp_path / "arc" / "game").resolve()
        assert (dest / "events.jsonl").read_bytes() == (src / "events.jsonl").read_bytes()
        assert not (dest / ".analysis").exists()  # the stretch cache is not copied
        with pytest.raises(ArchiveError, match="already in the archive"):
            cat.add(src)
        for bad in ("../escape", "a/b", ".hidden", ""):
            with pytest.raises(ArchiveError, match="one folder name"):
                cat.add(src, name=bad)
        linked = cat.add(src, link=True)
        assert linked == src.resolve()
        rows = by_path(cat)
        assert set(rows) == {"game", str(src.resolve())}
        assert rows[str(src.resolve())]["linked"] == 1
        # the linked folder disappears: still listed, as missing
        shutil.rmtree(src)
        res = cat.refresh()
        assert res.missing == (str(src.resolve()),)
        gone = by_path(cat)[str(src.resolve())]
        assert gone["status"] == "missing" and "gone" in gone["error"]
    with pytest.raises(ArchiveError, match="not a bundle folder"), Catalog(tmp_path / "arc") as cat:
        cat.add(tmp_path / "outside")


def test_deleted_bundle_inside_archive_is_forgotten(archive_dir: Path) -> None:
    with Catalog(archive_dir) as cat:
        cat.refresh()
        shutil.rmtree(archive_dir / "spring")
        assert cat.refresh().forgotten == ("spring/t3-g1",)
        assert len(cat.games()) == 2


# ---- damage ------------------------------------------------------------------------------------------


def test_edited_line_after_sealing_is_broken(archive_dir: Path) -> None:
    log = archive_dir / "cup" / "final-t1-g1" / "events.jsonl"
    with Catalog(archive_dir) as cat:
        cat.refresh()
        lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
        edited = lines[28].replace('"seat": 2,', '"seat": 3,')
        assert edited != lines[28]
        lines[28] = edited
        log.write_text("".join(lines), encoding="utf-8")
        assert cat.refresh().indexed == ("cup/final-t1-g1",)
        a = by_path(cat)["cup/final-t1-g1"]
    assert a["status"] == "broken" and a["integrity"] == "broken" and a["head"] is None
    assert "events.jsonl:29: line changed after it was recorded" in a["error"]


def test_broken_game_json_is_listed_as_damaged(archive_dir: Path) -> None:
    game = archive_dir / "cup" / "final-t2-g2" / "game.json"
    with Catalog(archive_dir) as cat:
        cat.refresh()
        game.write_text(game.read_text(encoding="utf-8")[:-40], encoding="utf-8")
        cat.refresh()
        rows = by_path(cat)
        assert len(rows) == 3  # never dropped
        b = rows["cup/final-t2-g2"]
        assert b["status"] == "damaged"
        assert "game.json" in b["error"] and "invalid JSON" in b["error"]
        assert search(cat, Query(status="damaged"))[0]["path"] == "cup/final-t2-g2"
        # a folder whose game.json is gone altogether is still found by its log
        game.unlink()
        cat.refresh()
        assert "missing" in by_path(cat)["cup/final-t2-g2"]["error"]


def test_deleted_segment_is_broken(tmp_path: Path, shared_dir: Path) -> None:
    root = tmp_path / "arc"
    b = make_bundle(
        FULL_GAME, root / "video-game", game={"video": ["seg-000.mkv", "seg-001.mkv"]}, sealed=False
    )
    # the chain hashes bytes, it does not decode them: stand-in segments are enough here
    (b / "seg-000.mkv").write_bytes(os.urandom(4096))
    (b / "seg-001.mkv").write_bytes(os.urandom(4096))
    seal(b)
    with Catalog(root) as cat:
        cat.refresh()
        before = by_path(cat)["video-game"]
        assert before["integrity"] == "sealed" and before["video_segments"] == 2
        (b / "seg-001.mkv").unlink()
        cat.refresh()
        after = by_path(cat)["video-game"]
    assert after["status"] == "broken"
    assert "seg-001.mkv: segment missing (segment 2); it was sealed" in after["problems"]


def test_rewritten_chain_is_caught_by_the_anchor(archive_dir: Path) -> None:
    """Someone edits a line and re-chains the whole log: it verifies on its own, not against the head
    the archive saw first."""
    b = archive_dir / "cup" / "final-t1-g1"
    with Catalog(archive_dir) as cat:
        cat.refresh()
        first = by_path(cat)["cup/final-t1-g1"]["head"]
        log = b / "events.jsonl"
        log.write_text(
            log.read_text(encoding="utf-8").replace('"seat": 8,', '"seat": 6,', 1), encoding="utf-8"
        )
        (b / "events.jsonl.chain").unlink()
        (b / "manifest.json").unlink()
        seal(b)
        cat.refresh()
        a = by_path(cat)["cup/final-t1-g1"]
    assert a["status"] == "broken"
    assert first[:16] in a["error"] and "rewritten" in a["error"]
