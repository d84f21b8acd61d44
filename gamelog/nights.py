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

from gamelog.events import DonCheck, Event, SheriffCheck, Shot, ShotCall, ShotRaise, sort_key
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
        hit = next((c.target for start, end, c in windows if start <= r.t < end), None)
        if hit is None:
            if first <= r.t < last_end:
                between.add(r.seat)
                f.violation(r.t, r.seat, "003 subtleties", "shot between two called numbers (a miss)", r.id)
            continue
        shots.setdefault(r.seat, []).append(hit)
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
    black_alive = night.black & night.alive if night.black is not None else frozenset(shots)
    targets = {t for s in black_alive for t in shots.get(s, [])}
    kill = (
        bool(black_alive)
        and all(len(shots.get(s, [])) == 1 for s in black_alive)
        and len(targets) == 1
        and not (between & black_alive)
    )
    killed = next(iter(targets)) if kill else None
    if killed is not None and killed not in night.alive:
        killed = None
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
