"""Small generated test videos whose frames carry their own number in pixels.

Each frame shows a 16-bit frame number as a row of black/white blocks (robust to H.264 at any sane
quality), so a test can check that the decoder returned exactly the frame it asked for.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

import av
import imageio_ffmpeg
import numpy as np

BITS = 16
BLOCK_W = 20  # 16 blocks x 20 px = 320 px
BAND_Y0, BAND_Y1 = 8, 48


def draw_frame(number: int, width: int = 320, height: int = 240) -> np.ndarray:
    """An RGB frame (height, width, 3) uint8 with ``number`` encoded in the top band."""
    y = np.arange(height, dtype=np.int32)[:, None]
    x = np.arange(width, dtype=np.int32)[None, :]
    img = np.empty((height, width, 3), np.uint8)
    img[..., 0] = ((x + number * 3) % 256).astype(np.uint8)
    img[..., 1] = ((y * 2 + number) % 256).astype(np.uint8)
    img[..., 2] = 96
    block_w = width // BITS
    for bit in range(BITS):
        on = (number >> (BITS - 1 - bit)) & 1
        img[BAND_Y0:BAND_Y1, bit * block_w : (bit + 1) * block_w] = 255 if on else 0
    return img


def read_frame_number(image: np.ndarray) -> int:
    """The number :func:`draw_frame` encoded, read back from a decoded RGB frame."""
    w = image.shape[1]
    block_w = w // BITS
    yc = (BAND_Y0 + BAND_Y1) // 2
    value = 0
    for bit in range(BITS):
        xc = bit * block_w + block_w // 2
        patch = image[yc - 6 : yc + 6, xc - 4 : xc + 4].astype(np.int32)
        value = (value << 1) | int(patch.mean() > 127)
    return value


def write_video(
    path: Path,
    n_frames: int = 100,
    fps: int = 25,
    gop: int = 25,
    first_number: int = 0,
    pts_ms: Sequence[int] | None = None,
    width: int = 320,
    height: int = 240,
    bframes: int = 0,
    start_ms: int = 0,
) -> Path:
    """Encode ``n_frames`` numbered frames with H.264 into ``path`` (container from the suffix).

    ``pts_ms`` gives each frame's time in ms (variable frame rate); otherwise frames are 1/fps apart,
    starting at ``start_ms``. ``.mp4`` files are written fragmented (as the recorder does) unless the
    name ends in ``.plain.mp4``.
    """
    options: dict[str, str] = {}
    name = path.name
    if name.endswith(".mp4") and not name.endswith(".plain.mp4"):
        options["movflags"] = "frag_keyframe+empty_moov+default_base_moof"
    container = av.open(str(path), mode="w", options=options)
    try:
        stream = container.add_stream("libx264", rate=fps)
        stream.width = width
        stream.height = height
        stream.pix_fmt = "yuv420p"
        stream.codec_context.time_base = Fraction(1, 1000)
        stream.codec_context.gop_size = gop
        stream.codec_context.max_b_frames = bframes
        stream.options = {
            "preset": "ultrafast" if bframes == 0 else "veryfast",
            "crf": "23",
            "keyint": str(gop),
            "min-keyint": str(gop),
            "scenecut": "0",
            "bframes": str(bframes),
        }
        times = list(pts_ms) if pts_ms is not None else [start_ms + i * 1000 // fps for i in range(n_frames)]
        for i, t in enumerate(times):
            frame = av.VideoFrame.from_ndarray(draw_frame(first_number + i, width, height), format="rgb24")
            frame.pts = int(t)
            frame.time_base = Fraction(1, 1000)
            for packet in stream.encode(frame):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)
    finally:
        container.close()
    return path


def cut_video(src: Path, dst: Path, start_ms: int, length_ms: int) -> None:
    """``length_ms`` of ``src`` from ``start_ms``, re-encoded by the real ffmpeg (no audio) with a keyframe
    every 25 frames, as the recorder writes: a second at the sample game's 25 fps."""
    import subprocess

    times = ["-ss", f"{start_ms / 1000:.3f}", "-i", str(src), "-t", f"{length_ms / 1000:.3f}"]
    codec = ["-an", "-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-g", "25", "-pix_fmt", "yuv420p"]
    ffmpeg = imageio_ffmpeg.get_ffmpeg_exe()
    subprocess.run([ffmpeg, "-v", "error", *times, *codec, str(dst)], check=True)
