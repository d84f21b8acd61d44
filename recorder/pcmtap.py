"""The sound being recorded, kept for a few seconds as low-rate PCM: the live check's ear.

When a segment has audio, its ffmpeg writes a second output beside the Matroska file: the same sound as
mono 32-bit float samples at :data:`RATE` on its stdout. The writer reads that pipe on a thread and feeds
it to a :class:`PcmTrack` of the session's :class:`PcmTap`. A track starts at its segment's media time
(the segment's audio is shifted and trimmed to begin exactly there), so sample ``k`` of the track is at
``start_ms + k * 1000 / RATE``. The tap keeps the last ``keep_s`` seconds; :meth:`PcmTap.window` returns
the samples of a stretch of media time (silence where nothing was heard), :meth:`PcmTap.covered_ms` how
far the sound has arrived.

Sound is never taken from the future: with ``now_ms`` (the session's media clock) the tap shows nothing
later than the current media time, as a microphone could not. (A file's sound is read by ffmpeg a few
hundred milliseconds ahead of real time; without this the live check would hear "Спасибо" before it was
said when a file plays as if live.)

The tap is a convenience: it never slows the recording (the pipe is always drained) and what it holds is
not the record (the segment's AAC track is).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

RATE = 16000
BYTES_PER_SAMPLE = 4  # f32le


@dataclass(frozen=True)
class PcmWindow:
    """samples: (n,) float32 mono at :data:`RATE`; start_ms: the media time of sample 0; heard: the
    fraction of the stretch that was actually heard (the rest is silence filled in)."""

    samples: npt.NDArray[np.float32]
    start_ms: float
    heard: float

    def __post_init__(self) -> None:
        if self.samples.ndim != 1 or self.samples.dtype != np.float32:
            raise ValueError(f"PcmWindow.samples must be (n,) float32, got {self.samples.shape}")


class PcmTrack:
    """One segment's sound, fed as raw bytes in any chunking."""

    def __init__(self, tap: PcmTap, start_ms: float) -> None:
        self._tap = tap
        self.start_ms = start_ms
        self.samples = 0
        self._rest = b""

    def feed(self, data: bytes) -> None:
        data = self._rest + data
        n = len(data) // BYTES_PER_SAMPLE
        self._rest = data[n * BYTES_PER_SAMPLE :]
        if n == 0:
            return
        chunk = np.frombuffer(data[: n * BYTES_PER_SAMPLE], dtype="<f4").astype(np.float32)
        self._tap._add(self.start_ms + self.samples * 1000.0 / RATE, chunk)
        self.samples += n


class PcmTap:
    def __init__(self, keep_s: float = 12.0, now_ms: Callable[[], float] | None = None) -> None:
        self.keep_s = keep_s
        self.now_ms = now_ms
        self._chunks: list[tuple[float, npt.NDArray[np.float32]]] = []  # (media ms of sample 0, samples)
        self._end_ms: float | None = None
        self._cond = threading.Condition()
        self.received = 0  # samples in all

    def track(self, start_ms: float) -> PcmTrack:
        """A new track (a segment's sound) whose first sample is at media time ``start_ms``."""
        return PcmTrack(self, start_ms)

    def _add(self, t_ms: float, chunk: npt.NDArray[np.float32]) -> None:
        end = t_ms + len(chunk) * 1000.0 / RATE
        with self._cond:
            self._chunks.append((t_ms, chunk))
            self.received += len(chunk)
            self._end_ms = end if self._end_ms is None else max(self._end_ms, end)
            horizon = self._end_ms - self.keep_s * 1000.0
            while self._chunks and self._chunks[0][0] + len(self._chunks[0][1]) * 1000.0 / RATE < horizon:
                self._chunks.pop(0)
            self._cond.notify_all()

    def covered_ms(self) -> float | None:
        """Media time just past the newest sample heard, never past now (None: no sound yet)."""
        with self._cond:
            end = self._end_ms
        if end is not None and self.now_ms is not None:
            end = min(end, self.now_ms())
        return end

    def wait_for(self, t_ms: float, timeout: float) -> bool:
        """Wait until sound up to ``t_ms`` has arrived; False on timeout."""
        if self.now_ms is not None:  # the sound may be there already; now has to come too
            wait = (t_ms - self.now_ms()) / 1000.0
            if wait > timeout:
                return False
            if wait > 0:
                threading.Event().wait(wait)
                timeout -= wait
        with self._cond:
            return self._cond.wait_for(lambda: self._end_ms is not None and self._end_ms >= t_ms, timeout)

    def window(self, start_ms: float, end_ms: float) -> PcmWindow | None:
        """The samples from ``start_ms`` to ``end_ms`` (None: nothing of it heard; silence after now)."""
        n = max(0, round((end_ms - start_ms) * RATE / 1000.0))
        out = np.zeros(n, np.float32)
        have = np.zeros(n, bool)
        upto = n if self.now_ms is None else max(0, min(n, round((self.now_ms() - start_ms) * RATE / 1000.0)))
        with self._cond:
            chunks = list(self._chunks)
        for t, chunk in chunks:  # in arrival order: a later track overwrites an overlap
            a = round((t - start_ms) * RATE / 1000.0)
            lo, hi = max(0, a), min(upto, a + len(chunk))
            if lo < hi:
                out[lo:hi] = chunk[lo - a : hi - a]
                have[lo:hi] = True
        if n == 0 or not have.any():
            return None
        return PcmWindow(out, start_ms, float(have.mean()))
