"""The archive's index: ``ARCHIVE/.mafiacam-archive.sqlite`` (stdlib sqlite3, WAL mode).

An archive is a folder. Bundles inside it (any depth; a folder holding ``game.json``, ``events.jsonl``
or ``manifest.json`` is a bundle, so one whose ``game.json`` broke is still found) are indexed by their
path relative to the archive; bundles left where they are (``archive add --link``) by absolute path.
:meth:`Catalog.refresh` re-reads only bundles whose signature (size and mtime of the tracked files and
segments, hashes of ``game.json`` and ``manifest.json``) changed; a damaged bundle stays listed with its
error and status ``damaged``, a registered folder that disappeared with status ``missing``.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from archive.record import GameRecord, anchor_matches, anchor_message, norm, read_record, signature
from gamelog.bundle import EVENTS_FILE, GAME_FILE
from gamelog.manifest import MANIFEST_FILE

DB_FILE = ".mafiacam-archive.sqlite"
SCHEMA_VERSION = 1
_MARKERS = (GAME_FILE, EVENTS_FILE, MANIFEST_FILE)
_SKIP_DIRS = (".analysis",)

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,           -- relative to the archive, or absolute for a linked bundle
  linked INTEGER NOT NULL DEFAULT 0,
  signature TEXT NOT NULL,
  indexed_at TEXT NOT NULL,
  status TEXT NOT NULL,                -- ok | warnings | broken | damaged | missing
  error TEXT,
  problems TEXT NOT NULL DEFAULT '[]', -- JSON list
  started_at TEXT, date TEXT,
  tournament TEXT, tournament_norm TEXT, stage TEXT, table_name TEXT, game_number INTEGER,
  rules TEXT, host TEXT, winner TEXT, win_reason TEXT,
  video_segments INTEGER NOT NULL DEFAULT 0, video_ms INTEGER,
  analysis TEXT NOT NULL, analyser TEXT,
  integrity TEXT NOT NULL, head TEXT,
  disagreements INTEGER NOT NULL DEFAULT 0, needs_review INTEGER NOT NULL DEFAULT 0,
  violations INTEGER NOT NULL DEFAULT 0,
  protests INTEGER NOT NULL DEFAULT 0, open_protests INTEGER NOT NULL DEFAULT 0,
  min_vote_margin_ms INTEGER
);
CREATE TABLE IF NOT EXISTS players (
  game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
  seat INTEGER NOT NULL, name TEXT NOT NULL, name_norm TEXT NOT NULL, role TEXT,
  PRIMARY KEY (game_id, seat)
);
CREATE INDEX IF NOT EXISTS players_name ON players(name_norm);
CREATE TABLE IF NOT EXISTS protests (
  game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
  protest TEXT NOT NULL, t INTEGER, by_seat INTEGER, claim TEXT, outcome TEXT, reason TEXT,
  judge TEXT, decided_t INTEGER
);
CREATE TABLE IF NOT EXISTS margins (
  game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
  t INTEGER NOT NULL, seat INTEGER NOT NULL, candidate TEXT NOT NULL, call_t INTEGER NOT NULL,
  close_t INTEGER NOT NULL, margin_ms INTEGER NOT NULL, counted INTEGER NOT NULL, late INTEGER NOT NULL
);
-- the head first seen sealed: a chain rewritten after an edit will not match it
CREATE TABLE IF NOT EXISTS anchors (
  path TEXT PRIMARY KEY, head TEXT NOT NULL, at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS analysis_errors (
  path TEXT NOT NULL, analyser TEXT NOT NULL, at TEXT NOT NULL, error TEXT NOT NULL,
  PRIMARY KEY (path, analyser)
);
"""


class ArchiveError(Exception):
    """The archive folder or its index cannot be used; the message names the path."""


@dataclass(frozen=True)
class RefreshResult:
    indexed: tuple[str, ...]  # re-read (new or changed)
    unchanged: int
    missing: tuple[str, ...]  # registered, folder gone
    forgotten: tuple[str, ...]  # inside the archive, folder deleted: removed from the index


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def find_bundles(root: Path) -> Iterator[Path]:
    """Bundle folders under ``root`` (not descending into a bundle, nor into hidden folders)."""
    if any((root / m).exists() for m in _MARKERS):
        yield root
        return
    try:
        children = sorted(root.iterdir())
    except OSError:
        return
    for child in children:
        if child.is_dir() and not child.name.startswith(".") and child.name not in _SKIP_DIRS:
            yield from find_bundles(child)


class Catalog:
    """The index of one archive folder. Use as a context manager, or call :meth:`close`."""

    def __init__(self, root: str | Path, *, create: bool = True) -> None:
        self.root = Path(root).resolve()
        if not self.root.is_dir():
            if not create:
                raise ArchiveError(f"{self.root}: no such archive folder")
            self.root.mkdir(parents=True)
        self.db_path = self.root / DB_FILE
        try:
            self.db = sqlite3.connect(self.db_path, timeout=30)
            self.db.row_factory = sqlite3.Row
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self.db.executescript(SCHEMA)
            row = self.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            if row is None:
                self.db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
                self.db.commit()
            elif int(row[0]) > SCHEMA_VERSION:
                raise ArchiveError(f"{self.db_path}: written by a newer mafiacam (schema {row[0]})")
        except sqlite3.DatabaseError as e:
            raise ArchiveError(f"{self.db_path}: not a usable archive index ({e})") from None

    def __enter__(self) -> Catalog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.db.close()

    # ---- paths ---------------------------------------------------------------------------------------

    def key_of(self, bundle: Path) -> tuple[str, bool]:
        """(index path, linked): relative inside the archive, absolute outside it."""
        b = bundle.resolve()
        try:
            return b.relative_to(self.root).as_posix(), False
        except ValueError:
            return str(b), True

    def abs_path(self, key: str) -> Path:
        p = Path(key)
        return p if p.is_absolute() else self.root / p

    # ---- adding --------------------------------------------------------------------------------------

    def add(self, bundle: str | Path, *, link: bool = False, name: str | None = None) -> Path:
        """Copy a bundle into the archive (default; into ``name`` or the source folder's name) or, with
        ``link``, register it where it is. Returns the bundle's path in the archive. The copy leaves out
        the analyser's stretch cache (``.analysis/``); it is made beside and renamed into place, so a
        failed copy leaves nothing half-copied."""
        src = Path(bundle).resolve()
        if not src.is_dir() or not any((src / m).exists() for m in _MARKERS):
            raise ArchiveError(
                f"{src}: not a bundle folder (no {GAME_FILE}, {EVENTS_FILE} or {MANIFEST_FILE})"
            )
        if link:
            dest = src
        else:
            try:
                src.relative_to(self.root)
                dest = src  # already inside the archive
            except ValueError:
                if name is not None and (not name or name.startswith(".") or Path(name).name != name):
                    raise ArchiveError(f"--name {name!r}: one folder name, not a path") from None
                dest = self.root / (name or src.name)
                if dest.exists():
                    raise ArchiveError(f"{dest}: already in the archive (give another --name)") from None
                tmp = dest.with_name(f".adding-{dest.name}")
                shutil.rmtree(tmp, ignore_errors=True)
                shutil.copytree(src, tmp, ignore=shutil.ignore_patterns(".analysis"))
                tmp.rename(dest)
        self.index(dest)
        return dest

    # ---- indexing ------------------------------------------------------------------------------------

    def index(self, bundle: Path, record: GameRecord | None = None) -> GameRecord:
        key, linked = self.key_of(bundle)
        rec = record or read_record(self.abs_path(key))
        anchor = self.anchor(key)
        if anchor is not None and rec.integrity in ("sealed", "unsealed"):
            if not anchor_matches(self.abs_path(key), anchor):
                msg = anchor_message(anchor)
                rec = dataclasses.replace(
                    rec,
                    status="broken",
                    integrity="broken",
                    head=None,
                    error=msg,
                    problems=(*rec.problems, msg),
                )
        elif rec.integrity == "sealed" and rec.head:
            self.set_anchor(key, rec.head)
        with self.db:
            self.db.execute("DELETE FROM games WHERE path = ?", (key,))
            cur = self.db.execute(
                """INSERT INTO games (path, linked, signature, indexed_at, status, error, problems,
                   started_at, date, tournament, tournament_norm, stage, table_name, game_number, rules,
                   host, winner, win_reason, video_segments, video_ms, analysis, analyser, integrity,
                   head, disagreements, needs_review, violations, protests, open_protests,
                   min_vote_margin_ms)
                   VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)""",
                (
                    key,
                    int(linked),
                    rec.signature,
                    _now(),
                    rec.status,
                    rec.error,
                    json.dumps(list(rec.problems), ensure_ascii=False),
                    rec.started_at,
                    rec.date,
                    rec.tournament,
                    norm(rec.tournament) if rec.tournament else None,
                    rec.stage,
                    rec.table,
                    rec.game_number,
                    rec.rules,
                    rec.host,
                    rec.winner,
                    rec.win_reason,
                    rec.video_segments,
                    rec.video_ms,
                    rec.analysis,
                    rec.analyser,
                    rec.integrity,
                    rec.head,
                    rec.disagreements,
                    rec.needs_review,
                    rec.violations,
                    len(rec.protests),
                    sum(1 for p in rec.protests if p.outcome is None),
                    rec.min_vote_margin_ms,
                ),
            )
            gid = cur.lastrowid
            self.db.executemany(
                "INSERT INTO players VALUES (?,?,?,?,?)",
                [(gid, p.seat, p.name, norm(p.name), p.role) for p in rec.players],
            )
            self.db.executemany(
                "INSERT INTO protests VALUES (?,?,?,?,?,?,?,?,?)",
                [
                    (gid, p.protest, p.t, p.by, p.claim, p.outcome, p.reason, p.judge, p.decided_t)
                    for p in rec.protests
                ],
            )
            self.db.executemany(
                "INSERT INTO margins VALUES (?,?,?,?,?,?,?,?,?)",
                [
                    (
                        gid,
                        m.t,
                        m.seat,
                        str(m.candidate),
                        m.call_t,
                        m.close_t,
                        m.margin_ms,
                        int(m.counted),
                        int(m.late),
                    )
                    for m in rec.margins
                ],
            )
        return rec

    def refresh(self, *, progress: Callable[[str], None] | None = None) -> RefreshResult:
        """Bring the index up to date: new bundles in the folder, changed ones re-read, gone ones
        forgotten (inside the archive) or marked ``missing`` (linked)."""
        known = {
            r["path"]: (r["signature"], bool(r["linked"]))
            for r in self.db.execute("SELECT path, signature, linked FROM games")
        }
        found = {self.key_of(b)[0] for b in find_bundles(self.root)}
        indexed: list[str] = []
        missing: list[str] = []
        forgotten: list[str] = []
        unchanged = 0
        for key in sorted(found | {k for k, (_, linked) in known.items() if linked}):
            path = self.abs_path(key)
            sig = signature(path)
            if key in known and known[key][0] == sig:
                unchanged += 1
                continue
            if progress:
                progress(key)
            rec = self.index(path)
            (missing if rec.status == "missing" else indexed).append(key)
        for key, (_, linked) in known.items():
            if not linked and key not in found:
                self.forget(key)
                forgotten.append(key)
        return RefreshResult(tuple(indexed), unchanged, tuple(missing), tuple(forgotten))

    def forget(self, key: str) -> bool:
        """Drop a bundle from the index (its anchor too: another bundle may come to this path)."""
        with self.db:
            self.db.execute("DELETE FROM anchors WHERE path = ?", (key,))
            return self.db.execute("DELETE FROM games WHERE path = ?", (key,)).rowcount > 0

    # ---- reading -------------------------------------------------------------------------------------

    def games(self, where: str = "", params: Iterable[Any] = ()) -> list[dict[str, Any]]:
        sql = "SELECT * FROM games g " + where + " ORDER BY g.date, g.tournament, g.stage, g.table_name, "
        sql += "g.game_number, g.path"
        rows = [dict(r) for r in self.db.execute(sql, tuple(params))]
        for r in rows:
            r["problems"] = json.loads(r["problems"])
            r["players"] = self.players(r["id"])
            r["abs_path"] = str(self.abs_path(r["path"]))
        return rows

    def players(self, gid: int) -> list[dict[str, Any]]:
        return [
            {"seat": r["seat"], "name": r["name"], "role": r["role"]}
            for r in self.db.execute("SELECT * FROM players WHERE game_id = ? ORDER BY seat", (gid,))
        ]

    def find(self, ref: str) -> dict[str, Any] | None:
        """A game by id, by its index path, or by a folder path."""
        if ref.isdigit():
            rows = self.games("WHERE g.id = ?", (int(ref),))
        else:
            rows = self.games("WHERE g.path = ?", (ref,))
            if not rows:
                rows = self.games("WHERE g.path = ?", (self.key_of(Path(ref))[0],))
        if not rows:
            return None
        g = rows[0]
        g["protests"] = [
            {k: v for k, v in dict(r).items() if k != "game_id"}
            for r in self.db.execute("SELECT * FROM protests WHERE game_id = ? ORDER BY t", (g["id"],))
        ]
        g["margins"] = [
            {k: (bool(v) if k in ("counted", "late") else v) for k, v in dict(r).items() if k != "game_id"}
            for r in self.db.execute("SELECT * FROM margins WHERE game_id = ? ORDER BY t, seat", (g["id"],))
        ]
        g["analysis_errors"] = self.analysis_errors(g["path"])
        return g

    # ---- anchors -------------------------------------------------------------------------------------

    def anchor(self, key: str) -> str | None:
        row = self.db.execute("SELECT head FROM anchors WHERE path = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_anchor(self, key: str, head: str) -> None:
        """Record the first head seen sealed (later calls keep the first)."""
        with self.db:
            self.db.execute("INSERT OR IGNORE INTO anchors VALUES (?,?,?)", (key, head, _now()))

    # ---- analysis bookkeeping ------------------------------------------------------------------------

    def note_analysis_error(self, key: str, analyser: str, error: str) -> None:
        with self.db:
            self.db.execute(
                "INSERT OR REPLACE INTO analysis_errors VALUES (?,?,?,?)", (key, analyser, _now(), error)
            )

    def clear_analysis_error(self, key: str) -> None:
        with self.db:
            self.db.execute("DELETE FROM analysis_errors WHERE path = ?", (key,))

    def analysis_errors(self, key: str) -> list[dict[str, str]]:
        return [
            {"analyser": r["analyser"], "at": r["at"], "error": r["error"]}
            for r in self.db.execute("SELECT * FROM analysis_errors WHERE path = ?", (key,))
        ]
