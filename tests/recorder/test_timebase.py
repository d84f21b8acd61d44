from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from recorder.ring import EndOfStream, FrameRing, SourceGap
from recorder.timebase import ManualClock, Timeline, read_timeline


def test_manual_clock_moves_only_when_told() -> None:
    c = ManualClock(start=10.0, wall_start=1000.0)
    assert (c.monotonic(), c.wall()) == (10.0, 1000.0)
    c.sleep(0.5)
    c.advance(1.0)
    assert (c.monotonic(), c.wall()) == (11.5, 1001.5)


def test_timeline_survives_a_torn_last_line(tmp_path: Path) -> None:
    clock = ManualClock()
    tl = Timeline(tmp_path / "timeline.jsonl", clock, fsync_s=1.0)
    tl.frame(1, 0, 0, 1000.0, 1_800_000_000.0, 0)
    tl.frame(1, 1, 33, 1000.033, 1_800_000_000.033, 2)
    tl.close()
    with open(tmp_path / "timeline.jsonl", "a", encoding="utf-8") as f:
        f.write('{"kind":"frame","seg":1,"n"')  # the crash
    recs = list(read_timeline(tmp_path / "timeline.jsonl"))
    assert [r["n"] for r in recs] == [0, 1]
    assert recs[1]["pts"] == 33 and recs[1]["dropped"] == 2


def test_timeline_names_a_bad_line_in_the_middle(tmp_path: Path) -> None:
    p = tmp_path / "timeline.jsonl"
    p.write_text(json.dumps({"kind": "start"}) + "\nnot json\n" + json.dumps({"kind": "stop"}) + "\n")
    with pytest.raises(ValueError, match=r"timeline.jsonl:2"):
        list(read_timeline(p))


def test_ring_drops_and_counts_when_full_but_never_drops_control() -> None:
    ring: FrameRing[object] = FrameRing(2)
    assert ring.push("a") and ring.push("b")
    assert not ring.push("c")
    ring.push_control(SourceGap("unplugged"))
    ring.push_control(EndOfStream())
    assert (ring.pushed, ring.dropped, ring.high_water) == (2, 1, 2)
    items = [ring.pop(0.1)[1] for _ in range(4)]
    assert items[:2] == ["a", "b"]
    assert isinstance(items[2], SourceGap) and isinstance(items[3], EndOfStream)
    assert ring.pop(0.01) == (False, None)
    assert ring.push("d")  # room again after the frames were taken


def test_ring_push_wait_waits_for_room() -> None:
    ring: FrameRing[object] = FrameRing(1)
    assert ring.push("a")
    assert not ring.push_wait("b", 0.05)  # still full: gave up after the timeout, nothing dropped
    assert ring.dropped == 0
    got: list[object] = []
    t = threading.Thread(target=lambda: got.append(ring.push_wait("b", 5.0)))
    t.start()
    assert ring.pop(1.0) == (True, "a")
    t.join()
    assert got == [True] and ring.pop(1.0) == (True, "b")
