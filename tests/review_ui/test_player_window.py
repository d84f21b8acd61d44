"""The review window on a generated bundle, offscreen: keys, the picture shown, zoom, language, damage."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QPointF, QSettings, Qt
from PySide6.QtGui import QImage, QWheelEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from gamelog.bundle import GameInfo, create_bundle
from mafiacam.commands import review as review_command
from mafiacam.commands.review import parse_time
from review_ui import app as review_app
from review_ui.i18n import LABELS, LANGUAGES, count_votes, initial_language, round_name
from review_ui.main_window import MainWindow
from review_ui.player_widget import DEFAULT_SHORTCUTS, format_time, load_shortcuts
from tests.review_ui.conftest import make_bundle, qimage_number

WAIT = 20_000


@pytest.fixture
def window(qtbot: QtBot, bundle: Path, settings: QSettings) -> Iterator[MainWindow]:
    win = review_app.open_review(bundle, lang="en", settings=settings)
    qtbot.addWidget(win)
    win.activateWindow()
    qtbot.waitUntil(lambda: win.view.image is not None and win.model.info is not None, timeout=WAIT)
    yield win
    win.close()


def shown(win: MainWindow) -> int:
    image = win.view.image
    assert image is not None
    return qimage_number(image)


NOMOD = Qt.KeyboardModifier.NoModifier


def press(qtbot: QtBot, win: MainWindow, key: Qt.Key, mod: Qt.KeyboardModifier = NOMOD) -> None:
    qtbot.keyClick(win.view, key, mod)


def test_keys_move_the_position_and_the_view_shows_that_frame(qtbot: QtBot, window: MainWindow) -> None:
    m = window.model
    assert (m.position_ms, shown(window)) == (0, 0)
    press(qtbot, window, Qt.Key.Key_Right)
    qtbot.waitUntil(lambda: m.position_ms == 40, timeout=WAIT)
    assert shown(window) == 1
    press(qtbot, window, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: m.position_ms == 1040, timeout=WAIT)
    assert shown(window) == 26
    press(qtbot, window, Qt.Key.Key_Up)
    qtbot.waitUntil(lambda: m.position_ms == 6040, timeout=WAIT)
    press(qtbot, window, Qt.Key.Key_Left)
    qtbot.waitUntil(lambda: m.position_ms == 6000, timeout=WAIT)
    assert shown(window) == 150
    assert window.player.time_label.text().startswith("00:00:06.000")
    press(qtbot, window, Qt.Key.Key_End)
    qtbot.waitUntil(lambda: m.position_ms == 9960, timeout=WAIT)
    press(qtbot, window, Qt.Key.Key_Home)
    qtbot.waitUntil(lambda: m.position_ms == 0, timeout=WAIT)
    assert window.player.seek_bar.value() == 0


def test_play_keys_jkl_and_speed(qtbot: QtBot, window: MainWindow) -> None:
    m = window.model
    press(qtbot, window, Qt.Key.Key_Space)
    assert m.playing
    qtbot.waitUntil(lambda: m.position_ms > 0, timeout=WAIT)  # real clock: it plays
    press(qtbot, window, Qt.Key.Key_Space)
    assert not m.playing
    press(qtbot, window, Qt.Key.Key_BracketRight)
    assert m.speed == 1.25
    press(qtbot, window, Qt.Key.Key_BracketLeft)
    press(qtbot, window, Qt.Key.Key_BracketLeft)
    assert m.speed == 0.75
    press(qtbot, window, Qt.Key.Key_L)
    assert m.playing and m.direction == 1
    press(qtbot, window, Qt.Key.Key_K)
    assert not m.playing
    press(qtbot, window, Qt.Key.Key_J)
    assert m.playing and m.direction == -1
    assert window.player.speed_label.text() == "◀ 0.75×"
    press(qtbot, window, Qt.Key.Key_K)
    stopped_at = m.position_ms
    press(qtbot, window, Qt.Key.Key_Backspace)
    assert m.speed == 1.0
    qtbot.wait(100)
    assert m.position_ms == stopped_at  # paused means paused


def test_shortcuts_can_be_remapped_in_settings(qtbot: QtBot, bundle: Path, settings: QSettings) -> None:
    settings.setValue("shortcuts/step_forward", ["D"])
    settings.setValue("shortcuts/nonsense", ["X"])
    assert load_shortcuts(settings)["step_forward"] == ("D",)
    assert set(load_shortcuts(settings)) == set(DEFAULT_SHORTCUTS)
    win = review_app.open_review(bundle, lang="en", settings=settings)
    qtbot.addWidget(win)
    try:
        win.activateWindow()
        qtbot.waitUntil(lambda: win.view.image is not None, timeout=WAIT)
        press(qtbot, win, Qt.Key.Key_Right)  # no longer mapped
        press(qtbot, win, Qt.Key.Key_D)
        qtbot.waitUntil(lambda: win.model.position_ms == 40, timeout=WAIT)
        qtbot.wait(100)
        assert win.model.position_ms == 40
    finally:
        win.close()


def test_wheel_zooms_around_the_pointer_and_double_click_resets(qtbot: QtBot, window: MainWindow) -> None:
    view = window.view
    window.resize(1000, 700)
    qtbot.wait(50)
    rect = view.image_rect()
    at = QPointF(rect.left() + rect.width() * 0.25, rect.top() + rect.height() * 0.3)
    event = QWheelEvent(
        at,
        QPointF(view.mapToGlobal(at.toPoint())),
        QPoint(0, 0),
        QPoint(0, 240),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(view, event)
    assert view.zoom == pytest.approx(1.25**2)
    zoomed = view.image_rect()
    # the picture point under the pointer stayed under it
    assert (at.x() - zoomed.left()) / zoomed.width() == pytest.approx(0.25, abs=1e-6)
    assert (at.y() - zoomed.top()) / zoomed.height() == pytest.approx(0.3, abs=1e-6)
    assert zoomed.width() / zoomed.height() == pytest.approx(320 / 240)
    qtbot.mouseDClick(view, Qt.MouseButton.LeftButton)
    assert view.zoom == 1.0 and view.image_rect() == rect


def test_language_switch_relabels_the_window(qtbot: QtBot, window: MainWindow) -> None:
    assert window.video_menu.title() == "Video"
    assert window.player.actions_by_name["step_forward"].text() == "Frame forward"
    window.language_actions["ru"].trigger()
    assert window.video_menu.title() == "Видео"
    assert window.player.actions_by_name["step_forward"].text() == "Кадр вперёд"
    assert "кадр" in window.player.time_label.text()


def test_shortcut_help_lists_the_keys_in_force(window: MainWindow) -> None:
    text = window.shortcut_text()
    assert "Space" in text and "Play / pause" in text
    assert "Shift+Right" in text and "Forward 1 s" in text


def test_labels_exist_in_both_languages_and_env_picks_one(monkeypatch: pytest.MonkeyPatch) -> None:
    for key, texts in LABELS.items():
        assert set(texts) == set(LANGUAGES), key
        assert all(texts.values()), key
    monkeypatch.setenv("MAFIACAM_LANG", "ru")
    assert initial_language(None) == "ru"
    monkeypatch.setenv("MAFIACAM_LANG", "en")
    assert initial_language(None) == "en"


def test_vote_counts_agree_with_the_number() -> None:
    ru = [count_votes(n, "ru") for n in (0, 1, 2, 4, 5, 11, 12, 21, 22, 25)]
    assert ru == [
        "0 голосов",
        "1 голос",
        "2 голоса",
        "4 голоса",
        "5 голосов",
        "11 голосов",
        "12 голосов",
        "21 голос",
        "22 голоса",
        "25 голосов",
    ]
    assert [count_votes(n, "en") for n in (0, 1, 2)] == ["0 votes", "1 vote", "2 votes"]
    # A round with no label is shown by its own name; a known one in the window's language.
    assert round_name(lambda k: LABELS[k]["ru"], "revote") == "переголосование"
    assert round_name(lambda k: LABELS[k]["ru"], "tiebreak") == "tiebreak"


def test_damaged_video_is_listed_and_painted(qtbot: QtBot, tmp_path: Path, settings: QSettings) -> None:
    bundle = make_bundle(tmp_path, damage=True)
    win = review_app.open_review(bundle, lang="en", settings=settings)
    qtbot.addWidget(win)
    try:
        qtbot.waitUntil(lambda: win.model.info is not None and win.model.info.index_ready, timeout=WAIT)
        qtbot.waitUntil(lambda: win.model.frame is not None, timeout=WAIT)
        info = win.model.info
        assert info is not None and info.damaged
        entries = [a for a in win.damage_menu.actions() if a.isEnabled()]
        assert len(entries) == len(info.damaged)
        assert format_time(info.damaged[0].from_ms) in entries[0].text()
        assert "Damaged stretches: 1" in win.status_label.text()
        entries[0].trigger()
        at = info.damaged[0].from_ms
        near = range(at - 200, at + 1)
        qtbot.waitUntil(lambda: win.model.position_ms > 0 and win.model.position_ms in near, timeout=WAIT)
        assert win.player.seek_bar.value() == win.model.position_ms
        assert shown(win) * 40 == win.model.position_ms
    finally:
        win.close()


def test_screenshot_of_the_window(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    window.model.seek(4000)
    qtbot.waitUntil(lambda: window.model.position_ms == 4000, timeout=WAIT)
    png = tmp_path / "review.png"
    assert window.grab().save(str(png))
    image = QImage(str(png))
    assert image.width() >= 800
    # the video occupies the window's left part: its middle is the decoded picture, not the background
    centre = window.view.mapTo(window, window.view.rect().center())
    assert image.pixelColor(centre).name() != "#101010"


def test_review_command(tmp_path: Path, bundle: Path) -> None:
    parser = argparse.ArgumentParser()
    review_command.add_parser(parser.add_subparsers(dest="command"), "review", "the review window")
    args = parser.parse_args(["review", str(bundle), "--at", "00:00:02.500", "--lang", "ru"])
    assert (args.bundle, args.at, args.lang) == (bundle, 2500, "ru")
    assert parse_time("1:02:03.5") == 3_723_500
    assert parse_time("75ms") == 75
    with pytest.raises(Exception, match="not a time"):
        parse_time("soon")


def test_review_command_writes_a_screenshot(qtbot: QtBot, tmp_path: Path, bundle: Path) -> None:
    png = tmp_path / "shot.png"
    assert review_app.run(bundle, lang="en", at_ms=3000, screenshot=png) == 0
    assert QImage(str(png)).width() > 0


def test_review_command_names_a_broken_bundle(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "nogame"
    broken.mkdir()
    assert review_app.run(broken) == 1
    assert "game.json" in capsys.readouterr().err


def test_a_bundle_without_video_says_so(qtbot: QtBot, tmp_path: Path, settings: QSettings) -> None:
    bundle = tmp_path / "byhand"
    create_bundle(bundle, GameInfo.new([f"P{i}" for i in range(1, 11)]))
    win = review_app.open_review(bundle, lang="en", settings=settings)
    qtbot.addWidget(win)
    try:
        qtbot.waitUntil(lambda: "no video" in win.status_label.text(), timeout=WAIT)
        assert win.view.image is None
    finally:
        win.close()
