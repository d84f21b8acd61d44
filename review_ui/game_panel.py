"""The referee's state, day by day and night by night, with a one-click jump to every fact.

A tree: each day with its vote rounds (voters, late, defaulted, source, the host's count; under a round,
each seat's landing in ms before / after "Спасибо"), who left; each night with its shots and the night
events per seat (head up, night motion); then needs-review items, violations, host-vs-vision
disagreements and unreadable event lines. A click jumps the player to the item's time; selecting a
round shows its timing chart. A right click on a fact with an id offers void / confirm, which the window
turns into judge events (asking for the reason).
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtWidgets import QMenu, QSplitter, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from gamelog.findings_ru import localized, term
from review_ui.i18n import Language, count_votes, shape_name
from review_ui.player_model import PlayerModel
from review_ui.player_widget import format_time
from review_ui.review_data import ReviewData, RoundView
from review_ui.review_session import ReviewSession
from review_ui.timing_chart import TimingChart

T_ROLE = Qt.ItemDataRole.UserRole
REF_ROLE = Qt.ItemDataRole.UserRole + 1
ROUND_ROLE = Qt.ItemDataRole.UserRole + 2


def _ms(delta: int, unit: str) -> str:
    return f"{delta:+d} {unit}"


class GamePanel(QWidget):
    judge_requested = Signal(str, str, int)  # action ("void" | "confirm"), ref, t

    def __init__(self, session: ReviewSession, model: PlayerModel, language: Language) -> None:
        super().__init__()
        self._session = session
        self._model = model
        self._lang = language
        self._data: ReviewData | None = None
        self.tree = QTreeWidget()
        self.tree.setColumnCount(2)
        self.tree.setHeaderHidden(True)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.itemClicked.connect(self._clicked)
        self.tree.currentItemChanged.connect(self._current)
        self.tree.customContextMenuRequested.connect(self._menu)
        self.chart = TimingChart(model.seek, lambda: self._lang.tr("chart_empty"), lambda k: self._lang.tr(k))
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.tree)
        split.addWidget(self.chart)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 1)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(split)
        session.data_changed.connect(self._on_data)
        language.language_changed.connect(lambda *_: self._rebuild())
        if session.data is not None:
            self._on_data(session.data)

    # -- building -------------------------------------------------------------------------------------
    def _on_data(self, data: ReviewData) -> None:
        self._data = data
        self._rebuild()

    def _item(
        self, parent: QTreeWidget | QTreeWidgetItem, text: str, t: int | None, ref: str | None = None
    ) -> QTreeWidgetItem:
        item = QTreeWidgetItem(parent, [text, format_time(t)[3:] if t is not None else ""])
        if t is not None:
            item.setData(0, T_ROLE, int(t))
        if ref:
            item.setData(0, REF_ROLE, ref)
        return item

    def _rebuild(self) -> None:
        tr = self._lang.tr
        selected = self.chart.round.call_t if self.chart.round is not None else None
        self.tree.clear()
        data = self._data
        if data is None:
            return
        st = data.state
        rounds_by_t = {r.call_t: r for r in data.rounds}
        for day in st.get("days", []):
            d_item = self._item(self.tree, tr("day_n", n=day["day"]), None)
            if not day.get("votes"):
                reason = day.get("no_vote_reason")
                why = term("reason", reason, self._lang.code) if reason else ""
                self._item(d_item, tr("no_vote") + (f" ({why})" if why else ""), None)
            for v in day.get("votes", []):
                rnd = rounds_by_t.get(int(v.get("t", -1)))
                self._round_item(d_item, v, rnd)
            self._item(
                d_item, tr("eliminated", seats=", ".join(map(str, day.get("eliminated", []))) or "—"), None
            )
            d_item.setExpanded(True)
        for nv in data.nights:
            shots = ", ".join(f"{s}→{t}" for s, t in nv.shots.items()) or "—"
            n_item = self._item(self.tree, tr("night_n", n=nv.night), nv.from_t)
            self._item(n_item, tr("shots", shots=shots, killed=nv.killed if nv.killed else "—"), nv.from_t)
            for it in nv.items:
                # head_up and shot_raise are event types; the rest are night_motion kinds
                table = "type" if it.kind in ("head_up", "shot_raise") else "motion"
                kind = term(table, it.kind, self._lang.code)
                text = tr("night_item", seat=it.seat, kind=kind, dur=(it.until - it.t) / 1000, conf=it.conf)
                item = self._item(
                    n_item, text + (f" ({tr('departed')})" if it.departed else ""), it.t, it.ref
                )
                if it.departed:
                    item.setForeground(0, Qt.GlobalColor.gray)
            n_item.setExpanded(any(not it.departed for it in nv.items))
        self._list(
            tr("needs_review"),
            [
                (i["t"], self._who(i.get("seat")) + self._say(i["what"]), i.get("ref"))
                for i in st.get("needs_review", [])
            ],
        )
        self._list(
            tr("violations"),
            [
                (i["t"], self._who(i.get("seat")) + f"{i['rule']}: {self._say(i['what'])}", i.get("ref"))
                for i in st.get("violations", [])
            ],
        )
        self._list(
            tr("disagreements"), [(i["t"], self._say(i["what"]), None) for i in st.get("disagreements", [])]
        )
        fouls = ", ".join(f"{s}: {n}" for s, n in st.get("fouls", {}).items())
        if fouls:
            self._item(self.tree, tr("fouls", fouls=fouls), None)
        win_why = st.get("win_reason")
        self._item(
            self.tree,
            tr("winner", winner=term("team", st.get("winner") or "—", self._lang.code))
            + (f" ({self._say(win_why)})" if win_why else ""),
            st.get("ended_t"),
        )
        bad = [(None, str(b), None) for b in data.bundle.bad_lines] + [
            (None, p, None) for p in data.bundle.problems
        ]
        self._list(tr("bad_lines"), bad)
        self.tree.resizeColumnToContents(0)
        if selected is not None:
            self._select_round(selected)

    def _say(self, text: str) -> str:
        """A referee finding (English in the JSON contract) in the window's language."""
        return localized(text, self._lang.code)

    def _who(self, seat: object) -> str:
        return f"{self._lang.tr('seat_n', n=seat)} — " if seat else ""

    def _round_item(self, parent: QTreeWidgetItem, v: dict[str, object], rnd: RoundView | None) -> None:
        tr = self._lang.tr
        voters = list(v.get("voters", []))  # type: ignore[call-overload]
        announced = v.get("announced")
        text = tr(
            "round_line",
            round=term("round", str(v["round"]), self._lang.code),
            cand=v["candidate"],
            votes=count_votes(len(voters), self._lang.code),
            src=term("src", str(v.get("source", "")), self._lang.code),
            ann="—" if announced is None else announced,
        )
        r_item = self._item(parent, text, int(v.get("t", 0)))  # type: ignore[call-overload]
        r_item.setData(0, ROUND_ROLE, int(v.get("t", 0)))  # type: ignore[call-overload]
        if announced is not None and announced != len(voters):
            r_item.setForeground(0, Qt.GlobalColor.darkRed)
        self._item(r_item, tr("voters", seats=", ".join(map(str, voters)) or "—"), None)
        for key in ("late", "defaulted"):
            seats = list(v.get(key, []))  # type: ignore[call-overload]
            if seats:
                self._item(r_item, tr(key, seats=", ".join(map(str, seats))), None)
        if rnd is None:
            return
        for landing in sorted(rnd.landings, key=lambda x: (x.seat, x.t)):
            state = tr("in_time") if landing.delta_ms < 0 else tr("after_stop")
            voided = landing.voided
            delta = _ms(landing.delta_ms, tr("ms"))
            text = f"{landing.seat}: {delta} {state} ({shape_name(tr, landing.gesture)} {landing.conf:.2f})"
            item = self._item(r_item, text + (" ✗" if voided else ""), landing.t, landing.ref)
            item.setForeground(0, Qt.GlobalColor.darkGreen if landing.delta_ms < 0 else Qt.GlobalColor.red)

    def _list(self, title: str, rows: Sequence[tuple[int | None, str, str | None]]) -> None:
        top = self._item(self.tree, f"{title} ({len(rows)})", None)
        for t, text, ref in rows:
            self._item(top, text, t, ref)
        top.setExpanded(0 < len(rows) <= 12)

    # -- interaction ----------------------------------------------------------------------------------
    def _clicked(self, item: QTreeWidgetItem, _col: int) -> None:
        t = item.data(0, T_ROLE)
        if t is not None:
            self._model.seek(int(t))

    def _current(self, item: QTreeWidgetItem | None, _prev: QTreeWidgetItem | None) -> None:
        while item is not None and item.data(0, ROUND_ROLE) is None:
            item = item.parent()
        if item is None or self._data is None:
            return
        call_t = int(item.data(0, ROUND_ROLE))
        rnd = next((r for r in self._data.rounds if r.call_t == call_t), None)
        self.chart.set_round(rnd, self._data.seats)

    def _select_round(self, call_t: int) -> None:
        for item in self._all_items():
            if item.data(0, ROUND_ROLE) == call_t:
                self.tree.setCurrentItem(item)
                return

    def _all_items(self) -> list[QTreeWidgetItem]:
        out: list[QTreeWidgetItem] = []
        stack = [self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount())]
        while stack:
            it = stack.pop()
            if it is None:
                continue
            out.append(it)
            stack.extend(it.child(i) for i in range(it.childCount()))
        return out

    def find_items(self, text: str) -> list[QTreeWidgetItem]:
        return [it for it in self._all_items() if text in it.text(0)]

    def show_round_at(self, t: int) -> None:
        if self._data is None:
            return
        rnd = self._data.round_at(t)
        if rnd is not None and (self.chart.round is None or self.chart.round.call_t != rnd.call_t):
            self._select_round(rnd.call_t)

    def _menu(self, pos: QPoint) -> None:
        item = self.tree.itemAt(pos)
        if item is None or item.data(0, REF_ROLE) is None:
            return
        ref, t = str(item.data(0, REF_ROLE)), int(item.data(0, T_ROLE) or 0)
        menu = QMenu(self)
        menu.addAction(self._lang.tr("act_void"), lambda: self.judge_requested.emit("void", ref, t))
        menu.addAction(self._lang.tr("act_confirm"), lambda: self.judge_requested.emit("confirm", ref, t))
        menu.exec(self.tree.viewport().mapToGlobal(pos))
