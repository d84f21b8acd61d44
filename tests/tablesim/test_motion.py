"""Minimum-jerk trajectories and tracks."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tablesim.motion import Move, Track, min_jerk


def test_min_jerk_endpoints_and_symmetry() -> None:
    assert float(min_jerk(0.0)) == 0.0
    assert float(min_jerk(1.0)) == 1.0
    assert float(min_jerk(0.5)) == pytest.approx(0.5)
    assert float(min_jerk(-3.0)) == 0.0 and float(min_jerk(7.0)) == 1.0
    tau = np.linspace(0, 1, 101)
    assert np.allclose(min_jerk(tau) + min_jerk(1 - tau), 1.0)


def test_min_jerk_starts_and_ends_at_rest() -> None:
    h = 1e-4
    for t in (0.0, 1.0 - h):
        v = (float(min_jerk(t + h)) - float(min_jerk(t))) / h
        assert abs(v) < 1e-3
    tau = np.linspace(0, 1, 1001)
    s = min_jerk(tau)
    assert np.all(np.diff(s) >= 0)  # monotone: no overshoot
    vel = np.diff(s) / np.diff(tau)
    assert vel.max() == pytest.approx(1.875, rel=1e-3)  # the known peak speed of the profile


@given(st.floats(0.0, 1.0))
def test_min_jerk_stays_in_range(t: float) -> None:
    assert 0.0 <= float(min_jerk(t)) <= 1.0


def test_a_move_is_smooth_and_reaches_its_target() -> None:
    m = Move(1000, 1500, np.zeros(3), np.array([0.3, 0.1, 0.0]), arc=0.05)
    assert np.allclose(m.at(1000), 0)
    assert np.allclose(m.at(1500), [0.3, 0.1, 0.0])
    mid = m.at(1250)
    assert mid[2] == pytest.approx(0.05)  # the arc peaks in the middle
    ts = np.linspace(1000, 1500, 201)
    pts = np.array([m.at(t) for t in ts])
    acc = np.diff(pts, n=2, axis=0)
    assert np.abs(acc).max() < 1e-3  # no jumps


def test_a_track_holds_between_moves_and_changes_pose_at_the_end() -> None:
    tr = Track(np.zeros(3))
    tr.go(100, 500, np.array([1.0, 0, 0]), "thumb_up", "vote")
    tr.go(2000, 2500, np.zeros(3), "thumb_up", "vote", end_pose="relaxed", end_orient="rest")
    assert tr.at(50).pose == "relaxed" and not tr.at(50).moving
    assert tr.at(300).moving and tr.at(300).pose == "thumb_up"
    s = tr.at(1000)
    assert not s.moving and np.allclose(s.pos, [1, 0, 0]) and s.orient == "vote"
    assert tr.at(3000).pose == "relaxed" and tr.at(3000).orient == "rest"
    assert np.allclose(tr.at(3000).pos, 0)


def test_overlapping_moves_are_refused() -> None:
    tr = Track(np.zeros(3))
    tr.go(100, 500, np.ones(3), "fist", "vote")
    with pytest.raises(ValueError, match="overlap"):
        tr.go(400, 800, np.zeros(3), "fist", "vote")
    tr.go(50, 90, np.ones(3) * 0.5, "fist", "vote")  # an earlier move may be inserted if it fits
    assert [m.t0 for m in tr.moves] == [50, 100]
    with pytest.raises(ValueError, match="take time"):
        Move(10, 10, np.zeros(3), np.zeros(3))
