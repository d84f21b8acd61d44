"""One time base for a recording: clocks, frame slots and the ``timeline.jsonl`` sidecar.

Media time is the monotonic clock since the session started, in milliseconds. The video's own pts are
media time (every frame's pts is its capture time; Matroska segments carry a 1/1000 s time base), so a
frame, a host mark and an audio sample line up. ``timeline.jsonl`` maps every written frame's pts to the
monotonic and the wall clock and carries the running dropped-frame count, fsynced about once a second.

The clock is injectable: tests pass a :class:`ManualClock` instead of patching :mod:`time`.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, Protocol


class Clock(Protocol):
    """Monotonic seconds, wall-clock seconds since the epoch, and a sleep that follows the same clock."""

    def monotonic(self) -> float: ...

    def wall(self) -> float: ...

    def sleep(self, seconds: float) -> None: ...


class SystemClock:
    """The real clocks of this machine."""

    def monotonic(self) -> float:
        return time.monotonic()

    def wall(self) -> float:
        return time.time()

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


class ManualClock:
    """A clock that only moves when told to (``advance`` or ``sleep``). Thread-safe."""

    def __init__(self, start: float = 1000.0, wall_start: float = 1_800_000_000.0) -> None:
        self._t = start
        self._offset = wall_start - start
        self._lock = threading.Lock()

    def monotonic(self) -> float:
        with self._lock:
            return self._t

    def wall(self) -> float:
        with self._lock:
            return self._t + self._offset

    def sleep(self, seconds: float) -> None:
        self.advance(max(0.0, seconds))

    def advance(self, seconds: float) -> None:
        with self._lock:
            self._t += seconds


def iso_wall(wall: float) -> str:
    """ISO 8601 with the UTC offset, millisecond precision."""
    return datetime.fromtimestamp(wall, tz=UTC).isoformat(timespec="milliseconds")


class Timeline:
    """Writer of ``timeline.jsonl``: one JSON object a line, fsynced at least every ``fsync_s`` seconds."""

    def __init__(self, path: Path, clock: Clock, fsync_s: float = 1.0) -> None:
        self.path = path
        self._clock = clock
        self._fsync_s = fsync_s
        self._f: IO[str] | None = open(path, "a", encoding="utf-8")  # noqa: SIM115 - long-lived
        self._last_sync = clock.monotonic()
        self._lock = threading.Lock()
        self.failed: str | None = None

    def write(self, record: dict[str, Any], *, sync: bool = False) -> None:
        with self._lock:
            if self._f is None:
                return
            try:
                self._f.write(json.dumps(record, separators=(",", ":")) + "\n")
                now = self._clock.monotonic()
                if sync or now - self._last_sync >= self._fsync_s:
                    self._f.flush()
                    os.fsync(self._f.fileno())
                    self._last_sync = now
            except OSError as e:  # a full disk must not stop the video: report and carry on
                self.failed = f"{self.path}: {e}"

    def frame(self, seg: int, n: int, pts_ms: int, mono: float, wall: float, dropped: int) -> None:
        rec: dict[str, Any] = {
            "kind": "frame",
            "seg": seg,
            "n": n,
            "pts": pts_ms,
            "mono": round(mono, 4),
            "wall": round(wall, 4),
            "dropped": dropped,
        }
        self.write(rec)

    def close(self) -> None:
        with self._lock:
            if self._f is None:
                return
            try:
                self._f.flush()
                os.fsync(self._f.fileno())
            except OSError as e:
                self.failed = f"{self.path}: {e}"
            self._f.close()
            self._f = None


def read_timeline(path: Path) -> Iterator[dict[str, Any]]:
    """The records of a timeline; a torn last line (a crash mid-write) is skipped, any other bad line
    raises ``ValueError`` naming the file and line."""
    lines = path.read_text(encoding="utf-8").split("\n")
    for i, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as e:
            if i >= len(lines) - 1:  # the last line, cut by a crash
                return
            raise ValueError(f"{path}:{i}: not JSON: {e}") from None
        if not isinstance(rec, dict):
            raise ValueError(f"{path}:{i}: expected a JSON object")
        yield rec
