"""Application setup for the review window: the QApplication, settings, language, and opening a bundle.

``open_review(bundle)`` reads ``game.json`` through :func:`gamelog.bundle.load_bundle`, starts a
:class:`~review_ui.decoder_worker.DecoderWorker` on the bundle's video and returns the shown window.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEventLoop, QSettings, QTimer
from PySide6.QtWidgets import QApplication

from gamelog.bundle import BundleError, GameInfo, load_bundle
from review_ui.decoder_worker import DecoderWorker
from review_ui.i18n import Language, initial_language
from review_ui.main_window import MainWindow
from review_ui.review_session import ReviewSession
from review_ui.review_window import ReviewTools
from vision.video import SegmentSpec, VideoError, VideoTimeline, parse_video_field, tune_allocator

ORGANIZATION = "mafiacam"
APPLICATION = "review"


def create_app(argv: list[str] | None = None) -> QApplication:
    """The process's QApplication (created once)."""
    app = QApplication.instance()
    if isinstance(app, QApplication):
        return app
    tune_allocator()  # frame buffers from the heap: smoother playback through the GOP cache
    app = QApplication(argv if argv is not None else sys.argv[:1])
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationName(APPLICATION)
    return app


def default_settings() -> QSettings:
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, ORGANIZATION, APPLICATION)


def game_title(game: GameInfo) -> str:
    parts = [p for p in (game.tournament, game.stage, game.table) if p]
    if game.game_number is not None:
        parts.append(f"#{game.game_number}")
    return " · ".join(parts) or game.started_at


def bundle_video(bundle: Path) -> tuple[GameInfo, list[SegmentSpec]]:
    """``game.json`` and the video segments it lists. Raises BundleError when game.json is unusable."""
    game = load_bundle(bundle).game
    return game, parse_video_field(bundle, list(game.video))


def video_opener(specs: list[SegmentSpec]) -> Callable[[Callable[[], None]], VideoTimeline]:
    def open_timeline(on_change: Callable[[], None]) -> VideoTimeline:
        if not specs:
            raise VideoError("no video in this bundle")
        return VideoTimeline(specs, on_change=on_change)

    return open_timeline


def open_review(
    bundle: Path,
    *,
    lang: str | None = None,
    settings: QSettings | None = None,
    at_ms: int | None = None,
    judge: str | None = None,
) -> MainWindow:
    """Build and show the review window on ``bundle`` (the decoder starts at once; the game state is
    refereed in the background and the panels fill when it is ready: ``window.review.session.data``)."""
    create_app()
    settings = settings if settings is not None else default_settings()
    language = Language(lang or initial_language(settings), settings)
    game, specs = bundle_video(bundle)
    worker = DecoderWorker(video_opener(specs))
    judge_name = judge if judge is not None else str(settings.value("review/judge", "") or "")
    session = ReviewSession(Path(bundle), judge_name)
    session.written.connect(lambda *_: settings.setValue("review/judge", session.judge))
    window = MainWindow(worker, language, title=game_title(game), settings=settings, session=session)
    window.review = ReviewTools(window, session, language, specs)
    session.reload()
    if at_ms is not None:
        window.model.seek(at_ms)
    worker.start()
    window.show()
    return window


def save_screenshot(window: MainWindow, png: Path, *, timeout_ms: int = 15000) -> bool:
    """Wait (in a local event loop) for a frame, the index and the panels, then save ``window.grab()``.

    Returns False when nothing was shown within ``timeout_ms``. Uses its own QEventLoop, never
    ``QApplication.quit()``, so it can run inside an application that goes on afterwards.
    """
    loop = QEventLoop()
    deadline = QTimer()
    deadline.setSingleShot(True)
    deadline.timeout.connect(loop.quit)
    settle = QTimer()
    settle.setSingleShot(True)
    settle.setInterval(200)  # let the last frame paint
    settle.timeout.connect(loop.quit)

    def ready() -> bool:
        info = window.model.info
        panels = window.review is None or window.review.session.data is not None
        return window.view.image is not None and info is not None and info.index_ready and panels

    def check(*_: object) -> None:
        if ready() and not settle.isActive():
            settle.start()

    window.model.frame_changed.connect(check)
    window.model.info_changed.connect(check)
    if window.review is not None:
        window.review.session.data_changed.connect(check)
    deadline.start(timeout_ms)
    check()
    loop.exec()
    deadline.stop()
    if not ready():
        return False
    png.parent.mkdir(parents=True, exist_ok=True)
    return bool(window.grab().save(str(png)))


def run(
    bundle: Path, *, lang: str | None = None, at_ms: int | None = None, screenshot: Path | None = None
) -> int:
    """The ``mafiacam review`` entry point."""
    app = create_app()
    try:
        window = open_review(bundle, lang=lang, at_ms=at_ms)
    except BundleError as e:
        print(f"mafiacam review: {e}", file=sys.stderr)
        return 1
    errors: list[str] = []
    window.worker.failed.connect(errors.append)
    if screenshot is not None:
        ok = save_screenshot(window, screenshot)
        window.close()
        if not ok:
            print(f"mafiacam review: no frame shown in time; {screenshot} not written", file=sys.stderr)
            return 1
        return 0
    rc = app.exec()
    if errors:
        print(f"mafiacam review: {bundle}: {errors[0]}", file=sys.stderr)
    return rc
