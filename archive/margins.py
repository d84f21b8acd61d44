"""How close each vision vote came to its window's close: the margin a vote dispute turns on.

For every vote window of every day (the same windows the referee reads, built by
:func:`gamelog.fusion.build_windows` from the day's ``vote_call`` / ``vote_stop`` / ``vote_count`` and
the ``speech_onset`` of each stop, after judge voids), every hand that :func:`gamelog.fusion.read_window`
reads as a vote gives one :class:`Margin`:

    margin_ms = close_t - hand_down.t

``close_t`` is the window's closing time: the spoken "Спасибо" (``speech_onset``) when the audio
analyser found it, else the ``vote_stop`` keystroke. A vote is always strictly before the close, so its
margin is at least 1 ms. Hands that landed at or after the close (late, not counted) are listed too, with
``late=True`` and a margin of zero or less (how long *after* the close they landed, negated).

``counted`` says whether the referee counted that vision vote: the window's round has ``source ==
"vision"`` in the referee's state and the seat is among its ``voters`` but not ``defaulted``. Where the
host or a judge entered the votes of a window, vision is only compared, so its margins are kept with
``counted=False``. The catalogue's ``min_vote_margin_ms`` is the smallest margin of a counted vote.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gamelog.events import Day, Event, Night, SpeechOnset, VoteCall, VoteCount, VoteStop
from gamelog.exports.facts import live_events
from gamelog.fusion import build_windows, hand_tracks, read_window
from gamelog.rules import RuleSet


@dataclass(frozen=True)
class Margin:
    t: int  # the hand_down
    seat: int
    candidate: int | str
    call_t: int
    close_t: int
    margin_ms: int  # close_t - t: > 0 for a vote, <= 0 for a late landing
    counted: bool
    late: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "t": self.t,
            "seat": self.seat,
            "candidate": self.candidate,
            "call_t": self.call_t,
            "close_t": self.close_t,
            "margin_ms": self.margin_ms,
            "counted": self.counted,
            "late": self.late,
        }


def _day_spans(evs: Sequence[Event]) -> list[tuple[int, int]]:
    """(start, end) of every day: from its ``day`` mark to the next ``day`` / ``night`` mark."""
    marks = [e for e in evs if isinstance(e, Day | Night)]
    end_all = (evs[-1].t + 1) if evs else 0
    out: list[tuple[int, int]] = []
    for i, m in enumerate(marks):
        if isinstance(m, Day):
            end = marks[i + 1].t if i + 1 < len(marks) else max(end_all, m.t + 1)
            out.append((m.t, end))
    return out


def _counted(state: Mapping[str, Any]) -> dict[int, set[int]]:
    """call t -> seats whose vision vote the referee counted."""
    out: dict[int, set[int]] = {}
    for day in state.get("days", []):
        for rnd in day.get("votes", []):
            if rnd.get("source") != "vision" or not isinstance(rnd.get("t"), int):
                continue
            defaulted = set(rnd.get("defaulted", []))
            out[rnd["t"]] = {s for s in rnd.get("voters", []) if s not in defaulted}
    return out


def vote_margins(
    events: Sequence[Event], state: Mapping[str, Any], rules: RuleSet, seats: Sequence[int]
) -> list[Margin]:
    """Every vision-read vote and late landing with its margin, in time order."""
    evs = live_events(events)
    tracks = hand_tracks(evs)
    if not tracks:
        return []
    counted = _counted(state)
    onsets = [e for e in evs if isinstance(e, SpeechOnset)]
    out: list[Margin] = []
    for start, end in _day_spans(evs):
        inside = [e for e in evs if start <= e.t < end]
        calls = [e for e in inside if isinstance(e, VoteCall)]
        stops = [e for e in inside if isinstance(e, VoteStop)]
        counts = [e for e in inside if isinstance(e, VoteCount)]
        stop_ids = {s.id for s in stops if s.id is not None}
        mine = [o for o in onsets if o.ref in stop_ids]
        for w in build_windows(calls, stops, mine, counts, end, rules):
            if w.stop is None:
                continue  # no "Спасибо" at all: nothing to measure against
            reading = read_window(w, tracks, seats)
            took = counted.get(w.call.t, set())
            for seat, hv in reading.votes.items():
                margin = w.close_t - hv.down.t
                out.append(
                    Margin(hv.down.t, seat, w.candidate, w.call.t, w.close_t, margin, seat in took, False)
                )
            for seat, down in reading.late.items():
                out.append(
                    Margin(down.t, seat, w.candidate, w.call.t, w.close_t, w.close_t - down.t, False, True)
                )
    out.sort(key=lambda m: (m.t, m.seat))
    return out


def smallest_counted(margins: Sequence[Margin]) -> int | None:
    values = [m.margin_ms for m in margins if m.counted and not m.late]
    return min(values) if values else None
