"""A raise the night pass saw by the arm is kept only where the landmarker read no raise by that seat near it
(``vision.analyzer._arms_unread``)."""

from __future__ import annotations

from gamelog.events import HeadUp, ShotRaise
from vision.analyzer import ARM_NEAR_MS, _arms_unread
from vision.seatwatch import Observation


def _arm(seat: int, t: int) -> ShotRaise:
    return ShotRaise(
        t=t,
        src="vision",
        id=f"vis:shot_raise:{seat}:{t}:arm:0.10",
        seat=seat,
        gesture="other",
        conf=0.3,
        box=(600.0, 290.0, 641.0, 352.0),
        extra={"seen_by": "arm", "until": t + 480},
    )


def _gun(seat: int, t: int) -> Observation:
    return Observation("shot_raise", seat, seat, t, 0.95, "gun", (600.0, 290.0, 630.0, 330.0))


def test_an_arm_raise_the_landmarker_missed_is_kept() -> None:
    """Blind noisy FF 3711: seat 7's gun read on no frame of its rise or hold; seats 3 and 6 read."""
    head = HeadUp(t=70000, src="vision", id="h4", seat=4, until=71000, conf=0.99)
    night = [head, _arm(3, 73640), _arm(6, 73480), _arm(7, 73800)]
    kept = [_gun(3, 73640), _gun(6, 73520)]
    assert _arms_unread(night, kept) == [head, _arm(7, 73800)]


def test_the_landmarkers_raise_stands_where_it_has_one() -> None:
    """The same seat's raise read within ARM_NEAR_MS takes the arm's place, whichever side; another seat's
    raise, or the same seat's further off, does not."""
    arm = _arm(7, 73800)
    for dt in (-ARM_NEAR_MS, -200, 0, 300, ARM_NEAR_MS):
        assert _arms_unread([arm], [_gun(7, 73800 + dt)]) == [], dt
    assert _arms_unread([arm], [_gun(8, 73800)]) == [arm]
    assert _arms_unread([arm], [_gun(7, 73800 + ARM_NEAR_MS + 40)]) == [arm]
    hand_down = Observation("hand_down", 7, 7, 73800, 0.9, "thumb_up", (0.0, 0.0, 5.0, 5.0))
    assert _arms_unread([arm], [hand_down]) == [arm]
