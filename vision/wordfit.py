"""The host's recorded word laid over the audio before a keystroke: where that word started, even in noise.

Before the game the host records "Спасибо" and the numbers (``vision.keywords``, ``voice_templates/``). A
keystroke tells us which word was just said and roughly when (the word starts 40–450 ms before the key).
Energy onsets drown when room noise or other voices come within 15–20 dB of the host; the word's whole
shape does not. Two steps:

1. **Coarse** — subsequence DTW of the template's MFCC frames (``vision.keywords``: 25 ms, 10 ms hop) over
   the stretch around the keystroke, the room's noise floor (10th percentile per mel band over the 1.5 s
   before the word can start) added to both, the template's level moved to the word's. The match starts at
   the template's first loud frame (within 20 dB of its peak): its soft first frames, under the room's
   floor, would slide freely. Of the matches whose onset falls in the search window, the best; where that
   loud frame landed, less the template's own lead from its onset to it (scaled by the match's speed),
   places the word's onset in the recording, at 10 ms resolution.
2. **Fine** — within ±:data:`FINE_SPAN_MS` of that, the shift at 2.5 ms steps at which the template's band
   powers (8 mel bands, 20 ms window, 2.5 ms hop, stretched by the match's speed) **plus the room's level
   just before the word** (median band power from 1000 to 450 ms before the key) best explain the
   recording's band powers from 80 ms before to 150 ms after the template's onset. Differences are in dB
   and clipped at ±15 dB, so a murmur syllable over part of the word costs a bounded amount. Where the word's
   first sound is under the noise, the fit still places it from the part that is not.

The template's onset is the first sample above :data:`TEMPLATE_ONSET_FRACTION` of its peak (the template is
recorded in quiet). The match's score (mean MFCC distance along the path over the median distance to the
stretch: 0.2–0.4 for the host's word, ≥ 0.6 no match) is what ``vision.onsets`` turns into a confidence.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from vision.keywords import HOP as MFCC_HOP
from vision.keywords import WIN as MFCC_WIN
from vision.keywords import Template, _cepstra, hz_to_mel, log_mel, mel_to_hz, subsequence_dtw
from vision.onsets import RATE, Audio

TEMPLATE_ONSET_FRACTION = 0.03  # the template's onset: its first sample above this fraction of its peak
BEFORE_MS = 2000  # the stretch looked at starts this long before the keystroke ...
FLOOR_TO_MS = 450  # ... and the room's noise floor is measured up to this long before it
BG_FROM_MS = 1000  # the room's level just before the word: from here to FLOOR_TO_MS before the key
ANCHOR_DB = 20.0  # the coarse match is anchored on the template's first frame within this of its peak
RATE_LIMITS = (0.6, 1.6)  # the word's speed against the template (DTW allows 0.5–2)
FINE_SPAN_MS = 25.0  # the fine fit looks this far either side of the coarse onset ...
FINE_STEP_MS = 2.5  # ... at this step
FIT_FROM_MS, FIT_TO_MS = -80.0, 150.0  # template time around its onset that the fine fit compares
FIT_CLIP_DB = 15.0  # a frame-band difference counts at most this much (murmur over part of the word)
LOUD_DB = 15.0  # the gain is matched on the template's frames within this of its loudest
N_BANDS, BAND_LO, BAND_HI = 8, 150.0, 7800.0
FRAME, HOP, NFFT = 320, 40, 512  # 20 ms window, 2.5 ms hop at 16 kHz


@dataclass(frozen=True)
class WordFit:
    """Where a template's word starts in the recording (``t``, ms of media time) and how well it matched:
    ``score`` the DTW score (lower is better), ``rate`` the word's duration over the template's, ``fit_db``
    the fine fit's RMS residual in dB, ``snr_db`` the word's loudest band over the room's level there."""

    word: str
    t: float
    score: float
    rate: float
    fit_db: float
    snr_db: float


def template_onset(samples: npt.NDArray[np.float32]) -> int:
    """The template's onset sample: the first above :data:`TEMPLATE_ONSET_FRACTION` of its peak."""
    a = np.abs(samples)
    return int(np.flatnonzero(a > TEMPLATE_ONSET_FRACTION * float(a.max()))[0])


def _band_filters() -> npt.NDArray[np.float64]:
    edges = mel_to_hz(np.linspace(hz_to_mel(BAND_LO), hz_to_mel(BAND_HI), N_BANDS + 2))
    freqs = np.fft.rfftfreq(NFFT, 1.0 / RATE)
    fb = np.zeros((N_BANDS, len(freqs)))
    for m in range(N_BANDS):
        lo, mid, hi = edges[m], edges[m + 1], edges[m + 2]
        fb[m] = np.clip(np.minimum((freqs - lo) / (mid - lo), (hi - freqs) / (hi - mid)), 0.0, None)
    return fb


_BANDS = _band_filters()


def band_powers(x: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    """Band powers, shape (frames, N_BANDS); frame ``i`` covers samples ``[i*HOP, i*HOP+FRAME)``."""
    if len(x) < FRAME:
        return np.zeros((0, N_BANDS))
    n = 1 + (len(x) - FRAME) // HOP
    idx = np.arange(FRAME)[None, :] + HOP * np.arange(n)[:, None]
    spec = np.abs(np.fft.rfft(x[idx].astype(np.float64) * np.hanning(FRAME), NFFT)) ** 2
    out: npt.NDArray[np.float64] = spec @ _BANDS.T + 1e-12
    return out


@dataclass(frozen=True)
class _TemplateFeatures:
    """A template's features, computed once: log mel (frames, N_MELS), band powers in dB (frames,
    N_BANDS), onset sample."""

    log_mel: npt.NDArray[np.float64]
    bands_db: npt.NDArray[np.float64]
    onset: int


_FEATURES: dict[tuple[str, str, int | None, int, int], _TemplateFeatures] = {}


def _features(tp: Template) -> _TemplateFeatures:
    key = (tp.word, tp.kind, tp.target, len(tp.samples), hash(tp.samples.tobytes()))
    got = _FEATURES.get(key)
    if got is None:
        if len(_FEATURES) >= 256:
            _FEATURES.clear()
        got = _TemplateFeatures(
            log_mel(tp.samples), 10.0 * np.log10(band_powers(tp.samples)), template_onset(tp.samples)
        )
        _FEATURES[key] = got
    return got


def _first_loud(t_lm: npt.NDArray[np.float64]) -> int:
    """The first template frame within :data:`ANCHOR_DB` of the template's loudest (log mel, natural log)."""
    e = t_lm.max(axis=1)
    return int(np.flatnonzero(e >= e.max() - ANCHOR_DB * np.log(10.0) / 10.0)[0])


def coarse_fit(
    audio: Audio, key_ms: float, tp: Template, search_ms: tuple[float, float]
) -> tuple[float, float, float] | None:
    """(onset ms, score, rate) of the template's best match starting ``search_ms`` (from, to) before the
    keystroke, or None when the stretch is too short."""
    x = tp.samples
    len_ms = len(x) * 1000.0 / RATE
    a = max(0, audio.index(key_ms - BEFORE_MS))
    b = min(len(audio.samples), audio.index(key_ms + 2.0 * len_ms))
    lm = log_mel(audio.samples[a:b])
    feats = _features(tp)
    t_lm = feats.log_mel
    if len(lm) < len(t_lm) or len(t_lm) < 4:
        return None
    t0 = audio.time(a)
    centre = t0 + (np.arange(len(lm)) * MFCC_HOP + MFCC_WIN / 2) * 1000.0 / RATE
    pre = centre < key_ms - FLOOR_TO_MS
    if pre.sum() < 10:
        return None
    floor = np.percentile(lm[pre], 10, axis=0)
    word = (centre >= key_ms - search_ms[0]) & (centre <= key_ms + 300.0)
    if not word.any():
        return None
    t_lm = t_lm + float(np.percentile(lm[word].max(axis=1), 90) - np.percentile(t_lm.max(axis=1), 90))
    # The match is anchored on the template's first loud frame: its soft first frames look like the room
    # once the room's floor is added, and could slide over it at no cost.
    k0 = _first_loud(t_lm)
    rec = _cepstra(np.logaddexp(lm, floor))
    tpl = _cepstra(np.logaddexp(t_lm, floor))[k0:]
    d2 = (tpl**2).sum(1)[:, None] + (rec**2).sum(1)[None, :] - 2.0 * tpl @ rec.T
    cost = np.sqrt(np.maximum(d2, 0.0))
    score, start = subsequence_dtw(cost)
    score = score / float(np.median(cost))
    lead_ms = feats.onset * 1000.0 / RATE - k0 * MFCC_HOP * 1000.0 / RATE  # onset from frame k0
    rate = (np.arange(len(lm)) - start + 1) / len(tpl)
    onset = t0 + start * MFCC_HOP * 1000.0 / RATE + lead_ms * rate
    ok = (onset >= key_ms - search_ms[0]) & (onset <= key_ms - search_ms[1])
    ok &= (rate >= RATE_LIMITS[0]) & (rate <= RATE_LIMITS[1])
    if not ok.any():
        return None
    j = int(np.argmin(np.where(ok, score, np.inf)))
    return float(onset[j]), float(score[j]), float(rate[j])


def fine_fit(
    audio: Audio, key_ms: float, tp: Template, coarse_ms: float, rate: float
) -> tuple[float, float, float]:
    """(onset ms, RMS residual dB, word over room dB): the shift near ``coarse_ms`` at which the template's
    band powers over the room's level best explain the recording's."""
    feats = _features(tp)
    lt = feats.bands_db
    tt = (np.arange(len(lt)) * HOP + FRAME / 2 - feats.onset) * 1000.0 / RATE
    a = max(0, audio.index(key_ms - BG_FROM_MS - 50.0))
    b = min(len(audio.samples), audio.index(coarse_ms + FINE_SPAN_MS + FIT_TO_MS * rate + 40.0))
    pr = band_powers(audio.samples[a:b])
    tr = audio.time(a) + (np.arange(len(pr)) * HOP + FRAME / 2) * 1000.0 / RATE
    bg = (tr >= key_ms - BG_FROM_MS) & (tr < key_ms - FLOOR_TO_MS)
    room = np.median(pr[bg], axis=0) if bg.sum() >= 8 else np.percentile(pr, 10, axis=0)
    lr = 10.0 * np.log10(pr)
    after = tr >= coarse_ms
    snr = float((lr[after] - 10.0 * np.log10(room)[None, :]).max()) if after.any() else 0.0
    best = (coarse_ms, np.inf)
    for d in np.arange(coarse_ms - FINE_SPAN_MS, coarse_ms + FINE_SPAN_MS + 1e-6, FINE_STEP_MS):
        rel = (tr - d) / rate
        sel = (rel >= FIT_FROM_MS) & (rel <= FIT_TO_MS)
        if sel.sum() < 10:
            continue
        # the template at those times: linear interpolation between its frames (silence outside)
        pos = np.interp(rel[sel], tt, np.arange(len(tt), dtype=np.float64), left=-1.0, right=-1.0)
        i0 = np.clip(np.floor(pos).astype(np.int64), 0, len(tt) - 1)
        i1 = np.minimum(i0 + 1, len(tt) - 1)
        w = (pos - i0)[:, None]
        lts = np.where((pos >= 0)[:, None], lt[i0] * (1.0 - w) + lt[i1] * w, -120.0)
        tot_t = 10.0 * np.log10((10.0 ** (lts / 10.0)).sum(axis=1))
        tot_r = 10.0 * np.log10(pr[sel].sum(axis=1))
        loud = tot_t > tot_t.max() - LOUD_DB
        gain = float(np.median(tot_r[loud] - tot_t[loud]))
        pred = 10.0 * np.log10(room[None, :] + 10.0 ** ((lts + gain) / 10.0))
        err = float(np.mean(np.clip(lr[sel] - pred, -FIT_CLIP_DB, FIT_CLIP_DB) ** 2))
        if err < best[1]:
            best = (float(d), err)
    return best[0], float(np.sqrt(best[1])) if np.isfinite(best[1]) else 99.0, snr


def fit_word(
    audio: Audio, key_ms: float, tp: Template, search_ms: tuple[float, float] = (450.0, 40.0)
) -> WordFit | None:
    """The template's word started before the keystroke: where, and how well it matched (None when the
    audio around the keystroke is too short to say)."""
    c = coarse_fit(audio, key_ms, tp, search_ms)
    if c is None:
        return None
    t, resid, snr = fine_fit(audio, key_ms, tp, c[0], c[2])
    return WordFit(tp.word, t, c[1], c[2], resid, snr)
