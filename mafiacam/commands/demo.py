"""``mafiacam demo``: the main job on the bundled sample game.

Copies the sample game (``sample_videos/sample_game``) to a working folder, analyses its video, fuses the
detections with the host's marks, runs the referee, prints the game summary, writes the score sheet, the
referee's JSON and a report (with the sample's ground truth, round by round), then opens the review
window on it. ``--headless`` (or no display) stops after the report.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_videos" / "sample_game"
FALLBACK = ROOT / "examples" / "full-game"
COPY_SKIP = (".analysis", "vision.jsonl", "audio.jsonl")


def add_parser(sub: Any, name: str, help_text: str) -> None:
    p = sub.add_parser(name, help=help_text, description=__doc__)
    p.add_argument(
        "--headless", action="store_true", help="print the summary and write the report; no window"
    )
    p.add_argument("--out", default="out/demo", help="folder for the working copy and the report (out/demo)")
    p.add_argument("--bundle", help="run on this bundle instead of the bundled sample game")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--lang", choices=("ru", "en"), default="ru", help="score sheet language")


def has_display() -> bool:
    if os.environ.get("QT_QPA_PLATFORM", "") in ("offscreen", "minimal"):
        return False
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) or sys.platform in (
        "darwin",
        "win32",
    )


def _fresh_copy(src: Path, dst: Path) -> None:
    """A working copy of the sample (the committed one is never written to). Analysis results already in
    the copy are kept, so a second demo run reuses them."""
    dst.mkdir(parents=True, exist_ok=True)
    for item in src.iterdir():
        if item.name in COPY_SKIP:
            continue
        target = dst / item.name
        if item.is_dir():
            shutil.copytree(item, target, dirs_exist_ok=True)
        elif (
            not target.exists()
            or target.stat().st_mtime < item.stat().st_mtime
            or target.stat().st_size != item.stat().st_size
        ):
            shutil.copy2(item, target)


def run(args: argparse.Namespace) -> int:
    from gamelog.bundle import BundleError, load_bundle
    from gamelog.exports import chain_status, export_score_sheet
    from gamelog.referee import referee_bundle
    from gamelog.summary import summary_text

    out = Path(args.out).resolve()
    src = Path(args.bundle).resolve() if args.bundle else SAMPLE
    if not (src / "game.json").exists():
        if args.bundle:
            print(f"mafiacam demo: {src / 'game.json'} not found", file=sys.stderr)
            return 1
        print(
            f"mafiacam demo: the sample game is missing ({SAMPLE}); refereeing the hand-entered example "
            f"{FALLBACK} instead",
            file=sys.stderr,
        )
        src = FALLBACK
    work = out / src.name
    _fresh_copy(src, work)
    timings: dict[str, float] = {}
    analysis: dict[str, Any] | None = None
    try:
        game = load_bundle(work).game
    except BundleError as e:
        print(f"mafiacam demo: {e}", file=sys.stderr)
        return 1
    if game.video:
        from vision.analyzer import AnalyzeError, analyze, progress_printer

        t0 = time.monotonic()
        try:
            rep = analyze(work, workers=max(1, args.workers), progress=progress_printer())
        except AnalyzeError as e:
            print(f"mafiacam demo: {e}", file=sys.stderr)
            return 1
        timings["analyse_s"] = time.monotonic() - t0
        analysis = {
            "events": rep.events,
            "video_s": rep.duration_ms / 1000,
            "wall_s": rep.wall_s,
            "speed_x": round(rep.speed, 2),
            "cached_stretches": rep.cached,
            "damaged": rep.damaged,
        }
    t1 = time.monotonic()
    bundle = load_bundle(work)
    for bad in bundle.bad_lines:
        print(f"warning: {bad}", file=sys.stderr)
    state = referee_bundle(bundle)
    state_json = state.to_json()
    timings["referee_s"] = time.monotonic() - t1
    summary = summary_text(state, bundle.game)
    print(summary)
    (out / "referee.json").write_text(json.dumps(state_json, ensure_ascii=False, indent=1), encoding="utf-8")
    chain = chain_status(work)
    sheet = export_score_sheet(
        bundle.game,
        bundle.events,
        state_json,
        lang=args.lang,
        chain_head=chain.head,
        chain_status=chain.status,
        chain_detail=chain.detail,
    )
    (out / "score_sheet.html").write_text(sheet, encoding="utf-8")
    report = _report(work, state_json, summary, analysis, timings)
    (out / "report.md").write_text(report, encoding="utf-8")
    print(f"\nwritten: {out / 'report.md'}, {out / 'score_sheet.html'}, {out / 'referee.json'}")
    if args.headless or not has_display():
        if not args.headless:
            print("no display: not opening the review window (use a desktop session, or --headless)")
        return 0
    try:
        from review_ui.app import run_review
    except ImportError as e:
        print(f"mafiacam demo: the review window cannot start: {e}", file=sys.stderr)
        return 1
    return int(run_review(work))


def _report(
    work: Path,
    state: dict[str, Any],
    summary: str,
    analysis: dict[str, Any] | None,
    timings: dict[str, float],
) -> str:
    lines = ["# mafiacam demo report", "", f"Bundle: `{work}`", ""]
    if analysis:
        lines += [
            "## Analysis",
            "",
            f"- {analysis['events']} vision events from {analysis['video_s']:.1f} s of video in "
            f"{analysis['wall_s']:.1f} s ({analysis['speed_x']}x real time; "
            f"{analysis['cached_stretches']} stretches reused from an earlier run)",
        ]
        lines += [f"- damaged video: {d}" for d in analysis["damaged"]]
        lines.append("")
    truth_file = work / "truth.json"
    if truth_file.exists():
        from tablesim.compare import compare

        truth = json.loads(truth_file.read_text(encoding="utf-8"))
        cmp = compare(truth.get("expected", truth), state)
        lines += [
            "## Against the sample's ground truth",
            "",
            f"{cmp.matched} of {cmp.total} rounds match exactly; winner "
            f"{'matches' if cmp.winner_ok else 'differs'}.",
            "",
        ]
        lines += [f"- {line}" for line in cmp.lines()]
        lines.append("")
    for key in ("disagreements", "needs_review", "violations"):
        items = state.get(key) or []
        if items:
            lines += [f"## {key.replace('_', ' ').capitalize()} ({len(items)})", ""]
            lines += [f"- {json.dumps(i, ensure_ascii=False)}" for i in items]
            lines.append("")
    lines += [
        "## Game summary",
        "",
        "```",
        summary,
        "```",
        "",
        "Timings: " + ", ".join(f"{k} {v:.2f}" for k, v in timings.items()),
        "",
    ]
    return "\n".join(lines)
