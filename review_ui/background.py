"""One helper for background work with success / failure callbacks on the UI thread.

``run_in_background(fn, on_done, on_failed)`` runs ``fn()`` on the global QThreadPool and delivers its
result (or the exception's text) through a queued signal, so the callbacks run on the thread that owns
the relay (the UI thread). Workers never touch widgets; the callbacks do.
"""

from __future__ import annotations

import contextlib
import traceback
from collections.abc import Callable
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal, SignalInstance

_ALIVE: set[_Relay] = set()  # relays waiting for their job (kept from the garbage collector)


class _Relay(QObject):
    done = Signal(object)
    failed = Signal(str)


class _Job(QRunnable):
    def __init__(self, fn: Callable[[], Any], relay: _Relay) -> None:
        super().__init__()
        self._fn = fn
        self._relay = relay
        self.setAutoDelete(True)

    def run(self) -> None:
        try:
            result = self._fn()
        except Exception as e:  # reported to the caller, not swallowed
            traceback.print_exc()
            self._deliver(self._relay.failed, f"{type(e).__name__}: {e}")
            return
        self._deliver(self._relay.done, result)

    @staticmethod
    def _deliver(signal: SignalInstance, value: object) -> None:
        with contextlib.suppress(RuntimeError):  # shutting down, the relay is gone: nobody waits for it
            signal.emit(value)


def run_in_background(
    fn: Callable[[], Any],
    on_done: Callable[[Any], None],
    on_failed: Callable[[str], None] | None = None,
    *,
    owner: QObject | None = None,
) -> None:
    """With ``owner`` (the widget the callbacks update), a result that arrives after the owner was
    deleted (the window closed while a long job ran) is dropped instead of touching a dead widget."""
    relay = _Relay()
    _ALIVE.add(relay)

    def gone() -> bool:
        return owner is not None and not shiboken6.isValid(owner)

    def finish_ok(result: object) -> None:
        _ALIVE.discard(relay)
        if not gone():
            on_done(result)

    def finish_err(message: str) -> None:
        _ALIVE.discard(relay)
        if on_failed is not None and not gone():
            on_failed(message)

    relay.done.connect(finish_ok)
    relay.failed.connect(finish_err)
    QThreadPool.globalInstance().start(_Job(fn, relay))
