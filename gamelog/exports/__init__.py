"""Exports of a game: the printable score sheet (HTML, A4) and the mafiaratings.com game JSON.

Both take the game header (``gamelog.bundle.GameInfo`` or anything with the same attributes), the
bundle's events and the referee's JSON state (``GameState.to_json()``), and are pure functions of them.
"""

from __future__ import annotations

from gamelog.exports.chain_status import ChainStatus, chain_status
from gamelog.exports.facts import GameFacts, gather
from gamelog.exports.mafiaratings import export_mafiaratings
from gamelog.exports.score_sheet import export_score_sheet
from gamelog.exports.scoring import DEFAULT_SCORING, SCORINGS, ExportError, Scoring, parse_scoring

__all__ = [
    "DEFAULT_SCORING",
    "SCORINGS",
    "ChainStatus",
    "ExportError",
    "GameFacts",
    "Scoring",
    "chain_status",
    "export_mafiaratings",
    "export_score_sheet",
    "gather",
    "parse_scoring",
]
