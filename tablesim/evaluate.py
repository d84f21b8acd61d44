"""Score vision events against a synthetic game's true hand events.

Matching is per seat and kind: a detected event matches the nearest unmatched true event of the same seat
and kind within ``tolerance_ms``. Reports true/false positives, misses, and each match's timing error in
frames. Used by the accuracy benchmarks and their tests.

A hand seen in another seat's table zone (a ``hand_down`` / ``hand_up`` with ``zone_seat`` other than its
``seat``) is a neighbour reaching across, not a landing on the player's own zone: it is scored as kind
``reach`` against the truth's ``reaches``, never as a vote.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from gamelog.events import Event, HandDown, HandUp, ShotRaise
from gamelog.fusion import reach

KINDS = ("hand_down", "hand_up", "shot_raise", "reach")


@dataclass
class KindScore:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    offsets_frames: list[float] = field(default_factory=list)  # detected − true, in frames
    misses: list[str] = field(default_factory=list)
    false: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    def within(self, frames: float) -> float:
        if not self.offsets_frames:
            return 1.0
        return sum(abs(o) <= frames + 1e-6 for o in self.offsets_frames) / len(self.offsets_frames)

    def add(self, other: KindScore) -> None:
        self.tp += other.tp
        self.fp += other.fp
        self.fn += other.fn
        self.offsets_frames += other.offsets_frames
        self.misses += other.misses
        self.false += other.false


def _detected(events: Iterable[Event]) -> dict[str, list[tuple[int, int, str]]]:
    out: dict[str, list[tuple[int, int, str]]] = {k: [] for k in KINDS}
    for e in events:
        if isinstance(e, HandDown | HandUp) and reach(e):
            if isinstance(e, HandDown):
                out["reach"].append((e.seat, e.t, ""))
        elif isinstance(e, HandDown):
            out["hand_down"].append((e.seat, e.t, e.gesture))
        elif isinstance(e, HandUp):
            out["hand_up"].append((e.seat, e.t, ""))
        elif isinstance(e, ShotRaise):
            out["shot_raise"].append((e.seat, e.t, e.gesture))
    return out


def score(
    truth: Mapping[str, Any],
    events: Iterable[Event],
    *,
    tolerance_ms: int = 400,
    windows: list[tuple[int, int]] | None = None,
) -> dict[str, KindScore]:
    """Match detections to ``truth["hands"]``. With ``windows``, only true and detected events inside them
    count (e.g. the dense stretches, where timing is meant to be exact)."""
    fps = float(truth.get("fps", 25))
    frame_ms = 1000.0 / fps
    det = _detected(events)

    def inside(t: int) -> bool:
        return windows is None or any(a <= t < b for a, b in windows)

    scores: dict[str, KindScore] = {}
    for kind in KINDS:
        sc = KindScore()
        true_events = truth.get("reaches", []) if kind == "reach" else truth.get("hands", [])
        want = [
            (int(h["seat"]), int(h["t"]))
            for h in true_events
            if h.get("kind", "reach") == kind and inside(h["t"])
        ]
        got = [(s, t) for s, t, _ in det[kind] if inside(t)]
        used = [False] * len(got)
        for seat, t in sorted(want, key=lambda x: x[1]):
            best, best_d = None, None
            for i, (gs, gt) in enumerate(got):
                if used[i] or gs != seat:
                    continue
                d = abs(gt - t)
                if d <= tolerance_ms and (best_d is None or d < best_d):
                    best, best_d = i, d
            if best is None:
                sc.fn += 1
                sc.misses.append(f"seat {seat} at {t} ms")
            else:
                used[best] = True
                sc.tp += 1
                sc.offsets_frames.append((got[best][1] - t) / frame_ms)
        for i, (gs, gt) in enumerate(got):
            if not used[i]:
                sc.fp += 1
                sc.false.append(f"seat {gs} at {gt} ms")
        scores[kind] = sc
    return scores
