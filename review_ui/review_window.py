"""Puts the review tools into the player window: timeline, seat focus, panels, overlays, keys, exports.

Keys added to the player's (Help → Shortcuts lists them all):

==============  ==============================================================
1 … 9, 0        focus seat 1 … 10 (again: unfocus); up to four side by side
N / Shift+N     next / previous event (of the kind and seat chosen above the timeline)
V / Shift+V     next / previous vote call
I / O           loop start / end at the playhead (A–B loop); Esc clears it
= / -           zoom the timeline in / out; \\  the whole game
Z               whole frame (reset the video zoom)
==============  ==============================================================
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QInputDialog, QLabel, QToolButton, QVBoxLayout, QWidget

from gamelog.events import VoteStop
from review_ui import judging
from review_ui.background import run_in_background
from review_ui.evidence import export_clip, export_copy, stills, write_report
from review_ui.game_panel import GamePanel
from review_ui.i18n import Language, round_name
from review_ui.main_window import MainWindow
from review_ui.overlays import LAYERS, OverlayView
from review_ui.protest_panel import ProtestPanel, default_export_path
from review_ui.review_data import KINDS, ReviewData, next_marker
from review_ui.review_session import ReviewSession
from review_ui.seat_focus import SeatFocus
from review_ui.timeline import SwimlaneTimeline
from review_ui.waveform import Waveform, compute_envelope
from vision.video import SegmentSpec


class ReviewTools:
    """The review parts of one window (kept on ``window.review``)."""

    def __init__(
        self, window: MainWindow, session: ReviewSession, language: Language, specs: list[SegmentSpec]
    ) -> None:
        self.window = window
        self.session = session
        self._lang = language
        self.specs = specs
        self.ask_reason: Callable[[str], str | None] = self._dialog_reason
        model = window.model
        self.timeline = SwimlaneTimeline(session, model, language)
        self.kind_combo = QComboBox()
        self.seat_combo = QComboBox()
        self.prev_button = QToolButton()
        self.next_button = QToolButton()
        self.prev_button.setText("◀")
        self.next_button.setText("▶")
        self.prev_button.clicked.connect(lambda: self.jump_event(-1))
        self.next_button.clicked.connect(lambda: self.jump_event(1))
        for w in (self.kind_combo, self.seat_combo, self.prev_button, self.next_button):
            w.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.kind_combo.setMinimumWidth(150)
        self.seat_combo.setMinimumWidth(120)
        self.status = QLabel()
        bar = QHBoxLayout()
        bar.setContentsMargins(6, 0, 6, 0)
        for w in (self.prev_button, self.next_button, self.kind_combo, self.seat_combo):
            bar.addWidget(w)
        bar.addWidget(self.status, 1)
        box = QWidget()
        col = QVBoxLayout(box)
        col.setContentsMargins(0, 0, 0, 0)
        col.setSpacing(0)
        col.addLayout(bar)
        self.waveform = Waveform(session, model, self.timeline, language, self.move_stop)
        col.addWidget(self.waveform)
        col.addWidget(self.timeline)
        window.left_column.addWidget(box)
        self.focus = SeatFocus(session, model, language)
        window.video_row.addWidget(self.focus)
        self.game_panel = GamePanel(session, model, language)
        self.protest_panel = ProtestPanel(session, model, language, lambda title: self.ask_reason(title))
        window.add_panel(self.game_panel, "")
        window.add_panel(self.protest_panel, "")
        self.game_panel.judge_requested.connect(self._judge_from_panel)
        self.protest_panel.export_requested.connect(self.export)
        self.protest_panel.protests.itemDoubleClicked.connect(lambda *_: self.go_to_protest())
        model.position_changed.connect(self._on_position)
        session.loop_changed.connect(model.set_loop)
        session.data_changed.connect(self._on_data)
        session.failed.connect(self.status.setText)
        self._build_actions()
        paths = [spec.path for spec in specs]
        run_in_background(
            lambda: compute_envelope(paths),
            self.waveform.set_envelope,
            self.waveform.set_failed,
            owner=self.waveform,
        )
        language.language_changed.connect(lambda *_: self.retranslate())
        self.retranslate()

    # -- actions --------------------------------------------------------------------------------------
    def _action(self, name: str, keys: tuple[str, ...], handler: Callable[[], object]) -> QAction:
        a = QAction(self.window)
        a.setObjectName(name)
        a.setShortcuts([QKeySequence(k) for k in keys])
        a.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        a.triggered.connect(handler)
        self.window.addAction(a)
        self.window.extra_actions.append(a)
        return a

    def _focus_slot(self, seat: int) -> Callable[[], None]:
        return lambda: self.session.toggle_focus(seat)  # no arguments: QAction's "checked" is not a limit

    def _build_actions(self) -> None:
        self.actions: dict[str, QAction] = {}
        for seat in range(1, 11):
            key = str(seat % 10)
            self.actions[f"focus_{seat}"] = self._action(f"focus_{seat}", (key,), self._focus_slot(seat))
        table: list[tuple[str, tuple[str, ...], Callable[[], object]]] = [
            ("next_event", ("N",), lambda: self.jump_event(1)),
            ("prev_event", ("Shift+N",), lambda: self.jump_event(-1)),
            ("next_vote", ("V",), lambda: self.jump_vote(1)),
            ("prev_vote", ("Shift+V",), lambda: self.jump_vote(-1)),
            ("loop_in", ("I",), self.loop_in),
            ("loop_out", ("O",), self.loop_out),
            ("loop_clear", ("Esc",), lambda: self.session.set_loop(None)),
            ("timeline_in", ("=", "+"), lambda: self.timeline.zoom(0.5)),
            ("timeline_out", ("-",), lambda: self.timeline.zoom(2.0)),
            ("timeline_all", ("\\",), self.timeline.show_all),
        ]
        for name, keys, handler in table:
            self.actions[name] = self._action(name, keys, handler)
            self.window.view_menu.addAction(self.actions[name])
        self.window.view_menu.addSeparator()
        self.layer_actions: dict[str, QAction] = {}
        view = self.window.view
        for layer in LAYERS:
            if layer == "timecode":
                continue
            a = QAction(self.window, checkable=True)
            a.setChecked(isinstance(view, OverlayView) and layer in view.layers)
            a.toggled.connect(lambda on, name=layer: self.set_layer(name, on))
            self.window.view_menu.addAction(a)
            self.layer_actions[layer] = a

    def set_layer(self, name: str, on: bool) -> None:
        if isinstance(self.window.view, OverlayView):
            self.window.view.set_layer(name, on)

    # -- navigation -----------------------------------------------------------------------------------
    def jump_event(self, direction: int, kind: str | None = None) -> int | None:
        data = self.session.data
        if data is None:
            return None
        if kind is None:
            kind = self.kind_combo.currentData()
        lane = self.seat_combo.currentData()
        m = next_marker(data.markers, self.window.model.position_ms, direction, kind=kind, lane=lane)
        if m is None:
            self.status.setText(self._lang.tr("no_more_events"))
            return None
        self.window.model.seek(m.t)
        self.status.setText(f"{m.kind}: {m.text(self._lang.code)}" + (f" [{m.ref}]" if m.ref else ""))
        return m.t

    def jump_vote(self, direction: int) -> int | None:
        """To the next / previous vote call (day votes only; the night's number calls are not votes)."""
        data = self.session.data
        if data is None:
            return None
        t = self.window.model.position_ms
        calls = [r.call_t for r in data.rounds]
        pick = (
            next((c for c in calls if c > t), None)
            if direction > 0
            else next((c for c in reversed(calls) if c < t), None)
        )
        if pick is None:
            self.status.setText(self._lang.tr("no_more_events"))
            return None
        self.window.model.seek(pick)
        rnd = data.round_at(pick)
        name = round_name(self._lang.tr, rnd.round) if rnd is not None else ""
        self.status.setText(
            f"{self._lang.tr('vote_window')}: {name} → {rnd.candidate}" if rnd is not None else ""
        )
        return pick

    def go_to_protest(self) -> None:
        """Loop the selected protest's range, show it on the timeline and jump to its start."""
        pv = self.protest_panel.selected()
        if pv is None:
            return
        p = pv.protest
        lo = p.from_t if p.from_t is not None else p.t
        hi = p.until if p.until is not None else p.t + 1000
        self.session.set_loop((lo, hi))
        self.timeline.show_range(lo, hi)
        self.window.model.seek(lo)

    def loop_in(self) -> None:
        t = self.window.model.position_ms
        b = self.session.loop[1] if self.session.loop else t + 3000
        self.session.set_loop((t, max(b, t + 40)))

    def loop_out(self) -> None:
        t = self.window.model.position_ms
        a = self.session.loop[0] if self.session.loop else max(0, t - 3000)
        self.session.set_loop((min(a, t - 40), t))

    def _on_position(self, t: int) -> None:
        self.game_panel.show_round_at(t)

    def _on_data(self, data: ReviewData) -> None:
        seat = self.seat_combo.currentData()
        self.seat_combo.blockSignals(True)
        self.seat_combo.clear()
        self.seat_combo.addItem(self._lang.tr("all_seats"), None)
        self.seat_combo.addItem(self._lang.tr("lane_host"), 0)
        for s in data.seats:
            self.seat_combo.addItem(self._lang.tr("seat_n", n=s), s)
        idx = self.seat_combo.findData(seat)
        self.seat_combo.setCurrentIndex(max(0, idx))
        self.seat_combo.blockSignals(False)

    # -- judge ----------------------------------------------------------------------------------------
    def _dialog_reason(self, title: str) -> str | None:
        if not self.session.judge.strip():
            name, ok = QInputDialog.getText(self.window, title, self._lang.tr("judge"))
            if not ok or not name.strip():
                return None
            self.session.judge = name.strip()
            self.protest_panel.judge_edit.setText(self.session.judge)
        text, ok = QInputDialog.getText(self.window, title, self._lang.tr("reason"))
        return text if ok and text.strip() else None

    def _judge_from_panel(self, action: str, ref: str, t: int) -> None:
        data = self.session.data
        ev = data.event(ref) if data is not None else None
        if ev is None:
            return
        reason = self.ask_reason(self._lang.tr(f"act_{action}"))
        if reason is not None:
            self.protest_panel.judge_fact(action, ev, reason)

    def move_stop(self, stop: VoteStop, new_t: int) -> None:
        """Move a "Спасибо" keystroke to ``new_t`` (asks the reason; void + judge vote_stop)."""
        reason = self.ask_reason(self._lang.tr("act_move_stop"))
        if reason is None:
            return
        try:
            events = judging.move_stop(
                self.session.ids(), stop=stop, new_t=new_t, judge=self.session.judge, reason=reason
            )
            self.session.apply(events)
        except (judging.JudgeError, ValueError) as e:
            self.status.setText(str(e))

    # -- evidence -------------------------------------------------------------------------------------
    def export(
        self, protest_id: str, kind: str, out: Path | None = None, then: Callable[[Path], None] | None = None
    ) -> None:
        data = self.session.data
        if data is None:
            return
        pv = next((p for p in data.protests if p.protest.protest == protest_id), None)
        if pv is None:
            return
        path = out or default_export_path(self.session.path, protest_id, kind)
        lo = pv.protest.from_t if pv.protest.from_t is not None else pv.protest.t
        hi = pv.protest.until if pv.protest.until is not None else pv.protest.t + 1000
        view = self.window.view
        layers = sorted(view.layers) if isinstance(view, OverlayView) else []
        labels = self._lang.tr
        specs = list(self.specs)
        before = None

        def job() -> Path:
            if kind == "clip":
                export_clip(specs, lo, hi, path, data=data, layers=layers, labels=labels)
            elif kind == "copy":
                if len(specs) != 1:
                    raise ValueError("a lossless copy needs a single-file recording; export a clip instead")
                export_copy(specs[0].path, lo, hi, path)
            else:
                times = sorted({lo, *(r.close_t for r in data.rounds if lo <= r.close_t <= hi), hi - 1})
                images = stills(specs, times, data, layers, labels)
                write_report(path, data, pv, before=before, images=images, title=self.window.windowTitle())
            return path

        self.status.setText(self._lang.tr("exporting", path=str(path)))

        def done(p: object) -> None:
            self.status.setText(self._lang.tr("exported", path=str(p)))
            if then is not None:
                then(Path(str(p)))

        run_in_background(job, done, lambda msg: self.status.setText(f"{path}: {msg}"), owner=self.status)

    def retranslate(self) -> None:
        tr = self._lang.tr
        tabs = self.window.panels.tabs
        tabs.setTabText(tabs.indexOf(self.game_panel), tr("tab_game"))
        tabs.setTabText(tabs.indexOf(self.protest_panel), tr("tab_protests"))
        kind = self.kind_combo.currentData()
        self.kind_combo.clear()
        self.kind_combo.addItem(tr("all_kinds"), None)
        for k in KINDS:
            self.kind_combo.addItem(tr(f"kind_{k}"), k)
        self.kind_combo.setCurrentIndex(max(0, self.kind_combo.findData(kind)))
        self.seat_combo.setItemText(0, tr("all_seats")) if self.seat_combo.count() else None
        self.prev_button.setToolTip(tr("act_prev_event"))
        self.next_button.setToolTip(tr("act_next_event"))
        for name, a in self.actions.items():
            if name.startswith("focus_"):
                a.setText(tr("act_focus", n=name.split("_")[1]))
            else:
                a.setText(tr(f"act_{name}"))
        for layer, a in self.layer_actions.items():
            a.setText(tr(f"layer_{layer}"))
