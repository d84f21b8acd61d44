"""Everything the recorder writes into a bundle besides video and timeline, in one place.

It goes through :mod:`gamelog` (``create_bundle``, ``write_game``, the fsyncing ``EventWriter`` with its
hash-chain sidecar and, once it exists, ``gamelog.manifest.seal``), so the bundle format stays owned by
gamelog and a change there is a change here only.
"""

from __future__ import annotations

import dataclasses
import importlib
import logging
from pathlib import Path

from gamelog.bundle import EVENTS_FILE, GameInfo, Player, create_bundle, write_game
from gamelog.bundle import FORMAT as BUNDLE_FORMAT
from gamelog.jsonl import EventWriter

log = logging.getLogger("recorder.bundle")

__all__ = ["BUNDLE_FORMAT", "EventWriter", "GameInfo", "new_bundle", "seal", "set_video"]


def new_bundle(path: Path, *, started_at: str, players: int, rules: str) -> tuple[GameInfo, EventWriter]:
    """A fresh bundle folder (refuses one that already holds a game) and its open event log."""
    seats = tuple(Player(seat=i, name=f"Seat {i}") for i in range(1, players + 1))
    info = GameInfo(format=BUNDLE_FORMAT, rules=rules, started_at=started_at, players=seats)
    create_bundle(path, info)
    return info, EventWriter(path / EVENTS_FILE)


def set_video(path: Path, info: GameInfo, segments: list[str]) -> GameInfo:
    """Rewrite ``game.json`` (atomically) with the segment list."""
    new = dataclasses.replace(info, video=tuple(segments))
    write_game(path, new)
    return new


def seal(path: Path) -> str | None:
    """Seal the bundle's hash chain over segments and events (``gamelog.manifest.seal``).

    Returns a short description, or None while gamelog has no manifest module yet (then the per-line
    chain of ``events.jsonl`` is all there is)."""
    try:
        manifest = importlib.import_module("gamelog.manifest")
    except ModuleNotFoundError:
        log.warning("%s: gamelog.manifest is not available yet: bundle not sealed", path)
        return None
    result = manifest.seal(path)
    return str(result)
