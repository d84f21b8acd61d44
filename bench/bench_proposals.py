"""Windows proposed without host marks (``mafiacam analyze --no-marks``) against the marks the host made.

An old recording, or one where the host marked nothing, is analysed with ``--no-marks``: the analyser scans
the whole video sparsely and proposes ``proposed_window`` events where several seats' hands land together
(a vote) or hands are raised (a shooting round), for a judge to confirm. This bench takes bundles that *do*
have host marks, copies each (video, layout, game, marks) to ``--work``, analyses the copy with
``--no-marks`` and scores the proposals against the marks:

* a **vote window** (a ``vote_call`` to its ``vote_stop``) is *covered* when one ``vote`` proposal contains
  the whole of it, *touched* when one overlaps it;
* a **shooting round** (a night's first to last ``shot_call``, plus the 2 s a shot may take after the last
  number) likewise with ``shooting`` proposals;
* a **false proposal** overlaps no marked window of its kind.

    .venv/bin/python bench/bench_proposals.py sample_videos/sample_game /tmp/acc/clean-1920x1080-1.0-301 ...

``--repropose`` analyses nothing: it takes the copies' ``vision.jsonl`` as analysed, drops their proposals and
proposes again with the current ``propose_windows`` (a replay of a change to the proposal rules; the dense
re-analysis inside the first proposals is the old one's).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchstats import wilson  # noqa: E402

from gamelog.events import Day, Event, Night, ProposedWindow, ShotCall, VoteCall, VoteStop  # noqa: E402
from gamelog.jsonl import read_events  # noqa: E402
from vision.analyzer import propose_windows  # noqa: E402

SHOT_TAIL_MS = 2000
COPY = ("video.mp4", "layout.json", "game.json", "events.jsonl", "events.jsonl.chain", "truth.json")


@dataclass
class Score:
    windows: int = 0
    covered: int = 0
    touched: int = 0
    proposals: int = 0
    false: int = 0


def marked_windows(events: list[Event]) -> dict[str, list[tuple[int, int]]]:
    """The host's vote windows (call → Спасибо) and shooting rounds (first → last number of a night)."""
    ev = sorted(events, key=lambda e: e.t)
    votes: list[tuple[int, int]] = []
    call: int | None = None
    for e in ev:
        if isinstance(e, VoteCall):
            call = e.t
        elif isinstance(e, VoteStop) and call is not None:
            votes.append((call, e.t))
            call = None
    shots: list[tuple[int, int]] = []
    calls: list[int] = []
    for e in [*ev, Night(t=10**12, src="host", n=-1)]:
        if isinstance(e, ShotCall):
            calls.append(e.t)
        elif isinstance(e, Day | Night | VoteCall) and calls:
            shots.append((calls[0], calls[-1] + SHOT_TAIL_MS))
            calls = []
    return {"vote": votes, "shooting": shots}


def score(marked: list[tuple[int, int]], proposed: list[tuple[int, int]]) -> tuple[Score, list[str]]:
    s = Score(windows=len(marked), proposals=len(proposed))
    notes: list[str] = []
    for a, b in marked:
        if any(p <= a and b <= q for p, q in proposed):
            s.covered += 1
        elif any(p < b and a < q for p, q in proposed):
            s.touched += 1
            notes.append(f"window {a / 1000:.1f}–{b / 1000:.1f} s only partly covered")
        else:
            notes.append(f"window {a / 1000:.1f}–{b / 1000:.1f} s not proposed")
    for p, q in proposed:
        if not any(p < b and a < q for a, b in marked):
            s.false += 1
            notes.append(f"false proposal {p / 1000:.1f}–{q / 1000:.1f} s")
    return s, notes


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("bundles", nargs="+", type=Path, help="bundles with host marks")
    ap.add_argument("--work", type=Path, default=Path("/tmp/mafiacam-proposals"))
    ap.add_argument("--reanalyse", action="store_true")
    ap.add_argument("--repropose", action="store_true", help="no analysis: propose again from vision.jsonl")
    args = ap.parse_args()
    exe = str(ROOT / ".venv" / "bin" / "mafiacam")
    totals = {"vote": Score(), "shooting": Score()}
    video_s = wall = 0.0
    for src in args.bundles:
        dst = args.work / src.resolve().name
        if not args.repropose and (args.reanalyse or not (dst / "vision.jsonl").exists()):
            shutil.rmtree(dst, ignore_errors=True)
            dst.mkdir(parents=True)
            for name in COPY:
                if (src / name).exists():
                    shutil.copy2(src / name, dst / name)
            t0 = time.monotonic()
            subprocess.run([exe, "analyze", str(dst), "--no-marks", "--no-resume", "--quiet"], check=True)
            wall += time.monotonic() - t0
        marks = [e for e in read_events(dst / "events.jsonl").events if e.src == "host"]
        vision = read_events(dst / "vision.jsonl").events
        duration = max((e.t for e in vision), default=0) + 60_000  # a proposal's end is cut at the video's
        if (dst / "truth.json").exists():
            duration = json.loads((dst / "truth.json").read_text())["duration_ms"]
            video_s += duration / 1000
        if args.repropose:
            seen = [e for e in vision if not isinstance(e, ProposedWindow)]
            vision = seen + propose_windows(seen, duration)
        wins = marked_windows(marks)
        parts = []
        for kind in ("vote", "shooting"):
            props = [(p.t, p.until) for p in vision if isinstance(p, ProposedWindow) and p.kind == kind]
            s, notes = score(wins[kind], props)
            t = totals[kind]
            t.windows += s.windows
            t.covered += s.covered
            t.touched += s.touched
            t.proposals += s.proposals
            t.false += s.false
            parts.append(f"{kind} {s.covered}/{s.windows} covered, {s.touched} partly, {s.false} false")
            for n in notes:
                print(f"   {src.name}: {kind}: {n}")
        print(f"{src.name}: " + "; ".join(parts), flush=True)
    print()
    for kind, t in totals.items():
        lo, hi = wilson(t.covered, t.windows)
        print(
            f"{kind}: {t.covered}/{t.windows} wholly covered [{lo:.3f}, {hi:.3f}], {t.touched} partly; "
            f"{t.false} of {t.proposals} proposals false"
        )
    if wall:
        print(f"analysis without marks: {video_s:.0f} s of video in {wall:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
