"""Points per seat for one game: the scoring tables a score sheet can print."""

from __future__ import annotations

from dataclasses import dataclass


class ExportError(ValueError):
    """The game cannot be exported in the asked format; the message says why."""


@dataclass(frozen=True)
class Scoring:
    """Points per seat for one game. ``disqualified`` is added for a disqualification (000 9.1: −2)."""

    name: str
    red_win: int
    black_win: int
    loss: int = 0
    disqualified: int = 0

    def points(self, team: str | None, winner: str | None, disqualified: bool) -> int | None:
        if team is None or winner is None:
            return None
        won = team == winner
        base = (self.red_win if team == "red" else self.black_win) if won else self.loss
        return base + (self.disqualified if disqualified else 0)


SCORINGS: dict[str, Scoring] = {
    # 003 SHOWTIME: winning red +4 each, winning black +5 each, the losing team 0.
    "showtime": Scoring("showtime", red_win=4, black_win=5, loss=0),
    # The same with the federation's −2 for a disqualification (000 7.3, 9.1).
    "showtime-penalty": Scoring("showtime-penalty", red_win=4, black_win=5, loss=0, disqualified=-2),
    # One point to each winner: the plain win/loss table many club ratings start from.
    "win-loss": Scoring("win-loss", red_win=1, black_win=1, loss=0),
}
DEFAULT_SCORING = SCORINGS["showtime"]


def parse_scoring(text: str) -> Scoring:
    """A preset name, or ``RED_WIN,BLACK_WIN[,LOSS[,DISQUALIFIED]]`` as integers."""
    if text in SCORINGS:
        return SCORINGS[text]
    parts = [p.strip() for p in text.split(",")]
    if not 2 <= len(parts) <= 4:
        raise ExportError(
            f"scoring {text!r}: one of {', '.join(SCORINGS)} or RED_WIN,BLACK_WIN[,LOSS[,DISQUALIFIED]]"
        )
    try:
        nums = [int(p) for p in parts]
    except ValueError:
        raise ExportError(f"scoring {text!r}: the points must be integers") from None
    nums += [0] * (4 - len(nums))
    return Scoring("custom", red_win=nums[0], black_win=nums[1], loss=nums[2], disqualified=nums[3])
