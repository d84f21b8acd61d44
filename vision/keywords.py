"""Marks from the voice alone: the host's "Спасибо" and night numbers spotted in the recording.

Before a game the host says "Спасибо" and the numbers one to ten once; the bundle keeps them as
``voice_templates/`` (see ``docs/VOICE.md``). The analyser looks for those words in the whole recording:

1. MFCC frames (25 ms, 10 ms hop; pre-emphasis, Hamming window, FFT, 20-band mel filterbank from 250 Hz
   (above the host's pitch harmonics), log, DCT-II; c1..c12 and their deltas) for the recording and for
   each template. No cepstral mean removal (the templates are recorded with the same microphone); instead
   the room's noise floor (10th percentile per mel band over each 4-minute stretch) is added to the mel
   energies of both the recording and the quietly recorded template, so the template looks like the word
   said in that room.
2. Subsequence dynamic time warping of each template over the recording, with the step pattern
   (1,1), (1,2), (2,1): a match may run at half to twice the template's speed, every template frame is
   charged once, so the score is the mean frame distance along the best path, divided by the median
   distance of the template's frames to the whole stretch (how far the word is from the room in
   general). The recursion only looks one or two template rows back, so each row is one vectorised pass
   over the whole recording.
3. Matches below a threshold are candidates; where candidates of different words overlap, the best one
   wins. A match far quieter than the template is another voice, not the host.
4. "Спасибо" becomes a proposed ``vote_stop`` when the 1.2 s before it are quiet (12 dB under the word):
   hands land in silence, while a player ending a speech with "Спасибо" talks right up to it.
   A number becomes a proposed ``shot_call`` only inside an ascending run (one number may be missing)
   called 0.7–3 s apart, as a night's "один, два, три…", holding at least ``MIN_RUN - 1`` steps from a
   number to the next and whose median score passes ``RUN_MEDIAN_MAX``: a single number is as likely the
   announced vote count or "игрок номер семь", and loose matches in a player's speech rarely line up.

Proposals are ``proposed_window`` events (``src`` "audio", ``kind`` "vote_stop" or "shot_call", ``t`` the
word's onset, ``until`` its end, extra ``word``, ``target``, ``conf``). They change nothing until a host or a
judge enters the mark.
"""

from __future__ import annotations

import itertools
import json
import wave
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from gamelog.events import Event, ProposedWindow
from vision.onsets import RATE, Audio, find_onset

ANALYSER = "mafiacam-keywords"
VERSION = "0.2"
TEMPLATES_DIR = "voice_templates"
TEMPLATES_JSON = "templates.json"
TEMPLATES_FORMAT = "mafiacam-voice/1"
NUMBER_WORDS = ("один", "два", "три", "четыре", "пять", "шесть", "семь", "восемь", "девять", "десять")

WIN, HOP, NFFT, N_MELS, N_CEPS = 400, 160, 512, 20, 13  # samples at 16 kHz: 25 ms window, 10 ms hop
FMIN, FMAX = 250.0, 7600.0
# Relative score (mean distance along the path over the median distance) below which a match is a
# candidate; numbers must also form an ascending run whose median score passes RUN_MEDIAN_MAX.
THRESHOLD = {"vote_stop": 0.6, "shot_call": 0.6}
CONF_SCALE = 0.06  # conf = logistic((threshold - score) / CONF_SCALE)
MAX_QUIETER_DB = 14.0  # a match this much quieter than the template is not the host
QUIET_BEFORE_MS = (1300.0, 100.0)  # "Спасибо" needs this stretch before it quiet ...
QUIET_BEFORE_DB = 12.0  # ... this far under the word (loudest band, 90th percentile of frames)
MIN_RUN = 3  # consecutive numbers (n, n+1, n+2) a run must hold before it is proposed as shot calls
RUN_MEDIAN_MAX = 0.45  # ... and the run's median score must pass the strict threshold
RUN_GAP_MS = (700.0, 3000.0)  # between consecutive numbers of a run
FLOOR_PERCENTILE = 10.0  # the room's noise floor per mel band over a stretch of recording
CHUNK = 24000  # recording frames per DTW pass (4 minutes), overlapping by twice the longest template


# ---- MFCC -------------------------------------------------------------------------------------------


def hz_to_mel(f: npt.ArrayLike) -> npt.NDArray[np.float64]:
    return 2595.0 * np.log10(1.0 + np.asarray(f, np.float64) / 700.0)


def mel_to_hz(m: npt.ArrayLike) -> npt.NDArray[np.float64]:
    return 700.0 * (10.0 ** (np.asarray(m, np.float64) / 2595.0) - 1.0)


def mel_filterbank(n_mels: int = N_MELS, nfft: int = NFFT, rate: int = RATE) -> npt.NDArray[np.float64]:
    """Triangular filters, shape (n_mels, nfft // 2 + 1), evenly spaced in mel from FMIN to FMAX."""
    edges = mel_to_hz(np.linspace(hz_to_mel(FMIN), hz_to_mel(min(FMAX, rate / 2)), n_mels + 2))
    freqs = np.fft.rfftfreq(nfft, 1.0 / rate)
    fb = np.zeros((n_mels, len(freqs)))
    for m in range(n_mels):
        lo, mid, hi = edges[m], edges[m + 1], edges[m + 2]
        rise = (freqs - lo) / (mid - lo)
        fall = (hi - freqs) / (hi - mid)
        fb[m] = np.clip(np.minimum(rise, fall), 0.0, None)
    return fb


def dct_matrix(n_out: int, n_in: int) -> npt.NDArray[np.float64]:
    """Orthonormal DCT-II, shape (n_out, n_in)."""
    k = np.arange(n_out)[:, None]
    n = np.arange(n_in)[None, :]
    d: npt.NDArray[np.float64] = np.cos(np.pi * k * (2 * n + 1) / (2 * n_in)) * np.sqrt(2.0 / n_in)
    d[0] /= np.sqrt(2.0)
    return d


_FB = mel_filterbank()
_DCT = dct_matrix(N_CEPS, N_MELS)


def log_mel(x: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    """Log mel energies, shape (frames, N_MELS); frame ``i`` covers samples ``[i*HOP, i*HOP+WIN)``."""
    x = np.asarray(x, np.float64)
    if len(x) < WIN:
        return np.zeros((0, N_MELS))
    emph = np.concatenate([x[:1], x[1:] - 0.97 * x[:-1]])
    n = 1 + (len(emph) - WIN) // HOP
    window = np.hamming(WIN)
    out = np.empty((n, N_MELS))
    step = 20000  # frames per FFT batch (bounded memory on hour-long recordings)
    for a in range(0, n, step):
        b = min(n, a + step)
        idx = np.arange(WIN)[None, :] + HOP * np.arange(a, b)[:, None]
        power = np.abs(np.fft.rfft(emph[idx] * window, NFFT)) ** 2
        out[a:b] = np.log(power @ _FB.T + 1e-10)
    return out


def mfcc(x: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    """MFCC c0..c12, shape (frames, N_CEPS)."""
    return log_mel(x) @ _DCT.T


def _cepstra(lm: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """c1..c12 and their deltas, shape (frames, 24), from log mel energies (frames, N_MELS)."""
    if len(lm) < 2:
        return np.zeros((0, 2 * (N_CEPS - 1)))
    f = (lm @ _DCT.T)[:, 1:]
    return np.hstack([f, 2.0 * np.gradient(f, axis=0)])


# ---- templates --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Template:
    """One spoken word: ``samples`` float32 mono at 16 kHz, shape (n,); kind "vote_stop" or "shot_call"."""

    word: str
    kind: str
    target: int | None
    samples: npt.NDArray[np.float32]

    def __post_init__(self) -> None:
        if self.samples.ndim != 1 or self.samples.dtype != np.float32:
            raise ValueError(f"template {self.word!r}: samples must be float32 of shape (n,)")
        if len(self.samples) < WIN * 4:
            raise ValueError(f"template {self.word!r}: {len(self.samples)} samples is too short for a word")
        if self.kind not in ("vote_stop", "shot_call"):
            raise ValueError(f"template {self.word!r}: kind {self.kind!r} is not vote_stop or shot_call")


def trim(x: npt.NDArray[np.float32], below_db: float = 35.0) -> npt.NDArray[np.float32]:
    """The word without its leading and trailing silence (frames more than ``below_db`` under the peak)."""
    e = log_mel(x).max(axis=1) if len(x) >= WIN else np.zeros(0)
    if len(e) == 0:
        return x
    loud = np.nonzero(e > e.max() - below_db * np.log(10) / 10)[0]
    a = max(0, int(loud[0]) * HOP - HOP)
    b = min(len(x), int(loud[-1]) * HOP + WIN + HOP)
    return x[a:b]


def read_wav(path: Path) -> npt.NDArray[np.float32]:
    """A 16-bit PCM wav (any rate, mono or the first channel) as float32 at 16 kHz."""
    try:
        with wave.open(str(path), "rb") as w:
            rate, width, ch, n = w.getframerate(), w.getsampwidth(), w.getnchannels(), w.getnframes()
            raw = w.readframes(n)
    except (OSError, EOFError, wave.Error) as e:
        raise ValueError(f"{path}: not a readable wav file ({e})") from e
    if width != 2:
        raise ValueError(f"{path}: {8 * width}-bit samples; voice templates are 16-bit PCM")
    x = np.frombuffer(raw, "<i2").reshape(-1, ch)[:, 0].astype(np.float64) / 32768.0
    if rate != RATE and len(x):
        x = np.interp(np.arange(round(len(x) * RATE / rate)) * (rate / RATE), np.arange(len(x)), x)
    return x.astype(np.float32)


def write_wav(path: Path, x: npt.NDArray[np.float32]) -> None:
    pcm = (np.clip(x, -1.0, 1.0) * 32767.0).astype("<i2")
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(pcm.tobytes())


def save_templates(bundle: Path, templates: list[Template]) -> Path:
    """Write ``voice_templates/`` (one wav per word and ``templates.json``) into the bundle folder."""
    folder = bundle / TEMPLATES_DIR
    folder.mkdir(parents=True, exist_ok=True)
    words = []
    for tp in templates:
        name = "spasibo.wav" if tp.kind == "vote_stop" else f"{tp.target:02d}.wav"
        write_wav(folder / name, tp.samples)
        entry: dict[str, object] = {"word": tp.word, "kind": tp.kind, "file": name}
        if tp.target is not None:
            entry["target"] = tp.target
        words.append(entry)
    doc = {"format": TEMPLATES_FORMAT, "rate": RATE, "words": words}
    (folder / TEMPLATES_JSON).write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", "utf-8")
    return folder


def load_templates(bundle: Path) -> list[Template]:
    """The bundle's voice templates ([] when it has none); a bad file raises ValueError naming it."""
    folder = bundle / TEMPLATES_DIR
    jpath = folder / TEMPLATES_JSON
    if not jpath.is_file():
        return []
    try:
        doc = json.loads(jpath.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"{jpath}: not readable JSON ({e})") from e
    if not isinstance(doc, dict) or doc.get("format") != TEMPLATES_FORMAT:
        raise ValueError(f"{jpath}: format is not {TEMPLATES_FORMAT!r}")
    out = []
    for no, w in enumerate(doc.get("words", []), start=1):
        if (
            not isinstance(w, dict)
            or not isinstance(w.get("file"), str)
            or not isinstance(w.get("word"), str)
        ):
            raise ValueError(f"{jpath}: word {no} needs 'word' and 'file'")
        target = w.get("target")
        kind = w.get("kind", "")
        if kind == "shot_call" and not (isinstance(target, int) and 1 <= target <= 10):
            raise ValueError(f"{jpath}: word {no} ({w['word']}): a shot_call needs a target 1..10")
        try:
            out.append(Template(w["word"], kind, target, trim(read_wav(folder / w["file"]))))
        except ValueError as e:
            raise ValueError(f"{jpath}: word {no}: {e}") from e
    return out


# ---- matching ---------------------------------------------------------------------------------------


def subsequence_dtw(cost: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """Best match of the whole template (rows) ending at each recording frame (columns).

    ``cost`` has shape (N, M). Returns (mean cost per template frame, start column), both shape (M,).
    Steps (1,1), (1,2) and (2,1); each template row is charged once, so the sum divided by N is a mean.
    """
    n, m = cost.shape
    inf = np.inf
    d_prev2 = np.full(m, inf)
    s_prev2 = np.zeros(m, np.int64)
    d_prev = cost[0].copy()
    s_prev = np.arange(m, dtype=np.int64)
    for i in range(1, n):
        c = cost[i]
        cand = np.full((3, m), inf)
        starts = np.zeros((3, m), np.int64)
        cand[0, 1:] = d_prev[:-1] + c[1:]  # (1,1)
        starts[0, 1:] = s_prev[:-1]
        cand[1, 2:] = d_prev[:-2] + c[2:]  # (1,2): the recording runs faster than the template
        starts[1, 2:] = s_prev[:-2]
        if i >= 2:
            cand[2, 1:] = d_prev2[:-1] + cost[i - 1, 1:] + c[1:]  # (2,1): slower
            starts[2, 1:] = s_prev2[:-1]
        best = np.argmin(cand, axis=0)
        d_new = cand[best, np.arange(m)]
        s_new = starts[best, np.arange(m)]
        d_prev2, s_prev2, d_prev, s_prev = d_prev, s_prev, d_new, s_new
    return d_prev / n, s_prev


@dataclass(frozen=True)
class Match:
    word: str
    kind: str
    target: int | None
    start_ms: float
    end_ms: float
    score: float

    @property
    def conf(self) -> float:
        return float(1.0 / (1.0 + np.exp(-(THRESHOLD[self.kind] - self.score) / CONF_SCALE)))


def _candidates(lm: npt.NDArray[np.float64], tp: Template, t0_ms: float) -> list[Match]:
    """Matches of one template in the recording's log mel energies ``lm`` (frames, N_MELS).

    Per stretch of :data:`CHUNK` frames, the room's noise floor (a low percentile per mel band) is added
    to both the recording and the template (recorded in quiet) before the cepstra: both then look like
    the word said in that room, and the quiet frames of both look alike."""
    t_lm = log_mel(trim(tp.samples))
    n = len(t_lm)
    tp_loud = float(np.percentile(t_lm.max(axis=1), 90))
    loudness = lm.max(axis=1)
    out: list[Match] = []
    overlap = 2 * n
    for a in range(0, max(1, len(lm) - overlap), CHUNK):
        b = min(len(lm), a + CHUNK + overlap)
        if b - a < n // 2 or n < 2:
            break
        floor = np.percentile(lm[a:b], FLOOR_PERCENTILE, axis=0)
        x = _cepstra(np.logaddexp(lm[a:b], floor))
        tf = _cepstra(np.logaddexp(t_lm, floor))
        d2 = (tf**2).sum(1)[:, None] + (x**2).sum(1)[None, :] - 2.0 * tf @ x.T
        cost = np.sqrt(np.maximum(d2, 0.0))
        score, start = subsequence_dtw(cost)
        score = score / float(np.median(cost))  # relative to how far the word is from the room in general
        taken = np.zeros(len(score), bool)
        for j in np.argsort(score):
            if score[j] >= THRESHOLD[tp.kind]:
                break
            if taken[j]:
                continue
            s = int(start[j])
            taken[max(0, s - n // 2) : j + n // 2 + 1] = True
            loud = float(np.percentile(loudness[a + s : a + j + 1], 90))
            if (tp_loud - loud) * 10 / np.log(10) > MAX_QUIETER_DB:
                continue
            out.append(
                Match(
                    tp.word,
                    tp.kind,
                    tp.target,
                    t0_ms + (a + s) * HOP * 1000.0 / RATE,
                    t0_ms + ((a + j) * HOP + WIN) * 1000.0 / RATE,
                    float(score[j]),
                )
            )
    return out


def spot(audio: Audio, templates: list[Template]) -> list[Match]:
    """Every place a template's word is said (overlapping matches of different words: the best wins)."""
    lm = log_mel(audio.samples)
    cands: list[Match] = []
    for tp in templates:
        cands += _candidates(lm, tp, audio.start_ms)
    cands.sort(key=lambda m: m.score)
    kept: list[Match] = []
    for m in cands:
        if any(m.start_ms < k.end_ms and k.start_ms < m.end_ms for k in kept):
            continue
        kept.append(m)
    return sorted(kept, key=lambda m: m.start_ms)


def _runs(numbers: list[Match]) -> list[list[Match]]:
    """Ascending runs of called numbers (n, n+1, … at 0.7–3 s; one number may be missing)."""
    runs: list[list[Match]] = []
    for m in numbers:
        best = None
        for r in runs:
            last = r[-1]
            assert last.target is not None and m.target is not None
            k = m.target - last.target
            gap = m.start_ms - last.start_ms
            if k in (1, 2) and RUN_GAP_MS[0] * k <= gap <= RUN_GAP_MS[1] * k:
                best = r
        if best is not None:
            best.append(m)
        else:
            runs.append([m])
    return runs


def _quiet_before(audio: Audio, m: Match) -> bool:
    """The vote window is quiet before "Спасибо" (hands land in silence); a player who ends a speech with
    "Спасибо" has been talking at the word's own level right up to it."""
    a = max(0, audio.index(m.start_ms - QUIET_BEFORE_MS[0]))
    b = max(0, audio.index(m.start_ms - QUIET_BEFORE_MS[1]))
    e = audio.index(m.end_ms)
    if b - a < WIN * 4:
        return True
    before = log_mel(audio.samples[a:b]).max(axis=1)
    word = log_mel(audio.samples[b:e]).max(axis=1)
    if len(word) == 0:
        return True
    gap_db = (float(np.percentile(word, 90)) - float(np.percentile(before, 90))) * 10 / np.log(10)
    return bool(gap_db >= QUIET_BEFORE_DB)


def spot_marks(audio: Audio, templates: list[Template]) -> list[Event]:
    """Proposed ``vote_stop`` and ``shot_call`` marks from the host's voice alone (``proposed_window``)."""
    matches = spot(audio, templates)
    chosen = [m for m in matches if m.kind == "vote_stop" and _quiet_before(audio, m)]
    for run in _runs([m for m in matches if m.kind == "shot_call"]):
        steps = sum(1 for x, y in itertools.pairwise(run) if (y.target or 0) - (x.target or 0) == 1)
        if steps >= MIN_RUN - 1 and float(np.median([m.score for m in run])) <= RUN_MEDIAN_MAX:
            chosen += run
    out: list[Event] = []
    for m in sorted(chosen, key=lambda m: m.start_ms):
        # The word's onset: its template laid over the audio with the energy onset (to the sample where
        # both agree), else the match's own start.
        tps = [tp for tp in templates if tp.word == m.word and tp.kind == m.kind and tp.target == m.target]
        on = find_onset(audio, m.start_ms + 200.0, templates=tps)
        t = on.t if on is not None and abs(on.t - m.start_ms) <= 80.0 else m.start_ms
        t_ms, until = round(t), max(round(t), round(m.end_ms))
        extra: dict[str, object] = {
            "word": m.word,
            "conf": round(m.conf, 3),
            "score": round(m.score, 3),
            "analyser": f"{ANALYSER}/{VERSION}",
        }
        if m.target is not None:
            extra["target"] = m.target
        out.append(
            ProposedWindow(
                t=t_ms,
                src="audio",
                id=f"aud:proposed_window:{m.kind}:{t_ms}:{VERSION}",
                kind=m.kind,
                until=until,
                extra=extra,
            )
        )
    return out
