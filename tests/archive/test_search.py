"""Searching the archive, through the API and through ``mafiacam archive search``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from archive.catalog import Catalog
from archive.record import norm
from archive.search import Query, QueryError, search

A, B, C = "cup/final-t1-g1", "cup/final-t2-g2", "spring/t3-g1"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (Query(), [A, B, C]),
        # names: any case, Cyrillic folded by Python (not SQLite's ASCII lower), ё read as е
        (Query(player="мария ёлкина"), [A]),
        (Query(player="МАРИЯ ЕЛКИНА"), [A]),
        (Query(player="Ёлк"), [A]),
        (Query(player="марс"), [B, C]),  # seat 7 of game A was renamed
        (Query(player="ФЕРЗЬ"), [A, B, C]),
        (Query(player="nobody"), []),
        (Query(tournament="кубок сибири"), [A, B]),
        (Query(tournament="SPRING"), [C]),
        (Query(protests=True), [A]),
        (Query(open_protests=True), [A]),
        (Query(disagreements=True), [A, B]),
        (Query(close_votes_ms=200), [B]),
        (Query(close_votes_ms=150), []),  # strictly under
        (Query(date_from="2025-03-02"), [B, C]),
        (Query(date_from="2025-03-01", date_to="2025-03-01"), [A]),
        (Query(winner="red"), [A]),
        (Query(winner="none"), [B, C]),
        (Query(tournament="кубок", player="марс"), [B]),
    ],
)
def test_search(indexed_archive: Path, query: Query, expected: list[str]) -> None:
    with Catalog(indexed_archive) as cat:
        assert cat.refresh().indexed == ()
        assert [g["path"] for g in search(cat, query)] == expected


def test_norm_folds_cyrillic_case() -> None:
    assert norm("  МАРИЯ   Ёлкина ") == norm("мария елкина") == "мария елкина"
    assert "Ё".lower() != "е"  # the ё rule is ours, not Unicode's


@pytest.mark.parametrize("bad", [Query(date_from="1.3.2025"), Query(winner="green")])
def test_bad_query(indexed_archive: Path, bad: Query) -> None:
    with Catalog(indexed_archive) as cat, pytest.raises(QueryError):
        search(cat, bad)


def test_cli_search_table_and_json(
    indexed_archive: Path, run_cli: Callable[..., tuple[int, str, str]]
) -> None:
    rc, out, _ = run_cli("archive", "search", str(indexed_archive), "--player", "МАРИЯ")
    assert rc == 0
    assert "Кубок Сибири" in out and "7:Мария Ёлкина" in out and out.strip().endswith("\n1 game")
    rc, out, _ = run_cli("archive", "search", str(indexed_archive), "--close-votes", "200", "--json")
    rows = json.loads(out)
    assert [r["path"] for r in rows] == [B]
    assert rows[0]["min_vote_margin_ms"] == 150 and rows[0]["table"] == "2"
    rc, out, _ = run_cli("archive", "search", str(indexed_archive), "--protests", "--disagreements", "--json")
    assert [r["path"] for r in json.loads(out)] == [A]
    rc, _, err = run_cli("archive", "search", str(indexed_archive), "--from", "yesterday")
    assert rc == 2 and "YYYY-MM-DD" in err


def test_cli_list_and_show(indexed_archive: Path, run_cli: Callable[..., tuple[int, str, str]]) -> None:
    rc, out, _ = run_cli("archive", "list", str(indexed_archive))
    assert rc == 0 and out.strip().endswith("3 games")
    assert out.splitlines()[0].split()[:3] == ["id", "date", "tournament"]
    rc, out, _ = run_cli("archive", "show", str(indexed_archive), B)
    assert rc == 0
    assert "smallest counted margin 150 ms" in out
    assert "seat 5 for 7: 150 ms before the close (counted)" in out
    rc, out, _ = run_cli("archive", "show", str(indexed_archive), A)
    assert "protest p1 t=2400000 by 9: seat 8 voted after Спасибо; decided: rejected" in out
    assert "protest p2" in out and out.rstrip().count("open") >= 1
    rc, _, err = run_cli("archive", "show", str(indexed_archive), "999")
    assert rc == 1 and "no such game" in err


def test_cli_list_reports_damage(archive_dir: Path, run_cli: Callable[..., tuple[int, str, str]]) -> None:
    game = archive_dir / "spring" / "t3-g1" / "game.json"
    game.write_text("{not json", encoding="utf-8")
    rc, out, _ = run_cli("archive", "list", str(archive_dir))
    assert rc == 0 and out.strip().endswith("3 games (1 damaged)")
    assert f"damaged: {game}:1:2: invalid JSON" in out
