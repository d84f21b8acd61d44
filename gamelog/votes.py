"""One day's vote: the windows, who voted, defaults, ties and the "автокатастрофа" (000 4.5–4.13).

The referee derives the procedure itself (main vote over the candidates in nomination order; a
re-vote among the tied; the same players tied again → the all-leave question; only some of them tied
→ the re-vote repeats among those) and walks the host's vote windows along it. The host's ``round``
names the step: a different name is a violation (000 4.13), a window that fits no step is a
violation and does not count. Per window, votes come from the judge if any judge entered one, else
from the host (compared with vision when the analyser ran), else from vision (CONTRACT.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from gamelog.events import HandDown, HandUp, Vote
from gamelog.findings import Findings
from gamelog.fusion import (
    CLOSE_CALL_MS,
    VOTING_GESTURES,
    HandVote,
    VisionReading,
    VoteWindow,
    read_window,
    set_aside_touches,
)
from gamelog.rules import RuleSet
from gamelog.state import TimingChange, VoteRound


@dataclass
class VoteContext:
    rules: RuleSet
    windows: Sequence[VoteWindow]
    marks: Sequence[Vote]  # host and judge votes of the day
    tracks: Mapping[int, Sequence[HandDown | HandUp]]
    vision_present: bool
    can_vote: Callable[[int], frozenset[int]]  # seats still at the table at time t
    fouled_since: Callable[[int, int], bool]  # (seat, t): a host/judge foul for seat at or after t
    findings: Findings
    end_t: int = 0  # when no window was held: the time the findings name
    in_progress: bool = False  # the log ends in this day: a step still open is not decided yet


@dataclass(frozen=True)
class VoteOutcome:
    rounds: tuple[VoteRound, ...]
    eliminated: tuple[int, ...]  # in nomination order (may include seats already removed: 000 11.2)
    last_t: int


@dataclass
class _Step:
    round: str
    candidates: tuple[int, ...]  # empty for "all"
    tied: tuple[int, ...] = ()


def _marks_by_window(ctx: VoteContext) -> dict[int, list[Vote]]:
    """Each host/judge vote belongs to the latest vote_call at or before its t (CONTRACT)."""
    out: dict[int, list[Vote]] = {}
    for v in ctx.marks:
        idx = None
        for i, w in enumerate(ctx.windows):
            if w.call.t <= v.t:
                idx = i
        if idx is None:
            ctx.findings.review(
                v.t, v.seat, f"{v.src} vote for {v.candidate} entered before any vote call", v.id
            )
            continue
        w = ctx.windows[idx]
        if v.candidate != w.candidate:
            ctx.findings.review(
                v.t, v.seat, f"{v.src} vote for {v.candidate} entered in the window of {w.candidate}", v.id
            )
            continue
        out.setdefault(idx, []).append(v)
    return out


def _window_votes(
    ctx: VoteContext, w: VoteWindow, marks: list[Vote], eligible: frozenset[int], round_until: int
) -> tuple[dict[int, int], dict[int, int], str]:
    """(votes seat -> t, late seat -> t, source) for one window, with precedence and flags.
    ``round_until``: the end of the round the window belongs to (for :func:`set_aside_touches`)."""
    seats = eligible | frozenset(ctx.can_vote(w.call.t))
    tracks, touches = set_aside_touches(w, ctx.tracks, round_until)
    for tch in touches:
        if tch.seat in seats:
            ctx.findings.review(
                tch.down.t,
                tch.seat,
                f"vote for {_cand(w.candidate)}: a hand in seat {tch.seat}'s zone "
                f"{_shape(tch.down.gesture)}, gone after {(tch.up.t - tch.down.t) / 1000:.1f} s before "
                f"Спасибо, and seat {tch.seat} put a fist down {(tch.then.t - tch.down.t) / 1000:.1f} s "
                f"later: not counted as seat {tch.seat}'s vote (a neighbour's reach?)",
                tch.down.id,
            )
    reading = read_window(w, tracks, seats)
    _timing(ctx, w, seats, tracks)
    judge = [m for m in marks if m.src == "judge"]
    host = [m for m in marks if m.src == "host"]
    chosen = judge or host
    if not chosen:
        reading = _touches_the_host_did_not_count(ctx, w, reading, eligible)
    _flag_hands(ctx, w, reading.votes, vision_decides=not chosen)
    if not chosen:
        _close_calls(ctx, w, reading)
    votes: dict[int, int] = {}
    if chosen:
        source = "judge" if judge else "host"
        for m in sorted(chosen, key=lambda m: (m.t, m.id or "")):
            votes.setdefault(m.seat, m.t)
        if ctx.vision_present:
            seen = set(reading.votes) & set(ctx.can_vote(w.call.t))
            if set(votes) != seen:
                ctx.findings.disagree(
                    w.call.t,
                    f"{source} counted {len(votes)} for {_cand(w.candidate)}, vision saw {len(seen)}",
                    tuple(sorted(set(votes) ^ seen)),
                )
    else:
        votes = {s: hv.down.t for s, hv in reading.votes.items()}
        source = "vision" if reading.votes or reading.late else "none"
    late = {s: d.t for s, d in reading.late.items() if s not in votes}
    for s, d in sorted(reading.late.items()):
        if s not in votes:
            ctx.findings.violation(
                d.t, s, "000 4.6", f"vote for {_cand(w.candidate)} placed with or after Спасибо (late)", d.id
            )
    return votes, late, source


def _touches_the_host_did_not_count(
    ctx: VoteContext, w: VoteWindow, reading: VisionReading, eligible: frozenset[int]
) -> VisionReading:
    """Vision votes that never showed the fist and were gone before "Спасибо" are set aside when the host's
    announced count is exactly the vision count without them: the host, watching the table, did not count
    them either. Each is listed for the judge."""
    if w.count is None:
        return reading
    counted = [s for s in reading.votes if s in eligible]
    doubtful = [
        s
        for s in counted
        if reading.votes[s].down.gesture not in VOTING_GESTURES and reading.votes[s].lift_before_close
    ]
    if not doubtful or len(counted) - len(doubtful) != w.count.count:
        return reading
    for s in doubtful:
        hv = reading.votes[s]
        gone = (hv.lift.t - hv.down.t) / 1000 if hv.lift is not None else 0.0
        ctx.findings.review(
            hv.down.t,
            s,
            f"vote for {_cand(w.candidate)}: a hand in seat {s}'s zone {_shape(hv.down.gesture)}, gone after "
            f"{gone:.1f} s before Спасибо; the host counted {w.count.count} without it: not counted as seat "
            f"{s}'s vote (a neighbour's reach?)",
            hv.down.id,
        )
    return VisionReading({s: hv for s, hv in reading.votes.items() if s not in doubtful}, reading.late)


def _cand(c: int | str) -> str:
    return "all leaving" if c == "all" else f"seat {c}"


_SHAPES = {"palm": "a palm", "point": "a pointing finger", "gun": "a finger-gun"}


def _shape(gesture: str) -> str:
    """How a judge reads a vote's hand shape that is not the voting fist."""
    if gesture in _SHAPES:
        return f"with {_SHAPES[gesture]}, not a fist"
    return f"with a hand shape not read as a fist ({gesture})"


def _flag_hands(
    ctx: VoteContext, w: VoteWindow, votes: Mapping[int, HandVote], *, vision_decides: bool
) -> None:
    rules = ctx.rules
    for seat, hv in sorted(votes.items()):
        d = hv.down
        if d.gesture not in VOTING_GESTURES:
            ctx.findings.review(d.t, seat, f"voted for {_cand(w.candidate)} {_shape(d.gesture)}", d.id)
        if vision_decides and d.conf < rules.vision_min_conf:
            ctx.findings.review(
                d.t,
                seat,
                f"vote for {_cand(w.candidate)} seen with low confidence {d.conf:.2f} (counted)",
                d.id,
            )
        if hv.lift is None:
            continue
        u = hv.lift
        if rules.hand_lift_penalty == "removal_before_stop":
            clause = "003 SHOWTIME" if hv.lift_before_close else "003 federation section"
            penalty = "removal" if hv.lift_before_close else "a remark"
        else:
            clause = rules.hand_lift_clause
            penalty = "a foul" if rules.hand_lift_penalty == "foul" else "a remark"
        what = f"hand lifted before the count of {_cand(w.candidate)} (vote counts; rule set: {penalty})"
        ctx.findings.violation(u.t, seat, clause, what, u.id)
        if not ctx.fouled_since(seat, u.t):
            ctx.findings.review(u.t, seat, what, u.id)


def _close_calls(ctx: VoteContext, w: VoteWindow, reading: VisionReading) -> None:
    """Vision's votes and late hands (``reading`` holds only seats that may vote) that landed within
    CLOSE_CALL_MS of the spoken "Спасибо": listed for the judge, with how vision ruled them. A window closed
    by the keystroke is not looked at: the keystroke lags the word by 150-300 ms, far more than a frame."""
    if w.onset is None or w.close_t == w.keystroke_t:
        return
    landed = [(s, hv.down, "counted") for s, hv in reading.votes.items()]
    landed += [(s, d, "late") for s, d in reading.late.items()]
    for seat, down, ruled in sorted(landed, key=lambda x: x[0]):
        dt = down.t - w.close_t
        if abs(dt) < CLOSE_CALL_MS:
            ctx.findings.review(
                down.t,
                seat,
                f"vote for {_cand(w.candidate)}: the hand was first seen down {abs(dt)} ms "
                f"{'before' if dt < 0 else 'after'} Спасибо, within one video frame: the camera cannot tell "
                f"whether it was in time ({ruled})",
                down.id,
            )


def _timing(
    ctx: VoteContext, w: VoteWindow, seats: frozenset[int], tracks: Mapping[int, Sequence[HandDown | HandUp]]
) -> None:
    if w.onset is None or w.close_t == w.keystroke_t:
        return
    by_onset = read_window(w, tracks, seats, close_t=w.close_t)
    by_key = read_window(w, tracks, seats, close_t=w.keystroke_t)
    for seat in sorted(set(by_onset.votes) | set(by_key.votes) | set(by_onset.late) | set(by_key.late)):
        a = "vote" if seat in by_key.votes else "late" if seat in by_key.late else "none"
        b = "vote" if seat in by_onset.votes else "late" if seat in by_onset.late else "none"
        if a != b:
            d = (
                by_key.votes[seat].down
                if seat in by_key.votes
                else by_onset.late.get(seat) or by_key.late[seat]
            )
            ctx.findings.timing.append(TimingChange(d.t, seat, w.candidate, a, b))


def run_vote(ctx: VoteContext, candidates: Sequence[int]) -> VoteOutcome:
    """Walk the windows along the procedure the rules call for; return the rounds and who leaves.
    Windows left over when the procedure has ended are violations and do not count."""
    outcome, used = _procedure(ctx, candidates)
    for w in ctx.windows[used:]:
        ctx.findings.violation(
            w.call.t, None, "000 4.12", f"vote on {_cand(w.candidate)} after the vote was decided", w.call.id
        )
    return outcome


def _procedure(ctx: VoteContext, candidates: Sequence[int]) -> tuple[VoteOutcome, int]:
    f = ctx.findings
    rules = ctx.rules
    marks = _marks_by_window(ctx)
    rounds: list[VoteRound] = []
    step: _Step | None = _Step("main", tuple(candidates))
    wi = 0
    last_t = ctx.windows[0].call.t if ctx.windows else ctx.end_t
    eliminated: tuple[int, ...] = ()
    while step is not None:
        tied = set(step.tied) if step.round != "main" and not rules.tied_players_vote else set()
        pending: list[int | str] = list(step.candidates) if step.round != "all" else ["all"]
        done: list[tuple[int | str, VoteWindow, dict[int, int], dict[int, int], str]] = []
        voted: dict[int, int | str] = {}
        # The step normally takes the next len(pending) windows: a touch needs its fist before their end.
        last = min(wi + len(pending), len(ctx.windows)) - 1
        round_until = ctx.windows[last].late_until if last >= wi else last_t
        while wi < len(ctx.windows) and pending:
            w = ctx.windows[wi]
            idx = wi
            wi += 1
            cand = w.candidate
            if cand not in pending:
                what = f"vote on {_cand(cand)} ({w.call.round}) is not a step of the procedure"
                if any(c == cand for c, *_ in done):
                    what = f"{_cand(cand)} put to the vote again in the same round"
                f.violation(
                    w.call.t, None, "000 4.13" if step.round != "main" else "000 4.5", what, w.call.id
                )
                continue
            if w.call.round != step.round:
                f.violation(
                    w.call.t,
                    None,
                    "000 4.13",
                    f"host called round {w.call.round!r} for {_cand(cand)}; "
                    f"the procedure is at {step.round!r}",
                    w.call.id,
                )
            if cand != pending[0]:
                f.violation(
                    w.call.t, None, "000 4.5", f"{_cand(cand)} voted out of nomination order", w.call.id
                )
            pending.remove(cand)
            if w.stop is None:
                f.review(w.call.t, None, f"no Спасибо mark after the call of {_cand(cand)}", w.call.id)
            eligible = frozenset(s for s in ctx.can_vote(w.close_t) if s not in tied)
            votes, late, source = _window_votes(ctx, w, marks.get(idx, []), eligible, round_until)
            counted: dict[int, int] = {}
            for seat, t in sorted(votes.items(), key=lambda kv: (kv[1], kv[0])):
                if seat in tied:
                    f.violation(
                        t,
                        seat,
                        "003 federation section",
                        f"tied player voted in the {step.round} (not allowed)",
                    )
                elif seat not in eligible:
                    if source != "vision":
                        f.review(t, seat, f"{source} vote by seat {seat}, who has left the table")
                elif seat in voted and step.round != "all":
                    f.violation(
                        t,
                        seat,
                        "000 4.8",
                        f"second vote in one round (already voted for {_cand(voted[seat])})",
                    )
                else:
                    counted[seat] = t
                    voted[seat] = cand
            late = {s: t for s, t in late.items() if s in eligible and s not in counted}
            by_host_alone = not ctx.vision_present and source == "none"
            if (
                w.count is not None
                and w.count.count != len(counted)
                and step.round == "all"
                and not by_host_alone
            ):
                f.disagree(
                    w.count.t,
                    f"host announced {w.count.count} for all leaving, counted {len(counted)}",
                )
            done.append((cand, w, counted, late, source))
            last_t = max(last_t, w.keystroke_t)
        if pending and ctx.in_progress:
            # The log ends inside this step (the console while the game is recorded): the step is not
            # decided yet. Nobody leaves or is defaulted; nothing is "not held" or "not put to the vote".
            for c, w, counted, late, source in done:
                rounds.append(
                    VoteRound(step.round, c, tuple(counted), tuple(late), (), w.call.t, source, _announced(w))
                )
            return VoteOutcome(tuple(rounds), (), last_t), wi
        if not done:
            what = "the vote was not held" if step.round == "main" else f"the {step.round} was not held"
            f.violation(last_t, None, "000 4.13" if step.round != "main" else "000 4.1", what)
            return VoteOutcome(tuple(rounds), (), last_t), wi
        for c in pending:
            f.violation(last_t, None, "000 4.5", f"{_cand(c)} was not put to the vote ({step.round})")
        if step.round == "all":
            _, w, counted, late, source = done[0]
            eligible = frozenset(s for s in ctx.can_vote(w.close_t) if s not in tied)
            tally = _announced(w) if _announced_only(ctx, done) else None
            passed = 2 * (len(counted) if tally is None else tally) > len(eligible)
            rounds.append(
                VoteRound(
                    "all",
                    "all",
                    tuple(counted),
                    tuple(late),
                    (),
                    w.call.t,
                    source if tally is None else "announced",
                    _announced(w),
                    step.tied,
                    passed,
                    tally,
                )
            )
            return VoteOutcome(tuple(rounds), step.tied if passed else (), last_t), wi
        # Defaults (000 4.9): who may vote and did not, to the last candidate of the step.
        last_w = done[-1][1]
        may = frozenset(s for s in ctx.can_vote(last_w.close_t) if s not in tied)
        defaulted = tuple(sorted(may - set(voted)))
        last_cand = step.candidates[-1]
        counts: dict[int, int] = {c: 0 for c in step.candidates}
        by_cand = {c: (w, counted, late, source) for c, w, counted, late, source in done}
        if _announced_only(ctx, done):
            for c in step.candidates:
                if c in by_cand:
                    w = by_cand[c][0]
                    ann = _announced(w)
                    counts[c] = ann or 0
                    rounds.append(VoteRound(step.round, c, (), (), (), w.call.t, "announced", ann, tally=ann))
            by_cand = {}
        for c in step.candidates if by_cand else ():
            if c not in by_cand:
                if c == last_cand and defaulted:
                    counts[c] = len(defaulted)
                continue
            w, counted, late, source = by_cand[c]
            dflt = defaulted if c == last_cand else ()
            voters = tuple(sorted(set(counted) | set(dflt)))
            counts[c] = len(voters)
            ann = _announced(w)
            if ann is not None and ann not in (len(voters), len(counted)):
                f.disagree(
                    w.count.t if w.count else w.call.t,
                    f"host announced {ann} for seat {c}, counted {len(voters)}",
                )
            rounds.append(VoteRound(step.round, c, voters, tuple(late), dflt, w.call.t, source, ann))
        top = max(counts.values())
        leaders = tuple(c for c in step.candidates if counts[c] == top)
        if len(leaders) == 1:
            return VoteOutcome(tuple(rounds), leaders, last_t), wi
        if step.round == "revote" and set(leaders) == set(step.candidates):
            step = _Step("all", (), leaders)
        else:
            step = _Step("revote", leaders, leaders)
    return VoteOutcome(tuple(rounds), eliminated, last_t), wi


def _announced(w: VoteWindow) -> int | None:
    return None if w.count is None else w.count.count


def _announced_only(ctx: VoteContext, done: Sequence[tuple[object, VoteWindow, object, object, str]]) -> bool:
    """No seat's vote is known in any window of the step — no judge or host votes and no vision at all —
    and the host announced every count: a game logged by hand with counts only, or the record console while
    the game is being recorded. The announced counts then decide the step (000 4.7: the host announces the
    result); who voted, who was late and who was defaulted stay unknown."""
    return (
        bool(done)
        and not ctx.vision_present
        and all(src == "none" and w.count is not None for _, w, _, _, src in done)
    )
