"""Transport controls: buttons, a seek bar that shows damaged stretches, the time code, and the shortcuts.

Default keys follow Kinovea for frame work and mpv / editing software for the rest:

=================  =========================================================
Space              play / pause
← / →  (, / .)     one frame back / forward (pauses)
Shift+← / Shift+→  1 s back / forward
↑ / ↓, Ctrl+→/←    5 s forward / back
J / K / L          play backward (again: faster) / stop / play forward (again: faster)
[ / ]              slower / faster (0.1× … 2×);  Backspace: 1×
Home / End         start / end
0                  whole frame (reset zoom)
=================  =========================================================

Frame steps are on the bare arrows because settling a protest is stepping frame by frame; the 1 s and 5 s
jumps need a modifier or ↑/↓. Every key can be remapped in the settings (group ``shortcuts``, one entry per
action holding a list of key sequences, e.g. ``step_forward = Right, D`` under ``[shortcuts]`` in
``~/.config/mafiacam/review.ini`` on Linux; see ``review_ui.app.default_settings``). Help → Shortcuts lists
the keys in force.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QColor, QKeySequence, QPainter, QPaintEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QSlider,
    QStyle,
    QStyleOptionSlider,
    QToolButton,
    QWidget,
)

from review_ui.decoder_worker import ShownFrame, TimelineInfo
from review_ui.i18n import Language
from review_ui.player_model import PlayerModel
from vision.video import Damage

DEFAULT_SHORTCUTS: dict[str, tuple[str, ...]] = {
    "play_pause": ("Space",),
    "step_forward": ("Right", "."),
    "step_back": ("Left", ","),
    "jump_forward_1s": ("Shift+Right",),
    "jump_back_1s": ("Shift+Left",),
    "jump_forward_5s": ("Up", "Ctrl+Right"),
    "jump_back_5s": ("Down", "Ctrl+Left"),
    "play_forward": ("L",),
    "pause": ("K",),
    "play_backward": ("J",),
    "slower": ("[",),
    "faster": ("]",),
    "speed_normal": ("Backspace",),
    "go_start": ("Home",),
    "go_end": ("End",),
    "zoom_reset": ("0",),
}


def load_shortcuts(settings: QSettings | None) -> dict[str, tuple[str, ...]]:
    """The default keys overridden by the ``shortcuts/<action>`` settings (a list or a comma list)."""
    keys = dict(DEFAULT_SHORTCUTS)
    if settings is None:
        return keys
    settings.beginGroup("shortcuts")
    try:
        for action in settings.childKeys():
            if action not in keys:
                continue
            value = settings.value(action)
            items = value if isinstance(value, list) else str(value or "").split(",")
            seqs = tuple(s.strip() for s in items if str(s).strip())
            keys[action] = tuple(seq for seq in seqs if not QKeySequence(seq).isEmpty())
    finally:
        settings.endGroup()
    return keys


def format_time(ms: int) -> str:
    """HH:MM:SS.mmm"""
    ms = max(0, int(ms))
    h, rem = divmod(ms, 3_600_000)
    m, rem = divmod(rem, 60_000)
    s, milli = divmod(rem, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}.{milli:03d}"


def format_speed(speed: float, direction: int) -> str:
    text = f"{speed:g}×"
    return ("◀ " + text) if direction < 0 else text


class SeekBar(QSlider):
    """A horizontal slider over the timeline (ms) that paints damaged stretches in red."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self._damage: tuple[Damage, ...] = ()
        self.setRange(0, 0)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)

    def set_damage(self, damage: tuple[Damage, ...]) -> None:
        self._damage = damage
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if not self._damage or self.maximum() <= self.minimum():
            return
        opt = QStyleOptionSlider()
        self.initStyleOption(opt)
        groove = self.style().subControlRect(
            QStyle.ComplexControl.CC_Slider, opt, QStyle.SubControl.SC_SliderGroove, self
        )
        span = self.maximum() - self.minimum()
        painter = QPainter(self)
        color = QColor(220, 40, 40, 200)
        for d in self._damage:
            x0 = groove.left() + groove.width() * (d.from_ms - self.minimum()) / span
            x1 = groove.left() + groove.width() * (d.to_ms - self.minimum()) / span
            painter.fillRect(int(x0), groove.top(), max(2, int(x1 - x0)), groove.height(), color)
        painter.end()


class PlayerWidget(QWidget):
    """The transport bar; owns the player's keyboard actions (window-wide shortcuts)."""

    def __init__(
        self,
        model: PlayerModel,
        language: Language,
        shortcuts: dict[str, tuple[str, ...]] | None = None,
        on_zoom_reset: Callable[[], None] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._model = model
        self._lang = language
        self._frame: ShownFrame | None = None
        self._info: TimelineInfo | None = None
        self._scrubbing = False

        self.back_button = QToolButton()
        self.play_button = QToolButton()
        self.forward_button = QToolButton()
        self.slower_button = QToolButton()
        self.speed_label = QLabel()
        self.faster_button = QToolButton()
        self.seek_bar = SeekBar()
        self.time_label = QLabel()
        self.duration_label = QLabel()
        mono = self.time_label.font()
        mono.setFamily("monospace")
        mono.setStyleHint(mono.StyleHint.Monospace)
        self.time_label.setFont(mono)
        self.duration_label.setFont(mono)
        for button in (self.back_button, self.play_button, self.forward_button):
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.setAutoRaise(True)
        for button in (self.slower_button, self.faster_button):
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.setAutoRaise(True)
        self.back_button.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_MediaSeekBackward))
        self.forward_button.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_MediaSeekForward))
        self.slower_button.setText("−")
        self.faster_button.setText("+")

        row = QHBoxLayout(self)
        row.setContentsMargins(6, 2, 6, 2)
        widgets: list[QWidget] = [self.back_button, self.play_button, self.forward_button, self.time_label]
        for w in widgets:
            row.addWidget(w)
        row.addWidget(self.seek_bar, 1)
        for w in (self.duration_label, self.slower_button, self.speed_label, self.faster_button):
            row.addWidget(w)

        self.back_button.clicked.connect(lambda: model.step(-1))
        self.forward_button.clicked.connect(lambda: model.step(1))
        self.play_button.clicked.connect(model.toggle_play)
        self.slower_button.clicked.connect(model.slower)
        self.faster_button.clicked.connect(model.faster)
        self.seek_bar.sliderPressed.connect(self._scrub_start)
        self.seek_bar.sliderReleased.connect(self._scrub_end)
        self.seek_bar.sliderMoved.connect(model.seek)
        self.seek_bar.actionTriggered.connect(self._bar_action)

        model.frame_changed.connect(self._on_frame)
        model.info_changed.connect(self._on_info)
        model.playing_changed.connect(self._refresh_play)
        model.speed_changed.connect(self._refresh_speed)
        model.direction_changed.connect(self._refresh_speed)
        language.language_changed.connect(self.retranslate)

        handlers: dict[str, Callable[[], None]] = {
            "play_pause": model.toggle_play,
            "step_forward": lambda: model.step(1),
            "step_back": lambda: model.step(-1),
            "jump_forward_1s": lambda: model.jump(1000),
            "jump_back_1s": lambda: model.jump(-1000),
            "jump_forward_5s": lambda: model.jump(5000),
            "jump_back_5s": lambda: model.jump(-5000),
            "play_forward": model.play_forward,
            "pause": model.pause,
            "play_backward": model.play_backward,
            "slower": model.slower,
            "faster": model.faster,
            "speed_normal": lambda: model.set_speed(1.0),
            "go_start": model.go_start,
            "go_end": model.go_end,
            "zoom_reset": on_zoom_reset or (lambda: None),
        }
        keys = shortcuts if shortcuts is not None else DEFAULT_SHORTCUTS
        self.actions_by_name: dict[str, QAction] = {}
        for name, handler in handlers.items():
            action = QAction(self)
            action.setShortcuts([QKeySequence(k) for k in keys.get(name, ())])
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            action.triggered.connect(handler)
            self.addAction(action)
            self.actions_by_name[name] = action
        self.retranslate()

    # -- model → view ---------------------------------------------------------------------------------
    def _on_frame(self, frame: ShownFrame) -> None:
        self._frame = frame
        if not self._scrubbing:
            self.seek_bar.blockSignals(True)
            self.seek_bar.setValue(frame.pts_ms)
            self.seek_bar.blockSignals(False)
        self._refresh_time()

    def _on_info(self, info: TimelineInfo) -> None:
        self._info = info
        self.seek_bar.blockSignals(True)
        self.seek_bar.setRange(info.start_ms, max(info.start_ms, info.duration_ms - 1))
        self.seek_bar.setPageStep(5000)
        self.seek_bar.setSingleStep(1000)
        self.seek_bar.blockSignals(False)
        self.seek_bar.set_damage(info.damaged)
        self.duration_label.setText(format_time(info.duration_ms))
        self._refresh_time()

    def _refresh_time(self) -> None:
        if self._frame is None:
            self.time_label.setText(format_time(0))
            return
        if self._frame.frame_number is not None:
            frame_text = f"{self._lang.tr('frame')} {self._frame.frame_number}"
        else:
            frame_text = self._lang.tr("frame_pending")
        self.time_label.setText(f"{format_time(self._frame.pts_ms)} · {frame_text}")

    def _refresh_play(self, playing: bool | None = None) -> None:
        playing = self._model.playing if playing is None else playing
        icon = QStyle.StandardPixmap.SP_MediaPause if playing else QStyle.StandardPixmap.SP_MediaPlay
        self.play_button.setIcon(self.style().standardIcon(icon))
        self.play_button.setToolTip(self._tip("pause" if playing else "play", "play_pause"))

    def _refresh_speed(self, *_: object) -> None:
        self.speed_label.setText(format_speed(self._model.speed, self._model.direction))

    def _tip(self, label: str, action: str) -> str:
        keys = self.actions_by_name[action].shortcuts()
        keytext = ", ".join(k.toString(QKeySequence.SequenceFormat.NativeText) for k in keys)
        return f"{self._lang.tr(label)} ({keytext})" if keytext else self._lang.tr(label)

    def retranslate(self, *_: object) -> None:
        self.back_button.setToolTip(self._tip("step_back", "step_back"))
        self.forward_button.setToolTip(self._tip("step_forward", "step_forward"))
        self.slower_button.setToolTip(self._tip("act_slower", "slower"))
        self.faster_button.setToolTip(self._tip("act_faster", "faster"))
        self.speed_label.setToolTip(self._lang.tr("speed"))
        for name, action in self.actions_by_name.items():
            action.setText(self._lang.tr(f"act_{name}"))
        self._refresh_play()
        self._refresh_speed()
        self._refresh_time()

    # -- view → model ---------------------------------------------------------------------------------
    def _scrub_start(self) -> None:
        self._scrubbing = True
        self._model.pause()

    def _scrub_end(self) -> None:
        self._scrubbing = False
        self._model.seek(self.seek_bar.value())

    def _bar_action(self, action: int) -> None:
        if action in (QSlider.SliderAction.SliderMove.value, QSlider.SliderAction.SliderNoAction.value):
            return
        # clicks on the groove and page keys: go where the bar now points
        self._model.seek(self.seek_bar.sliderPosition())
