"""Compare a referee outcome with a synthetic game's truth, round by round.

Used by the accuracy benchmarks and the demo report: for every vote round, the voters, late votes and
defaulted seats must match; for every night, the shots, the kill and the miss; and the winner. Seat
lists compare as sets. The result lists each round with whether it matched and, if not, how.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class RoundCheck:
    where: str  # "day 1 main #7", "night 1"
    ok: bool
    diffs: tuple[str, ...] = ()


@dataclass(frozen=True)
class Comparison:
    rounds: tuple[RoundCheck, ...]
    winner_ok: bool
    extra: tuple[str, ...] = field(default_factory=tuple)

    @property
    def matched(self) -> int:
        return sum(r.ok for r in self.rounds)

    @property
    def total(self) -> int:
        return len(self.rounds)

    @property
    def ok(self) -> bool:
        return self.matched == self.total and self.winner_ok

    def lines(self) -> list[str]:
        out = [f"{r.where}: {'ok' if r.ok else '; '.join(r.diffs)}" for r in self.rounds]
        out.append(f"winner: {'ok' if self.winner_ok else 'differs'}")
        out.extend(self.extra)
        return out


def _set(v: Any) -> set[int]:
    return {int(x) for x in v or []} if isinstance(v, list | tuple | set) else set()


def _seat_diff(name: str, want: Any, got: Any) -> list[str]:
    w, g = _set(want), _set(got)
    if w == g:
        return []
    parts = []
    if w - g:
        parts.append(f"missing {sorted(w - g)}")
    if g - w:
        parts.append(f"extra {sorted(g - w)}")
    return [f"{name} " + ", ".join(parts)]


def _votes_key(v: Mapping[str, Any], k: int) -> str:
    return f"{v.get('round', '?')} #{v.get('candidate', '?')} ({k + 1})"


def compare(truth: Mapping[str, Any], got: Mapping[str, Any]) -> Comparison:
    """``truth``: the expected outcome (``truth.json``'s ``expected``); ``got``: the referee's JSON."""
    rounds: list[RoundCheck] = []
    got_days = {int(d["day"]): d for d in got.get("days", [])}
    for day in truth.get("days", []):
        n = int(day["day"])
        gd = got_days.get(n)
        want_votes = list(day.get("votes", []))
        got_votes = list(gd.get("votes", [])) if gd else []
        for k, wv in enumerate(want_votes):
            where = f"day {n} {_votes_key(wv, k)}"
            gv = got_votes[k] if k < len(got_votes) else None
            if gv is None:
                rounds.append(RoundCheck(where, False, ("round missing",)))
                continue
            diffs: list[str] = []
            if gv.get("candidate") != wv.get("candidate") or gv.get("round") != wv.get("round"):
                diffs.append(f"round is {gv.get('round')} #{gv.get('candidate')}")
            for key in ("voters", "late", "defaulted"):
                diffs += _seat_diff(key, wv.get(key, []), gv.get(key, []))
            rounds.append(RoundCheck(where, not diffs, tuple(diffs)))
        if len(got_votes) > len(want_votes):
            rounds.append(
                RoundCheck(f"day {n} extra rounds", False, (f"{len(got_votes) - len(want_votes)} more",))
            )
        elim = _seat_diff("eliminated", day.get("eliminated", []), gd.get("eliminated", []) if gd else [])
        if elim:
            rounds.append(RoundCheck(f"day {n} eliminated", False, tuple(elim)))
    got_nights = {int(x["night"]): x for x in got.get("nights", [])}
    for night in truth.get("nights", []):
        n = int(night["night"])
        gn = got_nights.get(n)
        where = f"night {n}"
        if gn is None:
            rounds.append(RoundCheck(where, False, ("night missing",)))
            continue
        diffs = []
        ws = {str(k): v for k, v in (night.get("shots") or {}).items()}
        gs = {str(k): v for k, v in (gn.get("shots") or {}).items()}
        if ws != gs:
            diffs.append(f"shots {gs} (want {ws})")
        if night.get("killed") != gn.get("killed"):
            diffs.append(f"killed {gn.get('killed')} (want {night.get('killed')})")
        if bool(night.get("miss")) != bool(gn.get("miss")):
            diffs.append(f"miss {gn.get('miss')} (want {night.get('miss')})")
        rounds.append(RoundCheck(where, not diffs, tuple(diffs)))
    return Comparison(tuple(rounds), truth.get("winner") == got.get("winner"))
