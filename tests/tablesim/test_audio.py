"""The host's voice: espeak-ng lines placed so that their true onset lands on the scripted time."""

from __future__ import annotations

import numpy as np
import pytest

from tablesim import audio


def test_espeak_speaks_russian_with_a_clear_onset() -> None:
    x = audio.synthesize("Спасибо.")
    assert x.dtype == np.float32 and len(x) > audio.SAMPLE_RATE * 0.3
    on = audio.onset_index(x)
    assert np.all(np.abs(x[:on]) <= audio.ONSET_THRESHOLD)
    assert abs(x[on]) > audio.ONSET_THRESHOLD
    assert audio.synthesize("Спасибо.") is x  # cached


def test_a_silent_clip_has_no_onset() -> None:
    with pytest.raises(audio.AudioError, match="silent"):
        audio.onset_index(np.zeros(100, np.float32))


def test_a_placed_line_starts_exactly_at_its_onset() -> None:
    tr = audio.Track(5000)
    placed = tr.place_onset("Спасибо.", 1234.0)
    assert placed.onset_ms == pytest.approx(1234.0, abs=1000 / audio.SAMPLE_RATE)
    s = tr.finish()
    first = int(np.flatnonzero(np.abs(s) > 1e-6)[0])
    # nothing before the clip's start; the first loud sample is the onset (after the peak normalisation)
    assert first >= placed.start
    loud = np.flatnonzero(np.abs(s) > audio.ONSET_THRESHOLD * audio.HOST_PEAK / 0.7)
    assert abs(int(loud[0]) - placed.onset_sample) < audio.SAMPLE_RATE * 0.005


def test_a_line_must_start_within_the_recording() -> None:
    tr = audio.Track(3000)
    with pytest.raises(audio.AudioError, match="before the recording"):
        tr.place_onset("Кто за то, чтобы игру покинул игрок номер 7?", 10.0)
    with pytest.raises(audio.AudioError, match="after the end"):
        tr.place_onset("Спасибо.", 3000.0)
    cut = tr.place_onset("Кто за то, чтобы игру покинул игрок номер 7?", 2500.0)  # stops mid-sentence
    assert cut.start + cut.length == len(tr.samples)


def test_room_noise_and_murmur_follow_their_levels_and_the_seed() -> None:
    quiet = audio.Track(4000)
    quiet.room(audio.AudioKnobs(noise_db=-60, murmur_db=-99), seed=1)
    loud = audio.Track(4000)
    loud.room(audio.AudioKnobs(noise_db=-40, murmur_db=-99), seed=1)
    rms = lambda x: float(np.sqrt(np.mean(x.astype(np.float64) ** 2)))  # noqa: E731
    assert rms(quiet.samples) == pytest.approx(10 ** (-60 / 20), rel=0.05)
    assert rms(loud.samples) / rms(quiet.samples) == pytest.approx(10.0, rel=0.05)
    again = audio.Track(4000)
    again.room(audio.AudioKnobs(noise_db=-60, murmur_db=-99), seed=1)
    assert np.array_equal(again.samples, quiet.samples)
    off = audio.Track(4000)
    off.room(audio.AudioKnobs(noise_db=-99, murmur_db=-99), seed=1)
    assert not off.samples.any()


def test_murmur_keeps_off_the_hosts_lines() -> None:
    n = 20000
    busy = [(0, int(n * audio.SAMPLE_RATE / 1000 * 0.45))]
    tr = audio.Track(n)
    tr.room(audio.AudioKnobs(noise_db=-99, murmur_db=-30, murmur_per_min=12), seed=5, busy=busy)
    assert not tr.samples[: busy[0][1]].any()
    assert tr.samples[busy[0][1] :].any()


@pytest.mark.parametrize(
    ("kind", "kw", "text"),
    [
        ("vote_call", {"candidate": 7}, "Кто за то, чтобы игру покинул игрок номер 7?"),
        ("vote_stop", {}, "Спасибо."),
        ("shot_call", {"target": 3}, "Три."),
        ("vote_count", {"count": 4}, "Четыре."),
        ("hunt", {}, "Мафия выходит на охоту."),
    ],
)
def test_host_lines(kind: str, kw: dict[str, int], text: str) -> None:
    assert audio.host_text(kind, **kw) == text  # type: ignore[arg-type]
