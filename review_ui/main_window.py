"""The review window: the video, its transport bar, and the game panels on the right.

Without a :class:`~review_ui.review_session.ReviewSession` it is the bare player. With one
(``open_review`` always passes it), :mod:`review_ui.review_window` adds the overlays, seat focus, the
swimlane timeline and the game and protest panels (:meth:`MainWindow.add_panel`). Damaged stretches of
the recording are listed under Video → Damaged stretches (a click jumps there) and painted red on the seek
bar and the timeline.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent
from PySide6.QtWidgets import (
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from review_ui.decoder_worker import DecoderWorker, TimelineInfo
from review_ui.i18n import LANGUAGE_NAMES, LANGUAGES, Language
from review_ui.overlays import OverlayView
from review_ui.player_model import PlayerModel
from review_ui.player_widget import DEFAULT_SHORTCUTS, PlayerWidget, format_time, load_shortcuts
from review_ui.review_session import ReviewSession
from review_ui.video_view import VideoView

if TYPE_CHECKING:
    from review_ui.review_window import ReviewTools


class PanelArea(QStackedWidget):
    """Tabs of game panels; until one is added, a note saying they are not part of this version."""

    def __init__(self, language: Language) -> None:
        super().__init__()
        self._lang = language
        self.note = QLabel()
        self.note.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.note.setWordWrap(True)
        self.note.setStyleSheet("color: gray; padding: 12px;")
        self.tabs = QTabWidget()
        self.addWidget(self.note)
        self.addWidget(self.tabs)
        language.language_changed.connect(self.retranslate)
        self.retranslate()

    def add_panel(self, widget: QWidget, title: str) -> None:
        self.tabs.addTab(widget, title)
        self.setCurrentWidget(self.tabs)

    def retranslate(self, *_: object) -> None:
        self.note.setText(self._lang.tr("panels_placeholder"))


class MainWindow(QMainWindow):
    def __init__(
        self,
        worker: DecoderWorker,
        language: Language,
        *,
        title: str = "",
        settings: QSettings | None = None,
        session: ReviewSession | None = None,
    ) -> None:
        super().__init__()
        self.session = session
        self.review: ReviewTools | None = None  # the review tools, set by review_ui.app.open_review
        self._worker = worker
        self._lang = language
        self._title = title
        self._info: TimelineInfo | None = None
        self._error: str | None = None
        self.model = PlayerModel(worker)
        self.view: VideoView = (
            VideoView(self.model) if session is None else OverlayView(self.model, session, language.tr)
        )
        keys = load_shortcuts(settings)
        if session is not None and keys.get("zoom_reset") == DEFAULT_SHORTCUTS["zoom_reset"]:
            keys["zoom_reset"] = ("Z",)  # the digits choose seats in the review window
        self.player = PlayerWidget(self.model, language, keys, on_zoom_reset=self.view.reset_zoom)
        self.panels = PanelArea(language)

        left = QWidget()
        column = QVBoxLayout(left)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        self.video_row = QSplitter(Qt.Orientation.Horizontal)
        self.video_row.addWidget(self.view)
        column.addWidget(self.video_row, 1)
        column.addWidget(self.player)
        self.left_column = column
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(left)
        splitter.addWidget(self.panels)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)
        self.setCentralWidget(splitter)

        self.status_label = QLabel()
        self.statusBar().addPermanentWidget(self.status_label)
        self._build_menus()

        self.extra_actions: list[QAction] = []
        self.model.info_changed.connect(self._on_info)
        worker.failed.connect(self._on_failed)
        language.language_changed.connect(self.retranslate)
        self.resize(1280, 760)
        self.view.setFocus()
        self.retranslate()

    @property
    def worker(self) -> DecoderWorker:
        return self._worker

    def add_panel(self, widget: QWidget, title: str) -> None:
        """Add a game panel (seat timeline, log, votes…) as a tab on the right."""
        self.panels.add_panel(widget, title)

    # -- menus ----------------------------------------------------------------------------------------
    def _build_menus(self) -> None:
        self.video_menu = QMenu(self)
        self.damage_menu = QMenu(self)
        self.video_menu.addMenu(self.damage_menu)
        self.video_menu.addSeparator()
        for action in self.player.actions_by_name.values():
            self.video_menu.addAction(action)
        self.language_menu = QMenu(self)
        group = QActionGroup(self)
        self.language_actions: dict[str, QAction] = {}
        for code in LANGUAGES:
            action = QAction(LANGUAGE_NAMES[code], self, checkable=True)
            action.setChecked(code == self._lang.code)
            action.triggered.connect(lambda _=False, c=code: self._lang.set(c))
            group.addAction(action)
            self.language_menu.addAction(action)
            self.language_actions[code] = action
        self.view_menu = QMenu(self)  # overlays and navigation (filled by review_window)
        self.help_menu = QMenu(self)
        self.shortcuts_action = QAction(self)
        self.shortcuts_action.triggered.connect(self.show_shortcuts)
        self.help_menu.addAction(self.shortcuts_action)
        bar = self.menuBar()
        for menu in (self.video_menu, self.view_menu, self.language_menu, self.help_menu):
            bar.addMenu(menu)
        self._fill_damage_menu()

    def _fill_damage_menu(self) -> None:
        self.damage_menu.clear()
        damaged = self._info.damaged if self._info is not None else ()
        if not damaged:
            none = self.damage_menu.addAction(self._lang.tr("damaged_none"))
            none.setEnabled(False)
            return
        for d in damaged:
            span = (
                format_time(d.from_ms)
                if d.to_ms <= d.from_ms
                else f"{format_time(d.from_ms)}–{format_time(d.to_ms)}"
            )
            action = self.damage_menu.addAction(f"{span}  {d.reason}")
            action.triggered.connect(lambda _=False, t=d.from_ms: self.model.seek(t))

    def shortcut_text(self) -> str:
        lines = []
        for action in [*self.player.actions_by_name.values(), *self.extra_actions]:
            keys = ", ".join(k.toString() for k in action.shortcuts())
            lines.append(f"{keys:<24} {action.text()}")
        return "\n".join(lines) + "\n\n" + self._lang.tr("shortcuts_note")

    def show_shortcuts(self) -> None:
        box = QMessageBox(self)
        box.setWindowTitle(self._lang.tr("shortcuts_title"))
        box.setText(self.shortcut_text())
        box.setStyleSheet("QLabel { font-family: monospace; }")
        box.open()

    # -- state ----------------------------------------------------------------------------------------
    def _on_info(self, info: TimelineInfo) -> None:
        self._info = info
        self._fill_damage_menu()
        self._refresh_status()

    def _on_failed(self, message: str) -> None:
        self._error = message
        self.view.set_placeholder(self._lang.tr("video_error", error=message))
        self._refresh_status()

    def _refresh_status(self) -> None:
        parts: list[str] = []
        if self._error:
            parts.append(self._lang.tr("video_error", error=self._error))
        if self._info is not None:
            if not self._info.index_ready:
                parts.append(self._lang.tr("indexing"))
            if self._info.damaged:
                parts.append(self._lang.tr("damaged_status", n=len(self._info.damaged)))
            w, h = self._info.frame_size
            parts.append(f"{w}×{h} · {self._info.fps:.3g} fps")
        self.status_label.setText("   ".join(parts))

    def retranslate(self, *_: object) -> None:
        base = self._lang.tr("window_title")
        self.setWindowTitle(f"{self._title} — {base}" if self._title else base)
        self.video_menu.setTitle(self._lang.tr("menu_video"))
        self.damage_menu.setTitle(self._lang.tr("damaged_menu"))
        self.language_menu.setTitle(self._lang.tr("menu_language"))
        self.help_menu.setTitle(self._lang.tr("menu_help"))
        self.view_menu.setTitle(self._lang.tr("menu_view"))
        self.shortcuts_action.setText(self._lang.tr("shortcuts"))
        for code, action in self.language_actions.items():
            action.setChecked(code == self._lang.code)
        if self.view.image is None and not self._error:
            self.view.set_placeholder(self._lang.tr("loading"))
        elif self._error:
            self.view.set_placeholder(self._lang.tr("video_error", error=self._error))
        self._fill_damage_menu()
        self._refresh_status()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.model.pause()
        self._worker.stop()
        super().closeEvent(event)
