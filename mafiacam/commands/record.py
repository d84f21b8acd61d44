"""``mafiacam record``: record a game into a new bundle.

``--no-ui`` records headless until ``--seconds`` pass, the source ends, the disk fills, or Ctrl-C /
SIGTERM (all stop cleanly). With ``--marks-stdin`` each line on standard input is a host mark, either a
bare type (``vote_stop``) or a JSON object (``{"type": "vote_call", "candidate": 7, "round": "main"}``); each
is appended to events.jsonl with the current media time and acknowledged on standard output as
``ack <t> <id> <type>`` once it is on disk. Without ``--no-ui`` the record console (Qt) opens.
"""

from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

from gamelog.events import EventError


def add_parser(sub: Any, name: str, help_text: str) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(name, help=help_text, description=__doc__)
    p.add_argument("--source", help="a camera (index or device), a video file, or 'test'")
    p.add_argument("--out", type=Path, help="the new bundle folder")
    p.add_argument("--seconds", type=float, default=None, help="stop after this many seconds")
    p.add_argument("--no-ui", action="store_true", help="record headless (no console)")
    p.add_argument("--size", default=None, help="frame size WxH (test pattern, camera)")
    p.add_argument("--fps", type=float, default=None, help="frame rate (test pattern, camera)")
    p.add_argument(
        "--speed", type=float, default=1.0, help="file source: playback speed (0: as fast as possible)"
    )
    p.add_argument("--loop", action="store_true", help="file source: start over at the end")
    p.add_argument(
        "--mic", default=None, help="microphone as FORMAT:DEVICE (e.g. alsa:default); 'none' for no audio"
    )
    p.add_argument("--players", type=int, default=10, help="number of seats (default 10)")
    p.add_argument("--segment-seconds", type=float, default=300.0, help="segment length (default 300)")
    p.add_argument("--preset", default="veryfast", help="x264 preset (default veryfast)")
    p.add_argument("--marks-stdin", action="store_true", help="read host marks from standard input")
    p.add_argument("--status-every", type=float, default=5.0, help="print status every N seconds (0: never)")
    p.add_argument("--list-cameras", action="store_true", help="list the cameras and exit")
    return p


def _make_source(args: argparse.Namespace) -> Any:
    from recorder.camera import CameraSource
    from recorder.sources import FileSource, TestPatternSource, parse_size

    size = parse_size(args.size) if args.size else None
    if args.source == "test":
        return TestPatternSource(size or (1280, 720), args.fps or 30.0)
    path = Path(args.source)
    if path.is_file():
        return FileSource(path, speed=args.speed or None, loop=args.loop)
    looks_like_camera = args.source.isdigit() or args.source.startswith(("/dev/video", "video="))
    if looks_like_camera:
        return CameraSource(args.source, size=size, fps=args.fps)
    raise ValueError(
        f"--source {args.source}: no such video file, and not a camera (index, /dev/videoN) or 'test'"
    )


def _microphone(args: argparse.Namespace, live: bool) -> Any:
    from recorder.audio import Microphone, find_microphone

    if args.mic == "none" or not live:
        return None
    if args.mic:
        fmt, _, dev = args.mic.partition(":")
        if not dev:
            raise ValueError(f"--mic {args.mic}: expected FORMAT:DEVICE, e.g. alsa:default")
        return Microphone(fmt, dev)
    return find_microphone()


def _parse_mark(line: str) -> dict[str, Any]:
    line = line.strip()
    if line.startswith("{"):
        obj = json.loads(line)
        if not isinstance(obj, dict):
            raise ValueError("expected a JSON object")
        return obj
    return {"type": line}


def _read_marks(session: Any, stop: threading.Event) -> None:
    for no, line in enumerate(sys.stdin, 1):
        if stop.is_set():
            break
        if not line.strip():
            continue
        try:
            ev = session.mark(_parse_mark(line))
        except (EventError, ValueError) as e:
            print(f"mafiacam record: stdin line {no}: mark refused: {e}", file=sys.stderr, flush=True)
            continue
        except OSError as e:  # the disk is full: say so, never acknowledge
            print(f"mafiacam record: stdin line {no}: mark NOT written: {e}", file=sys.stderr, flush=True)
            continue
        print(f"ack {ev.t} {ev.id} {ev.type}", flush=True)


def _status_line(st: Any) -> str:
    free = f"{st.free_bytes / 1e9:.1f} GB free" if st.free_bytes is not None else "free space unknown"
    return (
        f"[{st.media_ms / 1000:8.1f}s] {st.state}: {st.frames_written} frames, {st.fps:.1f} fps, "
        f"dropped {st.dropped}, {st.bytes_written / 1e6:.1f} MB, "
        f"{len(st.segments)} segment(s), {st.marks} mark(s), {free}"
    )


def run(args: argparse.Namespace) -> int:
    from recorder.camera import list_cameras

    if args.list_cameras:
        cams = list_cameras()
        for c in cams:
            print(f"{c.device}\t{c.name}")
        if not cams:
            print("no cameras found", file=sys.stderr)
        return 0 if cams else 1
    if not args.source or not args.out:
        print("mafiacam record: --source and --out are required", file=sys.stderr)
        return 2
    if not args.no_ui:
        from review_ui.console.launch import run_console

        return run_console(args, _make_source, _microphone)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s: %(message)s")

    from recorder.session import RecorderConfig, RecordingSession
    from recorder.sources import FileSource, SourceError
    from recorder.writer import EncoderSettings

    if (args.out / "game.json").exists():
        print(f"mafiacam record: {args.out}: a bundle already exists here", file=sys.stderr)
        return 1
    try:
        source = _make_source(args)
        mic = _microphone(args, live=not isinstance(source, FileSource))
    except ValueError as e:
        print(f"mafiacam record: {e}", file=sys.stderr)
        return 1
    config = RecorderConfig(
        segment_s=args.segment_seconds, players=args.players, encoder=EncoderSettings(preset=args.preset)
    )
    session = RecordingSession(args.out, source, config, microphone=mic)
    stop = threading.Event()

    def on_signal(signum: int, _frame: object) -> None:
        stop.set()

    old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        try:
            session.start()
        except SourceError as e:
            print(f"mafiacam record: {e}", file=sys.stderr)
            return 1
        print(f"recording {source.name} into {args.out}", file=sys.stderr, flush=True)
        if args.marks_stdin:
            threading.Thread(target=_read_marks, args=(session, stop), name="marks", daemon=True).start()
        t_end = time.monotonic() + args.seconds if args.seconds else None
        next_status = time.monotonic() + args.status_every
        while not stop.is_set() and not session.wait(0.2):
            now = time.monotonic()
            if t_end is not None and now >= t_end:
                break
            if args.status_every and now >= next_status:
                print(_status_line(session.status()), file=sys.stderr, flush=True)
                next_status = now + args.status_every
        final = session.stop("stopped by signal" if stop.is_set() else "stopped")
    finally:
        for s, h in old.items():
            signal.signal(s, h)
    print(_status_line(final), file=sys.stderr)
    print(f"stopped ({final.stop_reason}); bundle: {args.out}", file=sys.stderr)
    for n in final.notices:
        if n.kind not in ("source_back",):
            print(f"  at {n.t_ms / 1000:.1f}s {n.kind}: {n.message}", file=sys.stderr)
    bad = final.stop_reason is not None and final.stop_reason.startswith(
        ("cannot start", "ffmpeg keeps", "writer failed", "reader failed")
    )
    return 1 if bad else 0
