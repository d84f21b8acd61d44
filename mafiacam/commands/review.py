"""``mafiacam review BUNDLE``: the review window on a game bundle."""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any

_TIME = re.compile(r"^(?:(\d+):)?(?:(\d+):)?(\d+(?:\.\d+)?)$")


def parse_time(text: str) -> int:
    """``HH:MM:SS.mmm``, ``MM:SS.mmm``, ``SS.mmm`` or plain milliseconds (``123456ms``) → ms."""
    t = text.strip()
    if t.endswith("ms"):
        return int(t[:-2])
    m = _TIME.match(t)
    if not m:
        raise argparse.ArgumentTypeError(f"not a time: {text!r} (use HH:MM:SS.mmm or NNNms)")
    a, b, s = m.groups()
    h, mnt = (int(a), int(b)) if b is not None else (0, int(a or 0))
    return round(((h * 60 + mnt) * 60 + float(s)) * 1000)


def add_parser(sub: Any, name: str, help_text: str) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(name, help=help_text, description=help_text)
    p.add_argument("bundle", type=Path, help="the game bundle folder")
    p.add_argument(
        "--lang", choices=("ru", "en"), help="UI language (default: MAFIACAM_LANG, else the saved one)"
    )
    p.add_argument("--at", type=parse_time, metavar="TIME", help="open at this media time (HH:MM:SS.mmm)")
    p.add_argument(
        "--screenshot", type=Path, metavar="PNG", help="save the window to PNG once the video shows, and exit"
    )
    return p


def run(args: argparse.Namespace) -> int:
    from review_ui.app import run as run_review

    return run_review(args.bundle, lang=args.lang, at_ms=args.at, screenshot=args.screenshot)
