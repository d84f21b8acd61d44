"""Emitting Qt signals from Python safely with PySide6 6.12.0.

The project now pins PySide6 6.11.3 (requirements.txt), which has no such fault; this helper stays for
code that uses it and costs nothing there (the probe below finds nothing to compensate). PySide6 6.12.0
returns the result of ``SignalInstance.emit()`` (``True``) without
taking a reference to it, so every emit from Python drops one reference to ``True``. After a few hundred
emits the interpreter aborts with "Fatal Python error: bool_dealloc" (reproduced here with a bare QObject;
Python 3.11, where ``True`` is not immortal). A player emits several signals a frame, so this would end a
review session within seconds of playback.

:func:`emit` emits and gives back the reference the binding took. A probe at import measures whether the
binding has the fault, so with a fixed PySide6 nothing is compensated.
"""

from __future__ import annotations

import ctypes
import sys

from PySide6.QtCore import QObject, Signal, SignalInstance

_incref = ctypes.pythonapi.Py_IncRef
_incref.argtypes = [ctypes.py_object]
_incref.restype = None


class _Probe(QObject):
    ping = Signal()


def _emit_drops_references() -> bool:
    probe = _Probe()
    n = 16
    before = sys.getrefcount(True)
    for _ in range(n):
        probe.ping.emit()
    lost = before - sys.getrefcount(True)
    for _ in range(max(0, lost)):
        _incref(True)  # pay back what the probe itself cost
    return lost >= n


EMIT_DROPS_REFERENCES = _emit_drops_references()


def emit(signal: SignalInstance, *args: object) -> None:
    """``signal.emit(*args)``, compensating for the reference PySide6 6.12.0 drops."""
    result: object = signal.emit(*args)  # type: ignore[func-returns-value]  # stubs say None; it is True
    if EMIT_DROPS_REFERENCES and isinstance(result, bool):
        _incref(result)
