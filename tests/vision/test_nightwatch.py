"""Night watch on small rendered tablesim nights: a peek and a touch are found with the right seats and
times, a quiet night gives nothing, the events parse, and the analyser writes them to vision.jsonl."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from gamelog.bundle import load_bundle
from gamelog.events import HeadUp, NightMotion, ShotRaise, event_to_json, parse_event
from gamelog.jsonl import read_events
from tablesim.build import Knobs, build
from tablesim.scene import CameraKnobs
from tablesim.script import parse_script
from vision import nightwatch as nw
from vision.video import VideoTimeline

ROLES = {"don": 4, "mafia": [7, 9], "sheriff": 2}
SIZE = (640, 360)
TOL_MS = 400  # samples are 160 ms apart; the head takes 300 ms to rise


def _night(tmp: Path, name: str, seats: list[dict[str, Any]], day_at: int = 16000) -> Path:
    script = parse_script(
        {
            "format": "tablesim/1",
            "seed": 11,
            "roles": ROLES,
            "host": [{"t": 500, "do": "night", "n": 1}, {"t": day_at, "do": "day", "n": 2}],
            "seats": seats,
        }
    )
    knobs = Knobs(camera=CameraKnobs(width=SIZE[0], height=SIZE[1]), fps=10)
    return build(script, tmp / name, knobs).bundle


@pytest.fixture(scope="module")
def peek_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    seats = [
        {"t": 6000, "seat": 3, "do": "peek", "until": 8000},
        {"t": 10000, "seat": 2, "do": "reach", "into": 3, "until": 11200},
    ]
    return _night(tmp_path_factory.mktemp("nightwatch"), "peek", seats)


@pytest.fixture(scope="module")
def quiet_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _night(tmp_path_factory.mktemp("nightwatch"), "quiet", [], day_at=14000)


def _marks(bundle: Path) -> tuple[int, int]:
    evs = load_bundle(bundle).events
    night = next(e.t for e in evs if e.TYPE == "night")
    day = next(e.t for e in evs if e.TYPE == "day")
    return night, day


def _pass(bundle: Path) -> list[Any]:
    b = load_bundle(bundle)
    assert b.layout is not None
    start, end = _marks(bundle)
    with VideoTimeline([bundle / "video.mp4"]) as tl:
        return nw.night_pass(tl, b.layout.at(0), start, end)


def test_peek_found_with_seat_and_times(peek_bundle: Path) -> None:
    truth = json.loads((peek_bundle / "truth.json").read_text(encoding="utf-8"))
    (peek,) = [h for h in truth["hands"] if h["kind"] == "head_up"]
    evs = _pass(peek_bundle)
    heads = [e for e in evs if isinstance(e, HeadUp)]
    assert [e.seat for e in heads] == [3], evs
    assert abs(heads[0].t - peek["t"]) <= TOL_MS
    assert abs(heads[0].until - peek["until"]) <= TOL_MS
    assert 0.5 <= heads[0].conf <= 1.0


def test_touch_found_with_seat_and_neighbour(peek_bundle: Path) -> None:
    evs = _pass(peek_bundle)
    motions = [e for e in evs if isinstance(e, NightMotion)]
    assert [(e.seat, e.kind, e.extra.get("into")) for e in motions] == [(2, "touch", 3)], evs
    # the hand arrives at 10 s after a 450 ms reach and leaves at 11.2 s
    assert 9400 <= motions[0].t <= 10000 + TOL_MS
    assert 11200 - TOL_MS <= motions[0].until <= 11700 + TOL_MS


def test_quiet_night_gives_nothing(quiet_bundle: Path) -> None:
    assert _pass(quiet_bundle) == []


def test_events_parse_and_ids_are_deterministic(peek_bundle: Path) -> None:
    first, second = _pass(peek_bundle), _pass(peek_bundle)
    assert [e.id for e in first] == [e.id for e in second]
    for e in first:
        obj = event_to_json(e)
        assert obj["src"] == "vision"
        assert obj["analyser"] == f"{nw.NAME}/{nw.VERSION}"
        assert obj["id"].startswith(f"vis:{obj['type']}:{obj['seat']}:{obj['t']}:")
        assert parse_event(json.loads(json.dumps(obj))) == e


def test_analyser_writes_night_events(peek_bundle: Path, tmp_path: Path) -> None:
    import shutil

    from vision.analyzer import analyze

    work = tmp_path / "b"
    shutil.copytree(peek_bundle, work)
    analyze(work, workers=1, resume=False)
    evs = read_events(work / "vision.jsonl").events
    heads = [e for e in evs if isinstance(e, HeadUp)]
    assert [e.seat for e in heads] == [3]
    assert any(isinstance(e, NightMotion) and e.seat == 2 and e.kind == "touch" for e in evs)


def _series(head: dict[int, list[float]], step: int = nw.STEP_MS) -> nw.Series:
    n = len(next(iter(head.values())))
    return nw.Series(
        times=np.arange(n, dtype=np.int64) * step,
        head={s: np.array(v) for s, v in head.items()},
        mask={s: np.zeros(n) for s in head},
        move={s: np.zeros(n) for s in head},
        raised={s: np.zeros(n) for s in head},
        touch={},
    )


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        # a head up for 5 samples mid-night is one fact from its first to its last sample
        ([0.0] * 30 + [0.5] * 5 + [0.0] * 30, [(30 * 160, 34 * 160)]),
        # a single-sample blip is noise
        ([0.0] * 30 + [0.5] + [0.0] * 30, []),
        # two runs one sample apart are one fact
        ([0.0] * 30 + [0.5] * 3 + [0.0] + [0.5] * 3 + [0.0] * 30, [(30 * 160, 36 * 160)]),
        # heads still settling at the start are not a peek...
        ([0.5] * 10 + [0.0] * 55, []),
        # ...but a head that stays up past the settling time is
        ([0.5] * 40 + [0.0] * 25, [(0, 39 * 160)]),
        # heads rising for the day in the last second are not a peek
        ([0.0] * 60 + [0.5] * 5, []),
    ],
)
def test_facts_from_head_series(values: list[float], expected: list[tuple[int, int]]) -> None:
    s = _series({3: values})
    found = nw.facts(s, 0, len(values) * nw.STEP_MS)
    assert [(f.t, f.until) for f in found if f.kind == "head_up"] == expected


def test_raised_hand_over_the_head_path_is_not_a_head() -> None:
    s = _series({3: [0.0] * 30 + [0.5] * 5 + [0.0] * 30})
    s.raised[3][31:34] = 0.3
    assert nw.facts(s, 0, 65 * nw.STEP_MS, shooting=True) == []


def test_a_nod_is_not_a_peek() -> None:
    """A head that moves less than LIFT_MIN of the seat's rise, however long, or more but only for a moment
    (a nod returns), is no head up; a larger move held for half a second is."""
    quiet = [0.0] * 30
    small = _series({3: quiet + [0.8 * nw.LIFT_MIN] * 12 + quiet})
    assert nw.facts(small, 0, 72 * nw.STEP_MS) == []
    brief = _series({3: quiet + [3 * nw.LIFT_MIN] * (nw.HOLD_SAMPLES - 1) + quiet})
    assert nw.facts(brief, 0, (60 + nw.HOLD_SAMPLES - 1) * nw.STEP_MS) == []
    held = _series({3: quiet + [3 * nw.LIFT_MIN] * nw.HOLD_SAMPLES + quiet})
    found = nw.facts(held, 0, (60 + nw.HOLD_SAMPLES) * nw.STEP_MS)
    assert [(f.kind, f.seat, f.t) for f in found] == [("head_up", 3, 30 * nw.STEP_MS)]


def test_a_hand_shift_is_not_a_gesture() -> None:
    """The same changed share of the table zone is a gesture only when the change spans SPAN_MIN head
    widths (the hand went well away from its rest)."""
    n = 60
    s = _series({3: [0.0] * n})
    s.move[3][20:30] = 3 * nw.MOVE_PX_SHARE
    s.span[3] = np.zeros(n)
    s.span[3][20:30] = 0.5 * nw.SPAN_MIN
    assert nw.facts(s, 0, n * nw.STEP_MS) == []
    s.span[3][20:30] = 1.5 * nw.SPAN_MIN
    found = nw.facts(s, 0, n * nw.STEP_MS)
    assert [(f.kind, f.seat, f.t) for f in found] == [("gesture", 3, 20 * nw.STEP_MS)]


def _ip(p: np.ndarray) -> tuple[int, int]:
    return (round(float(p[0])), round(float(p[1])))


def _disc_frames(geo: nw.Geometry, seat: nw.SeatMasks, shift_px: float, band: bool = False) -> np.ndarray:
    """A grey working image with every seat's dark 'head' (as wide as its head zone) at its bowed place,
    and ``seat``'s moved by ``shift_px`` along its axis. ``band``: light heads with a dark band across
    them (tablesim's masked heads) instead of plain dark discs."""
    img = np.full((geo.size[1], geo.size[0], 3), 120, np.uint8)
    for s in geo.seats:
        c = s.axis[0].copy()
        u = s.axis[1] - s.axis[0]
        u = u / np.linalg.norm(u)
        if s.seat == seat.seat:
            c = c + u * shift_px
        r = 0.5 * s.scale
        cv2.circle(img, _ip(c), round(r), (200, 200, 200) if band else (30, 30, 30), -1)
        if band:
            across = np.array([-u[1], u[0]]) * 0.8 * r
            cv2.line(img, _ip(c - across), _ip(c + across), (30, 30, 30), max(2, round(0.3 * r)))
    return img


def test_lift_grows_with_the_head_move_in_the_seats_rise(peek_bundle: Path) -> None:
    """A head moved along its axis reads a lift that grows with the move (in the seat's rise), at a near
    and a far seat alike; a nod-sized move reads under LIFT_MIN; the other seats read nothing. (The
    estimate reads about half the move for a head as wide as its zone — the ends of the two crescents
    fall outside the head path — and strips a pixel or two thin vanish in the speck filter.) The heads
    carry a band, as tablesim's do: a plain disc moved a little leaves only two thin arcs, which read as
    an arm's strips (see the next test; a known limit for heads with no band or face in view)."""
    layout = load_bundle(peek_bundle).layout
    assert layout is not None
    geo = nw.Geometry.from_layout(layout.at(0))
    for seat in (geo.seats[0], geo.seats[4]):
        ref = _disc_frames(geo, seat, 0.0, band=True)
        got = {}
        for move in (0.015, 0.03, 0.06):
            cur = _disc_frames(geo, seat, move * seat.rise, band=True)
            series = nw.measure(geo, np.array([0, 160, 320], np.int64), np.stack([ref, cur, cur]), ref)
            got[move] = series.lift[seat.seat][1]
            assert all(series.lift[o.seat][1] == 0.0 for o in geo.seats if o.seat != seat.seat)
        assert got[0.015] < nw.LIFT_MIN, (seat.seat, got)
        assert got[0.015] <= got[0.03] < got[0.06], (seat.seat, got)
        # the band's two edges add their own strips to the outline's: up to about twice the move
        assert 0.3 * 0.06 <= got[0.06] <= 2.0 * 0.06, (seat.seat, got)


def _table_centre(seat: nw.SeatMasks) -> tuple[int, int]:
    ys, xs = np.nonzero(seat.table)
    return round(float(xs.mean())), round(float(ys.mean()))


def test_an_arms_edge_is_not_a_hand_away_from_its_rest(peek_bundle: Path) -> None:
    """A change as long as a gesture but only an arm's edge thick (a hand slid a few centimetres leaves
    strips along the arm) spans nothing; a whole hand's worth of change, as long, spans SPAN_MIN head
    widths and is THICK_MIN thick."""
    layout = load_bundle(peek_bundle).layout
    assert layout is not None
    geo = nw.Geometry.from_layout(layout.at(0))
    seat = max(geo.seats, key=lambda m: m.scale)  # the nearest seat: the most pixels per head width
    cx, cy = _table_centre(seat)
    half = round(1.1 * seat.scale)
    ref = np.full((geo.size[1], geo.size[0], 3), 120, np.uint8)
    got = {}
    for name, width in (("edge", 0.1), ("hand", 0.5)):
        cur = ref.copy()
        cv2.line(cur, (cx - half, cy), (cx + half, cy), (230, 230, 230), round(width * seat.scale))
        series = nw.measure(geo, np.array([0, 160], np.int64), np.stack([ref, cur]), ref)
        got[name] = (series.span[seat.seat][1], series.thick[seat.seat][1])
    assert seat.scale * 0.1 >= 3, seat.scale  # the edge survives the speck filter
    assert got["edge"][0] == 0.0, got
    assert got["hand"][0] >= nw.SPAN_MIN and got["hand"][1] >= nw.THICK_MIN, got
    assert got["edge"][1] < nw.THICK_MIN <= got["hand"][1], got


def _two_seats(n: int) -> nw.Series:
    s = _series({1: [0.0] * n, 2: [0.0] * n})
    s.touch[(1, 2)] = np.zeros(n)
    s.touch[(1, 2)][20:30] = 3 * nw.TOUCH_PX_SHARE
    return s


def test_a_neighbours_own_hand_is_not_a_touch() -> None:
    """A blob spanning seats 1 and 2 and covering seat 2's zone is seat 1's touch when it arrives there; when
    seat 2's own hand was already moving in its zone before the blob spanned both (a sign at the meeting,
    a raised arm whose root lies over seat 1), it is not."""
    n = 60
    reach = _two_seats(n)
    found = nw.facts(reach, 0, n * nw.STEP_MS)
    assert [(f.kind, f.seat, f.into, f.t) for f in found] == [("touch", 1, 2, 20 * nw.STEP_MS)]
    own = _two_seats(n)
    own.move[2][20 - nw.OWN_FIRST : 30] = 3 * nw.MOVE_PX_SHARE
    assert [f for f in nw.facts(own, 0, n * nw.STEP_MS) if f.kind == "touch"] == []
    # the touched seat's hand moving long before (and at rest again) does not excuse a later reach
    early = _two_seats(n)
    early.move[2][5:10] = 3 * nw.MOVE_PX_SHARE
    assert [(f.kind, f.seat) for f in nw.facts(early, 0, n * nw.STEP_MS) if f.kind == "touch"] == [
        ("touch", 1)
    ]


def test_a_raised_arm_in_the_shooting_round_is_a_shot_not_a_touch() -> None:
    """During the count a blob spanning two seats while either of them has a hand up in its raise zone is
    the shot; the same blob with no hand up is a touch."""
    n = 60
    plain = _two_seats(n)
    plain.high.update({1: np.zeros(n), 2: np.zeros(n)})
    assert [(f.kind, f.seat) for f in nw.facts(plain, 0, n * nw.STEP_MS, shooting=True)] == [("touch", 1)]
    for up in (1, 2):
        shot = _two_seats(n)
        shot.high.update({1: np.zeros(n), 2: np.zeros(n)})
        shot.high[up][18:32] = 2 * nw.RAISED_SHARE
        assert nw.facts(shot, 0, n * nw.STEP_MS, shooting=True) == [], up


def test_elongation_is_length_over_breadth() -> None:
    """A square reads about 1, a bar ten times as long as it is broad about 10, at any angle."""
    img = np.zeros((80, 80), np.uint8)
    cv2.rectangle(img, (20, 20), (39, 39), 1, -1)  # label 1: a 20 px square
    bar = np.zeros_like(img)
    cv2.line(bar, (10, 70), (70, 10), 1, 6)  # a diagonal bar about 85 px long and 6 px broad
    lab = (img + 2 * (bar & ~img)).ravel()
    nz = np.flatnonzero(lab)
    ys, xs = np.divmod(nz, img.shape[1])
    got = nw.elongation(lab[nz], xs, ys, 3)
    assert abs(got[1] - 1.0) < 0.05, got
    assert 9.0 <= got[2] <= 16.0, got


def test_an_arms_strip_along_the_head_path_is_not_a_head(peek_bundle: Path) -> None:
    """A long thin change lying along a seat's head path (a forearm shifted beside the bowed head, seen
    from the near end of the table) is no head move; a round change of the same area in the same place
    is (0.3 read both as a head up)."""
    layout = load_bundle(peek_bundle).layout
    assert layout is not None
    geo = nw.Geometry.from_layout(layout.at(0))
    seat = max(geo.seats, key=lambda m: m.scale)
    ref = _disc_frames(geo, seat, 0.0)
    c_down, c_up = seat.axis
    width = max(3, round(0.1 * seat.scale))
    strip = ref.copy()
    cv2.line(strip, _ip(c_down), _ip(c_up), (230, 230, 230), width)
    area = int(np.any(strip != ref, axis=2).sum())
    disc = ref.copy()
    mid = (c_down + c_up) / 2
    cv2.circle(disc, _ip(mid), round(float(np.sqrt(area / np.pi))), (230, 230, 230), -1)
    got = {}
    for name, cur in (("strip", strip), ("disc", disc)):
        series = nw.measure(geo, np.array([0, 160], np.int64), np.stack([ref, cur]), ref)
        got[name] = series.lift[seat.seat][1]
    assert got["disc"] >= nw.LIFT_MIN, got
    assert got["strip"] == 0.0, got


def test_a_mask_off_must_hold_longer_than_a_nods_bob() -> None:
    """The band's dark pixels turned light for five samples (0.64 s: a nod bobs its edge) is no mask off
    (0.3 reported it); held seven (0.96 s) it is."""
    n = 60
    for hold, expected in ((5, []), (7, [("mask", 3, 20 * nw.STEP_MS)])):
        s = _series({3: [0.0] * n})
        s.mask[3][20 : 20 + hold] = 2 * nw.MASK_AREA
        found = nw.facts(s, 0, n * nw.STEP_MS)
        assert [(f.kind, f.seat, f.t) for f in found] == expected, hold


def test_a_head_up_lists_the_arms_up_around_it() -> None:
    """A neighbour's gun held in front of a peeking head is told from the head by its arm, seen up in its own
    raise zone clear of every head path (``high``): the head_up lists such arms, from ARMS_NEAR_MS before
    the lift to ARMS_NEAR_MS after the head went down, and only those."""
    n = 80
    lift = np.zeros(n)
    lift[40:50] = 3 * nw.LIFT_MIN  # seat 4 peeks, samples 40-49
    high3 = np.zeros(n)
    high3[38:44] = 0.08  # seat 3's arm up from sample 38 to 43: beside the lift
    high5 = np.zeros(n)
    high5[5:8] = 0.08  # seat 5's, early in the night: far from it
    seats = (3, 4, 5)
    z = {s: np.zeros(n) for s in seats}
    series = nw.Series(
        times=np.arange(n, dtype=np.int64) * nw.STEP_MS,
        head={s: (lift if s == 4 else np.zeros(n)) for s in seats},
        mask=dict(z),
        move=dict(z),
        raised=dict(z),
        touch={},
        high={3: high3, 4: np.zeros(n), 5: high5},
        lift={s: (lift if s == 4 else np.zeros(n)) for s in seats},
    )
    found = nw.facts(series, 0, n * nw.STEP_MS, shooting=True)
    assert [(f.kind, f.seat) for f in found] == [("head_up", 4)]
    assert found[0].arms == ((3, 38 * nw.STEP_MS, 43 * nw.STEP_MS),)
    (event,) = nw.to_events(found)
    assert event.extra["arms"] == [[3, 38 * nw.STEP_MS, 43 * nw.STEP_MS]]
    assert parse_event(event_to_json(event)) == event


def _arm_series(table3: float) -> nw.Series:
    """Seat 3's arm up in its raise zone (``high``) from sample 40 to 44; its own table zone changed by
    ``table3`` from sample 38 on (its resting hand left). Seat 4's raise zone lit at the same time, its own
    table zone still (a neighbour's arm crossing it)."""
    n = 80
    seats = (3, 4)
    high = np.zeros(n)
    high[40:45] = [0.04, 0.07, 0.09, 0.08, 0.05]
    table = np.zeros(n)
    table[38:] = table3
    boxes = np.full((n, 4), np.nan)
    boxes[40:45] = (600.0, 300.0, 640.0, 350.0)
    boxes[42] = (598.0, 290.0, 641.0, 352.0)  # the arm at its largest
    z = {s: np.zeros(n) for s in seats}
    return nw.Series(
        times=np.arange(n, dtype=np.int64) * nw.STEP_MS,
        head=dict(z),
        mask=dict(z),
        move=dict(z),
        raised=dict(z),
        touch={},
        high={3: high, 4: high.copy()},
        lift=dict(z),
        table={3: table, 4: np.zeros(n)},
        high_box={3: boxes, 4: boxes.copy()},
    )


def test_an_arm_up_while_the_resting_hand_left_is_a_raise_in_a_shooting_stretch() -> None:
    """Blind noisy FF 3711: seat 7's gun was read by the landmarker on none of its frames up; the night pass
    saw its arm up in its raise zone, clear of every head path, and its resting hand gone from the table.
    That is a raise (the arm's own seat only: seat 4's raise zone lit by a crossing arm, its hand still at
    rest, is none), timed one step after the arm was first seen up, boxed where the arm was at its largest."""
    end = 80 * nw.STEP_MS
    found = nw.facts(_arm_series(0.08), 0, end, shooting=True)
    assert [(f.kind, f.seat, f.t, f.until, f.box) for f in found] == [
        ("arm_raise", 3, 41 * nw.STEP_MS, 44 * nw.STEP_MS, (598.0, 290.0, 641.0, 352.0))
    ]
    (event,) = nw.to_events(found)
    assert isinstance(event, ShotRaise)
    assert (event.seat, event.t, event.gesture) == (3, 41 * nw.STEP_MS, "other")
    assert event.conf == nw.ARM_RAISE_CONF
    assert event.extra["seen_by"] == "arm"
    assert parse_event(event_to_json(event)) == event
    # the resting hand did not leave: no raise; nor outside a shooting stretch
    assert nw.facts(_arm_series(0.0), 0, end, shooting=True) == []
    assert [f for f in nw.facts(_arm_series(0.08), 0, end) if f.kind == "arm_raise"] == []


def test_an_arm_lit_again_on_its_way_down_is_one_raise() -> None:
    """Noisy GG 3814: seat 10's arm up for four samples, then lit again three samples later for two (the arm
    coming down through the zone): one raise, not two (two read as "shot more than once", a miss). A second
    raise ARM_ONCE_MS or more after the first is one more."""
    for again in (48, 41 + -(-nw.ARM_ONCE_MS // nw.STEP_MS)):
        series = _arm_series(0.08)
        series.high[3][again : again + 2] = 0.06
        series.high_box[3][again : again + 2] = (600.0, 300.0, 640.0, 350.0)
        found = [f.t for f in nw.facts(series, 0, 80 * nw.STEP_MS, shooting=True) if f.seat == 3]
        if again == 48:
            assert found == [41 * nw.STEP_MS]
        else:
            assert found == [41 * nw.STEP_MS, (again + 1) * nw.STEP_MS]
