"""From a script to a performance: host marks (keystrokes after the spoken words), every part's track, and
the true hand and head events, to the frame.

Timing conventions (all in ``truth.json``):
- ``hand_down``: ``t_exact`` = the scripted landing; ``frame`` = the first frame at or after it (the hand
  rests there); ``t`` = that frame's media time (what a perfect detector would report).
- ``hand_up``: ``t_exact`` = the moment the hand starts to leave; ``frame`` = the first frame after it.
- ``shot_raise``: ``t_exact`` = the peak of the raised hand; ``frame`` = the nearest frame.
- ``head_up``: ``t_exact`` = the head is fully up; ``frame`` = the first frame at or after it; ``until`` = the
  last frame's time before the head starts down.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tablesim.motion import Track
from tablesim.outcome import HandEvent, Mark
from tablesim.scene import Scene, vote_wrist
from tablesim.script import SPOKEN, Script, ScriptError, SeatAction

LAG_MS = (150.0, 300.0)  # a host's keystroke follows the spoken word by this much
VOTE_TRAVEL = 450.0
VOTE_RETURN = 500.0
SHOT_RISE, SHOT_HOLD, SHOT_FALL = 600.0, 250.0, 650.0
HEAD_MOVE = 300.0
MARKED = ("night", "day", "roles", "speech", "speech_end", "nominate", "vote_call", "vote_stop", "vote_count")
MARKED += ("shot_call", "don_check", "sheriff_check", "foul")


@dataclass
class Performance:
    script: Script
    fps: float
    marks: list[Mark]
    hands: list[HandEvent]
    tracks: dict[tuple[int, str], Track]  # (seat, "right"/"left"/"head")
    nights: list[tuple[float, float]]  # [start, end) of each night (masks on)
    spoken: list[tuple[int, float, str]] = field(default_factory=list)  # (host line index, onset ms, kind)
    reaches: list[dict[str, Any]] = field(default_factory=list)

    def frame_time(self, i: int) -> float:
        return i * 1000.0 / self.fps

    def n_frames(self) -> int:
        return math.floor(self.script.end * self.fps / 1000.0)

    def masked(self, t: float) -> bool:
        return any(a <= t < b for a, b in self.nights)

    def items(self, t: float) -> list[tuple[Any, ...]]:
        out: list[tuple[Any, ...]] = []
        masked = self.masked(t)
        for seat in range(1, self.script.seat_count + 1):
            lift = float(self.tracks[(seat, "head")].at(t).pos[0])
            out.append(("head", seat, lift, masked))
            for hand in ("right", "left"):
                st = self.tracks[(seat, hand)].at(t)
                out.append(("hand", seat, hand == "left", st.pose, st.orient, st.pos))
        return out


def _frame_at_or_after(t: float, fps: float) -> int:
    return math.ceil(t * fps / 1000.0 - 1e-9)


def _frame_after(t: float, fps: float) -> int:
    return math.floor(t * fps / 1000.0 + 1e-9) + 1


def _ms(frame: int, fps: float) -> int:
    return round(frame * 1000.0 / fps)


def plan(script: Script, scene: Scene, fps: float, *, fidget: float = 0.0) -> Performance:
    """The performance of ``script``. ``fidget``: idle shifts of each resting hand per minute (0 = none)."""
    rng = np.random.default_rng([script.seed, 0x1A6])
    marks: list[Mark] = []
    spoken: list[tuple[int, float, str]] = []
    last_call: int | None = None
    for h in script.host:
        onset = float(h.t) if h.kind in SPOKEN else None
        if onset is not None:
            spoken.append((h.index, onset, h.kind))
        if h.kind not in MARKED:
            continue
        t = round(onset + rng.uniform(*LAG_MS)) if onset is not None else h.t
        fields: dict[str, Any] = {}
        if h.kind in ("night", "day"):
            fields["n"] = h.n
        elif h.kind == "roles":
            r = script.roles
            fields = {"don": r.don, "mafia": list(r.mafia), "sheriff": r.sheriff}
        elif h.kind in ("speech", "speech_end"):
            fields["seat"] = h.seat
        elif h.kind == "nominate":
            fields = {"by": h.by, "target": h.target}
        elif h.kind == "vote_call":
            fields = {"round": h.round}
            if h.round != "all":
                fields["candidate"] = h.candidate
            last_call = h.candidate if h.round != "all" else None
        elif h.kind == "vote_count":
            cand = h.candidate if h.candidate is not None else last_call
            fields = {"candidate": cand if cand is not None else "all"}
        elif h.kind in ("shot_call", "don_check", "sheriff_check"):
            fields["target"] = h.target
        elif h.kind == "foul":
            fields = {"seat": h.seat, "reason": h.reason}
        marks.append(Mark(t=t, type=h.kind, id="", fields=fields, line=h.index, onset=onset))
    marks.sort(key=lambda m: (m.t, m.line))
    marks = [Mark(m.t, m.type, f"h{i:04d}", m.fields, m.line, m.onset) for i, m in enumerate(marks, start=1)]

    # nights: masks on from the spoken "night" to the spoken "day"
    phases = [(float(h.t), h.kind) for h in script.host if h.kind in ("night", "day")]
    nights = []
    for i, (t0, kind) in enumerate(phases):
        if kind == "night":
            t1 = next((t for t, k in phases[i + 1 :] if k == "day"), float(script.end) + 1.0)
            nights.append((t0 + 600.0, t1 + 300.0))

    tracks: dict[tuple[int, str], Track] = {}
    for s in scene.seats:
        tracks[(s.seat, "right")] = Track(s.rest_r)
        tracks[(s.seat, "left")] = Track(s.rest_l)
        tracks[(s.seat, "head")] = Track(np.array([1.0]))
    perf = Performance(
        script=script, fps=fps, marks=marks, hands=[], tracks=tracks, nights=nights, spoken=spoken
    )
    _hands(perf, scene, rng)
    _heads(perf, scene)
    if fidget > 0:
        _fidgets(perf, scene, fidget)
    perf.hands.sort(key=lambda e: (e.t, e.seat, e.kind))
    return perf


def _lift_times(script: Script, marks: list[Mark], rng: np.random.Generator) -> dict[int, tuple[float, bool]]:
    """For each vote action (by index): when its hand leaves and whether a script ``lift`` made it leave."""
    out: dict[int, tuple[float, bool]] = {}
    votes = [a for a in script.seats if a.kind == "vote"]
    lifts = [a for a in script.seats if a.kind == "lift"]
    counts = [m for m in marks if m.type == "vote_count"]
    stops = [m for m in marks if m.type == "vote_stop"]
    for v in votes:
        if v.until is not None:
            out[v.index] = (float(v.until), True)
            continue
        after = [c.t for c in counts if c.t > v.t]
        stop_after = [s.t for s in stops if s.t > v.t]
        base = after[0] if after else (stop_after[0] + 1500 if stop_after else v.t + 2500)
        out[v.index] = (float(base) + rng.uniform(400.0, 900.0), False)
    for lift in lifts:
        mine = [v for v in votes if v.seat == lift.seat and v.t < lift.t]
        if not mine or out[mine[-1].index][0] <= lift.t:
            raise ScriptError(
                f"seat {lift.seat} has no hand on the table at {lift.t} ms", field=f"{lift.where}.t"
            )
        out[mine[-1].index] = (float(lift.t), True)
    return out


def _hands(perf: Performance, scene: Scene, rng: np.random.Generator) -> None:
    script, fps = perf.script, perf.fps
    lifts = _lift_times(script, perf.marks, rng)
    counts = [m for m in perf.marks if m.type == "vote_count"]
    for a in sorted(script.seats, key=lambda a: (a.t, a.index)):
        s = scene.seat(a.seat)
        hand = a.hand
        rest = s.rest_l if hand == "left" else s.rest_r
        try:
            if a.kind == "vote":
                tr = perf.tracks[(a.seat, hand)]
                dest = vote_wrist(s, hand == "left")
                orient = "vote" if a.gesture in ("thumb_up", "fist") else "rest"
                tr.go(a.t - VOTE_TRAVEL, a.t, dest, a.gesture, orient, arc=0.05)
                up, _scripted = lifts[a.index]
                tr.go(
                    up,
                    up + VOTE_RETURN,
                    rest,
                    a.gesture,
                    orient,
                    arc=0.03,
                    end_pose="relaxed",
                    end_orient="rest",
                )
                fd = _frame_at_or_after(a.t, fps)
                perf.hands.append(
                    HandEvent("hand_down", a.seat, _ms(fd, fps), float(a.t), fd, gesture=a.gesture)
                )
                fu = _frame_after(up, fps)
                count_after = [c.t for c in counts if c.t > a.t]
                early = bool(count_after) and up < count_after[0]
                note = "lifted before the count" if early else ""
                perf.hands.append(HandEvent("hand_up", a.seat, _ms(fu, fps), up, fu, note=note))
            elif a.kind == "shot":
                tr = perf.tracks[(a.seat, hand)]
                tr.go(a.t - SHOT_RISE, a.t, s.raise_peak, a.gesture, "raise", arc=0.0)
                t_down = a.t + SHOT_HOLD
                tr.go(
                    t_down,
                    t_down + SHOT_FALL,
                    rest,
                    a.gesture,
                    "raise",
                    end_pose="relaxed",
                    end_orient="rest",
                )
                fp = round(a.t * fps / 1000.0)
                perf.hands.append(
                    HandEvent("shot_raise", a.seat, _ms(fp, fps), float(a.t), fp, gesture=a.gesture)
                )
            elif a.kind == "reach":
                nb = scene.seat(a.into or 1)
                toward = nb.zone_centre + (s.zone_centre - nb.zone_centre) * 0.25
                side = "left" if float(np.dot(nb.zone_centre - s.zone_centre, s.lateral)) < 0 else "right"
                tr = perf.tracks[(a.seat, side)]
                home = s.rest_l if side == "left" else s.rest_r
                tr.go(a.t - VOTE_TRAVEL, a.t, toward, "point", "reach", arc=0.05)
                until = float(a.until or a.t + 1000)
                tr.go(
                    until, until + VOTE_RETURN, home, "point", "reach", end_pose="relaxed", end_orient="rest"
                )
                perf.reaches.append({"seat": a.seat, "into": a.into, "t": a.t, "until": a.until})
        except ValueError as e:
            raise ScriptError(
                f"the {hand} hand of seat {a.seat} is busy: {e}", field=f"{a.where}.t"
            ) from None


def _heads(perf: Performance, scene: Scene) -> None:
    script, fps = perf.script, perf.fps
    moves: list[tuple[float, float, float, SeatAction | None, int]] = []  # (t0, t1, lift, action, seat)
    for a, b in perf.nights:
        for s in scene.seats:
            moves.append((a, a + 900.0, 0.0, None, s.seat))
            if b < script.end:
                moves.append((b, b + 900.0, 1.0, None, s.seat))
    for a in script.seats:
        if a.kind in ("peek", "meet"):
            until = float(a.until or a.t + 1000)
            moves.append((a.t - HEAD_MOVE, float(a.t), 1.0, a, a.seat))
            moves.append((until, until + HEAD_MOVE, 0.0, a, a.seat))
            fu = _frame_at_or_after(a.t, fps)
            last = math.floor(until * fps / 1000.0 - 1e-9)
            note = "mafia meeting (night 0)" if a.kind == "meet" else "peek"
            perf.hands.append(
                HandEvent("head_up", a.seat, _ms(fu, fps), float(a.t), fu, until=_ms(last, fps), note=note)
            )
            if a.kind == "meet":
                s = scene.seat(a.seat)
                tr = perf.tracks[(a.seat, "right")]
                there = s.edge + s.inward * 0.12 + np.array([0.0, 0.0, 0.22])
                try:
                    tr.go(a.t + 200.0, a.t + 800.0, there, "point", "gesture")
                    tr.go(
                        until - 900.0,
                        until - 300.0,
                        s.rest_r,
                        "point",
                        "gesture",
                        end_pose="relaxed",
                        end_orient="rest",
                    )
                except ValueError as e:
                    raise ScriptError(
                        f"seat {a.seat}'s right hand is busy: {e}", field=f"{a.where}.t"
                    ) from None
    moves.sort(key=lambda m: (m[4], m[0]))
    for t0, t1, lift, act, seat in moves:
        try:
            perf.tracks[(seat, "head")].go(t0, t1, np.array([lift]), "head", "head")
        except ValueError as e:
            where = f"{act.where}.t" if act else "host"
            raise ScriptError(f"seat {seat}'s head cannot move then: {e}", field=where) from None


FIDGET_MOVE = 400.0
FIDGET_CLEAR = 1200.0  # no fidget this close to a scripted move of the same hand


def _fidgets(perf: Performance, scene: Scene, per_min: float) -> None:
    """Small idle shifts of resting hands (2–4 cm on the table, never into a zone): realistic motion that is
    not an event. Seeded separately, so that they do not change the host's lags or the votes."""
    rng = np.random.default_rng([perf.script.seed, 0xF1D6E7])
    end = float(perf.script.end)
    for s in scene.seats:
        for hand in ("right", "left"):
            tr = perf.tracks[(s.seat, hand)]
            rest = s.rest_l if hand == "left" else s.rest_r
            t = float(rng.exponential(60000.0 / per_min))
            while t < end - 2 * FIDGET_MOVE:
                off = rng.uniform(-0.03, 0.03) * s.lateral + rng.uniform(-0.02, 0.01) * s.inward
                back = t + FIDGET_MOVE + float(rng.uniform(1500.0, 6000.0))
                free = not tr.busy(t - FIDGET_CLEAR, back + FIDGET_MOVE + FIDGET_CLEAR)
                now = tr.at(t)
                idle = now.orient == "rest" and now.pose == "relaxed" and bool(np.allclose(now.pos, rest))
                if free and idle and back + FIDGET_MOVE < end:
                    tr.go(t, t + FIDGET_MOVE, rest + off, "relaxed", "rest")
                    tr.go(back, back + FIDGET_MOVE, rest, "relaxed", "rest")
                t += float(rng.exponential(60000.0 / per_min)) + 2 * FIDGET_MOVE
