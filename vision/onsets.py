"""The host's voice as the clock: the onset of the spoken word behind each ``vote_stop`` and ``shot_call``.

A host presses "Спасибо" 150–300 ms after saying it. For each such keystroke the analyser looks at the
audio around it and finds where the word started:

1. Band energies (20 ms windows, 2.5 ms hop) in two bands: 150–3000 Hz (voiced sounds) and 3–7.8 kHz
   (the hiss of "с", "ш", "ч" and the bursts of "т", "п"), each in dB.
2. The word's own level: each band's peak from 450 ms before the keystroke to 250 ms after it. The
   room's level: each band's noise floor (10th percentile over the 2 s before) and the background just
   before the word (80th percentile from 1000 to 400 ms before the keystroke: silence, murmur, a voice).
3. A frame belongs to the word when, in some band, it is within 24 dB of the word's peak, 8 dB above the
   floor and 6 dB above the background (that bar never closer than 15 dB to the peak). Other voices well under
   the host's level do not join the word, whatever the room's noise.
4. From the word's loud body (the first frame within 8 dB of its peak from 400 ms before the keystroke
   that no 90 ms pause separates from the word's loudest frame: a loud voice just before is not it),
   walk back through its segments (word-like runs split by stop closures up to 50 ms). A leading segment
   is another voice running into the word, and the walk stops, when it never comes within 22 dB of the
   peak, when it is weak (under -14 dB) behind a gap of 30 ms, or when it is a long (40 ms) stretch of
   low-frequency sound behind a gap of 15 ms (the host's own leading bursts are short, or hiss).
5. No onset — no event, never a guess — when the word does not start between 450 and 40 ms before the
   keystroke, when less than 30 ms of quiet precede it, when the 150 ms before it are not 18 dB under the word
   (a voice ran into it), or when the word's peak stands less than 26 dB above the noise floor (its
   soft first sound, 20–25 dB under its peak, may be under the noise).
6. The onset is refined to the sample: within the first word frame, the first sample whose magnitude
   exceeds 1.3 times what the 40 ms before it reached.

With the host's recorded words (``templates``: ``vision.keywords``, ``vision.wordfit``), the word behind
the keystroke is also laid over the audio, which places its start where the energy onset drowns (noise or
other voices within ~15 dB of the host). The two are combined in :func:`find_onset`: both agree → the energy
onset; else the template's when its match is good; else no onset. ``conf`` is calibrated on the benchmark's
tuning seeds (the chance of being within 30 ms).

Measured in ``bench/bench_onsets.py`` (``bench/RESULTS.md``, "Host voice onsets").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from gamelog.events import Event, ShotCall, SpeechOnset, VoteStop

if TYPE_CHECKING:
    from vision.keywords import Template

RATE = 16000
FRAME = 320  # 20 ms analysis window at 16 kHz (longer than two pitch periods: no ripple)
HOP = 40  # 2.5 ms
NFFT = 512
BANDS_HZ = ((150.0, 3000.0), (3000.0, 7800.0))  # voiced sounds / fricatives and bursts ("с", "ш", "т")
WIN_MS, HOP_MS = 10.0, 2.5
SEARCH_MS = 450  # the word starts at most this long before the keystroke (a host lags 150–300 ms)
ANCHOR_MS = 400  # the word's loud body is under way from at most this long before the keystroke
FLOOR_MS = 2000  # estimate the band noise floors over this much before the keystroke
AFTER_MS = 250  # the word goes on after the keystroke: its peak level is looked for up to here
WORD_BEFORE_MS = 450  # ... and from here before the keystroke
MIN_LAG_MS = 40  # the word starts at least this long before the keystroke
MIN_SNR_DB = 26.0  # the word's peak stands this far above the noise floor (in its best band)
MIN_BAND_SNR_DB = 15.0  # a band whose word peak stands less than this above its floor is not used
FLOOR_MARGIN_DB = 8.0  # a frame counts in a band only this far above the band's floor
WORD_DB = 24.0  # a frame within this of the word's peak (in some band) belongs to the word
BODY_DB = 8.0  # a frame within this of the peak is the word's body (the anchor)
GAP_BRIDGE_MS = 50  # stop consonants ("п", "б", "т") silence a word this long at most
SEGMENT_DB = 22.0  # a segment of the word comes within this of its peak somewhere
BG_FROM_MS, BG_TO_MS = 1000, 400  # the background level is the median over this stretch before the key
BG_PERCENTILE = 80.0  # the background: this percentile over that stretch (murmur at its loud moments)
BG_MARGIN_DB = 6.0  # a word-like frame stands this far above the background (in some band)
MAX_BAR_DB = 15.0  # ... but the bar is never closer than this to the word's peak
LONG_GAP_MS, SEGMENT_LONG_GAP_DB = 30.0, 14.0  # ... and behind a gap this long, within this
MIN_DEPTH_DB = 18.0  # ... by at least this much (median, in the band where it is closest to the word)
SHORT_GAP_MS, LONG_SEGMENT_MS, LF_HEAVY_DB = 15.0, 40.0, 6.0  # ... and a long low-frequency one behind a gap
PAUSE_MS = 90.0  # a pause this long inside the anchor's reach means two utterances, not one word
PRE_MS = 150  # the stretch before the onset that must be quieter than the word
MIN_SILENCE_MS = 30  # a word's onset must follow at least this much quiet
AGREE_MS = 20.0  # the energy onset and the template's agree within this: the energy onset, to the sample
MAX_FIT_SCORE = 0.55  # a template match scoring worse than this places no onset (no event) ...
MAX_ALONE_SCORE = 0.50  # ... and worse than this, none unless the energy onset agrees
FIT_CONF = (0.60, 0.03)  # template alone: conf = logistic((0.60 - score) / 0.03); tuning seeds: 135/135 right
AGREE_CONF = 0.99  # both agree: 308/308 within 30 ms on the tuning seeds
ANALYSER = "mafiacam-onsets"
VERSION = "0.4"


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
    """A word's onset: ``t`` ms of media time; ``conf`` the calibrated chance that it is within 30 ms of
    the truth; ``method`` "energy" (band energies alone), "template" (the host's recorded word laid over
    the audio) or "both" (they agreed: the energy onset, refined to the sample); ``score`` the template
    match's score (None without a template)."""

    t: float  # ms of media time
    conf: float
    snr_db: float
    silence_ms: float
    method: str = "energy"
    word: str | None = None
    score: float | None = None


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


def _longest_run(x: npt.NDArray[np.bool_]) -> int:
    """The longest run of True in ``x``."""
    best = run = 0
    for v in x:
        run = run + 1 if v else 0
        best = max(best, run)
    return best


def _word_start(
    anchor: int, wordlike: npt.NDArray[np.bool_], h: npt.NDArray[np.float64], rel: npt.NDArray[np.float64]
) -> int:
    """Walk back from the word's body through its segments (word-like runs split by short gaps: stop
    closures) to its first frame. A leading segment is another voice running into the word, and the walk
    stops there, when it never comes near the word's peak, or is weak behind a longer gap, or is a long
    stretch of low-frequency sound behind a gap (the host's own leading bursts are short or hiss)."""
    bridge = round(GAP_BRIDGE_MS * RATE / 1000 / HOP)
    long_gap = round(LONG_GAP_MS * RATE / 1000 / HOP)
    short_gap = round(SHORT_GAP_MS * RATE / 1000 / HOP)
    long_seg = round(LONG_SEGMENT_MS * RATE / 1000 / HOP)
    start = anchor
    while start > 0:
        while start > 0 and wordlike[start - 1]:
            start -= 1  # to the start of the current segment
        # the gap before it, and the segment before the gap
        j = start - 1
        while j >= 0 and not wordlike[j] and start - 1 - j < bridge + 1:
            j -= 1
        gap = start - 1 - j
        if j < 0 or not wordlike[j] or gap > bridge:
            break
        seg_end = j
        while j > 0 and wordlike[j - 1]:
            j -= 1
        seg = slice(j, seg_end + 1)
        seg_max = float(h[seg].max())
        finite = np.isfinite(rel[seg]).all(axis=1)
        lf_heavy = (
            bool(finite.any()) and float(np.mean(rel[seg][finite, 0] - rel[seg][finite, 1])) > LF_HEAVY_DB
        )
        if seg_max <= -SEGMENT_DB:
            break
        if gap >= long_gap and seg_max <= -SEGMENT_LONG_GAP_DB:
            break
        if gap >= short_gap and seg_end + 1 - j >= long_seg and lf_heavy:
            break
        start = j
    return start


def find_onset(audio: Audio, key_ms: float, *, templates: Sequence[Template] = ()) -> Onset | None:
    """The onset of the word under way at ``key_ms`` (the keystroke), or None when none stands out.

    With ``templates`` (the host's recorded words that this keystroke may stand for: "Спасибо" for a
    ``vote_stop``, the called number for a ``shot_call``; see :func:`templates_for`), the best-matching
    template is laid over the audio before the keystroke (``vision.wordfit``) and combined with the energy
    onset: where both agree within :data:`AGREE_MS` (and the match scores under :data:`MAX_FIT_SCORE`), the
    energy onset (to the sample); else the template's, when its match scores under
    :data:`MAX_ALONE_SCORE`; else None — the energy onset alone is not trusted
    where the host's own word does not match (in those rooms it is wrong more often than right)."""
    energy = _energy_onset(audio, key_ms)
    if not templates:
        return energy
    from vision.wordfit import fit_word

    fits = [f for f in (fit_word(audio, key_ms, tp, (SEARCH_MS, MIN_LAG_MS)) for tp in templates) if f]
    if not fits:
        return None
    fit = min(fits, key=lambda f: f.score)
    if fit.score > MAX_FIT_SCORE:
        return None
    score = round(fit.score, 3)
    if energy is not None and abs(energy.t - fit.t) <= AGREE_MS:
        return Onset(energy.t, AGREE_CONF, energy.snr_db, energy.silence_ms, "both", fit.word, score)
    if fit.score > MAX_ALONE_SCORE:
        return None
    conf = float(1.0 / (1.0 + np.exp(-(FIT_CONF[0] - fit.score) / FIT_CONF[1])))
    silence_ms = energy.silence_ms if energy is not None else 0.0
    return Onset(fit.t, round(conf, 3), round(fit.snr_db, 1), silence_ms, "template", fit.word, score)


def _energy_onset(audio: Audio, key_ms: float) -> Onset | None:
    """The onset from band energies alone (steps 1–6 of the module's description)."""
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
    bg = np.percentile(env[bg_sel], BG_PERCENTILE, axis=0) if bg_sel.sum() >= 8 else floor
    # (A voice as loud as the word before it raises the bar at most to 15 dB under the word's peak; whether
    # it ran into the word is judged below, by the quiet before the onset.)
    bg = np.minimum(bg, peak - BG_MARGIN_DB - MAX_BAR_DB)
    thr = np.maximum(np.maximum(peak - WORD_DB, floor + FLOOR_MARGIN_DB), bg + BG_MARGIN_DB)
    wordlike = ((env > thr[None, :]) & use[None, :]).any(axis=1)
    # Anchor: the word's body under way at the keystroke: its first strong frame that no pause (of
    # PAUSE_MS) separates from the word's loudest frame (a loud voice just before the word is not it).
    near = (t_of >= key_i - ANCHOR_MS * RATE / 1000) & (t_of <= b)
    strong = np.nonzero((h > -BODY_DB) & near)[0]
    if len(strong) == 0:
        return None
    top = int(strong[np.argmax(h[strong])])
    pause = round(PAUSE_MS * RATE / 1000 / HOP)
    i = top
    for cand in strong[strong <= top][::-1]:
        quiet_run = _longest_run(~wordlike[cand : i + 1])
        if quiet_run > pause:
            break
        i = int(cand)
    start = _word_start(i, wordlike, h, rel)
    bridge = round(GAP_BRIDGE_MS * RATE / 1000 / HOP)
    first_t = audio.time(t_of[start])
    if first_t > key_ms - MIN_LAG_MS:
        return None  # the word under way at the keystroke started after it: not this mark's word
    if first_t < key_ms - SEARCH_MS:
        return None  # no quiet before the word within reach: a voice ran into it
    before = h[max(0, start - round(PRE_MS * RATE / 1000 / HOP)) : start]
    quiet_frames = int(np.sum(~wordlike[max(0, start - bridge) : start]))
    silence_ms = quiet_frames * HOP * 1000.0 / RATE
    if len(before) == 0 or silence_ms < MIN_SILENCE_MS:
        return None
    snr_db = float(snr[use].max())
    if snr_db < MIN_SNR_DB:
        return None  # the word's soft first sound (20–25 dB under its peak) may be under the noise
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
    conf = float(1.0 / (1.0 + np.exp(-(min(depth, snr_db) - 14.0) / 3.0))) * float(
        min(1.0, silence_ms / 40.0)
    )
    return Onset(t=t, conf=round(conf, 3), snr_db=round(snr_db, 1), silence_ms=silence_ms)


def templates_for(mark: Event, templates: Sequence[Template]) -> list[Template]:
    """The templates a mark may stand for: "Спасибо" for a ``vote_stop``; for a ``shot_call`` the
    called number's (every number's when the mark has no target or that number was not recorded)."""
    if isinstance(mark, VoteStop):
        return [tp for tp in templates if tp.kind == "vote_stop"]
    if isinstance(mark, ShotCall):
        numbers = [tp for tp in templates if tp.kind == "shot_call"]
        same = [tp for tp in numbers if tp.target is not None and tp.target == mark.target]
        return same or numbers
    return []


def onset_events(
    marks: Sequence[Event], audio: Audio, *, templates: Sequence[Template] = ()
) -> list[SpeechOnset]:
    """``speech_onset`` events for every ``vote_stop`` and ``shot_call`` mark that has an id; with the
    host's voice ``templates`` (``vision.keywords.load_templates``) each mark's word is also laid over
    the audio (robust in noisy rooms; see :func:`find_onset`)."""
    out: list[SpeechOnset] = []
    for m in marks:
        if not isinstance(m, VoteStop | ShotCall) or m.id is None or m.src not in ("host", "judge"):
            continue
        on = find_onset(audio, m.t, templates=templates_for(m, templates))
        if on is None:
            continue
        t = round(on.t)
        extra: dict[str, object] = {
            "analyser": f"{ANALYSER}/{VERSION}",
            "lag_ms": m.t - t,
            "snr_db": on.snr_db,
            "method": on.method,
        }
        if on.score is not None:
            extra["score"] = on.score
        out.append(
            SpeechOnset(
                t=t,
                src="audio",
                id=f"aud:speech_onset:{m.id}:{VERSION}",
                ref=m.id,
                conf=on.conf,
                extra=extra,
            )
        )
    return out
