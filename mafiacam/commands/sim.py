"""``mafiacam sim``: make a synthetic game bundle (video with the host's voice, layout, host marks, truth).

mafiacam sim SCRIPT.json --out BUNDLE [knobs]
mafiacam sim --random --seed N --out BUNDLE [--days D] [--length short|full] [knobs]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def add_parser(sub: Any, name: str, help_text: str) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(name, help=help_text, description=__doc__)
    p.add_argument("script", nargs="?", help="game script (JSON, tablesim/1); omit with --random")
    p.add_argument("--out", required=True, help="bundle folder to create")
    p.add_argument("--random", action="store_true", help="a seeded random legal game instead of a script")
    p.add_argument("--seed", type=int, default=1, help="seed of the random game (default 1)")
    p.add_argument("--days", type=int, default=1, help="days in a random game (default 1)")
    p.add_argument("--length", choices=("short", "full"), default="short", help="short: compressed speeches")
    p.add_argument("--write-script", metavar="FILE", help="also save the random game's script here")
    p.add_argument("--overwrite", action="store_true", help="replace a non-empty --out folder")
    g = p.add_argument_group("camera and image")
    g.add_argument("--size", default="1920x1080", help="frame size WxH (default 1920x1080)")
    g.add_argument("--fps", type=int, default=25)
    g.add_argument("--elevation", type=float, default=38.0, help="camera angle below the horizon (degrees)")
    g.add_argument("--distance", type=float, default=4.3, help="camera distance to the table (m)")
    g.add_argument("--focal", type=float, default=22.0, help="focal length, 35 mm equivalent")
    g.add_argument("--hand-scale", type=float, default=1.0, help="hand size (1 = life size)")
    g.add_argument("--fidget", type=float, default=0.0, help="idle shifts of each resting hand per minute")
    g.add_argument("--light", type=float, default=1.0, help="brightness gain")
    g.add_argument("--noise", type=float, default=1.5, help="sensor noise sigma (8-bit levels)")
    g.add_argument("--blur", type=float, default=0.6, help="Gaussian blur sigma (px)")
    g.add_argument("--jpeg", type=int, default=0, help="JPEG round trip quality per frame (0 = off)")
    g.add_argument("--crf", type=int, default=24, help="x264 CRF (quality; higher = smaller)")
    g.add_argument("--preset", default="ultrafast", help="x264 preset")
    g.add_argument(
        "--fast-render",
        action="store_true",
        help="long games: still one-second stretches are encoded once and copied (other pixels, same truth)",
    )
    a = p.add_argument_group("sound")
    a.add_argument("--room-noise", type=float, default=-52.0, help="room noise level, dBFS (-99 = off)")
    a.add_argument("--murmur", type=float, default=-40.0, help="murmur of other voices, dBFS (-99 = off)")
    a.add_argument("--speech", type=float, default=-24.0, help="players' speeches, dBFS (-99 = off)")
    p.add_argument("--quiet", action="store_true")
    return p


def knobs_from_args(args: argparse.Namespace) -> Any:
    from tablesim.audio import AudioKnobs
    from tablesim.build import Knobs
    from tablesim.render import LookKnobs
    from tablesim.scene import CameraKnobs

    try:
        w, h = (int(x) for x in str(args.size).lower().split("x"))
    except ValueError:
        raise ValueError(f"--size must look like 1920x1080, got {args.size!r}") from None
    return Knobs(
        camera=CameraKnobs(
            width=w, height=h, elevation=args.elevation, distance=args.distance, focal_mm=args.focal
        ),
        look=LookKnobs(light=args.light, noise=args.noise, blur=args.blur, jpeg=args.jpeg),
        audio=AudioKnobs(noise_db=args.room_noise, murmur_db=args.murmur, speech_db=args.speech),
        fps=args.fps,
        hand_scale=args.hand_scale,
        fidget=args.fidget,
        crf=args.crf,
        preset=args.preset,
        fast_render=bool(getattr(args, "fast_render", False)),
    )


def run(args: argparse.Namespace) -> int:
    from tablesim.audio import AudioError
    from tablesim.build import build
    from tablesim.randomgame import random_script_json
    from tablesim.script import ScriptError, load_script, parse_script

    try:
        knobs = knobs_from_args(args)
        if args.random:
            if args.script:
                print("mafiacam sim: give a SCRIPT or --random, not both", file=sys.stderr)
                return 2
            obj = random_script_json(args.seed, days=args.days, length=args.length)
            if args.write_script:
                Path(args.write_script).write_text(
                    json.dumps(obj, ensure_ascii=False, indent=1) + "\n", "utf-8"
                )
            script = parse_script(obj, file=f"<random game, seed {args.seed}>")
        elif args.script:
            script = load_script(args.script)
        else:
            print("mafiacam sim: give a SCRIPT or --random", file=sys.stderr)
            return 2

        def progress(i: int, n: int) -> None:
            if not args.quiet:
                print(f"\rrendering frame {i}/{n}", end="" if i < n else "\n", file=sys.stderr, flush=True)

        res = build(script, args.out, knobs, progress=progress, overwrite=args.overwrite)
    except (ScriptError, ValueError, FileExistsError, AudioError) as e:
        print(f"mafiacam sim: {e}", file=sys.stderr)
        return 1
    exp = res.truth["expected"]
    if not args.quiet:
        print(
            f"{res.bundle}: {res.frames} frames ({res.duration_ms / 1000:.1f} s) in {res.seconds:.1f} s; "
            f"winner {exp['winner']}, alive {exp['alive']}"
        )
    return 0
