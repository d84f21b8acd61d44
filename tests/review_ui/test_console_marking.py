"""The console's keyboard scheme and marking logic, without Qt: tokens, marks, ids, times, undo, zones."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import cv2
import numpy as np
import pytest

from gamelog.events import VoteCall
from gamelog.layout import Layouts, layouts_from_json, layouts_to_json, point_in_polygon, polygon_bbox
from gamelog.referee import referee
from gamelog.rules import rules_for
from review_ui.console.keymap import BINDINGS, legend, seat_of, token_for
from review_ui.console.marking import LIMIT_FIELD, Marker
from review_ui.console.press_time import PressClock
from review_ui.console.zones import (
    best_proposal,
    estimate_table,
    hit_test,
    move_vertex,
    move_zone,
    propose_layout,
    scale_layout,
)


def press(m: Marker, keys: str, t0: int = 1000, step: int = 100) -> list[tuple[str, str, int]]:
    """Press space-separated tokens; returns (id, type, t) of every mark made."""
    out = []
    for i, tok in enumerate(keys.split()):
        res = m.press_commit(tok, t0 + i * step)
        out += [(e.id or "", e.type, e.t) for e in res.marks]
    return out


@pytest.mark.parametrize(
    ("key", "text", "ctrl", "token"),
    [
        (0x46, "f", False, "F"),
        (0x0410, "а", False, "F"),  # Russian layout: the F key types "а"
        (0x0424, "ф", False, "A"),
        (0x30, "0", False, "0"),
        (0x01000004, "\r", False, "Return"),
        (0x01000005, "\r", False, "Return"),
        (0x20, " ", False, "Space"),
        (0x5A, "", True, "Backspace"),  # Ctrl+Z
        (0x5A, "", False, "Z"),
        (0x01000038, "", False, "F9"),
        (0x01000030, "", False, None),  # F1: not in the scheme
    ],
)
def test_token_for(key: int, text: str, ctrl: bool, token: str | None) -> None:
    assert token_for(key, text, ctrl=ctrl) == token


def test_seat_keys() -> None:
    assert [seat_of(str(d)) for d in range(10)] == [10, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    assert seat_of("F") is None


def test_a_day_of_marks_with_ids_and_first_key_times() -> None:
    m = Marker(rules_for("federation"))
    marks = press(m, "N D 1 V 7 E 2 V 3 Return Space 3 Return Return Space 0 Return")
    assert [(i, ty) for i, ty, _ in marks] == [
        ("h0001", "night"),
        ("h0002", "day"),
        ("h0003", "speech"),
        ("h0004", "nominate"),
        ("h0005", "speech_end"),
        ("h0006", "speech"),
        ("h0007", "nominate"),
        ("h0008", "vote_call"),
        ("h0009", "vote_stop"),
        ("h0010", "vote_count"),
        ("h0011", "vote_call"),
        ("h0012", "vote_stop"),
        ("h0013", "vote_count"),
    ]
    # A two-key command takes the time of its first key ("V" at 1300, not "7" at 1400); a count the
    # time of its first digit.
    times = {i: t for i, _, t in marks}
    assert times["h0004"] == 1300
    assert times["h0010"] == 2100
    ev = {e.id: e for e in m.events}
    assert ev["h0004"].by == 1 and ev["h0004"].target == 7  # type: ignore[attr-defined]
    assert ev["h0008"].candidate == 7 and ev["h0011"].candidate == 3  # type: ignore[attr-defined]
    assert ev["h0013"].count == 0  # type: ignore[attr-defined]  # after "Спасибо" a digit is the count
    assert m.next_candidate() is None


def test_count_is_typed_digits() -> None:
    m = Marker(rules_for("federation"))
    press(m, "N D 1 V 7 Return Space 1 0 Return")
    count = m.events[-1]
    assert count.type == "vote_count" and count.count == 10  # type: ignore[attr-defined]


def test_night_digits_are_shot_calls_and_checks_take_a_seat() -> None:
    m = Marker(rules_for("federation"))
    marks = press(m, "N D N 1 2 3 G 4 H 0 F 5")
    assert [ty for _, ty, _ in marks][3:] == [
        "shot_call",
        "shot_call",
        "shot_call",
        "don_check",
        "sheriff_check",
        "foul",
    ]
    sheriff = next(e for e in m.events if e.type == "sheriff_check")
    assert sheriff.target == 10  # type: ignore[attr-defined]
    assert m.night_fouls() == {m.events[-1].id}


def test_nomination_without_a_speaker_takes_two_seats() -> None:
    m = Marker(rules_for("federation"))
    marks = press(m, "N D V 4 8")
    nom = m.events[-1]
    assert marks[-1][1] == "nominate" and (nom.by, nom.target) == (4, 8)  # type: ignore[attr-defined]


def test_undo_voids_the_last_mark_and_restores_the_state() -> None:
    m = Marker(rules_for("federation"))
    press(m, "N D 1 V 7 Return")
    assert m.open_call() is not None
    marks = press(m, "Backspace", t0=5000)
    assert marks == [("h0006", "void", 5000)]
    void = m.events[-1]
    assert void.src == "judge" and void.ref == "h0005"  # type: ignore[attr-defined]
    assert m.open_call() is None
    # the candidate can be called again; a second undo voids the nomination
    press(m, "Backspace", t0=6000)
    assert m.events[-1].ref == "h0004"  # type: ignore[attr-defined]
    assert m.candidates() == []
    assert m.speaker() is not None and m.speaker().seat == 1  # type: ignore[union-attr]


def test_refusals_leave_no_mark() -> None:
    m = Marker(rules_for("federation"))
    out = m.press_commit("1", 0)
    assert not out.marks and out.message is not None and out.message.key == "msg_mark_night0_first"
    press(m, "N D")
    assert m.press_commit("Space", 10).message.key == "msg_no_window"  # type: ignore[union-attr]
    assert m.press_commit("Return", 20).message.key == "msg_no_candidate"  # type: ignore[union-attr]
    assert m.press_commit("E", 30).message.key == "msg_no_speech"  # type: ignore[union-attr]
    press(m, "C 5")
    assert m.press_commit("C", 40).message is not None
    assert m.press_commit("6", 50).message.key == "msg_window_open"  # type: ignore[union-attr]
    assert [e.type for e in m.events] == ["night", "day", "vote_call"]
    assert m.next_id() == "h0004"


def test_escape_cancels_a_waiting_command() -> None:
    m = Marker(rules_for("federation"))
    press(m, "N D F Escape 3")
    assert m.events[-1].type == "speech"  # the 3 started a speech, no foul


def test_short_speech_carries_its_limit_and_the_timer_uses_it() -> None:
    m = Marker(rules_for("federation"))
    press(m, "N D T 6")
    assert m.events[-1].extra[LIMIT_FIELD] == 30
    sp = m.speaker()
    assert sp is not None and sp.seat == 6 and sp.limit_s == 30
    press(m, "S 2")
    assert m.speaker().limit_s == 60  # type: ignore[union-attr]


def test_candidates_follow_the_referee() -> None:
    m = Marker(rules_for("federation"))
    press(m, "N D 1 V 7 V 3 E 2 V 7 V 5")
    # federation: the first nomination of a speech counts, a second name is ignored; 7 twice is one
    m.state = referee(m.effective(), rules=m.rules, seats=m.seats)
    assert m.candidates() == [7, 5]
    press(m, "Return")
    call = m.events[-1]
    assert isinstance(call, VoteCall) and call.candidate == 7


def test_revote_and_all_rounds() -> None:
    m = Marker(rules_for("federation"))
    press(m, "N D R 4 Space 2 Return A Space 6 Return")
    calls = [e for e in m.events if isinstance(e, VoteCall)]
    assert [(c.round, c.candidate) for c in calls] == [("revote", 4), ("all", None)]
    assert m.events[-1].candidate == "all"  # type: ignore[attr-defined]


def test_secrets() -> None:
    m = Marker(rules_for("federation"))
    press(m, "N")
    roles = m.roles(50, 3, [5, 9], 7)
    m.accept([roles])
    press(m, "F 2 D F 4")
    fouls = [e for e in m.events if e.type == "foul"]
    night = m.night_fouls()
    assert Marker.is_secret(roles) and fouls[0].id in night and fouls[1].id not in night


def test_legend_names_every_binding_in_day_mode() -> None:
    keys = {label for _, label in legend("day")}
    assert {b.label for b in BINDINGS} <= keys
    assert ("1…9, 0", "key_digit_night") in legend("night")
    assert ("1…9, 0", "key_digit_count") in legend("count")


# ---- zones --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720), (640, 480)])
def test_proposal_is_a_valid_layout_with_separate_table_zones(size: tuple[int, int]) -> None:
    lay = propose_layout(size)
    layouts_from_json(layouts_to_json(Layouts.single(lay)))  # raises when unusable
    centres = []
    for s in lay.seats:
        x0, y0, x1, y1 = polygon_bbox(s.table_zone)
        centres.append(((x0 + x1) / 2, (y0 + y1) / 2))
    for s in lay.seats:
        inside = [i + 1 for i, c in enumerate(centres) if point_in_polygon(c, s.table_zone)]
        assert inside == [s.seat]


def test_zone_edits_and_hits() -> None:
    lay = propose_layout((1280, 720))
    p = lay.seat(4).table_zone[2]
    hit = hit_test(lay, (p[0] + 3, p[1] - 2), radius=8)
    assert hit is not None and (hit.seat, hit.zone, hit.vertex) == (4, "table_zone", 2)
    moved = move_vertex(lay, 4, "table_zone", 2, (p[0] + 30, p[1] + 5))
    assert moved.seat(4).table_zone[2] == (round(p[0] + 30, 1), round(p[1] + 5, 1))
    assert moved.seat(5) == lay.seat(5)
    far = move_zone(lay, 1, "head_zone", 10_000, 0)  # stops at the frame's edge
    assert max(x for x, _ in far.seat(1).head_zone) == pytest.approx(1280, abs=0.2)
    small = scale_layout(lay, (640, 360))
    assert small.seat(4).table_zone[2] == pytest.approx((p[0] / 2, p[1] / 2))


def test_the_table_is_found_in_the_picture_and_the_seats_go_around_it() -> None:
    img = np.full((360, 640, 3), (40, 30, 25), np.uint8)
    cv2.ellipse(img, (330, 200), (90, 130), 0, 0, 360, (30, 110, 60), -1)  # a tall green table
    table = estimate_table(img, (1280, 720))
    assert table is not None
    assert (table.cx, table.cy, table.rx, table.ry) == pytest.approx((660, 400, 180, 260), abs=8)
    lay = propose_layout((1280, 720), table=table)
    centres = [tuple(np.mean(np.asarray(s.table_zone), axis=0)) for s in lay.seats]
    # seats 1-5 up the left side, 6-10 down the right; the near end (bottom) is left to the host
    assert all(x < 660 for x, _ in centres[:5]) and all(x > 660 for x, _ in centres[5:])
    ys = [y for _, y in centres]
    assert ys[:5] == sorted(ys[:5], reverse=True) and ys[5:] == sorted(ys[5:])
    assert max(ys) < 400 + 260  # nobody sits at the host's end
    flat = np.full((360, 640, 3), 90, np.uint8)  # no table to see: the whole picture is one colour
    assert estimate_table(flat, (1280, 720)) is None


def test_the_console_doc_lists_every_key(project_root: Path) -> None:
    doc = (project_root / "docs" / "CONSOLE.md").read_text(encoding="utf-8")
    shown = {"Return": "Enter", "Escape": "Esc"}
    for b in BINDINGS:
        assert f"`{shown.get(b.key, b.key)}`" in doc, b


def test_press_clock_removes_the_wait_in_the_queue() -> None:
    pc = PressClock()
    # window-system clock = our clock - 5000 ms; the first press is handled at once
    assert pc.wait_ms(1_000, 6_000.0) == 0.0
    assert pc.wait_ms(2_000, 7_120.0) == 120.0  # this one waited 120 ms behind a repaint
    assert pc.wait_ms(3_000, 8_000.0) == 0.0
    assert pc.wait_ms(0, 9_000.0) == 0.0  # no timestamp (synthetic events): no correction
    assert pc.wait_ms(4_000, 19_000.0) == 0.0  # 6 s "late": the clocks jumped, not a queue
    # an event less delayed than every one before becomes the reference
    assert pc.wait_ms(5_000, 9_990.0) == 0.0
    assert pc.wait_ms(6_000, 11_000.0) == 10.0


def test_votes_by_hand_and_the_best_move() -> None:
    m = Marker(rules_for("club"))
    marks = press(m, "N D 1 V 7 E Return Space Y 3 Y 5 2 Return N B 4 1 2 3")
    assert [ty for _, ty, _ in marks][-6:] == [
        "vote_stop",
        "vote",
        "vote",
        "vote_count",
        "night",
        "best_move",
    ]
    votes = [e for e in m.events if e.type == "vote"]
    assert [(v.seat, v.candidate) for v in votes] == [(3, 7), (5, 7)]  # type: ignore[attr-defined]
    assert m.events[-3].count == 2  # type: ignore[attr-defined]
    best = m.events[-1]
    assert (best.seat, best.suspects) == (4, (1, 2, 3))  # type: ignore[attr-defined]
    assert Marker(rules_for("club")).press_commit("Y", 0).message is not None  # waits for the seat


def test_the_vision_helper_s_proposal_is_scaled_to_the_video(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[int, ...]] = []

    def helper(frame: np.ndarray, *, seats: int = 10) -> object:  # stands in for vision.layout_helper
        seen.append(frame.shape)
        return propose_layout((frame.shape[1], frame.shape[0]), seats)

    monkeypatch.setitem(sys.modules, "vision.layout_helper", types.SimpleNamespace(propose_layout=helper))
    small = np.zeros((360, 640, 3), np.uint8)
    lay = best_proposal((1920, 1080), 10, small)
    assert seen == [(360, 640, 3)] and lay.frame_size == (1920, 1080)
    want = propose_layout((640, 360)).seat(4).table_zone
    got = [c for p in lay.seat(4).table_zone for c in p]
    assert got == pytest.approx([c * 3 for p in want for c in p])

    def failing(frame: np.ndarray, *, seats: int = 10) -> object:
        raise ValueError("no table in this frame")

    monkeypatch.setitem(sys.modules, "vision.layout_helper", types.SimpleNamespace(propose_layout=failing))
    assert best_proposal((1920, 1080), 10, small).frame_size == (1920, 1080)  # the console's own
