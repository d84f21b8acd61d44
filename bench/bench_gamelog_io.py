"""Bundle I/O benchmark: reading and writing event logs, and verifying the hash chain.

    .venv/bin/python bench/bench_gamelog_io.py      # 3,000 host lines, 50,000 vision lines, 64 MiB video
    .venv/bin/python bench/bench_gamelog_io.py --vision 5000 --video-mib 8   # quick

Each figure is printed with a baseline measured in the same run on the same data, and their ratio:
- reading: ``read_events`` (validate every line, keep good ones) vs bare ``json.loads`` per line;
- derived write: ``write_events_replace`` (validates each event by a round trip) vs serialising the same
  events without validation (``json.dumps`` per event) and one write + fsync;
- live append: ``EventWriter.append`` (validate, write, fsync, chain entry + fsync) per event vs a bare
  ``write`` + ``fsync`` of the same line (the writer fsyncs twice per event: the line, then its chain entry);
- verify: ``verify`` of a sealed bundle vs ``hashlib.sha256`` over the same files.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gamelog.bundle import GameInfo, create_bundle  # noqa: E402
from gamelog.events import Event, Foul, HandDown, HandUp, Nominate, Vote, event_to_json  # noqa: E402
from gamelog.jsonl import EventWriter, event_line, read_events, write_events_replace  # noqa: E402
from gamelog.manifest import seal, verify  # noqa: E402


def host_events(n: int, rnd: random.Random) -> list[Event]:
    out: list[Event] = []
    for i in range(n):
        t = 1000 * i
        k = i % 3
        if k == 0:
            out.append(
                Nominate(t=t, src="host", by=rnd.randint(1, 10), target=rnd.randint(1, 10), id=f"h{i}")
            )
        elif k == 1:
            out.append(
                Vote(t=t, src="host", seat=rnd.randint(1, 10), candidate=rnd.randint(1, 10), id=f"h{i}")
            )
        else:
            out.append(Foul(t=t, src="judge", seat=rnd.randint(1, 10), reason="knocking", id=f"h{i}"))
    return out


def vision_events(n: int, rnd: random.Random) -> list[Event]:
    out: list[Event] = []
    for i in range(n):
        seat, t = rnd.randint(1, 10), 40 * i
        if i % 2:
            box = (rnd.uniform(0, 900), rnd.uniform(0, 500), rnd.uniform(900, 1900), rnd.uniform(500, 1000))
            out.append(
                HandDown(t=t, src="vision", seat=seat, gesture="thumb_up", conf=0.9, box=box, id=f"vis:{i}")
            )
        else:
            out.append(HandUp(t=t, src="vision", seat=seat, conf=0.8, id=f"vis:{i}"))
    return out


def timed(fn: object, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()  # type: ignore[operator]
        best = min(best, time.perf_counter() - t0)
    return best


def row(name: str, ours: float, base: float, unit: str = "s") -> None:
    print(f"{name:<44} {ours:10.4f} {unit}   baseline {base:10.4f} {unit}   ratio {ours / base:6.2f}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", type=int, default=3000)
    ap.add_argument("--vision", type=int, default=50000)
    ap.add_argument("--appends", type=int, default=200)
    ap.add_argument("--video-mib", type=int, default=64)
    a = ap.parse_args()
    rnd = random.Random(1)
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        vis = vision_events(a.vision, rnd)
        vpath = tmp / "vision.jsonl"
        data = b"".join(event_line(e) + b"\n" for e in vis)

        def bare_write() -> None:
            blob = "".join(json.dumps(event_to_json(e), ensure_ascii=False) + "\n" for e in vis).encode()
            with open(tmp / "bare.jsonl", "wb") as f:
                f.write(blob)
                f.flush()
                os.fsync(f.fileno())

        row(
            f"write_events_replace ({a.vision} vision lines)",
            timed(lambda: write_events_replace(vpath, vis)),
            timed(bare_write),
        )
        lines = data.split(b"\n")[:-1]
        ours = timed(lambda: read_events(vpath))
        base = timed(lambda: [json.loads(x) for x in lines])
        row(f"read_events ({a.vision} vision lines)", ours, base)
        print(f"{'':<44} {a.vision / ours:10.0f} lines/s")

        # Live appends: per-event latency, with fsync.
        hosts = host_events(a.host, rnd)
        w = EventWriter(tmp / "events.jsonl")
        lat = []
        for ev in hosts[: a.appends]:
            t0 = time.perf_counter()
            w.append(ev)
            lat.append(time.perf_counter() - t0)
        w.close()
        raw = [event_line(e) + b"\n" for e in hosts[: a.appends]]
        blat = []
        with open(tmp / "bare_events.jsonl", "ab") as f:
            for r in raw:
                t0 = time.perf_counter()
                f.write(r)
                f.flush()
                os.fsync(f.fileno())
                blat.append(time.perf_counter() - t0)
        med, bmed = statistics.median(lat), statistics.median(blat)
        row(f"EventWriter.append median ({a.appends} events)", med * 1000, bmed * 1000, "ms")
        p99 = sorted(lat)[int(0.99 * (len(lat) - 1))]
        bp99 = sorted(blat)[int(0.99 * (len(blat) - 1))]
        row("EventWriter.append p99", p99 * 1000, bp99 * 1000, "ms")

        # Verify a sealed bundle with a full host log and a video file.
        b = create_bundle(tmp / "game", GameInfo.new([f"p{i}" for i in range(10)], video=("video.mkv",)))
        with EventWriter(b / "events.jsonl") as w2:
            for ev in hosts:
                w2.append(ev)
        with open(b / "video.mkv", "wb") as f:
            for _ in range(a.video_mib):
                f.write(rnd.randbytes(1 << 20))
        seal(b)

        def bare_hash() -> None:
            for name in ("game.json", "video.mkv", "events.jsonl"):
                hashlib.sha256((b / name).read_bytes()).hexdigest()

        ours = timed(lambda: verify(b))
        assert verify(b).ok
        row(f"verify ({a.host} lines, {a.video_mib} MiB video)", ours, timed(bare_hash))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
