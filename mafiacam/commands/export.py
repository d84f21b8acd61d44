"""``mafiacam export BUNDLE --format sheet|mafiaratings [--lang ru|en] [--out FILE]``.

Loads the bundle, runs the referee over its events, and prints the score sheet (HTML, one A4 page) or
the mafiaratings.com game JSON to stdout, or writes it to ``--out`` (atomically: a failed export never
leaves half a file, and never touches the bundle). The sheet carries the head of the bundle's hash
chain; when the chain does not verify (or a hand-entered log was never chained), the sheet says so in
place of the head and a warning goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from gamelog.bundle import BundleError, load_bundle
from gamelog.exports import (
    SCORINGS,
    ExportError,
    chain_status,
    export_mafiaratings,
    export_score_sheet,
    parse_scoring,
)
from gamelog.referee import referee_bundle

FORMATS = ("sheet", "mafiaratings")


def add_parser(sub: Any, name: str, help_text: str) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(name, help=help_text, description=__doc__)
    p.add_argument("bundle", help="the game bundle folder")
    p.add_argument("--format", choices=FORMATS, default="sheet", help="sheet (HTML, default) or mafiaratings")
    p.add_argument("--lang", choices=("ru", "en"), default="ru", help="sheet labels / game language (ru)")
    p.add_argument("--out", help="write here instead of stdout")
    p.add_argument(
        "--scoring",
        default="showtime",
        help=f"sheet points: {', '.join(SCORINGS)}, or RED_WIN,BLACK_WIN[,LOSS[,DISQUALIFIED]] (showtime)",
    )
    for opt in ("club-id", "event-id", "tournament-id", "game-id", "moderator-id"):
        p.add_argument(f"--{opt}", type=int, help=f"mafiaratings.com {opt.replace('-', ' ')}")
    return p


def _fail(msg: str) -> int:
    print(f"mafiacam export: {msg}", file=sys.stderr)
    return 1


def _write(out: str, text: str) -> None:
    target = Path(out)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, 0o644)  # mkstemp makes it private; an exported sheet is meant to be shared
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def run(args: argparse.Namespace) -> int:
    path = Path(args.bundle)
    try:
        bundle = load_bundle(path)
    except BundleError as e:
        return _fail(str(e))
    for problem in bundle.problems:
        print(f"mafiacam export: warning: {path}: {problem}", file=sys.stderr)
    for bad in bundle.bad_lines:
        print(f"mafiacam export: warning: {bad}", file=sys.stderr)
    state = referee_bundle(bundle).to_json()
    try:
        if args.format == "sheet":
            chain = chain_status(path)
            for problem in chain.problems:
                print(f"mafiacam export: warning: {path}: {problem}", file=sys.stderr)
            text = export_score_sheet(
                bundle.game,
                bundle.events,
                state,
                lang=args.lang,
                scoring=parse_scoring(args.scoring),
                chain_head=chain.head,
                chain_status=chain.status,
                chain_detail=chain.detail,
            )
        else:
            record = export_mafiaratings(
                bundle.game,
                bundle.events,
                state,
                language=args.lang,
                club_id=args.club_id,
                event_id=args.event_id,
                tournament_id=args.tournament_id,
                game_id=args.game_id,
                moderator_id=args.moderator_id,
            )
            if "winner" not in record:
                print(f"mafiacam export: warning: {path}: the game has no winner yet", file=sys.stderr)
            text = json.dumps(record, ensure_ascii=False, indent=2) + "\n"
    except ExportError as e:
        return _fail(f"{path}: {e}")
    if args.out:
        try:
            _write(args.out, text)
        except OSError as e:
            return _fail(f"{args.out}: {e.strerror or e}")
    else:
        sys.stdout.write(text)
    return 0
