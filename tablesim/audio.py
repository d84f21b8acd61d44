"""The host's voice and the room: espeak-ng speaks the host's lines onto the game's timeline.

Each host line is synthesised once (``espeak-ng -v ru``), and placed so that its **true onset** (the first
sample whose magnitude exceeds :data:`ONSET_THRESHOLD` of full scale) falls on the line's scripted time. The
onset is therefore known to the sample; ``truth.json`` records it, and the host's keystroke marks follow it by
150–300 ms. Under the host: room noise (filtered noise) and a murmur of other voices at configurable levels,
and the players' own speeches (other espeak voices) during their minutes.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import wave
from dataclasses import dataclass
from pathlib import Path

import numpy as np

SAMPLE_RATE = 48000
ONSET_THRESHOLD = 0.02  # of full scale, on the synthesised clip before mixing
HOST_PEAK = 0.5  # the host's lines are normalised to this peak
NUMBER_WORDS = ("ноль", "один", "два", "три", "четыре", "пять", "шесть", "семь", "восемь", "девять", "десять")

MURMUR_PHRASES = (
    "Я думаю, что седьмой игрок красный.",
    "Мне не нравится, как он голосовал вчера.",
    "Посмотрите на реакцию четвёртого.",
    "Это очень странный ход.",
    "Я шериф, и я проверил второго.",
    "Давайте подумаем ещё раз.",
    "Он слишком быстро поставил руку.",
    "Я буду голосовать за девятого.",
    "Ну что, коллеги, кто здесь мафия?",
    "Я ничего не видел.",
)
PLAYER_VOICES = ("ru+m1", "ru+m3", "ru+f2", "ru+m5", "ru+f4", "ru+m7", "ru+f1", "ru+m2", "ru+f3", "ru+m4")


class AudioError(RuntimeError):
    pass


def espeak_binary() -> str:
    exe = shutil.which("espeak-ng")
    if not exe:
        raise AudioError(
            "espeak-ng is not installed: it voices the host "
            "(Debian: apt-get install -y espeak-ng; ./run installs it)"
        )
    return exe


_CACHE: dict[tuple[str, str, int, int], np.ndarray] = {}


def synthesize(text: str, *, voice: str = "ru", speed: int = 165, pitch: int = 50) -> np.ndarray:
    """Float32 mono samples at :data:`SAMPLE_RATE` of ``text`` spoken by espeak-ng (cached per process)."""
    key = (text, voice, speed, pitch)
    if key in _CACHE:
        return _CACHE[key]
    exe = espeak_binary()
    with tempfile.TemporaryDirectory(prefix="tablesim-tts-") as tmp:
        wav = Path(tmp) / "line.wav"
        cmd = [exe, "-v", voice, "-s", str(speed), "-p", str(pitch), "-w", str(wav), text]
        proc = subprocess.run(cmd, capture_output=True, timeout=60, check=False)
        if proc.returncode != 0 or not wav.exists():
            raise AudioError(f"espeak-ng failed on {text!r}: {proc.stderr.decode(errors='replace').strip()}")
        with wave.open(str(wav), "rb") as w:
            rate, width, ch = w.getframerate(), w.getsampwidth(), w.getnchannels()
            raw = w.readframes(w.getnframes())
    if width != 2 or ch != 1:
        raise AudioError(f"espeak-ng wrote {ch} channel(s) of {8 * width}-bit audio; expected 16-bit mono")
    x = np.frombuffer(raw, dtype="<i2").astype(np.float64) / 32768.0
    x = resample(x, rate, SAMPLE_RATE)
    out = x.astype(np.float32)
    _CACHE[key] = out
    return out


def resample(x: np.ndarray, rate_in: int, rate_out: int) -> np.ndarray:
    """Linear-interpolation resampling (speech from espeak is band-limited well below both rates)."""
    if rate_in == rate_out or len(x) == 0:
        return x
    n_out = round(len(x) * rate_out / rate_in)
    pos = np.arange(n_out) * (rate_in / rate_out)
    return np.interp(pos, np.arange(len(x)), x)


def onset_index(x: np.ndarray, threshold: float = ONSET_THRESHOLD) -> int:
    """Index of the first sample whose magnitude exceeds ``threshold``; raises if the clip is silent."""
    above = np.flatnonzero(np.abs(x) > threshold)
    if len(above) == 0:
        raise AudioError("the synthesised clip is silent")
    return int(above[0])


def host_text(kind: str, *, n: int | None = None, candidate: int | None = None, rnd: str = "main",
              target: int | None = None, count: int | None = None, text: str = "") -> str:  # fmt: skip
    """The Russian line the host says for a script host line."""
    if kind == "vote_call":
        if rnd == "all":
            return "Кто за то, чтобы все выставленные игроки покинули игру?"
        return f"Кто за то, чтобы игру покинул игрок номер {candidate}?"
    if kind == "vote_stop":
        return "Спасибо."
    if kind == "vote_count":
        return f"{NUMBER_WORDS[count or 0].capitalize()}." if (count or 0) <= 10 else f"{count}."
    if kind == "shot_call":
        return f"{NUMBER_WORDS[target or 0].capitalize()}."
    if kind == "night":
        return "Наступает ночь. Маски надеты." if n == 0 else "Наступает ночь."
    if kind == "day":
        return "Доброе утро."
    if kind == "nominate":
        return "Принято."
    if kind == "hunt":
        return "Мафия выходит на охоту."
    if kind == "say":
        return text
    raise ValueError(f"host line {kind!r} is not spoken")


@dataclass(frozen=True)
class Placed:
    """A spoken line on the timeline: its text, first sample, true onset (sample and ms) and length."""

    text: str
    start: int
    onset_sample: int
    onset_ms: float
    length: int


@dataclass(frozen=True)
class AudioKnobs:
    noise_db: float = -52.0  # room noise RMS, dBFS
    murmur_db: float = -40.0  # other voices at the table, RMS while talking, dBFS; None-like: below -90 = off
    speech_db: float = -24.0  # the players' own speeches during their minutes
    murmur_per_min: float = 10.0


class Track:
    """A mono float32 track of ``length_ms`` milliseconds at :data:`SAMPLE_RATE`."""

    def __init__(self, length_ms: int) -> None:
        self.samples = np.zeros(round(length_ms * SAMPLE_RATE / 1000), dtype=np.float32)

    def _mix(self, clip: np.ndarray, start: int, gain: float) -> None:
        a, b = max(start, 0), min(start + len(clip), len(self.samples))
        if b > a:
            self.samples[a:b] += clip[a - start : b - start] * np.float32(gain)

    def place_onset(self, text: str, onset_ms: float, *, voice: str = "ru") -> Placed:
        """Speak ``text`` so that its true onset lands on ``onset_ms`` (rounded to a sample)."""
        clip = synthesize(text, voice=voice)
        peak = float(np.abs(clip).max())
        on = onset_index(clip)
        onset_sample = round(onset_ms * SAMPLE_RATE / 1000)
        start = onset_sample - on
        if start < 0:
            raise AudioError(f"the line {text!r} at {onset_ms:.0f} ms would start before the recording")
        if onset_sample >= len(self.samples):
            raise AudioError(f"the line {text!r} at {onset_ms:.0f} ms starts after the end of the game")
        length = min(len(clip), len(self.samples) - start)  # the recording may stop mid-sentence
        self._mix(clip[:length], start, HOST_PEAK / peak)
        return Placed(text, start, onset_sample, onset_sample * 1000.0 / SAMPLE_RATE, length)

    def room(self, knobs: AudioKnobs, seed: int, *, busy: list[tuple[int, int]] | None = None) -> None:
        """Room noise everywhere and a murmur of other voices at random moments outside ``busy`` spans."""
        rng = np.random.default_rng([seed, 0xA0D10])
        n = len(self.samples)
        if knobs.noise_db > -90:
            white = rng.standard_normal(n)
            # a gentle low-pass (room rumble and ventilation are mostly low frequencies)
            k = np.ones(8) / 8.0
            shaped = np.convolve(white, k, mode="same")
            shaped *= 10 ** (knobs.noise_db / 20) / (shaped.std() + 1e-12)
            self.samples += shaped.astype(np.float32)
        if knobs.murmur_db > -90:
            count = int(knobs.murmur_per_min * n / SAMPLE_RATE / 60)
            for _ in range(count):
                phrase = MURMUR_PHRASES[int(rng.integers(len(MURMUR_PHRASES)))]
                voice = PLAYER_VOICES[int(rng.integers(len(PLAYER_VOICES)))]
                clip = _muffle(synthesize(phrase, voice=voice, speed=int(rng.integers(150, 200))))
                start = int(rng.integers(0, max(1, n - len(clip))))
                for _try in range(8):  # keep the murmur off the host's own lines
                    if not any(start < b and start + len(clip) > a for a, b in busy or []):
                        break
                    start = int(rng.integers(0, max(1, n - len(clip))))
                else:
                    continue
                gain = 10 ** (knobs.murmur_db / 20) / (float(np.sqrt(np.mean(clip**2))) + 1e-9)
                self._mix(clip, start, gain)

    def speech(self, seat: int, t0_ms: int, t1_ms: int, knobs: AudioKnobs, seed: int) -> None:
        """The player at ``seat`` talks from ``t0_ms`` to ``t1_ms`` (phrases with short pauses)."""
        if knobs.speech_db <= -90:
            return
        rng = np.random.default_rng([seed, 0x5EEC, seat, t0_ms])
        voice = PLAYER_VOICES[(seat - 1) % len(PLAYER_VOICES)]
        pos = int(t0_ms * SAMPLE_RATE / 1000) + int(0.4 * SAMPLE_RATE)
        end = int(t1_ms * SAMPLE_RATE / 1000) - int(0.3 * SAMPLE_RATE)
        while pos < end:
            clip = synthesize(MURMUR_PHRASES[int(rng.integers(len(MURMUR_PHRASES)))], voice=voice)
            clip = clip[: max(0, end - pos)]
            if len(clip) == 0:
                break
            gain = 10 ** (knobs.speech_db / 20) / (float(np.sqrt(np.mean(clip**2))) + 1e-9)
            self._mix(clip, pos, gain)
            pos += len(clip) + int(rng.integers(2000, 12000))

    def finish(self) -> np.ndarray:
        """The track clipped to [-1, 1]."""
        return np.clip(self.samples, -1.0, 1.0)


def _muffle(x: np.ndarray) -> np.ndarray:
    """Voices from across the room: a soft low-pass."""
    k = np.ones(12, dtype=np.float32) / 12.0
    return np.convolve(x, k, mode="same").astype(np.float32)
