"""The review window offscreen on a generated game: navigation, protests, panels after a void, clip export."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path

import av
import numpy as np
import pytest
from PySide6.QtCore import QPoint, QSettings, Qt
from pytestqt.qtbot import QtBot

from gamelog.bundle import EVENTS_FILE, VISION_FILE
from gamelog.events import HeadUp, Night
from gamelog.jsonl import EventWriter, read_events, write_events_replace
from review_ui import app as review_app
from review_ui.evidence import export_clip
from review_ui.main_window import MainWindow
from review_ui.review_window import ReviewTools
from tests.review_ui.conftest import make_bundle, qimage_number
from tests.review_ui.review_fixtures import CALL_T, STOP_T, add_game, make_game
from vision.video import VideoTimeline

WAIT = 20_000


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return make_game(tmp_path)


@pytest.fixture
def window(qtbot: QtBot, game: Path, tmp_path: Path) -> Iterator[MainWindow]:
    settings = QSettings(str(tmp_path / "review.ini"), QSettings.Format.IniFormat)
    win = review_app.open_review(game, lang="en", settings=settings, judge="Chief")
    qtbot.addWidget(win)
    win.activateWindow()
    tools = review(win)
    qtbot.waitUntil(lambda: win.view.image is not None and tools.session.data is not None, timeout=WAIT)
    yield win
    win.close()


def review(win: MainWindow) -> ReviewTools:
    tools = win.review
    assert isinstance(tools, ReviewTools)
    return tools


def judge_lines(game: Path) -> list[dict[str, object]]:
    rows = [json.loads(x) for x in (game / "events.jsonl").read_text(encoding="utf-8").splitlines() if x]
    return [r for r in rows if r["src"] == "judge"]


def test_next_vote_key_then_frame_steps(qtbot: QtBot, window: MainWindow) -> None:
    m = window.model
    qtbot.keyClick(window.view, Qt.Key.Key_V)
    qtbot.waitUntil(lambda: m.position_ms == CALL_T, timeout=WAIT)
    assert qimage_number(window.view.image) == CALL_T // 40  # type: ignore[arg-type]
    qtbot.keyClick(window.view, Qt.Key.Key_Right)
    qtbot.waitUntil(lambda: m.position_ms == CALL_T + 40, timeout=WAIT)
    assert qimage_number(window.view.image) == CALL_T // 40 + 1  # type: ignore[arg-type]
    tools = review(window)
    tools.kind_combo.setCurrentIndex(tools.kind_combo.findData("vote"))
    tools.seat_combo.setCurrentIndex(tools.seat_combo.findData(4))
    qtbot.keyClick(window.view, Qt.Key.Key_N)
    qtbot.waitUntil(lambda: m.position_ms == 5800, timeout=WAIT)
    # the chart shows this round, and the seat key focuses seat 4
    assert tools.game_panel.chart.round is not None and tools.game_panel.chart.round.call_t == CALL_T
    qtbot.keyClick(window.view, Qt.Key.Key_4)
    assert tools.session.focus == (4,)
    qtbot.keyClick(window.view, Qt.Key.Key_0)
    assert tools.session.focus == (4, 10)


def test_file_and_decide_a_protest(qtbot: QtBot, window: MainWindow, game: Path) -> None:
    tools = review(window)
    session, panel = tools.session, tools.protest_panel
    session.set_loop((STOP_T - 1000, STOP_T + 500))
    panel.file_protest(by=3, seats=(), claim="seat 4 voted after Спасибо", rng=panel.form_range())
    qtbot.waitUntil(lambda: session.data is not None and len(session.data.protests) == 1, timeout=WAIT)
    assert session.data is not None
    first = session.data.rounds[0]
    assert 4 in first.voters and 4 not in first.late
    facts = [panel.facts.item(i).text() for i in range(panel.facts.count())]
    assert any("[h6]" in f for f in facts) and any("[v3]" in f for f in facts)
    # the judge moves «Спасибо» to the voice onset, then upholds the protest
    stop = session.data.event("h6")
    panel.facts.setCurrentRow(next(i for i, f in enumerate(facts) if "[h6]" in f))
    window.model.seek(5520)
    qtbot.waitUntil(lambda: window.model.position_ms == 5520, timeout=WAIT)
    tools.ask_reason = lambda title: "the spoken Спасибо starts at 5.52 s"
    panel.stop_button.click()
    qtbot.waitUntil(lambda: session.data is not None and session.data.rounds[0].close_t == 5520, timeout=WAIT)
    panel.decide("upheld", "seat 4 landed 280 ms after the spoken Спасибо")
    qtbot.waitUntil(lambda: session.data is not None and session.data.protests[0].decided, timeout=WAIT)
    after = session.data.rounds[0]
    assert 4 in after.late
    lines = judge_lines(game)
    assert [r["type"] for r in lines] == ["protest", "void", "vote_stop", "decision"]
    assert lines[1]["ref"] == stop.id and lines[2]["t"] == 5520  # type: ignore[union-attr]
    assert all(r.get("judge") == "Chief" for r in lines)
    assert lines[3]["outcome"] == "upheld" and lines[3]["protest"] == lines[0]["protest"]
    text = panel.outcome.toPlainText()
    assert "upheld" in text and "The outcome changes" in text


def test_panels_after_a_judge_voids_a_vote(qtbot: QtBot, window: MainWindow) -> None:
    tools = review(window)
    session = tools.session
    assert tools.game_panel.find_items("main → 3: 3 votes")
    v1 = session.data.event("v1")  # type: ignore[union-attr]
    assert v1 is not None
    tools.ask_reason = lambda title: "a hand from the next seat"
    tools.protest_panel.judge_fact("void", v1, "a hand from the next seat")
    qtbot.waitUntil(lambda: session.data is not None and "v1" in session.data.voided, timeout=WAIT)
    qtbot.waitUntil(lambda: bool(tools.game_panel.find_items("main → 3: 2 votes")), timeout=WAIT)
    assert tools.game_panel.find_items("1: -1400 ms before «Спасибо» (thumb_up 0.90) ✗")
    assert tools.game_panel.find_items("Defaulted: 1")


def test_exported_clip_matches_the_source_frames(
    qtbot: QtBot, window: MainWindow, game: Path, tmp_path: Path
) -> None:
    tools = review(window)
    out = tmp_path / "clip.mp4"
    n = export_clip(tools.specs, 2000, 3000, out, timecode=False)
    assert n == 25
    source = VideoTimeline(tools.specs, index=False, background_index=False)
    try:
        with av.open(str(out)) as container:
            frames = [f.to_ndarray(format="rgb24") for f in container.decode(video=0)]
        assert len(frames) == 25
        for k in (0, 12, 24):
            src = source.frame_at(2000 + 40 * k).image
            diff = np.abs(frames[k].astype(np.int16) - src.astype(np.int16))
            assert float(diff.mean()) < 4.0, k
    finally:
        source.close()
    # with overlays and the time code: the same frames, a burned-in time code in the corner
    out2 = tmp_path / "clip2.mp4"
    done: list[Path] = []
    session = tools.session
    session.set_loop((CALL_T, STOP_T))
    tools.protest_panel.file_protest(by=None, seats=(4,), claim="late", rng=(CALL_T, STOP_T))
    qtbot.waitUntil(lambda: session.data is not None and bool(session.data.protests), timeout=WAIT)
    pid = session.data.protests[0].protest.protest  # type: ignore[union-attr]
    tools.export(pid, "clip", out2, then=done.append)
    report = tmp_path / "report.html"
    tools.export(pid, "report", report, then=done.append)
    qtbot.waitUntil(lambda: len(done) == 2, timeout=60_000)
    with av.open(str(out2)) as container:
        overlaid = [f.to_ndarray(format="rgb24") for f in container.decode(video=0)]
    assert len(overlaid) == (STOP_T - CALL_T) // 40
    source = VideoTimeline(tools.specs, index=False, background_index=False)
    try:
        src = source.frame_at(CALL_T).image.astype(np.int16)
    finally:
        source.close()
    got = overlaid[0].astype(np.int16)
    h, w, _ = src.shape
    middle = (slice(h // 3, 2 * h // 3), slice(w // 3, 2 * w // 3))
    corner = (slice(8, 24), slice(8, 90))  # the burned-in time code
    assert float(np.abs(got[middle] - src[middle]).mean()) < 4.0
    assert float(np.abs(got[corner] - src[corner]).mean()) > 20.0
    html = report.read_text(encoding="utf-8")
    assert html.count("data:image/png;base64,") >= 3 and "late" in html


def test_dragging_a_keystroke_on_the_waveform_moves_it_with_a_reason(
    qtbot: QtBot, window: MainWindow, game: Path
) -> None:
    tools = review(window)
    session, wave, tl = tools.session, tools.waveform, tools.timeline
    qtbot.waitUntil(lambda: wave.state != "waiting", timeout=WAIT)
    assert wave.state == "none"  # the generated video has no sound: said, not hidden
    tl.set_view(4000, 8000)
    x0, x1 = tl.x_of(STOP_T), tl.x_of(5600)
    y = int(wave.height() * 0.2)
    asked: list[str] = []
    tools.ask_reason = lambda title: asked.append(title) or "the word starts earlier"  # type: ignore[func-returns-value]
    qtbot.mousePress(wave, Qt.MouseButton.LeftButton, pos=QPoint(round(x0), y))
    qtbot.mouseMove(wave, QPoint(round(x1), y))
    qtbot.mouseRelease(wave, Qt.MouseButton.LeftButton, pos=QPoint(round(x1), y))
    qtbot.waitUntil(lambda: session.data is not None and "h6" in session.data.voided, timeout=WAIT)
    lines = judge_lines(game)
    assert [r["type"] for r in lines] == ["void", "vote_stop"] and asked
    assert abs(int(lines[1]["t"]) - 5600) <= 10  # type: ignore[call-overload]
    assert session.data is not None and session.data.rounds[0].close_t == lines[1]["t"]


def test_clicking_a_seat_lane_focuses_it_and_the_loop_repeats(qtbot: QtBot, window: MainWindow) -> None:
    tools = review(window)
    tl, session, m = tools.timeline, tools.session, window.model
    lane = tl.lane_rect(6)
    qtbot.mouseClick(tl, Qt.MouseButton.LeftButton, pos=QPoint(10, round(lane.center().y())))
    assert session.focus == (6,)
    qtbot.waitUntil(lambda: bool(tools.focus.crops()) or tools.focus.isVisible(), timeout=WAIT)
    m.seek(2000)
    qtbot.waitUntil(lambda: m.position_ms == 2000, timeout=WAIT)
    qtbot.keyClick(window.view, Qt.Key.Key_I)
    m.seek(2400)
    qtbot.waitUntil(lambda: m.position_ms == 2400, timeout=WAIT)
    qtbot.keyClick(window.view, Qt.Key.Key_O)
    assert session.loop == (2000, 2400)
    m.seek(2000)
    m.play()
    seen: list[int] = []
    m.position_changed.connect(seen.append)
    qtbot.waitUntil(lambda: any(a > b for a, b in itertools.pairwise(seen)), timeout=WAIT)
    m.pause()
    assert all(1960 <= t <= 2480 for t in seen)


def test_damaged_video_and_bad_lines_show_on_the_timeline_and_panel(qtbot: QtBot, tmp_path: Path) -> None:
    bundle = add_game(make_bundle(tmp_path, damage=True))
    with open(bundle / "events.jsonl", "ab") as f:
        f.write(b'{"t": 12, "type": "vote", "src": "host"}\n')
    settings = QSettings(str(tmp_path / "review.ini"), QSettings.Format.IniFormat)
    win = review_app.open_review(bundle, lang="en", settings=settings)
    qtbot.addWidget(win)
    try:
        tools = review(win)
        qtbot.waitUntil(
            lambda: (
                tools.session.data is not None and win.model.info is not None and win.model.info.index_ready
            ),
            timeout=WAIT,
        )
        qtbot.waitUntil(lambda: bool(win.model.info and win.model.info.damaged), timeout=WAIT)
        assert tools.timeline.damaged  # painted red on the timeline
        assert tools.game_panel.find_items("Unreadable lines and problems (2)")  # the bad line, no layout
        assert any("events.jsonl:" in it.text(0) for it in tools.game_panel.find_items("field"))
        assert tools.session.data is not None and tools.session.data.rounds[0].close_t == STOP_T
    finally:
        win.close()


def test_a_judge_vote_takes_over_the_round(qtbot: QtBot, window: MainWindow, game: Path) -> None:
    tools = review(window)
    session, m = tools.session, window.model
    assert session.data is not None and session.data.rounds[0].source == "vision"
    m.seek(5000)
    qtbot.waitUntil(lambda: m.position_ms == 5000, timeout=WAIT)
    tools.protest_panel.enter_vote(8, "seen on the side camera")
    qtbot.waitUntil(
        lambda: session.data is not None and session.data.rounds[0].source == "judge", timeout=WAIT
    )
    rnd = session.data.rounds[0]
    assert rnd.voters == (8,)  # the judge's votes alone count; vision's three are set aside
    (line,) = judge_lines(game)
    assert (line["type"], line["seat"], line["candidate"], line["judge"]) == ("vote", 8, 3, "Chief")
    assert str(line["at"]).endswith("+00:00")  # when the judge acted (wall clock)


def test_switching_language_relabels_the_review_panels(qtbot: QtBot, window: MainWindow) -> None:
    tools = review(window)
    tabs = window.panels.tabs
    assert [tabs.tabText(i) for i in range(tabs.count())] == ["Game", "Protests"]
    assert tools.game_panel.find_items("Day 1")
    late_en = "vote for seat 3 placed with or after Спасибо (late)"
    assert tools.game_panel.find_items(late_en)
    window.language_actions["ru"].trigger()
    assert [tabs.tabText(i) for i in range(tabs.count())] == ["Игра", "Протесты"]
    assert tools.game_panel.find_items("День 1") and not tools.game_panel.find_items("Day 1")
    # The referee's findings too: the JSON keeps its English, the panel reads them in Russian.
    assert tools.game_panel.find_items("голос за №3 поставлен вместе со «Спасибо» или позже (опоздал)")
    assert not tools.game_panel.find_items(late_en)
    assert tools.game_panel.find_items("основное голосование → 3: 3 голоса (камера; ведущий: 3)")
    # The shape read on a landing too (the events keep "thumb_up").
    assert tools.game_panel.find_items("до «Спасибо» (большой палец вверх 0.90)")
    assert not tools.game_panel.find_items("thumb_up")
    assert tools.protest_panel.file_button.text() == "Подать протест"
    assert tools.actions["next_vote"].text() == "Следующее голосование"
    assert tools.kind_combo.itemText(tools.kind_combo.findData("vote")) == "голоса"


def grid_layout(bundle: Path) -> dict[int, tuple[int, int, int, int]]:
    """Ten seats in a 5×2 grid over the 320×240 test video; returns each seat's (x0, y0, x1, y1) cell."""
    seats, cells = [], {}
    for k in range(10):
        x0, y0 = (k % 5) * 64, (k // 5) * 120
        cells[k + 1] = (x0, y0, x0 + 64, y0 + 120)

        def rect(a: int, b: int, x0: int = x0, y0: int = y0) -> list[list[int]]:
            return [[x0 + 4, y0 + a], [x0 + 60, y0 + a], [x0 + 60, y0 + b], [x0 + 4, y0 + b]]

        seats.append(
            {"seat": k + 1, "head_zone": rect(4, 40), "raise_zone": rect(40, 70), "table_zone": rect(70, 116)}
        )
    (bundle / "layout.json").write_text(
        json.dumps({"frame_size": [320, 240], "seats": seats}), encoding="utf-8"
    )
    return cells


def test_clicking_a_seat_on_the_video_focuses_it(qtbot: QtBot, tmp_path: Path) -> None:
    bundle = make_game(tmp_path)
    grid_layout(bundle)
    settings = QSettings(str(tmp_path / "review.ini"), QSettings.Format.IniFormat)
    win = review_app.open_review(bundle, lang="en", settings=settings)
    qtbot.addWidget(win)
    try:
        tools = review(win)
        qtbot.waitUntil(lambda: win.view.image is not None and tools.session.data is not None, timeout=WAIT)
        view = win.view
        rect = view.image_rect()
        sx, sy = rect.width() / 320, rect.height() / 240
        at = QPoint(
            round(rect.left() + (2 * 64 + 32) * sx), round(rect.top() + (120 + 90) * sy)
        )  # seat 8's table
        qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=at)
        assert tools.session.focus == (8,)
        crops = tools.focus.crops()
        assert [seat for seat, _ in crops] == [8]
        crop = crops[0][1]
        # table and head zones span x 132–188, y 124–236; 15 % margin each side, cut at the frame's bottom
        assert (crop.width(), crop.height()) == (int(56 * 1.3), 240 - int(124 - 112 * 0.15))
        qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=at)
        assert tools.session.focus == ()
    finally:
        win.close()


def test_a_night_head_up_is_listed_per_seat_and_one_click_jumps_to_it(qtbot: QtBot, tmp_path: Path) -> None:
    """The Game panel lists each night's events per seat, also when the log ends at night (the last event
    was once left out), a seat that already left marked and listed last; one click seeks the video."""
    game = make_game(tmp_path)
    with EventWriter(game / EVENTS_FILE) as w:
        w.append(Night(t=9200, src="host", id="h12", n=1))
    vision = read_events(game / VISION_FILE).events
    write_events_replace(
        game / VISION_FILE,
        [
            *vision,
            HeadUp(t=9400, src="vision", id="v9", seat=3, until=9800, conf=0.9),
            # Seat 7 was voted out on day 1: still listed (a judge may want to look), marked and last.
            HeadUp(t=9300, src="vision", id="v10", seat=7, until=9500, conf=0.8),
        ],
    )
    settings = QSettings(str(tmp_path / "review.ini"), QSettings.Format.IniFormat)
    win = review_app.open_review(game, lang="en", settings=settings, judge="Chief")
    qtbot.addWidget(win)
    tools = review(win)
    qtbot.waitUntil(lambda: win.view.image is not None and tools.session.data is not None, timeout=WAIT)
    tree = tools.game_panel.tree
    items = [
        it
        for it in (tree.topLevelItem(i) for i in range(tree.topLevelItemCount()))
        for it in (it, *(it.child(j) for j in range(it.childCount())))
        if it is not None and "head_up" in it.text(0)
    ]
    assert [it.text(0) for it in items] == [
        "seat 3: head_up 0.4 s (conf 0.90)",
        "seat 7: head_up 0.2 s (conf 0.80) (already left the table)",
    ]
    assert items[1].foreground(0).color() == Qt.GlobalColor.gray
    rect = tree.visualItemRect(items[0])
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.waitUntil(lambda: win.model.position_ms == 9400, timeout=WAIT)
    win.close()
