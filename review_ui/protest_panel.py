"""Protests: file one, review the facts in its range, decide, and export the evidence.

Filing writes a judge ``protest`` event (who filed, the seats, the claim, the time range: the A–B loop when
one is set, else a few seconds around the playhead). Selecting a protest lists the facts with ids in its
range (host marks, vision landings, judge corrections); a judge voids or confirms them, moves "Спасибо" to
the playhead, and decides (``decision``: outcome and reason). Every action asks for a reason and is written
under the judge's name; the referee recomputes in the background and the panel shows the outcome before the
protest's corrections and after them. Evidence: the range as a clip (re-encoded with the overlays and a
time code, or a lossless stream copy) and an HTML report.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from gamelog.events import Event, VoteStop
from review_ui import judging
from review_ui.i18n import Language
from review_ui.player_model import PlayerModel
from review_ui.player_widget import format_time
from review_ui.review_data import ProtestView, ReviewData, outcome_changes
from review_ui.review_session import ReviewSession

DEFAULT_HALF_RANGE_MS = 3000
REF_ROLE = Qt.ItemDataRole.UserRole


def parse_seats(text: str) -> tuple[int, ...]:
    out = []
    for part in text.replace(";", ",").replace(" ", ",").split(","):
        if part.strip():
            out.append(int(part))
    return tuple(out)


def fact_text(ev: Event) -> str:
    fields = []
    for name in ("seat", "candidate", "target", "gesture", "round", "ref", "outcome"):
        v = getattr(ev, name, None)
        if v is not None:
            fields.append(f"{name}={v}")
    return f"{format_time(ev.t)[3:]} {ev.src} {ev.TYPE} {' '.join(fields)} [{ev.id}]"


class ProtestPanel(QWidget):
    export_requested = Signal(str, str)  # protest id, kind ("clip" | "copy" | "report")

    def __init__(
        self,
        session: ReviewSession,
        model: PlayerModel,
        language: Language,
        ask_reason: Callable[[str], str | None],
    ) -> None:
        super().__init__()
        self._session = session
        self._model = model
        self._lang = language
        self._ask = ask_reason
        self._data: ReviewData | None = None
        tr = language.tr
        self.judge_edit = QLineEdit(session.judge)
        self.judge_edit.textChanged.connect(lambda s: setattr(session, "judge", s))
        self.by_spin = QSpinBox()
        self.by_spin.setRange(0, 10)
        self.by_spin.setSpecialValueText("—")
        self.seats_edit = QLineEdit()
        self.claim_edit = QLineEdit()
        self.range_label = QLabel()
        self.file_button = QPushButton()
        self.file_button.clicked.connect(self.file_from_form)
        form = QFormLayout()
        self._form_labels = [QLabel() for _ in range(5)]
        for lab, w in zip(
            self._form_labels,
            (self.judge_edit, self.by_spin, self.seats_edit, self.claim_edit, self.range_label),
            strict=True,
        ):
            form.addRow(lab, w)
        self.protests = QListWidget()
        self.protests.currentRowChanged.connect(lambda *_: self._show_selected())
        self.facts = QListWidget()
        self.facts.itemDoubleClicked.connect(self._jump_fact)
        self.void_button = QPushButton()
        self.confirm_button = QPushButton()
        self.stop_button = QPushButton()
        self.void_button.clicked.connect(lambda: self._on_fact("void"))
        self.confirm_button.clicked.connect(lambda: self._on_fact("confirm"))
        self.stop_button.clicked.connect(self._move_stop)
        self.vote_button = QPushButton()
        self.vote_button.clicked.connect(self._enter_vote)
        self.outcome_combo = QComboBox()
        self.outcome_combo.addItems(list(judging.OUTCOMES))
        self.decide_button = QPushButton()
        self.decide_button.clicked.connect(self._decide)
        self.clip_button = QPushButton()
        self.copy_button = QPushButton()
        self.report_button = QPushButton()
        self.clip_button.clicked.connect(lambda: self._export("clip"))
        self.copy_button.clicked.connect(lambda: self._export("copy"))
        self.report_button.clicked.connect(lambda: self._export("report"))
        self.outcome = QTextEdit()
        self.outcome.setReadOnly(True)
        self.message = QLabel()
        self.message.setWordWrap(True)
        col = QVBoxLayout(self)
        col.addLayout(form)
        col.addWidget(self.file_button)
        col.addWidget(self.protests, 1)
        col.addWidget(self.facts, 2)
        row1 = QHBoxLayout()
        for b in (self.void_button, self.confirm_button, self.stop_button, self.vote_button):
            row1.addWidget(b)
        col.addLayout(row1)
        row2 = QHBoxLayout()
        row2.addWidget(self.outcome_combo)
        row2.addWidget(self.decide_button, 1)
        col.addLayout(row2)
        row3 = QHBoxLayout()
        for b in (self.clip_button, self.copy_button, self.report_button):
            row3.addWidget(b)
        col.addLayout(row3)
        col.addWidget(self.outcome, 2)
        col.addWidget(self.message)
        session.data_changed.connect(self._on_data)
        session.loop_changed.connect(lambda *_: self._refresh_range())
        session.failed.connect(self.message.setText)
        model.position_changed.connect(lambda *_: self._refresh_range())
        language.language_changed.connect(lambda *_: self.retranslate())
        self.retranslate()
        _ = tr
        if session.data is not None:
            self._on_data(session.data)

    # -- state ----------------------------------------------------------------------------------------
    def form_range(self) -> tuple[int, int]:
        if self._session.loop is not None:
            return self._session.loop
        t = self._model.position_ms
        return max(0, t - DEFAULT_HALF_RANGE_MS), t + DEFAULT_HALF_RANGE_MS

    def _refresh_range(self) -> None:
        a, b = self.form_range()
        self.range_label.setText(f"{format_time(a)} – {format_time(b)}")

    def selected(self) -> ProtestView | None:
        row = self.protests.currentRow()
        if self._data is None or not 0 <= row < len(self._data.protests):
            return None
        return self._data.protests[row]

    def _on_data(self, data: ReviewData) -> None:
        self._data = data
        row = self.protests.currentRow()
        self.protests.blockSignals(True)
        self.protests.clear()
        for pv in data.protests:
            p = pv.protest
            status = pv.decisions[-1].outcome if pv.decisions else self._lang.tr("open")
            self.protests.addItem(f"{p.protest}: {p.claim} [{status}]")
        self.protests.blockSignals(False)
        if data.protests:
            self.protests.setCurrentRow(row if 0 <= row < len(data.protests) else len(data.protests) - 1)
        self._show_selected()

    def _show_selected(self) -> None:
        pv, data = self.selected(), self._data
        self.facts.clear()
        if pv is None or data is None:
            self.outcome.setPlainText("")
            return
        lo = pv.protest.from_t if pv.protest.from_t is not None else pv.protest.t
        hi = pv.protest.until if pv.protest.until is not None else pv.protest.t
        seats = set(pv.protest.seats)
        for ev in data.bundle.events:
            if ev.id is None or not lo <= ev.t <= hi or ev.TYPE in ("protest", "decision"):
                continue
            seat = getattr(ev, "seat", None)
            if seats and seat is not None and seat not in seats:
                continue
            item = QListWidgetItem(fact_text(ev) + ("  ✗" if ev.id in data.voided else ""))
            item.setData(REF_ROLE, ev.id)
            self.facts.addItem(item)
        tr = self._lang.tr
        lines = [f"{tr('claim')}: {pv.protest.claim}  ({pv.protest.judge})"]
        for d in pv.decisions:
            lines.append(f"{tr('decision')}: {d.outcome} — {d.reason} ({d.judge})")
        changes = outcome_changes(pv.before, data.state)
        lines.append("")
        lines.append(tr("outcome_changes") if changes else tr("outcome_same"))
        for a, b in changes:
            lines.append(f"  {tr('before')}: {a or '—'}")
            lines.append(f"  {tr('after')}:  {b or '—'}")
        self.outcome.setPlainText("\n".join(lines))

    # -- actions --------------------------------------------------------------------------------------
    def _fail(self, e: Exception) -> None:
        self.message.setText(str(e))

    def file_protest(
        self, *, by: int | None, seats: tuple[int, ...], claim: str, rng: tuple[int, int]
    ) -> None:
        ev = judging.protest(
            self._session.ids(),
            t=self._model.position_ms,
            judge=self._session.judge,
            by=by,
            seats=seats,
            claim=claim,
            from_t=rng[0],
            until=rng[1],
        )
        self._session.apply([ev])
        self.message.setText(self._lang.tr("filed", id=ev.protest))

    def file_from_form(self) -> None:
        try:
            self.file_protest(
                by=self.by_spin.value() or None,
                seats=parse_seats(self.seats_edit.text()),
                claim=self.claim_edit.text(),
                rng=self.form_range(),
            )
        except (judging.JudgeError, ValueError) as e:
            self._fail(e)

    def _selected_fact(self) -> Event | None:
        item = self.facts.currentItem()
        if item is None or self._data is None:
            return None
        return self._data.event(str(item.data(REF_ROLE)))

    def _jump_fact(self, item: QListWidgetItem) -> None:
        ev = self._data.event(str(item.data(REF_ROLE))) if self._data is not None else None
        if ev is not None:
            self._model.seek(ev.t)

    def _on_fact(self, action: str) -> None:
        ev = self._selected_fact()
        if ev is None:
            self.message.setText(self._lang.tr("pick_fact"))
            return
        reason = self._ask(self._lang.tr(f"act_{action}"))
        if reason is None:
            return
        self.judge_fact(action, ev, reason)

    def judge_fact(self, action: str, ev: Event, reason: str) -> None:
        ids = self._session.ids()
        try:
            if action == "void":
                out: list[Event] = [judging.void(ids, target=ev, judge=self._session.judge, reason=reason)]
            else:
                assert ev.id is not None
                out = [judging.confirm(ids, ref=ev.id, t=ev.t, judge=self._session.judge, reason=reason)]
            self._session.apply(out)
        except (judging.JudgeError, ValueError) as e:
            self._fail(e)

    def _move_stop(self) -> None:
        ev = self._selected_fact()
        if not isinstance(ev, VoteStop):
            self.message.setText(self._lang.tr("pick_stop"))
            return
        reason = self._ask(self._lang.tr("act_move_stop"))
        if reason is None:
            return
        try:
            out = judging.move_stop(
                self._session.ids(),
                stop=ev,
                new_t=self._model.position_ms,
                judge=self._session.judge,
                reason=reason,
            )
            self._session.apply(out)
        except (judging.JudgeError, ValueError) as e:
            self._fail(e)

    def enter_vote(self, seat: int, reason: str) -> None:
        """A judge's vote for ``seat`` in the vote round at the playhead (judge votes then count alone)."""
        data, t = self._data, self._model.position_ms
        rnd = data.round_at(t) if data is not None else None
        if rnd is None:
            self.message.setText(self._lang.tr("pick_round"))
            return
        try:
            ev = judging.judge_vote(
                self._session.ids(),
                t=max(t, rnd.call_t),
                seat=seat,
                candidate=rnd.candidate,
                judge=self._session.judge,
                reason=reason,
            )
            self._session.apply([ev])
        except (judging.JudgeError, ValueError) as e:
            self._fail(e)

    def _enter_vote(self) -> None:
        seat = self._ask_seat(self._lang.tr("act_judge_vote"))
        if seat is None:
            return
        reason = self._ask(self._lang.tr("act_judge_vote"))
        if reason is not None:
            self.enter_vote(seat, reason)

    def _ask_seat(self, title: str) -> int | None:
        seat, ok = QInputDialog.getInt(self, title, self._lang.tr("seats"), 1, 1, 10)
        return int(seat) if ok else None

    def decide(self, outcome: str, reason: str) -> None:
        pv = self.selected()
        if pv is None:
            self.message.setText(self._lang.tr("pick_protest"))
            return
        try:
            ev = judging.decision(
                self._session.ids(),
                protest_id=pv.protest.protest,
                t=self._model.position_ms,
                outcome=outcome,
                judge=self._session.judge,
                reason=reason,
            )
            self._session.apply([ev])
        except (judging.JudgeError, ValueError) as e:
            self._fail(e)

    def _decide(self) -> None:
        reason = self._ask(self._lang.tr("act_decide"))
        if reason is not None:
            self.decide(self.outcome_combo.currentText(), reason)

    def _export(self, kind: str) -> None:
        pv = self.selected()
        if pv is None:
            self.message.setText(self._lang.tr("pick_protest"))
            return
        self.export_requested.emit(pv.protest.protest, kind)

    def retranslate(self) -> None:
        tr = self._lang.tr
        for lab, key in zip(self._form_labels, ("judge", "filed_by", "seats", "claim", "range"), strict=True):
            lab.setText(tr(key))
        self.file_button.setText(tr("file_protest"))
        self.void_button.setText(tr("act_void"))
        self.confirm_button.setText(tr("act_confirm"))
        self.stop_button.setText(tr("act_move_stop"))
        self.vote_button.setText(tr("act_judge_vote"))
        self.decide_button.setText(tr("act_decide"))
        self.clip_button.setText(tr("export_clip"))
        self.copy_button.setText(tr("export_copy"))
        self.report_button.setText(tr("export_report"))
        self._refresh_range()
        self._show_selected()


def default_export_path(bundle: Path, protest_id: str, kind: str) -> Path:
    suffix = {"clip": "-clip.mp4", "copy": "-copy.mp4", "report": "-report.html"}[kind]
    return bundle / "evidence" / f"{protest_id}{suffix}"
