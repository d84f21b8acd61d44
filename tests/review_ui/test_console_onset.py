"""The console's live check closes the vote window at the host's spoken «Спасибо», found in the sound being
recorded (issue #10), end to end: the bundled sample game's host voice played as a file source through the
real recorder (ffmpeg's PCM tap), keys pressed on the offscreen console, the onset found by
``vision.onsets.find_onset`` and shown on the panel.

The clip is the sample game's second vote (candidate 3): the host says «Спасибо» at 58.40 s of the game and
presses the key 251 ms later; seat 10's hand lands at 58.51 s, between the two. Closed at the keystroke,
that hand would count; closed at the onset it is late. The hands come from the sample's truth (fed as
vision events: the unit under test is the sound path, the landmarker runs in bench/bench_console.py).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import imageio_ffmpeg
import pytest
from pytestqt.qtbot import QtBot

from gamelog.events import HandDown
from recorder.session import RecorderConfig
from recorder.sources import FileSource
from recorder.timebase import read_timeline
from review_ui.console.console_window import ConsoleWindow
from review_ui.console.launch import open_console
from tests.review_ui.test_console_window import WAIT, finish

CLIP_FROM_MS = 53_000
CLIP_MS = 7_600
CALL_MS = 53_863  # the host's vote_call mark in the sample
SPOKEN_MS = 58_400  # the truth's onset of «Спасибо» (game time)
KEY_LAG_MS = 251  # the host's own lag in the sample


@pytest.fixture(scope="module")
def vote_clip(project_root: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict]]:
    sample = project_root / "sample_videos" / "sample_game"
    out = tmp_path_factory.mktemp("onset") / "vote.mp4"
    cmd = [imageio_ffmpeg.get_ffmpeg_exe(), "-v", "error", "-y", "-ss", f"{CLIP_FROM_MS / 1000:.3f}"]
    cmd += ["-i", str(sample / "video.mp4"), "-t", f"{CLIP_MS / 1000:.3f}", "-vf", "scale=640:360"]
    cmd += ["-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", str(out)]
    subprocess.run(cmd, check=True)
    truth = json.loads((sample / "truth.json").read_text(encoding="utf-8"))
    hands = [h for h in truth["hands"] if h["kind"] == "hand_down" and 53_900 < h["t"] < 58_700]
    return out, hands


def test_the_window_closes_at_the_spoken_onset_not_at_the_key(
    qtbot: QtBot, tmp_path: Path, vote_clip: tuple[Path, list[dict]]
) -> None:
    clip, hands = vote_clip
    assert [h["seat"] for h in hands] == [2, 6, 10]
    win: ConsoleWindow = open_console(
        tmp_path / "game", FileSource(clip, speed=1.0), config=RecorderConfig(tap_width=640), lang="en"
    )
    qtbot.addWidget(win, before_close_func=lambda w: finish(qtbot, w))
    timeline = tmp_path / "game" / "timeline.jsonl"

    def segments() -> list[dict]:
        return [r for r in read_timeline(timeline) if r["kind"] == "segment"] if timeline.exists() else []

    qtbot.waitUntil(lambda: win.model.recording and bool(segments()), timeout=WAIT)
    # media time of the clip's start: the segment's first pts (the file plays from there in real time)
    seg = segments()[0]
    game_to_media = seg["start_ms"] - CLIP_FROM_MS
    assert seg["audio"], "the clip's sound must be recorded"

    # the host's keys at the sample's own times (a busy test machine may deliver synthetic key events late)
    call_t = CALL_MS + game_to_media
    qtbot.waitUntil(lambda: win.bridge.media_ms() >= call_t, timeout=WAIT)
    for i, k in enumerate(["N", "D", "1", "V", "3", "E", "Return"]):
        win.model.key(k, call_t - 60 * (6 - i))
    call = win.model.marker.events[-1]
    assert call.type == "vote_call" and call.t == call_t
    assert win.live is not None
    win.live.wait_limit_s = 20.0  # a starved test machine may hear late; the latency is bench/'s business
    win.live.add_events(
        [
            HandDown(
                t=h["t"] + game_to_media,
                src="vision",
                id=f"truth-{h['seat']}",
                seat=h["seat"],
                gesture=h["gesture"],
                conf=0.9,
            )
            for h in hands
        ]
    )
    spoken = SPOKEN_MS + game_to_media
    key_t = spoken + KEY_LAG_MS
    qtbot.waitUntil(lambda: win.bridge.media_ms() >= key_t, timeout=WAIT)
    win.model.key("Space", key_t)
    stop = win.model.marker.events[-1]
    assert stop.type == "vote_stop"
    qtbot.waitUntil(
        lambda: win.model.live_view is not None and win.model.live_view.vision is not None, timeout=WAIT
    )
    lv = win.model.live_view
    assert lv is not None and lv.vision is not None
    res = lv.vision
    assert res.heard, "the recorded sound reached the live check"
    assert res.onset_t is not None, "no onset found in the recorded sound"
    assert abs(res.onset_t - spoken) <= 40, (res.onset_t, spoken)
    assert res.close_t == res.onset_t < stop.t
    # seat 10 landed after the spoken onset, before the key: late, not counted
    assert res.voters == (2, 6) and res.count == 2 and 10 in res.late
    assert f"{stop.t - res.onset_t} ms before the key" in win.live_panel.onset.text()
    # the onset is kept with the live vision events, referring to the stop
    live = [json.loads(x) for x in (tmp_path / "game" / "vision.live.jsonl").read_text().splitlines()]
    onsets = [e for e in live if e["type"] == "speech_onset"]
    assert [(e["ref"], e["t"]) for e in onsets] == [(stop.id, res.onset_t)]
