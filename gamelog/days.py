"""One day: speaking order, nominations and withdrawals, then the vote (000 3.1–3.2, 4.2–4.5, 4.11,
11.2, 11.3; 001 day 4; 002 5; 002 host sheet; 003 SHOWTIME). The vote procedure itself is in
:mod:`gamelog.votes`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gamelog.events import (
    DonCheck,
    Event,
    Foul,
    HandDown,
    Nominate,
    SheriffCheck,
    Shot,
    ShotCall,
    Speech,
    SpeechOnset,
    Vote,
    VoteCall,
    VoteCount,
    VoteStop,
    Withdraw,
)
from gamelog.findings import Findings
from gamelog.fusion import VoteWindow, build_windows, hand_tracks, reach
from gamelog.state import DayResult
from gamelog.table import Phase, Table, common_event
from gamelog.votes import VoteContext, run_vote


def _opener(g: Table, alive: set[int]) -> int | None:
    order = sorted(g.seats)
    if not alive:
        return None
    if g.prev_opener is None:
        start = 0
    else:
        start = (order.index(g.prev_opener) + 1) % len(order) if g.prev_opener in order else 0
    for i in range(len(order)):
        s = order[(start + i) % len(order)]
        if s in alive:
            return s
    return None


def referee_day(
    g: Table, p: Phase, all_events: Sequence[Event], tracks_src: Sequence[Event], vision_present: bool
) -> DayResult:
    f, rules = g.f, g.rules
    alive_start = frozenset(g.alive)
    opener = _opener(g, set(g.alive))
    silenced = {s for s in g.silence_next if s in g.alive}
    g.silence_next -= silenced
    if rules.silenced_with_three_gets_30s and len(g.alive) == 3:
        silenced = set()
    g.day_silenced = silenced
    g.day_removals = {}
    g.spoken = set()
    g.discussion_over = False
    order = sorted(g.seats)
    rot = order[order.index(opener) :] + order[: order.index(opener)] if opener is not None else []

    def first_speaker() -> int | None:
        # 000 3.2: the next day starts after the player who *spoke* first (a silenced opener is skipped)
        return next((x for x in rot if x in g.alive and x not in silenced), None)

    g.prev_opener = first_speaker()

    calls = [e for e in p.events if isinstance(e, VoteCall)]
    stops = [e for e in p.events if isinstance(e, VoteStop)]
    counts = [e for e in p.events if isinstance(e, VoteCount)]
    stop_ids = {s.id for s in stops if s.id is not None}
    onsets = [e for e in all_events if isinstance(e, SpeechOnset) and e.ref in stop_ids]
    windows = build_windows(calls, stops, onsets, counts, p.end_t, rules)
    first_call_t = windows[0].call.t if windows else None
    vote_end_t = max(max(w.keystroke_t for w in windows), windows[-1].call.t) if windows else None

    noms: list[tuple[int, int, int, int]] = []  # (by, target, t, speech_t)
    withdrawn: list[tuple[int, int]] = []
    speech_t: dict[int, int] = {}
    first_speech_checked = False
    resolved: tuple[tuple[Any, ...], tuple[int, ...], bool, str | None] | None = None

    def resolve() -> tuple[tuple[Any, ...], tuple[int, ...], bool, str | None]:
        return _resolve_vote(g, p, windows, noms, alive_start, tracks_src, vision_present)

    for e in p.events:
        if g.winner is not None:
            break
        if resolved is None and vote_end_t is not None and e.t > vote_end_t:
            resolved = resolve()
            if g.winner is not None:
                break
        if first_call_t is not None and e.t >= first_call_t:
            g.discussion_over = True
        if isinstance(e, Speech):
            if g.discussion_over or e.seat not in g.alive:
                continue  # tie speeches, last words
            if not first_speech_checked:
                first_speech_checked = True
                expected = first_speaker()
                g.prev_opener = expected
                if expected is not None and e.seat != expected:
                    f.violation(
                        e.t,
                        e.seat,
                        "000 3.2",
                        f"day {p.n} opened by seat {e.seat}, seat {expected} opens it",
                        e.id,
                    )
            if e.seat in silenced:
                f.violation(e.t, e.seat, "000 7.4", "spoke although silenced by a third foul", e.id)
            g.spoken.add(e.seat)
            speech_t[e.seat] = e.t
        elif isinstance(e, Nominate):
            _nominate(g, p, e, noms, speech_t)
        elif isinstance(e, Withdraw):
            _withdraw(g, e, noms, withdrawn, speech_t)
        elif isinstance(e, DonCheck | SheriffCheck | Shot | ShotCall):
            f.review(e.t, getattr(e, "seat", None), f"{e.TYPE} entered during day {p.n}", e.id)
        else:
            common_event(g, e)
    if resolved is None and g.winner is None:
        resolved = resolve()
    rounds, elim, held, reason = resolved if resolved is not None else ((), (), False, "game over")
    g.discussion_over = True
    g.day_silenced = None
    return DayResult(
        day=p.n,
        t=p.t,
        nominations=tuple((b, t) for b, t, _, _ in noms),
        withdrawn=tuple(withdrawn),
        votes=rounds,
        eliminated=elim,
        revealed=g.reveal(elim),
        speaking_order=tuple(s for s in rot if s in alive_start and s not in silenced),
        silenced=tuple(sorted(silenced)),
        vote_held=held,
        no_vote_reason=reason,
    )


def _current_speech(speech_t: Mapping[int, int], t: int) -> tuple[int, int] | None:
    """(seat, t) of the latest speech mark at or before t."""
    best: tuple[int, int] | None = None
    for seat, st in speech_t.items():
        if st <= t and (best is None or st > best[1]):
            best = (seat, st)
    return best


def _nominate(
    g: Table, p: Phase, e: Nominate, noms: list[tuple[int, int, int, int]], speech_t: Mapping[int, int]
) -> None:
    f, rules = g.f, g.rules
    if p.n == 1 and rules.day1 == "no_vote":
        f.violation(
            e.t, e.by, "002 host sheet", "nomination on day 1 (no nominations on the first day)", e.id
        )
        return
    if g.discussion_over:
        f.violation(e.t, e.by, "000 4.2", "nomination after the discussion ended", e.id)
        return
    if e.by not in g.alive:
        f.review(e.t, e.by, f"nomination by seat {e.by}, who has left", e.id)
        return
    if e.target not in g.alive:
        f.violation(e.t, e.by, "000 4.2", f"nominated seat {e.target}, who has left", e.id)
        return
    cur = _current_speech(speech_t, e.t)
    sp = cur[1] if cur is not None else -1
    mine = [i for i, n in enumerate(noms) if n[0] == e.by]
    if mine:
        i = mine[0]
        if rules.nomination_counted == "last" and noms[i][3] == sp:
            if e.target in {n[1] for n in noms}:
                return
            del noms[i]
        else:
            f.violation(
                e.t,
                e.by,
                "000 4.4",
                f"second nomination (seat {e.target}) on one day; the first stands",
                e.id,
            )
            return
    if e.target in {n[1] for n in noms}:
        return  # already a candidate: the host does not accept it twice
    noms.append((e.by, e.target, e.t, sp))


def _withdraw(
    g: Table,
    e: Withdraw,
    noms: list[tuple[int, int, int, int]],
    withdrawn: list[tuple[int, int]],
    speech_t: Mapping[int, int],
) -> None:
    f = g.f
    if not g.rules.withdrawal_allowed:
        f.violation(
            e.t, e.by, "000 4.3", f"withdrawal of seat {e.target} (not allowed: the nomination stands)", e.id
        )
        return
    idx = next((i for i, n in enumerate(noms) if n[0] == e.by and n[1] == e.target), None)
    if idx is None:
        f.violation(e.t, e.by, "001 day 4", f"withdraws seat {e.target}, whom he did not nominate", e.id)
        return
    cur = _current_speech(speech_t, e.t)
    if cur is None or cur[1] != noms[idx][3] or g.discussion_over:
        f.violation(e.t, e.by, "001 day 4", "withdrawal outside the speech that made the nomination", e.id)
        return
    del noms[idx]
    withdrawn.append((e.by, e.target))


def _resolve_vote(
    g: Table,
    p: Phase,
    windows: Sequence[Any],
    noms: Sequence[tuple[int, int, int, int]],
    alive_start: frozenset[int],
    tracks_src: Sequence[Event],
    vision_present: bool,
) -> tuple[tuple[Any, ...], tuple[int, ...], bool, str | None]:
    f, rules = g.f, g.rules
    g.discussion_over = True
    candidates = [t for _, t, _, _ in noms]
    reason: str | None = None
    after_t = None
    cancel = sorted((t, s) for s, t in g.day_removals.items() if s not in candidates)
    if p.n == 1 and rules.day1 == "no_vote":
        reason = "002 host sheet"
    elif not candidates:
        reason = "no candidates"
    elif len(candidates) == 1 and rules.single_candidate_never_voted:
        reason = "003 federation section"
    elif len(candidates) == 1 and p.n == 1 and rules.day1 == "single_not_voted":
        reason = "000 4.11"
    elif cancel and rules.removed_noncandidate_cancels_vote:
        reason = "000 11.3"
        after_t = cancel[0][0]
    if reason is not None:
        for w in windows:
            if after_t is None or w.call.t >= after_t:
                rule = "000 4.1" if reason == "no candidates" else reason
                f.violation(
                    w.call.t,
                    None,
                    rule,
                    f"vote on {w.candidate} held although no vote is due ({reason})",
                    w.call.id,
                )
        return (), (), False, reason
    day_events = [e for e in tracks_src if p.t <= e.t < p.end_t]
    _review_reaches(day_events, windows, f)
    fouls = [e for e in p.events if isinstance(e, Foul)]
    removals = dict(g.day_removals)
    ctx = VoteContext(
        rules=rules,
        windows=windows,
        marks=[e for e in p.events if isinstance(e, Vote)],
        tracks=hand_tracks(day_events),
        vision_present=vision_present,
        can_vote=lambda t: frozenset(s for s in alive_start if not (s in removals and removals[s] <= t)),
        fouled_since=lambda seat, t: any(x.seat == seat and x.t >= t for x in fouls),
        findings=f,
        end_t=p.end_t,
        in_progress=p.last,
    )
    outcome = run_vote(ctx, candidates)
    elim: list[int] = []
    for s in outcome.eliminated:
        if s in g.alive:
            g.alive.discard(s)
            g.eliminated.append(s)
            elim.append(s)
    g.check_win(outcome.last_t)
    return outcome.rounds, tuple(elim), bool(outcome.rounds), None


def _review_reaches(events: Sequence[Event], windows: Sequence[VoteWindow], f: Findings) -> None:
    """A hand seen landing in another seat's zone during a vote window counts for nobody (fusion.reach), but a
    judge should look: it may hide the zone player's own vote, or be a touch."""
    for e in events:
        if not (isinstance(e, HandDown) and reach(e)):
            continue
        w = next((w for w in windows if w.call.t <= e.t < w.end_t), None)
        if w is None:
            continue
        zone = e.extra["zone_seat"]
        what = (
            f"hand of seat {e.seat} landed in seat {zone}'s zone during the vote for "
            f"{'all leaving' if w.candidate == 'all' else f'seat {w.candidate}'} (counted for neither)"
        )
        f.review(e.t, e.seat, what, e.id)
