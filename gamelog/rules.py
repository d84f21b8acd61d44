"""Rule sets as data: every option the seeds disagree on (RULES.md, table at the end).

A :class:`RuleSet` is a frozen dataclass; the presets are ``federation`` (seed 000, the default),
``club`` (001, with 002 where 001 is silent), ``showtime`` (the SHOWTIME section of 003, falling back
to 003's federation section where SHOWTIME is silent) and ``novosibirsk`` (004).
:func:`rules_for` applies a game's ``rule_options`` (game.json) to a preset and rejects unknown
options and values of the wrong kind with a clear :class:`RuleError`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

NominationCounted: TypeAlias = Literal["first", "last"]
Day1Rule: TypeAlias = Literal["single_not_voted", "no_vote", "vote"]
HandLiftPenalty: TypeAlias = Literal["foul", "remark", "removal_before_stop"]
SheriffSignal: TypeAlias = Literal["thumb_up_red", "nod_black"]

# The allowed values of the options that are a choice, for validation and documentation.
CHOICES: dict[str, tuple[str, ...]] = {
    "nomination_counted": ("first", "last"),
    "day1": ("single_not_voted", "no_vote", "vote"),
    "hand_lift_penalty": ("foul", "remark", "removal_before_stop"),
    "sheriff_signal": ("thumb_up_red", "nod_black"),
}


class RuleError(ValueError):
    """An unknown rule set, an unknown option or a bad option value."""


@dataclass(frozen=True, kw_only=True)
class RuleSet:
    """Every option of RULES.md as a field; the defaults are the federation rules (seed 000)."""

    name: str = "federation"
    # Table (000 1.1; 004: 9–13 players).
    players_min: int = 10
    players_max: int = 10
    black_players: int | None = 3  # the Don and two mafia (001 basics 1); None: not checked (004)
    # Nominations (000 4.3, 4.4; 001 day 4; 002 5; 003 SHOWTIME).
    nomination_counted: NominationCounted = "first"
    withdrawal_allowed: bool = False
    # Day 1 (000 4.11; 002 host sheet; 003 federation section).
    day1: Day1Rule = "single_not_voted"
    single_candidate_never_voted: bool = False
    # Voting (000 4.6, 4.10, 4.13; 001 voting 3, 7; 003).
    vote_window_ms: int = 2000
    hand_lift_penalty: HandLiftPenalty = "foul"
    tied_players_vote: bool = True
    removed_noncandidate_cancels_vote: bool = True  # 000 11.3
    open_vote: bool = False  # 004 "открытое голосование" (recorded; counted like a table vote)
    # Speeches and last words (000 3.1, 4.13, 4.14, 11.5, 11.6).
    speech_s: int = 60
    tie_speech_s: int = 30
    last_word_s: int = 60
    last_word_after_tie_s: int = 30
    # Night (000 5.3–5.8; 002 11).
    shot_window_ms: int = 1500
    no_checks_night0: bool = True
    sheriff_signal: SheriffSignal = "thumb_up_red"
    best_move: bool = False  # 001 voting 12
    roles_revealed: bool = False  # 000 4.14; 004 reveals the card
    three_misses_red_win: bool = True  # 000 11.1
    # Penalties (000 7.4, 7.5, 10.3; 002 18, 19; 003 SHOWTIME; 004).
    fouls_to_silence: int | None = 3
    fouls_to_remove: int = 4
    fourth_foul_at_four_team_loss: bool = True  # 000 10.3
    silenced_with_three_gets_30s: bool = False  # 003 SHOWTIME "Угадайка"
    # Vision: a detection below this confidence is counted but listed for review.
    vision_min_conf: float = 0.6

    def __post_init__(self) -> None:
        for key, allowed in CHOICES.items():
            if getattr(self, key) not in allowed:
                raise RuleError(f"rule option {key!r} must be one of {', '.join(allowed)}")
        if not 1 <= self.players_min <= self.players_max:
            raise RuleError("rule options players_min..players_max are not a valid range")
        if self.fouls_to_remove < 1 or (self.fouls_to_silence is not None and self.fouls_to_silence < 1):
            raise RuleError("foul limits must be at least 1")
        if not 0.0 <= self.vision_min_conf <= 1.0:
            raise RuleError("rule option 'vision_min_conf' must be within 0..1")

    @property
    def hand_lift_clause(self) -> str:
        return {"foul": "000 4.10", "remark": "001 voting 7", "removal_before_stop": "003 SHOWTIME"}[
            self.hand_lift_penalty
        ]

    def options(self) -> dict[str, Any]:
        """All options as a plain dict (JSON-ready)."""
        return dataclasses.asdict(self)


FEDERATION = RuleSet()
CLUB = dataclasses.replace(
    FEDERATION,
    name="club",
    withdrawal_allowed=True,  # 001 day 4; 002 5
    vote_window_ms=1000,  # 001 voting 3: "less than a second"
    hand_lift_penalty="remark",  # 001 voting 7
    best_move=True,  # 001 voting 12
    three_misses_red_win=False,
    fourth_foul_at_four_team_loss=False,
)
SHOWTIME = dataclasses.replace(
    FEDERATION,
    name="showtime",
    nomination_counted="last",  # the last correctly named candidate counts
    withdrawal_allowed=True,
    hand_lift_penalty="removal_before_stop",  # removal for lifting the hand before "Спасибо"
    tied_players_vote=False,  # 003 federation section (SHOWTIME is silent)
    last_word_s=30,  # 003 federation section
    last_word_after_tie_s=30,
    sheriff_signal="nod_black",  # 003 SHOWTIME: a nod means black
    three_misses_red_win=False,
    fourth_foul_at_four_team_loss=False,
    silenced_with_three_gets_30s=True,
)
NOVOSIBIRSK = dataclasses.replace(
    FEDERATION,
    name="novosibirsk",
    players_min=9,
    players_max=13,
    black_players=None,
    day1="vote",
    open_vote=True,
    withdrawal_allowed=True,
    roles_revealed=True,
    three_misses_red_win=False,
    fouls_to_silence=None,
    fouls_to_remove=3,  # 004: three warnings and the player leaves the table
    fourth_foul_at_four_team_loss=False,
)

PRESETS: dict[str, RuleSet] = {r.name: r for r in (FEDERATION, CLUB, SHOWTIME, NOVOSIBIRSK)}


def _check_value(key: str, value: object, current: object) -> object:
    if isinstance(current, bool):
        if not isinstance(value, bool):
            raise RuleError(f"rule option {key!r} expects true or false, got {value!r}")
        return value
    if key in ("fouls_to_silence", "black_players"):
        if value is None:
            return None
        current = 0
    if isinstance(current, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise RuleError(f"rule option {key!r} expects an integer, got {value!r}")
        return value
    if isinstance(current, float):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise RuleError(f"rule option {key!r} expects a number, got {value!r}")
        return float(value)
    if not isinstance(value, str):
        raise RuleError(f"rule option {key!r} expects a string, got {value!r}")
    return value


def rules_for(name: str | None = None, overrides: Mapping[str, object] | None = None) -> RuleSet:
    """The preset ``name`` (default ``federation``) with game.json's ``rule_options`` applied."""
    key = name or "federation"
    if key not in PRESETS:
        raise RuleError(f"unknown rule set {key!r} (one of {', '.join(PRESETS)})")
    base = PRESETS[key]
    if not overrides:
        return base
    known = {f.name for f in dataclasses.fields(RuleSet)} - {"name"}
    changes: dict[str, Any] = {}
    for opt, value in overrides.items():
        if opt not in known:
            raise RuleError(f"unknown rule option {opt!r} (known: {', '.join(sorted(known))})")
        changes[opt] = _check_value(opt, value, getattr(base, opt))
    return dataclasses.replace(base, **changes)
