"""``mafiacam analyze BUNDLE``: vision over the bundle's video into ``vision.jsonl``."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def add_parser(sub: Any, name: str, help_text: str) -> None:
    p = sub.add_parser(name, help=help_text, description=help_text)
    p.add_argument("bundle", help="the game bundle folder")
    p.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    p.add_argument("--no-resume", action="store_true", help="ignore results cached by an interrupted run")
    p.add_argument("--no-marks", action="store_true", help="ignore host marks (analyse as an old recording)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument(
        "--spot-words",
        action="store_true",
        help="propose vote_stop / shot_call marks from the host's voice templates (docs/VOICE.md)",
    )


def run(args: argparse.Namespace) -> int:
    from gamelog.bundle import BundleError
    from vision.analyzer import AnalyzeError, analyze, progress_printer

    try:
        report = analyze(
            args.bundle,
            workers=max(1, args.workers),
            progress=None if args.quiet else progress_printer(),
            resume=not args.no_resume,
            use_marks=not args.no_marks,
            spot_words=args.spot_words,
        )
    except (AnalyzeError, BundleError) as e:
        print(f"mafiacam analyze: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(
            "\nmafiacam analyze: interrupted; finished stretches are kept, run again to resume",
            file=sys.stderr,
        )
        return 130
    for w in report.warnings:
        print(f"warning: {w}", file=sys.stderr)
    for d in report.damaged:
        print(f"damaged video: {d}", file=sys.stderr)
    print(
        f"{report.events} vision events ({report.proposed} proposed windows) from "
        f"{report.duration_ms / 1000:.1f} s of video in {report.wall_s:.1f} s "
        f"({report.speed:.1f}x real time; {report.stretches} stretches, {report.cached} from cache)"
    )
    return 0
