"""The record console window: the live picture with seat zones, the panels, keyboard-first marking.

Every key press anywhere in the window (except while a player's name is being typed) goes to the
model; the media time is read first thing, before anything else is done with the press. The preview
paints the newest tap frame at about 14 fps; the recorder runs on its own threads through the
:class:`~review_ui.console.recorder_bridge.RecorderBridge`, so nothing here waits for the disk.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QCloseEvent, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMainWindow,
    QPushButton,
    QSplitter,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from gamelog.layout import Layout, LayoutError, Layouts, layouts_from_json, layouts_to_json, write_layout
from gamelog.rules import PRESETS
from recorder.session import Notice, RecorderStatus
from review_ui.console.calibration import LiveFrames, ZoneView
from review_ui.console.console_model import ConsoleModel, LiveView
from review_ui.console.keymap import token_for
from review_ui.console.labels import ctr
from review_ui.console.latency import LatencyProbe
from review_ui.console.live_check import LiveVision
from review_ui.console.marking import Msg
from review_ui.console.panels import LegendPanel, LivePanel, MarksPanel, PhasePanel, PlayersPanel, StatePanel
from review_ui.console.pinning import pin_singletons
from review_ui.console.press_time import PressClock
from review_ui.console.preview import PreviewMaker
from review_ui.console.recorder_bridge import RecorderBridge
from review_ui.console.voice_step import VoiceStep
from review_ui.console.zones import best_proposal
from review_ui.i18n import LANGUAGE_NAMES, LANGUAGES, Language
from review_ui.signals import emit

PREVIEW_MS = 35  # the timer only swaps in the picture PreviewMaker made (about 15 fps)
LAYOUT_FILE = "layout.json"


def _no_focus(*widgets: QWidget) -> None:
    for w in widgets:
        w.setFocusPolicy(Qt.FocusPolicy.NoFocus)


class ConsoleWindow(QMainWindow):
    def __init__(
        self,
        model: ConsoleModel,
        bridge: RecorderBridge,
        language: Language,
        *,
        live: LiveVision | None = None,
        layout: Layout | None = None,
    ) -> None:
        pin_singletons()  # before the first of many void Qt calls (see pinning.py)
        super().__init__()
        self.model, self.bridge, self.lang, self.live = model, bridge, language, live
        self.bundle: Path = bridge.session.bundle
        self.final_status: RecorderStatus | None = None
        self._seq = -1
        self._closing = False
        self.frames = LiveFrames(self)
        self.view = ZoneView(self.frames)
        self.view.set_zone_layout(layout)
        self.view.layout_edited.connect(self._on_layout_edited)
        self.probe = LatencyProbe(parent=self)
        self.press_clock = PressClock()
        self.preview = PreviewMaker()
        bridge.add_frame_sink(self.preview)

        # toolbar row
        self.rules = QComboBox()
        for name in PRESETS:
            self.rules.addItem(name, name)
        self.rules.setCurrentIndex(list(PRESETS).index(model.rule_set.name))
        self.rules.currentIndexChanged.connect(lambda _i: self._on_rules())
        self.rules_label = QLabel()
        self.secrecy = QCheckBox()
        self.secrecy.setChecked(model.secrecy)
        self.secrecy.toggled.connect(model.set_secrecy)
        model.secrecy_changed.connect(self.secrecy.setChecked)
        self.language = QComboBox()
        for code in LANGUAGES:
            self.language.addItem(LANGUAGE_NAMES[code], code)
        self.language.setCurrentIndex(LANGUAGES.index(language.code))
        self.language.currentIndexChanged.connect(lambda i: language.set(LANGUAGES[i]))
        self.calibrate = QPushButton()
        self.calibrate.setCheckable(True)
        self.calibrate.toggled.connect(self.set_calibrating)
        self.propose = QPushButton()
        self.propose.clicked.connect(self.propose_layout)
        self.stop_button = QPushButton()
        self.stop_button.clicked.connect(self.stop_recording)
        self.voice_button = QPushButton()
        self.voice_button.clicked.connect(self.open_voice_step)
        self.voice_step: VoiceStep | None = None
        _no_focus(self.rules, self.secrecy, self.language, self.calibrate, self.propose, self.stop_button)
        _no_focus(self.voice_button)
        bar = QHBoxLayout()
        widgets: list[QWidget] = [self.rules_label, self.rules, self.secrecy, self.language]
        for w in widgets:
            bar.addWidget(w)
        bar.addStretch(1)
        for button in (self.voice_button, self.calibrate, self.propose, self.stop_button):
            bar.addWidget(button)
        self.calib_hint = QLabel()
        self.calib_hint.setWordWrap(True)
        self.notice_label = QLabel()
        self.notice_label.setWordWrap(True)
        self.notice_label.setStyleSheet("color: #c0211b; font-weight: bold")
        self.notice_label.setVisible(False)
        self._notice_timer = QTimer(self)
        self._notice_timer.setSingleShot(True)
        self._notice_timer.setInterval(30_000)
        self._notice_timer.timeout.connect(lambda: self.notice_label.setVisible(False))

        # panels
        self.phase = PhasePanel(model, language)
        self.live_panel = LivePanel(model, language)
        self.state_panel = StatePanel(model, language)
        self.players = PlayersPanel(model, language)
        self.marks = MarksPanel(model, language)
        self.legend = LegendPanel(model, language)
        side = QWidget()
        sl = QVBoxLayout(side)
        sl.addWidget(self.phase)
        sl.addWidget(self.live_panel)
        sl.addWidget(self.state_panel)
        sl.addWidget(self.players, 3)
        sl.addWidget(self.marks, 2)
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addLayout(bar)
        ll.addWidget(self.view, 1)
        ll.addWidget(self.notice_label)
        ll.addWidget(self.calib_hint)
        ll.addWidget(self.legend)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(side)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        self.setCentralWidget(split)
        self.status_label = QLabel()
        self.statusBar().addWidget(self.status_label, 1)

        model.live_changed.connect(self._on_live)
        model.players_changed.connect(self._push_game)
        model.rules_changed.connect(lambda _n: self._push_game())
        model.timer_warning.connect(self._on_timer_warning)
        bridge.started.connect(self._on_started)
        bridge.start_failed.connect(self._on_start_failed)
        bridge.status_changed.connect(self._on_status)
        bridge.stopped.connect(self._on_stopped)
        bridge.mark_failed.connect(self._on_mark_failed)
        bridge.notice.connect(self._on_notice)
        language.language_changed.connect(lambda _l: self.retranslate())
        self._preview = QTimer(self)
        self._preview.setInterval(PREVIEW_MS)
        self._preview.timeout.connect(self._paint_preview)
        self._preview.start()
        self.probe.start()
        self._app = QApplication.instance()
        assert self._app is not None
        self._app.installEventFilter(self)
        self.set_calibrating(False)
        self.retranslate()
        self.status_label.setText(ctr(language, "status_starting"))
        self.resize(1500, 900)

    # ---- labels ---------------------------------------------------------------------------------------

    def retranslate(self) -> None:
        t = self.lang
        self.setWindowTitle(f"{ctr(t, 'console_title')} — {self.bundle.name}")
        self.rules_label.setText(ctr(t, "rules"))
        self.secrecy.setText(ctr(t, "secrecy"))
        self.calibrate.setText(ctr(t, "calibrate_done") if self.view.calibrating else ctr(t, "calibrate"))
        self.propose.setText(ctr(t, "calibrate_propose"))
        self.stop_button.setText(ctr(t, "stop"))
        self.voice_button.setText(ctr(t, "voice_button"))
        self.calib_hint.setText(ctr(t, "calibrate_hint"))

    # ---- keys -----------------------------------------------------------------------------------------

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.KeyPress or self._closing:
            return False
        t_ms = self.bridge.media_ms()  # the time of the press, before anything else
        if not isinstance(obj, QWidget) or obj.window() is not self:
            return False
        assert isinstance(event, QKeyEvent)
        if event.key() == Qt.Key.Key_F8 and not event.isAutoRepeat():
            self.open_voice_step()
            return True
        # minus the time the event waited for a busy UI thread (from the window system's timestamp)
        t_ms = max(0, t_ms - round(self.press_clock.wait_ms(event.timestamp(), time.monotonic() * 1000)))
        focus = QApplication.focusWidget()
        if isinstance(focus, QLineEdit | QTextEdit | QAbstractSpinBox):
            return False  # typing a name
        if event.isAutoRepeat():
            return True
        ctrl = bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)
        token = token_for(event.key(), event.text(), ctrl=ctrl)
        if token is None:
            return False
        self.model.key(token, t_ms)
        return True

    # ---- recording ------------------------------------------------------------------------------------

    def _on_started(self) -> None:
        self.model.set_recording(True)
        self._push_game()

    def _on_start_failed(self, error: str) -> None:
        self.status_label.setText(ctr(self.lang, "start_failed", error=error))
        self.status_label.setStyleSheet("color: #c0211b; font-weight: bold")

    def _on_status(self, st: RecorderStatus) -> None:
        if self.final_status is not None:
            return
        secs = st.media_ms // 1000
        self.status_label.setText(
            ctr(
                self.lang,
                "status_line",
                state=st.state,
                time=f"{secs // 3600}:{secs // 60 % 60:02d}:{secs % 60:02d}",
                fps=st.fps,
                dropped=st.dropped,
                mb=st.bytes_written / 1e6,
                marks=st.marks,
                lat=round(self.probe.recent_max_ms()),
            )
        )
        bad = st.state != "recording" or st.disk_low
        self.status_label.setStyleSheet("color: #c0211b; font-weight: bold" if bad else "")

    def _on_mark_failed(self, ev_id: str, error: str) -> None:
        self.model.marker.forget(ev_id)
        self.model.refresh_state()
        emit(self.model.marks_changed)
        self.model.say(Msg("msg_write_failed", (("id", ev_id), ("error", error))))

    def _on_notice(self, n: Notice) -> None:
        """The recorder's news (source lost or back, disk low, frames dropped, ffmpeg restarted) in red
        under the picture for half a minute."""
        self.notice_label.setText(ctr(self.lang, "recorder_notice", kind=n.kind, message=n.message))
        self.notice_label.setVisible(True)
        self._notice_timer.start()

    def stop_recording(self) -> None:
        if self.bridge.running:
            self.stop_button.setEnabled(False)
            self.model.set_recording(False)
            self.bridge.stop()

    def _on_stopped(self, st: RecorderStatus) -> None:
        self.final_status = st
        self.model.set_recording(False)
        self.status_label.setText(ctr(self.lang, "status_stopped", reason=st.stop_reason or ""))
        self.stop_button.setEnabled(False)
        if self.live is not None:
            self.live.stop()
        if self._closing:
            self.close()

    # ---- the host's voice templates ------------------------------------------------------------------

    def open_voice_step(self) -> VoiceStep:
        """Show the "Voice templates" window (made once; it listens to the recording's sound)."""
        if self.voice_step is None:
            self.voice_step = VoiceStep(
                self.bundle, self.bridge.session.pcm, self.bridge.media_ms, self.lang, parent=self
            )
            self.voice_step.saved.connect(self._on_templates_saved)
        self.voice_step.show()
        self.voice_step.raise_()
        self.voice_step.activateWindow()
        return self.voice_step

    def _on_templates_saved(self, templates: list[object]) -> None:
        if self.live is not None:
            self.live.set_templates(templates)
        self.model.say(Msg("voice_saved", (("n", len(templates)),)))

    def _push_game(self) -> None:
        self.bridge.update_game(self.model.names, self.model.rule_set.name)

    def _on_rules(self) -> None:
        self.model.set_rules(str(self.rules.currentData()))

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.bridge.running and not self.bridge.finished:
            self._closing = True
            self.stop_recording()
            event.ignore()  # closes itself once the recording is finished
            return
        self._closing = True
        if self.voice_step is not None:
            self.voice_step.stop_listening()
        self._preview.stop()
        self.probe.stop()
        if self._app is not None:
            self._app.removeEventFilter(self)
        event.accept()

    # ---- preview --------------------------------------------------------------------------------------

    def _paint_preview(self) -> None:
        seq, shown, raw = self.preview.latest()
        if shown is None or seq == self._seq:
            return
        self._seq = seq
        if self.view.zone_layout is None and not self.view.calibrating:
            self._first_layout(raw)
        self.frames.push(shown)

    def _first_layout(self, image: object) -> None:
        """Propose zones on the first frame when the bundle has none (drawn, not saved, until edited)."""
        size = self.bridge.session.source.size
        if size[0] > 0 and size[1] > 0:
            self.view.set_zone_layout(best_proposal(size, len(self.model.seats), image))

    def _on_live(self, lv: LiveView | None) -> None:
        voters = set(lv.vision.voters) if lv is not None and lv.vision is not None else set()
        self.view.set_highlight(voters)

    def _on_timer_warning(self, s: int) -> None:
        self.model.say(Msg("timer_warn", (("s", s),)) if s else Msg("timer_over"))
        QApplication.beep()

    # ---- calibration ----------------------------------------------------------------------------------

    def set_calibrating(self, on: bool) -> None:
        if not on and self.view.calibrating and self.view.zone_layout is not None:
            self.save_layout(self.view.zone_layout)
        self.view.set_calibrating(on)
        self.propose.setVisible(on)
        self.calib_hint.setVisible(on)
        if self.calibrate.isChecked() != on:
            self.calibrate.setChecked(on)
        self.retranslate()

    def propose_layout(self) -> None:
        size = self.bridge.session.source.size
        _, _, raw = self.preview.latest()
        if size[0] > 0:
            self.view.set_zone_layout(best_proposal(size, len(self.model.seats), raw))
            self._on_layout_edited(self.view.zone_layout)

    def _on_layout_edited(self, layout: Layout | None) -> None:
        if layout is not None:
            self.save_layout(layout)

    def save_layout(self, layout: Layout) -> bool:
        """Validate and write ``layout.json`` (atomically); the live check uses it from now on."""
        path = self.bundle / LAYOUT_FILE
        try:
            layouts_from_json(
                layouts_to_json(Layouts.single(layout)), seats=len(self.model.seats), where=str(path)
            )
            write_layout(path, layout)
        except (LayoutError, OSError) as e:
            self.model.say(Msg("layout_error", (("error", str(e)),)))
            return False
        if self.live is not None:
            self.live.set_layout(layout)
        if self.bridge.finished:  # the recording was sealed with the old zones
            threading.Thread(target=self.bridge.reseal, name="console-reseal", daemon=True).start()
        self.model.say(Msg("layout_saved", (("path", path.name),)))
        return True
