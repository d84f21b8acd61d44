"""Where the model files are, checked against ``models/SHA256SUMS`` before anyone loads them.

The files are build outputs of ``models/build_models.py`` (see ``models/README.md``). A missing or
corrupt file raises :class:`ModelError` whose message says how to rebuild it. ``MAFIACAM_MODELS``
points at another folder with the same layout (``SHA256SUMS`` beside the files).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

HAND_TASK = "hand_landmarker.task"
FACE_DETECTOR = "face_detection_short_range.tflite"
FACE_DETECTOR_FULL_RANGE = "face_detection_full_range_sparse.tflite"
SUMS_FILE = "SHA256SUMS"
REBUILD_HINT = "rebuild it with `python models/build_models.py` (or any `./run ...` command, which builds it)"

# (path, size, mtime_ns) -> sha256, so a long-running process hashes each file once
_hash_cache: dict[tuple[str, int, int], str] = {}


class ModelError(RuntimeError):
    """A model file is missing, unreadable or not the one recorded in SHA256SUMS."""


def models_dir() -> Path:
    env = os.environ.get("MAFIACAM_MODELS")
    if env:
        return Path(env)
    return Path(__file__).resolve().parent.parent / "models"


def _sha256(path: Path) -> str:
    st = path.stat()
    key = (str(path), st.st_size, st.st_mtime_ns)
    if key not in _hash_cache:
        h = hashlib.sha256()
        with path.open("rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        _hash_cache[key] = h.hexdigest()
    return _hash_cache[key]


def _expected_sha256(folder: Path, name: str) -> str:
    sums = folder / SUMS_FILE
    try:
        lines = sums.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise ModelError(f"{sums}: cannot read the model checksums ({e.strerror}); {REBUILD_HINT}") from e
    for line in lines:
        digest, _, file = line.partition("  ")
        if file.lstrip("*") == name:
            return digest.strip().lower()
    raise ModelError(f"{sums}: no checksum recorded for {name}")


def model_path(name: str, folder: Path | None = None) -> Path:
    """The checked path of model file ``name`` in ``folder`` (default: the project's ``models/``)."""
    folder = models_dir() if folder is None else folder
    path = folder / name
    if not path.is_file():
        raise ModelError(f"model file {path} is missing; {REBUILD_HINT}")
    want = _expected_sha256(folder, name)
    try:
        have = _sha256(path)
    except OSError as e:
        raise ModelError(f"model file {path} is unreadable ({e.strerror}); {REBUILD_HINT}") from e
    if have != want:
        raise ModelError(
            f"model file {path} is corrupt or not the expected build (SHA-256 {have[:12]}…, "
            f"expected {want[:12]}…); {REBUILD_HINT}"
        )
    return path


def hand_model_path(folder: Path | None = None) -> Path:
    """The MediaPipe hand landmarker bundle (full palm detector + full landmark model)."""
    return model_path(HAND_TASK, folder)


def face_model_path(folder: Path | None = None, *, full_range: bool = False) -> Path:
    """A face detector that ``mediapipe.tasks.python.vision.FaceDetector`` loads directly.

    Short range (BlazeFace, faces within about 2 m of the camera) by default; ``full_range`` gives
    the sparse full-range model meant for faces up to about 5 m away.
    """
    return model_path(FACE_DETECTOR_FULL_RANGE if full_range else FACE_DETECTOR, folder)
