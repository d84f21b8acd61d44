"""A bounded hand-over between the capture thread and the writer: the camera never blocks.

``push`` never waits: when the ring is full the new frame is dropped and counted (``push_wait`` is for
sources that may wait, such as a file decoded as fast as possible). Control items (a lost
source, the end) always get in, so the writer learns about them in order.
"""

from __future__ import annotations

import threading
from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


class FrameRing(Generic[T]):
    def __init__(self, capacity: int) -> None:
        if capacity < 1:
            raise ValueError(f"capacity must be at least 1, got {capacity}")
        self.capacity = capacity
        self._items: deque[T] = deque()
        self._frames = 0  # items that count against the capacity
        self._cond = threading.Condition()
        self.pushed = 0
        self.dropped = 0
        self.high_water = 0

    def push(self, item: T) -> bool:
        """Hand over a frame without waiting. False (and counted) when the ring is full."""
        with self._cond:
            if self._frames >= self.capacity:
                self.dropped += 1
                return False
            self._items.append(item)
            self._frames += 1
            self.pushed += 1
            self.high_water = max(self.high_water, self._frames)
            self._cond.notify_all()
            return True

    def push_wait(self, item: T, timeout: float) -> bool:
        """Hand over a frame, waiting up to ``timeout`` s for room: for sources that may wait (a file
        decoded as fast as possible), never for a camera. False when there was no room in time."""
        with self._cond:
            if not self._cond.wait_for(lambda: self._frames < self.capacity, timeout):
                return False
            self._items.append(item)
            self._frames += 1
            self.pushed += 1
            self.high_water = max(self.high_water, self._frames)
            self._cond.notify_all()
            return True

    def push_control(self, item: T) -> None:
        """A control item: always accepted, never dropped, not counted against the capacity."""
        with self._cond:
            self._items.append(item)
            self._cond.notify_all()

    def pop(self, timeout: float) -> tuple[bool, T | None]:
        """``(True, item)``, or ``(False, None)`` when nothing arrived within ``timeout`` seconds."""
        with self._cond:
            if not self._items and not self._cond.wait_for(lambda: bool(self._items), timeout):
                return False, None
            item = self._items.popleft()
            if not isinstance(item, Control):
                self._frames -= 1
                self._cond.notify_all()
            return True, item

    def __len__(self) -> int:
        with self._cond:
            return len(self._items)


class Control:
    """Base of control items passed through the ring."""

    __slots__ = ("reason",)

    def __init__(self, reason: str = "") -> None:
        self.reason = reason

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.reason!r})"


class SourceGap(Control):
    """The source stopped delivering: close the current segment; the next frame opens a new one."""


class EndOfStream(Control):
    """No more frames: close the segment and finish."""
