"""The console's side panels. Each connects to the :class:`ConsoleModel` and repaints from it.

:class:`PhasePanel` (phase, speech timer, the prompt), :class:`LivePanel` (host count beside vision's,
red when they differ), :class:`StatePanel` (alive, fouls, nominations from the referee),
:class:`PlayersPanel` (names, roles hidden under secrecy, "record roles"), :class:`MarksPanel` (the
last marks, secret ones masked) and :class:`LegendPanel` (the keys for the current mode).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QGridLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gamelog.findings_ru import localized
from gamelog.state import GameState
from review_ui.console.console_model import ConsoleModel, LiveView, TimerView
from review_ui.console.keymap import legend
from review_ui.console.labels import LABELS, ctr
from review_ui.console.marking import Msg
from review_ui.i18n import Language

ROLES = ("red", "sheriff", "mafia", "don")
LOG_ROWS = 200


def _fmt_left(ms: int) -> str:
    s = max(0, (ms + 999) // 1000)
    return f"{s // 60}:{s % 60:02d}" if ms > 0 else "0:00"


def _no_focus(*widgets: QWidget) -> None:
    for w in widgets:
        w.setFocusPolicy(Qt.FocusPolicy.NoFocus)


class PhasePanel(QFrame):
    def __init__(self, model: ConsoleModel, lang: Language) -> None:
        super().__init__()
        self.model, self.lang = model, lang
        self.phase = QLabel()
        self.timer = QLabel()
        self.prompt = QLabel()
        self.prompt.setWordWrap(True)
        for lab, size in ((self.phase, 20), (self.timer, 26)):
            f = lab.font()
            f.setPointSize(size)
            f.setBold(True)
            lab.setFont(f)
        lay = QGridLayout(self)
        lay.addWidget(self.phase, 0, 0)
        lay.addWidget(self.timer, 0, 1, Qt.AlignmentFlag.AlignRight)
        lay.addWidget(self.prompt, 1, 0, 1, 2)
        model.mode_changed.connect(lambda _m: self.refresh())
        model.marks_changed.connect(self.refresh)
        model.timer_changed.connect(self._on_timer)
        model.message_changed.connect(self._on_message)
        lang.language_changed.connect(lambda _l: self.refresh())
        self.refresh()

    def refresh(self) -> None:
        mode = self.model.marker.mode()
        kind, n = self.model.marker.phase()
        if mode == "count":
            text = ctr(self.lang, "phase_count")
        elif kind == "pre":
            text = ctr(self.lang, "phase_pre")
        else:
            text = ctr(self.lang, f"phase_{kind}", n=n)
        self.phase.setText(text)
        self._on_timer(self.model.timer())
        if self.model.message is not None:
            self._on_message(self.model.message)

    def _on_timer(self, tv: TimerView | None) -> None:
        if tv is None:
            self.timer.setText("")
            return
        self.timer.setText(ctr(self.lang, "speaker", seat=tv.seat, left=_fmt_left(tv.left_ms)))
        colour = "#d22" if tv.left_ms <= 10_000 else "#222"
        self.timer.setStyleSheet(f"color: {colour}")

    def _on_message(self, msg: Msg) -> None:
        args = {
            k: (ctr(self.lang, v) if isinstance(v, str) and v.startswith("key_") else v) for k, v in msg.args
        }
        self.prompt.setText(ctr(self.lang, msg.key, **args))


class LivePanel(QFrame):
    def __init__(self, model: ConsoleModel, lang: Language) -> None:
        super().__init__()
        self.model, self.lang = model, lang
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.title = QLabel()
        self.candidate = QLabel()
        self.host = QLabel()
        self.vision = QLabel()
        self.vision.setWordWrap(True)
        self.onset = QLabel()  # where the window closed: the spoken onset, or the keystroke
        self.onset.setWordWrap(True)
        self.verdict = QLabel()
        f = self.verdict.font()
        f.setBold(True)
        f.setPointSize(14)
        self.verdict.setFont(f)
        lay = QGridLayout(self)
        lay.addWidget(self.title, 0, 0)
        lay.addWidget(self.candidate, 0, 1)
        lay.addWidget(self.host, 1, 0)
        lay.addWidget(self.vision, 1, 1)
        lay.addWidget(self.onset, 2, 0, 1, 2)
        lay.addWidget(self.verdict, 3, 0, 1, 2)
        model.live_changed.connect(lambda _v: self.refresh())
        lang.language_changed.connect(lambda _l: self.refresh())
        self.refresh()

    @property
    def differs(self) -> bool:
        lv = self.model.live_view
        return lv is not None and lv.differs

    def refresh(self) -> None:
        lv: LiveView | None = self.model.live_view
        self.title.setText(ctr(self.lang, "live_title"))
        if lv is None:
            for lab in (self.candidate, self.host, self.vision, self.onset, self.verdict):
                lab.setText("")
            self.setStyleSheet("")
            return
        self.candidate.setText(ctr(self.lang, "live_candidate", cand=lv.candidate))
        self.host.setText(ctr(self.lang, "live_host", count="…" if lv.host_count is None else lv.host_count))
        v = lv.vision
        if v is None:
            self.vision.setText(ctr(self.lang, "live_waiting") if lv.waiting else "")
        elif v.count is None:
            reason = ctr(self.lang, f"reason_{v.reason}") if f"reason_{v.reason}" in LABELS else v.reason
            self.vision.setText(ctr(self.lang, "live_unavailable", reason=reason))
        else:
            text = ctr(self.lang, "live_vision", count=v.count, voters=", ".join(map(str, v.voters)) or "—")
            if v.late:
                text += " · " + ctr(self.lang, "live_late", seats=", ".join(map(str, v.late)))
            if v.odd:
                text += " · " + ctr(self.lang, "live_odd", seats=", ".join(map(str, v.odd)))
            self.vision.setText(text)
        if v is not None and v.onset_t is not None:
            by = f" ({ctr(self.lang, 'onset_by_' + v.onset_method)})" if v.onset_method else ""
            self.onset.setText(ctr(self.lang, "live_onset", ms=v.stop_t - v.onset_t) + by)
        elif v is not None and v.heard:
            self.onset.setText(ctr(self.lang, "live_no_onset"))
        else:
            self.onset.setText("")
        if lv.differs:
            self.verdict.setText(ctr(self.lang, "live_differs"))
            self.setStyleSheet("LivePanel { background: #f6c4c0; border: 2px solid #c0211b; }")
        elif lv.host_count is not None and v is not None and v.count is not None:
            self.verdict.setText(ctr(self.lang, "live_agrees"))
            self.setStyleSheet("LivePanel { background: #cdeccf; }")
        else:
            self.verdict.setText("")
            self.setStyleSheet("")


class StatePanel(QLabel):
    def __init__(self, model: ConsoleModel, lang: Language) -> None:
        super().__init__()
        self.model, self.lang = model, lang
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        model.state_changed.connect(lambda _s: self.refresh())
        model.secrecy_changed.connect(lambda _s: self.refresh())
        lang.language_changed.connect(lambda _l: self.refresh())
        self.refresh()

    def refresh(self) -> None:
        st: GameState = self.model.state
        hidden = self.model.hidden_ids()
        fouls = {s: n for s, n in st.fouls}
        if hidden:  # hidden night fouls are not shown while players can see the screen
            for e in self.model.marker.effective():
                if e.id in hidden and e.type == "foul":
                    seat = getattr(e, "seat", None)
                    if seat in fouls:
                        fouls[seat] -= 1
        alive = set(st.alive)
        seats = " ".join(
            f"<b>{s}</b>" if s in alive else f"<s style='color:#999'>{s}</s>" for s in self.model.seats
        )
        foul_txt = ", ".join(f"{s}: {'●' * n}" for s, n in sorted(fouls.items()) if n > 0) or ctr(
            self.lang, "none"
        )
        kind, n = self.model.marker.phase()
        day = st.day(n) if kind == "day" else None
        noms = (
            ", ".join(f"{t} <span style='color:#777'>({b})</span>" for b, t in day.nominations) if day else ""
        )
        lines = [
            f"{ctr(self.lang, 'alive')}: {seats}",
            f"{ctr(self.lang, 'fouls')}: {foul_txt}",
            f"{ctr(self.lang, 'nominations')}: {noms or ctr(self.lang, 'none')}",
        ]
        nxt = self.model.marker.next_candidate() if day else None
        if nxt is not None:
            lines.append(ctr(self.lang, "vote_next", seat=nxt))
        if st.winner:
            lines.append(f"<b>{st.winner}</b>: {localized(st.win_reason or '', self.lang.code)}")
        self.setText("<br>".join(lines))


class PlayersPanel(QWidget):
    def __init__(self, model: ConsoleModel, lang: Language) -> None:
        super().__init__()
        self.model, self.lang = model, lang
        self.table = QTableWidget(len(model.seats), 3)
        self.table.verticalHeader().setVisible(False)
        self.table.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.roles: dict[int, QComboBox] = {}
        for row, seat in enumerate(model.seats):
            item = QTableWidgetItem(str(seat))
            item.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.table.setItem(row, 0, item)
            self.table.setItem(row, 1, QTableWidgetItem(model.names.get(seat, "")))
            combo = QComboBox()
            _no_focus(combo)
            self.roles[seat] = combo
            self.table.setCellWidget(row, 2, combo)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setColumnWidth(0, 30)
        self.table.setColumnWidth(1, 170)
        self.table.itemChanged.connect(self._on_item)
        self.record = QPushButton()
        _no_focus(self.record)
        self.record.clicked.connect(self._record_roles)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.table)
        lay.addWidget(self.record)
        model.secrecy_changed.connect(lambda _s: self.refresh())
        lang.language_changed.connect(lambda _l: self.refresh())
        self.refresh()

    def refresh(self) -> None:
        self.table.setHorizontalHeaderLabels([ctr(self.lang, k) for k in ("seat", "name", "role")])
        secret = self.model.secrecy
        for combo in self.roles.values():
            idx = combo.currentIndex()
            combo.blockSignals(True)
            combo.clear()
            for r in ROLES:
                combo.addItem(ctr(self.lang, "hidden") if secret else ctr(self.lang, f"role_{r}"), r)
            combo.setCurrentIndex(max(0, idx))
            combo.setEnabled(not secret)
            combo.blockSignals(False)
        self.record.setText(ctr(self.lang, "record_roles"))
        self.record.setEnabled(not secret)

    def _on_item(self, item: QTableWidgetItem) -> None:
        if item.column() == 1:
            self.model.set_name(self.model.seats[item.row()], item.text().strip())

    def chosen_roles(self) -> dict[int, str]:
        return {s: str(c.currentData()) for s, c in self.roles.items()}

    def set_role(self, seat: int, role: str) -> None:
        c = self.roles[seat]
        c.setCurrentIndex(ROLES.index(role))

    def _record_roles(self) -> None:
        roles = self.chosen_roles()
        dons = [s for s, r in roles.items() if r == "don"]
        sheriffs = [s for s, r in roles.items() if r == "sheriff"]
        mafia = [s for s, r in roles.items() if r == "mafia"]
        if len(dons) != 1 or len(sheriffs) != 1 or not mafia:
            self.model.say(Msg("roles_invalid"))
            return
        self.model.record_roles(dons[0], mafia, sheriffs[0])


class MarksPanel(QListWidget):
    def __init__(self, model: ConsoleModel, lang: Language) -> None:
        super().__init__()
        self.console, self.lang = model, lang  # not "model": QListWidget.model() is a method
        _no_focus(self)
        model.marks_changed.connect(self.refresh)
        model.secrecy_changed.connect(lambda _s: self.refresh())
        self.refresh()

    def refresh(self) -> None:
        hidden = self.console.hidden_ids()
        voided = self.console.marker.voided()
        self.clear()
        for ev in self.console.marker.events[-LOG_ROWS:]:
            t = ev.t / 1000
            stamp = f"{int(t // 60):02d}:{t % 60:06.3f}"
            if ev.id in hidden:
                text = f"{stamp}  {ev.id}  ({ctr(self.lang, 'hidden')})"
            else:
                fields = {k: v for k, v in ev.__dict__.items() if k not in ("t", "src", "id", "extra")}
                detail = " ".join(f"{k}={v}" for k, v in fields.items() if v not in (None, ""))
                text = f"{stamp}  {ev.id}  {ev.type} {detail}"
            if ev.id in voided:
                text += "  ✗"
            self.addItem(text)
        self.scrollToBottom()


class LegendPanel(QLabel):
    def __init__(self, model: ConsoleModel, lang: Language) -> None:
        super().__init__()
        self.model, self.lang = model, lang
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        model.mode_changed.connect(lambda _m: self.refresh())
        model.marks_changed.connect(self.refresh)
        lang.language_changed.connect(lambda _l: self.refresh())
        self.refresh()

    def refresh(self) -> None:
        rows = legend(self.model.marker.mode())
        half = (len(rows) + 1) // 2
        cells = []
        for i in range(half):
            row = ""
            for k, lab in rows[i : i + 1] + rows[i + half : i + half + 1]:
                row += f"<td style='padding-right:6px'><b>{k}</b></td>"
                row += f"<td style='padding-right:18px'>{ctr(self.lang, lab)}</td>"
            cells.append(f"<tr>{row}</tr>")
        self.setText(f"<b>{ctr(self.lang, 'legend')}</b><table>{''.join(cells)}</table>")
