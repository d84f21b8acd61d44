"""The ``mafiacam`` command: one subcommand per job (see docs and CONTRACT).

Each subcommand lives in its own module under ``mafiacam/commands/`` with ``add_parser(sub)`` and
``run(args) -> int``. A subcommand whose module is not there yet answers "not available yet" with exit
status 2, so scripts can tell "not built" from "failed".
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# name -> (module under mafiacam.commands, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("demo", "the main job on the bundled sample game"),
    "referee": ("referee", "derive the game state from a bundle's events"),
    "verify": ("verify", "check a bundle's hash chain"),
    "export": ("export", "score sheet (HTML) or rating-site JSON"),
    "analyze": ("analyze", "run vision and audio analysis over a bundle's video"),
    "gesture": ("gesture", "classify hand gestures in images"),
    "record": ("record", "record a game into a new bundle"),
    "import": ("import_video", "make a bundle from an existing recording"),
    "review": ("review", "open the review window"),
    "sim": ("sim", "make a synthetic game bundle"),
    "archive": ("archive", "the club archive"),
}


def _load(name: str) -> object | None:
    module, _ = SUBCOMMANDS[name]
    try:
        return importlib.import_module(f"mafiacam.commands.{module}")
    except ModuleNotFoundError as e:
        if e.name == f"mafiacam.commands.{module}":
            return None
        raise


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mafiacam", description="Camera referee for sports Mafia.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (_, help_text) in SUBCOMMANDS.items():
        mod = _load(name)
        if mod is not None and hasattr(mod, "add_parser"):
            mod.add_parser(sub, name, help_text)
        else:
            p = sub.add_parser(name, help=f"{help_text} (not available yet)")
            p.add_argument("rest", nargs=argparse.REMAINDER)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help(sys.stderr)
        return 2
    mod = _load(args.command)
    if mod is None or not hasattr(mod, "run"):
        print(f"mafiacam {args.command}: not available yet in this version", file=sys.stderr)
        return 2
    try:
        rc = mod.run(args)
    except KeyboardInterrupt:
        print(f"mafiacam {args.command}: interrupted", file=sys.stderr)
        return 130
    return int(rc or 0)
