"""Referee benchmark: a full-length game (about 90 minutes, every vote window seen by vision too) refereed
whole, and the record console's live count at the close of every vote window.

    .venv/bin/python bench/bench_referee.py              # 8 days, 5 repeats
    .venv/bin/python bench/bench_referee.py --days 12 --noise 20000

Prints: events in the game, the time to referee it (median of the repeats), the live count's median and
worst time per window (target: well under the 0.5 s the console allows), and both as ratios against a
baseline measured in the same run: parsing the same events from JSON (``parse_event`` per line).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gamelog.events import VoteStop, parse_event  # noqa: E402
from gamelog.fusion import live_vote_check  # noqa: E402
from gamelog.referee import referee  # noqa: E402
from gamelog.rules import rules_for  # noqa: E402

SEATS = tuple(range(1, 11))
RULES = rules_for("federation", {"three_misses_red_win": False})  # no shots: keep all days


def make_game(days: int, noise: int, seed: int = 7) -> list[dict[str, Any]]:
    """Host marks, host votes and vision hands for ``days`` days and nights, plus ``noise`` stray hand
    events spread over the discussions (gestures the analyser reports outside vote windows)."""
    rnd = random.Random(seed)
    lines: list[dict[str, Any]] = []
    n = 0

    def add(t: int, typ: str, src: str = "host", **kw: Any) -> None:
        nonlocal n
        n += 1
        lines.append({"t": t, "type": typ, "src": src, **kw, "id": f"e{n}"})

    add(2000, "night", n=0)
    add(100_000, "roles", don=2, mafia=[5, 8], sheriff=1)
    t = 200_000
    last: list[int] = []
    for day in range(1, days + 1):
        add(t, "day", n=day)
        t += 4000
        for i, s in enumerate(SEATS[day - 1 :] + SEATS[: day - 1]):
            add(t, "speech", seat=s)
            if i < 2:
                add(t + 10_000, "nominate", by=s, target=(3, 6)[i])
            t += 58_000
            add(t, "speech_end", seat=s)
            t += 2000
        # Every day a tie, a tie again in the re-vote and an all-leave vote that fails: nobody leaves,
        # so all the days are played with ten seats.
        for rnd_name, cand in (("main", 3), ("main", 6), ("revote", 3), ("revote", 6), ("all", "all")):
            call: dict[str, Any] = {"round": rnd_name}
            if cand != "all":
                call["candidate"] = cand
            add(t, "vote_call", **call)
            order = list(SEATS)
            rnd.shuffle(order)
            voters = order[:5] if cand != "all" else order[:3]
            if cand == 6:
                voters = [x for x in SEATS if x not in last]
            last = voters
            for s in voters:
                add(t + rnd.randint(150, 1800), "hand_down", "vision", seat=s, gesture="thumb_up", conf=0.9)
                add(t + 3500, "hand_up", "vision", seat=s, conf=0.9)
                add(t + 2500, "vote", seat=s, candidate=cand)
            add(t + 2000, "vote_stop")
            add(t + 2000 - 200, "speech_onset", "audio", ref=f"e{n}", conf=0.9)
            add(t + 2800, "vote_count", candidate=cand, count=len(voters))
            t += 6000
        add(t, "night", n=day)
        t += 9000
        for num in SEATS:
            add(t, "shot_call", target=num)
            t += 1500
        t += 60_000
    end = t
    for _ in range(noise):
        s = rnd.choice(SEATS)
        at = rnd.randint(200_000, end)
        add(at, "hand_down", "vision", seat=s, gesture=rnd.choice(["palm", "other", "point"]), conf=0.7)
        add(at + rnd.randint(300, 3000), "hand_up", "vision", seat=s, conf=0.7)
    lines.sort(key=lambda x: x["t"])
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--days", type=int, default=8)
    ap.add_argument("--noise", type=int, default=5000)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()

    lines = make_game(args.days, args.noise)
    text = [json.dumps(x) for x in lines]
    parse_times, ref_times = [], []
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        events = [parse_event(json.loads(x)) for x in text]
        parse_times.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        state = referee(events, rules=RULES, seats=SEATS)
        ref_times.append(time.perf_counter() - t0)
    stops = [e for e in events if isinstance(e, VoteStop)]
    live: list[float] = []
    for stop in stops:
        t0 = time.perf_counter()
        got = live_vote_check(events, rules=RULES, seats=SEATS, upto_t=stop.t + 400)
        live.append(time.perf_counter() - t0)
        assert got is not None, stop
    parse_s, ref_s = statistics.median(parse_times), statistics.median(ref_times)
    print(f"events: {len(events)} ({args.days} days, {len(stops)} vote windows, {args.noise} stray hands x2)")
    print(f"baseline parse_event of all lines: {parse_s * 1000:.1f} ms (median of {args.repeats})")
    print(f"referee whole game: {ref_s * 1000:.1f} ms = {ref_s / parse_s:.2f} x the parse baseline")
    med = statistics.median(live)
    print(
        f"live count per window: median {med * 1000:.1f} ms, worst {max(live) * 1000:.1f} ms"
        f" = {med / parse_s:.2f} x the parse baseline (budget: 500 ms)"
    )
    print(f"result: winner {state.winner}, {len(state.days)} days, {len(state.violations)} violations")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
