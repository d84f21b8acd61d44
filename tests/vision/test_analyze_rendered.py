"""The analyser end to end on real rendered video: 32 s of the bundled sample game (three vote windows),
cut and re-encoded with the real ffmpeg, analysed with the real MediaPipe models.

* With the host's marks, every vote hand of the three windows is found, on its frame, for the right seat,
  and nothing else is found there.
* Without marks (an old recording), the analyser proposes vote windows that contain each of the three
  windows the host marked, and no shooting round (there is no night in the cut).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from gamelog.events import ProposedWindow
from gamelog.jsonl import read_events
from tablesim.evaluate import score
from tests.vision.media import cut_video
from vision.analyzer import analyze

START_MS, LENGTH_MS = 38_000, 32_000  # the sample game's first three vote windows: 45.5 s to 68.1 s
MARK_TYPES = ("vote_call", "vote_stop", "vote_count")


def _shifted(e: dict[str, Any]) -> dict[str, Any]:
    return dict(e, t=e["t"] - START_MS)


@pytest.fixture(scope="module")
def cut(tmp_path_factory: pytest.TempPathFactory, project_root: Path) -> Path:
    """A bundle with the cut video, the sample's layout and players, and the host's vote marks in the cut."""
    src = project_root / "sample_videos" / "sample_game"
    dst = tmp_path_factory.mktemp("cut") / "game"
    dst.mkdir()
    cut_video(src / "video.mp4", dst / "video.mp4", START_MS, LENGTH_MS)
    for name in ("layout.json", "game.json"):
        shutil.copy2(src / name, dst / name)
    lines = [json.loads(ln) for ln in (src / "events.jsonl").read_text(encoding="utf-8").splitlines() if ln]
    inside = [e for e in lines if START_MS <= e["t"] < START_MS + LENGTH_MS]
    marks = [_shifted(e) for e in inside if e["type"] in MARK_TYPES]
    (dst / "events.jsonl").write_text(
        "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in marks), encoding="utf-8"
    )
    truth = json.loads((src / "truth.json").read_text(encoding="utf-8"))
    truth["hands"] = [_shifted(h) for h in truth["hands"]]
    (dst / "truth.cut.json").write_text(json.dumps(truth), encoding="utf-8")
    return dst


def _windows(bundle: Path) -> list[tuple[int, int]]:
    """The host's vote windows in the cut: call to Спасибо, and on to the count (late votes and lifts)."""
    ev = [json.loads(ln) for ln in (bundle / "events.jsonl").read_text(encoding="utf-8").splitlines()]
    calls = [e["t"] for e in ev if e["type"] == "vote_call"]
    counts = [e["t"] for e in ev if e["type"] == "vote_count"]
    assert len(calls) == len(counts) == 3, "the cut should hold three whole vote windows"
    return list(zip(calls, counts, strict=True))


def test_with_marks_every_vote_hand_is_found_on_its_frame(cut: Path, tmp_path: Path) -> None:
    bundle = tmp_path / "marked"
    shutil.copytree(cut, bundle)
    report = analyze(bundle, workers=2, resume=False)
    assert report.damaged == []
    truth = json.loads((bundle / "truth.cut.json").read_text(encoding="utf-8"))
    wins = _windows(bundle)
    sc = score(truth, read_events(bundle / "vision.jsonl").events, windows=wins)
    votes = sc["hand_down"]
    want = [h for h in truth["hands"] if h["kind"] == "hand_down" and any(a <= h["t"] < b for a, b in wins)]
    assert len(want) >= 8, "the three windows hold at least eight true votes"
    assert votes.misses == [] and votes.false == []
    assert votes.tp == len(want)
    assert all(abs(off) <= 1 for off in votes.offsets_frames), votes.offsets_frames
    assert sc["shot_raise"].fp == 0


def test_without_marks_the_vote_windows_are_proposed(cut: Path, tmp_path: Path) -> None:
    bundle = tmp_path / "unmarked"
    shutil.copytree(cut, bundle)
    report = analyze(bundle, workers=2, resume=False, use_marks=False)
    proposals = [e for e in read_events(bundle / "vision.jsonl").events if isinstance(e, ProposedWindow)]
    assert report.proposed == len(proposals)
    votes = [(p.t, p.until) for p in proposals if p.kind == "vote"]
    assert [p for p in proposals if p.kind != "vote"] == []
    ev = [json.loads(ln) for ln in (bundle / "events.jsonl").read_text(encoding="utf-8").splitlines()]
    calls = [e["t"] for e in ev if e["type"] == "vote_call"]
    stops = [e["t"] for e in ev if e["type"] == "vote_stop"]
    for call, stop in zip(calls, stops, strict=True):
        assert any(a <= call and stop <= b for a, b in votes), (call, stop, votes)
    # Nothing proposed where the host marked nothing: every proposal overlaps a marked window.
    for a, b in votes:
        assert any(a < stop and call < b for call, stop in zip(calls, stops, strict=True)), (a, b)
