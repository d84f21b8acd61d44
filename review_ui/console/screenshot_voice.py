"""Screenshot of the console's "Voice templates" step for the docs:
``python -m review_ui.console.screenshot_voice OUT.png``.

Makes a short file whose sound is the host (espeak-ng, through ``tablesim.audio``) saying «Спасибо» and
один … десять, plays it as if live into a new bundle, opens the step (F8), presses Start and grabs the
step's window once every word is saved, beside the console. Runs offscreen (about 20 s of real time).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import wave
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import imageio_ffmpeg
from PySide6.QtWidgets import QApplication

from recorder.session import RecorderConfig
from recorder.sources import FileSource
from review_ui.console.launch import open_console
from review_ui.console.voice_capture import WORDS
from tablesim.audio import SAMPLE_RATE, AudioKnobs, Track

FIRST_MS, STEP_MS = 2600, 1300


def host_words_clip(out: Path, *, first_ms: int = FIRST_MS, step_ms: int = STEP_MS) -> Path:
    """A 320x180 video whose sound says the step's words in order, from ``first_ms`` every ``step_ms``."""
    length = first_ms + len(WORDS) * step_ms + 1000
    track = Track(length)
    track.room(AudioKnobs(noise_db=-55.0, murmur_db=-99.0), seed=7)
    for i, (word, _kind, _target) in enumerate(WORDS):
        track.place_onset(word, first_ms + i * step_ms)
    wav = out.with_suffix(".wav")
    with wave.open(str(wav), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(SAMPLE_RATE)
        w.writeframes((track.finish() * 32767).astype("<i2").tobytes())
    cmd = [imageio_ffmpeg.get_ffmpeg_exe(), "-v", "error", "-y", "-f", "lavfi"]
    cmd += ["-i", f"color=c=0x406040:s=320x180:r=15:d={length / 1000:.3f}", "-i", str(wav)]
    cmd += ["-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-shortest", str(out)]
    subprocess.run(cmd, check=True)
    return out


def _until(app: QApplication, cond: object, timeout: float) -> bool:
    end = time.monotonic() + timeout
    while not cond() and time.monotonic() < end:  # type: ignore[operator]
        app.processEvents()
        time.sleep(0.01)
    return bool(cond())  # type: ignore[operator]


def main(argv: list[str]) -> int:
    out = Path(argv[0])
    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    with tempfile.TemporaryDirectory() as tmp:
        clip = host_words_clip(Path(tmp) / "host.mp4")
        win = open_console(
            Path(tmp) / "game", FileSource(clip, speed=1.0), config=RecorderConfig(tap_width=320), lang="ru"
        )
        _until(app, lambda: win.model.recording and win.bridge.media_ms() > 1000, 30)
        step = win.open_voice_step()
        step.start()
        ok = _until(app, lambda: bool(step.templates), 60)
        step.rows.setCurrentRow(-1)
        app.processEvents()
        step.grab().save(str(out))
        win.close()
        _until(app, lambda: win.final_status is not None, 30)
    print(f"{out}: {'all words saved' if ok else 'NOT all words heard'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
