"""The live vision worker and the console model without a recording: frames in during vote windows only,
hand events out (in video pixels, in vision.live.jsonl), a count on "Спасибо"; timer warnings; labels.

The landmarker is replaced here by a finder that sees a bright square (the unit under test is the
worker's plumbing: windows, queues, scaling, the check; the MediaPipe path runs in bench/bench_console.py
and in test_console_window's end-to-end test).
"""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path
from typing import Any

import numpy as np
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from gamelog.events import HandDown, VoteCall, VoteStop
from gamelog.layout import Layout, SeatZones
from gamelog.rules import rules_for
from recorder.tap import TapFrame
from review_ui.console.console_model import ConsoleModel
from review_ui.console.labels import LABELS, ctr
from review_ui.console.live_check import LIVE_FILE, LiveResult, LiveVision
from review_ui.console.marking import Msg
from review_ui.console.pinning import pin_singletons
from review_ui.i18n import LANGUAGES, Language
from vision.handfinder import HandSeen

FRAME = (1280, 720)  # the video; the tap frames are half that


def square(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def layout() -> Layout:
    seats = []
    for s in range(1, 11):
        x = 20 + (s - 1) * 120
        seats.append(
            SeatZones(
                s, square(x, 400, x + 100, 500), square(x, 100, x + 100, 200), square(x, 250, x + 100, 350)
            )
        )
    return Layout(FRAME, tuple(seats))


class SquareFinder:
    """Sees a bright square in a zone as a thumb-up hand of the zone's seat."""

    def __init__(self, lay: Layout) -> None:
        self.layout = lay
        self.threads: set[str] = set()
        self.seats_seen: set[int] = set()

    def polygon(self, seat: int, zone: str) -> np.ndarray:
        return np.asarray(self.layout.seat(seat).zone(zone), dtype=np.float64)

    def find(self, frame: np.ndarray, seat: int, zone: str, **_options: object) -> list[HandSeen]:
        self.threads.add(threading.current_thread().name)
        self.seats_seen.add(seat)
        p = self.polygon(seat, zone)
        x0, y0 = int(p[:, 0].min()), int(p[:, 1].min())
        x1, y1 = int(p[:, 0].max()), int(p[:, 1].max())
        ys, xs = np.nonzero(frame[y0:y1, x0:x1, 0] > 200)
        if len(xs) < 20:
            return []
        box = (float(xs.min() + x0), float(ys.min() + y0), float(xs.max() + x0), float(ys.max() + y0))
        c = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        return [HandSeen(seat, "thumb_up", 0.9, 0.9, box, c, box[1], 1.0, np.zeros((21, 3), np.float32))]

    def arm_owner(
        self, before: np.ndarray, after: np.ndarray, hand: HandSeen, zone_seat: int, *_: object
    ) -> int | None:
        return None  # the arm's path does not say: the hand's own owner stands

    def hand_size(self, seat: int) -> float:
        return 30.0  # the watcher sizes what changed in a zone by the seat's hand (HandFinder.hand_size)

    def close(self) -> None:
        pass


def tap_frame(t_ms: int, hands: tuple[int, ...]) -> TapFrame:
    """A half-size tap frame with a bright square resting in the table zone of each seat in ``hands``."""
    img = np.full((360, 640, 3), 40, np.uint8)
    for s in hands:
        x = (20 + (s - 1) * 120) // 2
        img[210:235, x + 10 : x + 35] = 230
    return TapFrame(img, t_ms)


def test_worker_counts_hands_that_land_in_the_window_and_writes_the_live_file(tmp_path: Path) -> None:
    finders: list[SquareFinder] = []

    def factory(lay: Layout) -> SquareFinder:
        finders.append(SquareFinder(lay))
        return finders[-1]

    results: list[LiveResult] = []
    done = threading.Event()

    def got(r: LiveResult) -> None:
        results.append(r)
        done.set()

    live = LiveVision(tmp_path, rules_for("federation"), layout(), on_result=got, finder_factory=factory)
    try:
        for t in range(600, 1000, 40):  # before the call: kept as pre-roll, the last 8 fed first
            live.offer(tap_frame(t, (4,)))
        call = VoteCall(t=1000, src="host", id="h0001", round="main", candidate=7)
        live.open_window(call, [s for s in range(1, 11) if s != 10])  # seat 10 has left the table
        # seat 4 rests from before the call (not a vote); 2 and 9 land; 5 lands after the stop (late)
        for i in range(40):
            t = 1000 + i * 40
            hands = (
                (4,) + ((2,) if t >= 1200 else ()) + ((9,) if t >= 1400 else ()) + ((5,) if t >= 2100 else ())
            )
            live.offer(tap_frame(t, hands))
        stop = VoteStop(t=2000, src="host", id="h0002")
        live.request_check([call, stop], stop, range(1, 11))
        assert done.wait(10)
    finally:
        live.stop()
    r = results[0]
    assert (r.call_id, r.candidate, r.count, r.voters) == ("h0001", 7, 2, (2, 9))
    assert r.late == ()  # seat 5's landing is after the check's horizon: not reported yet
    assert r.frames == 8 + 40
    assert finders and finders[0].threads == {"console-vision"}  # the finder lives on the worker
    assert finders[0].layout.frame_size == (640, 360)  # zones scaled to the tap frames
    assert finders[0].seats_seen == set(range(1, 10))  # nobody looks at seat 10's zone
    downs = [e for e in live.events if isinstance(e, HandDown)]
    assert [(e.seat, e.t) for e in downs[:2]] == [(2, 1200), (9, 1400)]
    # boxes are in pixels of the video, not of the small tap frame
    assert downs[0].box == (160.0, 420.0, 208.0, 468.0)  # tap box (80, 210, 104, 234) doubled
    lines = [json.loads(x) for x in (tmp_path / LIVE_FILE).read_text().splitlines()]
    assert [x["type"] for x in lines] == [e.type for e in live.events]
    assert lines[0]["analyser"] == "console-live/1" and lines[0]["src"] == "vision"


def test_the_landmarker_is_loaded_and_run_once_before_the_first_window(tmp_path: Path) -> None:
    """Warm-up: the finder for the tap's size is made on the worker and run once at start, so the first vote
    window does not take the CPU from the recorder; the window then reuses it."""
    finders: list[SquareFinder] = []

    def factory(lay: Layout) -> SquareFinder:
        finders.append(SquareFinder(lay))
        return finders[-1]

    live = LiveVision(tmp_path, rules_for("federation"), layout(), finder_factory=factory, warm_width=640)
    try:
        assert live.warm.wait(10)
        assert len(finders) == 1 and finders[0].layout.frame_size == (640, 360)
        assert finders[0].threads == {"console-vision"} and finders[0].seats_seen == {1}
        live.open_window(VoteCall(t=1000, src="host", id="h0001", round="main", candidate=7))
        live.offer(tap_frame(1040, ()))
        for _ in range(100):
            if live.frames_fed:
                break
            threading.Event().wait(0.05)
    finally:
        live.stop()
    assert live.frames_fed == 1 and len(finders) == 1  # the warm finder was reused


def test_a_count_typed_before_vision_is_done_still_gets_vision_s_count(tmp_path: Path) -> None:
    """The host types the count while the check still waits for frames past the stop: the window stays
    open for the check, which then counts (it used to report "no frames" for a closed window)."""
    results: list[LiveResult] = []
    done = threading.Event()

    def got(r: LiveResult) -> None:
        results.append(r)
        done.set()

    live = LiveVision(tmp_path, rules_for("federation"), layout(), on_result=got, finder_factory=SquareFinder)
    try:
        call = VoteCall(t=1000, src="host", id="h0001", round="main", candidate=7)
        live.open_window(call)
        for i in range(20):  # up to 1760 ms: not yet the 150 ms past the stop the check waits for
            t = 1000 + i * 40
            live.offer(tap_frame(t, (3,) if t >= 1200 else ()))
        stop = VoteStop(t=1700, src="host", id="h0002")
        live.request_check([call, stop], stop, range(1, 11))
        live.close_window()  # the host's count, typed at once
        for i in range(20, 30):  # the frames past the stop still reach the check
            live.offer(tap_frame(1000 + i * 40, (3,)))
        assert done.wait(10)
    finally:
        live.stop()
    (r,) = results
    assert (r.call_id, r.count, r.voters) == ("h0001", 1, (3,))
    assert r.frames >= 22


def test_without_a_layout_the_check_says_so(tmp_path: Path) -> None:
    results: list[LiveResult] = []
    done = threading.Event()
    live = LiveVision(
        tmp_path, rules_for("federation"), None, on_result=lambda r: (results.append(r), done.set())
    )
    try:
        call = VoteCall(t=1000, src="host", id="h0001", round="main", candidate=3)
        live.open_window(call)
        live.offer(tap_frame(1100, (2,)))
        stop = VoteStop(t=2000, src="host", id="h0002")
        live.request_check([call, stop], stop, range(1, 11))
        assert done.wait(10)
    finally:
        live.stop()
    assert results[0].count is None and results[0].reason == "no_layout"
    assert not (tmp_path / LIVE_FILE).exists()


class FakeSink:
    def __init__(self) -> None:
        self.now = 0
        self.marks: list[object] = []

    def media_ms(self) -> int:
        return self.now

    def mark(self, ev: object) -> None:
        self.marks.append(ev)


def test_speech_timer_warns_at_ten_seconds_and_at_the_end(qtbot: QtBot) -> None:
    sink = FakeSink()
    model = ConsoleModel(sink)
    model.set_recording(True)
    warnings: list[int] = []
    model.timer_warning.connect(warnings.append)
    for k in ("N", "D", "3"):
        model.key(k)
    assert [e.type for e in sink.marks] == ["night", "day", "speech"]  # type: ignore[attr-defined]
    sink.now = 49_000
    model._on_tick()
    assert warnings == []
    sink.now = 50_100
    model._on_tick()
    tv = model.timer()
    assert warnings == [10] and tv is not None and tv.seat == 3 and tv.left_ms == 9_900
    sink.now = 60_050
    model._on_tick()
    assert warnings == [10, 0]
    model.key("E")
    assert model.timer() is None


def test_marks_wait_for_the_recording(qtbot: QtBot) -> None:
    sink = FakeSink()
    model = ConsoleModel(sink)
    assert model.key("N") == () and sink.marks == []
    assert model.message == Msg("msg_not_recording")


def test_both_languages_have_every_label() -> None:
    for key, table in LABELS.items():
        assert set(table) == set(LANGUAGES), key
        assert all(table[lang].strip() for lang in LANGUAGES), key
    lang = Language("ru")
    assert ctr(lang, "live_differs") == "РАСХОЖДЕНИЕ"
    assert ctr(lang, "play") == "Пуск"  # falls back to the review window's labels


def test_none_outlives_void_qt_calls(qtbot: QtBot) -> None:
    pin_singletons()
    assert sys.getrefcount(None) > 1 << 39
    label = QLabel()
    qtbot.addWidget(label)
    start = sys.getrefcount(None)
    for _ in range(20_000):  # unpinned, PySide6 6.12.0 would free None (a fatal error) long before this
        label.setText("x")
    assert sys.getrefcount(None) > 1 << 39
    assert start - sys.getrefcount(None) <= 20_000  # what the binding loses is bounded by the calls


def test_the_count_tells_a_reach_by_its_home_zone_as_the_analyser_does(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """At the count, the window's landings go through TableWatch.reaches_resolved, as a stretch's do in the
    analyser (the rule is tested in tests/vision/test_reach_told_by_home_zone.py; here it is replaced by one
    that gives seat 2's landing and lift to seat 3, whose reach it was): the reach is no vote of seat 2's, nor
    of seat 3's (a hand in a neighbour's zone); the live file keeps what was seen."""
    import dataclasses

    from vision.seatwatch import TableWatch

    calls: list[int] = []

    def resolved(self: TableWatch, obs: list[Any]) -> list[Any]:
        calls.append(len(obs))
        return [dataclasses.replace(o, seat=3) if o.zone_seat == 2 else o for o in obs]

    monkeypatch.setattr(TableWatch, "reaches_resolved", resolved)
    results: list[LiveResult] = []
    done = threading.Event()
    live = LiveVision(
        tmp_path,
        rules_for("federation"),
        layout(),
        on_result=lambda r: (results.append(r), done.set()),
        finder_factory=SquareFinder,
    )
    try:
        call = VoteCall(t=1000, src="host", id="h0001", round="main", candidate=7)
        live.open_window(call)
        for i in range(30):
            t = 1000 + i * 40
            live.offer(tap_frame(t, ((2,) if t >= 1200 else ()) + ((9,) if t >= 1400 else ())))
        stop = VoteStop(t=2000, src="host", id="h0002")
        live.request_check([call, stop], stop, range(1, 11))
        assert done.wait(10)
    finally:
        live.stop()
    (r,) = results
    assert calls == [2] and (r.count, r.voters) == (1, (9,))
    assert [(e.seat, e.t) for e in live.events if isinstance(e, HandDown)] == [(2, 1200), (9, 1400)]
