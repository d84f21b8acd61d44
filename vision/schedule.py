"""Where to look, and how closely: the analyser's plan over a recording.

Votes and shots happen in a few minutes of an hour-long game. With host marks, the plan is dense (every
frame, every seat) inside each vote window and shooting round, from a little before the call to a
little after the count, and sparse elsewhere. Without marks the whole recording is scanned sparsely
with motion gating, and stretches where many seats move at once are proposed as windows.

The plan is a list of :class:`Stretch` (half-open ``[start, end)`` in media ms) covering the recording
without overlaps. It is pure: the same events and duration give the same plan, so a resumed run picks
up exactly the stretches it had not finished.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gamelog.events import Day, Event, Night, ShotCall, VoteCall, VoteCount, VoteStop

# Margins around marked moments, in ms. A hand may come down the instant the host starts the call, and
# the keystroke for the call may lag the spoken word: start a little before it. Hands must be watched
# until the count (a lift before it is a violation), and a little after the last Спасибо for late votes.
VOTE_LEAD_MS = 1500
VOTE_TAIL_MS = 4000  # after vote_stop when no vote_count follows
COUNT_TAIL_MS = 3000  # after vote_count: hands come off the table in the seconds after the count
SHOT_LEAD_MS = 1500
SHOT_TAIL_MS = 2500  # after the last number's window
SHOT_WINDOW_MS = 1500

DENSE = "dense"
SPARSE = "sparse"


@dataclass(frozen=True)
class Stretch:
    """A stretch of the recording and how it is analysed.

    ``kind`` is ``vote``, ``shooting``, ``night`` or ``idle``.
    """

    start: int
    end: int
    kind: str
    mode: str  # DENSE (every frame) or SPARSE (a few frames a second, motion-gated)

    @property
    def duration(self) -> int:
        return self.end - self.start

    @property
    def key(self) -> str:
        """A stable name for caching this stretch's results across interrupted runs."""
        return f"{self.start:010d}-{self.end:010d}-{self.kind}-{self.mode}"


def _merge(spans: Iterable[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Merge overlapping or touching spans; the first kind in time order names a merged span."""
    out: list[tuple[int, int, str]] = []
    for s, e, k in sorted(spans):
        if out and s <= out[-1][1]:
            ps, pe, pk = out[-1]
            out[-1] = (ps, max(pe, e), pk)
        else:
            out.append((s, e, k))
    return out


def dense_spans(events: Sequence[Event]) -> list[tuple[int, int, str]]:
    """The marked moments that need every frame: vote windows up to their count, and shooting rounds."""
    evs = sorted(events, key=lambda e: e.t)
    spans: list[tuple[int, int, str]] = []
    for i, ev in enumerate(evs):
        if isinstance(ev, VoteCall):
            end = None
            stop_t = None
            for later in evs[i + 1 :]:
                if isinstance(later, VoteStop) and stop_t is None:
                    stop_t = later.t
                elif isinstance(later, VoteCount) and stop_t is not None:
                    end = later.t + COUNT_TAIL_MS
                    break
                if isinstance(later, VoteCall | Night | Day) and later.t > ev.t:
                    end = later.t
                    break
            if stop_t is not None:
                tail = stop_t + VOTE_TAIL_MS
                end = tail if end is None else max(min(end, stop_t + 15000), stop_t + 1000)
            elif end is None:
                end = ev.t + 10000
            spans.append((max(0, ev.t - VOTE_LEAD_MS), end, "vote"))
    calls = [e for e in evs if isinstance(e, ShotCall)]
    # A shooting round is a run of number calls no more than a few seconds apart.
    round_start: int | None = None
    last = -(10**9)
    for c in calls:
        if round_start is None or c.t - last > 6000:
            if round_start is not None:
                spans.append(
                    (max(0, round_start - SHOT_LEAD_MS), last + SHOT_WINDOW_MS + SHOT_TAIL_MS, "shooting")
                )
            round_start = c.t
        last = c.t
    if round_start is not None:
        spans.append((max(0, round_start - SHOT_LEAD_MS), last + SHOT_WINDOW_MS + SHOT_TAIL_MS, "shooting"))
    return _merge(spans)


def night_spans(events: Sequence[Event], duration: int) -> list[tuple[int, int]]:
    """From each night start to the next day start (or the end): where heads must stay down."""
    evs = sorted((e for e in events if isinstance(e, Night | Day)), key=lambda e: e.t)
    out: list[tuple[int, int]] = []
    start: int | None = None
    for ev in evs:
        if isinstance(ev, Night) and start is None:
            start = ev.t
        elif isinstance(ev, Day) and start is not None:
            out.append((start, ev.t))
            start = None
    if start is not None:
        out.append((start, duration))
    return out


def plan(events: Sequence[Event], duration: int, *, have_marks: bool | None = None) -> list[Stretch]:
    """Cover ``[0, duration)`` with stretches: dense where marks say something happens, sparse elsewhere."""
    if duration <= 0:
        return []
    marked = dense_spans(events)
    if have_marks is None:
        have_marks = bool(marked)
    nights = night_spans(events, duration)
    out: list[Stretch] = []
    cursor = 0
    for s, e, k in marked:
        s, e = max(0, s), min(duration, e)
        if e <= cursor or s >= duration:
            continue
        s = max(s, cursor)
        if s > cursor:
            out.extend(_sparse(cursor, s, nights))
        out.append(Stretch(s, e, k, DENSE))
        cursor = e
    if cursor < duration:
        out.extend(_sparse(cursor, duration, nights))
    return out


def _sparse(start: int, end: int, nights: list[tuple[int, int]]) -> list[Stretch]:
    """Split a sparse stretch at night boundaries, so night watch can treat night stretches differently."""
    cuts = {start, end}
    for ns, ne in nights:
        for c in (ns, ne):
            if start < c < end:
                cuts.add(c)
    points = sorted(cuts)
    out = []
    for a, b in itertools.pairwise(points):
        mid = (a + b) // 2
        kind = "night" if any(ns <= mid < ne for ns, ne in nights) else "idle"
        out.append(Stretch(a, b, kind, SPARSE))
    return out


def split_for_workers(stretches: Sequence[Stretch], max_ms: int = 60_000) -> list[Stretch]:
    """Cut long stretches into pieces of at most ``max_ms`` so two workers share the load evenly.

    Dense stretches are never cut: a vote window's hands must be followed by one tracker from the call to
    the count.
    """
    out: list[Stretch] = []
    for st in stretches:
        if st.mode == DENSE or st.duration <= max_ms:
            out.append(st)
            continue
        a = st.start
        while a < st.end:
            b = min(st.end, a + max_ms)
            out.append(Stretch(a, b, st.kind, st.mode))
            a = b
    return out
