"""Session 9 (``vision.seatwatch``, noisy video): votes the table zones' looks lost.

- A thumb-up too small for an unreadable landing, never read by a look at the zone, is read by a look
  through a crop two hands across centred on what came (noisy 1006, seat 10).
- A thumb-up landing beside a neighbour's reach, passed over by the thorough look, is read through the
  denoise filter (noisy 1004, seat 8).
- A hand hanging into the zone at its edge, read there, no longer vetoes an unreadable landing touching it
  when its place beside the landing looks as before (noisy 805, seat 6).

Small synthetic frames; the finders are stand-ins that report listed hands (the unit under test is the
watcher's rules, not MediaPipe; the accuracy benchmark runs the real model on noisy renders). The denoise
filter is the real one.
"""

from __future__ import annotations

import numpy as np

from tests.vision.zonefakes import OneZoneFinder, watch_frames
from vision.handfinder import HandSeen
from vision.noise import NOISY_SIGMA, NoiseLevel
from vision.seatwatch import UNSEEN_CONF

NOISY, CLEAN = NoiseLevel(2 * NOISY_SIGMA), NoiseLevel(0.5 * NOISY_SIGMA)
CLOTH = (30, 90, 56)
BROWN = (130, 72, 40)  # skin seen from behind: near the cloth's grey level, far from it in colour
Box = tuple[float, float, float, float]


def _hand(box: Box, gesture: str, inside: float = 1.0) -> HandSeen:
    x0, y0, x1, y1 = box
    return HandSeen(3, gesture, 0.8, 0.8, box, ((x0 + x1) / 2, (y0 + y1) / 2), y0, inside, np.zeros((21, 3)))


def _frame(*blocks: tuple[Box, tuple[int, int, int]]) -> np.ndarray:
    f = np.zeros((300, 300, 3), np.uint8)
    f[:] = CLOTH
    for (x0, y0, x1, y1), colour in blocks:
        f[int(y0) : int(y1), int(x0) : int(x1)] = colour
    return f


def _blocks_at(frame: np.ndarray, colour: tuple[int, int, int]) -> Box | None:
    ys, xs = np.nonzero((frame[100:180, 100:200] == colour).all(axis=2))
    if len(xs) == 0:
        return None
    return (float(xs.min() + 100), float(ys.min() + 100), float(xs.max() + 101), float(ys.max() + 101))


# --- a look at what came


class SmallThumbFinder(OneZoneFinder):
    """No look at the zone reads anything; a look through a crop at most 2.5 hands (30 px) across that holds
    the brown block whole reads it as ``reads``."""

    def __init__(self, reads: str) -> None:
        self.reads = reads
        self.looks: list[float] = []

    def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
        return []

    def look_at(
        self, frame: np.ndarray, seat: int, zone: str, centre: tuple[float, float], side: float
    ) -> list[HandSeen]:
        self.looks.append(side)
        box = _blocks_at(frame, BROWN) if side <= 75 else None
        if box is None:
            return []
        half = side / 2
        whole = centre[0] - half <= box[0] and box[2] <= centre[0] + half
        return [_hand(box, self.reads)] if whole and centre[1] - half <= box[1] <= centre[1] + half else []


THUMB = (150.0, 130.0, 157.0, 142.0)  # 7 × 12 px: what it covers is below an unreadable landing's area


def _thumb_frames(path: list[int | None]) -> list[np.ndarray]:
    x0, y0, x1, y1 = THUMB
    return [_frame() if dx is None else _frame(((x0 + dx, y0, x1 + dx, y1), BROWN)) for dx in path]


THUMB_PATH: list[int | None] = [None] * 5 + [-30, -20, -10, -4] + [0] * 30
THUMB_STILL = 9 * 40  # the first frame of the still picture


def test_a_small_thumb_no_zone_look_reads_is_read_by_a_look_at_what_came() -> None:
    # Failed on 0.34: no look at the zone reads it, and what it covers (0.14 hand lengths squared) is below
    # an unreadable landing's minimum (0.16), so the vote was lost (noisy 1006, seat 10).
    finder = SmallThumbFinder("thumb_up")
    obs = watch_frames(NOISY, _thumb_frames(THUMB_PATH), finder)
    assert [(o.kind, o.seat, o.t, o.gesture) for o in obs] == [("hand_down", 3, THUMB_STILL, "thumb_up")]
    assert finder.looks == [60.0]  # one look, two hands across, found it plainly


def test_the_look_at_what_came_keeps_only_voting_shapes() -> None:
    assert watch_frames(NOISY, _thumb_frames(THUMB_PATH), SmallThumbFinder("palm")) == []
    assert watch_frames(CLEAN, _thumb_frames(THUMB_PATH), SmallThumbFinder("palm")) == []


def test_the_look_at_what_came_reads_a_vote_on_clean_video_too() -> None:
    # Failed on 0.43, which looked only on noisy video (clean 2139, zone 4: a thumb-up landing against the
    # player's other hand at the zone's edge, never read by a look at the zone, its grey near the cloth's).
    finder = SmallThumbFinder("thumb_up")
    obs = watch_frames(CLEAN, _thumb_frames(THUMB_PATH), finder)
    assert [(o.kind, o.seat, o.t, o.gesture) for o in obs] == [("hand_down", 3, THUMB_STILL, "thumb_up")]
    assert finder.looks == [60.0]


FIST = (146.0, 128.0, 160.0, 142.0)  # 14 × 14 px: hand-sized for an unreadable landing (0.22 hand lengths²)


def _fist_frames(path: list[int | None]) -> list[np.ndarray]:
    x0, y0, x1, y1 = FIST
    return [_frame() if dx is None else _frame(((x0 + dx, y0, x1 + dx, y1), BROWN)) for dx in path]


class InsideFinder(SmallThumbFinder):
    """As SmallThumbFinder, with the share of the hand's landmarks inside the zone given."""

    def __init__(self, reads: str, inside: float) -> None:
        super().__init__(reads)
        self.inside = inside

    def look_at(
        self, frame: np.ndarray, seat: int, zone: str, centre: tuple[float, float], side: float
    ) -> list[HandSeen]:
        seen = super().look_at(frame, seat, zone, centre, side)
        return [_hand(h.box, h.gesture, self.inside) for h in seen]


def test_a_hand_sized_landing_the_look_reads_in_another_shape_is_reported_with_it() -> None:
    # Failed on 0.51 (clean W 2801 and 2819, zone 5: seat 5's thumb-up landed against its other hand; the
    # grey level changed on too little for the grey rule, and both looks read the landing "other" wholly
    # inside: the vote was lost, three rounds with it). Reported with the shape read, for the judge.
    for level in (CLEAN, NOISY):
        obs = watch_frames(level, _fist_frames(THUMB_PATH), InsideFinder("other", 1.0))
        assert [(o.kind, o.seat, o.t, o.gesture) for o in obs] == [("hand_down", 3, THUMB_STILL, "other")]


def test_another_shape_counts_only_wholly_inside_and_hand_sized() -> None:
    # Partly outside the zone: a hand resting across its edge, not a landing.
    assert watch_frames(CLEAN, _fist_frames(THUMB_PATH), InsideFinder("other", 0.8)) == []
    # What came covers less than an unreadable landing's minimum: only a voting shape is taken there (above).
    assert watch_frames(CLEAN, _thumb_frames(THUMB_PATH), InsideFinder("other", 1.0)) == []


def test_a_lying_fist_that_shifts_is_no_landing_though_the_look_reads_a_fist() -> None:
    # A brown fist the landmarker never read lies in the zone and slides 6 px (less than half its width):
    # the look at what it covered reads a fist, but most of its place was the fist before, not the cloth.
    fist = (140.0, 130.0, 154.0, 144.0)
    frames = [_frame(((fist[0] + dx, fist[1], fist[2] + dx, fist[3]), BROWN)) for dx in [0] * 5 + [6] * 30]
    finder = SmallThumbFinder("fist")
    assert watch_frames(NOISY, frames, finder) == []
    assert finder.looks  # the look ran and its reading was turned down


# --- a thumb-up beside a reach, read through the denoise filter

WHITE = (235, 235, 235)
POINT = (104.0, 150.0, 140.0, 162.0)  # the neighbour's pointing hand, reaching in at the zone's bottom left
TOP_THUMB = (170.0, 108.0, 184.0, 128.0)  # the vote, at the top right


class ReachFinder(OneZoneFinder):
    """Every look reads the reach's "point"; only through the denoise filter (the thumb's pixels smooth) is
    the thumb-up read as well."""

    def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
        out = []
        if (frame[156, 120] > 200).all():
            out.append(_hand(POINT, "point"))
        x0, y0, x1, y1 = (int(v) for v in TOP_THUMB)
        thumb = frame[y0 + 3 : y1 - 3, x0 + 3 : x1 - 3].astype(np.float32)
        if float(thumb.mean()) > 90 and float(thumb[..., 0].std()) < 6.0:
            out.append(_hand(TOP_THUMB, "thumb_up"))
        return out


def _reach_frames(level_noise: float) -> list[np.ndarray]:
    rng = np.random.default_rng(9)
    frames = []
    for k in range(40):
        f = _frame() if k < 5 else _frame((POINT, WHITE))
        if k >= 5:
            x0, y0, x1, y1 = (int(v) for v in TOP_THUMB)
            dy = max(0, 8 - k) * 6
            patch = np.array(BROWN, np.float32) + 60.0 + rng.normal(0, level_noise, (y1 - y0, x1 - x0, 3))
            f[y0 - dy : y1 - dy, x0:x1] = np.clip(patch, 0, 255).astype(np.uint8)
        frames.append(f)
    return frames


def test_a_thumb_up_beside_a_reach_is_read_through_the_denoise_filter() -> None:
    # Failed on 0.34: the settle's look and the thorough look for a vote beside it read only the reach
    # (noisy 1004, seat 8), and the thumb-up was found only when the reach left, a second late.
    obs = [o for o in watch_frames(NOISY, _reach_frames(14.0), ReachFinder()) if o.kind == "hand_down"]
    assert sorted((o.gesture, o.t) for o in obs) == [("point", 5 * 40), ("thumb_up", 8 * 40)]


def test_clean_video_gets_no_denoised_look_beside_a_reach() -> None:
    obs = [o for o in watch_frames(CLEAN, _reach_frames(14.0), ReachFinder()) if o.kind == "hand_down"]
    assert [o.gesture for o in obs] == ["point"]


# --- a hand hanging in at the zone's edge beside an unreadable landing

PINK = (225, 190, 170)
EDGE = (150.0, 100.0, 162.0, 118.0)  # fingertips in the zone; the hand hangs in from above (inside 0.57)
FIST = (159.0, 106.0, 179.0, 124.0)  # the unread fist lands over their right edge


class EdgeFinder(OneZoneFinder):
    """The hand at the edge is read wherever it is, 0.57 inside the zone; the fist is never read."""

    def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
        box = _blocks_at(frame, PINK)  # its left part: the fist may lie over its right edge
        if box is None:
            return []
        return [_hand((box[0], box[1] - 12, box[0] + EDGE[2] - EDGE[0], box[3]), "other", inside=0.57)]


def _edge_frames(edge_path: list[int], fist_path: list[int | None]) -> list[np.ndarray]:
    frames = []
    for ex, fx in zip(edge_path, fist_path, strict=True):
        blocks = [((EDGE[0] + ex, EDGE[1], EDGE[2] + ex, EDGE[3]), PINK)]
        if fx is not None:
            blocks.append(((FIST[0] + fx, FIST[1], FIST[2] + fx, FIST[3]), BROWN))
        frames.append(_frame(*blocks))
    return frames


FIST_PATH: list[int | None] = [None] * 5 + [30, 20, 10, 4] + [0] * 40


def test_a_landing_touching_a_hand_lying_at_the_zones_edge_is_found() -> None:
    # Failed on 0.34: the hand read at the edge overlaps the landing and its box changed (the fist covers
    # part of it), so it vetoed the landing; beside the fist its place looks as before: it lay there.
    obs = watch_frames(NOISY, _edge_frames([0] * len(FIST_PATH), FIST_PATH), EdgeFinder())
    assert [(o.kind, o.t, o.conf) for o in obs] == [("hand_down", 9 * 40, UNSEEN_CONF)]
    assert watch_frames(CLEAN, _edge_frames([0] * len(FIST_PATH), FIST_PATH), EdgeFinder()) == []


def test_a_hand_coming_to_rest_at_the_zones_edge_still_vetoes_what_it_covers() -> None:
    # The hand at the edge is what came (it slides in along the edge): its place changed, and it vetoes.
    path = [-40] * 5 + [-30, -20, -10, -4] + [0] * 40
    assert watch_frames(NOISY, _edge_frames(path, [None] * len(path)), EdgeFinder()) == []
