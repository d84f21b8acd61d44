"""The console's live double-check, its accuracy alone: the sample game's frames fed to
:class:`review_ui.console.live_check.LiveVision` as the recorder's tap would, without real-time pressure.

The 30-minute recorder soak (``bench_recorder.py``) measures the live check as a host meets it, on a
loaded machine, where frames can be dropped when vision falls behind. This bench takes time out of it:
every frame of each vote window (and the pre-roll before it) is offered, and the next is offered only
when vision has caught up, so a wrong count is vision's reading, not a starved queue. It compares the
tap widths the console could use, in the same run:

* the count and the voters vision reports after each «Спасибо» against the truth (voters who placed a
  hand before «Спасибо», without the seats defaulted to the last candidate);
* vision's time per tap frame inside the windows (what the live check needs of a core).

    .venv/bin/python bench/bench_live_count.py --widths 1280,1920 [--bundle BUNDLE...]  # default: the sample
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import av  # noqa: E402
import cv2  # noqa: E402
from benchstats import wilson  # noqa: E402

from gamelog.events import VoteCall, VoteCount, VoteStop, parse_event  # noqa: E402
from gamelog.layout import read_layout  # noqa: E402
from gamelog.referee import referee  # noqa: E402
from gamelog.rules import rules_for  # noqa: E402
from recorder.pcmtap import PcmTap  # noqa: E402
from recorder.tap import TapFrame  # noqa: E402
from review_ui.console.live_check import LiveResult, LiveVision  # noqa: E402
from vision.onsets import read_audio  # noqa: E402

LEAD_MS = 2000  # frames offered before each call (the pre-roll keeps the last PRE_ROLL of them)


def truth_rounds(truth: dict[str, Any]) -> list[tuple[int, frozenset[int]]]:
    """(candidate, seats that placed a hand before «Спасибо») per vote round, in game order."""
    out = []
    for day in truth["expected"]["days"]:
        for v in day["votes"]:
            out.append((v["candidate"], frozenset(v["voters"]) - frozenset(v["defaulted"])))
    return out


def run_width(bundle: Path, width: int, *, sound: bool = True) -> dict[str, Any]:
    marks = [json.loads(x) for x in (bundle / "events.jsonl").read_text(encoding="utf-8").splitlines() if x]
    evs = [parse_event(m) for m in marks]
    rules = rules_for("federation")
    seats = tuple(range(1, 11))
    layout = read_layout(bundle / "layout.json", seats=10).layouts[-1]
    results: list[LiveResult] = []
    got = threading.Event()

    def on_result(r: LiveResult) -> None:
        results.append(r)
        got.set()

    clock = [0.0]  # the media time of the newest frame offered: no sound from after it is heard
    pcm = None
    audio = read_audio([bundle / "video.mp4"]) if sound else None
    if audio is not None:
        pcm = PcmTap(keep_s=1e6, now_ms=lambda: clock[0])
        pcm.track(audio.start_ms).feed(audio.samples.astype("<f4").tobytes())
    with tempfile.TemporaryDirectory() as tmp:
        live = LiveVision(Path(tmp), rules, layout, on_result=on_result, warm_width=width, sound=pcm)
        live.warm.wait(120)
        windows = []  # (call index, stop index, count index)
        for i, e in enumerate(evs):
            if isinstance(e, VoteCall):
                stop = next(j for j in range(i + 1, len(evs)) if isinstance(evs[j], VoteStop))
                count = next((j for j in range(stop, len(evs)) if isinstance(evs[j], VoteCount)), stop)
                windows.append((i, stop, count))
        container = av.open(str(bundle / "video.mp4"))
        stream = container.streams.video[0]
        frames = iter(container.decode(stream))
        busy_s = 0.0
        fed = 0
        for call_i, stop_i, count_i in windows:
            call, stop = evs[call_i], evs[stop_i]
            alive = referee(evs[:call_i], rules=rules, seats=seats, live=True).alive or seats
            end_t = evs[count_i].t + 300
            opened = asked = False
            got.clear()
            for frame in frames:
                t = round(float(frame.pts * stream.time_base) * 1000)
                if t < call.t - LEAD_MS:
                    continue
                if not opened and t >= call.t:
                    live.open_window(call, alive)  # type: ignore[arg-type]
                    opened = True
                if opened and not asked and t >= stop.t:
                    live.request_check(evs[: stop_i + 1], stop, alive)  # type: ignore[arg-type]
                    asked = True
                img = frame.to_ndarray(format="rgb24")
                h, w = img.shape[:2]
                if w != width:
                    img = cv2.resize(img, (width, round(h * width / w)), interpolation=cv2.INTER_AREA)
                clock[0] = float(t)
                t0 = time.perf_counter()
                live.offer(TapFrame(img, t))
                if opened:
                    while live._queued > 0:  # offline: wait for vision to catch up
                        time.sleep(0.002)
                    busy_s += time.perf_counter() - t0
                    fed += 1
                if t >= end_t:
                    break
            got.wait(30)
            live.close_window()
        container.close()
        live.stop()
    return {"results": results, "busy_s": busy_s, "fed": fed, "dropped": live.dropped}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bundle", type=Path, nargs="+", default=[ROOT / "sample_videos" / "sample_game"])
    ap.add_argument("--widths", default="1280,1920")
    ap.add_argument("--no-sound", action="store_true", help="the keystroke closes every window")
    args = ap.parse_args()
    for width in [int(w) for w in args.widths.split(",")]:
        right_count = right_voters = rounds = fed = 0
        busy = 0.0
        for bundle in args.bundle:
            truth = truth_rounds(json.loads((bundle / "truth.json").read_text(encoding="utf-8")))
            r = run_width(bundle, width, sound=not args.no_sound)
            res: list[LiveResult] = r["results"]
            if len(res) != len(truth):
                print(f"  {bundle.name}: {len(res)} live results for {len(truth)} vote rounds")
            for (cand, voters), lr in zip(truth, res, strict=False):
                ok_v = frozenset(lr.voters) == voters
                right_count += lr.count == len(voters)
                right_voters += ok_v
                mark = "" if ok_v else f"   <- truth {sorted(voters)}"
                closed = f"onset {lr.onset_t} ({lr.onset_method})" if lr.onset_t is not None else "the key"
                print(
                    f"  {width}px {bundle.name} candidate {cand}: count {lr.count} voters {list(lr.voters)}, "
                    f"closed at {closed}{mark}"
                )
            rounds += len(truth)
            busy += r["busy_s"]
            fed += r["fed"]
        lo, hi = wilson(right_voters, rounds)
        print(
            f"{width} px tap: count right {right_count}/{rounds}, voters right {right_voters}/{rounds} "
            f"[{lo:.3f}, {hi:.3f}]; vision {1000 * busy / max(1, fed):.1f} ms per window frame "
            f"over {fed} frames",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
