"""The Qt binding must not lose references: PySide6 6.12.0 did, and a review session crashed of it.

In PySide6 6.12.0 every call of a void Qt method from Python (``setText``, ``update``, ``QTimer.start``…)
dropped a reference to ``None``, and every ``Signal.emit`` one to ``True``; after enough calls the
interpreter aborts ("Fatal Python error: none_dealloc"). A player calls several a frame. These checks fail
loudly if a binding with that fault is installed again.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import pytest
from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QLabel


class _Pinger(QObject):
    ping = Signal()
    value = Signal(object)


CALLS = 2000  # the faulty binding drops one reference per call


def _lost_references(obj: object, fn: Callable[[], object], n: int = CALLS) -> int:
    """How many references to ``obj`` were lost over ``n`` calls of ``fn``. Other threads left running by
    earlier tests (a worker finishing its loop) move ``None``'s count by some tens meanwhile, so a check
    compares against the number of calls, not against one (a full run once measured 32 over 50 calls)."""
    before = sys.getrefcount(obj)
    for _ in range(n):
        fn()
    return before - sys.getrefcount(obj)


@pytest.mark.parametrize("call", ["label.setText", "label.update", "timer.start", "timer.stop"])
def test_void_calls_keep_none_alive(qtbot: object, call: str) -> None:
    label = QLabel()
    timer = QTimer()
    fns: dict[str, Callable[[], object]] = {
        "label.setText": lambda: label.setText("x"),
        "label.update": label.update,
        "timer.start": lambda: timer.start(1000),
        "timer.stop": timer.stop,
    }
    assert _lost_references(None, fns[call]) < CALLS // 4  # the binding must not drop None on every call


def test_emitting_keeps_true_alive() -> None:
    p = _Pinger()
    p.ping.connect(lambda: None)
    p.value.connect(lambda v: None)
    assert _lost_references(True, lambda: p.ping.emit()) < CALLS // 4
    assert _lost_references(True, lambda: p.value.emit(3)) < CALLS // 4
