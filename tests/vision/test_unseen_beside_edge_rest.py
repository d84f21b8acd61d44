"""A vote the landmarker never reads, landed against the player's rest hand at the zone's edge, is an
unreadable landing, though that hand is then read a little further inside the zone
(``ZoneWatcher._not_what_came``).

Noisy FF 3715, zone 5 at 59.92 s: seat 5's rest palm lay across the zone's far edge (0.62 of its landmarks
inside when the stretch began). The re-vote's thumb-up landed against it and was never read; the palm, read
again with the fist beside it, had 0.76 inside: over TABLE_INSIDE, so 0.64 took it for what came, the
unreadable landing was vetoed, and seat 5's re-vote was lost (four rounds).

Small synthetic frames; the finder is a stand-in that reads only the rest hand (the unit under test is the
watcher's rule).
"""

from __future__ import annotations

import numpy as np

from tests.vision.zonefakes import (
    BG,
    CLEAN,
    NOISY,
    OWN,
    OneZoneFinder,
    edge_rest_frames,
    hand,
    own,
    watch_frames,
)
from vision.handfinder import HandSeen

REST_BOX = (90.0, 120.0, 113.0, 151.0)  # across the zone's left border (x 100)


class Finder(OneZoneFinder):
    """Reads the rest hand only, as a "palm": ``before`` of its landmarks inside the zone while it lies
    alone, ``after`` once something lies against it; never the vote."""

    def __init__(self, after: float, box_after: tuple[float, float, float, float] = REST_BOX) -> None:
        self.after = after
        self.box_after = box_after

    def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
        if tuple(frame[125, 95]) != OWN:
            return []
        against = tuple(frame[160, 120]) == OWN or tuple(frame[5, 5]) == OWN
        if against:
            return [hand("palm", 0.86, self.box_after, self.after)]
        return [hand("palm", 0.86, REST_BOX, 0.6)]


def _frames() -> list[np.ndarray]:
    """The rest hand lies across the border throughout; the vote lands against it at frame 60 (2.4 s)."""
    return edge_rest_frames((135, 165, 104, 134))


def _downs(seen: list) -> list[tuple[str, str, int]]:
    return [x for x in own(seen) if x[0] == "hand_down"]


def test_an_unread_vote_against_the_edge_rest_hand_read_further_inside_is_a_landing() -> None:
    seen = watch_frames(NOISY, _frames(), Finder(after=0.76))
    # fails on 0.64: the rest hand, read 0.76 inside, vetoed the landing
    assert [(k, t) for k, _, t in _downs(seen)] == [("hand_down", 2400)]


def test_the_rest_hand_read_inside_as_before_gives_the_same_landing() -> None:
    """The control: the rest hand read with under TABLE_INSIDE of its landmarks inside, as before 0.65."""
    seen = watch_frames(NOISY, _frames(), Finder(after=0.6))
    assert [(k, t) for k, _, t in _downs(seen)] == [("hand_down", 2400)]


def _shifted() -> list[np.ndarray]:
    """No vote: the rest hand slides 4 px into the zone at frame 60, and is read 0.76 inside from then on
    (told by a pixel outside the zone)."""
    out = []
    for i in range(100):
        f = np.full((300, 300, 3), BG, np.uint8)
        if i < 60:
            f[120:151, 90:113] = OWN
        else:
            f[121:152, 94:117] = OWN
            f[5, 5] = OWN
        out.append(f)
    return out


def test_the_rest_hand_sliding_inside_is_no_landing() -> None:
    """The rest hand itself sliding 4 px in covers a strip beside itself, hand-sized in area, and its place
    inside the zone looks as it did (its trailing side lies outside): only a landing a good part of a hand
    thick (LANDING_THICK) counts against a hand read at the edge, and this strip (0.2) brings none."""
    slid = Finder(after=0.76, box_after=(94.0, 121.0, 117.0, 152.0))
    for level in (NOISY, CLEAN):
        assert _downs(watch_frames(level, _shifted(), slid)) == [], level


class LateFinder(OneZoneFinder):
    """Reads the rest hand only once something lies against it ("other", 0.67 inside, its box taking in the
    cloth up to x 134, as the landmarker's boxes take in some cloth around a hand); never the vote."""

    def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
        against = tuple(frame[160, 120]) == OWN
        return [hand("other", 0.7, (90.0, 120.0, 134.0, 151.0), 0.67)] if against else []


def test_an_unread_vote_against_an_edge_hand_read_only_after_it_is_a_landing() -> None:
    """Noisy GG 3805, zone 5: seat 5's rest hand at the far edge was read ("other" 0.67 inside) only after the
    thumb-up landed against it; under half of its box lay beside the landing (145 of 361 pixels, 4 of them
    changed). Against a landing a good part of a hand thick, LAY_BESIDE_THICK_SHARE of the box left to tell
    is enough: the hand lay there, and the unreadable landing stands."""
    frames = edge_rest_frames((130, 165, 104, 134))  # under half of the read box left to tell
    seen = watch_frames(NOISY, frames, LateFinder())
    # fails on 0.67: the rest hand vetoed the landing
    assert [(k, t) for k, _, t in _downs(seen)] == [("hand_down", 2400)]
