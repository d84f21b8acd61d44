"""Spotting the host's words by template matching (MFCC + subsequence DTW), on espeak-ng audio."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from gamelog.bundle import load_bundle
from gamelog.events import ProposedWindow
from gamelog.jsonl import write_events_replace
from gamelog.referee import referee_bundle
from vision.keywords import (
    FMAX,
    FMIN,
    N_MELS,
    NUMBER_WORDS,
    Template,
    dct_matrix,
    hz_to_mel,
    load_templates,
    log_mel,
    mel_filterbank,
    mel_to_hz,
    save_templates,
    spot_marks,
    subsequence_dtw,
    trim,
)
from vision.onsets import RATE, Audio


def espeak(text: str, *, speed: int = 165, pitch: int = 50) -> tuple[np.ndarray, int]:
    """The clip at 16 kHz (peak 0.5) and its true onset sample (tablesim's definition, on the raw clip)."""
    from tablesim.audio import SAMPLE_RATE, onset_index, synthesize

    clip = synthesize(text, speed=speed, pitch=pitch)  # fails loudly when espeak-ng is missing
    k = SAMPLE_RATE // RATE
    on = onset_index(clip) // k
    clip = clip[: len(clip) // k * k].reshape(-1, k).mean(axis=1)
    return (clip * 0.5 / np.abs(clip).max()).astype(np.float32), on


def host_templates(words: list[str]) -> list[Template]:
    """Templates said by the same voice as the game, but slower and higher (never the same twice)."""
    out = []
    for w in words:
        x = trim(espeak(f"{w.capitalize()}.", speed=135, pitch=62)[0])
        if w == "спасибо":
            out.append(Template(w, "vote_stop", None, x))
        else:
            out.append(Template(w, "shot_call", NUMBER_WORDS.index(w) + 1, x))
    return out


def stretch(with_thanks: bool, seed: int = 3) -> tuple[Audio, float]:
    """30 s: room noise, other voices, the vote question, and (maybe) "Спасибо" at a known onset."""
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(30 * RATE) * 10 ** (-52 / 20)).astype(np.float32)

    def put(text: str, at_ms: float, gain: float = 1.0, voice_kw: dict[str, int] | None = None) -> float:
        clip, on = espeak(text, **(voice_kw or {}))
        clip = clip * np.float32(gain)
        i = round(at_ms * RATE / 1000) - on
        x[i : i + len(clip)] += clip
        return (i + on) * 1000.0 / RATE

    put(
        "Я думаю, что седьмой игрок красный. Мне не нравится, как он голосовал вчера.",
        1000,
        0.3,
        {"pitch": 30},
    )
    put("Кто за то, чтобы игру покинул игрок номер семь?", 9000)
    truth = put("Спасибо.", 13900) if with_thanks else -1.0
    put("Три.", 15000)  # the announced count: a lone number, not a night's call
    put("Посмотрите на реакцию четвёртого. Это очень странный ход.", 20000, 0.3, {"pitch": 80})
    return Audio(x, 0.0), truth


TEMPLATES = ["спасибо", *NUMBER_WORDS]


def test_spots_thanks_in_a_30_s_stretch_and_nothing_else(tmp_path: Path) -> None:
    audio, truth = stretch(True)
    props = spot_marks(audio, host_templates(TEMPLATES))
    write_events_replace(tmp_path / "audio.jsonl", props)  # valid lines for audio.jsonl
    from gamelog.jsonl import read_events

    back = read_events(tmp_path / "audio.jsonl")
    assert not back.bad and [e.extra.get("word") for e in back.events] == ["спасибо"]
    stops = [p for p in props if isinstance(p, ProposedWindow) and p.kind == "vote_stop"]
    assert len(stops) == 1
    assert abs(stops[0].t - truth) <= 30, (stops[0].t, truth)
    assert stops[0].src == "audio" and stops[0].until > stops[0].t
    assert stops[0].extra["word"] == "спасибо" and 0.5 < stops[0].extra["conf"] <= 1.0
    assert not [p for p in props if isinstance(p, ProposedWindow) and p.kind == "shot_call"]


def test_no_thanks_no_proposal() -> None:
    audio, _ = stretch(False)
    assert spot_marks(audio, host_templates(TEMPLATES)) == []


def test_a_players_thanks_at_the_end_of_a_speech_is_not_proposed() -> None:
    rng = np.random.default_rng(9)
    x = (rng.standard_normal(8 * RATE) * 10 ** (-52 / 20)).astype(np.float32)
    from tablesim.audio import SAMPLE_RATE, synthesize

    clip = synthesize("Я думаю, что седьмой игрок красный. Спасибо.", voice="ru+m3")
    clip = clip[: len(clip) // 3 * 3].reshape(-1, SAMPLE_RATE // RATE).mean(axis=1)
    clip = (clip * 0.5 / np.abs(clip).max()).astype(np.float32)
    x[RATE : RATE + len(clip)] += clip
    tps = host_templates(["спасибо"])
    assert spot_marks(Audio(x, 0.0), tps) == []
    host, on = espeak("Спасибо.")  # the control: the host's word after the quiet of a vote window
    x[6 * RATE - on : 6 * RATE - on + len(host)] += host
    props = spot_marks(Audio(x, 0.0), tps)
    assert [round(p.t / 100) for p in props] == [60]


def test_a_nights_numbers_become_shot_calls_with_their_targets() -> None:
    rng = np.random.default_rng(5)
    x = (rng.standard_normal(12 * RATE) * 10 ** (-50 / 20)).astype(np.float32)
    truth = {}
    for k in range(1, 6):
        clip, on = espeak(f"{NUMBER_WORDS[k - 1].capitalize()}.")
        i = round((1000 + 1500 * (k - 1)) * RATE / 1000) - on
        x[i : i + len(clip)] += clip
        truth[k] = (i + on) * 1000.0 / RATE
    props = spot_marks(Audio(x, 0.0), host_templates(TEMPLATES))
    calls = {p.extra["target"]: p.t for p in props if isinstance(p, ProposedWindow) and p.kind == "shot_call"}
    assert len(calls) >= 4 and set(calls) <= set(truth)
    assert all(abs(t - truth[k]) <= 30 for k, t in calls.items())


def test_pure_tone_lands_in_the_mel_band_around_its_frequency() -> None:
    t = np.arange(RATE) / RATE
    for f in (440.0, 1000.0, 3000.0):
        e = log_mel((0.3 * np.sin(2 * np.pi * f * t)).astype(np.float32)).mean(axis=0)
        centres = mel_to_hz(np.linspace(hz_to_mel(FMIN), hz_to_mel(FMAX), N_MELS + 2))[1:-1]
        assert int(np.argmax(e)) == int(np.argmin(np.abs(centres - f))), f


def test_filterbank_and_dct_shapes_and_properties() -> None:
    fb = mel_filterbank()
    assert fb.shape == (N_MELS, 257) and fb.min() >= 0 and fb.max() <= 1
    assert np.all(fb.sum(axis=1) > 0)  # no empty band
    d = dct_matrix(N_MELS, N_MELS)
    assert np.allclose(d @ d.T, np.eye(N_MELS), atol=1e-9)  # orthonormal DCT-II


def test_subsequence_dtw_finds_a_slowed_copy() -> None:
    rng = np.random.default_rng(0)
    tpl = rng.standard_normal((20, 4))
    rec = rng.standard_normal((200, 4)) * 3
    slow = np.repeat(tpl, 2, axis=0)[::1]  # played at half speed: 40 frames from 100
    rec[100:140] = slow
    cost = np.sqrt(((tpl[:, None, :] - rec[None, :, :]) ** 2).sum(-1))
    score, start = subsequence_dtw(cost)
    j = int(np.argmin(score))
    assert 138 <= j <= 140 and 99 <= start[j] <= 101 and score[j] < 0.5


def test_templates_round_trip_and_bad_files_are_named(tmp_path: Path) -> None:
    tps = host_templates(["спасибо", "один"])
    save_templates(tmp_path, tps)
    back = load_templates(tmp_path)
    assert [(t.word, t.kind, t.target) for t in back] == [
        ("спасибо", "vote_stop", None),
        ("один", "shot_call", 1),
    ]
    assert np.abs(back[0].samples - tps[0].samples).max() < 1e-3
    doc = json.loads((tmp_path / "voice_templates" / "templates.json").read_text("utf-8"))
    doc["words"][1]["file"] = "missing.wav"
    (tmp_path / "voice_templates" / "templates.json").write_text(json.dumps(doc), "utf-8")
    with pytest.raises(ValueError, match=r"missing\.wav"):
        load_templates(tmp_path)
    assert load_templates(tmp_path / "nowhere") == []


def test_the_referee_ignores_voice_proposals(project_root: Path, tmp_path: Path) -> None:
    folder = tmp_path / "b"
    shutil.copytree(project_root / "examples" / "vision-votes", folder)
    before = referee_bundle(load_bundle(folder)).to_json()
    props = [
        ProposedWindow(
            t=5000, src="audio", id="aud:pw:1", kind="vote_stop", until=5600, extra={"word": "спасибо"}
        ),
        ProposedWindow(t=9000, src="audio", id="aud:pw:2", kind="shot_call", until=9500, extra={"target": 3}),
    ]
    from gamelog.jsonl import read_events

    old = list(read_events(folder / "audio.jsonl").events)
    write_events_replace(folder / "audio.jsonl", old + props)
    assert referee_bundle(load_bundle(folder)).to_json() == before
