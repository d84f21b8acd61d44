"""``mafiacam referee BUNDLE [--json]``: derive the game state from a bundle's events.

Bad event lines go to stderr as ``file:line: message`` and the rest is refereed. Exit status 0 on
success, 1 when the bundle (its game.json or rule set) cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from gamelog.bundle import BundleError, load_bundle
from gamelog.referee import referee_bundle
from gamelog.rules import RuleError
from gamelog.summary import summary_text


def add_parser(sub: Any, name: str, help_text: str) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(name, help=help_text, description=help_text)
    p.add_argument("bundle", metavar="BUNDLE", help="the game bundle folder")
    p.add_argument("--json", action="store_true", help="print the derived state as JSON (the contract shape)")
    return p


def run(args: argparse.Namespace) -> int:
    try:
        bundle = load_bundle(args.bundle)
    except (BundleError, OSError) as e:
        print(f"mafiacam referee: {e}", file=sys.stderr)
        return 1
    for bad in bundle.bad_lines:
        print(f"{args.bundle}/{bad.error}", file=sys.stderr)
    for problem in bundle.problems:
        print(f"{args.bundle}/{problem}", file=sys.stderr)
    try:
        state = referee_bundle(bundle)
    except RuleError as e:
        print(f"mafiacam referee: {args.bundle}/game.json: {e}", file=sys.stderr)
        return 1
    if args.json:
        json.dump(state.to_json(), sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(summary_text(state, bundle.game))
    return 0
