"""Host voice onsets: how close ``vision.onsets.find_onset`` comes to the true onset of "Спасибо" and the
night's numbers, over synthetic game audio at several levels of room noise and of other voices talking over
the host, with and without the host's recorded voice templates.

    .venv/bin/python bench/bench_onsets.py [--votes 30] [--nights 3] [--scenario NAME] [--tune]

Episodes come from ``bench/voicesim.py``: vote episodes (the vote question, "Спасибо" 4.6–5.0 s after it,
the announced count) and nights (the numbers one to ten, 1.5 s apart). The keystroke follows the true onset
by 150–300 ms (uniform), as a host's does. Target: |error| ≤ 30 ms for at least 95 % of marks; a mark with
no onset is counted apart (no event is written: never a guess), and so is a wrong one (> 30 ms off: the
harmful case, the referee would use it). Each mark is timed twice: by the band energies alone (no templates,
as without ``voice_templates/``) and with the host's templates (``bench_keywords.templates``: the same
espeak voice, slower and higher than in the game). Each vote episode also gives a keystroke **with no host
word** before it (1.4–2.0 s after the vote question ends, at most until 150 ms before "Спасибо" starts): any
onset there is a false one.

SNR is the host's speech level (active RMS about −23 dBFS, ±4 dB per line) over the noise's RMS and over
the other voices' RMS while they talk. Seeds: the held-out figures use the bench's own seeds (vote episode
``1000 * s + i``, night ``1000 * s + 500 + i`` for scenario number ``s``, keystroke lags from ``[s, 77]``);
``--tune`` adds 100000 to every seed (the seeds the thresholds were chosen on). The baseline in the same run
is the keystroke itself (what the referee uses when there is no onset).
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_keywords import templates as host_templates
from benchstats import wilson
from voicesim import SCENARIOS, Episode, Scenario, night_episode, vote_episode

from vision.keywords import Template
from vision.onsets import Audio, Onset, find_onset, templates_for

TARGET_MS = 30.0
HOST_DB = -23.0  # the host's active speech RMS, dBFS (espeak lines at peak 0.5)
TUNE_OFFSET = 100_000
# The six scenarios of the first bench (same seeds), then room noise and murmur swept by SNR.
SWEEP = (
    Scenario("noise, SNR 30 dB", noise_db=HOST_DB - 30),
    Scenario("noise, SNR 20 dB", noise_db=HOST_DB - 20),
    Scenario("noise, SNR 15 dB", noise_db=HOST_DB - 15),
    Scenario("noise, SNR 10 dB", noise_db=HOST_DB - 10),
    Scenario(
        "murmur on the host, SNR 20 dB", noise_db=HOST_DB - 30, murmur_db=HOST_DB - 20, murmur_per_min=30
    ),
    Scenario(
        "murmur on the host, SNR 15 dB", noise_db=HOST_DB - 30, murmur_db=HOST_DB - 15, murmur_per_min=30
    ),
    Scenario(
        "murmur on the host, SNR 10 dB", noise_db=HOST_DB - 30, murmur_db=HOST_DB - 10, murmur_per_min=30
    ),
    Scenario("murmur on the host, SNR 5 dB", noise_db=HOST_DB - 30, murmur_db=HOST_DB - 5, murmur_per_min=30),
)
ALL = SCENARIOS + SWEEP


@dataclass(frozen=True)
class Mark:
    scenario: str
    kind: str  # vote_stop / shot_call / none (a keystroke with no host word before it)
    truth: float | None
    key: float
    energy: Onset | None
    tmpl: Onset | None


def snr(sc: Scenario) -> str:
    noise = f"{HOST_DB - sc.noise_db:.0f}" if sc.noise_db > -90 else "-"
    murmur = f"{HOST_DB - sc.murmur_db:.0f}" if sc.murmur_db > -90 else "-"
    return f"{noise}/{murmur}"


def measure(
    name: str, ep: Episode, rng: np.random.Generator, neg_rng: np.random.Generator, tps: list[Template]
) -> list[Mark]:
    """Every vote_stop and shot_call of the episode, timed with and without templates; and the keystroke
    with no word after the vote question."""
    from gamelog.events import ShotCall, VoteStop

    audio = Audio(ep.samples, 0.0)
    out = []
    for w in ep.words:
        if w.kind in ("vote_stop", "shot_call"):
            key = round(w.onset_ms + float(rng.uniform(150, 300)))
            mark = (
                VoteStop(t=key, src="host")
                if w.kind == "vote_stop"
                else ShotCall(t=key, src="host", target=w.target)
            )
            out.append(
                Mark(
                    name,
                    w.kind,
                    w.onset_ms,
                    key,
                    find_onset(audio, key),
                    find_onset(audio, key, templates=templates_for(mark, tps)),
                )
            )
        elif w.kind == "vote_call":
            # 1.4-2.0 s after the question, but never closer than 150 ms before "Спасибо" starts
            stop = min((x.onset_ms for x in ep.words if x.kind == "vote_stop"), default=float("inf"))
            key = round(min(w.end_ms + float(neg_rng.uniform(1400, 2000)), stop - 150.0))
            vote_tps = templates_for(VoteStop(t=key, src="host"), tps)
            out.append(
                Mark(
                    name,
                    "none",
                    None,
                    key,
                    find_onset(audio, key),
                    find_onset(audio, key, templates=vote_tps),
                )
            )
    return out


def judge(marks: list[Mark], which: str) -> tuple[int, int, int, list[float]]:
    """(within 30 ms, no onset, wrong, signed errors) over marks with a word."""
    ok = none = wrong = 0
    errs = []
    for m in marks:
        if m.truth is None:
            continue
        on = m.energy if which == "energy" else m.tmpl
        if on is None:
            none += 1
            continue
        errs.append(on.t - m.truth)
        if abs(on.t - m.truth) <= TARGET_MS:
            ok += 1
        else:
            wrong += 1
    return ok, none, wrong, errs


def bundle_check(bundle: Path, tps: list[Template]) -> None:
    """End to end: the bundle's video file (AAC audio) through ``read_audio``, its host marks, its truth."""
    import json

    from vision.onsets import read_audio

    truth_path = bundle / "truth.json"
    if not truth_path.is_file():
        print(f"\n(no {truth_path}: end-to-end check skipped)")
        return
    truth = json.loads(truth_path.read_text(encoding="utf-8"))
    game = json.loads((bundle / "game.json").read_text(encoding="utf-8"))
    video = game["video"] if isinstance(game["video"], list) else [game["video"]]
    audio = read_audio([bundle / v for v in video])
    if audio is None:
        print(f"\n{bundle}: no audio track")
        return
    from gamelog.events import ShotCall, VoteStop

    nums = {"Один.": 1, "Два.": 2, "Три.": 3, "Четыре.": 4, "Пять.": 5, "Шесть.": 6, "Семь.": 7, "Восемь.": 8}
    nums |= {"Девять.": 9, "Десять.": 10}
    print(
        f"\nend to end, {bundle.name} (AAC in MP4, the bundle's own host marks, "
        f"knobs {truth['knobs']['audio']}):"
    )
    for label, use in (("energy alone", False), ("with templates", True)):
        errs, none = [], 0
        for sp in truth["speech"]:
            if sp["kind"] in ("vote_stop", "shot_call") and sp["mark_t"] is not None:
                key = sp["mark_t"]
                mark = (
                    VoteStop(t=key, src="host")
                    if sp["kind"] == "vote_stop"
                    else ShotCall(t=key, src="host", target=nums.get(sp["text"]))
                )
                on = find_onset(audio, key, templates=templates_for(mark, tps) if use else ())
                if on is None:
                    none += 1
                else:
                    errs.append(on.t - sp["onset_ms"])
        a = np.abs(np.array(errs))
        print(
            f"  {label:15s} {len(errs) + none} marks, {int(np.sum(a <= TARGET_MS))} within 30 ms, "
            f"{none} none, {int(np.sum(a > TARGET_MS))} wrong; |error| median {np.median(a):.1f} ms, "
            f"max {a.max():.1f} ms, "
            f"bias {np.median(errs):+.1f} ms"
        )


GAME_LEVELS = (  # tablesim's room: (noise, murmur) RMS dBFS; the murmur stays off the host's lines there
    ("tablesim default", -52.0, -40.0),
    ("noisy", -42.0, -34.0),
    ("very noisy", -36.0, -30.0),
    ("noise at SNR 10 dB", -33.0, -99.0),
)


def games(seeds: list[int], days: int, tps: list[Template]) -> None:
    """Whole tablesim random games (players' speeches, every host line, the game's own keystrokes), made
    audio-only at several room levels: every vote_stop and shot_call mark timed with and without templates."""
    from dataclasses import replace

    from voicesim import to16k

    from gamelog.events import ShotCall, VoteStop
    from tablesim.audio import NUMBER_WORDS
    from tablesim.build import Knobs, prepare, voice
    from tablesim.randomgame import random_script

    nums = {w.capitalize() + ".": k for k, w in enumerate(NUMBER_WORDS)}
    print(f"\ntablesim random games {seeds} ({days} days, full-length speeches), the games' own keystrokes:")
    for label, noise, murmur in GAME_LEVELS:
        res: dict[str, list[float | None]] = {"energy": [], "templates": []}
        for seed in seeds:
            script = random_script(seed, days=days, length="full")
            knobs = Knobs()
            knobs = replace(knobs, audio=replace(knobs.audio, noise_db=noise, murmur_db=murmur))
            _scene, perf, marks, _out = prepare(script, knobs)
            sound, spoken = voice(script, perf, marks, knobs)
            audio = Audio(to16k(sound.astype(np.float64)), 0.0)
            for sp in spoken:
                if sp["kind"] not in ("vote_stop", "shot_call") or sp["mark_t"] is None:
                    continue
                key = float(sp["mark_t"])
                mark = (
                    VoteStop(t=round(key), src="host")
                    if sp["kind"] == "vote_stop"
                    else ShotCall(t=round(key), src="host", target=nums.get(sp["text"]))
                )
                for which, use in (("energy", ()), ("templates", templates_for(mark, tps))):
                    on = find_onset(audio, key, templates=use)
                    res[which].append(None if on is None else on.t - float(sp["onset_ms"]))
        for which, errs in res.items():
            given = np.array([e for e in errs if e is not None])
            ok = int(np.sum(np.abs(given) <= TARGET_MS))
            n = len(errs)
            lo, hi = wilson(ok, n)
            med = float(np.median(np.abs(given))) if len(given) else float("nan")
            print(
                f"  {label:20s} ({noise:.0f}/{murmur:.0f} dBFS) {which:9s} {n:3d} marks: "
                f"{ok / max(1, n):6.1%} [{lo:5.1%},{hi:6.1%}] within 30 ms, {n - len(given):3d} none, "
                f"{len(given) - ok:3d} wrong; "
                f"|error| median {med:.1f} ms"
            )


def row(name: str, marks: list[Mark], which: str) -> str:
    ok, none, wrong, errs = judge(marks, which)
    n = ok + none + wrong
    lo, hi = wilson(ok, n)
    a = np.abs(errs) if errs else np.array([np.nan])
    neg = [m for m in marks if m.truth is None]
    false = sum(1 for m in neg if (m.energy if which == "energy" else m.tmpl) is not None)
    return (
        f"{name:38s} {which[:6]:6s} {n:4d} {ok / max(1, n):6.1%} [{lo:5.1%},{hi:6.1%}] "
        f"{none / max(1, n):6.1%} {wrong / max(1, n):6.1%} {np.median(a):6.1f} {np.percentile(a, 90):6.1f} "
        f"{np.percentile(a, 99):6.1f} "
        f"{a.max():6.1f} {np.median(errs) if errs else float('nan'):+6.1f} {false:3d}/{len(neg)}"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--votes", type=int, default=30, help="vote episodes per scenario")
    ap.add_argument("--nights", type=int, default=3, help="nights (ten numbers each) per scenario")
    ap.add_argument("--scenario", default="", help="only scenarios whose name contains this (none: '-')")
    ap.add_argument("--tune", action="store_true", help=f"the tuning seeds (every seed + {TUNE_OFFSET})")
    ap.add_argument("--show-failures", type=int, default=4)
    ap.add_argument("--game-seeds", default="", help="tablesim random games to time too (e.g. 41,42)")
    ap.add_argument("--game-days", type=int, default=2)
    ap.add_argument("--dump", default="", help="write every keystroke's result to this JSON-lines file")
    ap.add_argument(
        "--bundle",
        default=str(Path(__file__).resolve().parents[1] / "sample_videos" / "sample_game"),
        help="a tablesim bundle: the end-to-end check through its AAC audio and truth.json",
    )
    args = ap.parse_args()
    off = TUNE_OFFSET if args.tune else 0
    tps = host_templates()
    print(f"target: |error| <= {TARGET_MS:.0f} ms for >= 95 % of marks; keystroke lag 150-300 ms")
    print(f"seeds: {'tuning (+' + str(TUNE_OFFSET) + ')' if args.tune else 'held out (the bench own)'}\n")
    print(
        f"{'scenario (SNR noise/murmur dB)':38s} {'method':6s} {'marks':>4s} {'<=30ms':>6s} {'95% CI':>15s} "
        f"{'none':>6s} {'wrong':>6s} {'median':>6s} {'p90':>6s} {'p99':>6s} {'max':>6s} {'bias':>6s} "
        "no-word keys: false onsets   (|error| in ms)"
    )
    everything: list[Mark] = []
    failures: list[str] = []
    t_tmpl = 0.0
    for si, sc in enumerate(ALL):
        if args.scenario and args.scenario not in sc.name:
            continue
        rng = np.random.default_rng([si, 77] if not args.tune else [si, 77, 1])
        neg_rng = np.random.default_rng([si, 78] if not args.tune else [si, 78, 1])
        eps = [vote_episode(sc, off + 1000 * si + i) for i in range(args.votes)]
        eps += [night_episode(sc, off + 1000 * si + 500 + i) for i in range(args.nights)]
        t0 = time.perf_counter()
        marks = [m for ep in eps for m in measure(sc.name, ep, rng, neg_rng, tps)]
        t_tmpl += time.perf_counter() - t0
        name = f"{sc.name} ({snr(sc)})"
        print(row(name, marks, "energy"))
        print(row("", marks, "templates"))
        everything += marks
        bad = [
            m
            for m in marks
            if m.truth is not None and (m.tmpl is None or abs(m.tmpl.t - m.truth) > TARGET_MS)
        ]
        for m in bad[: args.show_failures]:
            what = (
                "no onset"
                if m.tmpl is None
                else f"error {m.tmpl.t - m.truth:+.0f} ms ({m.tmpl.method}, score {m.tmpl.score})"
            )
            failures.append(f"  {sc.name}: {m.kind} true {m.truth:.0f} ms, key {m.key:.0f} ms: {what}")
    if args.dump:
        import json
        from dataclasses import asdict

        with open(args.dump, "w", encoding="utf-8") as f:
            for m in everything:
                f.write(json.dumps(asdict(m), ensure_ascii=False) + "\n")
    print(row("all", everything, "energy"))
    print(row("", everything, "templates"))
    # Calibration: the onsets given, by stated confidence, against the share observed within 30 ms.
    print("\nstated confidence vs observed share within 30 ms (marks with a word)")
    edges = (0.0, 0.5, 0.8, 0.9, 0.95, 0.98, 1.01)
    for which in ("energy", "templates"):
        for lo, hi in itertools.pairwise(edges):
            got = [(m.truth, m.energy if which == "energy" else m.tmpl) for m in everything]
            sel = [(t, on) for t, on in got if t is not None and on is not None and lo <= on.conf < hi]
            ok = sum(1 for t, on in sel if abs(on.t - t) <= TARGET_MS)
            methods = {k: sum(1 for _, on in sel if on.method == k) for k in ("energy", "both", "template")}
            if sel:
                print(
                    f"  {which:9s} conf [{lo:.2f}, {min(hi, 1.0):.2f}): {len(sel):4d} onsets, "
                    f"{ok / len(sel):6.1%} within 30 ms  {methods}"
                )
    bundle_check(Path(args.bundle), tps)
    if args.game_seeds:
        games([int(x) for x in args.game_seeds.split(",")], args.game_days, tps)
    print("baseline (window closed at the keystroke): 0 % within 30 ms, median error 225 ms by construction")
    n = max(1, len(everything))
    print(f"find_onset, energy + templates: {1000 * t_tmpl / n:.0f} ms per keystroke (both calls)")
    if failures:
        print("\nfailures with templates (first few per scenario):")
        print("\n".join(failures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
