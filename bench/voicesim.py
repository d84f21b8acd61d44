"""Synthetic host-voice scenes for the voice benchmarks (``bench_onsets.py``, ``bench_keywords.py``).

Short episodes (a vote question then "Спасибо", or a night's numbers one to ten) over room noise, a murmur of
other voices that may fall on the host's words, and a player talking right up to the host's word. The host is
espeak-ng's Russian voice (``tablesim.audio``); every host line is placed so that its true onset (tablesim's
definition: the first sample above 2 % of full scale in the synthesised clip) lands on a known time.
Unlike ``tablesim.audio.Track.room``, the murmur here may overlap the host (``Scenario.overlap``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tablesim.audio import (
    HOST_PEAK,
    MURMUR_PHRASES,
    NUMBER_WORDS,
    PLAYER_VOICES,
    SAMPLE_RATE,
    onset_index,
    synthesize,
)
from vision.onsets import RATE


@dataclass(frozen=True)
class Scenario:
    name: str
    noise_db: float = -52.0  # room noise RMS, dBFS (low-passed white noise, as tablesim)
    murmur_db: float = -99.0  # other voices while they talk, RMS dBFS; below -90: none
    murmur_per_min: float = 0.0
    overlap: bool = True  # murmur may fall on the host's words
    speech_before_db: float = -99.0  # a player talks up to 0–300 ms before the host's word (RMS dBFS)
    host_gain_db: float = 4.0  # the host's level varies by up to this much either way per line


SCENARIOS = (
    Scenario("quiet", noise_db=-62.0),
    Scenario("room (tablesim default)", noise_db=-52.0, murmur_db=-40.0, murmur_per_min=10.0, overlap=False),
    Scenario("murmur on the host", noise_db=-52.0, murmur_db=-40.0, murmur_per_min=30.0),
    Scenario("noisy + loud murmur", noise_db=-42.0, murmur_db=-34.0, murmur_per_min=30.0),
    Scenario(
        "player talks until the word",
        noise_db=-52.0,
        murmur_db=-40.0,
        murmur_per_min=10.0,
        speech_before_db=-24.0,
    ),
    Scenario("very noisy", noise_db=-36.0, murmur_db=-30.0, murmur_per_min=30.0),
)


@dataclass(frozen=True)
class Spoken:
    """A host word on the timeline: kind (vote_stop / shot_call / other), text, true onset and end (ms)."""

    kind: str
    text: str
    onset_ms: float
    end_ms: float
    target: int | None = None


@dataclass(frozen=True)
class Episode:
    samples: np.ndarray  # float32 mono at vision.onsets.RATE (16 kHz)
    words: tuple[Spoken, ...]


def to16k(x: np.ndarray) -> np.ndarray:
    """48 kHz → 16 kHz: a windowed-sinc low-pass (zero phase) and every third sample."""
    k = SAMPLE_RATE // RATE
    n = np.arange(-48, 49)
    h = np.sinc(n / k * 0.92) * np.hamming(len(n))
    h /= h.sum()
    return np.convolve(x, h, mode="same")[::k].astype(np.float32)


def _lowpass(x: np.ndarray, taps: int) -> np.ndarray:
    return np.convolve(x, np.ones(taps) / taps, mode="same")


def _last_above(x: np.ndarray, thr: float = 0.02) -> int:
    return int(np.flatnonzero(np.abs(x) > thr)[-1])


class Mixer:
    def __init__(self, length_ms: float, rng: np.random.Generator, speed: int = 165, pitch: int = 50) -> None:
        self.x = np.zeros(round(length_ms * SAMPLE_RATE / 1000), np.float64)
        self.rng = rng
        self.speed, self.pitch = speed, pitch
        self.busy: list[tuple[int, int]] = []

    def add(self, clip: np.ndarray, start: int, gain: float) -> None:
        a, b = max(start, 0), min(start + len(clip), len(self.x))
        if b > a:
            self.x[a:b] += clip[a - start : b - start] * gain

    def host(self, text: str, onset_ms: float, gain_db: float = 0.0) -> tuple[float, float]:
        clip = synthesize(text, speed=self.speed, pitch=self.pitch).astype(np.float64)
        on = onset_index(clip)
        onset = round(onset_ms * SAMPLE_RATE / 1000)
        start = onset - on
        self.add(clip, start, HOST_PEAK / float(np.abs(clip).max()) * 10 ** (gain_db / 20))
        end = start + _last_above(clip)
        self.busy.append((start, start + len(clip)))
        return onset * 1000.0 / SAMPLE_RATE, end * 1000.0 / SAMPLE_RATE

    def player_until(self, end_ms: float, level_db: float, seed_voice: int) -> None:
        """A player's phrase whose last loud sample is at ``end_ms``."""
        phrase = MURMUR_PHRASES[int(self.rng.integers(len(MURMUR_PHRASES)))]
        clip = synthesize(phrase, voice=PLAYER_VOICES[seed_voice % len(PLAYER_VOICES)]).astype(np.float64)
        end = _last_above(clip)
        start = round(end_ms * SAMPLE_RATE / 1000) - end
        gain = 10 ** (level_db / 20) / (float(np.sqrt(np.mean(clip**2))) + 1e-9)
        self.add(clip, start, gain)

    def room(self, sc: Scenario) -> None:
        n = len(self.x)
        if sc.noise_db > -90:
            shaped = _lowpass(self.rng.standard_normal(n), 8)
            self.x += shaped * 10 ** (sc.noise_db / 20) / (shaped.std() + 1e-12)
        if sc.murmur_db > -90:
            count = max(1, round(sc.murmur_per_min * n / SAMPLE_RATE / 60))
            for _ in range(count):
                phrase = MURMUR_PHRASES[int(self.rng.integers(len(MURMUR_PHRASES)))]
                voice = PLAYER_VOICES[int(self.rng.integers(len(PLAYER_VOICES)))]
                clip = _lowpass(synthesize(phrase, voice=voice, speed=int(self.rng.integers(150, 200))), 12)
                start = int(self.rng.integers(-len(clip) // 2, n))
                if not sc.overlap:
                    for _try in range(8):
                        if not any(start < b and start + len(clip) > a for a, b in self.busy):
                            break
                        start = int(self.rng.integers(-len(clip) // 2, n))
                    else:
                        continue
                gain = 10 ** (sc.murmur_db / 20) / (float(np.sqrt(np.mean(clip**2))) + 1e-9)
                self.add(clip, start, gain)

    def finish(self) -> np.ndarray:
        return to16k(np.clip(self.x, -1.0, 1.0))


def _gain(sc: Scenario, rng: np.random.Generator) -> float:
    return float(rng.uniform(-sc.host_gain_db, sc.host_gain_db))


def vote_episode(sc: Scenario, seed: int, *, speed: int = 165, pitch: int = 50) -> Episode:
    """A vote question, "Спасибо" 4.6–5.0 s after it started, then the announced count."""
    rng = np.random.default_rng([seed, 1])
    m = Mixer(8000, rng, speed, pitch)
    cand = int(rng.integers(1, 11))
    words: list[Spoken] = []
    on, end = m.host(f"Кто за то, чтобы игру покинул игрок номер {cand}?", 400, _gain(sc, rng))
    words.append(Spoken("vote_call", "vote_call", on, end, cand))
    t_stop = 400 + 2900 + 1900 + float(rng.uniform(-200, 200))
    if sc.speech_before_db > -90:
        m.player_until(t_stop - float(rng.uniform(0, 300)), sc.speech_before_db, int(rng.integers(10)))
    on, end = m.host("Спасибо.", t_stop, _gain(sc, rng))
    words.append(Spoken("vote_stop", "Спасибо", on, end))
    count = int(rng.integers(0, 8))
    on, end = m.host(f"{NUMBER_WORDS[count].capitalize()}.", t_stop + 1100, _gain(sc, rng))
    words.append(Spoken("vote_count", NUMBER_WORDS[count], on, end, count))
    m.room(sc)
    return Episode(m.finish(), tuple(words))


def night_episode(sc: Scenario, seed: int, *, speed: int = 165, pitch: int = 50) -> Episode:
    """ "Мафия выходит на охоту", then the numbers one to ten, 1.5 s apart."""
    rng = np.random.default_rng([seed, 2])
    m = Mixer(2800 + 10 * 1500 + 800, rng, speed, pitch)
    words: list[Spoken] = []
    on, end = m.host("Мафия выходит на охоту.", 300, _gain(sc, rng))
    words.append(Spoken("hunt", "hunt", on, end))
    for k in range(1, 11):
        t = 2800 + (k - 1) * 1500 + float(rng.uniform(-60, 60))  # (players are silent at night)
        on, end = m.host(f"{NUMBER_WORDS[k].capitalize()}.", t, _gain(sc, rng))
        words.append(Spoken("shot_call", NUMBER_WORDS[k], on, end, k))
    m.room(sc)
    return Episode(m.finish(), tuple(words))
