"""A readable game summary a host would recognise: day by day, night by night, then the findings."""

from __future__ import annotations

from typing import Any

from gamelog.state import DayResult, GameState, NightResult, VoteRound


def _names(game: Any) -> dict[int, str]:
    players = getattr(game, "players", None) or ()
    return {int(p.seat): str(p.name) for p in players}


def _mmss(t: int) -> str:
    s = max(t, 0) // 1000
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


def summary_text(state: GameState, game: Any = None) -> str:
    """Plain text, one line per fact. ``game`` (a GameInfo) adds the players' names."""
    names = _names(game)

    def who(seat: int | None) -> str:
        if seat is None:
            return "-"
        n = names.get(seat)
        return f"№{seat} {n}" if n else f"№{seat}"

    def seats(xs: Any) -> str:
        xs = sorted(xs)
        return ", ".join(str(x) for x in xs) if xs else "none"

    out: list[str] = [f"Rules: {state.rules}"]
    if state.roles:
        roles = dict(state.roles)
        don = [s for s, r in roles.items() if r == "don"]
        maf = [s for s, r in roles.items() if r == "mafia"]
        sher = [s for s, r in roles.items() if r == "sheriff"]
        out.append(f"Roles: Don {seats(don)}, mafia {seats(maf)}, Sheriff {seats(sher)}")
    events: list[tuple[int, int, DayResult | NightResult]] = [(d.t, 1, d) for d in state.days]
    events += [(n.t, 0, n) for n in state.nights]
    for _, _, item in sorted(events, key=lambda x: (x[0], x[1])):
        if isinstance(item, DayResult):
            out.extend(_day_lines(item, who, seats))
        else:
            out.extend(_night_lines(item, who))
    if state.removed:
        out.append("Removed: " + "; ".join(f"{who(r.seat)} ({r.why}, {r.rule})" for r in state.removed))
    if state.fouls:
        out.append("Fouls: " + ", ".join(f"{who(s)}: {n}" for s, n in state.fouls))
    if state.winner:
        out.append(f"Result: {state.winner} win — {state.win_reason}")
    else:
        out.append("Result: not decided")
    out.append(f"At the table: {seats(state.alive)}")
    if state.violations:
        out.append(f"Violations ({len(state.violations)}):")
        out += [f"  {_mmss(v.t)} {who(v.seat)} [{v.rule}] {v.what}" for v in state.violations]
    if state.needs_review:
        out.append(f"For review ({len(state.needs_review)}):")
        out += [f"  {_mmss(r.t)} {who(r.seat)} {r.what}" for r in state.needs_review]
    if state.disagreements:
        out.append(f"Disagreements ({len(state.disagreements)}):")
        out += [f"  {_mmss(d.t)} {d.what}" for d in state.disagreements]
    return "\n".join(out) + "\n"


def _round_line(v: VoteRound, seats: Any) -> str:
    if v.round == "all":
        verdict = "all leave" if v.passed else "all stay"
        return f"    all leaving ({seats(v.tied)}): for {v.count} [{seats(v.voters)}] → {verdict}"
    extra = f", defaulted {seats(v.defaulted)}" if v.defaulted else ""
    late = f", late {seats(v.late)}" if v.late else ""
    tag = "re-vote " if v.round == "revote" else ""
    return f"    {tag}№{v.candidate}: {v.count} [{seats(v.voters)}]{extra}{late}"


def _day_lines(d: DayResult, who: Any, seats: Any) -> list[str]:
    lines = [f"Day {d.day} (from {_mmss(d.t)}): speaking order {' '.join(map(str, d.speaking_order))}"]
    if d.silenced:
        lines.append(f"  silenced (3 fouls): {seats(d.silenced)}")
    if d.nominations:
        lines.append("  nominated: " + ", ".join(f"№{t} (by {b})" for b, t in d.nominations))
    if d.withdrawn:
        lines.append("  withdrawn: " + ", ".join(f"№{t} (by {b})" for b, t in d.withdrawn))
    if d.votes:
        lines.append("  vote:")
        lines += [_round_line(v, seats) for v in d.votes]
    elif d.no_vote_reason:
        lines.append(f"  no vote ({d.no_vote_reason})")
    if d.eliminated:
        shown = dict(d.revealed)
        lines.append(
            "  leaves: " + ", ".join(who(s) + (f" ({shown[s]})" if s in shown else "") for s in d.eliminated)
        )
    return lines


def _night_lines(n: NightResult, who: Any) -> list[str]:
    shots = ", ".join(f"{s}→{'/'.join(map(str, ts))}" for s, ts in n.shots) or "none"
    outcome = f"killed {who(n.killed)}" if n.killed is not None else "miss"
    if n.killed is not None and n.revealed:
        outcome += f" ({dict(n.revealed).get(n.killed, '?')})"
    lines = [f"Night {n.night} (from {_mmss(n.t)}): shots {shots}: {outcome}"]
    if n.between_numbers:
        lines.append("  shot between numbers: " + ", ".join(map(str, n.between_numbers)))
    if n.don_check:
        lines.append(f"  Don checks №{n.don_check.target}: {n.don_check.answer}")
    if n.sheriff_check:
        lines.append(f"  Sheriff checks №{n.sheriff_check.target}: {n.sheriff_check.answer}")
    return lines
