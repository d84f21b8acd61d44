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
SEARCH_MS = 450  # the word starts at most this long before the keystroke (a host lags 150–300 ms)
ANCHOR_MS = 400  # the word's loud body is under way from at most this long before the keystroke
FLOOR_MS = 2000  # estimate the band noise floors over this much before the keystroke
AFTER_MS = 250  # the word goes on after the keystroke: its peak level is looked for up to here
WORD_BEFORE_MS = 450  # ... and from here before the keystroke
MIN_LAG_MS = 40  # the word starts at least this long before the keystroke
MIN_BAND_SNR_DB = 15.0  # a band whose word peak stands less than this above its floor is not used
FLOOR_MARGIN_DB = 8.0  # a frame counts in a band only this far above the band's floor
WORD_DB = np.array([24.0, 24.0])  # a frame within this of the word's peak (per band) belongs to the word
BODY_DB = 8.0  # a frame within this of the peak is the word's body (the anchor)
GAP_BRIDGE_MS = 70  # stop consonants ("п", "б", "т") silence a word this long at most
SEGMENT_DB = 22.0  # a segment of the word comes within this of its peak somewhere
BG_FROM_MS, BG_TO_MS = 1000, 400  # the background level is the median over this stretch before the key
BG_MARGIN_DB = 8.0  # a word-like frame stands this far above the background (in some band)
LONG_GAP_MS, SEGMENT_LONG_GAP_DB = 30.0, 14.0  # ... and behind a gap this long, within this
MIN_DEPTH_DB = 18.0  # ... by at least this much (median, in the band where it is closest to the word)
PRE_MS = 150  # the stretch before the onset that must be quieter than the word
MIN_SILENCE_MS = 30  # a word's onset must follow at least this much quiet
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
                    if first_t is None and frame.pts is not None and stream.time_base is not None:
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


FRAME = 320  # 20 ms analysis window at 16 kHz (longer than two pitch periods: no ripple)
HOP = 40  # 2.5 ms
NFFT = 512
BANDS_HZ = ((150.0, 3000.0), (3000.0, 7800.0))  # voiced sounds / fricatives and bursts ("с", "ш", "т")


def band_envelopes(x: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    """Short-time band energies in dB, shape (frames, bands); frame ``i`` starts at sample ``i * HOP``."""
    if len(x) < FRAME:
        return np.zeros((0, len(BANDS_HZ)))
    n = 1 + (len(x) - FRAME) // HOP
    idx = np.arange(FRAME)[None, :] + HOP * np.arange(n)[:, None]
    spec = np.abs(np.fft.rfft(x[idx].astype(np.float64) * np.hanning(FRAME), NFFT)) ** 2
    freqs = np.fft.rfftfreq(NFFT, 1.0 / RATE)
    out = np.empty((n, len(BANDS_HZ)))
    for k, (lo, hi) in enumerate(BANDS_HZ):
        sel = (freqs >= lo) & (freqs < hi)
        out[:, k] = 10.0 * np.log10(spec[:, sel].sum(axis=1) + 1e-10)
    return out


def find_onset(audio: Audio, key_ms: float) -> Onset | None:
    """The onset of the word under way at ``key_ms`` (the keystroke), or None when none stands out."""
    a = max(0, audio.index(key_ms - FLOOR_MS))
    b = min(len(audio.samples), audio.index(key_ms + AFTER_MS))
    if b - a < RATE // 4 or audio.index(key_ms) <= a:
        return None
    seg = audio.samples[a:b]
    env = band_envelopes(seg)
    if len(env) == 0:
        return None
    t_of = a + np.arange(len(env)) * HOP + FRAME / 2  # sample at each frame's centre
    key_i = audio.index(key_ms)
    word = (t_of >= key_i - WORD_BEFORE_MS * RATE / 1000) & (t_of <= b)
    if not word.any():
        return None
    floor = np.percentile(env, 10, axis=0)
    peak = env[word].max(axis=0)
    snr = peak - floor
    use = snr >= MIN_BAND_SNR_DB
    if not use.any():
        return None
    # How far below the word's own peak each frame is, in the band where it is closest.
    rel = np.where(use[None, :], env - peak[None, :], -np.inf)
    above_floor = np.where(use[None, :], env - floor[None, :] >= FLOOR_MARGIN_DB, False)
    h = np.where(above_floor, rel, -np.inf).max(axis=1)
    # The background just before the word (silence, murmur or a voice): a frame is word-like in a band only
    # well above it, so that murmur under the host's level does not join the word.
    bg_sel = (t_of >= key_i - BG_FROM_MS * RATE / 1000) & (t_of <= key_i - BG_TO_MS * RATE / 1000)
    bg = np.median(env[bg_sel], axis=0) if bg_sel.sum() >= 8 else floor
    thr = np.maximum(np.maximum(peak - WORD_DB, floor + FLOOR_MARGIN_DB), bg + BG_MARGIN_DB)
    clear = use & (peak - bg >= MIN_BAND_SNR_DB)
    if not clear.any():
        return None  # the word does not stand out of what was there before it
    wordlike = ((env > thr[None, :]) & clear[None, :]).any(axis=1)
    # Anchor: the word's body under way at the keystroke (its first strong frame).
    near = (t_of >= key_i - ANCHOR_MS * RATE / 1000) & (t_of <= b)
    strong = np.nonzero((h > -BODY_DB) & near)[0]
    if len(strong) == 0:
        return None
    i = int(strong[0])
    # Walk back through the word's segments (word-like runs split by short gaps: stop closures). A leading
    # segment that never comes near the word's peak, or a weak one behind a longer gap, is another voice
    # running into the word: not the word.
    bridge = round(GAP_BRIDGE_MS * RATE / 1000 / HOP)
    long_gap = round(LONG_GAP_MS * RATE / 1000 / HOP)
    start, quiet, gap, seg_max = i, 0, 0, float(h[i])
    while i > 0:
        i -= 1
        if wordlike[i]:
            if quiet:
                seg_max, gap = float(h[i]), quiet  # a new segment begins (going back)
            seg_max = max(seg_max, float(h[i]))
            quiet = 0
            weak = seg_max <= -SEGMENT_DB or (gap >= long_gap and seg_max <= -SEGMENT_LONG_GAP_DB)
            if not weak:
                start = i
            continue
        quiet += 1
        if quiet > bridge:
            break
    first_t = audio.time(t_of[start])
    if first_t < key_ms - SEARCH_MS:
        return None  # no quiet before the word within reach: a voice ran into it
    before = h[max(0, start - round(PRE_MS * RATE / 1000 / HOP)) : start]
    quiet_frames = int(np.sum(~wordlike[max(0, start - bridge) : start]))
    silence_ms = quiet_frames * HOP * 1000.0 / RATE
    if len(before) == 0 or silence_ms < MIN_SILENCE_MS:
        return None
    depth = float(-np.median(before)) if np.isfinite(np.median(before)) else 60.0
    if depth < MIN_DEPTH_DB:
        return None  # something nearly as loud as the word ran right up to it: no clean onset
    # Refine to the sample within the first word-like frame's window: where the magnitude first rises above
    # what was there just before.
    s0 = start * HOP
    pre = seg[max(0, s0 - round(0.04 * RATE)) : max(1, s0)]
    noise_mag = float(np.percentile(np.abs(pre), 99)) if len(pre) > 16 else 0.0
    win = seg[s0 : min(len(seg), s0 + FRAME + HOP)]
    thr = max(noise_mag * 1.3, 1e-4)
    over = np.nonzero(np.abs(win) > thr)[0]
    first = s0 + (int(over[0]) if len(over) else FRAME // 2)
    t = audio.time(a + first)
    snr_db = float(snr[use].max())
    conf = float(1.0 / (1.0 + np.exp(-(min(depth, snr_db) - 14.0) / 3.0))) * float(
        min(1.0, silence_ms / 60.0)
    )
    return Onset(t=t, conf=round(conf, 3), snr_db=round(snr_db, 1), silence_ms=silence_ms)


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
