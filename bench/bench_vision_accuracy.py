"""Accuracy of vision + fusion on synthetic games: per-seat votes, timing, shots, and whole rounds.

For each seed: ``mafiacam sim --random --seed N`` renders a short game (1080p, life-size hands unless told
otherwise), ``mafiacam analyze`` finds the hands, and the referee reads host marks + vision. Reported:

* per-seat ``hand_down`` precision and recall inside the marked vote windows, and the share timed within one
  frame of the truth; ``shot_raise`` recall with the right seat;
* the exact-match rate of whole vote rounds (voters, late, defaulted) and nights (shots, kill, miss)
  against ``truth.json``'s expected outcome;

with Wilson 95% intervals. Bundles are kept in ``--work`` so a re-run only re-analyses.

    .venv/bin/python bench/bench_vision_accuracy.py --seeds 201-220 [--knobs noisy] [--work /tmp/acc]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchstats import wilson  # noqa: E402

from gamelog.bundle import load_bundle  # noqa: E402
from gamelog.jsonl import read_events  # noqa: E402
from gamelog.referee import referee_bundle  # noqa: E402
from tablesim.compare import compare  # noqa: E402
from tablesim.evaluate import KINDS, KindScore, score  # noqa: E402
from vision.schedule import dense_spans  # noqa: E402

KNOBS = {
    "clean": [],
    "noisy": ["--noise", "6", "--blur", "1.2", "--crf", "32", "--jpeg", "60"],
}


def seeds(spec: str) -> list[int]:
    out: list[int] = []
    for part in spec.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def run(cmd: list[str]) -> None:
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", default="201-220")
    ap.add_argument("--knobs", choices=sorted(KNOBS), default="clean")
    ap.add_argument("--size", default="1920x1080")
    ap.add_argument("--hand-scale", default="1.0")
    ap.add_argument("--work", default="/tmp/mafiacam-acc")
    ap.add_argument("--reanalyse", action="store_true")
    args = ap.parse_args()
    exe = str(ROOT / ".venv" / "bin" / "mafiacam")
    work = Path(args.work)
    totals = {k: KindScore() for k in KINDS}
    rounds_ok = rounds_n = 0
    wall_analyse = video_s = 0.0
    calls = 0
    failures: list[str] = []
    for seed in seeds(args.seeds):
        b = work / f"{args.knobs}-{args.size}-{args.hand_scale}-{seed}"
        if not (b / "truth.json").exists():
            run(
                [
                    exe,
                    "sim",
                    "--random",
                    "--seed",
                    str(seed),
                    "--out",
                    str(b),
                    "--overwrite",
                    "--quiet",
                    "--size",
                    args.size,
                    "--hand-scale",
                    args.hand_scale,
                    *KNOBS[args.knobs],
                ]
            )
        if args.reanalyse or not (b / "vision.jsonl").exists():
            t0 = time.monotonic()
            run([exe, "analyze", str(b), "--quiet", "--no-resume"])
            wall_analyse += time.monotonic() - t0
        report = b / ".analysis" / "report.json"
        if report.exists():
            calls += int(json.loads(report.read_text()).get("landmarker_calls", 0))
        truth = json.loads((b / "truth.json").read_text())
        video_s += truth["duration_ms"] / 1000
        bundle = load_bundle(b)
        marks = [e for e in bundle.events if e.src == "host"]
        wins = [(s, e) for s, e, _ in dense_spans(marks)]
        sc = score(truth, read_events(b / "vision.jsonl").events, windows=wins)
        for k, v in sc.items():
            totals[k].add(v)
            failures += [f"seed {seed}: {k} missed: {m}" for m in v.misses]
            failures += [f"seed {seed}: {k} false: {m}" for m in v.false]
        cmp = compare(truth["expected"], referee_bundle(bundle).to_json())
        rounds_ok += cmp.matched
        rounds_n += cmp.total
        bad = [r for r in cmp.rounds if not r.ok]
        failures += [f"seed {seed}: {r.where}: {'; '.join(r.diffs)}" for r in bad]
        print(
            f"seed {seed}: rounds {cmp.matched}/{cmp.total}; votes P {sc['hand_down'].precision:.3f} "
            f"R {sc['hand_down'].recall:.3f}; shots R {sc['shot_raise'].recall:.3f}",
            flush=True,
        )
    hd, sr = totals["hand_down"], totals["shot_raise"]
    within = sum(abs(o) <= 1 for o in hd.offsets_frames)
    print()
    print(f"knobs {args.knobs}, {args.size}, hand scale {args.hand_scale}, seeds {args.seeds}")
    lo, hi = wilson(hd.tp, hd.tp + hd.fp)
    print(f"vote hands: precision {hd.precision:.4f} [{lo:.3f}, {hi:.3f}] ({hd.tp}/{hd.tp + hd.fp})")
    lo, hi = wilson(hd.tp, hd.tp + hd.fn)
    print(f"vote hands: recall    {hd.recall:.4f} [{lo:.3f}, {hi:.3f}] ({hd.tp}/{hd.tp + hd.fn})")
    lo, hi = wilson(within, len(hd.offsets_frames))
    print(f"vote timing within one frame: {within}/{len(hd.offsets_frames)} [{lo:.3f}, {hi:.3f}]")
    lo, hi = wilson(sr.tp, sr.tp + sr.fn)
    print(f"shots with the right seat: {sr.tp}/{sr.tp + sr.fn} [{lo:.3f}, {hi:.3f}] (false {sr.fp})")
    rc = totals["reach"]
    print(f"reaches into a neighbour's zone, seen as the reacher's: {rc.tp}/{rc.tp + rc.fn} (false {rc.fp})")
    lo, hi = wilson(rounds_ok, rounds_n)
    print(f"rounds matching the truth exactly: {rounds_ok}/{rounds_n} [{lo:.3f}, {hi:.3f}]")
    if wall_analyse:
        print(f"analysis: {video_s:.0f} s of video in {wall_analyse:.0f} s")
    print(f"landmarker calls (last analysis of each seed): {calls}")
    for f in failures[:80]:
        print("  ", f)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
