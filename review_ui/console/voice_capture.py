"""Taking the host's voice templates from the sound being recorded (issue #10), without Qt.

The record console prompts the host word by word («Спасибо», then один … десять); for each prompt a
:class:`WordListener` thread watches the session's sound tap (:class:`recorder.pcmtap.PcmTap`) from the
prompt's media time on, and as soon as a word has been followed by :data:`END_QUIET_MS` of quiet, cuts it
out (:func:`cut_word`): the first stretch of word-like 20 ms frames (pauses up to :data:`BRIDGE_MS` bridged:
the stop closures inside "Спасибо"), trimmed with :func:`vision.keywords.trim`. A word too short, too long,
too quiet (its peak under :data:`MIN_PEAK_DB` dBFS or under :data:`MIN_SNR_DB` above the room) or clipped
is refused with a reason the console shows, and the host says it again.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from vision.keywords import NUMBER_WORDS, Template, trim

RATE = 16000
FRAME_MS = 20
BRIDGE_MS = 200  # pauses inside one word ("Спа-си-бо", "че-ты-ре") are shorter than this
END_QUIET_MS = 350  # the word is over once this much quiet followed it
LISTEN_MS = 4000  # no word within this long after the prompt: refused ("nothing heard")
WORD_DB = 30.0  # a frame within this of the loudest frame, ...
FLOOR_DB = 12.0  # ... and this far above the room's floor, is word-like
MIN_PEAK_DB = -40.0  # dBFS: quieter than this is too far from the microphone
MIN_SNR_DB = 20.0  # the word's peak over the room's floor
MIN_MS, MAX_MS = 150, 1500
CLIP_LEVEL = 0.985
MAX_CLIPPED = 4  # samples at full scale: more is a clipped word
POLL_S = 0.05
NO_SOUND_GRACE_S = 2.0  # wall time past the listening span with no sound arriving: the recording has none

# (word, kind, target) in the order the host is asked for them
WORDS: tuple[tuple[str, str, int | None], ...] = (
    ("Спасибо", "vote_stop", None),
    *((w, "shot_call", i + 1) for i, w in enumerate(NUMBER_WORDS)),
)


@dataclass(frozen=True)
class Captured:
    """One word as heard: ``samples`` float32 (n,) at 16 kHz (trimmed); ``start_ms``/``end_ms`` its media
    time; ``peak_db`` its loudest 20 ms frame in dBFS; ``snr_db`` that peak over the room's floor."""

    word: str
    kind: str
    target: int | None
    samples: npt.NDArray[np.float32]
    start_ms: float
    end_ms: float
    peak_db: float
    snr_db: float

    def __post_init__(self) -> None:
        if self.samples.ndim != 1 or self.samples.dtype != np.float32:
            raise ValueError(f"Captured.samples must be (n,) float32, got {self.samples.shape}")

    @property
    def duration_ms(self) -> float:
        return len(self.samples) * 1000.0 / RATE

    def template(self) -> Template:
        return Template(self.word, self.kind, self.target, self.samples)


@dataclass(frozen=True)
class Refused:
    """Why a word was not taken: ``reason`` a label key (``voice_too_short`` …) with ``values`` for it."""

    reason: str
    values: tuple[tuple[str, object], ...] = ()


def frame_db(x: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    """Level of each 20 ms frame in dBFS (RMS), shape (len(x) // 320,)."""
    n = RATE * FRAME_MS // 1000
    k = len(x) // n
    if k == 0:
        return np.zeros(0)
    fr = x[: k * n].astype(np.float64).reshape(k, n)
    return 10.0 * np.log10(np.mean(fr * fr, axis=1) + 1e-12)


def _first_word(db: npt.NDArray[np.float64]) -> tuple[int, int, float, float] | None:
    """(first frame, end frame, peak dB, floor dB) of the first word-like stretch, or None."""
    if len(db) < 5:
        return None
    floor = float(np.percentile(db, 10))
    peak = float(db.max())
    loud = np.nonzero((db > peak - WORD_DB) & (db > floor + FLOOR_DB))[0]
    if len(loud) == 0:
        return None
    bridge = BRIDGE_MS // FRAME_MS
    a = b = int(loud[0])
    for i in loud[1:]:
        if i - b > bridge:
            break
        b = int(i)
    return a, b + 1, float(db[a : b + 1].max()), floor


def cut_word(
    samples: npt.NDArray[np.float32], start_ms: float, word: tuple[str, str, int | None], *, final: bool
) -> Captured | Refused | None:
    """The first word in ``samples`` (media time ``start_ms`` at sample 0): Captured when it is over and
    good, Refused when it is not good (or, with ``final``, nothing came), None while it may still go on."""
    db = frame_db(samples)
    found = _first_word(db)
    if found is None or found[2] - found[3] < MIN_SNR_DB:
        if not final:
            return None
        if found is None:
            return Refused("voice_nothing")
        return Refused("voice_too_quiet", (("db", round(found[2] - found[3])),))
    a, b, peak, floor = found
    if (len(db) - b) * FRAME_MS < END_QUIET_MS:
        if not final:
            return None  # the word may still go on
        return Refused("voice_too_long", (("max", MAX_MS / 1000),))
    n = RATE * FRAME_MS // 1000
    lo, hi = max(0, (a - 2) * n), min(len(samples), (b + 2) * n)
    raw = samples[lo:hi]
    x = trim(raw)
    off = lo + _find(raw, x)
    dur = len(x) * 1000.0 / RATE
    if dur < MIN_MS:
        return Refused("voice_too_short", (("ms", round(dur)),))
    if dur > MAX_MS:
        return Refused("voice_too_long", (("max", MAX_MS / 1000),))
    if peak < MIN_PEAK_DB:
        return Refused("voice_too_quiet", (("db", round(peak - floor)),))
    if int(np.sum(np.abs(x) >= CLIP_LEVEL)) > MAX_CLIPPED:
        return Refused("voice_clipped")
    t0 = start_ms + off * 1000.0 / RATE
    return Captured(
        word[0], word[1], word[2], x.astype(np.float32), t0, t0 + dur, round(peak, 1), round(peak - floor, 1)
    )


def _find(raw: npt.NDArray[np.float32], part: npt.NDArray[np.float32]) -> int:
    """Where ``trim`` cut ``part`` out of ``raw`` (it returns a slice of it: the offset of its buffer)."""
    if len(part) == 0 or not np.shares_memory(raw, part):
        return 0
    return max(0, (part.ctypes.data - raw.ctypes.data) // raw.itemsize)


class WordListener:
    """Waits on a thread for the host's next word after media time ``t0_ms`` and reports it once:
    ``on_done(Captured | Refused)`` (on the listener's thread). :meth:`cancel` ends it without a report."""

    def __init__(
        self,
        sound: Any,
        t0_ms: float,
        word: tuple[str, str, int | None],
        on_done: Callable[[Captured | Refused], None],
        *,
        listen_ms: float = LISTEN_MS,
        start: bool = True,
    ) -> None:
        self.sound, self.t0_ms, self.word, self.on_done = sound, t0_ms, word, on_done
        self.listen_ms = listen_ms
        self._cancel = threading.Event()
        self._thread = threading.Thread(target=self._run, name="console-voice", daemon=True)
        if start:
            self._thread.start()

    def start(self) -> None:
        """Start listening (made with ``start=False``)."""
        self._thread.start()

    def cancel(self) -> None:
        self._cancel.set()

    def join(self, timeout: float | None = None) -> None:
        self._thread.join(timeout)

    def _run(self) -> None:
        end = self.t0_ms + self.listen_ms
        give_up = time.monotonic() + self.listen_ms / 1000.0 + NO_SOUND_GRACE_S
        while not self._cancel.wait(POLL_S):
            covered = self.sound.covered_ms()
            if covered is None or covered < self.t0_ms + END_QUIET_MS:
                if time.monotonic() > give_up:  # no microphone, or the source stalled
                    self._report(Refused("voice_no_sound"))
                    return
                continue
            final = covered >= end
            pcm = self.sound.window(self.t0_ms, min(covered, end))
            if pcm is None:
                if final:
                    self._report(Refused("voice_nothing"))
                    return
                continue
            got = cut_word(pcm.samples, pcm.start_ms, self.word, final=final)
            if got is not None:
                self._report(got)
                return

    def _report(self, got: Captured | Refused) -> None:
        if not self._cancel.is_set():
            self.on_done(got)
