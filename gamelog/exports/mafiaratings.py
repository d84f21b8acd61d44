"""A game record in the JSON shape mafiaratings.com keeps for a game (see docs/EXPORTS.md for sources).

The site counts in *rounds* from 0: round N is night N followed by the day after it. So our night n is
round n, and our day d (day 1 follows night 0) is round d − 1. Per player (the array is ordered by seat, 10
entries): ``role`` (civ, sheriff, maf, don), ``death`` {round, type}, ``warnings`` (a count), ``don`` /
``sheriff`` (the round in which that check hit this player), ``legacy`` (the best move's suspects),
``nominating`` and ``voting`` (one entry per round; a re-vote makes the round's entry an array, and the
answer to the all-leave question ends it as ``true``/``false``), ``shooting`` (one entry per night from
night 1). ``features`` lists which of these the record carries. Times are Unix seconds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from gamelog.events import Event
from gamelog.exports.facts import DayFacts, GameFacts, GameLike, gather
from gamelog.exports.scoring import ExportError

PLAYERS = 10
ROLE_CODES = {"red": "civ", "sheriff": "sheriff", "mafia": "maf", "don": "don"}
DEATH_TYPES = {
    "vote": "day",
    "vote_all": "day",
    "killed": "night",
    "fouls": "warnings",
    "disqualified": "kickOut",
    "team_loss": "teamKickOut",
    "removed": "kickOut",
}
# g don checks, s sheriff checks, d death, u death round, t death type, l legacy, h shooting,
# v voting, k the all-leave answer in voting, n nominating, w warnings (a count).
FEATURES = "gsdutlhvknw"


def export_mafiaratings(
    game: GameLike,
    events: Sequence[Event],
    state: Mapping[str, Any],
    *,
    language: str = "ru",
    club_id: int | None = None,
    event_id: int | None = None,
    tournament_id: int | None = None,
    game_id: int | None = None,
    moderator_id: int | None = None,
) -> dict[str, Any]:
    """The game as a mafiaratings.com game object (a dict ready for ``json.dumps``).

    Raises :class:`ExportError` when the site cannot hold the game: no ``roles`` event (the site needs
    every role), roles other than 7 red (one Sheriff) and 3 black (one Don), or not 10 players. An
    unfinished game (no winner yet) is exported without ``winner``.
    """
    facts = gather(game, events, state)
    _check_exportable(facts)
    start = _unix(facts.started_at)
    out: dict[str, Any] = {}
    for key, value in (
        ("id", game_id),
        ("clubId", club_id),
        ("eventId", event_id),
        ("tournamentId", tournament_id),
    ):
        if value is not None:
            out[key] = value
    out["startTime"] = start
    out["endTime"] = start + facts.last_t // 1000
    out["language"] = language
    out["features"] = FEATURES
    table = _as_int(facts.header.get("table"))
    number = _as_int(facts.header.get("game_number"))
    if table is not None:
        out["tableNum"] = table
    if number is not None:
        out["gameNum"] = number
    if facts.winner is not None:
        out["winner"] = "civ" if facts.winner == "red" else "maf"
    moderator: dict[str, Any] = {}
    if moderator_id is not None:
        moderator["id"] = moderator_id
    if facts.header.get("host"):
        moderator["name"] = facts.header["host"]
    if moderator:
        out["moderator"] = moderator
    out["players"] = _players(facts)
    return out


def _check_exportable(facts: GameFacts) -> None:
    if not facts.roles_known:
        raise ExportError(
            "the game has no 'roles' event: mafiaratings.com needs every player's role "
            "(add the roles dealt, then export again)"
        )
    if len(facts.seats) != PLAYERS or [s.seat for s in facts.seats] != list(range(1, PLAYERS + 1)):
        raise ExportError(
            f"mafiaratings.com records games of {PLAYERS} players in seats 1..{PLAYERS}; "
            f"this game has seats {', '.join(str(s.seat) for s in facts.seats)}"
        )
    counts: dict[str, int] = {}
    for s in facts.seats:
        counts[s.role or "red"] = counts.get(s.role or "red", 0) + 1
    unknown = sorted(set(counts) - set(ROLE_CODES))
    if unknown:
        names = ", ".join(map(repr, unknown))
        raise ExportError(f"mafiaratings.com has no role {names} (only civ, sheriff, maf, don)")
    want = {"red": 6, "sheriff": 1, "mafia": 2, "don": 1}
    if any(counts.get(r, 0) != n for r, n in want.items()):
        have = ", ".join(f"{r} {counts.get(r, 0)}" for r in want)
        raise ExportError(f"mafiaratings.com needs 6 red, 1 sheriff, 2 mafia, 1 don; this game has {have}")


def _unix(started_at: str) -> int:
    """Unix seconds of the ISO 8601 start. A time without an offset is read as UTC."""
    try:
        dt = datetime.fromisoformat(started_at)
    except ValueError:
        raise ExportError(f"game.json: started_at {started_at!r} is not an ISO 8601 time") from None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return int(dt.timestamp())


def _as_int(text: str | None) -> int | None:
    if text is None or not text.strip().isdigit():
        return None
    return int(text)


def _trim(entries: list[Any]) -> list[Any]:
    while entries and entries[-1] is None:
        entries.pop()
    return entries


def _day_votes(day: DayFacts) -> dict[int, Any]:
    """Seat → the round's voting entry: a seat, or an array over the re-votes (ended by the all-leave
    answer), or None for a seat that cast no vote in a step."""
    if not day.steps:
        return {}
    choice_steps = [s for s in day.steps if s[0].round != "all"]
    all_steps = [s for s in day.steps if s[0].round == "all"]
    voters: set[int] = set()
    for step in day.steps:
        for v in step:
            voters.update(v.voters)
    per_seat: dict[int, list[Any]] = {seat: [] for seat in voters}
    for step in choice_steps:
        picks = {seat: v.candidate for v in step for seat in v.voters}
        for seat in per_seat:
            per_seat[seat].append(picks.get(seat))
    for step in all_steps:
        for_all = {seat for v in step for seat in v.voters}
        for seat in per_seat:
            per_seat[seat].append(seat in for_all)
    out: dict[int, Any] = {}
    for seat, entries in per_seat.items():
        out[seat] = entries[0] if len(entries) == 1 else entries
    return out


def _players(facts: GameFacts) -> list[dict[str, Any]]:
    rounds = max((d.day for d in facts.days), default=0)
    votes_by_round = {d.day - 1: _day_votes(d) for d in facts.days}
    noms_by_round = {d.day - 1: {b: t for b, t in reversed(d.nominations)} for d in facts.days}
    shots_by_night = {n.night: dict(n.shots) for n in facts.nights}
    last_night = max((n.night for n in facts.nights), default=0)
    checks: dict[tuple[str, int], int] = {}
    for night in facts.nights:
        if night.don_check is not None:
            checks[("don", night.don_check.target)] = night.night
        if night.sheriff_check is not None:
            checks[("sheriff", night.sheriff_check.target)] = night.night

    players: list[dict[str, Any]] = []
    for s in facts.seats:
        p: dict[str, Any] = {"name": s.name, "role": ROLE_CODES[s.role or "red"]}
        dep = s.departure
        if dep is not None:
            death: dict[str, Any] = {}
            if dep.phase is not None and dep.n is not None:
                death["round"] = dep.n if dep.phase == "night" else dep.n - 1
            death["type"] = DEATH_TYPES[dep.how]
            p["death"] = death
        if s.fouls:
            p["warnings"] = s.fouls
        for kind in ("don", "sheriff"):
            if (kind, s.seat) in checks:
                p[kind] = checks[(kind, s.seat)]
        if facts.best_move is not None and facts.best_move.seat == s.seat:
            p["legacy"] = list(facts.best_move.suspects)
        voting = _trim([votes_by_round.get(r, {}).get(s.seat) for r in range(rounds)])
        if voting:
            p["voting"] = voting
        nominating = _trim([noms_by_round.get(r, {}).get(s.seat) for r in range(rounds)])
        if nominating:
            p["nominating"] = nominating
        if s.team == "black":
            shooting: list[Any] = []
            for n in range(1, last_night + 1):
                target = shots_by_night.get(n, {}).get(s.seat)
                # Several shots in one night are a miss the site cannot spell out: no shot recorded.
                shooting.append(target if isinstance(target, int) else None)
            shooting = _trim(shooting)
            if shooting:
                p["shooting"] = shooting
        players.append(p)
    return players
