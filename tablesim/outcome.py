"""The expected referee outcome of a scripted game, from its host marks and its true hand events.

This is tablesim's own, independent reading of the rules (federation voting: windows closing at the spoken
"Спасибо", one vote per seat per round, defaults to the last candidate, ties → re-vote → the all-leave
question; shots in the call windows; kills, misses and the winner). ``truth.json`` carries it, and the
acceptance test checks that ``gamelog.referee`` derives the same from the bundle's host marks plus the true
hand events entered as vision events. Host-line rounds that contradict the counts raise
:class:`ScriptError` naming the host line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tablesim.script import ScriptError

SHOT_WINDOW_MS = 1500


@dataclass(frozen=True)
class Mark:
    """A host mark as it goes into ``events.jsonl`` (``fields`` beyond t/type/src/id)."""

    t: int
    type: str
    id: str
    fields: dict[str, Any]
    line: int = -1  # index of the script host line behind it
    onset: float | None = None  # the spoken onset (ms) of the word behind it, when spoken


@dataclass(frozen=True)
class HandEvent:
    """A true hand or head event: ``t`` the frame time (ms) vision should report, ``t_exact`` the scripted
    moment, ``frame`` the frame index."""

    kind: str  # hand_down, hand_up, shot_raise, head_up
    seat: int
    t: int
    t_exact: float
    frame: int
    gesture: str = ""
    until: int | None = None
    note: str = ""


def expected_outcome(
    marks: list[Mark],
    hands: list[HandEvent],
    roles_black: tuple[int, ...],
    seats: int = 10,
    rules: str = "federation",
) -> dict[str, Any]:
    black = set(roles_black)
    alive = set(range(1, seats + 1))
    days: list[dict[str, Any]] = []
    nights: list[dict[str, Any]] = []
    violations: list[dict[str, Any]] = []
    winner: str | None = None
    win_reason = ""
    misses_in_row = 0
    ms = sorted(marks, key=lambda m: m.t)
    downs = sorted((h for h in hands if h.kind == "hand_down"), key=lambda h: h.t)
    raises = sorted((h for h in hands if h.kind == "shot_raise"), key=lambda h: h.t)
    # phases: (type, n, start, end)
    phase_marks = [m for m in ms if m.type in ("day", "night")]
    for i, pm in enumerate(phase_marks):
        start = pm.t
        end = phase_marks[i + 1].t if i + 1 < len(phase_marks) else 1 << 62
        inside = [m for m in ms if start <= m.t < end]
        if winner:
            break
        if pm.type == "day":
            day = _day(pm.fields["n"], inside, downs, alive, end, violations)
            days.append(day)
            for s in day["eliminated"]:
                alive.discard(s)
        elif pm.fields["n"] >= 1:
            night = _night(
                pm.fields["n"], inside, [h for h in raises if start <= h.t < end], alive & black, end
            )
            nights.append(night)
            if night["killed"] is not None:
                alive.discard(night["killed"])
                misses_in_row = 0
            else:
                misses_in_row += 1
        reds, blacks = len(alive - black), len(alive & black)
        if blacks == 0:
            winner, win_reason = "red", "every black player has left"
        elif blacks >= reds:
            winner, win_reason = "black", "black and red are equal in number"
        elif misses_in_row >= 3 and rules == "federation":
            winner, win_reason = "red", "three misses in a row (000 11.1)"
    return {
        "rules": rules,
        "winner": winner,
        "win_reason": win_reason,
        "alive": sorted(alive),
        "days": days,
        "nights": nights,
        "violations": violations,
    }


def _day(
    n: int,
    marks: list[Mark],
    downs: list[HandEvent],
    alive: set[int],
    end: int,
    violations: list[dict[str, Any]],
) -> dict[str, Any]:
    noms = [{"by": m.fields["by"], "target": m.fields["target"]} for m in marks if m.type == "nominate"]
    candidates = [d["target"] for d in noms]
    calls = [m for m in marks if m.type == "vote_call"]
    stops = [m for m in marks if m.type == "vote_stop"]
    if calls and n == 1 and len(candidates) == 1:
        raise ScriptError(
            "day 1 with a single candidate is not voted (000 4.11): drop the vote or nominate another",
            field=f"host[{calls[0].line}]",
        )
    windows = []
    for j, c in enumerate(calls):
        stop = next((s for s in stops if s.t > c.t), None)
        if stop is None:
            raise ScriptError(f"vote call at {c.t} ms has no Спасибо after it", field=f"host[{c.line}]")
        nxt = calls[j + 1].t if j + 1 < len(calls) else end
        closing = stop.onset if stop.onset is not None else float(stop.t)
        windows.append((c, stop, closing, nxt))
    votes: list[dict[str, Any]] = []
    eliminated: list[int] = []
    # group windows into rounds: consecutive windows with the same round name and without repeats
    groups: list[list[tuple[Mark, Mark, float, int]]] = []
    for w in windows:
        rnd = w[0].fields["round"]
        cand = w[0].fields.get("candidate")
        if (
            groups
            and groups[-1][0][0].fields["round"] == rnd
            and rnd != "all"
            and cand not in [g[0].fields.get("candidate") for g in groups[-1]]
        ):
            groups[-1].append(w)
        else:
            groups.append([w])
    want_round, want = "main", candidates
    all_tied: list[int] = []
    for g in groups:
        rnd = g[0][0].fields["round"]
        names = [w[0].fields.get("candidate") for w in g]
        if rnd != want_round or (rnd != "all" and names != want):
            raise ScriptError(
                f"expected round {want_round!r} on {want} here, the script has {rnd!r} on {names}",
                field=f"host[{g[0][0].line}]",
            )
        voted: set[int] = set()
        result: list[dict[str, Any]] = []
        for call, _stop, closing, nxt in g:
            cand = call.fields.get("candidate", "all")
            voters, late = [], []
            for h in downs:
                if h.seat not in alive or not (call.t <= h.t < nxt):
                    continue
                if h.t < closing and h.seat not in voted:
                    voters.append(h.seat)
                    voted.add(h.seat)
                elif h.t >= closing:
                    late.append(h.seat)
                    violations.append(
                        {"t": h.t, "seat": h.seat, "rule": "000 4.6", "what": "vote placed after Спасибо"}
                    )
            result.append({"round": rnd, "candidate": cand, "voters": sorted(voters), "late": sorted(late)})
        if rnd != "all":
            defaulted = sorted(alive - voted)
            result[-1]["defaulted"] = defaulted
            result[-1]["voters"] = sorted(set(result[-1]["voters"]) | set(defaulted))
        for r in result:
            r.setdefault("defaulted", [])
        votes.extend(result)
        if rnd == "all":
            if len(result[0]["voters"]) * 2 > len(alive):
                eliminated = list(all_tied)
            want_round, want = "none", []
            continue
        tally = {r["candidate"]: len(r["voters"]) for r in result}
        top = max(tally.values())
        tied = [c for c in names if tally[c] == top]
        if len(tied) == 1:
            eliminated = tied
            want_round, want = "none", []
        elif rnd == "revote" and tied == names:
            want_round, want, all_tied = "all", [], tied
        else:
            want_round, want = "revote", tied
    if want_round in ("revote", "all") and groups:
        raise ScriptError(f"day {n} ends before the {want_round!r} round its tie needs", field="host")
    return {"day": n, "nominations": noms, "votes": votes, "eliminated": sorted(eliminated)}


def _night(
    n: int, marks: list[Mark], raises: list[HandEvent], black_alive: set[int], end: int
) -> dict[str, Any]:
    calls = [m for m in marks if m.type == "shot_call"]
    windows = []
    for j, c in enumerate(calls):
        nxt = calls[j + 1].t if j + 1 < len(calls) else end
        windows.append((c.t, min(nxt, c.t + SHOT_WINDOW_MS), c.fields["target"]))
    shots: dict[int, list[int]] = {}
    between: list[int] = []
    for h in raises:
        target = next((tg for a, b, tg in windows if a <= h.t < b), None)
        if h.seat not in black_alive:
            continue
        if target is None:
            between.append(h.seat)
        else:
            shots.setdefault(h.seat, []).append(target)
    killed: int | None = None
    single = {s: v[0] for s, v in shots.items() if len(v) == 1}
    if (
        black_alive
        and set(single) == black_alive
        and len(set(single.values())) == 1
        and not between
        and all(len(v) == 1 for v in shots.values())
    ):
        killed = next(iter(single.values()))
    return {
        "night": n,
        "shots": {str(s): (v[0] if len(v) == 1 else v) for s, v in sorted(shots.items())},
        "between": sorted(between),
        "killed": killed,
        "miss": killed is None,
    }
