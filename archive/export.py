"""``archive export``: a whole tournament for the rating site (JSON) or as printable score sheets.

Games are taken from the index (tournament name matched like a search: case-folded, as a substring
unless ``exact``), in order of date, stage, table and game number, and exported with the same
functions as ``mafiacam export`` (:mod:`gamelog.exports`) from each bundle as it is on disk now.

``mafiaratings``: one ``<name>.json`` per game (the site's game object) and ``index.json`` listing every
game of the tournament: file, date, stage, table, game number, winner, the bundle's chain head and
status, or the reason it could not be exported. ``sheets``: one ``<name>.html`` per game (A4 score
sheet with the chain head) and ``index.html`` linking them. A game that cannot be exported is listed in
the index with its reason and never stops the others.
"""

from __future__ import annotations

import html
import json
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from archive.catalog import Catalog
from archive.record import norm
from gamelog.bundle import BundleError, load_bundle
from gamelog.exports import ExportError, chain_status, export_mafiaratings, export_score_sheet
from gamelog.referee import referee_bundle

FORMATS = ("mafiaratings", "sheets")


@dataclass(frozen=True)
class Exported:
    path: str  # the bundle, as indexed
    file: str | None  # written, relative to the output folder
    error: str | None
    row: dict[str, Any]


def write_text(target: Path, text: str) -> None:
    """Atomic write of a file meant to be shared (mode 644)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def file_stem(row: dict[str, Any], used: set[str]) -> str:
    """``<date>_<stage>_t<table>_g<game>`` made safe for any file system, unique within the export."""
    parts = [row.get("date") or "undated"]
    if row.get("stage"):
        parts.append(str(row["stage"]))
    if row.get("table_name"):
        parts.append(f"t{row['table_name']}")
    if row.get("game_number") is not None:
        parts.append(f"g{row['game_number']}")
    if len(parts) == 1:
        parts.append(f"id{row['id']}")
    stem = re.sub(r"[^\w.-]+", "-", "_".join(parts), flags=re.UNICODE).strip("-") or f"id{row['id']}"
    base, n = stem, 2
    while stem in used:
        stem, n = f"{base}-{n}", n + 1
    used.add(stem)
    return stem


def tournament_games(cat: Catalog, name: str, *, exact: bool = False) -> list[dict[str, Any]]:
    if exact:
        return cat.games("WHERE g.tournament_norm = ?", (norm(name),))
    return cat.games("WHERE instr(g.tournament_norm, ?) > 0", (norm(name),))


def _one(row: dict[str, Any], fmt: str, lang: str) -> tuple[str, str]:
    """(text, extension) of one game; raises ExportError / BundleError."""
    path = Path(row["abs_path"])
    bundle = load_bundle(path)
    state = referee_bundle(bundle).to_json()
    if fmt == "mafiaratings":
        rec = export_mafiaratings(bundle.game, bundle.events, state, language=lang)
        return json.dumps(rec, ensure_ascii=False, indent=2) + "\n", ".json"
    chain = chain_status(path)
    text = export_score_sheet(
        bundle.game,
        bundle.events,
        state,
        lang=lang,
        chain_head=chain.head,
        chain_status=chain.status,
        chain_detail=chain.detail,
    )
    return text, ".html"


def export_tournament(
    cat: Catalog, name: str, fmt: str, out: Path, *, lang: str = "ru", exact: bool = False
) -> list[Exported]:
    if fmt not in FORMATS:
        raise ValueError(f"format {fmt!r}: one of {', '.join(FORMATS)}")
    cat.refresh()
    rows = tournament_games(cat, name, exact=exact)
    out.mkdir(parents=True, exist_ok=True)
    used: set[str] = set()
    done: list[Exported] = []
    for row in rows:
        stem = file_stem(row, used)
        if row["status"] in ("damaged", "missing"):
            done.append(Exported(row["path"], None, f"{row['status']}: {row['error']}", row))
            continue
        try:
            text, ext = _one(row, fmt, lang)
        except (ExportError, BundleError) as e:
            done.append(Exported(row["path"], None, str(e), row))
            continue
        except Exception as e:  # a referee or export bug must not stop the other games
            done.append(Exported(row["path"], None, f"{type(e).__name__}: {e}", row))
            continue
        write_text(out / (stem + ext), text)
        done.append(Exported(row["path"], stem + ext, None, row))
    if fmt == "mafiaratings":
        write_text(
            out / "index.json", json.dumps(_index_json(name, done), ensure_ascii=False, indent=2) + "\n"
        )
    else:
        write_text(out / "index.html", _index_html(name, done))
    return done


def _entry(e: Exported) -> dict[str, Any]:
    r = e.row
    return {
        "file": e.file,
        "bundle": e.path,
        "date": r.get("date"),
        "started_at": r.get("started_at"),
        "tournament": r.get("tournament"),
        "stage": r.get("stage"),
        "table": r.get("table_name"),
        "game_number": r.get("game_number"),
        "winner": r.get("winner"),
        "players": [{"seat": p["seat"], "name": p["name"]} for p in r.get("players", [])],
        "chain": {"status": r.get("integrity"), "head": r.get("head")},
        "error": e.error,
    }


def _index_json(name: str, done: list[Exported]) -> dict[str, Any]:
    return {
        "format": "mafiacam-archive-export/1",
        "tournament": name,
        "games": [_entry(e) for e in done],
        "exported": sum(1 for e in done if e.file),
        "failed": sum(1 for e in done if e.error),
    }


def _index_html(name: str, done: list[Exported]) -> str:
    esc = html.escape
    rows = []
    for e in done:
        r = e.row
        what = (
            f'<a href="{esc(e.file)}">{esc(e.file)}</a>'
            if e.file
            else f"<em>not exported: {esc(e.error or '')}</em>"
        )
        cells = [r.get("date"), r.get("stage"), r.get("table_name"), r.get("game_number"), r.get("winner")]
        head = (r.get("head") or "")[:16]
        rows.append(
            "<tr>"
            + "".join(f"<td>{esc('' if c is None else str(c))}</td>" for c in cells)
            + f"<td>{what}</td><td><code>{esc(head)}</code> {esc(str(r.get('integrity')))}</td></tr>"
        )
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html><head><meta charset="utf-8">',
            f"<title>{esc(name)}</title>",
            "<style>body{font-family:sans-serif}td,th{padding:2px 8px;border-bottom:1px solid #ccc}</style>",
            "</head><body>",
            f"<h1>{esc(name)}</h1>",
            "<table><tr><th>date</th><th>stage</th><th>table</th><th>game</th><th>winner</th>"
            "<th>score sheet</th><th>chain</th></tr>",
            *rows,
            "</table></body></html>",
            "",
        ]
    )
