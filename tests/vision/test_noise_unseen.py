"""Unreadable landings on noisy video: a fist the landmarker never reads is found by the colour it brings onto
the cloth (:func:`vision.noise.covered`), beside a rest hand the landmarker does read, and seen to leave.

Small synthetic frames; the watcher's finder is a stand-in (the unit under test is the watcher's rule, not
MediaPipe; the accuracy benchmark runs the real model on noisy renders).
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.zonefakes import ZONE, OneZoneFinder
from vision.handfinder import HandSeen
from vision.noise import NOISY_SIGMA, NOISY_UNSEEN_MIN_AREA, Covered, NoiseLevel, covered, uncovered_share
from vision.seatwatch import UNSEEN_CONF, Observation, ZoneWatcher

NOISY, CLEAN = NoiseLevel(2 * NOISY_SIGMA), NoiseLevel(0.5 * NOISY_SIGMA)
CLOTH = (30, 90, 56)  # the tablesim cloth
# A fist seen from behind on the noisy picture: its inside has the cloth's grey level (skin-brown on green,
# 76 against 68 grey) and only its dark outline differs in grey; in colour it differs by 96.
INSIDE, OUTLINE = (120, 60, 40), (20, 20, 20)
EDGE_HAND = (100, 150, 124, 174)  # x0, y0, x1, y1: a rest hand at the zone's lower left edge


class EdgeFinder(OneZoneFinder):
    """The landmarker reads only the rest hand at the zone's edge (when ``edge``), never the landing fist. The
    edge hand lies mostly outside the zone by its landmarks (inside 0.6), so it is no hand placed there."""

    def __init__(self, *, edge: bool) -> None:
        self.edge = edge

    def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
        if not self.edge:
            return []
        x0, y0, x1, y1 = (float(v) for v in EDGE_HAND)
        pts = np.zeros((21, 3), np.float32)
        return [HandSeen(3, "other", 0.8, 0.8, (x0, y0, x1, y1), ((x0 + x1) / 2, y0), y0, 0.6, pts)]


def _frame(fist_x: int | None, *, edge: bool, bright: bool = False) -> np.ndarray:
    f = np.zeros((300, 300, 3), np.uint8)
    f[:] = CLOTH
    if edge:
        x0, y0, x1, y1 = EDGE_HAND
        f[y0:y1, x0:x1] = (200, 150, 120)
    if fist_x is not None:
        f[140:164, fist_x : fist_x + 24] = (210, 210, 210) if bright else OUTLINE
        if not bright:
            f[142:162, fist_x + 2 : fist_x + 22] = INSIDE
    return f


def _run(
    level: NoiseLevel, path: list[int | None], *, edge: bool = False, bright: bool = False
) -> list[Observation]:
    w = ZoneWatcher(EdgeFinder(edge=edge), seat=3, zone="table_zone", frame_shape=(300, 300, 3))  # type: ignore[arg-type]
    w.noise = level
    obs: list[Observation] = []
    for i, x in enumerate(path):
        obs.extend(w.feed(_frame(x, edge=edge, bright=bright), i * 40))
    return obs


# The fist comes in from the right, rests at x 150 for a second and a half, then leaves to the right.
ARRIVES = [None] * 5 + [250, 220, 190, 165] + [150] * 40
LEAVES = [180, 220, 260] + [None] * 30
STILL_T = 9 * 40  # the first frame of the still picture


def test_covered_finds_a_hand_by_colour_where_the_grey_difference_is_only_its_outline() -> None:
    rect = ZONE.astype(int)
    x0, y0, x1, y1 = rect[:, 0].min(), rect[:, 1].min(), rect[:, 0].max(), rect[:, 1].max()
    before = _frame(None, edge=False)[y0:y1, x0:x1]
    after = _frame(150, edge=False)[y0:y1, x0:x1]
    zone = np.ones(before.shape[:2], bool)
    cloth = np.array(CLOTH, np.float32)
    part = covered(before, after, zone, cloth, 40.0)
    assert isinstance(part, Covered)
    assert part.area >= 0.8 * 24 * 24 and part.box[0] >= 48 and part.box[2] <= 76
    # The same hand leaving uncovers the cloth: nothing is covered, and its part shows the cloth again.
    assert covered(after, before, zone, cloth, 40.0) is None
    assert uncovered_share(part.mask, before, cloth, 40.0) == pytest.approx(1.0)
    assert uncovered_share(part.mask, after, cloth, 40.0) < 0.1
    with pytest.raises(ValueError, match="do not match"):
        covered(before, after[:-1], zone, cloth, 40.0)


def test_an_unreadable_fist_with_the_cloths_grey_level_lands_and_leaves_on_noisy_video() -> None:
    # Failed on 0.28: the grey difference is the fist's 2 px outline, which the opening removes; no landing.
    obs = _run(NOISY, ARRIVES + LEAVES)
    assert [(o.kind, o.seat, o.t, o.gesture, o.conf) for o in obs] == [
        ("hand_down", 3, STILL_T, "other", UNSEEN_CONF),
        ("hand_up", 3, (len(ARRIVES)) * 40, "other", UNSEEN_CONF),
    ]


def test_clean_video_keeps_the_grey_rule() -> None:
    # The colour rule runs on noisy video only: clean video's unreadable landings are unchanged.
    assert _run(CLEAN, ARRIVES + LEAVES) == []


def test_a_rest_hand_at_the_zones_edge_does_not_hide_a_landing_beside_it_on_noisy_video() -> None:
    # The fist lands touching the rest hand the landmarker reads at the zone's edge (their boxes overlap).
    # Failed on 0.28: any hand read overlapping the landing's box vetoed it. On noisy video a hand whose place
    # shows what it showed before the movement lay there, and is not what came.
    path = [None] * 5 + [250, 200, 160] + [123] * 40
    obs = _run(NOISY, path, edge=True, bright=True)
    assert [(o.kind, o.t, o.conf) for o in obs] == [("hand_down", 8 * 40, UNSEEN_CONF)]
    assert obs[0].box is not None and obs[0].box[0] >= 121
    # Clean video keeps the veto (a hand read there, mostly outside the zone, coming back to its edge).
    assert _run(CLEAN, path, edge=True, bright=True) == []


def test_a_small_shift_is_no_unreadable_landing() -> None:
    # A part well under a hand's area (a resting hand shifting, a cuff) is no landing.
    side = int(np.sqrt(0.5 * NOISY_UNSEEN_MIN_AREA) * 30)
    w = ZoneWatcher(EdgeFinder(edge=False), seat=3, zone="table_zone", frame_shape=(300, 300, 3))  # type: ignore[arg-type]
    w.noise = NOISY
    obs: list[Observation] = []
    for i in range(40):
        f = _frame(None, edge=False)
        if i >= 5:
            f[150 : 150 + side, 150 : 150 + side] = (200, 150, 120)
        obs.extend(w.feed(f, i * 40))
    assert obs == []


class LateReader(OneZoneFinder):
    """The landmarker reads the fist resting at x 150 as a palm, once the test sets ``reading``."""

    def __init__(self) -> None:
        self.reading = False

    def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
        if not self.reading or not (frame[150, 160] == INSIDE).all():
            return []
        pts = np.zeros((21, 3), np.float32)
        return [HandSeen(3, "palm", 0.7, 0.7, (150.0, 140.0, 173.0, 163.0), (161.5, 151.5), 140.0, 1.0, pts)]


def test_an_unreadable_landing_read_later_is_no_second_landing() -> None:
    # The fist lands unread; later something moves elsewhere in the zone (a neighbour's cuff) and the
    # landmarker now reads the fist as a palm. Failed before this rule: the palm was a second landing (noisy
    # game 612, seat 5, 0.8 s after its vote).
    finder = LateReader()
    w = ZoneWatcher(finder, seat=3, zone="table_zone", frame_shape=(300, 300, 3))  # type: ignore[arg-type]
    w.noise = NOISY
    obs: list[Observation] = []
    for i, x in enumerate(ARRIVES + [150] * 20):
        f = _frame(x, edge=False)
        if len(ARRIVES) <= i < len(ARRIVES) + 3:
            finder.reading = True
            f[105:115, 105 + 5 * (i - len(ARRIVES)) : 125 + 5 * (i - len(ARRIVES))] = (200, 200, 200)
        obs.extend(w.feed(f, i * 40))
    assert [(o.kind, o.t, o.gesture) for o in obs] == [("hand_down", STILL_T, "other")]


def test_a_flicker_does_not_cut_short_the_look_for_an_unreadable_landing() -> None:
    # While the watcher looks again for the arrival it missed at the settle, one frame flickers in a corner
    # of the zone. Failed before this rule: the flicker began a new movement whose "before" picture already
    # held the fist, so the look ended with nothing (noisy game 605, seat 4 at 66.36 s).
    w = ZoneWatcher(EdgeFinder(edge=False), seat=3, zone="table_zone", frame_shape=(300, 300, 3))  # type: ignore[arg-type]
    w.noise = NOISY
    obs: list[Observation] = []
    for i, x in enumerate(ARRIVES):
        f = _frame(x, edge=False)
        if i == 20:
            f[102:112, 102:112] = (220, 220, 220)
        obs.extend(w.feed(f, i * 40))
    assert [(o.kind, o.t, o.gesture) for o in obs] == [("hand_down", STILL_T, "other")]


def test_a_landing_the_grey_rule_finds_is_still_found_on_noisy_video() -> None:
    # A small, plain hand (11 px square against 30 px hands: 0.134 of a hand's area) with a grey difference
    # all over: the grey rule of clean video (and of 0.28) finds it; the colour rule alone, with its larger
    # minimum, does not (noisy game 501, seat 10: a near-side thumb seen from above, its sleeve cloth-dark).
    obs: dict[str, list[Observation]] = {}
    for name, level in (("noisy", NOISY), ("clean", CLEAN)):
        w = ZoneWatcher(EdgeFinder(edge=False), seat=3, zone="table_zone", frame_shape=(300, 300, 3))  # type: ignore[arg-type]
        w.noise = level
        obs[name] = []
        for i, x in enumerate(ARRIVES):
            f = _frame(None, edge=False)
            if x is not None:
                f[140:151, x : x + 11] = (140, 100, 80)
            obs[name].extend(w.feed(f, i * 40))
    assert [(o.kind, o.t, o.conf) for o in obs["noisy"]] == [("hand_down", STILL_T, UNSEEN_CONF)]
    assert [(o.kind, o.t) for o in obs["noisy"]] == [(o.kind, o.t) for o in obs["clean"]]


def test_a_vote_lifted_before_the_look_ends_is_found_on_the_last_still_picture() -> None:
    # The fist rests 14 frames (0.56 s: the settle's four, then ten of the look's twelve) and leaves: a vote
    # put down and lifted at once. The lift cuts the look for the missed arrival short; the look ends on the
    # last still picture, as it would have ended. Failed on 0.78 (17 frames were needed): the vote and its
    # lift were lost (noisy PP 4711, zone 6; MM 4418, zone 5).
    obs = _run(NOISY, ARRIVES[:9] + [150] * 14 + LEAVES)
    assert [(o.kind, o.seat, o.t, o.gesture) for o in obs] == [
        ("hand_down", 3, STILL_T, "other"),
        ("hand_up", 3, (9 + 14) * 40, "other"),
    ]
    # A look cut after fewer than CUT_LOOK_FRAMES of its frames still ends with nothing: too early to judge.
    assert _run(NOISY, ARRIVES[:9] + [150] * 10 + LEAVES) == []


def test_a_fist_hidden_under_a_reach_that_leaves_soon_after_is_found() -> None:
    # The fist comes down while a neighbour's arm (a bright bar) lies across the zone; the settle reads
    # nothing, and two frames into the look the arm slides away over four frames. Failed on 0.82: the look
    # after the arm's settle compared with a picture that already held the fist, and found nothing (noisy QQ
    # 4806, zone 4: the vote and seven rounds lost).
    w = ZoneWatcher(EdgeFinder(edge=False), seat=3, zone="table_zone", frame_shape=(300, 300, 3))  # type: ignore[arg-type]
    w.noise = NOISY
    bars = [None] * 5 + [100] * 4 + [100] * 6 + [130, 160, 190, 220] + [None] * 30
    obs: list[Observation] = []
    for i, bar in enumerate(bars):
        f = _frame(ARRIVES[i] if i < 9 else 150, edge=False)
        if bar is not None:
            f[104:114, bar : min(200, bar + 100)] = (220, 220, 220)
        obs.extend(w.feed(f, i * 40))
    assert [(o.kind, o.t, o.gesture) for o in obs] == [("hand_down", STILL_T, "other")]
