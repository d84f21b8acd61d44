"""Background jobs deliver on the UI thread, and never to a widget that was closed meanwhile."""

from __future__ import annotations

import threading

from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from review_ui.background import run_in_background


def test_result_reaches_a_live_owner(qtbot: QtBot) -> None:
    label = QLabel()
    qtbot.addWidget(label)
    got: list[object] = []
    run_in_background(lambda: 42, got.append, owner=label)
    qtbot.waitUntil(lambda: got == [42], timeout=5000)


def test_result_after_the_owner_was_deleted_is_dropped(qtbot: QtBot) -> None:
    label = QLabel()
    release = threading.Event()
    got: list[object] = []

    def job() -> int:
        release.wait(5)
        return 7

    run_in_background(job, lambda r: (got.append(r), label.setText(str(r))), owner=label)
    label.deleteLater()
    qtbot.wait(50)  # the deferred delete runs
    release.set()
    sentinel: list[object] = []
    run_in_background(lambda: 1, sentinel.append)  # a later job's result proves the first one was delivered
    qtbot.waitUntil(lambda: sentinel == [1], timeout=5000)
    qtbot.wait(100)
    assert got == []
