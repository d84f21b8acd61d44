"""The host's voice as the clock: the onset of the spoken word behind each ``vote_stop`` and ``shot_call``.

A host presses "Спасибо" 150–300 ms after saying it. For each such keystroke the analyser looks at the
second of audio before it and finds where the word started:

1. A short-time envelope (10 ms windows, 2.5 ms hop) of the signal and of its pre-emphasised version
   (which lifts the soft fricative "с" of "Спасибо" and "семь" above low-frequency room noise).
2. The room's noise floor is a low percentile of the envelope over the few seconds before the mark.
3. The word is the last run of "loud" frames (above the floor by :data:`SPEECH_DB`, short stop-consonant
   gaps bridged) that is under way at the keystroke; its onset is refined to the sample: the first
   sample, scanning back from the run's start, after which the signal stays above the noise.
4. A word that does not stand clear of the noise, or runs back to the start of the search (no silence
   before it), gives no onset: no event, never a guess.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from gamelog.events import Event, ShotCall, SpeechOnset, VoteStop

RATE = 16000
WIN_MS, HOP_MS = 10.0, 2.5
SEARCH_MS = 1000  # look this far before the keystroke
FLOOR_MS = 3000  # estimate the noise floor over this much before the keystroke
MIN_LAG_MS = 40  # the word starts at least this long before the keystroke
SPEECH_DB = 12.0  # a frame this far above the floor is speech
GAP_BRIDGE_MS = 110  # stop consonants ("п", "б", "т") silence a word this long at most
MIN_SILENCE_MS = 60  # a word's onset must follow at least this much quiet
ANALYSER = "mafiacam-onsets"
VERSION = "0.2"


@dataclass(frozen=True)
class Audio:
    """Mono float32 samples at :data:`RATE`; ``start_ms`` is the media time of sample 0."""

    samples: npt.NDArray[np.float32]
    start_ms: float

    def index(self, t_ms: float) -> int:
        return round((t_ms - self.start_ms) * RATE / 1000.0)

    def time(self, i: int | float) -> float:
        return self.start_ms + float(i) * 1000.0 / RATE


@dataclass(frozen=True)
class Onset:
    t: float  # ms of media time
    conf: float
    snr_db: float
    silence_ms: float


def read_audio(paths: Sequence[Path]) -> Audio | None:
    """The audio of the recording's segments as one track (None when there is no audio track).

    Segments are placed at their own pts (a segmenting recorder keeps media time running); a gap between
    segments is filled with silence.
    """
    import av

    chunks: list[tuple[float, npt.NDArray[np.float32]]] = []
    for p in paths:
        try:
            container = av.open(str(p))
        except (av.error.FFmpegError, OSError):
            continue
        with container:
            if not container.streams.audio:
                continue
            stream = container.streams.audio[0]
            resampler = av.AudioResampler(format="flt", layout="mono", rate=RATE)
            first_t: float | None = None
            parts: list[npt.NDArray[np.float32]] = []
            try:
                for frame in container.decode(stream):
                    if first_t is None and frame.pts is not None:
                        first_t = float(frame.pts * stream.time_base) * 1000.0
                    for out in resampler.resample(frame):
                        parts.append(out.to_ndarray().reshape(-1).astype(np.float32))
            except av.error.FFmpegError:
                pass  # a damaged tail: keep what decoded
            for out in resampler.resample(None):
                parts.append(out.to_ndarray().reshape(-1).astype(np.float32))
            if parts:
                chunks.append((first_t or 0.0, np.concatenate(parts)))
    if not chunks:
        return None
    chunks.sort(key=lambda c: c[0])
    start = chunks[0][0]
    end = max(t + len(x) * 1000.0 / RATE for t, x in chunks)
    out_arr = np.zeros(round((end - start) * RATE / 1000.0) + 1, np.float32)
    for t, x in chunks:
        i = round((t - start) * RATE / 1000.0)
        n = min(len(x), len(out_arr) - i)
        out_arr[i : i + n] = x[:n]
    return Audio(out_arr, start)


def _envelope_db(x: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    win = int(WIN_MS * RATE / 1000)
    hop = int(HOP_MS * RATE / 1000)
    if len(x) < win:
        return np.zeros(0)
    sq = np.concatenate([[0.0], np.cumsum(x.astype(np.float64) ** 2)])
    starts = np.arange(0, len(x) - win + 1, hop)
    power = (sq[starts + win] - sq[starts]) / win
    db: npt.NDArray[np.float64] = 10.0 * np.log10(power + 1e-12)
    return db


def find_onset(audio: Audio, key_ms: float) -> Onset | None:
    """The onset of the word under way at ``key_ms`` (the keystroke), or None when none stands out."""
    a = audio.index(key_ms - FLOOR_MS)
    b = audio.index(key_ms)
    if b <= 0 or a >= len(audio.samples):
        return None
    a = max(0, a)
    b = min(len(audio.samples), b)
    seg = audio.samples[a:b]
    if len(seg) < RATE // 4:
        return None
    emph = np.empty_like(seg)
    emph[0] = seg[0]
    emph[1:] = seg[1:] - 0.95 * seg[:-1]
    env = np.maximum(_envelope_db(seg), _envelope_db(emph) + 3.0)
    if len(env) == 0:
        return None
    hop = HOP_MS * RATE / 1000.0
    frames_t = [audio.time(a + i * hop) for i in range(len(env))]
    floor = float(np.percentile(env, 10))
    loud = env > floor + SPEECH_DB
    # The word under way at the keystroke: the last loud frame at or before the keystroke.
    search_from = key_ms - SEARCH_MS
    idx = [i for i in range(len(env)) if frames_t[i] <= key_ms - MIN_LAG_MS and frames_t[i] >= search_from]
    if not idx:
        return None
    last = max((i for i in idx if loud[i]), default=None)
    if last is None:
        return None
    bridge = int(GAP_BRIDGE_MS / HOP_MS)
    i = last
    quiet_run = 0
    start = last
    while i > 0:
        i -= 1
        if loud[i]:
            start = i
            quiet_run = 0
        else:
            quiet_run += 1
            if quiet_run > bridge:
                break
    silence_frames = 0
    j = start - 1
    while j >= 0 and not loud[j]:
        silence_frames += 1
        j -= 1
    silence_ms = silence_frames * HOP_MS
    if frames_t[start] < search_from or silence_ms < MIN_SILENCE_MS:
        return None
    peak = float(env[start : last + 1].max())
    snr = peak - floor
    # Refine to the sample: the frame window starting at ``start`` holds the first loud energy; the word's
    # first sample is where the magnitude first clearly exceeds the noise, scanning from a window earlier.
    noise = seg[: max(1, int((start - silence_frames // 2) * hop))]
    noise_mag = float(np.percentile(np.abs(noise), 99.5)) if len(noise) > 16 else 0.0
    s0 = max(0, int((start - 2) * hop))
    s1 = min(len(seg), int((start + 6) * hop))
    thr = max(noise_mag * 1.5, 1e-4)
    above = np.nonzero(np.abs(seg[s0:s1]) > thr)[0]
    first = s0 + int(above[0]) if len(above) else int(start * hop)
    t = audio.time(a + first)
    conf = float(1.0 / (1.0 + np.exp(-(snr - 20.0) / 4.0))) * float(min(1.0, silence_ms / 150.0))
    return Onset(t=t, conf=round(conf, 3), snr_db=round(snr, 1), silence_ms=silence_ms)


def onset_events(marks: Sequence[Event], audio: Audio) -> list[SpeechOnset]:
    """``speech_onset`` events for every ``vote_stop`` and ``shot_call`` mark that has an id."""
    out: list[SpeechOnset] = []
    for m in marks:
        if not isinstance(m, VoteStop | ShotCall) or m.id is None or m.src not in ("host", "judge"):
            continue
        on = find_onset(audio, m.t)
        if on is None:
            continue
        t = round(on.t)
        out.append(
            SpeechOnset(
                t=t,
                src="audio",
                id=f"aud:speech_onset:{m.id}:{VERSION}",
                ref=m.id,
                conf=on.conf,
                extra={"analyser": f"{ANALYSER}/{VERSION}", "lag_ms": m.t - t, "snr_db": on.snr_db},
            )
        )
    return out
