"""Opening the record console: ``mafiacam record --source … --out …`` without ``--no-ui``.

:func:`open_console` builds the session, the bridge, the live vision worker, the model and the window
and starts recording (on the bridge's thread); :func:`run_console` does that for the command line and
runs the Qt event loop until the window closes (closing stops the recording cleanly first).
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QApplication

from gamelog.layout import Layout, LayoutError, read_layout
from gamelog.rules import rules_for
from recorder.session import RecorderConfig, RecordingSession
from recorder.writer import EncoderSettings
from review_ui.console.console_model import ConsoleModel
from review_ui.console.console_window import LAYOUT_FILE, ConsoleWindow
from review_ui.console.live_check import FinderFactory, LiveVision, default_finder
from review_ui.console.pinning import pin_singletons
from review_ui.console.recorder_bridge import RecorderBridge
from review_ui.i18n import Language, initial_language

log = logging.getLogger("review_ui.console")

# Live frames: wide enough for vision to see hands (a 1080p camera's 40–60 px hands become 27–40 px; at
# 960 px MediaPipe missed a third of them and the tiled second pass made the check slower), small enough
# to resize on the writer thread and paint cheaply.
TAP_WIDTH = 1280


def _app() -> QApplication:
    pin_singletons()
    app = QApplication.instance()
    if isinstance(app, QApplication):
        return app
    app = QApplication(sys.argv[:1])
    app.setOrganizationName("mafiacam")
    app.setApplicationName("console")
    return app


def existing_layout(bundle: Path, seats: int) -> Layout | None:
    path = bundle / LAYOUT_FILE
    if not path.exists():
        return None
    try:
        return read_layout(path, seats=seats).layouts[-1]
    except (LayoutError, OSError) as e:
        log.warning("%s", e)
        return None


def existing_templates(bundle: Path) -> list[Any]:
    """The host's voice templates already in the bundle (``voice_templates/``), [] when none or unreadable."""
    from vision.keywords import load_templates

    try:
        return list(load_templates(bundle))
    except ValueError as e:
        log.warning("%s", e)
        return []


def open_console(
    bundle: Path,
    source: Any,
    *,
    config: RecorderConfig | None = None,
    microphone: Any = None,
    lang: str | None = None,
    settings: QSettings | None = None,
    vision: bool = True,
    finder_factory: FinderFactory = default_finder,
) -> ConsoleWindow:
    """The console, shown, recording ``source`` into the new bundle ``bundle``."""
    _app()
    config = config or RecorderConfig(tap_width=TAP_WIDTH)
    seats = tuple(range(1, config.players + 1))
    session = RecordingSession(bundle, source, config, microphone=microphone)
    bridge = RecorderBridge(session)
    layout = existing_layout(bundle, config.players)
    live = (
        LiveVision(
            bundle,
            rules_for(config.rules),
            layout,
            finder_factory=finder_factory,
            sound=session.pcm,
            warm_width=config.tap_width,
            templates=existing_templates(bundle),
        )
        if vision
        else None
    )
    if live is not None:
        bridge.add_frame_sink(live.offer)
    model = ConsoleModel(bridge, rules=config.rules, seats=seats, live=live)
    language = Language(lang or initial_language(settings), settings)
    window = ConsoleWindow(model, bridge, language, live=live, layout=layout)
    window.show()
    bridge.start()
    return window


def run_console(
    args: argparse.Namespace,
    make_source: Callable[[argparse.Namespace], Any],
    microphone: Callable[[argparse.Namespace, bool], Any],
) -> int:
    """The command line's console path: exit 0 after a clean stop, 1 when the recording failed."""
    from recorder.sources import FileSource

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s: %(message)s")
    out: Path = args.out
    if (out / "game.json").exists():
        print(f"mafiacam record: {out}: a bundle already exists here", file=sys.stderr)
        return 1
    try:
        source = make_source(args)
        mic = microphone(args, not isinstance(source, FileSource))
    except ValueError as e:
        print(f"mafiacam record: {e}", file=sys.stderr)
        return 1
    config = RecorderConfig(
        segment_s=args.segment_seconds,
        players=args.players,
        encoder=EncoderSettings(preset=args.preset),
        tap_width=TAP_WIDTH,
    )
    app = _app()
    window = open_console(out, source, config=config, microphone=mic)
    failed: list[str] = []

    def on_start_failed(error: str) -> None:
        failed.append(error)
        print(f"mafiacam record: {error}", file=sys.stderr)

    window.bridge.start_failed.connect(on_start_failed)
    if args.seconds:
        QTimer.singleShot(int(args.seconds * 1000), window.close)
    window.bridge.stopped.connect(lambda _st: QTimer.singleShot(0, window.close))
    app.exec()
    final = window.final_status
    if final is not None:
        print(f"stopped ({final.stop_reason}); bundle: {out}", file=sys.stderr)
    bad = bool(failed) or (
        final is not None
        and final.stop_reason is not None
        and final.stop_reason.startswith(("cannot start", "ffmpeg keeps", "writer failed", "reader failed"))
    )
    return 1 if bad else 0
