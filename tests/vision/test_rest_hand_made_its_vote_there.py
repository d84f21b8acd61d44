"""A vote put down against the player's resting hand, which the settle read together with that hand as one
relaxed hand, is a landing when the look after the settle reads it as a vote on a place that changed
(``ZoneWatcher._made_there``).

Noisy NN 4505, zone 4 at 59.64 s: seat 4's thumb-up came down against the lower edge of its resting palm,
18 px from the palm's centre. The settle read an "other" 0.58 13 px from the palm and took it for the palm;
every look after read "thumb_up" 0.66-0.69 wholly inside the zone, on a place 0.41 of which had changed, and
0.72 passed over it as the resting hand: the vote, and four rounds, were lost.

Small synthetic frames; the finder is a stand-in (the unit under test is the watcher's rule).
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.zonefakes import BG, CLEAN, NOISY, OWN, OneZoneFinder, hand, own, watch_frames
from vision.handfinder import HandSeen
from vision.noise import NoiseLevel

REST = (140, 130, 165, 152)  # the palm at rest, throughout
VOTE = (140, 141, 165, 161)  # the thumb-up, over the palm's lower half
BOTH = (140, 130, 165, 161)  # the two read as one


def _painted(frame: np.ndarray, box: tuple[int, int, int, int]) -> bool:
    x0, y0, x1, y1 = box
    return bool(np.all(frame[y0:y1, x0:x1] == OWN))


class Finder(OneZoneFinder):
    """Reads the palm alone as a "palm"; the palm with the thumb-up against it as one "other" at a first look,
    and at a thorough one the thumb-up alone, "thumb_up" 0.68 (``vote_read``: else the two as one "other"
    then too)."""

    def __init__(self, *, vote_read: bool = True) -> None:
        self.vote_read = vote_read

    def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
        if _painted(frame, BOTH):
            if thorough and self.vote_read:
                return [hand("thumb_up", 0.68, VOTE, 1.0)]
            return [hand("other", 0.58, BOTH, 1.0)]
        if _painted(frame, REST):
            return [hand("palm", 0.67, REST, 1.0)]
        return []


def _frames(*, comes: bool = True) -> list[np.ndarray]:
    """The palm rests throughout; from frame 30 (1.2 s) the thumb-up comes up from below the zone, 8 px a
    frame, and from frame 35 (1.4 s) lies against the palm (``comes``)."""
    out = []
    for i in range(100):
        f = np.full((300, 300, 3), BG, np.uint8)
        x0, y0, x1, y1 = REST
        f[y0:y1, x0:x1] = OWN
        if comes and i >= 30:
            x0, y0, x1, y1 = VOTE
            dy = max(0, 35 - i) * 8
            f[y0 + dy : y1 + dy, x0:x1] = OWN
        out.append(f)
    return out


def test_a_thumb_up_against_the_rest_hand_read_as_one_with_it_is_a_landing() -> None:
    got = own(watch_frames(NOISY, _frames(), Finder()))
    assert [(k, g) for k, g, _ in got] == [("hand_down", "thumb_up")]
    assert 1400 <= got[0][2] <= 1600  # timed when the picture became still, not when the look read it


def test_a_hand_only_ever_read_relaxed_there_is_no_vote() -> None:
    seen = own(watch_frames(NOISY, _frames(), Finder(vote_read=False)))
    assert [k for k, g, _ in seen if g != "other"] == []


@pytest.mark.parametrize("level", [NOISY, CLEAN], ids=["noisy", "clean"])
def test_a_rest_hand_that_did_not_move_is_no_landing_whatever_a_look_reads(level: NoiseLevel) -> None:
    class Misreads(Finder):
        def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
            if not _painted(frame, REST):
                return []
            return [hand("thumb_up" if thorough else "palm", 0.68, REST, 1.0)]

    frames = _frames(comes=False)
    for i, f in enumerate(frames[30:45]):  # something passing across the zone's top, beside the hand
        f[100:112, 100 + 6 * i : 130 + 6 * i] = (200, 200, 200)
    assert own(watch_frames(level, frames, Misreads())) == []


def test_a_rest_hand_shifting_in_place_and_read_as_a_thumb_up_is_no_landing() -> None:
    # A striped rest hand moves 4 px down and 3 px right: most of its box changes (the stripes moved), but
    # little of it was cloth before, so nothing came onto the table (MADE_CLOTH_SHARE).
    shifted = (REST[0] + 3, REST[1] + 4, REST[2] + 3, REST[3] + 4)

    def paint(f: np.ndarray, box: tuple[int, int, int, int]) -> None:
        x0, y0, x1, y1 = box
        f[y0:y1, x0:x1] = OWN
        f[y0:y1:3, x0:x1] = (150, 110, 90)  # creases, every third row

    class Shifts(OneZoneFinder):
        def find(self, frame: np.ndarray, seat: int, zone: str, *, thorough: bool = False) -> list[HandSeen]:
            x0, y0 = shifted[:2]
            if tuple(frame[y0 + 1, x0 + 1]) == OWN and tuple(frame[y0, x0]) != OWN:
                return [hand("thumb_up" if thorough else "other", 0.68, shifted, 1.0)]
            return [hand("palm", 0.67, REST, 1.0)]

    frames = []
    for i in range(100):
        f = np.full((300, 300, 3), BG, np.uint8)
        paint(f, shifted if i >= 32 else REST)
        frames.append(f)
    assert own(watch_frames(CLEAN, frames, Shifts())) == []
