"""What the review window shows, computed from a bundle without Qt: markers per lane, vote rounds with
each voter's timing against "Спасибо", night events, protests, and the referee's state.

:func:`build_review` loads the bundle, runs the referee and derives everything the panels, the timeline
and the overlays need, as frozen dataclasses. It is pure (apart from reading the bundle) and runs on a
worker thread; the widgets only read its result.

Lanes: ``0`` is the host (calls, "Спасибо" keystrokes and voice onsets, phases), ``1…10`` the seats.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gamelog.bundle import Bundle, load_bundle
from gamelog.events import (
    Confirm,
    Day,
    Decision,
    Event,
    Foul,
    HandDown,
    HandUp,
    HeadUp,
    Night,
    NightMotion,
    Nominate,
    Protest,
    Shot,
    ShotCall,
    ShotRaise,
    Speech,
    SpeechOnset,
    Void,
    Vote,
    VoteCall,
    VoteCount,
    VoteStop,
)
from gamelog.findings_ru import localized
from gamelog.fusion import LATE_MS, build_windows
from gamelog.referee import referee_bundle
from gamelog.rules import rules_for

HOST_LANE = 0
JSON = dict[str, Any]

# marker kinds (also the keys of the "next event of a kind" filter)
KINDS = (
    "vote",
    "lift",
    "shot",
    "head_up",
    "foul",
    "review",
    "call",
    "stop",
    "onset",
    "nominate",
    "phase",
    "judge",
)


@dataclass(frozen=True)
class Marker:
    """One thing on the swimlane timeline. ``until`` > ``t`` for spans (head up, speech)."""

    t: int
    lane: int
    kind: str
    label: str
    ref: str | None = None
    until: int | None = None
    voided: bool = False

    def text(self, lang: str) -> str:
        """The label as a judge reads it: a referee finding ("review") in the window's language."""
        return localized(self.label, lang) if self.kind == "review" else self.label


@dataclass(frozen=True)
class Landing:
    """A hand that landed on a seat's table zone during a vote window."""

    seat: int
    t: int
    delta_ms: int  # t - close time: negative = before "Спасибо" (counts), >= 0 = late
    gesture: str
    conf: float
    ref: str | None
    box: tuple[float, float, float, float] | None
    voided: bool = False


@dataclass(frozen=True)
class RoundView:
    """One vote round: the referee's verdict joined with the window's timing."""

    day: int
    round: str
    candidate: int | str
    call_t: int
    close_t: int
    keystroke_t: int
    end_t: int
    stop_ref: str | None
    onset_t: int | None
    voters: tuple[int, ...]
    late: tuple[int, ...]
    defaulted: tuple[int, ...]
    source: str
    count: int
    announced: int | None
    landings: tuple[Landing, ...]

    @property
    def label(self) -> str:
        return f"{self.round} → {self.candidate}"


@dataclass(frozen=True)
class NightItem:
    t: int
    until: int
    seat: int
    kind: str  # "head_up" | night_motion kind | "shot_raise"
    conf: float
    ref: str | None
    departed: bool = False  # the seat had left the table before this night: shown, not a finding


@dataclass(frozen=True)
class NightView:
    night: int
    from_t: int
    to_t: int
    shots: JSON
    killed: int | None
    miss: bool
    items: tuple[NightItem, ...]


@dataclass(frozen=True)
class ProtestView:
    """A protest, its decisions, and the referee's state without the judge events written after it."""

    protest: Protest
    decisions: tuple[Decision, ...]
    before: JSON

    @property
    def decided(self) -> bool:
        return bool(self.decisions)


@dataclass(frozen=True)
class ReviewData:
    path: Path
    bundle: Bundle
    state: JSON
    markers: tuple[Marker, ...]
    rounds: tuple[RoundView, ...]
    nights: tuple[NightView, ...]
    protests: tuple[ProtestView, ...]
    voided: frozenset[str]
    confirmed: frozenset[str]

    @property
    def seats(self) -> tuple[int, ...]:
        return self.bundle.game.seats

    def event(self, ref: str) -> Event | None:
        for ev in self.bundle.events:
            if ev.id == ref:
                return ev
        return None

    def round_at(self, t: int) -> RoundView | None:
        """The vote round whose window (call to late limit) holds ``t``."""
        for r in self.rounds:
            if r.call_t <= t <= max(r.close_t + LATE_MS, r.keystroke_t):
                return r
        return None


def build_review(path: str | Path) -> ReviewData:
    bundle = load_bundle(path)
    state = referee_bundle(bundle).to_json()
    return derive(bundle, state)


def derive(bundle: Bundle, state: JSON) -> ReviewData:
    events = bundle.events
    voided = _voided(events)
    live = [e for e in events if not (e.id is not None and e.id in voided)]
    confirmed = frozenset(e.ref for e in live if isinstance(e, Confirm))
    markers = _markers(events, voided, state)
    rounds = _rounds(bundle, live, state, voided)
    nights = _nights(live, state)
    protests = _protests(bundle)
    return ReviewData(bundle.path, bundle, state, markers, rounds, nights, protests, voided, confirmed)


def _voided(events: Sequence[Event]) -> frozenset[str]:
    """Refs voided by a void that is not itself voided (one level is what judges use)."""
    voids = [e for e in events if isinstance(e, Void)]
    void_ids = {v.id for v in voids if v.id is not None}
    undone = {v.ref for v in voids if v.ref in void_ids}
    return frozenset(v.ref for v in voids if v.id is None or v.id not in undone)


def _marker(ev: Event) -> tuple[int | None, str, str, int | None] | None:
    """(lane, kind, label, until) of an event, or None when it is not drawn."""
    seat: int | None = getattr(ev, "seat", None)
    judge = ev.src == "judge"
    if isinstance(ev, HandDown):
        return seat, "vote", ev.gesture, None
    if isinstance(ev, HandUp):
        return seat, "lift", "up", None
    if isinstance(ev, ShotRaise):
        return seat, "shot", ev.gesture, None
    if isinstance(ev, HeadUp):
        return seat, "head_up", "head", ev.until
    if isinstance(ev, NightMotion):
        return seat, "head_up", ev.kind, ev.until
    if isinstance(ev, Foul):
        return seat, "foul", ev.reason or "foul", None
    if isinstance(ev, Vote):
        return seat, "judge" if judge else "vote", f"→{ev.candidate}", None
    if isinstance(ev, Shot):
        return seat, "judge" if judge else "shot", f"→{ev.target}", None
    if isinstance(ev, VoteCall):
        return HOST_LANE, "call", f"{ev.round} {ev.candidate or 'all'}", None
    if isinstance(ev, VoteStop):
        return HOST_LANE, "stop", "Спасибо" + (" (judge)" if judge else ""), None
    if isinstance(ev, SpeechOnset):
        return HOST_LANE, "onset", "voice", None
    if isinstance(ev, ShotCall):
        return HOST_LANE, "call", f"#{ev.target}", None
    if isinstance(ev, Night | Day):
        return HOST_LANE, "phase", f"{ev.TYPE} {ev.n}", None
    if isinstance(ev, Nominate):
        return ev.by, "nominate", f"→{ev.target}", None
    if isinstance(ev, Void | Confirm | Protest | Decision):
        return HOST_LANE, "judge", ev.TYPE, None
    return None


def _markers(events: Sequence[Event], voided: frozenset[str], state: JSON) -> tuple[Marker, ...]:
    out: list[Marker] = []
    speech_from: dict[int, int] = {}
    for ev in events:
        if isinstance(ev, Speech):
            speech_from[ev.seat] = ev.t
        m = _marker(ev)
        if m is None:
            continue
        lane, kind, label, until = m
        if lane is None:
            continue
        out.append(Marker(ev.t, int(lane), kind, label, ev.id, until, ev.id is not None and ev.id in voided))
    for item in state.get("needs_review", []):
        seat = item.get("seat")
        out.append(
            Marker(int(item["t"]), int(seat) if seat else HOST_LANE, "review", item["what"], item.get("ref"))
        )
    out.sort(key=lambda m: (m.t, m.lane, m.kind))
    return tuple(out)


def _phase_ends(events: Sequence[Event]) -> list[int]:
    return sorted(e.t for e in events if isinstance(e, Night | Day))


def _rounds(
    bundle: Bundle, live: Sequence[Event], state: JSON, voided: frozenset[str]
) -> tuple[RoundView, ...]:
    game = bundle.game
    rules = rules_for(game.rules, dict(game.rule_options) or None)
    calls = [e for e in live if isinstance(e, VoteCall)]
    stops = [e for e in live if isinstance(e, VoteStop)]
    onsets = [e for e in live if isinstance(e, SpeechOnset)]
    counts = [e for e in live if isinstance(e, VoteCount)]
    marks = _phase_ends(live)
    last_t = max((e.t for e in live), default=0) + 60_000
    verdicts: dict[int, tuple[int, JSON]] = {}
    for day in state.get("days", []):
        for v in day.get("votes", []):
            if "t" in v:
                verdicts[int(v["t"])] = (int(day["day"]), v)
    hands = [e for e in bundle.events if isinstance(e, HandDown)]  # voided ones too, marked in the panel
    day_marks = sorted((e.t, e.n) for e in live if isinstance(e, Day))

    def days_before(t: int) -> int:
        return max((n for dt, n in day_marks if dt <= t), default=0)

    out: list[RoundView] = []
    by_call: dict[int, list[VoteCall]] = {}
    for c in calls:  # windows are built per phase, as the referee does
        end = next((m for m in marks if m > c.t), last_t)
        by_call.setdefault(end, []).append(c)
    for end, group in sorted(by_call.items()):
        for w in build_windows(group, stops, onsets, counts, end, rules):
            day, v = verdicts.get(w.call.t, (days_before(w.call.t), {}))
            landed = [
                Landing(
                    h.seat,
                    h.t,
                    h.t - w.close_t,
                    h.gesture,
                    h.conf,
                    h.id,
                    (h.box[0], h.box[1], h.box[2], h.box[3]) if h.box is not None else None,
                    h.id is not None and h.id in voided,
                )
                for h in hands
                if w.call.t < h.t < w.late_until
            ]
            out.append(
                RoundView(
                    day=day,
                    round=w.call.round,
                    candidate=w.candidate,
                    call_t=w.call.t,
                    close_t=w.close_t,
                    keystroke_t=w.keystroke_t,
                    end_t=w.end_t,
                    stop_ref=w.stop.id if w.stop is not None else None,
                    onset_t=w.onset.t if w.onset is not None else None,
                    voters=tuple(v.get("voters", ())),
                    late=tuple(v.get("late", ())),
                    defaulted=tuple(v.get("defaulted", ())),
                    source=str(v.get("source", "")),
                    count=int(v.get("count", len(v.get("voters", ())))),
                    announced=v.get("announced"),
                    landings=tuple(landed),
                )
            )
    out.sort(key=lambda r: r.call_t)
    return tuple(out)


def _departed_before_night(state: JSON, n: int, t0: int) -> frozenset[int]:
    """Seats that left the table before night ``n`` (starting at ``t0``): voted out on days 1..n, killed
    on nights before n, removed before ``t0``."""
    gone: set[int] = set()
    for day in state.get("days", []):
        if int(day.get("day", 0)) <= n:
            gone.update(int(s) for s in day.get("eliminated", []))
    for night in state.get("nights", []):
        if int(night.get("night", 0)) < n and night.get("killed") is not None:
            gone.add(int(night["killed"]))
    for r in state.get("removed", []):
        if r.get("t") is not None and int(r["t"]) < t0:
            gone.add(int(r["seat"]))
    return frozenset(gone)


def _nights(live: Sequence[Event], state: JSON) -> tuple[NightView, ...]:
    starts = {e.n: e.t for e in live if isinstance(e, Night)}
    marks = _phase_ends(live)
    # a night with no later phase mark (the log ends at night) runs to just past its last event
    last_t = max((e.t for e in live), default=0) + 1
    out: list[NightView] = []
    for night in state.get("nights", []):
        n = int(night["night"])
        t0 = starts.get(n)
        if t0 is None:
            continue
        t1 = next((m for m in marks if m > t0), last_t)
        gone = _departed_before_night(state, n, t0)
        items = [
            NightItem(
                e.t,
                e.until,
                e.seat,
                "head_up" if isinstance(e, HeadUp) else e.kind,
                e.conf,
                e.id,
                e.seat in gone,
            )
            for e in live
            if isinstance(e, HeadUp | NightMotion) and t0 <= e.t < t1
        ]
        items += [
            NightItem(e.t, e.t, e.seat, "shot_raise", e.conf, e.id, e.seat in gone)
            for e in live
            if isinstance(e, ShotRaise) and t0 <= e.t < t1
        ]
        items.sort(key=lambda i: (i.departed, i.seat, i.t))
        out.append(
            NightView(
                n,
                t0,
                t1,
                dict(night.get("shots", {})),
                night.get("killed"),
                bool(night.get("miss")),
                tuple(items),
            )
        )
    return tuple(out)


def _protests(bundle: Bundle) -> tuple[ProtestView, ...]:
    events = bundle.events
    decisions: dict[str, list[Decision]] = {}
    for e in events:
        if isinstance(e, Decision):
            decisions.setdefault(e.protest, []).append(e)
    lines = list(bundle.origins) if len(bundle.origins) == len(events) else [("", 0)] * len(events)
    out: list[ProtestView] = []
    for k, e in enumerate(events):
        if not isinstance(e, Protest):
            continue
        filed_at = lines[k]
        later = {
            i
            for i, (ev, where) in enumerate(zip(events, lines, strict=True))
            if ev.src == "judge" and where[0] == filed_at[0] and where[1] > filed_at[1]
        }
        kept = [ev for i, ev in enumerate(events) if i not in later]
        before = referee_bundle(dataclasses.replace(bundle, events=tuple(kept))).to_json()
        out.append(ProtestView(e, tuple(decisions.get(e.protest, ())), before))
    return tuple(out)


def next_marker(
    markers: Sequence[Marker],
    t: int,
    direction: int,
    *,
    kind: str | None = None,
    lane: int | None = None,
) -> Marker | None:
    """The nearest marker strictly after (``direction`` > 0) or before ``t``, optionally of one kind/lane."""
    picks = [
        m
        for m in markers
        if (kind is None or m.kind == kind) and (lane is None or m.lane == lane) and not m.voided
    ]
    if direction > 0:
        return next((m for m in picks if m.t > t), None)
    return next((m for m in reversed(picks) if m.t < t), None)


def outcome_lines(state: JSON) -> list[str]:
    """A short, comparable summary of the outcome: each round's count, who left, fouls, the winner."""
    lines: list[str] = []
    for day in state.get("days", []):
        for v in day.get("votes", []):
            lines.append(
                f"day {day['day']} {v['round']} →{v['candidate']}: {len(v.get('voters', []))} "
                f"[{', '.join(str(s) for s in v.get('voters', []))}]"
                + (f" late {v['late']}" if v.get("late") else "")
            )
        lines.append(f"day {day['day']} eliminated: {day.get('eliminated', [])}")
    for night in state.get("nights", []):
        lines.append(f"night {night['night']} killed: {night.get('killed')}")
    if state.get("fouls"):
        lines.append(f"fouls: {state['fouls']}")
    lines.append(f"winner: {state.get('winner')}")
    return lines


def outcome_changes(before: JSON, after: JSON) -> list[tuple[str, str]]:
    """Lines of the outcome that differ, as (before, after) pairs ('' where a line is new or gone)."""
    a, b = outcome_lines(before), outcome_lines(after)
    out: list[tuple[str, str]] = []
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else ""
        y = b[i] if i < len(b) else ""
        if x != y:
            out.append((x, y))
    return out
