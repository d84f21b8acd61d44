"""Searching the catalogue: a :class:`Query` becomes SQL over the index; :func:`table` prints the result.

Names and tournaments are matched on their normalised form (:func:`archive.record.norm`: Python's
Unicode case folding, so "МАРС", "марс" and "Марс" are one name, and ё reads as е) as a substring;
SQLite's own ``lower()`` / ``LIKE`` fold ASCII only and are not used for that.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from archive.catalog import Catalog
from archive.record import norm

WINNERS = ("red", "black", "none")


class QueryError(ValueError):
    """A search option that cannot be used (a bad date, an unknown winner)."""


@dataclass(frozen=True)
class Query:
    player: str | None = None
    tournament: str | None = None
    protests: bool = False
    open_protests: bool = False
    disagreements: bool = False
    close_votes_ms: int | None = None  # a counted vision vote landed less than this before the close
    date_from: str | None = None  # YYYY-MM-DD, inclusive
    date_to: str | None = None
    winner: str | None = None  # red | black | none (no winner yet)
    status: str | None = None
    needs_analysis: bool = False

    def sql(self) -> tuple[str, list[Any]]:
        clauses: list[str] = []
        params: list[Any] = []
        if self.player:
            clauses.append(
                "EXISTS (SELECT 1 FROM players p WHERE p.game_id = g.id AND instr(p.name_norm, ?) > 0)"
            )
            params.append(norm(self.player))
        if self.tournament:
            clauses.append("instr(g.tournament_norm, ?) > 0")
            params.append(norm(self.tournament))
        if self.protests:
            clauses.append("g.protests > 0")
        if self.open_protests:
            clauses.append("g.open_protests > 0")
        if self.disagreements:
            clauses.append("g.disagreements > 0")
        if self.close_votes_ms is not None:
            clauses.append("g.min_vote_margin_ms IS NOT NULL AND g.min_vote_margin_ms < ?")
            params.append(self.close_votes_ms)
        for value, op in ((self.date_from, ">="), (self.date_to, "<=")):
            if value is not None:
                try:
                    date.fromisoformat(value)
                except ValueError:
                    raise QueryError(f"date {value!r}: expected YYYY-MM-DD") from None
                clauses.append(f"g.date {op} ?")
                params.append(value)
        if self.winner is not None:
            if self.winner not in WINNERS:
                raise QueryError(f"winner {self.winner!r}: one of {', '.join(WINNERS)}")
            if self.winner == "none":
                clauses.append("g.winner IS NULL AND g.status NOT IN ('damaged', 'missing')")
            else:
                clauses.append("g.winner = ?")
                params.append(self.winner)
        if self.status is not None:
            clauses.append("g.status = ?")
            params.append(self.status)
        if self.needs_analysis:
            clauses.append("g.video_segments > 0 AND g.status != 'damaged' AND g.analysis != 'current'")
        return ("WHERE " + " AND ".join(clauses)) if clauses else "", params


def search(cat: Catalog, q: Query) -> list[dict[str, Any]]:
    where, params = q.sql()
    return cat.games(where, params)


# ---- printing ----------------------------------------------------------------------------------------

COLUMNS: tuple[tuple[str, str], ...] = (
    ("id", "id"),
    ("date", "date"),
    ("tournament", "tournament"),
    ("stage", "stage"),
    ("table_name", "table"),
    ("game_number", "game"),
    ("winner", "winner"),
    ("status", "status"),
    ("integrity", "chain"),
    ("analysis", "vision"),
    ("protests", "prot"),
    ("disagreements", "disagr"),
    ("min_vote_margin_ms", "margin"),
    ("path", "path"),
)


def _cell(v: object) -> str:
    return "-" if v is None or v == "" else str(v)


def table(rows: Sequence[dict[str, Any]], *, players: str | None = None) -> str:
    """A plain text table; a damaged bundle's error goes on the line under it. ``players`` (a query)
    adds the matching players' seats."""
    heads = [h for _, h in COLUMNS]
    cells = [[_cell(r.get(k)) for k, _ in COLUMNS] for r in rows]
    widths = [max([len(h)] + [len(c[i]) for c in cells]) for i, h in enumerate(heads)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(heads, widths, strict=True)).rstrip()]
    for r, c in zip(rows, cells, strict=True):
        lines.append("  ".join(x.ljust(w) for x, w in zip(c, widths, strict=True)).rstrip())
        if players:
            who = [f"{p['seat']}:{p['name']}" for p in r["players"] if norm(players) in norm(p["name"])]
            if who:
                lines.append("    players: " + ", ".join(who))
        if r.get("error") and r.get("status") in ("damaged", "missing", "broken"):
            lines.append(f"    {r['status']}: {r['error']}")
    counts: dict[str, int] = {}
    for r in rows:
        if r.get("status") != "ok":
            counts[str(r.get("status"))] = counts.get(str(r.get("status")), 0) + 1
    tail = f"{len(rows)} game{'s' if len(rows) != 1 else ''}"
    if counts:
        tail += " (" + ", ".join(f"{n} {st}" for st, n in sorted(counts.items())) + ")"
    lines.append(tail)
    return "\n".join(lines)


def for_json(row: dict[str, Any]) -> dict[str, Any]:
    """A game row for ``--json`` output (the database id and the archive-relative path included)."""
    out = dict(row)
    out["table"] = out.pop("table_name", None)
    out.pop("tournament_norm", None)
    return out
