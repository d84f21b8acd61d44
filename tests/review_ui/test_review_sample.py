"""The review window on the bundled sample game (a real 1080p recording with the host's voice)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from pytestqt.qtbot import QtBot

from review_ui import app as review_app
from review_ui.main_window import MainWindow
from review_ui.review_window import ReviewTools

SAMPLE = Path(__file__).resolve().parents[2] / "sample_videos" / "sample_game"
WAIT = 30_000


@pytest.fixture
def sample_window(qtbot: QtBot, tmp_path: Path) -> Iterator[tuple[MainWindow, Path]]:
    bundle = tmp_path / "sample"
    shutil.copytree(SAMPLE, bundle)  # the committed sample is never written to
    settings = QSettings(str(tmp_path / "review.ini"), QSettings.Format.IniFormat)
    win = review_app.open_review(bundle, lang="ru", settings=settings, judge="Главный судья")
    qtbot.addWidget(win)
    tools = win.review
    assert isinstance(tools, ReviewTools)
    qtbot.waitUntil(lambda: win.view.image is not None and tools.session.data is not None, timeout=WAIT)
    yield win, bundle
    win.close()


def test_sample_game_next_vote_call_and_frame_steps(
    qtbot: QtBot, sample_window: tuple[MainWindow, Path]
) -> None:
    win, bundle = sample_window
    calls = [
        json.loads(line)["t"]
        for line in (bundle / "events.jsonl").read_text(encoding="utf-8").splitlines()
        if '"vote_call"' in line
    ]
    first = min(calls)
    m = win.model
    qtbot.keyClick(win.view, Qt.Key.Key_V)
    # the frame on screen at the call: the last frame at or before it (25 fps: within 40 ms)
    qtbot.waitUntil(lambda: 0 <= first - m.position_ms < 40, timeout=WAIT)
    at_call = m.position_ms
    qtbot.keyClick(win.view, Qt.Key.Key_Right)
    qtbot.waitUntil(lambda: m.position_ms == at_call + 40, timeout=WAIT)
    qtbot.keyClick(win.view, Qt.Key.Key_Left)
    qtbot.waitUntil(lambda: m.position_ms == at_call, timeout=WAIT)
    assert win.view.image is not None and win.view.image.width() == 1920
