"""The merge of night raise sightings (``vision.analyzer._dedupe``), replayed on recorded sightings.

Analysing a set of noisy games takes a quarter of an hour; the merge that turns the raise zones' sightings
into shots takes milliseconds. ``dump`` runs only the shooting stretches of each game (the raise zones and the
night pass, as ``mafiacam analyze`` does) and writes every raise sighting that reaches the merge (after the
heads are set aside) to a JSON-lines file. ``score`` replays the merge of the working tree on those sightings
and scores the shots against each game's ``truth.json``; ``--against REV`` replays the merge of another
revision on the same sightings in the same run, as the baseline:

    .venv/bin/python bench/bench_raise_merge.py dump --work /tmp/acc --seeds 3300-3319 -o s.jsonl
    .venv/bin/python bench/bench_raise_merge.py score s.jsonl [more.jsonl ...] --against 3c9de1f

A shot is found when the merge keeps a raise by the true seat within 900 ms of the true raise; a raise kept
with no true raise of its seat that near is false. The sightings depend on the analyser's zone watchers and
night pass: dump again after changing those; the replay measures only changes to the merge.
"""

from __future__ import annotations

import argparse
import collections
import json
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_vision_accuracy import KNOBS, seeds  # noqa: E402

from gamelog.bundle import load_bundle  # noqa: E402
from vision import analyzer  # noqa: E402
from vision.schedule import plan, split_for_workers  # noqa: E402
from vision.seatwatch import Observation  # noqa: E402
from vision.video import VideoTimeline  # noqa: E402

NEAR_MS = 900  # a kept raise within this of a true raise by its seat is that raise


def dump(bundles: list[Path], out: Path) -> None:
    """Run the shooting stretches of each bundle and append their raise sightings to ``out``."""
    current: dict[str, Any] = {}
    merge = analyzer._dedupe

    def record(obs: list[Any], layout: Any = None) -> list[Any]:
        with out.open("a", encoding="utf-8") as f:
            for o in obs:
                if o.kind == "shot_raise" and o.box is not None:
                    row = {
                        "bundle": current["bundle"],
                        "stretch": current["stretch"],
                        "t": o.t,
                        "seat": o.seat,
                        "zone": o.zone_seat,
                        "gesture": o.gesture,
                        "conf": round(float(o.conf), 3),
                        "partial": bool(o.partial),
                        "box": [round(float(v), 1) for v in o.box],
                    }
                    f.write(json.dumps(row) + "\n")
        return merge(obs, layout)

    analyzer._dedupe = record  # type: ignore[assignment]
    try:
        for b in bundles:
            bundle = load_bundle(b)
            timeline = VideoTimeline([b / v for v in bundle.game.video])
            marks = [e for e in bundle.events if e.src in ("host", "judge")]
            stretches = split_for_workers(plan(marks, int(timeline.duration_ms) + 1))
            for st in analyzer._cut_at_layouts(stretches, bundle.layout):
                if st.kind != "shooting":
                    continue
                current["bundle"], current["stretch"] = str(b), [st.start, st.end]
                analyzer.run_stretch(str(b), list(bundle.game.video), bundle.layout, st)
            print(f"dumped {b}", flush=True)
    finally:
        analyzer._dedupe = merge  # type: ignore[assignment]


def merge_of(rev: str | None) -> Any:
    """``_dedupe`` and ``_layout_at`` of the working tree, or of revision ``rev`` (its analyzer.py)."""
    if rev is None:
        return analyzer
    src = subprocess.run(
        ["git", "show", f"{rev}:vision/analyzer.py"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    name = f"vision.analyzer_at_{rev}"
    mod = types.ModuleType(name)
    sys.modules[name] = mod
    exec(compile(src, f"{rev}:vision/analyzer.py", "exec"), mod.__dict__)
    return mod


def score(files: list[Path], module: Any) -> tuple[int, int, int, list[str]]:
    """(found, missed, false, notes) of the shots the merge of ``module`` keeps from the sightings."""
    groups: dict[tuple[str, int, int], list[dict[str, Any]]] = collections.defaultdict(list)
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            groups[(row["bundle"], *row["stretch"])].append(row)
    found = missed = false = 0
    notes: list[str] = []
    bundles: dict[str, Any] = {}
    for (b, start, end), rows in sorted(groups.items()):
        if b not in bundles:
            truth = json.loads((Path(b) / "truth.json").read_text(encoding="utf-8"))
            bundles[b] = (load_bundle(b), [h for h in truth["hands"] if h["kind"] == "shot_raise"])
        bundle, raises = bundles[b]
        obs = [
            Observation(
                "shot_raise",
                r["seat"],
                r["zone"],
                r["t"],
                r["conf"],
                r["gesture"],
                tuple(r["box"]),
                r["partial"],
            )
            for r in rows
        ]
        layout = module._layout_at(bundle.layout, start, tuple(bundle.layout.at(start).frame_size))
        try:
            kept = module._dedupe(obs, layout)
        except TypeError:  # a revision before the merge took the layout (0.61)
            kept = module._dedupe(obs)
        kept = [o for o in kept if o.kind == "shot_raise"]
        true = [h for h in raises if start <= h["t"] < end]
        name = Path(b).name
        for h in true:
            if any(o.seat == h["seat"] and abs(o.t - h["t"]) <= NEAR_MS for o in kept):
                found += 1
            else:
                missed += 1
                notes.append(f"{name}: missed seat {h['seat']} at {h['t']} ms")
        for o in kept:
            if not any(o.seat == h["seat"] and abs(o.t - h["t"]) <= NEAR_MS for h in true):
                false += 1
                notes.append(f"{name}: false seat {o.seat} at {o.t} ms ({o.gesture})")
    return found, missed, false, notes


def main() -> int:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump", help="record the raise sightings of rendered games")
    d.add_argument("--work", required=True, help="the folder bench_vision_accuracy.py rendered into")
    d.add_argument("--seeds", required=True)
    d.add_argument("--knobs", choices=sorted(KNOBS), default="noisy")
    d.add_argument("--size", default="1920x1080")
    d.add_argument("--hand-scale", default="1.0")
    d.add_argument("-o", "--out", required=True)
    s = sub.add_parser("score", help="replay the merge on recorded sightings")
    s.add_argument("files", nargs="+")
    s.add_argument("--against", help="a revision whose merge is the baseline")
    args = ap.parse_args()
    if args.cmd == "dump":
        work = Path(args.work)
        names = [work / f"{args.knobs}-{args.size}-{args.hand_scale}-{n}" for n in seeds(args.seeds)]
        missing = [str(b) for b in names if not (b / "truth.json").exists()]
        if missing:
            print("not rendered: " + ", ".join(missing), file=sys.stderr)
            return 2
        dump(names, Path(args.out))
        return 0
    files = [Path(f) for f in args.files]
    runs = [("working tree", None)] + ([(args.against, args.against)] if args.against else [])
    for label, rev in runs:
        found, missed, false, notes = score(files, merge_of(rev))
        print(f"{label}: shots found {found}/{found + missed}, false {false}")
        for n in notes:
            print("   ", n)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
