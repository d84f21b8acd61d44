"""The console's "Voice templates" step (issue #10), end to end: a file whose sound is the host (espeak-ng)
saying «Спасибо» and один … десять, then a vote closed by «Спасибо», played through the real recorder
(ffmpeg's PCM tap) into the offscreen console. The step takes each word from the sound tap, saves the
templates into the bundle, and the live check then finds the onset with them (method "template"/"both").
The refusals (too quiet, clipped, too short, nothing) are checked on the cutter directly.
"""

from __future__ import annotations

import subprocess
import wave
from pathlib import Path

import imageio_ffmpeg
import numpy as np
import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from recorder.pcmtap import PcmTap
from recorder.session import RecorderConfig
from recorder.sources import FileSource
from recorder.timebase import read_timeline
from review_ui.console.console_window import ConsoleWindow
from review_ui.console.launch import open_console
from review_ui.console.voice_capture import RATE, WORDS, Captured, Refused, WordListener, cut_word
from review_ui.console.voice_step import VoiceStep
from review_ui.i18n import Language
from tablesim.audio import SAMPLE_RATE, AudioKnobs, Track, resample, synthesize
from tests.review_ui.test_console_window import WAIT, finish
from vision.keywords import NUMBER_WORDS, load_templates

START_MS = 1000  # the host presses Start from here (file time) ...
FIRST_MS = 2600  # ... and says the first word here; the next every STEP_MS
STEP_MS = 1300
CALL_MS = FIRST_MS + 11 * STEP_MS + 300  # then a vote: the call ...
SPOKEN_MS = CALL_MS + 2600  # ... «Спасибо» ...
KEY_LAG_MS = 250  # ... and the key this long after it
LENGTH_MS = SPOKEN_MS + 1400


@pytest.fixture(scope="module")
def host_clip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("voice")
    track = Track(LENGTH_MS)
    track.room(AudioKnobs(noise_db=-55.0, murmur_db=-99.0), seed=7)
    for i, (word, _kind, _target) in enumerate(WORDS):
        track.place_onset(word, FIRST_MS + i * STEP_MS)
    track.place_onset("Спасибо", SPOKEN_MS)
    pcm = (track.finish() * 32767).astype("<i2")
    wav = folder / "host.wav"
    with wave.open(str(wav), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(SAMPLE_RATE)
        w.writeframes(pcm.tobytes())
    out = folder / "host.mp4"
    cmd = [imageio_ffmpeg.get_ffmpeg_exe(), "-v", "error", "-y", "-f", "lavfi"]
    cmd += ["-i", f"color=c=0x406040:s=320x180:r=15:d={LENGTH_MS / 1000:.3f}", "-i", str(wav)]
    cmd += ["-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-b:a", "128k", "-shortest", str(out)]
    subprocess.run(cmd, check=True)
    return out


def test_the_host_records_templates_and_the_live_check_uses_them(
    qtbot: QtBot, tmp_path: Path, host_clip: Path
) -> None:
    bundle = tmp_path / "game"
    win: ConsoleWindow = open_console(
        bundle, FileSource(host_clip, speed=1.0), config=RecorderConfig(tap_width=320), lang="en"
    )
    qtbot.addWidget(win, before_close_func=lambda w: finish(qtbot, w))
    assert win.live is not None and win.live.templates == ()
    timeline = bundle / "timeline.jsonl"

    def segments() -> list[dict]:
        return [r for r in read_timeline(timeline) if r["kind"] == "segment"] if timeline.exists() else []

    qtbot.waitUntil(lambda: win.model.recording and bool(segments()), timeout=WAIT)
    seg = segments()[0]
    assert seg["audio"], "the clip's sound must be recorded"
    file_to_media = seg["start_ms"]
    qtbot.waitUntil(lambda: win.bridge.media_ms() >= file_to_media + START_MS, timeout=WAIT)

    # F8 opens the step; Start prompts «Спасибо»
    qtbot.keyClick(win.view, Qt.Key.Key_F8)
    step = win.voice_step
    assert step is not None and step.isVisible()
    assert win.bridge.media_ms() < file_to_media + FIRST_MS - 300, "the test machine was too slow to start"
    qtbot.mouseClick(step.start_button, Qt.MouseButton.LeftButton)
    assert step.current == 0 and "Спасибо" in step.prompt.text()
    qtbot.waitUntil(lambda: bool(step.templates), timeout=40_000)

    # every word heard where it was said, its row showing duration and level
    heard = [w for w in step.words if w is not None]
    assert [w.word for w in heard] == ["Спасибо", *NUMBER_WORDS]
    for i, w in enumerate(heard):
        said = file_to_media + FIRST_MS + i * STEP_MS
        assert abs(w.start_ms - said) <= 60, (w.word, w.start_ms - said)
        assert 200 <= w.duration_ms <= 1200 and w.snr_db >= 25, w
        assert f"{w.duration_ms / 1000:.2f} s" in step.rows.item(i).text()
    assert step.prompt.text() == "All words recorded"
    assert "Voice templates saved: 11 words" in win.phase.prompt.text()

    # saved into the bundle being recorded, as the analyser reads them
    loaded = load_templates(bundle)
    assert [(t.word, t.kind, t.target) for t in loaded] == list(WORDS)
    assert all(len(t.samples) >= 0.2 * RATE for t in loaded)

    # the vote: the live check now finds «Спасибо» with the host's template
    call_t = file_to_media + CALL_MS
    qtbot.waitUntil(lambda: win.bridge.media_ms() >= call_t, timeout=WAIT)
    for i, k in enumerate(["N", "D", "1", "V", "3", "E", "Return"]):
        win.model.key(k, call_t - 60 * (6 - i))
    assert win.model.marker.events[-1].type == "vote_call"
    win.live.wait_limit_s = 20.0  # a starved machine may hear late; the latency is bench/'s business
    spoken = file_to_media + SPOKEN_MS
    key_t = spoken + KEY_LAG_MS
    qtbot.waitUntil(lambda: win.bridge.media_ms() >= key_t, timeout=WAIT)
    assert len(win.live.templates) == 11
    win.model.key("Space", key_t)
    qtbot.waitUntil(
        lambda: win.model.live_view is not None and win.model.live_view.vision is not None, timeout=WAIT
    )
    lv = win.model.live_view
    assert lv is not None and lv.vision is not None
    res = lv.vision
    assert res.heard and res.onset_t is not None, res
    assert res.onset_method in ("template", "both"), res.onset_method
    assert abs(res.onset_t - spoken) <= 40, (res.onset_t, spoken)
    assert "template" in win.live_panel.onset.text() or "agree" in win.live_panel.onset.text()


def _word(gain: float, pad_ms: int = 500) -> np.ndarray:
    x = resample(synthesize("Спасибо"), SAMPLE_RATE, RATE)
    x = x / np.abs(x).max() * gain
    pad = np.zeros(RATE * pad_ms // 1000, np.float32)
    rng = np.random.default_rng(3)
    y = np.concatenate([pad, x, pad, pad]).astype(np.float32)
    return (y + rng.normal(0, 3e-4, len(y))).astype(np.float32)


def test_the_cutter_takes_a_good_word_and_refuses_bad_ones() -> None:
    word = WORDS[0]
    good = cut_word(_word(0.4), 0.0, word, final=False)
    assert isinstance(good, Captured) and 400 <= good.start_ms <= 800 and good.peak_db > -20
    assert good.template().kind == "vote_stop"
    # still talking at the end of what was heard: wait (None), or too long once listening is over
    talking = _word(0.4)[: RATE * 800 // 1000]
    assert cut_word(talking, 0.0, word, final=False) is None
    assert isinstance(cut_word(talking, 0.0, word, final=True), Refused)
    clipped = np.clip(_word(3.0), -1.0, 1.0).astype(np.float32)
    assert cut_word(clipped, 0.0, word, final=False) == Refused("voice_clipped")
    quiet = cut_word(_word(0.004), 0.0, word, final=True)
    assert isinstance(quiet, Refused) and quiet.reason == "voice_too_quiet"
    click = np.zeros(RATE * 2, np.float32)
    click[RATE // 2 : RATE // 2 + 800] = 0.3 * np.sin(np.arange(800) * 0.3)
    short = cut_word(click, 0.0, word, final=False)
    assert isinstance(short, Refused) and short.reason == "voice_too_short"
    assert cut_word(np.zeros(RATE * 2, np.float32), 0.0, word, final=True) == Refused("voice_nothing")


def test_a_refused_word_is_shown_and_said_again(qtbot: QtBot, tmp_path: Path) -> None:
    """The step on a real sound tap fed by hand: a clipped «Спасибо» is refused in red and nothing is kept;
    Enter listens again, and the good one is taken and the next word prompted."""
    tap = PcmTap()
    track = tap.track(0.0)
    clock = [0]
    step = VoiceStep(tmp_path, tap, lambda: clock[0], Language("en"))
    qtbot.addWidget(step)
    step.show()
    qtbot.mouseClick(step.start_button, Qt.MouseButton.LeftButton)
    track.feed(np.clip(_word(3.0), -1.0, 1.0).astype("<f4").tobytes())
    qtbot.waitUntil(lambda: step.last is not None, timeout=WAIT)
    assert step.last == Refused("voice_clipped")
    assert "Clipped" in step.message.text() and step.words[0] is None and step.current == 0
    covered = tap.covered_ms()
    assert covered is not None
    clock[0] = round(covered)
    qtbot.keyClick(step, Qt.Key.Key_Return)
    assert step.last is None and step.listener is not None
    track.feed(_word(0.4).astype("<f4").tobytes())
    qtbot.waitUntil(lambda: step.words[0] is not None, timeout=WAIT)
    got = step.words[0]
    assert got is not None and got.start_ms > clock[0] and got.word == "Спасибо"
    assert step.current == 1 and "один" in step.prompt.text()
    assert step.rows.item(0).text().startswith("Спасибо — 0.")
    assert not (tmp_path / "voice_templates").exists()  # saved only once every word is there
    step.close()
    assert step.listener is None


def test_a_recording_without_sound_is_told_not_waited_for_forever() -> None:
    got: list[Captured | Refused] = []
    listener = WordListener(PcmTap(), 0.0, WORDS[0], got.append, listen_ms=200)
    listener.join(timeout=10)
    assert got == [Refused("voice_no_sound")]
