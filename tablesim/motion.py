"""Smooth trajectories of hands and heads: minimum-jerk moves between held places.

A :class:`Track` is a list of :class:`Move`\\ s in time order; between moves a part holds still where the
last move left it. Each move carries the hand's ``pose`` and ``orient`` (the name of a world orientation the
renderer resolves per seat). Times are float milliseconds of media time; positions are world metres
(see :mod:`tablesim.scene`). Heads use the same machinery with a 1-D "lift" (0 = head down at night,
1 = upright).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def min_jerk(tau: np.ndarray | float) -> np.ndarray:
    """The minimum-jerk profile s(τ) = 10τ³ − 15τ⁴ + 6τ⁵ on τ ∈ [0, 1] (clipped): s(0)=0, s(1)=1, with zero
    velocity and acceleration at both ends."""
    t = np.clip(np.asarray(tau, dtype=np.float64), 0.0, 1.0)
    return np.clip(t * t * t * (10.0 + t * (-15.0 + 6.0 * t)), 0.0, 1.0)  # rounding can overshoot 1 by an ulp


@dataclass(frozen=True)
class Move:
    """From ``p0`` at ``t0`` to ``p1`` at ``t1`` (ms) along a straight line, minimum-jerk in time, with an
    optional ``lift`` (m): the path arcs up by that much at its middle (a hand clears the table).
    ``p0``/``p1`` are (3,) world points (or (1,) for a head's lift)."""

    t0: float
    t1: float
    p0: np.ndarray
    p1: np.ndarray
    pose: str = "relaxed"
    orient: str = "rest"
    arc: float = 0.0
    end_pose: str = ""  # the pose held after the move ends (default: ``pose``)
    end_orient: str = ""

    def __post_init__(self) -> None:
        if not self.t1 > self.t0:
            raise ValueError(f"a move must take time: t0={self.t0} t1={self.t1}")
        if self.p0.shape != self.p1.shape:
            raise ValueError(f"p0 {self.p0.shape} and p1 {self.p1.shape} differ in shape")

    def at(self, t: float) -> np.ndarray:
        tau = (t - self.t0) / (self.t1 - self.t0)
        s = float(min_jerk(tau))
        p = self.p0 + (self.p1 - self.p0) * s
        if self.arc and p.shape == (3,):
            tt = min(max(tau, 0.0), 1.0)
            p = p + np.array([0.0, 0.0, self.arc * 4.0 * tt * (1.0 - tt)])
        return p


@dataclass(frozen=True)
class State:
    """Where a part is at one instant: ``pos`` (3,) or (1,), its pose and orientation name, and whether it
    is moving."""

    pos: np.ndarray
    pose: str
    orient: str
    moving: bool


class Track:
    """A part's moves in time order, holding still between them. Starts at ``home`` with ``pose``."""

    def __init__(self, home: np.ndarray, pose: str = "relaxed", orient: str = "rest") -> None:
        self.home = np.asarray(home, dtype=np.float64)
        self.pose = pose
        self.orient = orient
        self.moves: list[Move] = []
        self._starts: np.ndarray = np.zeros(0)

    def add(self, move: Move) -> None:
        """Insert a move in time order; it may not overlap the moves before and after it."""
        i = int(np.searchsorted(self._starts, move.t0, side="right")) if self.moves else 0
        before = self.moves[i - 1] if i > 0 else None
        after = self.moves[i] if i < len(self.moves) else None
        if before is not None and move.t0 < before.t1 - 1e-9:
            raise ValueError(
                f"moves overlap: one ends at {before.t1:.0f} ms, the next starts at {move.t0:.0f} ms"
            )
        if after is not None and after.t0 < move.t1 - 1e-9:
            raise ValueError(
                f"moves overlap: one ends at {move.t1:.0f} ms, the next starts at {after.t0:.0f} ms"
            )
        self.moves.insert(i, move)
        self._starts = np.array([m.t0 for m in self.moves])

    def go(
        self,
        t0: float,
        t1: float,
        p1: np.ndarray,
        pose: str,
        orient: str,
        *,
        arc: float = 0.0,
        end_pose: str = "",
        end_orient: str = "",
    ) -> None:
        """Move from wherever the part is at ``t0`` to ``p1``; ``end_pose`` (if given) holds afterwards."""
        p0 = self.at(t0).pos
        self.add(Move(t0, t1, p0, np.asarray(p1, dtype=np.float64), pose, orient, arc, end_pose, end_orient))

    def at(self, t: float) -> State:
        if not self.moves:
            return State(self.home, self.pose, self.orient, False)
        i = int(np.searchsorted(self._starts, t, side="right")) - 1
        if i < 0:
            return State(self.home, self.pose, self.orient, False)
        m = self.moves[i]
        if t < m.t1:
            return State(m.at(t), m.pose, m.orient, True)
        return State(m.p1, m.end_pose or m.pose, m.end_orient or m.orient, False)

    def busy(self, t0: float, t1: float) -> bool:
        """Whether any move overlaps the interval [t0, t1]."""
        return any(m.t0 < t1 and m.t1 > t0 for m in self.moves)

    def end(self) -> float:
        return self.moves[-1].t1 if self.moves else 0.0
