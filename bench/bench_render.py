"""Render speed of tablesim: a ~3-minute 1080p25 game, script → complete bundle.

Prints wall-clock and CPU time of the whole build (sprites, compositing, x264 + AAC encoding), the time per
frame, and a baseline measured in the same run: encoding the scene's static background alone with the same
encoder settings (the floor any rendered video pays). The machine is shared, so CPU time (this process and
its threads) is reported beside wall time.

    .venv/bin/python bench/bench_render.py                      # the sample game's script, 1080p25
    .venv/bin/python bench/bench_render.py --keep sample_videos/sample_game   # also keep the bundle
    .venv/bin/python bench/bench_render.py --script S.json --size 1280x720 --seconds 60
    .venv/bin/python bench/bench_render.py --random 203 --days 10 --length full --seconds 300   # a long game
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

import av

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tablesim.build import Knobs, build, make_scene  # noqa: E402
from tablesim.randomgame import random_script_json  # noqa: E402
from tablesim.render import Renderer  # noqa: E402
from tablesim.scene import CameraKnobs  # noqa: E402
from tablesim.script import parse_script  # noqa: E402


def cpu_seconds() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def baseline(knobs: Knobs, frames: int) -> float:
    """Seconds per frame to encode the static background (+ sensor noise) with the build's encoder."""
    scene = make_scene(knobs)
    renderer = Renderer(scene, knobs.look, seed=0)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "base.mp4"
        t0 = time.perf_counter()
        with av.open(str(path), "w", format="mp4") as box:
            vs = box.add_stream("libx264", rate=Fraction(knobs.fps))
            vs.width, vs.height, vs.pix_fmt = scene.camera.width, scene.camera.height, "yuv420p"
            vs.options = {
                "crf": str(knobs.crf),
                "preset": knobs.preset,
                "x264-params": f"keyint={knobs.fps}:min-keyint={knobs.fps}:scenecut=0:"
                f"threads={knobs.threads}",
            }
            for i in range(frames):
                img = renderer.frame([], i)
                vf = av.VideoFrame.from_ndarray(img, format="rgb24")
                vf.pts = i
                for p in vs.encode(vf):
                    box.mux(p)
            for p in vs.encode(None):
                box.mux(p)
        return (time.perf_counter() - t0) / frames


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--script", default=str(ROOT / "sample_videos" / "sample_game.script.json"))
    ap.add_argument("--size", default="1920x1080")
    ap.add_argument(
        "--seconds", type=float, default=0.0, help="cut the script to its first N seconds (0 = all)"
    )
    ap.add_argument("--random", type=int, metavar="SEED", help="a random game instead of --script")
    ap.add_argument("--days", type=int, default=1, help="days of the --random game")
    ap.add_argument("--length", choices=("short", "full"), default="short", help="pace of the --random game")
    ap.add_argument("--keep", help="keep the bundle in this folder (replaced if present)")
    ap.add_argument("--baseline-frames", type=int, default=250)
    args = ap.parse_args()
    w, h = (int(x) for x in args.size.split("x"))
    knobs = Knobs(camera=CameraKnobs(width=w, height=h))
    if args.random is not None:
        obj = random_script_json(args.random, days=args.days, length=args.length)
        args.script = f"random game, seed {args.random}, {args.days} days, {args.length}"
    else:
        obj = json.loads(Path(args.script).read_text(encoding="utf-8"))
    script = parse_script(obj, file=args.script)
    if args.seconds:
        cut = int(args.seconds * 1000)
        obj["host"] = [x for x in obj["host"] if x["t"] < cut - 4000]
        obj["seats"] = [x for x in obj["seats"] if x.get("until", x["t"]) < cut - 4000]
        obj["end"] = cut
        script = parse_script(obj, file=args.script)

    base = baseline(knobs, args.baseline_frames)
    out = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench-render-")) / "bundle"
    cpu0, t0 = cpu_seconds(), time.perf_counter()
    res = build(script, out, knobs, overwrite=True)
    wall, cpu = time.perf_counter() - t0, cpu_seconds() - cpu0
    size = sum(p.stat().st_size for p in out.iterdir())
    per_frame = wall / res.frames
    print(f"script: {args.script} ({res.duration_ms / 1000:.1f} s of game, {res.frames} frames at {w}x{h})")
    print(f"build wall time: {wall:.1f} s ({wall / 60:.2f} min); CPU time {cpu:.1f} s")
    print(f"render+encode: {res.render_seconds:.1f} s; per frame {per_frame * 1000:.1f} ms wall")
    print(f"baseline (static background + noise, same encoder): {base * 1000:.1f} ms/frame")
    print(f"ratio build/baseline per frame: {per_frame / base:.2f}")
    game_s = res.duration_ms / 1000
    print(
        f"real-time factor: {game_s / wall:.2f}x; "
        f"a 3-minute game projected: {180 / game_s * wall / 60:.1f} min"
    )
    print(f"bundle size: {size / 1e6:.1f} MB")
    load = Path("/proc/loadavg").read_text().split()[:3] if Path("/proc/loadavg").exists() else []
    print(f"load average at the end: {' '.join(load)}")
    if not args.keep:
        shutil.rmtree(out.parent, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
