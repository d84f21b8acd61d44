"""Free-space guard: warn early, stop cleanly before the disk is full.

The probe is injectable (tests feed it numbers or point the guard at a small tmpfs). Thresholds are in
bytes; at 1080p30 with the default encoder a minute of video is roughly 30–60 MB, so the default warning
leaves about an hour and the stop line leaves room for ffmpeg to finish its segment and for the marks.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

DiskProbe = Callable[[Path], int]


def free_bytes(path: Path) -> int:
    """Bytes free to an unprivileged writer at ``path``."""
    return shutil.disk_usage(path).free


@dataclass(frozen=True)
class DiskState:
    free: int
    level: str  # "ok", "warn" or "stop"

    @property
    def message(self) -> str:
        mb = self.free / 1e6
        if self.level == "stop":
            return f"disk almost full ({mb:.0f} MB left): recording stopped"
        if self.level == "warn":
            return f"disk space low: {mb:.0f} MB left"
        return f"{mb:.0f} MB free"


class DiskGuard:
    def __init__(
        self,
        path: Path,
        *,
        warn_bytes: int = 3_000_000_000,
        stop_bytes: int = 200_000_000,
        probe: DiskProbe = free_bytes,
    ) -> None:
        if stop_bytes > warn_bytes:
            raise ValueError(f"stop threshold {stop_bytes} is above the warning threshold {warn_bytes}")
        self.path = path
        self.warn_bytes = warn_bytes
        self.stop_bytes = stop_bytes
        self._probe = probe

    def check(self) -> DiskState:
        free = self._probe(self.path)
        level = "stop" if free <= self.stop_bytes else "warn" if free <= self.warn_bytes else "ok"
        return DiskState(free, level)
