"""When was the key really pressed? Correcting for the time a key event waited in the UI thread's queue.

The console reads the media time as soon as a key event reaches it. If the UI thread was busy (a repaint, a
machine under load), the event waited, and that wait would shift the mark. Key events carry the window
system's own timestamp (milliseconds on a clock of its own: X server time, Wayland and Windows tick counts):
the difference ``now - timestamp`` is a constant offset plus the wait. :class:`PressClock` takes the
smallest difference among recent events as the offset (the least-delayed event waited about nothing), so
``difference - offset`` is this event's wait. Events without a timestamp (0, as synthetic test events have)
or with an implausible wait are not corrected. No Qt here.
"""

from __future__ import annotations

from collections import deque

MAX_WAIT_MS = 2000.0  # a longer "wait" means the clocks jumped, not a queue: do not correct


class PressClock:
    def __init__(self, keep: int = 64) -> None:
        self._offsets: deque[float] = deque(maxlen=keep)  # recent now - timestamp, ms

    def wait_ms(self, event_ts: int, now_ms: float) -> float:
        """How long the event with window-system timestamp ``event_ts`` waited before ``now_ms``."""
        if event_ts <= 0:
            return 0.0
        offset = now_ms - event_ts
        self._offsets.append(offset)
        wait = offset - min(self._offsets)
        return wait if 0.0 <= wait <= MAX_WAIT_MS else 0.0
