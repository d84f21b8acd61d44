"""Screenshots of the review window for docs/REVIEW.md (offscreen): ``python -m review_ui.review_screenshots
BUNDLE OUT_DIR [--lang ru|en]`` writes review_table.png, review_focus.png, review_timeline.png and
review_protest.png. The bundle should be analysed (vision.jsonl) and is given a protest if it has none
(write to a copy: this appends judge events)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from PySide6.QtCore import QEventLoop, QSettings, QTimer

from review_ui.app import create_app, open_review, save_screenshot
from review_ui.main_window import MainWindow
from review_ui.review_window import ReviewTools


def _wait(ms: int) -> None:
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def _settle(win: MainWindow, until: object, timeout_ms: int = 20000) -> None:
    waited = 0
    while waited < timeout_ms and not until():  # type: ignore[operator]
        _wait(50)
        waited += 50
    _wait(300)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("bundle", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--lang", default="ru")
    args = ap.parse_args(argv)
    create_app()
    settings = QSettings(str(args.out / ".screens.ini"), QSettings.Format.IniFormat)
    win = open_review(args.bundle, lang=args.lang, settings=settings, judge="Главный судья")
    win.resize(1600, 960)
    tools = win.review
    assert isinstance(tools, ReviewTools)
    session = tools.session
    _settle(win, lambda: session.data is not None and tools.waveform.state != "waiting", 60000)
    data = session.data
    assert data is not None
    rnd = max((r for r in data.rounds if r.source), key=lambda r: len(r.landings))
    win.model.seek(rnd.close_t - 120)
    _settle(
        win, lambda: abs(win.model.position_ms - (rnd.close_t - 120)) <= 40 and win.view.image is not None
    )
    tools.timeline.show_range(rnd.call_t, rnd.close_t + 1500)
    tools.game_panel.show_round_at(rnd.close_t)
    save_screenshot(win, args.out / "review_table.png")
    for seat in sorted({x.seat for x in rnd.landings})[:4]:
        session.toggle_focus(seat)
    _wait(400)
    save_screenshot(win, args.out / "review_focus.png")
    tools.timeline.show_all()
    session.set_loop((rnd.close_t - 2000, rnd.close_t + 1000))
    _wait(200)
    tools.timeline.grab().save(str(args.out / "review_timeline.png"))
    if not data.protests:
        # a protest against the landing nearest to «Спасибо», upheld by voiding it
        counted = [
            x for x in rnd.landings if x.delta_ms < 0 and x.seat in rnd.voters and x.seat not in rnd.defaulted
        ]
        landing = max(counted, key=lambda x: x.delta_ms)
        tools.protest_panel.file_protest(
            by=rnd.candidate if isinstance(rnd.candidate, int) else None,
            seats=(landing.seat,),
            claim=f"место {landing.seat}: рука соседа, а не голос",
            rng=(rnd.close_t - 2000, rnd.close_t + 1000),
        )
        _settle(win, lambda: session.data is not None and bool(session.data.protests))
        target = session.data.event(landing.ref or "") if session.data is not None else None
        if target is not None:
            tools.protest_panel.judge_fact("void", target, "на кадрах рука соседнего места")
            _settle(win, lambda: session.data is not None and (landing.ref or "") in session.data.voided)
            tools.protest_panel.decide("upheld", "голос места не подтверждён кадрами")
            _settle(win, lambda: session.data is not None and session.data.protests[0].decided)
        tools.protest_panel.protests.setCurrentRow(0)
        tools.go_to_protest()
        win.model.seek(landing.t)
        _settle(win, lambda: win.model.position_ms == landing.t, 5000)
    tabs = win.panels.tabs
    tabs.setCurrentWidget(tools.protest_panel)
    _wait(300)
    save_screenshot(win, args.out / "review_protest.png")
    win.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
