"""Night watch accuracy and cost (``vision.nightwatch``), on tablesim nights built by ``bench/nightsim.py``.

Nights: ``--seed 1`` is the set the watch was tuned on (kept where the first benchmark left it); any other
seed is a held-out set (new scripts, new tablesim looks), under ``seed<n>/``. Accuracy: ``--episodes``
shooting nights (a minute each) with scripted violations — head lifts of several sizes (the lift as a share
of a full peek), masks lifted with the head down, a hand into a neighbour's zone, a hand gesture — some of
them during the shooting round, plus harmless fidgets (nods of 3–5 % of a peek, hand shifts of 2–4 cm) and,
on held-out seeds, the Don's and the Sheriff's wake-ups at their checks (legitimate: reported ones are
excused, as the referee excuses them). Quiet nights, counted apart: ``--quiet`` nights *with fidgets*
(``--quiet-min`` minutes, a scripted fidget every ``--fidget-every`` ms plus tablesim's ``--idle-fidget``
idle hand shifts) and ``--still`` nights (``--still-min`` minutes, nothing but the shooting round and the
checks). Every night is cut into stretches by the analyser's own plan (``vision.schedule``) and each
night/shooting stretch goes through ``night_pass``, as ``run_stretch`` does; the events are kept in the
bundle per watch version (``--build-only`` renders, ``--part`` / ``--from-episode`` split the watching
between runs).

Scoring: a scripted act is found when an event of the same seat and kind overlaps it (±400 ms); "found as
any kind" accepts any night event on that seat. An event overlapping no act (and no act's ±400 ms) on its
seat is a false alarm. Intervals: Wilson 95 % for shares, exact Poisson 95 % and a one-sided 95 % upper
bound for rates (no false alarm in N seat-hours: under 3.0 / N).

Cost: ``mafiacam analyze`` of a tablesim random game with the pass off (``MAFIACAM_NIGHTWATCH=0``) and on,
alternated in the same run, best of ``--repeats``.

    .venv/bin/python bench/bench_nightwatch.py --seed 2 --episodes 20 --quiet 1 --still 1 [--show]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from benchstats import wilson  # noqa: E402
from nightsim import Act, build_night  # noqa: E402

SIZES = (0.1, 0.15, 0.2, 0.3, 0.5, 1.0)
SLACK_MS = 400


def _poisson_cdf(k: int, mu: float) -> float:
    term, total = math.exp(-mu), 0.0
    for i in range(k + 1):
        if i:
            term *= mu / i
        total += term
    return total


def poisson_ci(k: int) -> tuple[float, float]:
    """Exact (Garwood) 95 % interval of a Poisson mean from ``k`` counts."""

    def solve(target: float, kk: int) -> float:
        lo, hi = 0.0, 10.0 * (kk + 5)
        for _ in range(100):
            mid = (lo + hi) / 2
            if _poisson_cdf(kk, mid) > target:
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2

    lower = 0.0 if k == 0 else solve(0.975, k - 1)
    return lower, solve(0.025, k)


def episode_acts(rng: random.Random, index: int) -> tuple[list[Act], list[tuple[int, int]], list[Any]]:
    """Acts, shots ((seat, target)) and fidgets of violation episode ``index``."""
    shooters = [4, 7, 9]
    target = rng.choice([1, 2, 3, 5, 6, 8, 10])
    shots = [(s, target) for s in shooters]
    free = [s for s in range(1, 11) if s not in shooters]
    acts: list[Act] = []
    slots_round = [6000, 11000, 16000]
    slots_free = [22000, 27000, 32000, 37000, 42000, 47000]
    kinds_round = ["head_up", "head_up", "mask" if index % 2 else "touch"]
    kinds_free = ["head_up", "head_up", "head_up", "touch" if index % 2 else "mask", "gesture", "gesture"]
    rng.shuffle(kinds_free)
    size_i = index * 5
    for t, kind in list(zip(slots_round, kinds_round, strict=True)) + list(
        zip(slots_free, kinds_free, strict=True)
    ):
        in_round = t < 20000
        seat = rng.choice(free if in_round else list(range(1, 11)))
        dur = rng.randrange(800, 2500, 100)
        t0 = t + rng.randrange(0, 1500, 100)
        if kind == "head_up":
            acts.append(Act("head_up", seat, t0, t0 + dur, SIZES[size_i % len(SIZES)]))
            size_i += 1
        elif kind == "touch":
            into = seat % 10 + 1 if rng.random() < 0.5 else (seat - 2) % 10 + 1
            if in_round and into in shooters:
                into = seat % 10 + 1 if seat % 10 + 1 not in shooters else (seat - 2) % 10 + 1
            acts.append(Act("touch", seat, t0, t0 + max(dur, 1000), into=into))
        else:
            acts.append(Act(kind, seat, t0, t0 + dur))
    busy = {a.seat: a for a in acts}
    fidgets = []
    for t in (19500, 35000, 50000):
        idle = [s for s in range(1, 11) if s not in busy and s not in shooters]
        if not idle:  # every red seat acts this night: one whose acts are all over 3 s away from the fidget
            idle = [
                s
                for s in range(1, 11)
                if s not in shooters
                and all(a.until + 3000 < t or a.t - 3000 > t for a in acts if a.seat == s)
            ]
        seat = rng.choice(idle)
        fidgets.append(_fidget(rng, t, seat))
    return acts, shots, fidgets


def _fidget(rng: random.Random, t: int, seat: int) -> tuple[int, int, str, float]:
    """A nod of 3–5 % of a full peek, or a hand shift of 2–4 cm."""
    if rng.random() < 0.5:
        return (t, seat, "nod", round(rng.uniform(0.03, 0.05), 3))
    return (t, seat, "shift", round(rng.uniform(0.02, 0.04), 3))


def quiet_fidgets(
    rng: random.Random, night_ms: int, every: tuple[int, int]
) -> list[tuple[int, int, str, float]]:
    """Fidgets from after the shooting round to before the checks, one every ``every`` ms (uniform)."""
    out = []
    t = 22000
    while t < night_ms - 14000:
        out.append(_fidget(rng, t, rng.randrange(1, 11)))
        t += rng.randrange(*every)
    return out


_DIGESTS: list[str] = []


def _digest() -> str:
    """The digest of the watch's source as this run imported it (read once: an edit made while a run
    goes on does not rename its caches)."""
    if not _DIGESTS:
        import hashlib

        from vision import nightwatch

        _DIGESTS.append(hashlib.sha256(Path(nightwatch.__file__).read_bytes()).hexdigest()[:8])
    return _DIGESTS[0]


_CACHED: list[str] = []  # --cached NAME: report the events kept in <night>/NAME.json, never watch


def analyse_night(bundle: Path) -> tuple[list[Any], float, float, list[tuple[int, int, str]]]:
    """Night events over the analyser's night/shooting stretches; (events, pass seconds, night seconds,
    stretches). Kept in the bundle as ``nightwatch-<version>-<digest>.json`` (the digest of the watch's
    source, so that an edit inside a version is watched again) and read back from there, so that a night
    is watched once per state of the watch (several runs may share the nights). With ``--cached NAME``
    the events come from ``NAME.json`` (another version's kept events) and a night without it is an error."""
    from gamelog.events import event_to_json, parse_event
    from vision import nightwatch

    cache = bundle / f"nightwatch-{nightwatch.VERSION}-{_digest()}.json"
    if _CACHED:
        cache = bundle / f"{_CACHED[0]}.json"
        if not cache.exists():
            raise SystemExit(f"{cache}: no kept events of that name (--cached)")
    if cache.exists():
        got = json.loads(cache.read_text(encoding="utf-8"))
        evs = [parse_event(e) for e in got["events"]]
        return evs, got["pass_s"], got["night_s"], [tuple(x) for x in got["stretches"]]
    evs, spent, night_s, sts = _watch(bundle)
    obj = {"events": [event_to_json(e) for e in evs], "pass_s": spent, "night_s": night_s, "stretches": sts}
    cache.write_text(json.dumps(obj) + "\n", encoding="utf-8")
    return evs, spent, night_s, sts


def _watch(bundle: Path) -> tuple[list[Any], float, float, list[tuple[int, int, str]]]:
    from gamelog.bundle import load_bundle
    from vision.nightwatch import night_pass
    from vision.schedule import plan, split_for_workers
    from vision.video import VideoTimeline

    b = load_bundle(bundle)
    assert b.layout is not None
    with VideoTimeline([bundle / v for v in b.game.video]) as tl:
        duration = int(tl.duration_ms) + 1
        marks = [e for e in b.events if e.src == "host"]
        stretches = [s for s in split_for_workers(plan(marks, duration)) if s.kind in ("night", "shooting")]
        events: list[Any] = []
        t0 = time.perf_counter()
        for st in stretches:
            found = night_pass(tl, b.layout.at(st.start), st.start, st.end, shooting=st.kind == "shooting")
            # the pass's raises seen by the arm (0.10) are shot evidence, scored with the shots
            # (bench_vision_accuracy.py), not night movements
            events += [e for e in found if e.TYPE != "shot_raise"]
        spent = time.perf_counter() - t0
    night_s = sum(s.duration for s in stretches) / 1000.0
    return events, spent, night_s, [(s.start, s.end, s.kind) for s in stretches]


def _kind(e: Any) -> str:
    return "head_up" if e.TYPE == "head_up" else str(e.kind)


def score(
    acts: list[dict[str, Any]], events: list[Any]
) -> tuple[list[tuple[dict[str, Any], bool, bool]], list[Any]]:
    """Per act (act, found as its kind, found as any kind); and the false alarms."""

    def overlaps(e: Any, a: dict[str, Any]) -> bool:
        return e.seat == a["seat"] and e.t <= a["until"] + SLACK_MS and e.until >= a["t"] - SLACK_MS

    out = []
    for a in acts:
        hits = [e for e in events if overlaps(e, a)]
        out.append((a, any(_kind(e) == a["kind"] for e in hits), bool(hits)))
    false = [e for e in events if not any(overlaps(e, a) for a in acts)]
    return out, false


def cost(bundle: Path, repeats: int) -> dict[str, float]:
    """Best wall time and best CPU time (the analyser and its workers: user + system) with the pass off
    and on. On a shared machine the CPU time is the steadier figure."""
    wall: dict[str, list[float]] = {"off": [], "on": []}
    cpu: dict[str, list[float]] = {"off": [], "on": []}
    for _ in range(repeats):
        for mode in ("off", "on"):
            shutil.rmtree(bundle / ".analysis", ignore_errors=True)
            env = dict(os.environ, MAFIACAM_NIGHTWATCH="0" if mode == "off" else "1")
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.monotonic()
            subprocess.run(
                [str(ROOT / ".venv/bin/mafiacam"), "analyze", str(bundle), "--quiet"],
                check=True,
                env=env,
                stdout=subprocess.DEVNULL,
            )
            wall[mode].append(time.monotonic() - t0)
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[mode].append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
    return {
        "off": min(wall["off"]),
        "on": min(wall["on"]),
        "cpu_off": min(cpu["off"]),
        "cpu_on": min(cpu["on"]),
    }


def _legit(e: Any, legit: list[dict[str, Any]]) -> bool:
    """A reported legitimate moment (the Don's or the Sheriff's wake-up): the referee excuses it."""
    return _kind(e) == "head_up" and any(
        e.seat == g["seat"] and e.t <= g["until"] + SLACK_MS and e.until >= g["t"] - SLACK_MS for g in legit
    )


def quiet_rate(name: str, false: list[Any], seat_h: float) -> str:
    lo, hi = poisson_ci(len(false))
    sh = max(seat_h, 1e-9)
    return (
        f"{name}: {len(false)} false alarms in {seat_h:.2f} seat-hours = {len(false) / sh:.3f} per seat-hour"
        f" (exact Poisson 95 % {lo / sh:.3f}–{hi / sh:.3f}; one-sided 95 % upper bound"
        f" {poisson_upper(len(false)) / sh:.3f})"
    )


def poisson_upper(k: int) -> float:
    """One-sided 95 % upper bound of a Poisson mean from ``k`` counts (k = 0: 3.00)."""
    lo, hi = 0.0, 10.0 * (k + 5)
    for _ in range(100):
        mid = (lo + hi) / 2
        if _poisson_cdf(k, mid) > 0.05:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _quiet_nights(
    args: argparse.Namespace, work: Path, rng: random.Random, kind: str, count: int, minutes: float
) -> tuple[list[Any], float, int, int, int, float, float]:
    """Build (if needed) and watch ``count`` quiet nights of ``kind`` (``still`` or ``fidget``); (false
    alarms, seat-hours, at a fidget, fidgets, legit moments reported, pass s, night s)."""
    w, h = (int(v) for v in args.size.split("x"))
    every = tuple(int(v) for v in args.fidget_every.split("-"))
    false: list[Any] = []
    seat_h = pass_s = night_s = 0.0
    at_fidget = n_fidgets = legit_seen = 0
    for q in range(count):
        night_ms = int(minutes * 60000)
        name = f"quiet{q:02d}-{night_ms}" if kind == "fidget" else f"still{q:02d}-{night_ms}"
        out = work / name
        fid = quiet_fidgets(rng, night_ms, every) if kind == "fidget" else []  # drawn even when cached
        if not (out / "truth.json").exists():
            shutil.rmtree(out, ignore_errors=True)
            t0 = time.monotonic()
            build_night(
                out, [], night_ms=night_ms, shots=[(4, 6), (7, 6), (9, 6)], fidgets=fid, size=(w, h),
                fps=args.fps, seed=args.seed * 1000 + (100 if kind == "fidget" else 500) + q,
                wakeups=args.seed != 1, idle_fidget=args.idle_fidget if kind == "fidget" else 0.0,
            )  # fmt: skip
            print(f"built {out.name} in {time.monotonic() - t0:.0f} s", flush=True)
        if args.build_only or args.part == "episodes" or q < args.from_quiet:
            continue
        truth = json.loads((out / "truth.json").read_text())
        events, spent, ns, _ = analyse_night(out)
        pass_s += spent
        night_s += ns
        seat_h += 10 * ns / 3600.0
        legit = truth.get("legit", [])
        legit_seen += sum(_legit(e, legit) for e in events)
        bad = [e for e in events if not _legit(e, legit)]
        false += [(q, e) for e in bad]
        fids = truth["fidgets"]
        at_fidget += sum(
            any(f["seat"] == e.seat and e.t <= f["t"] + 3500 and e.until >= f["t"] for f in fids) for e in bad
        )
        n_fidgets += len(fids)
    return false, seat_h, at_fidget, n_fidgets, legit_seen, pass_s, night_s


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", default="/tmp/mafiacam-nightwatch")
    ap.add_argument("--seed", type=int, default=1, help="1: the nights the watch was tuned on; 2+: held out")
    ap.add_argument("--episodes", type=int, default=10)
    ap.add_argument("--quiet", type=int, default=3, help="quiet nights with fidgets")
    ap.add_argument("--quiet-min", type=float, default=8.0)
    ap.add_argument("--fidget-every", default="15000-25000", help="ms between scripted fidgets (uniform)")
    ap.add_argument("--idle-fidget", type=float, default=0.0, help="tablesim idle shifts per hand-minute")
    ap.add_argument("--still", type=int, default=0, help="quiet nights without fidgets")
    ap.add_argument("--still-min", type=float, default=15.0)
    ap.add_argument("--size", default="960x540")
    ap.add_argument("--fps", type=int, default=10)
    ap.add_argument("--build-only", action="store_true", help="render the nights, watch nothing")
    ap.add_argument("--part", choices=("all", "episodes", "quiet"), default="all", help="what to watch")
    ap.add_argument("--from-episode", type=int, default=0, help="watch episodes from this index only")
    ap.add_argument("--from-quiet", type=int, default=0, help="watch quiet nights from this index only")
    ap.add_argument("--cost-days", type=int, default=2, help="days of the random game for the cost (0: skip)")
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--show", action="store_true", help="list misses and false alarms")
    ap.add_argument(
        "--cached", default="", help="report the kept events NAME.json of the nights; never watch"
    )
    args = ap.parse_args()
    if args.cached:
        _CACHED.append(args.cached)
    _digest()  # the watch as this run imported it
    w, h = (int(v) for v in args.size.split("x"))
    work = Path(args.work) / f"{w}x{h}-{args.fps}"
    if args.seed != 1:
        work = work / f"seed{args.seed}"
    work.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)

    results: list[tuple[dict[str, Any], bool, bool]] = []
    extra: list[Any] = []
    pass_s = night_s = ep_night_s = 0.0
    for i in range(args.episodes):
        acts, shots, fidgets = episode_acts(rng, i)
        out = work / f"ep{i:02d}"
        if not (out / "truth.json").exists():
            shutil.rmtree(out, ignore_errors=True)
            t0 = time.monotonic()
            build_night(
                out, acts, night_ms=60000, shots=shots, fidgets=fidgets, size=(w, h), fps=args.fps,
                seed=i if args.seed == 1 else args.seed * 1000 + i, wakeups=args.seed != 1,
            )  # fmt: skip
            print(f"built {out.name} in {time.monotonic() - t0:.0f} s", flush=True)
        if args.build_only or args.part == "quiet" or i < args.from_episode:
            continue
        truth = json.loads((out / "truth.json").read_text())
        events, spent, ns, _ = analyse_night(out)
        pass_s += spent
        night_s += ns
        ep_night_s += ns
        events = [e for e in events if not _legit(e, truth.get("legit", []))]
        r, f = score(truth["night_acts"], events)
        results += r
        extra += [(i, e) for e in f]
    fq = _quiet_nights(args, work, rng, "fidget", args.quiet, args.quiet_min)
    sq = _quiet_nights(args, work, rng, "still", args.still, args.still_min)
    if args.build_only:
        return 0
    pass_s += fq[5] + sq[5]
    night_s += fq[6] + sq[6]

    which = "tuning set" if args.seed == 1 else "held out"
    print(f"seed {args.seed} ({which}); frames {w}x{h} at {args.fps} fps; night watch {pass_s:.1f} s for"
          f" {night_s:.0f} s of night = {pass_s / max(night_s, 1e-9):.3f} s per night second")  # fmt: skip
    print("\n| scripted act | found (its kind) | Wilson 95 % | found as any night event |")
    print("|---|---|---|---|")
    groups: dict[str, list[tuple[dict[str, Any], bool, bool]]] = {}
    for a, ok, anyk in results:
        key = f"head up, lift {a['size']:.2f}" if a["kind"] == "head_up" else a["kind"]
        groups.setdefault(key, []).append((a, ok, anyk))
    head_all = [r for r in results if r[0]["kind"] == "head_up"]
    big = [r for r in head_all if r[0]["size"] >= 0.15]
    for key in [*sorted(groups), "head lifts ≥ 0.15", "all head lifts", "all acts"]:
        rows = groups.get(key) or {"head lifts ≥ 0.15": big, "all head lifts": head_all}.get(key, results)
        k = sum(ok for _, ok, _ in rows)
        k_any = sum(anyk for _, _, anyk in rows)
        lo, hi = wilson(k, len(rows))
        print(f"| {key} | {k}/{len(rows)} | {lo:.2f}–{hi:.2f} | {k_any}/{len(rows)} |")
    false_f, sh_f, at_f, n_f, legit_f = fq[:5]
    false_s, sh_s, _at, _n, legit_s = sq[:5]
    print()
    print(quiet_rate("quiet nights, still", false_s, sh_s) + f"; {legit_s} legitimate wake-ups reported")
    print(
        quiet_rate("quiet nights with fidgets", false_f, sh_f)
        + f"; {at_f} at one of the {n_f} scripted fidgets (nods 3–5 %, shifts 2–4 cm), {len(false_f) - at_f}"
        f" elsewhere (idle shifts {args.idle_fidget}/hand-min); {legit_f} legitimate wake-ups reported"
    )
    ep_seat_h = 10 * ep_night_s / 3600.0
    print(f"violation nights: {len(extra)} events matching no act in {ep_seat_h:.2f} seat-hours")
    if args.show:
        for a, ok, anyk in results:
            if not ok:
                print("  missed", a, "(seen as another kind)" if anyk else "")
        for i, e in extra:
            print("  false ep", i, e.seat, _kind(e), e.t, e.until, e.conf)
        for i, e in false_f:
            print("  false fidget-night", i, e.seat, _kind(e), e.t, e.until, e.conf)
        for i, e in false_s:
            print("  false still-night", i, e.seat, _kind(e), e.t, e.until, e.conf)
    if args.cost_days:
        game = work / f"game-{args.cost_days}d"
        if not (game / "truth.json").exists():
            subprocess.run(
                [str(ROOT / ".venv/bin/mafiacam"), "sim", "--random", "--seed", "7", "--days",
                 str(args.cost_days), "--length", "short", "--size", f"{w}x{h}", "--out", str(game),
                 "--overwrite", "--quiet"],
                check=True,
            )  # fmt: skip
        _ev, _sp, game_night_s, _st = analyse_night(game)
        from vision.video import VideoTimeline

        with VideoTimeline([game / "video.mp4"]) as tl:
            dur = tl.duration_ms / 1000.0
        c = cost(game, args.repeats)
        print(
            f"\ncost: analyse a {dur / 60:.1f}-min random game ({game_night_s:.0f} s of night/shooting"
            " stretches),"
            f" best of {args.repeats}: without night watch {c['off']:.1f} s, with {c['on']:.1f} s,"
            f" ratio {c['on'] / c['off']:.2f}; CPU (analyser + workers) without {c['cpu_off']:.1f} s, with"
            f" {c['cpu_on']:.1f} s, ratio {c['cpu_on'] / c['cpu_off']:.2f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
