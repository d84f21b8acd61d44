"""``mafiacam verify BUNDLE``: check the bundle's hash chain and sealed files.

Prints ``OK`` and the chain head (the value printed on score sheets), or each problem on its own line.
Exit status: 0 only when intact, 1 when something recorded was changed, inserted, deleted or is missing,
2 on usage errors (no such folder, a malformed ``--expect-head``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from gamelog.manifest import SealError, seal, verify

_DESCRIPTION = (
    "Check a bundle's hash chain and sealed files. Prints OK and the chain head, or each problem. "
    "Exit status: 0 intact, 1 changed or missing, 2 usage error."
)


def add_parser(sub: Any, name: str, help_text: str) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(name, help=help_text, description=_DESCRIPTION)
    p.add_argument("bundle", help="the game bundle folder")
    p.add_argument(
        "--expect-head",
        metavar="HEX",
        help="a head printed earlier (score sheet); at least 8 hex digits. Lines appended since are allowed",
    )
    p.add_argument(
        "--seal", action="store_true", help="seal the bundle first (chain a hand-made log, hash the video)"
    )
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    return p


def run(args: argparse.Namespace) -> int:
    bundle = Path(args.bundle)
    if not bundle.is_dir():
        print(f"mafiacam verify: {bundle}: no such bundle folder", file=sys.stderr)
        return 2
    expect = args.expect_head
    if expect is not None and (
        len(expect.strip()) < 8 or any(c not in "0123456789abcdefABCDEF" for c in expect.strip())
    ):
        print(f"mafiacam verify: --expect-head {expect!r}: give at least 8 hex digits", file=sys.stderr)
        return 2
    if args.seal:
        try:
            seal(bundle)
        except SealError as e:
            print(f"mafiacam verify: {e}", file=sys.stderr)
            return 1
        except Exception as e:  # BundleError and file errors: name them, do not trace back
            print(f"mafiacam verify: {bundle}: cannot seal: {e}", file=sys.stderr)
            return 1
    try:
        report = verify(bundle, expect_head=expect)
    except OSError as e:  # an unreadable file: name it, it is not a verdict on the content
        print(f"mafiacam verify: {bundle}: cannot read {e.filename or ''}: {e.strerror}", file=sys.stderr)
        return 1
    if args.json:
        out = {
            "ok": report.ok,
            "head": report.head,
            "problems": report.problems,
            "notes": report.notes,
            "lines": report.lines,
            "segments": report.segments,
            "sealed": report.sealed,
            "matched_line": report.matched_line,
        }
        print(json.dumps(out, ensure_ascii=False, indent=1))
    elif report.ok:
        sealed = f", {report.segments} video segments sealed" if report.sealed else ", not sealed"
        print(f"OK {report.head}")
        print(f"  events.jsonl: {report.lines} lines chained{sealed}")
        for n in report.notes:
            print(f"  note: {n}")
    else:
        for prob in report.problems:
            print(prob)
        for n in report.notes:
            print(f"note: {n}")
    if not report.ok:
        count = len(report.problems)
        plural = "s" if count != 1 else ""
        print(f"mafiacam verify: {bundle}: NOT intact ({count} problem{plural})", file=sys.stderr)
        return 1
    return 0
