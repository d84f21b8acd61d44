"""The player model and the decode worker on a real generated video (25 fps, frame number in pixels)."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QImage
from pytestqt.qtbot import QtBot

from review_ui.decoder_worker import DecoderWorker, ShownFrame, TimelineInfo
from review_ui.player_model import SPEEDS, PlayerModel
from tests.review_ui.conftest import qimage_number

WAIT = 20_000


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def started(qtbot: QtBot, worker: DecoderWorker, clock: FakeClock | None = None) -> PlayerModel:
    model = PlayerModel(worker, clock or FakeClock())
    worker.start()
    qtbot.waitUntil(lambda: model.frame is not None and model.info is not None, timeout=WAIT)
    return model


def shown_number(model: PlayerModel) -> int:
    assert model.frame is not None
    return qimage_number(model.frame.image)


def test_first_frame_and_timeline_facts(qtbot: QtBot, worker: DecoderWorker) -> None:
    model = started(qtbot, worker)
    assert model.position_ms == 0 and shown_number(model) == 0
    qtbot.waitUntil(lambda: model.info is not None and model.info.index_ready, timeout=WAIT)
    assert model.end_ms == 10_000
    assert model.info is not None and model.info.frame_size == (320, 240)
    # the frame on screen gets its number once the index is ready
    qtbot.waitUntil(lambda: model.frame is not None and model.frame.frame_number == 0, timeout=WAIT)


def test_seek_step_and_jump(qtbot: QtBot, worker: DecoderWorker) -> None:
    model = started(qtbot, worker)
    model.seek(4321)
    qtbot.waitUntil(lambda: model.position_ms == 4320, timeout=WAIT)
    assert shown_number(model) == 108
    model.step(1)
    qtbot.waitUntil(lambda: model.position_ms == 4360, timeout=WAIT)
    model.step(-3)
    qtbot.waitUntil(lambda: model.position_ms == 4240, timeout=WAIT)
    assert shown_number(model) == 106
    model.jump(1000)
    model.jump(1000)  # a second jump before the first frame arrives still adds up
    qtbot.waitUntil(lambda: model.position_ms == 6240, timeout=WAIT)
    model.jump(-100_000)
    qtbot.waitUntil(lambda: model.position_ms == 0, timeout=WAIT)


def test_worker_serves_only_the_newest_seek(qtbot: QtBot, worker: DecoderWorker) -> None:
    model = started(qtbot, worker)
    shown: list[ShownFrame] = []
    worker.frame_ready.connect(shown.append)
    for t in range(0, 9000, 90):  # 100 requests in a burst, as a fast scrub would send
        model.seek(t)
    qtbot.waitUntil(lambda: model.position_ms == 8880, timeout=WAIT)
    assert shown_number(model) == 222
    assert len(shown) < 100
    assert shown[-1].pts_ms == 8880


def test_frame_steps_add_up_when_pressed_quickly(qtbot: QtBot, worker: DecoderWorker) -> None:
    model = started(qtbot, worker)
    model.seek(2000)
    for _ in range(7):
        model.step(1)
    qtbot.waitUntil(lambda: model.position_ms == 2280, timeout=WAIT)
    assert shown_number(model) == 57


def test_playback_follows_the_clock_and_skips_rather_than_drifts(qtbot: QtBot, worker: DecoderWorker) -> None:
    clock = FakeClock()
    model = started(qtbot, worker, clock)
    qtbot.waitUntil(lambda: model.info is not None and model.info.index_ready, timeout=WAIT)
    model.play()
    assert model.playing
    clock.now += 1.0
    model.tick()
    qtbot.waitUntil(lambda: model.position_ms == 1000, timeout=WAIT)
    clock.now += 2.5  # the UI stalled: playback jumps to where the clock is, frames in between skipped
    model.tick()
    qtbot.waitUntil(lambda: model.position_ms == 3480, timeout=WAIT)
    model.set_speed(0.5)
    clock.now += 1.0
    model.tick()
    qtbot.waitUntil(lambda: model.position_ms == 4000, timeout=WAIT)
    clock.now += 100.0  # past the end: stops on the last frame
    model.tick()
    assert not model.playing
    qtbot.waitUntil(lambda: model.position_ms == 9960, timeout=WAIT)


def test_jkl_and_speed_steps(qtbot: QtBot, worker: DecoderWorker) -> None:
    clock = FakeClock()
    model = started(qtbot, worker, clock)
    model.seek(5000)
    qtbot.waitUntil(lambda: model.position_ms == 5000, timeout=WAIT)
    model.play_backward()  # J
    assert model.playing and model.direction == -1 and model.speed == 1.0
    clock.now += 1.0
    model.tick()
    qtbot.waitUntil(lambda: model.position_ms == 4000, timeout=WAIT)
    model.play_backward()  # J again: faster
    assert model.speed == 1.25
    model.pause()  # K
    assert not model.playing
    model.play_forward()  # L
    assert model.playing and model.direction == 1
    model.play_forward()
    assert model.speed == 1.5
    for _ in range(10):
        model.faster()
    assert model.speed == SPEEDS[-1] == 2.0
    for _ in range(20):
        model.slower()
    assert model.speed == SPEEDS[0] == 0.1
    model.toggle_play()
    assert not model.playing


class FakeSource(QObject):
    """Stands in for the decoder so the test decides when (and in which order) frames arrive."""

    frame_ready = Signal(object)
    info_changed = Signal(object)

    def __init__(self) -> None:
        super().__init__()
        self.requests: list[tuple[str, int]] = []

    def request_seek(self, t_ms: int) -> int:
        self.requests.append(("seek", t_ms))
        return len(self.requests)

    def request_step(self, frames: int) -> int:
        self.requests.append(("step", frames))
        return len(self.requests)

    def deliver(self, pts_ms: int, request_id: int) -> None:
        image = QImage(8, 8, QImage.Format.Format_RGB888)
        self.frame_ready.emit(ShownFrame(image, pts_ms, None, 0, request_id))


def test_pause_settles_on_the_frame_on_screen() -> None:
    clock = FakeClock()
    source = FakeSource()
    model = PlayerModel(source, clock)
    source.info_changed.emit(TimelineInfo(0, 10_000, 25.0, (8, 8), (), True))
    source.deliver(0, 0)
    model.play()
    clock.now += 0.5
    model.tick()
    assert source.requests[-1] == ("seek", 500)
    model.pause()
    assert source.requests[-1] == ("seek", 0)  # settle where the picture is
    source.deliver(480, 1)  # decoded for the tick before the pause, arriving late
    assert model.position_ms == 0
    source.deliver(0, 2)
    assert model.position_ms == 0 and not model.playing
    model.step(1)
    assert source.requests[-1] == ("step", 1)


def test_a_loop_never_asks_for_a_frame_past_its_end_even_when_the_clock_skips() -> None:
    """A–B loop on a stalled UI: the clock jumps from inside the loop to well past B in one tick; playback
    goes back to A instead of showing a frame after B, and carries on from A."""
    clock = FakeClock()
    source = FakeSource()
    model = PlayerModel(source, clock)
    source.info_changed.emit(TimelineInfo(0, 10_000, 25.0, (8, 8), (), True))
    source.deliver(2000, 0)
    model.set_loop((2000, 2400))
    model.play()
    clock.now += 0.25
    model.tick()
    assert source.requests[-1] == ("seek", 2250)
    clock.now += 0.875  # the UI stalled: the clock says 3125 ms, past B
    model.tick()
    assert source.requests[-1] == ("seek", 2000)
    clock.now += 0.25
    model.tick()
    assert source.requests[-1] == ("seek", 2250)
    model.set_loop(None)
    clock.now += 0.5
    model.tick()
    assert source.requests[-1] == ("seek", 2750)  # no loop: playback runs on past B
