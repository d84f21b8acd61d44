"""The analyser's plan: dense around marked vote windows and shooting rounds, sparse elsewhere."""

from __future__ import annotations

import itertools

import pytest

from gamelog.events import Day, Event, Night, ShotCall, VoteCall, VoteCount, VoteStop
from vision.schedule import DENSE, SPARSE, Stretch, dense_spans, plan, split_for_workers


def marks() -> list[Event]:
    h = "host"
    return [
        Day(t=10_000, src=h, n=1),
        VoteCall(t=100_000, src=h, round="main", candidate=7),
        VoteStop(t=102_000, src=h),
        VoteCount(t=104_000, src=h, candidate=7, count=4),
        VoteCall(t=106_000, src=h, round="main", candidate=3),
        VoteStop(t=108_000, src=h),
        Night(t=150_000, src=h, n=1),
        *[ShotCall(t=160_000 + 1500 * i, src=h, target=i + 1) for i in range(10)],
        Day(t=200_000, src=h, n=2),
    ]


def test_plan_covers_the_recording_without_gaps_or_overlaps() -> None:
    stretches = plan(marks(), 300_000)
    assert stretches[0].start == 0 and stretches[-1].end == 300_000
    for a, b in itertools.pairwise(stretches):
        assert a.end == b.start
    assert all(s.duration > 0 for s in stretches)


def test_vote_windows_are_dense_from_before_the_call_to_after_the_count() -> None:
    spans = dense_spans(marks())
    votes = [s for s in spans if s[2] == "vote"]
    # Two windows 2 s apart merge into one dense stretch.
    assert len(votes) == 1
    start, end, _ = votes[0]
    assert start < 100_000 and start >= 98_000
    assert end > 108_000  # watched after the second Спасибо for late votes


def test_shooting_round_is_one_dense_stretch_covering_every_number() -> None:
    spans = [s for s in dense_spans(marks()) if s[2] == "shooting"]
    assert len(spans) == 1
    start, end, _ = spans[0]
    assert start < 160_000 and end >= 160_000 + 1500 * 9 + 1500


def test_sparse_stretches_are_split_at_night_boundaries() -> None:
    stretches = plan(marks(), 300_000)
    kinds = [(s.kind, s.mode) for s in stretches]
    assert ("night", SPARSE) in kinds and ("idle", SPARSE) in kinds
    night = [s for s in stretches if s.kind == "night"]
    assert all(s.start >= 150_000 and s.end <= 200_000 for s in night)


def test_no_marks_means_all_sparse() -> None:
    stretches = plan([], 120_000)
    assert [s.mode for s in stretches] == [SPARSE]


@pytest.mark.parametrize("duration", [30_000, 61_000, 250_000])
def test_split_for_workers_keeps_dense_whole(duration: int) -> None:
    st = [Stretch(0, duration, "idle", SPARSE), Stretch(duration, duration + 90_000, "vote", DENSE)]
    out = split_for_workers(st, max_ms=60_000)
    assert all(s.duration <= 60_000 for s in out if s.mode == SPARSE)
    assert [s for s in out if s.mode == DENSE] == [st[1]]
    assert sum(s.duration for s in out) == duration + 90_000


def test_keys_are_stable_and_distinct() -> None:
    a = plan(marks(), 300_000)
    b = plan(list(reversed(marks())), 300_000)
    assert [s.key for s in a] == [s.key for s in b]
    assert len({s.key for s in a}) == len(a)
