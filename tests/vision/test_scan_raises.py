"""Without marks, the recording is read every SCAN_STEP_MS, not on keyframes only, and each stretch a little
past its end.

Real rendered video: the bundled sample game's first shooting round (night 1, the host calls 1 to 10 from
101.0 s to 114.5 s), cut from 98 s and re-encoded with the real ffmpeg with a keyframe every second, as the
recorder writes. Seat 2's gun is up from about 107.3 s to 107.8 s and seat 6's from about 107.5 s to 108.1 s:
both fall between the keyframes at 107 s and 108 s, so reading keyframes only, the analyser saw no raise, and
the sample game's night 1 was proposed as no shooting round (session 25).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from gamelog.bundle import load_bundle
from gamelog.events import ProposedWindow
from gamelog.jsonl import read_events
from tests.vision.media import cut_video
from vision.analyzer import SCAN, analyze, run_stretch
from vision.schedule import SPARSE, Stretch

START_MS, LENGTH_MS = 98_000, 18_000
DAY_MS = 53_000  # the sample's third and fourth vote windows: 53.9-58.7 s and 62.1-67.0 s
GUNS = {2: 107_400 - START_MS, 6: 107_520 - START_MS}  # the truth's raises (seat: t in the cut)


def _cut(tmp_path_factory: pytest.TempPathFactory, project_root: Path, start_ms: int, name: str) -> Path:
    src = project_root / "sample_videos" / "sample_game"
    dst = tmp_path_factory.mktemp(name) / "game"
    dst.mkdir()
    cut_video(src / "video.mp4", dst / "video.mp4", start_ms, LENGTH_MS)
    for f in ("layout.json", "game.json"):
        shutil.copy2(src / f, dst / f)
    (dst / "events.jsonl").write_text("", encoding="utf-8")
    return dst


def _truth(project_root: Path, start_ms: int, kind: str) -> dict[int, int]:
    truth = json.loads(
        (project_root / "sample_videos" / "sample_game" / "truth.json").read_text(encoding="utf-8")
    )
    return {
        h["seat"]: h["t"] - start_ms
        for h in truth["hands"]
        if h["kind"] == kind and start_ms <= h["t"] < start_ms + LENGTH_MS
    }


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory, project_root: Path) -> Path:
    assert _truth(project_root, START_MS, "shot_raise") == GUNS, (
        "the sample's night 1 guns moved; update GUNS"
    )
    return _cut(tmp_path_factory, project_root, START_MS, "night")


@pytest.fixture(scope="module")
def day(tmp_path_factory: pytest.TempPathFactory, project_root: Path) -> Path:
    return _cut(tmp_path_factory, project_root, DAY_MS, "day")


def _events(bundle: Path, stretch: Stretch, kind: str) -> list[dict[str, Any]]:
    b = load_bundle(bundle)
    res = run_stretch(str(bundle), list(b.game.video), b.layout, stretch)
    return [e for e in res["events"] if e["type"] == kind]


def _raises(bundle: Path, stretch: Stretch) -> list[dict[str, Any]]:
    return _events(bundle, stretch, "shot_raise")


def test_a_gun_between_two_keyframes_is_read_by_the_scan(night: Path) -> None:
    raises = _raises(night, Stretch(0, LENGTH_MS, SCAN, SPARSE))
    guns = [e for e in raises if e["gesture"] == "gun"]
    assert guns, raises
    for e in guns:
        assert e["seat"] in GUNS and abs(int(e["t"]) - GUNS[int(e["seat"])]) <= 1000, e
        assert e.get("coarse") is True  # timed to the scan's step, not to a frame


def test_the_keyframes_alone_hold_no_raise_there(night: Path) -> None:
    """The case is a real one: a night stretch read on keyframes only (as the scan read raise zones before)
    finds no raise in this cut."""
    assert _raises(night, Stretch(0, LENGTH_MS, "night", SPARSE)) == []


def test_without_marks_the_shooting_round_is_proposed(night: Path, tmp_path: Path) -> None:
    bundle = tmp_path / "unmarked"
    shutil.copytree(night, bundle)
    analyze(bundle, workers=2, resume=False, use_marks=False)
    events = read_events(bundle / "vision.jsonl").events
    rounds = [(p.t, p.until) for p in events if isinstance(p, ProposedWindow) and p.kind == "shooting"]
    assert len(rounds) == 1 and rounds[0][0] <= min(GUNS.values()) and max(GUNS.values()) < rounds[0][1]
    # the round was read densely after it was proposed: the guns are timed to their frames again
    guns = {e.seat: e.t for e in events if e.TYPE == "shot_raise" and getattr(e, "gesture", "") == "gun"}
    assert set(guns) == set(GUNS), guns


def test_hands_landing_just_before_a_scan_stretch_ends_are_its_own(day: Path, project_root: Path) -> None:
    """Seats 2 and 6 land at 3.60 s and 3.84 s of the cut and seat 10 at 5.52 s, half a second before the
    first stretch ends at 6 s: read past its end, the first stretch settles all three; the next one starts
    with the three hands lying there and reports only the next window's landings (seats 3 and 9 at
    11.9-12.1 s). Read to its end only, seat 10's hand, still coming to rest, was in neither."""
    landed = _truth(project_root, DAY_MS, "hand_down")
    assert landed == {2: 3600, 6: 3840, 10: 5520, 3: 11920, 9: 12120}, "the sample's landings moved"
    first = _events(day, Stretch(0, 6000, SCAN, SPARSE), "hand_down")
    assert sorted(int(e["seat"]) for e in first) == [2, 6, 10], first
    assert all(int(e["t"]) < 6000 and abs(int(e["t"]) - landed[int(e["seat"])]) <= 1000 for e in first), first
    second = _events(day, Stretch(6000, LENGTH_MS, SCAN, SPARSE), "hand_down")
    assert sorted(int(e["seat"]) for e in second) == [3, 9], second
