"""One shooting night: shot windows, who shot whom, kill or miss, the Don's and the Sheriff's checks.

The window for number N runs from its ``shot_call`` to the next call or ``shot_window_ms`` later,
whichever is first (CONTRACT.md). A ``shot_raise`` peaking in it is a shot at N; between the first
call and the end of the last window but outside every window, a shot "between numbers" (a miss,
003 subtleties). All living black players shooting the same living seat exactly once: a kill
(000 5.4); anything else a miss (000 5.5). Shots come from the judge if any judge entered one that
night, else from the host (compared with vision when the analyser ran), else from vision.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gamelog.events import DonCheck, Event, NightMotion, SheriffCheck, Shot, ShotCall, ShotRaise, sort_key
from gamelog.findings import Findings
from gamelog.rules import RuleSet
from gamelog.state import Check, NightResult


@dataclass(frozen=True)
class NightInput:
    n: int
    t: int
    events: Sequence[Event]  # this night's events, sorted
    alive: frozenset[int]  # at the start of the shooting
    black: frozenset[int] | None  # None: roles unknown
    don: int | None
    sheriff: int | None
    vision_present: bool


def shot_windows(calls: Sequence[ShotCall], rules: RuleSet) -> list[tuple[int, int, ShotCall]]:
    """(start, end, call) per called number, end exclusive."""
    ordered = sorted(calls, key=sort_key)
    out = []
    for i, c in enumerate(ordered):
        end = c.t + rules.shot_window_ms
        if i + 1 < len(ordered):
            end = min(end, ordered[i + 1].t)
        out.append((c.t, end, c))
    return out


# The ``night_motion`` kind the analyser gives a raised hand it took for a neighbour's head lifting or going
# down in a peek (a head zone lies inside the neighbours' raise zones); the raise is not a shot, but the judge
# sees it (:func:`raise_at_peek_note`).
RAISE_AT_PEEK = "raise_at_peek"


def raise_at_peek_note(
    e: NightMotion, events: Sequence[Event], rules: RuleSet, black: frozenset[int] | None
) -> str:
    """What the judge is told of a raise the analyser took for a peeking head: whose head, the hand shape
    read, and, when it peaked during the call of a number and the seat may shoot (black, or roles unknown),
    the shot it would be."""
    head = e.extra.get("head_of")
    shape = e.extra.get("gesture", "hand")
    zone = f"seat {head}'s head zone" if head is not None else "a head zone"
    what = f"a raised hand ({shape}) in {zone} as that head moved, read as the head: not a shot"
    windows = shot_windows([c for c in events if isinstance(c, ShotCall)], rules)
    hit = called_at(windows, e.t)
    if hit is not None and (black is None or e.seat in black):
        return f"{what}; if it was seat {e.seat}'s hand, it was a shot at {hit} — check the video"
    return what


def called_at(windows: Sequence[tuple[int, int, ShotCall]], t: int) -> int | None:
    """The number being called at ``t`` (its window holds ``t``), or None (between numbers, or after)."""
    return next((c.target for start, end, c in windows if start <= t < end), None)


def _vision_shots(
    night: NightInput, rules: RuleSet, f: Findings, *, vision_decides: bool
) -> tuple[dict[int, list[int]], set[int]]:
    windows = shot_windows([e for e in night.events if isinstance(e, ShotCall)], rules)
    shots: dict[int, list[int]] = {}
    between: set[int] = set()
    if not windows:
        return shots, between
    first, last_end = windows[0][0], max(end for _, end, _ in windows)
    for r in (e for e in night.events if isinstance(e, ShotRaise)):
        if r.seat not in night.alive:
            continue
        if night.black is not None and r.seat not in night.black:
            f.violation(r.t, r.seat, "000 5.9", "a red player raised a hand during the shooting", r.id)
            f.review(r.t, r.seat, "hand raised during the shooting by a red player", r.id)
            continue
        hit = called_at(windows, r.t)
        if hit is None:
            if first <= r.t < last_end:
                between.add(r.seat)
                f.violation(r.t, r.seat, "003 subtleties", "shot between two called numbers (a miss)", r.id)
            continue
        shots.setdefault(r.seat, []).append(hit)
        if r.extra.get("seen_by") == "arm":
            # the night pass saw the arm up and the resting hand gone; the landmarker read no hand there
            f.review(r.t, r.seat, f"shot at {hit} seen by the raised arm, the hand not read (counted)", r.id)
            continue
        if r.gesture != "gun":
            f.review(r.t, r.seat, f"shot at {hit} seen as a {r.gesture}, not a finger-gun", r.id)
        if vision_decides and r.conf < rules.vision_min_conf:
            f.review(r.t, r.seat, f"shot at {hit} seen with low confidence {r.conf:.2f} (counted)", r.id)
    return shots, between


def _mark_shots(night: NightInput, marks: Sequence[Shot], f: Findings) -> dict[int, list[int]]:
    shots: dict[int, list[int]] = {}
    for s in marks:
        if s.seat not in night.alive:
            f.review(s.t, s.seat, f"{s.src} entered a shot by seat {s.seat}, who has left", s.id)
            continue
        if night.black is not None and s.seat not in night.black:
            f.review(s.t, s.seat, f"{s.src} entered a shot by seat {s.seat}, a red player", s.id)
            continue
        shots.setdefault(s.seat, []).append(s.target)
    return shots


def referee_night(night: NightInput, rules: RuleSet, f: Findings) -> NightResult:
    judge = [e for e in night.events if isinstance(e, Shot) and e.src == "judge"]
    host = [e for e in night.events if isinstance(e, Shot) and e.src == "host"]
    vision, between = _vision_shots(night, rules, f, vision_decides=not (judge or host))
    if judge or host:
        source = "judge" if judge else "host"
        shots = _mark_shots(night, judge or host, f)
        if night.vision_present and shots != vision:
            diff = tuple(sorted(s for s in set(shots) | set(vision) if shots.get(s) != vision.get(s)))
            f.disagree(
                night.t, f"night {night.n}: {source} shots {_fmt(shots)}, vision saw {_fmt(vision)}", diff
            )
        between = set()
    else:
        source = "vision" if vision or between else "none"
        shots = vision
    killed = _kill(night, shots, between)
    if killed is None and source in ("vision", "none"):
        _kill_with_peek_raises(night, rules, shots, between, f)
    for s, ts in sorted(shots.items()):
        if len(ts) > 1:
            f.violation(night.t, s, "000 5.5", f"shot more than once ({', '.join(map(str, ts))}): a miss")
    return NightResult(
        night=night.n,
        t=night.t,
        shots=tuple((s, tuple(ts)) for s, ts in sorted(shots.items())),
        killed=killed,
        miss=killed is None,
        don_check=_check(night, DonCheck, rules, f),
        sheriff_check=_check(night, SheriffCheck, rules, f),
        between_numbers=tuple(sorted(between)),
        source=source,
    )


def _kill(night: NightInput, shots: dict[int, list[int]], between: set[int]) -> int | None:
    """The seat killed: all living black players shot the same living seat exactly once (000 5.4)."""
    black_alive = night.black & night.alive if night.black is not None else frozenset(shots)
    targets = {t for s in black_alive for t in shots.get(s, [])}
    kill = (
        bool(black_alive)
        and all(len(shots.get(s, [])) == 1 for s in black_alive)
        and len(targets) == 1
        and not (between & black_alive)
    )
    killed = next(iter(targets)) if kill else None
    return killed if killed in night.alive else None


def _kill_with_peek_raises(
    night: NightInput, rules: RuleSet, shots: dict[int, list[int]], between: set[int], f: Findings
) -> None:
    """A miss read from vision that the raises taken for peeking heads (RAISE_AT_PEEK) would turn into a
    kill, had they been the seats' hands: the judge is told which night, which raises and which kill."""
    windows = shot_windows([e for e in night.events if isinstance(e, ShotCall)], rules)
    extra: dict[int, list[int]] = {}
    refs: list[NightMotion] = []
    for e in night.events:
        if not (isinstance(e, NightMotion) and e.kind == RAISE_AT_PEEK) or e.seat not in night.alive:
            continue
        if e.seat in shots or (night.black is not None and e.seat not in night.black):
            continue
        hit = called_at(windows, e.t)
        # One raise may leave two flags in one call (two heads, or cut by a stretch's end): one shot.
        if hit is not None and hit not in extra.get(e.seat, []):
            extra.setdefault(e.seat, []).append(hit)
            refs.append(e)
    if not extra:
        return
    killed = _kill(night, {**shots, **extra}, between)
    if killed is None:
        return
    who = ", ".join(f"seat {e.seat}'s at {e.t / 1000:.2f} s" for e in refs)
    f.review(
        refs[0].t,
        refs[0].seat,
        f"night {night.n}: a miss as read; with the raise{'s' if len(refs) > 1 else ''} taken for a peeking "
        f"head ({who}) counted as shots, a kill of seat {killed} — check the video",
        refs[0].id,
    )


def _fmt(shots: dict[int, list[int]]) -> str:
    if not shots:
        return "none"
    return ", ".join(f"{s}→{'/'.join(map(str, ts))}" for s, ts in sorted(shots.items()))


def _check(
    night: NightInput, kind: type[DonCheck] | type[SheriffCheck], rules: RuleSet, f: Findings
) -> Check | None:
    is_don = kind is DonCheck
    who = night.don if is_don else night.sheriff
    name = "Don" if is_don else "Sheriff"
    found: Check | None = None
    for ev in night.events:
        if not isinstance(ev, kind):
            continue
        if found is not None:
            f.violation(ev.t, who, "000 5.8", f"a second {name} check in one night (first stands)", ev.id)
            continue
        if who is not None and who not in night.alive:
            f.violation(
                ev.t,
                who,
                "000 5.6" if is_don else "000 5.7",
                f"the {name} has left but a check was entered",
                ev.id,
            )
            continue
        if is_don:
            answer = (
                "unknown"
                if night.sheriff is None
                else "sheriff"
                if ev.target == night.sheriff
                else "not sheriff"
            )
            signal = "nod" if answer == "sheriff" else "shake" if answer == "not sheriff" else "unknown"
        else:
            if night.black is None:
                answer, signal = "unknown", "unknown"
            else:
                black = ev.target in night.black
                answer = "black" if black else "red"
                if rules.sheriff_signal == "thumb_up_red":
                    signal = "thumb_down" if black else "thumb_up"
                else:
                    signal = "nod" if black else "shake"
        found = Check(ev.t, ev.target, answer, signal)
    return found
