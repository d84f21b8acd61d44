"""Generated game bundles with numbered video for the player tests, and helpers to read what is shown."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QImage

from gamelog.bundle import GameInfo, create_bundle
from review_ui.decoder_worker import DecoderWorker
from review_ui.main_window import MainWindow
from tests.vision.media import read_frame_number, write_video
from vision.video import VideoTimeline


def qimage_number(image: QImage) -> int:
    """The frame number drawn into a generated frame, read from a QImage."""
    img = image.convertToFormat(QImage.Format.Format_RGB888)
    w, h = img.width(), img.height()
    buf = np.frombuffer(img.constBits(), np.uint8, count=img.sizeInBytes()).reshape(h, img.bytesPerLine())
    return read_frame_number(buf[:, : w * 3].reshape(h, w, 3))


def make_bundle(root: Path, n_frames: int = 250, damage: bool = False) -> Path:
    bundle = root / "game"
    info = GameInfo.new([f"Игрок {i}" for i in range(1, 11)], video=("video/seg-0000.mkv",), table="A")
    create_bundle(bundle, info)
    (bundle / "video").mkdir(exist_ok=True)
    path = write_video(bundle / "video" / "seg-0000.mkv", n_frames=n_frames)
    if damage:
        data = bytearray(path.read_bytes())
        mid = len(data) // 2
        data[mid : mid + 20_000] = np.random.default_rng(4).integers(0, 256, 20_000, dtype=np.uint8).tobytes()
        path.write_bytes(bytes(data))
    return bundle


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_bundle(tmp_path_factory.mktemp("bundle"))


@pytest.fixture
def settings(tmp_path: Path) -> QSettings:
    return QSettings(str(tmp_path / "review.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def worker(qtbot: object, bundle: Path) -> Iterator[DecoderWorker]:
    video = bundle / "video" / "seg-0000.mkv"
    w = DecoderWorker(lambda on_change: VideoTimeline(video, on_change=on_change))
    yield w
    w.stop()


def close_window(window: MainWindow) -> None:
    window.close()
