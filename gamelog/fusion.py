"""Vision fusion: from host marks and hand detections to the votes of one window (CONTRACT.md).

A vote window runs from a ``vote_call`` to its ``vote_stop``; it closes at the ``speech_onset`` of
that stop when the audio analyser found one, else at the stop's own ``t`` (:func:`build_windows`).
A ``hand_down`` that *arrives* (the seat's hand was not already resting on the table) at or after the
call and strictly before the close is a vote; one arriving at or after the close (until the next
call, the count, or ``LATE_MS`` later) is late. A ``hand_up`` of a counted voter before the host's
count (or the next call) is a hand lift. :func:`live_vote_check` is the cheap version for the record
console: the vision count of the window that has just closed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from gamelog.events import Event, HandDown, HandUp, SpeechOnset, VoteCall, VoteCount, VoteStop, sort_key
from gamelog.rules import RuleSet

LATE_MS = 1500  # how long after the close a landing hand is still read as a late vote
# A hand seen landing this close to the spoken "Спасибо" may have touched the table in the frame before or
# the frame after the one it was first seen down in: one frame at 25 fps, the slowest rate a club camera
# records. The camera cannot settle such a vote; the referee rules it by the strict rule (CONTRACT) and lists
# it for the judge. (Noisy BB 3305, seat 5: the hand touched 5 ms after the onset and was seen down in the
# frame 3 ms before it; 47 of noisy BB's 300 votes were first seen one frame before the touch.)
CLOSE_CALL_MS = 40
VOTING_GESTURES = ("thumb_up", "fist")


@dataclass(frozen=True)
class VoteWindow:
    """One vote window. ``end_t`` bounds late hands and hand lifts (next call or phase end)."""

    call: VoteCall
    stop: VoteStop | None
    onset: SpeechOnset | None
    close_t: int
    keystroke_t: int
    end_t: int
    count: VoteCount | None

    @property
    def candidate(self) -> int | str:
        return "all" if self.call.candidate is None else self.call.candidate

    @property
    def late_until(self) -> int:
        limit = min(self.end_t, self.close_t + LATE_MS)
        if self.count is not None and self.count.t > self.close_t:
            limit = min(limit, self.count.t)
        return limit

    @property
    def lift_until(self) -> int:
        """Hands must stay down until the host announces the count (000 4.7)."""
        if self.count is not None:
            return self.count.t
        return self.end_t


def build_windows(
    calls: Sequence[VoteCall],
    stops: Sequence[VoteStop],
    onsets: Iterable[SpeechOnset],
    counts: Sequence[VoteCount],
    phase_end: int,
    rules: RuleSet,
) -> list[VoteWindow]:
    """Pair every call with its stop: the first judge stop in ``(call, next call]``, else the first host
    stop; with none, the window closes ``vote_window_ms`` after the call (reported by the caller)."""
    by_ref: dict[str, SpeechOnset] = {}
    for o in onsets:
        old = by_ref.get(o.ref)
        if old is None or (o.conf, -o.t) > (old.conf, -old.t):
            by_ref[o.ref] = o
    ordered = sorted(calls, key=sort_key)
    out: list[VoteWindow] = []
    for i, call in enumerate(ordered):
        nxt = ordered[i + 1].t if i + 1 < len(ordered) else phase_end
        mine = [s for s in stops if call.t < s.t <= nxt]
        judge = [s for s in mine if s.src == "judge"]
        pick = min(judge or mine, key=sort_key) if mine else None
        onset = by_ref.get(pick.id) if pick is not None and pick.id is not None else None
        keystroke = min(call.t + rules.vote_window_ms, nxt) if pick is None else pick.t
        close = onset.t if onset is not None and call.t < onset.t <= keystroke else keystroke
        cand = "all" if call.candidate is None else call.candidate
        cnt = [c for c in counts if call.t < c.t <= nxt and c.candidate == cand]
        out.append(
            VoteWindow(call, pick, onset, close, keystroke, nxt, min(cnt, key=sort_key) if cnt else None)
        )
    return out


@dataclass(frozen=True)
class HandVote:
    seat: int
    down: HandDown
    lift: HandUp | None = None  # the hand left the table before the count
    lift_before_close: bool = False


@dataclass(frozen=True)
class VisionReading:
    """What the camera saw in one window: counted votes and late landings, by seat."""

    votes: Mapping[int, HandVote]
    late: Mapping[int, HandDown]


def reach(ev: HandDown | HandUp) -> bool:
    """A hand the analyser saw in another seat's table zone (``zone_seat``): a player's arm reaching into a
    neighbour's zone. It is not a vote on the player's own zone, nor the zone's player's vote."""
    zone = ev.extra.get("zone_seat")
    return isinstance(zone, int) and zone != ev.seat


def hand_tracks(events: Iterable[Event]) -> dict[int, list[HandDown | HandUp]]:
    """Per seat, its hand_down / hand_up events in time order (reaches into other zones left out)."""
    tracks: dict[int, list[HandDown | HandUp]] = {}
    hands = (e for e in events if isinstance(e, HandDown | HandUp) and not reach(e))
    for ev in sorted(hands, key=_hand_key):
        tracks.setdefault(ev.seat, []).append(ev)
    return tracks


def _hand_key(ev: HandDown | HandUp) -> tuple[int, int, str, float]:
    # At one t a hand_up sorts before a hand_down: the hand left and came back.
    return (ev.t, 0 if isinstance(ev, HandUp) else 1, ev.id or "", ev.conf)


def arrivals(track: Sequence[HandDown | HandUp]) -> list[HandDown]:
    """The hand_downs that are a new landing: the first, and each one after a hand_up. A second
    hand_down while the hand is still resting (a re-detection) is not a new vote."""
    out: list[HandDown] = []
    resting = False
    for ev in track:
        if isinstance(ev, HandUp):
            resting = False
        elif not resting:
            out.append(ev)
            resting = True
    return out


@dataclass(frozen=True)
class Touch:
    """A hand seen in a seat's zone during a vote that is set aside as not the seat's vote: it never showed
    the voting fist, it was gone before the close ("Спасибо"), and the same seat then put a fist down later
    in the same round (``then``). Most often a neighbour's reach or a gesture over the table, read as the
    zone's player when the arm's owner could not be told; a judge is asked to check it."""

    seat: int
    down: HandDown
    up: HandUp
    then: HandDown


def set_aside_touches(
    window: VoteWindow, tracks: Mapping[int, Sequence[HandDown | HandUp]], until: int
) -> tuple[dict[int, list[HandDown | HandUp]], list[Touch]]:
    """``tracks`` without the :class:`Touch` landings of ``window`` (each with its ``hand_up``), and those
    touches. ``until`` ends the round: a fist landing by the same seat before it is what makes a touch."""
    out: dict[int, list[HandDown | HandUp]] = {}
    touches: list[Touch] = []
    for seat, track in tracks.items():
        kept = list(track)
        for down in arrivals(track):
            if not (window.call.t <= down.t < window.close_t) or down.gesture in VOTING_GESTURES:
                continue
            i = kept.index(down) if down in kept else -1
            j = next((k for k in range(i + 1, len(kept)) if isinstance(kept[k], HandUp)), None)
            if i < 0 or j is None:
                continue
            up = kept[j]
            assert isinstance(up, HandUp)
            if up.t >= window.close_t or any(
                isinstance(e, HandDown) and e.gesture in VOTING_GESTURES for e in kept[i + 1 : j]
            ):
                continue
            then = next(
                (e for e in arrivals(kept[j + 1 :]) if e.gesture in VOTING_GESTURES and e.t < until),
                None,
            )
            if then is None:
                continue
            touches.append(Touch(seat, down, up, then))
            kept = kept[:i] + kept[j + 1 :]
        out[seat] = kept
    return out, touches


def read_window(
    window: VoteWindow,
    tracks: Mapping[int, Sequence[HandDown | HandUp]],
    seats: Iterable[int],
    *,
    close_t: int | None = None,
) -> VisionReading:
    """The vision votes of ``window`` among ``seats`` (those who may vote), closing at ``close_t``."""
    close = window.close_t if close_t is None else close_t
    votes: dict[int, HandVote] = {}
    late: dict[int, HandDown] = {}
    for seat in seats:
        track = tracks.get(seat, ())
        for down in arrivals(track):
            if window.call.t <= down.t < close and seat not in votes:
                lift = next(
                    (u for u in track if isinstance(u, HandUp) and down.t < u.t and u.t < window.lift_until),
                    None,
                )
                votes[seat] = HandVote(seat, down, lift, lift is not None and lift.t < close)
            elif close <= down.t < window.late_until and seat not in votes and seat not in late:
                late[seat] = down
    return VisionReading(votes, late)


@dataclass(frozen=True)
class LiveCount:
    """The vision count of the window that closed last (for the host's live check)."""

    candidate: int | str
    count: int
    voters: tuple[int, ...]
    late: tuple[int, ...]
    call_t: int
    close_t: int


def live_vote_check(
    events: Iterable[Event], *, rules: RuleSet, seats: Iterable[int], upto_t: int
) -> LiveCount | None:
    """The vision count of the last vote window closed at or before ``upto_t`` (None: no window yet).

    Cheap: it looks only at the marks and hands of that window, not at the whole game.
    """
    horizon = upto_t + LATE_MS
    calls: list[VoteCall] = []
    stops: list[VoteStop] = []
    onsets: list[SpeechOnset] = []
    counts: list[VoteCount] = []
    hands: list[HandDown | HandUp] = []
    for e in events:  # one pass, no sorting of the whole log
        if e.t > horizon:
            continue
        if isinstance(e, HandDown | HandUp):
            if e.t <= upto_t:
                hands.append(e)
        elif isinstance(e, VoteCall):
            if e.t <= upto_t:
                calls.append(e)
        elif isinstance(e, VoteStop):
            if e.t <= upto_t:
                stops.append(e)
        elif isinstance(e, SpeechOnset):
            onsets.append(e)
        elif isinstance(e, VoteCount):
            counts.append(e)
    if not calls:
        return None
    last_call = max(calls, key=sort_key)
    prev = [c for c in calls if c.t < last_call.t]
    calls = [max(prev, key=sort_key), last_call] if prev else [last_call]
    windows = build_windows(calls, stops, onsets, counts, horizon, rules)
    closed = [w for w in windows if w.stop is not None and w.close_t <= upto_t]
    if not closed:
        return None
    w = closed[-1]
    # Only the hands of this window matter, plus each seat's last hand event before it (still resting?).
    before: dict[int, HandDown | HandUp] = {}
    recent: list[HandDown | HandUp] = []
    for h in hands:
        if h.t >= w.call.t:
            recent.append(h)
        elif h.seat not in before or _hand_key(h) > _hand_key(before[h.seat]):
            before[h.seat] = h
    reading = read_window(w, hand_tracks([*before.values(), *recent]), seats)
    late = tuple(sorted(s for s, d in reading.late.items() if d.t <= upto_t))
    voters = tuple(sorted(reading.votes))
    return LiveCount(w.candidate, len(voters), voters, late, w.call.t, w.close_t)
