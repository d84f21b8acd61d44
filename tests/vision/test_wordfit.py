"""The host's recorded word laid over the audio before a keystroke (``vision.wordfit``) and its use by
``vision.onsets.find_onset``: onsets where band energies drown, and no onset when the word is not there."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from gamelog.events import ShotCall, VoteStop
from vision.keywords import NUMBER_WORDS, Template, trim
from vision.onsets import RATE, Audio, find_onset, onset_events, templates_for
from vision.wordfit import N_BANDS, band_powers, fit_word, template_onset


def espeak(text: str, *, speed: int = 165, pitch: int = 50) -> tuple[np.ndarray, int]:
    """The clip at 16 kHz (peak 0.5) and its true onset sample (tablesim's definition, on the raw clip)."""
    from tablesim.audio import SAMPLE_RATE, onset_index, synthesize

    clip = synthesize(text, speed=speed, pitch=pitch)  # fails loudly when espeak-ng is missing
    k = SAMPLE_RATE // RATE
    on = onset_index(clip) // k
    clip = clip[: len(clip) // k * k].reshape(-1, k).mean(axis=1)
    return (clip * 0.5 / np.abs(clip).max()).astype(np.float32), on


def template(word: str) -> Template:
    """Said by the game's voice, slower and higher (a template is never the same utterance)."""
    x = trim(espeak(f"{word.capitalize()}.", speed=135, pitch=62)[0])
    if word == "спасибо":
        return Template(word, "vote_stop", None, x)
    return Template(word, "shot_call", NUMBER_WORDS.index(word) + 1, x)


def lowpass(x: np.ndarray, taps: int) -> np.ndarray:
    return np.convolve(x, np.ones(taps) / taps, mode="same")


def scene(
    word: str, *, noise_db: float, murmur_db: float | None = None, seed: int = 0
) -> tuple[Audio, float]:
    """6 s of room noise (RMS ``noise_db`` dBFS), the vote question, and ``word`` at a known onset; with
    ``murmur_db``, another voice talking over the host's word (RMS while it talks)."""
    rng = np.random.default_rng(seed)
    x = lowpass(rng.standard_normal(6 * RATE), 3)
    x = (x * 10 ** (noise_db / 20) / x.std()).astype(np.float32)
    call, _ = espeak("Кто за то, чтобы игру покинул игрок номер семь?")
    x[RATE // 5 : RATE // 5 + len(call)] += call
    clip, on = espeak(f"{word.capitalize()}.")
    truth_i = round((3600 + rng.uniform(0, 300)) * RATE / 1000)
    x[truth_i - on : truth_i - on + len(clip)] += clip
    if murmur_db is not None:
        talk, _ = espeak("Я думаю, что седьмой игрок красный. Мне не нравится, как он голосовал.", pitch=20)
        talk = lowpass(talk, 4)
        talk = talk * 10 ** (murmur_db / 20) / np.sqrt(np.mean(talk[np.abs(talk) > 0.01] ** 2))
        a = truth_i - round(rng.uniform(1.0, 1.5) * RATE)
        x[a : a + len(talk)] += talk[: len(x) - a].astype(np.float32)
    return Audio(x, 0.0), truth_i * 1000.0 / RATE


def test_template_onset_and_band_powers() -> None:
    x = np.zeros(RATE // 2, np.float32)
    x[3000:5000] = np.sin(np.arange(2000) * 2 * np.pi * 1000 / RATE).astype(np.float32)
    x[2500] = 0.01  # under 3 % of the peak: not the onset
    assert template_onset(x) == 3000 + 1  # sin(0) = 0; the next sample is the first above
    p = band_powers(x)
    assert p.shape == (1 + (len(x) - 320) // 40, N_BANDS) and np.all(p > 0)
    loud = p[100]  # a frame inside the tone: the band holding 1 kHz dominates
    assert int(np.argmax(loud)) in (2, 3) and loud.max() > 1000 * np.median(loud)


def test_the_template_itself_is_placed_to_the_sample_region() -> None:
    tp = template("спасибо")
    rng = np.random.default_rng(1)
    x = (rng.standard_normal(4 * RATE) * 10 ** (-60 / 20)).astype(np.float32)
    at = 2 * RATE
    x[at : at + len(tp.samples)] += tp.samples
    truth = (at + template_onset(tp.samples)) * 1000.0 / RATE
    fit = fit_word(Audio(x, 500.0), 500.0 + truth + 200, tp)
    assert fit is not None
    assert abs(fit.t - 500.0 - truth) <= 5.0, (fit, truth)
    assert fit.score < 0.35 and 0.9 < fit.rate < 1.1 and fit.snr_db > 40


@pytest.mark.parametrize(("word", "seed"), [("спасибо", 0), ("спасибо", 1), ("восемь", 2), ("три", 3)])
def test_onset_within_30_ms_where_the_energy_onset_drowns_in_noise(word: str, seed: int) -> None:
    audio, truth = scene(word, noise_db=-33.0, seed=seed)  # the host's speech is ~10 dB over the noise
    key = truth + 150 + 40 * seed
    assert find_onset(audio, key) is None  # band energies alone: the word's first sound is under the noise
    on = find_onset(audio, key, templates=[template(word)])
    assert on is not None and on.method == "template" and on.word == word
    assert abs(on.t - truth) <= 30, (on, truth)
    assert on.conf > 0.8 and on.score is not None and on.score < 0.55


@pytest.mark.parametrize("seed", range(3))
def test_onset_within_30_ms_with_a_loud_voice_over_the_word(seed: int) -> None:
    audio, truth = scene("спасибо", noise_db=-52.0, murmur_db=-32.0, seed=seed)  # ~9 dB under the host
    on = find_onset(audio, truth + 200, templates=[template("спасибо")])
    assert on is not None
    assert abs(on.t - truth) <= 30, (on, truth)


def test_quiet_room_both_agree_and_the_energy_onset_is_kept() -> None:
    audio, truth = scene("спасибо", noise_db=-60.0, seed=4)
    key = truth + 220
    energy = find_onset(audio, key)
    both = find_onset(audio, key, templates=[template("спасибо")])
    assert energy is not None and both is not None
    assert both.method == "both" and both.t == energy.t and both.conf >= 0.99
    assert abs(both.t - truth) <= 30


def test_no_word_before_the_keystroke_gives_no_onset() -> None:
    audio, truth = scene("спасибо", noise_db=-40.0, murmur_db=-32.0, seed=5)
    assert find_onset(audio, truth - 600, templates=[template("спасибо")]) is None  # the host is silent


def test_another_word_than_the_template_gives_no_onset() -> None:
    audio, truth = scene("спасибо", noise_db=-45.0, seed=6)
    assert find_onset(audio, truth + 200, templates=[template("шесть")]) is None


def test_templates_for_picks_the_marks_word() -> None:
    tps = [template("спасибо"), template("три"), template("семь")]
    assert [t.word for t in templates_for(VoteStop(t=1, src="host"), tps)] == ["спасибо"]
    assert [t.word for t in templates_for(ShotCall(t=1, src="host", target=7), tps)] == ["семь"]
    assert [t.word for t in templates_for(ShotCall(t=1, src="host", target=9), tps)] == ["три", "семь"]
    assert templates_for(ShotCall(t=1, src="host", target=3), []) == []


def test_onset_events_with_templates_record_method_and_score() -> None:
    audio, truth = scene("спасибо", noise_db=-33.0, seed=7)
    marks = [VoteStop(t=round(truth) + 230, src="host", id="h3")]
    assert onset_events(marks, audio) == []  # without templates: drowned, no event
    evs = onset_events(marks, audio, templates=[template("спасибо"), template("три")])
    assert len(evs) == 1 and evs[0].ref == "h3" and abs(evs[0].t - truth) <= 30
    assert evs[0].extra["method"] == "template" and 0 < float(evs[0].extra["score"]) < 0.55
    assert evs[0].id == "aud:speech_onset:h3:0.4"


def test_the_analysers_audio_pass_uses_the_bundles_templates(tmp_path: Path) -> None:
    from gamelog.events import SpeechOnset
    from gamelog.jsonl import read_events
    from vision.analyzer import _audio_pass
    from vision.keywords import save_templates, write_wav

    audio, truth = scene("спасибо", noise_db=-33.0, seed=8)  # energy onsets drown here
    write_wav(tmp_path / "room.wav", audio.samples)
    marks = [VoteStop(t=round(truth) + 210, src="host", id="h9")]
    warnings: list[str] = []
    assert _audio_pass(tmp_path, ["room.wav"], list(marks), warnings) == 0  # no templates: no event
    save_templates(tmp_path, [template("спасибо")])
    assert _audio_pass(tmp_path, ["room.wav"], list(marks), warnings) == 1
    evs = [e for e in read_events(tmp_path / "audio.jsonl").events if isinstance(e, SpeechOnset)]
    assert len(evs) == 1 and evs[0].ref == "h9" and abs(evs[0].t - truth) <= 30
    assert evs[0].extra["method"] == "template"
