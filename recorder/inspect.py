"""What a recorded bundle really holds: every segment decoded with PyAV, tolerant of a cut-off end.

Used after a crash (and by the crash tests and the benchmark) to tell how much video survived.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import av


@dataclass(frozen=True)
class SegmentCheck:
    file: str
    frames: int
    first_ms: int | None
    last_ms: int | None
    has_audio: bool
    error: str | None  # why decoding stopped early (a cut-off end), None when the file is whole


def check_segment(path: Path, *, decode: bool = True) -> SegmentCheck:
    """Decode a segment to its end (``decode=False``: only demux). pts are media milliseconds."""
    frames, first, last, audio, error = 0, None, None, False, None
    try:
        with av.open(str(path)) as c:
            if not c.streams.video:
                return SegmentCheck(path.name, 0, None, None, False, "no video stream")
            vs = c.streams.video[0]
            audio = bool(c.streams.audio)
            tb = float(vs.time_base or 0.001) * 1000
            try:
                if decode:
                    items = (f.pts for f in c.decode(vs))
                else:
                    items = (p.pts for p in c.demux(vs) if p.pts is not None)
                for pts in items:
                    if pts is None:
                        continue
                    ms = round(pts * tb)
                    first = ms if first is None else min(first, ms)
                    last = ms if last is None else max(last, ms)
                    frames += 1
            except av.error.FFmpegError as e:
                error = f"decoding stopped after {frames} frames: {e}"
    except (av.error.FFmpegError, OSError) as e:
        error = f"cannot open: {e}"
    return SegmentCheck(path.name, frames, first, last, audio, error)


def check_bundle(bundle: Path, *, decode: bool = True) -> list[SegmentCheck]:
    """Every segment ``game.json`` lists, in order."""
    game = json.loads((bundle / "game.json").read_text(encoding="utf-8"))
    video = game.get("video") or []
    segs = [video] if isinstance(video, str) else list(video)
    return [check_segment(bundle / rel, decode=decode) for rel in segs]
