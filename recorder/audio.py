"""Audio inputs the writer adds beside the video: a file's own track, or a microphone via ffmpeg.

The host's voice is the clock of a vote dispute (DESIGN.md), so the recorder keeps audio whenever there
is some. Each input becomes a second ffmpeg input of a segment, shifted to the segment's media time; the
writer interrupts ffmpeg once the segment's video has ended (a file's audio would run on to its end).
``ffmpeg_input`` returns its audio stream (ffmpeg-python).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ffmpeg


@dataclass(frozen=True)
class FileAudio:
    """The audio track of a video file, from ``offset_s`` in the file to its end (a looping file source
    has audio again from the next segment on), read at real speed like the video it goes with."""

    path: Path
    offset_s: float = 0.0

    def ffmpeg_input(self, start_s: float) -> Any:
        # Read at real speed like the video beside it (else a long file's audio runs far ahead), with no
        # initial burst (the sound arrives as a microphone's would: the live check must not hear the future),
        # but catch up at once after a stall: audio that lags makes ffmpeg hold the video back for it.
        kw: dict[str, Any] = {
            "re": None,
            "readrate_initial_burst": 0,
            "readrate_catchup": 50,
            "itsoffset": f"{start_s:.6f}",
            "vn": None,
        }
        if self.offset_s > 0:
            kw["ss"] = f"{self.offset_s:.3f}"
        # An input seek in a file with video may land before the offset and keep the audio before it
        # (correctly timed, but reaching into the previous segment): trim at the segment start.
        return ffmpeg.input(str(self.path), **kw)["a"].filter("atrim", start=f"{start_s:.6f}")

    def describe(self) -> str:
        return f"audio of {self.path}"


@dataclass(frozen=True)
class Microphone:
    """A live microphone: ``fmt`` is ffmpeg's input format (alsa, pulse, dshow, avfoundation)."""

    fmt: str
    device: str

    def ffmpeg_input(self, start_s: float) -> Any:
        return ffmpeg.input(self.device, f=self.fmt, itsoffset=f"{start_s:.6f}")["a"]

    def describe(self) -> str:
        return f"microphone {self.fmt}:{self.device}"


AudioInput = FileAudio | Microphone


def find_microphone(asound: Path = Path("/proc/asound/cards")) -> Microphone | None:
    """A microphone ffmpeg can read on this machine, or None (then the recording has no audio).

    Linux: PulseAudio when a server is reachable, else ALSA's default device when a sound card exists.
    Other systems need a device name (``--mic``), since listing them takes ffmpeg's device probe.
    """
    if not sys.platform.startswith("linux"):
        return None
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    if os.environ.get("PULSE_SERVER") or (runtime and Path(runtime, "pulse", "native").exists()):
        return Microphone("pulse", "default")
    try:
        cards = asound.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    if cards.strip() and "no soundcards" not in cards:
        return Microphone("alsa", "default")
    return None
