"""``ZoneWatcher._kept_still`` (a read hand whose landmarks' places show what they showed before: it did not
move) judges clean video in colour as well as in grey: dark skin on the green cloth has nearly the cloth's
grey level (clean PP 4718, zone 5: a vote put down beside the player's rest hand was taken for that hand
lying there since the stretch began). Noisy video keeps the grey rule alone (its colour noise is larger).
"""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision.zonefakes import BG, CLEAN, NOISY, OneZoneFinder
from vision.handfinder import HandSeen
from vision.seatwatch import ZoneWatcher

SKIN = (112, 64, 32)  # dark skin: grey 76 against the cloth's 74, in red 82 levels from it
BOX = (130.0, 120.0, 160.0, 150.0)


def _frame(patch: tuple[int, int, int] | None) -> np.ndarray:
    f = np.zeros((300, 300, 3), np.uint8)
    f[:] = BG
    if patch is not None:
        x0, y0, x1, y1 = (int(v) for v in BOX)
        f[y0:y1, x0:x1] = patch
    return f


def _hand() -> HandSeen:
    # 21 landmarks spread over the box's inside
    xs, ys = np.meshgrid(np.linspace(134, 156, 7), np.linspace(124, 146, 3))
    pts = np.zeros((21, 3), np.float32)
    pts[:, 0], pts[:, 1] = xs.ravel(), ys.ravel()
    return HandSeen(3, "other", 0.5, 0.5, BOX, (145.0, 135.0), BOX[1], 1.0, pts)


def _kept(level: object, before: np.ndarray, now: np.ndarray) -> bool:
    w = ZoneWatcher(OneZoneFinder(), seat=3, zone="table_zone", frame_shape=(300, 300, 3))  # type: ignore[arg-type]
    w.noise = level  # type: ignore[assignment]
    return w._kept_still(_hand(), now, before)


def test_the_skin_has_the_cloths_grey_level() -> None:
    grey = cv2.cvtColor(np.array([[BG, SKIN]], np.uint8), cv2.COLOR_RGB2GRAY)[0]
    assert abs(int(grey[0]) - int(grey[1])) < 14  # PIXEL_DELTA: no change in grey


def test_a_dark_hand_come_onto_the_cloth_moved_on_clean_video() -> None:
    # Failed on 0.81: every landmark's grey was unchanged, so the hand "lay there" and was no landing.
    assert not _kept(CLEAN, _frame(None), _frame(SKIN))


def test_a_hand_lying_still_is_kept_still_in_colour_too() -> None:
    assert _kept(CLEAN, _frame(SKIN), _frame(SKIN))
    assert _kept(NOISY, _frame(SKIN), _frame(SKIN))


def test_noisy_video_keeps_the_grey_rule() -> None:
    assert _kept(NOISY, _frame(None), _frame(SKIN))
