"""The printable score sheet: one self-contained HTML page (inline CSS, A4) like a tournament protocol.

Header (tournament, stage, table, game number, date, host, judges), one row per seat (number, name, role,
fouls as marks, how and when the seat left, points), the nominations and votes of every day (main round,
re-votes, the all-leave question), every night's shots, kill or miss and the Don's and Sheriff's checks with
their answers, the best move, the winner and reason, lines for a protest and signatures, and the head of the
bundle's hash chain so that a signed paper copy anchors the digital archive.

The output depends only on its inputs (no clock, no randomness), so the same bundle gives the same bytes.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from gamelog.events import Event
from gamelog.exports.facts import (
    CheckFacts,
    DayFacts,
    Departure,
    GameFacts,
    GameLike,
    NightFacts,
    SeatFacts,
    gather,
)
from gamelog.exports.scoring import DEFAULT_SCORING, ExportError, Scoring
from gamelog.exports.sheet_text import CSS, DENSE_ROWS, DENSER_ROWS, LABELS, LANGS, localize_reason

MAX_FOUL_MARKS = 4


def export_score_sheet(
    game: GameLike,
    events: Sequence[Event],
    state: Mapping[str, Any],
    *,
    lang: str = "ru",
    scoring: Scoring = DEFAULT_SCORING,
    chain_head: str | None = None,
    chain_status: str = "none",
    chain_detail: str = "",
) -> str:
    """The score sheet of one game as an HTML document (a string ending in a newline).

    ``state`` is the referee's JSON state; ``chain_head`` the hex head of the bundle's hash chain and
    ``chain_status`` what :func:`gamelog.manifest.verify` said: ``sealed``, ``unsealed`` (the head covers
    the event log only), ``unchained`` (a log never chained: no head), ``broken`` (no head;
    ``chain_detail`` says why) or ``none`` (not checked). A game without a ``roles``
    event still prints, with the role column, the points and the check answers left blank and a note
    saying why.
    """
    if lang not in LANGS:
        raise ExportError(f"unknown language {lang!r} (one of {', '.join(LANGS)})")
    facts = gather(game, events, state, scoring=scoring)
    return render(facts, lang=lang, chain=(chain_head, chain_status, chain_detail))


def render(facts: GameFacts, *, lang: str, chain: tuple[str | None, str, str] = (None, "none", "")) -> str:
    lab = LABELS[lang]
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{lang}">',
        "<head>",
        '<meta charset="utf-8">',
        f"<title>{_e(_title(facts, lab))}</title>",
        f"<style>{CSS}</style>",
        "</head>",
        _body_tag(facts),
        f"<h1>{_e(_title(facts, lab))}</h1>",
        _header(facts, lab),
        _players(facts, lab),
    ]
    if not facts.roles_known:
        parts.append(f'<p class="note" id="roles-unknown">{_e(lab["roles_unknown"])}</p>')
    parts += [_days(facts, lab), _nights(facts, lab), _result(facts, lab), _protest(lab)]
    parts.append(_chain(*chain, lab))
    parts += ["</body>", "</html>", ""]
    return "\n".join(parts)


# ---- pieces -------------------------------------------------------------------------------------------


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _body_tag(facts: GameFacts) -> str:
    """``<body>``, with a denser layout for games whose tables would not fit one A4 page."""
    rows = sum(max(1, sum(len(s) for s in d.steps)) for d in facts.days) + len(facts.nights)
    rows += max(0, len(facts.seats) - 10)
    if rows > DENSER_ROWS:
        return '<body class="dense denser">'
    if rows > DENSE_ROWS:
        return '<body class="dense">'
    return "<body>"


def _title(facts: GameFacts, lab: Mapping[str, str]) -> str:
    num = facts.header.get("game_number", "")
    return lab["title_n"].format(n=num) if num else lab["title"]


def _date(started_at: str) -> str:
    try:
        dt = datetime.fromisoformat(started_at)
    except ValueError:
        return started_at
    text = dt.strftime("%Y-%m-%d %H:%M")
    off = dt.strftime("%z")
    return f"{text} (UTC{off[:3]}:{off[3:]})" if off else text


def _header(facts: GameFacts, lab: Mapping[str, str]) -> str:
    keys = ("tournament", "stage", "table", "host", "judges", "game_number")
    h = {k: facts.header.get(k, "") for k in keys}
    rows = [
        [("tournament", h["tournament"]), ("stage", h["stage"]), ("table", h["table"])],
        [("date", _date(facts.started_at)), ("host", h["host"]), ("judges", h["judges"])],
        [("rules", facts.rules), ("game_number", h["game_number"]), ("", "")],
    ]
    out = ['<table class="head" id="header">']
    for row in rows:
        cells = "".join(
            f'<td class="k">{_e(lab[k])}:</td><td class="v" id="h-{k}">{_e(v)}</td>' if k else "<td></td>"
            for k, v in row
        )
        out.append(f"<tr>{cells}</tr>")
    out.append("</table>")
    return "\n".join(out)


def _role(seat: SeatFacts, lab: Mapping[str, str]) -> str:
    if seat.role is None:
        return ""
    return lab.get(f"role.{seat.role}", seat.role)


def _phase(dep: Departure, lab: Mapping[str, str]) -> str:
    if dep.phase is None or dep.n is None:
        return lab["phase.unknown"]
    return lab[f"phase.{dep.phase}"].format(n=dep.n)


def _departure(dep: Departure | None, lab: Mapping[str, str]) -> str:
    if dep is None:
        return ""
    key = f"left.{dep.how}"
    n = dep.n if dep.n is not None else "?"
    text = lab.get(key, lab["left.removed"]).format(n=n, phase=_phase(dep, lab))
    if dep.how in ("removed",) and dep.why:
        text += f" ({localize_reason(dep.why, lab['lang'])})"
    return text


def _fouls(n: int) -> str:
    marks = "".join(
        f'<span class="mark">{"✕" if i < n else ""}</span>' for i in range(max(MAX_FOUL_MARKS, n))
    )
    return f'<span data-fouls="{n}">{marks}</span>'


def _players(facts: GameFacts, lab: Mapping[str, str]) -> str:
    out = [
        '<table class="players" id="players">',
        f'<tr><th class="num">{_e(lab["seat"])}</th><th class="name">{_e(lab["player"])}</th>'
        f'<th class="role">{_e(lab["role"])}</th><th class="fouls">{_e(lab["fouls"])}</th>'
        f'<th>{_e(lab["left"])}</th><th class="pts">{_e(lab["points"])}</th></tr>',
    ]
    for s in facts.seats:
        cls = ' class="role black"' if s.team == "black" else ' class="role"'
        pts = "" if s.points is None else str(s.points)
        out.append(
            f'<tr data-seat="{s.seat}"><td class="num">{s.seat}</td><td class="name">{_e(s.name)}</td>'
            f'<td{cls}>{_e(_role(s, lab))}</td><td class="fouls">{_fouls(s.fouls)}</td>'
            f'<td class="left">{_e(_departure(s.departure, lab))}</td><td class="pts">{_e(pts)}</td></tr>'
        )
    out.append("</table>")
    return "\n".join(out)


def _seat_list(seats: Sequence[int]) -> str:
    return ", ".join(str(s) for s in seats)


def _day_rows(day: DayFacts, lab: Mapping[str, str]) -> list[str]:
    rows: list[tuple[str, str, str, str]] = []  # round, candidate, count, voters (already escaped)
    for step in day.steps:
        for v in step:
            if v.candidate == "all":
                before = day.steps[-2] if len(day.steps) > 1 else ()
                guess = {x.candidate for x in before if isinstance(x.candidate, int)}
                tied = _seat_list(sorted(v.tied or guess))
                cand = _e(tied)
            else:
                by = f" ({lab['nominated_by']} {v.nominated_by})" if v.nominated_by is not None else ""
                cand = f"<b>{v.candidate}</b>{_e(by)}"
            voters = ", ".join(f"{s}*" if s in v.defaulted else str(s) for s in v.voters)
            if v.late:
                voters += " · " + lab["late"].format(seats=_seat_list(v.late))
            rows.append((_e(lab.get(f"round.{v.round}", v.round)), cand, str(len(v.voters)), _e(voters)))
    if not rows:
        why = localize_reason(day.no_vote_reason, lab["lang"])
        no_vote = lab["no_vote"] + (f" ({why})" if why else "")
        if day.nominations:
            noms = ", ".join(f"{t} ({lab['nominated_by']} {b})" for b, t in day.nominations)
            rows.append(("", _e(f"{lab['nominations']}: {noms}"), "", _e(no_vote)))
        else:
            rows.append(("", _e(lab["no_nominations"]), "", _e(no_vote)))
    if day.eliminated:
        result = lab["leaves"].format(seats=_seat_list(day.eliminated))
    else:
        result = lab["nobody_leaves"]
    out = []
    for i, (rnd, cand, cnt, voters) in enumerate(rows):
        head = f'<td class="day" rowspan="{len(rows)}">{day.day}</td>' if i == 0 else ""
        tail = f'<td class="res" rowspan="{len(rows)}"><b>{_e(result)}</b></td>' if i == 0 else ""
        out.append(
            f'<tr data-day="{day.day}">{head}<td class="rnd">{rnd}</td><td class="cand">{cand}</td>'
            f'<td class="cnt">{cnt}</td><td class="voters">{voters}</td>{tail}</tr>'
        )
    return out


def _days(facts: GameFacts, lab: Mapping[str, str]) -> str:
    out = [
        f"<h2>{_e(lab['days'])}</h2>",
        '<table class="votes" id="votes">',
        f'<tr><th class="day">{_e(lab["day"])}</th><th class="rnd">{_e(lab["vote_round"])}</th>'
        f'<th>{_e(lab["candidate"])}</th><th class="cnt">{_e(lab["votes"])}</th>'
        f'<th>{_e(lab["voters"])}</th><th class="res">{_e(lab["result"])}</th></tr>',
    ]
    for day in facts.days:
        out += _day_rows(day, lab)
    out.append("</table>")
    if any(v.defaulted for d in facts.days for s in d.steps for v in s):
        out.append(f'<p class="note">{_e(lab["defaulted_note"])}</p>')
    return "\n".join(out)


def _check(check: CheckFacts | None, kind: str, lab: Mapping[str, str]) -> str:
    if check is None:
        return ""
    answer = lab["unknown"] if check.hit is None else lab[f"{kind}.{'hit' if check.hit else 'miss'}"]
    return f"{check.target} → {answer}"


def _shots(night: NightFacts) -> str:
    parts = []
    for shooter, target in night.shots:
        t = f"[{_seat_list(target)}]" if isinstance(target, tuple) else str(target)
        parts.append(f"{shooter}→{t}")
    return ", ".join(parts)


def _nights(facts: GameFacts, lab: Mapping[str, str]) -> str:
    out = [
        f"<h2>{_e(lab['nights'])}</h2>",
        '<table class="nights" id="nights">',
        f'<tr><th class="num">{_e(lab["night"])}</th><th>{_e(lab["shots"])}</th><th>{_e(lab["kill"])}</th>'
        f"<th>{_e(lab['don_check'])}</th><th>{_e(lab['sheriff_check'])}</th></tr>",
    ]
    for n in facts.nights:
        if n.killed is not None:
            kill = lab["killed"].format(seat=n.killed)
        elif n.miss:
            kill = lab["miss"]
        else:
            kill = ""
        out.append(
            f'<tr data-night="{n.night}"><td class="num">{n.night}</td><td class="shots">{_e(_shots(n))}</td>'
            f'<td class="kill">{_e(kill)}</td><td class="don">{_e(_check(n.don_check, "don", lab))}</td>'
            f'<td class="sheriff">{_e(_check(n.sheriff_check, "sheriff", lab))}</td></tr>'
        )
    out.append("</table>")
    return "\n".join(out)


def _result(facts: GameFacts, lab: Mapping[str, str]) -> str:
    out = []
    if facts.best_move is not None:
        bm = facts.best_move
        text = lab["best_move_text"].format(seat=bm.seat, suspects=_seat_list(bm.suspects))
        if bm.black_named is not None:
            text += " — " + lab["black_named"].format(n=bm.black_named)
        out.append(f'<p id="best-move"><b>{_e(lab["best_move"])}:</b> {_e(text)}</p>')
    winner = lab[f"winner.{facts.winner}"] if facts.winner else lab["winner.none"]
    why = localize_reason(facts.win_reason, lab["lang"])
    reason = f" — {lab['reason']}: {why}" if facts.winner and facts.win_reason else ""
    out.append(
        f'<p class="result" id="winner" data-winner="{facts.winner or ""}">'
        f"<b>{_e(lab['winner'])}: {_e(winner)}</b>{_e(reason)}</p>"
    )
    sc = facts.scoring
    note = lab["scoring"].format(name=sc.name, red_win=sc.red_win, black_win=sc.black_win, loss=sc.loss)
    if sc.disqualified:
        note += lab["scoring_dq"].format(dq=sc.disqualified)
    out.append(f'<p class="note" id="scoring">{_e(note)}</p>')
    return "\n".join(out)


def _protest(lab: Mapping[str, str]) -> str:
    return "\n".join(
        [
            '<table class="sig" id="protest">',
            f'<tr><td style="width:42mm"><b>{_e(lab["protest"])}:</b> {_e(lab["protest_by"])}</td>'
            '<td class="line" colspan="3"></td></tr>',
            '<tr><td></td><td class="line" colspan="3"></td></tr>',
            f'<tr><td><b>{_e(lab["decision"])}:</b></td><td class="line" colspan="3"></td></tr>',
            '<tr><td></td><td class="line" colspan="3"></td></tr>',
            f'<tr><td>{_e(lab["judge_signature"])}:</td><td class="line"></td>'
            f'<td style="width:34mm">{_e(lab["host_signature"])}:</td><td class="line"></td></tr>',
            "</table>",
        ]
    )


CHAIN_STATUSES = ("sealed", "unsealed", "unchained", "broken", "none")


def _chain(head: str | None, status: str, detail: str, lab: Mapping[str, str]) -> str:
    if status not in CHAIN_STATUSES:
        raise ExportError(f"unknown chain status {status!r} (one of {', '.join(CHAIN_STATUSES)})")
    if status in ("unchained", "broken"):
        head = None
    note = "" if status == "sealed" else lab[f"chain.{status}"]
    if head:
        value = f'<span class="chain">{_e(head)}</span>' + (f" ({_e(note)})" if note else "")
    else:
        value = f"<b>{_e(note or lab['chain.none'])}</b>" + (f" ({_e(detail)})" if detail else "")
    return (
        f'<p class="footer" id="chain-head" data-head="{_e(head or "")}" data-status="{status}">'
        f"<b>{_e(lab['chain_head'])}:</b> {value}<br>{_e(lab['footer'])}</p>"
    )
