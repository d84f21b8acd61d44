"""``mafiacam import VIDEO --out BUNDLE``: a bundle from a game a club already filmed.

The video is copied into the new bundle (``--link`` keeps it where it is, by absolute path), a
``game.json`` is written with seats 1..N, and a seat layout is proposed from a frame of the video
(:mod:`vision.layout_helper`). Then ``mafiacam analyze BUNDLE --no-marks`` finds the hands and proposes
vote windows and shooting rounds for a judge to confirm.
"""

from __future__ import annotations

import argparse
import datetime as dt
import shutil
import sys
from pathlib import Path
from typing import Any


def add_parser(sub: Any, name: str, help_text: str) -> None:
    p = sub.add_parser(name, help=help_text, description=__doc__)
    p.add_argument("video", help="the recording (any format ffmpeg reads: mp4, mkv, mov...)")
    p.add_argument("--out", required=True, help="the bundle folder to create")
    p.add_argument("--seats", type=int, default=10)
    p.add_argument("--rules", default="federation")
    p.add_argument("--link", action="store_true", help="refer to the video where it is instead of copying it")
    p.add_argument("--at", type=float, default=None, help="take the layout proposal's frame at this second")


def run(args: argparse.Namespace) -> int:
    from gamelog.bundle import GameInfo, create_bundle
    from gamelog.layout import Layouts, write_layout
    from vision.layout_helper import LayoutProposalError, propose_layout
    from vision.video import VideoError, VideoTimeline

    src = Path(args.video).resolve()
    out = Path(args.out)
    if not src.is_file():
        print(f"mafiacam import: {src}: no such file", file=sys.stderr)
        return 1
    if out.exists() and any(out.iterdir()):
        print(f"mafiacam import: {out} exists and is not empty", file=sys.stderr)
        return 1
    try:
        timeline = VideoTimeline([src], index=False)
        duration = timeline.duration_ms
        at_ms = int(args.at * 1000) if args.at is not None else min(duration // 10, 600_000)
        frame = timeline.frame_at(timeline.start_ms + at_ms).image
    except (VideoError, OSError, ValueError) as e:
        print(f"mafiacam import: {src}: cannot read the video: {e}", file=sys.stderr)
        return 1
    started = dt.datetime.fromtimestamp(src.stat().st_mtime - duration / 1000, tz=dt.UTC).astimezone()
    names = [f"Seat {i}" for i in range(1, args.seats + 1)]
    out.mkdir(parents=True, exist_ok=True)
    video_ref = str(src) if args.link else src.name
    info = GameInfo.new(
        names, rules=args.rules, started_at=started.isoformat(timespec="seconds"), video=(video_ref,)
    )
    create_bundle(out, info)
    if not args.link:
        shutil.copy2(src, out / src.name)
    try:
        layout = propose_layout(frame, seats=args.seats)
        write_layout(out / "layout.json", Layouts((layout,)))
        note = "a proposed seat layout (check it: mafiacam record's calibration, or edit layout.json)"
    except LayoutProposalError as e:
        note = f"no layout proposed ({e}); draw the seats before analysing"
    print(f"{out}: {duration / 60000:.1f} min of video; {note}")
    print(f"next: mafiacam analyze {out} --no-marks")
    return 0
