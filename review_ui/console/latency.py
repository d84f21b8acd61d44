"""How responsive the UI thread is: a QTimer probe that measures how late each tick fires.

A tick due every ``interval_ms`` that fires ``d`` ms late means the event loop was busy for about ``d``
ms: a key press arriving then would have waited as long. The console shows the worst lateness of the
last few seconds; ``bench/bench_console.py`` records the distribution while recording.
"""

from __future__ import annotations

import time
from collections import deque

from PySide6.QtCore import QObject, Qt, QTimer


class LatencyProbe(QObject):
    def __init__(self, interval_ms: int = 50, keep: int = 100_000, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.interval_ms = interval_ms
        self.samples: deque[float] = deque(maxlen=keep)  # lateness of each tick, ms
        self._recent: deque[tuple[float, float]] = deque()
        self._timer = QTimer(self)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self._tick)
        self._last: float | None = None

    def start(self) -> None:
        self._last = time.monotonic()
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def _tick(self) -> None:
        now = time.monotonic()
        if self._last is not None:
            late = max(0.0, (now - self._last) * 1000.0 - self.interval_ms)
            self.samples.append(late)
            self._recent.append((now, late))
            while self._recent and now - self._recent[0][0] > 3.0:
                self._recent.popleft()
        self._last = now

    def recent_max_ms(self) -> float:
        return max((d for _, d in self._recent), default=0.0)

    def percentile(self, q: float) -> float:
        if not self.samples:
            return 0.0
        xs = sorted(self.samples)
        return xs[min(len(xs) - 1, int(q / 100.0 * len(xs)))]
