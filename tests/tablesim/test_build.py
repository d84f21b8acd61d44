"""Script → bundle: host marks only, exact truth, a real H.264 + AAC video, bit-for-bit repeatable."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import av
import numpy as np
import pytest

from gamelog.bundle import load_bundle
from gamelog.events import parse_event
from tablesim.audio import AudioKnobs
from tablesim.build import Knobs, build, prepare, truth_json, voice
from tablesim.randomgame import random_script
from tablesim.render import LookKnobs
from tablesim.scene import CameraKnobs, point_in_polygon
from tablesim.script import ScriptError, parse_script
from tablesim.truthcheck import check_events, perfect_events

TINY = Knobs(camera=CameraKnobs(width=320, height=180), look=LookKnobs(noise=1.0))
SILENT_ROOM = Knobs(camera=TINY.camera, audio=AudioKnobs(noise_db=-99, murmur_db=-99, speech_db=-99))

SHORT: dict[str, Any] = {
    "format": "tablesim/1",
    "seed": 5,
    "roles": {"don": 4, "mafia": [7, 9], "sheriff": 2},
    "end": 3200,
    "host": [
        {"t": 50, "do": "day", "n": 2},
        {"t": 500, "do": "nominate", "by": 1, "target": 7},
        {"t": 1100, "do": "vote_call", "candidate": 7},
        {"t": 2300, "do": "vote_stop"},
    ],
    "seats": [
        {"t": 1600, "seat": 3, "do": "vote"},
        {"t": 1900, "seat": 6, "do": "vote", "hand": "left"},
        {"t": 2320, "seat": 5, "do": "vote"},
    ],
}


def digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    script = parse_script(SHORT)
    a = build(script, tmp_path_factory.mktemp("a") / "bundle", TINY).bundle
    b = build(script, tmp_path_factory.mktemp("b") / "bundle", TINY).bundle
    return a, b


def test_two_builds_are_identical(tiny: tuple[Path, Path]) -> None:
    a, b = tiny
    da, db = digest(a), digest(b)
    assert set(da) >= {"game.json", "layout.json", "events.jsonl", "truth.json", "video.mp4"}
    assert da == db


def test_the_video_is_h264_yuv420p_with_one_second_gops_and_aac(tiny: tuple[Path, Path]) -> None:
    with av.open(str(tiny[0] / "video.mp4")) as box:
        vs, aus = box.streams.video[0], box.streams.audio[0]
        assert vs.codec_context.name == "h264" and vs.codec_context.pix_fmt == "yuv420p"
        assert (vs.codec_context.width, vs.codec_context.height) == (320, 180)
        assert aus.codec_context.name == "aac" and aus.codec_context.sample_rate == 48000
        frames = [(f.pts, f.key_frame) for f in box.decode(vs)]
    assert len(frames) == 80  # 3.2 s at 25 fps
    assert [i for i, (_, key) in enumerate(frames) if key] == [0, 25, 50, 75]


def test_events_hold_host_marks_only_and_the_keystrokes_lag_the_voice(tiny: tuple[Path, Path]) -> None:
    bundle = load_bundle(tiny[0])
    assert bundle.ok
    types = [e.type for e in bundle.events]
    assert {e.src for e in bundle.events} == {"host"}
    assert "vote" not in types and "hand_down" not in types
    truth = json.loads((tiny[0] / "truth.json").read_text(encoding="utf-8"))
    stop = next(s for s in truth["speech"] if s["kind"] == "vote_stop")
    assert stop["onset_ms"] == pytest.approx(2300.0, abs=0.05)
    assert 150 <= stop["lag_ms"] <= 300
    mark = next(e for e in bundle.events if e.type == "vote_stop")
    assert mark.id == stop["mark_id"] and mark.t == stop["mark_t"]


def test_truth_has_every_hand_event_to_the_frame(tiny: tuple[Path, Path]) -> None:
    truth = json.loads((tiny[0] / "truth.json").read_text(encoding="utf-8"))
    downs = {h["seat"]: h for h in truth["hands"] if h["kind"] == "hand_down"}
    assert downs[3]["t_exact"] == 1600 and downs[3]["frame"] == 40 and downs[3]["t"] == 1600
    assert downs[6]["t_exact"] == 1900 and downs[6]["frame"] == 48 and downs[6]["t"] == 1920
    assert downs[5]["t"] >= 2300  # landed with/after "Спасибо": late
    vote = truth["expected"]["days"][0]["votes"][0]
    assert vote["late"] == [5]
    assert vote["defaulted"] == [1, 2, 4, 5, 7, 8, 9, 10]  # a single candidate on day 2 takes every default
    assert vote["voters"] == list(range(1, 11))
    assert truth["hand_len_px"]["1"] > 5 and truth["frame_size"] == [320, 180]


def test_the_hand_is_really_drawn_in_its_table_zone(tiny: tuple[Path, Path]) -> None:
    """Frames before and after seat 3's vote differ inside seat 3's table zone and not far from it."""
    import cv2

    layout = json.loads((tiny[0] / "layout.json").read_text(encoding="utf-8"))
    zone = np.array(layout["seats"][2]["table_zone"], np.int32)
    mask = np.zeros((180, 320), np.uint8)
    cv2.fillPoly(mask, [zone], 1)
    with av.open(str(tiny[0] / "video.mp4")) as box:
        frames = [f.to_ndarray(format="rgb24").astype(np.int16) for f in box.decode(video=0)]
    diff = np.abs(frames[42] - frames[5]).sum(axis=2) > 40  # seat 3's fist is down from frame 40
    assert diff[mask == 1].mean() > 0.05


def test_bad_rounds_are_refused_with_the_host_line() -> None:
    obj = json.loads(json.dumps(SHORT))
    obj["host"][2]["round"] = "revote"
    with pytest.raises(ScriptError, match="expected round 'main'") as err:
        prepare(parse_script(obj), TINY)
    assert err.value.field == "host[2]"


def test_an_existing_bundle_is_not_overwritten(tiny: tuple[Path, Path]) -> None:
    with pytest.raises(FileExistsError, match="not empty"):
        build(parse_script(SHORT), tiny[0], TINY)


@pytest.mark.parametrize("seed", [1, 2, 9])
def test_the_referee_reproduces_the_truth_of_a_random_game(seed: int) -> None:
    """Host marks + the true hand events as vision events + true onsets → truth's expected outcome."""
    script = random_script(seed)
    scene, perf, marks, outcome = prepare(script, SILENT_ROOM)
    _, spoken = voice(script, perf, marks, SILENT_ROOM)
    truth = truth_json(script, SILENT_ROOM, scene, perf, marks, outcome, spoken)
    host = [parse_event({"t": m.t, "type": m.type, "src": "host", **m.fields, "id": m.id}) for m in marks]
    assert perfect_events(truth)
    assert check_events(host, truth) == []


def test_the_contact_sheet_shows_the_vote(tiny: tuple[Path, Path], tmp_path: Path) -> None:
    import cv2

    from tablesim.contact import contact_sheet, moments

    truth = json.loads((tiny[0] / "truth.json").read_text(encoding="utf-8"))
    picks = moments(truth)
    assert [p[0].split(":")[0] for p in picks] == ["vote"]  # no lift, shot or peek in this clip
    assert picks[0][2] == 3 and picks[0][3] == "table_zone"
    out = contact_sheet(tiny[0], tmp_path / "sheet.png")
    img = cv2.imread(str(out))
    assert img is not None and img.shape[0] > 300 and img.shape[1] > 500


def test_fidgets_move_idle_hands_without_changing_the_truth() -> None:
    script = random_script(3)
    calm = prepare(script, SILENT_ROOM)
    busy = prepare(script, Knobs(camera=TINY.camera, audio=SILENT_ROOM.audio, fidget=6.0))
    assert busy[1].hands == calm[1].hands and busy[2] == calm[2] and busy[3] == calm[3]
    moves = sum(len(t.moves) for t in busy[1].tracks.values())
    assert moves > sum(len(t.moves) for t in calm[1].tracks.values()) + 50
    scene = busy[0]
    for (seat, part), tr in busy[1].tracks.items():
        if part == "head":
            continue
        for m in tr.moves:
            if m.pose == "relaxed" and m.orient == "rest":  # a fidget stays out of every table zone
                px = scene.camera.project(m.p1)
                assert not any(point_in_polygon(px, scene.table_zone(s.seat)) for s in scene.seats), seat


LONGER: dict[str, Any] = {**SHORT, "end": 9000}  # hands back at rest by 5.3 s: three still seconds at the end


def decoded(video: Path) -> list[tuple[int, bool, np.ndarray]]:
    with av.open(str(video)) as box:
        return [(int(f.pts), bool(f.key_frame), f.to_ndarray(format="rgb24")) for f in box.decode(video=0)]


def test_fast_render_copies_still_seconds_and_keeps_the_truth(tmp_path: Path) -> None:
    script = parse_script(LONGER)
    plain = build(script, tmp_path / "plain", TINY)
    fast_knobs = Knobs(camera=TINY.camera, look=TINY.look, fast_render=True)
    fast = build(script, tmp_path / "fast", fast_knobs)
    assert "fast_render" not in plain.truth["knobs"] and fast.truth["knobs"]["fast_render"] is True
    same = {k: v for k, v in fast.truth.items() if k != "knobs"}
    assert same == {k: v for k, v in plain.truth.items() if k != "knobs"}
    a, b = decoded(plain.bundle / "video.mp4"), decoded(fast.bundle / "video.mp4")
    assert len(a) == len(b) == 225
    assert [f[0] for f in b] == [f[0] for f in a]  # every frame at its time
    assert [i for i, f in enumerate(b) if f[1]] == list(range(0, 225, 25))
    # the same pictures up to the sensor noise's order (σ 1 levels) and the encoder's rounding
    diff = [float(np.abs(x[2].astype(np.int16) - y[2]).mean()) for x, y in zip(a, b, strict=True)]
    assert max(diff) < 2.0
    # the still seconds after the votes are one GOP encoded once and copied: identical decoded frames
    gops = [
        tuple(hashlib.sha256(f[2].tobytes()).hexdigest() for f in b[g : g + 25]) for g in range(0, 225, 25)
    ]
    assert gops[6] == gops[7] == gops[8] != gops[5]
    assert len(set(gops[6])) > 1  # inside a GOP the noise still changes from frame to frame
