"""Screenshots of the console for the docs: ``python -m review_ui.console.screenshots CLIP_BUNDLE OUT_DIR``.

``CLIP_BUNDLE`` is a tablesim bundle (``mafiacam sim``) with one vote: its video is played as if live into
a new bundle, with the clip's seat zones, while the host's keys are pressed at the clip's times. Writes
``console_recording.png`` (after "Спасибо" and the host's count of 4, with vision's count beside it) and
``console_calibration.png`` (the zone editor on the proposal, one corner dragged). Runs offscreen.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from gamelog.bundle import load_bundle
from gamelog.events import VoteCall, VoteStop
from recorder.session import RecorderConfig
from recorder.sources import FileSource
from recorder.timebase import read_timeline
from review_ui.console.console_window import ConsoleWindow
from review_ui.console.launch import open_console

KEYS = {"Space": Qt.Key.Key_Space, "Return": Qt.Key.Key_Return}


def _spin(app: QApplication, seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)


def _until(app: QApplication, cond: object, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not cond() and time.monotonic() < end:  # type: ignore[operator]
        app.processEvents()
        time.sleep(0.01)


def _press(win: ConsoleWindow, *tokens: str) -> None:
    for tok in tokens:
        QTest.keyClick(win.view, KEYS.get(tok) or getattr(Qt.Key, f"Key_{tok}"))


def main(argv: list[str]) -> int:
    clip, out = Path(argv[0]), Path(argv[1])
    out.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    marks = list(load_bundle(clip).events)
    call = next(e for e in marks if isinstance(e, VoteCall))
    stop = next(e for e in marks if isinstance(e, VoteStop))
    tmp = Path(tempfile.mkdtemp(prefix="console-shots-"))
    try:
        bundle = tmp / "game"
        bundle.mkdir()
        shutil.copy(clip / "layout.json", bundle / "layout.json")
        source = FileSource(clip / "video.mp4", speed=1.0, loop=True)
        win = open_console(bundle, source, config=RecorderConfig(tap_width=1280), lang="ru")
        win.resize(1600, 960)
        _until(app, lambda: win.model.recording and win.view.image is not None)
        # the clip's time 0 is the first segment's first pts: keys at the clip's times, shifted by it
        _until(app, lambda: any(r["kind"] == "segment" for r in read_timeline(bundle / "timeline.jsonl")))
        seg = next(r for r in read_timeline(bundle / "timeline.jsonl") if r["kind"] == "segment")
        shift = int(seg["start_ms"])
        names = ["Бриз", "Штиль", "Орбита", "Шмель", "Сова", "Арчи", "Марс", "Ферзь", "Мира", "Лотос"]
        for row, name in enumerate(names):
            win.players.table.item(row, 1).setText(name)
        _press(win, "N", "D", "1", "V", "7", "E", "2")
        _until(app, lambda: win.bridge.media_ms() >= call.t + shift)
        _press(win, "Return")
        _until(app, lambda: win.bridge.media_ms() >= stop.t + shift)
        _press(win, "Space")
        _spin(app, 0.4)
        _press(win, "4", "Return")  # the host announces 4: the camera saw 3, the panel turns red
        lv = win.model.live_view
        _until(app, lambda: lv is not None and win.model.live_view is not None and win.model.live_view.vision)
        _spin(app, 0.3)
        win.grab().save(str(out / "console_recording.png"))
        # calibration: the proposal, one table corner dragged
        win.propose_layout()
        win.set_calibrating(True)
        _spin(app, 0.3)
        lay = win.view.zone_layout
        assert lay is not None
        start = win.view.to_widget(lay.seat(2).table_zone[1]).toPoint()
        QTest.mousePress(win.view, Qt.MouseButton.LeftButton, pos=start)
        QTest.mouseMove(win.view, start + QPoint(30, 20))
        QTest.mouseRelease(win.view, Qt.MouseButton.LeftButton, pos=start + QPoint(30, 20))
        _spin(app, 0.3)
        win.grab().save(str(out / "console_calibration.png"))
        win.close()
        _until(app, lambda: win.final_status is not None)
        print(f"live check: {win.model.live_view}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
