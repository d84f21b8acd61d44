"""The printable score sheet: structure, escaping, roles unknown, points, determinism (not pixels)."""

from __future__ import annotations

import dataclasses
import random
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from gamelog.events import parse_event
from gamelog.exports import SCORINGS, ExportError, export_score_sheet, parse_scoring
from tests.gamelog.export_cases import (
    EXAMPLES,
    example_bundle,
    example_state,
    long_game_events,
    long_game_info,
    long_game_state,
)


class Cells(HTMLParser):
    """Text of every element with an ``id``, of every ``<tr>`` by its data attribute, and all attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: dict[str, list[list[str]]] = {}  # "seat=1" -> rows of cell texts
        self.by_id: dict[str, str] = {}
        self.attrs: list[dict[str, str]] = []
        self._row_key: str | None = None
        self._cell: list[str] | None = None
        self._ids: list[tuple[str, str, list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        self.attrs.append(a)
        if tag == "tr":
            key = next((f"{k[5:]}={v}" for k, v in a.items() if k.startswith("data-")), None)
            self._row_key = key
            if key is not None:
                self.rows.setdefault(key, []).append([])
        elif tag in ("td", "th") and self._row_key is not None:
            self._cell = []
        if "id" in a:
            self._ids.append((tag, a["id"], []))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._row_key is not None:
            self.rows[self._row_key][-1].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "tr":
            self._row_key = None
        if self._ids and self._ids[-1][0] == tag:
            _, ident, text = self._ids.pop()
            self.by_id[ident] = "".join(text).strip()

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)
        for _, _, text in self._ids:
            text.append(data)


def parse(doc: str) -> Cells:
    p = Cells()
    p.feed(doc)
    p.close()
    return p


def seat_row(cells: Cells, seat: int) -> list[str]:
    rows = cells.rows[f"seat={seat}"]
    assert len(rows) == 1
    return rows[0]


# ---- the contract examples through the real referee -------------------------------------------------


@pytest.mark.parametrize("name", EXAMPLES)
def test_sheet_of_contract_example_has_every_seat_vote_and_night(shared_dir: Path, name: str) -> None:
    bundle = example_bundle(shared_dir, name)
    state = example_state(shared_dir, name)
    doc = export_score_sheet(bundle.game, bundle.events, state, chain_head="ab" * 32)
    cells = parse(doc)
    for p in bundle.game.players:
        row = seat_row(cells, p.seat)
        assert row[0] == str(p.seat) and row[1] == p.name
    for day in state["days"]:
        rows = cells.rows[f"day={day['day']}"]
        counts = [r[3 if i == 0 else 2] for i, r in enumerate(rows)]
        if day["votes"]:
            assert counts == [str(len(v["voters"])) for v in day["votes"]]
    for night in state["nights"]:
        (row,) = cells.rows[f"night={night['night']}"]
        if night["killed"] is not None:
            assert str(night["killed"]) in row[2]
    assert cells.by_id["chain-head"].count("ab" * 32) == 1


def test_example_01_roles_checks_and_departures(shared_dir: Path) -> None:
    name = "01-majority-and-kill"
    bundle = example_bundle(shared_dir, name)
    cells = parse(export_score_sheet(bundle.game, bundle.events, example_state(shared_dir, name), lang="en"))
    assert seat_row(cells, 4)[2] == "don"
    assert seat_row(cells, 2)[2] == "sheriff"
    assert seat_row(cells, 5)[4] == "voted out, day 1"
    assert seat_row(cells, 2)[4] == "killed, night 1"
    (night,) = cells.rows["night=1"]
    assert night[3] == "6 → not sheriff"  # Don 4 checked seat 6, a red player
    assert night[4] == "9 → black"  # Sheriff 2 checked seat 9, mafia
    day1 = cells.rows["day=1"]
    assert day1[0][2] == "7 (by 1)" and day1[0][3] == "4"
    assert day1[1][1] == "5 (by 3)" and day1[1][2] == "6"
    assert "leaves: 5" in day1[0][-1]
    assert cells.by_id["winner"].startswith("Winner: game not finished")


def test_example_05_tie_revote_and_all_leave(shared_dir: Path) -> None:
    name = "05-tie-all-leave-pass"
    bundle = example_bundle(shared_dir, name)
    cells = parse(export_score_sheet(bundle.game, bundle.events, example_state(shared_dir, name), lang="ru"))
    rows = cells.rows["day=1"]
    rounds = [r[1] if i == 0 else r[0] for i, r in enumerate(rows)]
    assert rounds == ["основное", "основное", "переголосование", "переголосование", "все покидают?"]
    last = rows[-1]
    assert last[1] == "4, 9" and last[2] == "6"
    assert "4*" in rows[1][3]  # seat 4 defaulted to the last candidate (000 4.9)
    assert seat_row(cells, 4)[4] == seat_row(cells, 9)[4] == "заголосован (все), день 1"


# ---- the long game (state written by hand) ----------------------------------------------------------


def long_sheet(**kw: object) -> str:
    return export_score_sheet(long_game_info(), long_game_events(), long_game_state(), **kw)  # type: ignore[arg-type]


def test_header_fields_and_date() -> None:
    cells = parse(long_sheet())
    assert cells.by_id["h-tournament"] == "Кубок осени"
    assert cells.by_id["h-stage"] == "финал"
    assert cells.by_id["h-table"] == "2"
    assert cells.by_id["h-game_number"] == "7"
    assert cells.by_id["h-host"] == "Ведущий Иван"
    assert cells.by_id["h-judges"] == "Судья А, Судья Б"
    assert cells.by_id["h-date"] == "2024-10-05 18:30 (UTC+03:00)"


def test_showtime_points_fouls_and_departures() -> None:
    cells = parse(long_sheet(lang="en"))
    points = {s: seat_row(cells, s)[5] for s in range(1, 11)}
    assert points == {1: "4", 2: "4", 3: "0", 4: "4", 5: "4", 6: "0", 7: "4", 8: "0", 9: "4", 10: "4"}
    fouls = [a["data-fouls"] for a in cells.attrs if "data-fouls" in a]
    assert fouls == ["0", "0", "0", "2", "0", "0", "0", "0", "0", "1"]
    assert seat_row(cells, 10)[4] == "disqualified, day 3"
    assert seat_row(cells, 1)[4] == "killed, night 1"
    assert seat_row(cells, 3)[4] == "voted out, day 2"
    assert seat_row(cells, 2)[4] == ""
    assert "red (town)" in cells.by_id["winner"] and "every black player has left" in cells.by_id["winner"]
    assert cells.by_id["best-move"] == "Best move: no. 1 named: 3, 8, 5 — black: 2"


@pytest.mark.parametrize(
    ("scoring", "red", "black", "dq"),
    [("showtime", "4", "0", "4"), ("win-loss", "1", "0", "1"), ("showtime-penalty", "4", "0", "2")],
)
def test_scoring_tables(scoring: str, red: str, black: str, dq: str) -> None:
    cells = parse(long_sheet(scoring=SCORINGS[scoring]))
    assert seat_row(cells, 2)[5] == red
    assert seat_row(cells, 8)[5] == black
    assert seat_row(cells, 10)[5] == dq


def test_custom_scoring_parses_and_bad_ones_are_refused() -> None:
    sc = parse_scoring("3,6,-1,-3")
    assert (sc.red_win, sc.black_win, sc.loss, sc.disqualified) == (3, 6, -1, -3)
    cells = parse(long_sheet(scoring=sc))
    assert [seat_row(cells, s)[5] for s in (2, 8, 10)] == ["3", "-1", "0"]
    for bad in ("3", "a,b", "1,2,3,4,5", "nosuch"):
        with pytest.raises(ExportError, match="scoring"):
            parse_scoring(bad)


def test_revote_late_and_defaulted_marks() -> None:
    cells = parse(long_sheet(lang="en"))
    day2 = cells.rows["day=2"]
    assert len(day2) == 4
    assert day2[2][0] == "re-vote" and day2[2][2] == "5"
    assert "late: 5" in day2[3][3]
    assert "8*" in cells.rows["day=1"][2][3]


def test_names_are_escaped() -> None:
    nasty = '<script>alert("x")</script> & Co'
    names = ("A<b>", nasty, "C", "D", "E", "F", "G", "H", "I", 'J"&')
    info = long_game_info(names=names, tournament="<Кубок & Ко>", host="<i>host</i>")
    doc = export_score_sheet(info, long_game_events(), long_game_state())
    assert "<script>" not in doc and "A<b>" not in doc
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co" in doc
    assert "<i>host</i>" not in doc
    cells = parse(doc)
    assert seat_row(cells, 1)[1] == "A<b>"
    assert seat_row(cells, 2)[1] == nasty
    assert seat_row(cells, 10)[1] == 'J"&'
    assert cells.by_id["h-tournament"] == "<Кубок & Ко>"
    assert cells.by_id["h-host"] == "<i>host</i>"


def test_roles_unknown_prints_blank_roles_and_says_why() -> None:
    doc = export_score_sheet(
        long_game_info(), long_game_events(roles=False), long_game_state(roles=False), lang="en"
    )
    cells = parse(doc)
    assert all(seat_row(cells, s)[2] == "" and seat_row(cells, s)[5] == "" for s in range(1, 11))
    assert "Roles were not recorded" in cells.by_id["roles-unknown"]
    (night1,) = cells.rows["night=1"]
    assert night1[3] == "1 → ?" and night1[4] == "3 → ?"


def test_roles_from_events_when_the_state_has_none() -> None:
    """An older or partial state without ``roles``: the roles event is read instead."""
    state = long_game_state()
    del state["roles"]
    cells = parse(export_score_sheet(long_game_info(), long_game_events(), state, lang="en"))
    assert [seat_row(cells, s)[2] for s in (1, 3, 6, 8, 2)] == ["sheriff", "don", "mafia", "mafia", "red"]
    (night1,) = cells.rows["night=1"]
    assert night1[3] == "1 → sheriff" and night1[4] == "3 → black"


def test_voided_check_is_left_out() -> None:
    void = parse_event({"t": 300_000, "type": "void", "src": "judge", "ref": "dc1", "reason": "wrong seat"})
    doc = export_score_sheet(long_game_info(), [*long_game_events(), void], long_game_state(), lang="en")
    (night1,) = parse(doc).rows["night=1"]
    assert night1[3] == ""
    assert night1[4] == "3 → black"


@pytest.mark.parametrize(
    ("status", "head_shown", "words"),
    [
        ("sealed", True, ""),
        ("unsealed", True, "not sealed yet"),
        ("unchained", False, "not hash-chained"),
        ("broken", False, "DOES NOT VERIFY"),
        ("none", True, ""),
    ],
)
def test_chain_head_and_status(status: str, head_shown: bool, words: str) -> None:
    head = "0123456789abcdef" * 4
    cells = parse(long_sheet(chain_head=head, chain_status=status, chain_detail="line 3 changed", lang="en"))
    text = cells.by_id["chain-head"]
    assert (head in text) == head_shown
    assert words in text
    assert ("line 3 changed" in text) == (not head_shown)


def test_chain_without_head_or_with_unknown_status() -> None:
    assert "not sealed (no manifest)" in parse(long_sheet(lang="en")).by_id["chain-head"]
    with pytest.raises(ExportError, match="chain status"):
        long_sheet(chain_head="ab", chain_status="fine")


def test_page_is_a4_and_self_contained() -> None:
    doc = long_sheet()
    assert doc.startswith("<!DOCTYPE html>") and '<html lang="ru">' in doc
    assert "size: A4" in doc
    assert not re.search(r"<(link|script|img)\b", doc)  # nothing fetched: prints offline
    assert 'lang="en"' in long_sheet(lang="en")


def test_unknown_language_is_refused() -> None:
    with pytest.raises(ExportError, match="language"):
        long_sheet(lang="de")


def test_output_is_deterministic_and_ignores_event_order() -> None:
    first = long_sheet()
    events = long_game_events()
    random.Random(4).shuffle(events)
    again = export_score_sheet(long_game_info(), events, long_game_state())
    assert first == again
    other = dataclasses.replace(long_game_info(), host="Другой ведущий")
    assert export_score_sheet(other, events, long_game_state()) != first


@pytest.mark.parametrize(("extra_days", "body"), [(0, "<body>"), (3, '<body class="dense">'), (6, "denser")])
def test_long_games_get_a_denser_layout(extra_days: int, body: str) -> None:
    """The page holds about 20 vote and night rows at the normal size (checked by printing with Chromium,
    see docs/EXPORTS.md); longer games switch to smaller rows so that the sheet stays one A4 page."""
    state = long_game_state()
    template = state["days"][1]
    for d in range(4, 4 + extra_days):
        state["days"].append({**template, "day": d, "votes": [*template["votes"], template["votes"][0]]})
    doc = export_score_sheet(long_game_info(), long_game_events(), state)
    assert body in doc.split("\n<h1>")[0]


def test_full_game_sheet(project_root: Path) -> None:
    from gamelog.bundle import load_bundle
    from gamelog.referee import referee_bundle

    bundle = load_bundle(project_root / "examples" / "full-game")
    state = referee_bundle(bundle).to_json()
    cells = parse(export_score_sheet(bundle.game, bundle.events, state, lang="en"))
    assert [seat_row(cells, s)[1] for s in range(1, 11)] == [p.name for p in bundle.game.players]
    assert seat_row(cells, 8)[4] == "removed (4 fouls), day 3"
    assert [a["data-fouls"] for a in cells.attrs if "data-fouls" in a][7] == "4"
    assert [seat_row(cells, s)[5] for s in (1, 3, 5, 6)] == ["4", "0", "4", "0"]
    day3 = cells.rows["day=3"]
    assert len(day3) == 1 and "no vote" in day3[0][4] and "000 11.3" in day3[0][4]
    day1 = cells.rows["day=1"]
    assert [r[3 if i == 0 else 2] for i, r in enumerate(day1)] == ["5", "5", "6", "4"]
    (night1,) = cells.rows["night=1"]
    assert night1[2] == "miss" and night1[3] == "5 → sheriff" and night1[4] == "3 → black"
    assert cells.by_id["winner"].startswith("Winner: red (town)")


def test_referee_reasons_are_translated_on_a_russian_sheet(project_root: Path) -> None:
    from gamelog.bundle import load_bundle
    from gamelog.referee import referee_bundle

    bundle = load_bundle(project_root / "examples" / "full-game")
    state = referee_bundle(bundle).to_json()
    ru = parse(export_score_sheet(bundle.game, bundle.events, state, lang="ru"))
    assert "все чёрные игроки покинули игру (001 basics 3)" in ru.by_id["winner"]
    assert "голосования не было (000 11.3)" in ru.rows["day=3"][0][4]
    en = parse(export_score_sheet(bundle.game, bundle.events, state, lang="en"))
    assert state["win_reason"] in en.by_id["winner"]


def test_twelve_players_and_a_loner_role() -> None:
    """004 (novosibirsk): 9–13 players and roles of its own; a loner has no team, so no points."""
    names = [p.name for p in long_game_info().players] + ["Одиночка", "Гость"]
    info = long_game_info(names=names, rules="novosibirsk")
    state = long_game_state()
    state["roles"] = {**state["roles"], "11": "loner", "12": "red"}
    cells = parse(export_score_sheet(info, long_game_events(), state, lang="en"))
    assert seat_row(cells, 11)[1:3] == ["Одиночка", "loner"] and seat_row(cells, 11)[5] == ""
    assert seat_row(cells, 12)[2] == "red" and seat_row(cells, 12)[5] == "4"
