"""Night episodes for the night-watch benchmark: a tablesim night with violations of chosen sizes.

tablesim's scripts know full peeks (``peek``, the head fully up) and reaches into a neighbour's zone. The
benchmark also needs partial head lifts, a mask lifted while the head stays down, and hand gestures outside
a shot, so this module plans the script with tablesim (:func:`tablesim.build.prepare`), adds those moves to
the performance's tracks, and encodes it with tablesim's own encoder. Nothing in ``tablesim/`` is changed.

An :class:`Act` is one scripted thing that should be found; :func:`build_night` writes a bundle whose
``truth.json`` lists them under ``"night_acts"``.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from gamelog.bundle import GameInfo, Player, create_bundle
from gamelog.events import parse_event
from gamelog.jsonl import EventWriter
from gamelog.layout import layouts_from_json
from tablesim import audio
from tablesim.build import VIDEO_FILE, Knobs, encode, prepare
from tablesim.plan import HEAD_MOVE, Performance
from tablesim.render import Renderer
from tablesim.scene import CameraKnobs, Scene
from tablesim.script import parse_script

ROLES = {"don": 4, "mafia": [7, 9], "sheriff": 2}


@dataclass(frozen=True)
class Act:
    """One scripted night act: ``kind`` is ``head_up`` (``size`` = lift 0..1), ``mask`` (mask off, head
    down), ``touch`` (a hand into seat ``into``'s zone) or ``gesture`` (a hand raised and held outside a
    shot). ``t``..``until`` in ms: while it is up / off / there."""

    kind: str
    seat: int
    t: int
    until: int
    size: float = 1.0
    into: int = 0


def _script(
    night_ms: int, round_at: int, shots: list[tuple[int, int]], reaches: list[Act], checks: bool
) -> tuple[dict[str, Any], list[tuple[int, int]]]:
    """The tablesim script, and the shots as (peak t, seat). ``shots``: (seat, target) pairs."""
    host: list[dict[str, Any]] = [{"t": 500, "do": "night", "n": 1}]
    seats: list[dict[str, Any]] = []
    peaks = []
    if shots:
        for i in range(1, 11):
            host.append({"t": round_at + (i - 1) * 1500, "do": "shot_call", "target": i})
    for seat, target in shots:
        t = round_at + (target - 1) * 1500 + 700
        seats.append({"t": t, "seat": seat, "do": "shot"})
        peaks.append((t, seat))
    if checks:
        host.append({"t": night_ms - 9000, "do": "don_check", "target": 5})
        host.append({"t": night_ms - 6000, "do": "sheriff_check", "target": 4})
    host.append({"t": night_ms, "do": "day", "n": 2})
    host.sort(key=lambda h: h["t"])
    for a in reaches:
        seats.append({"t": a.t, "seat": a.seat, "do": "reach", "into": a.into, "until": a.until})
    return {"format": "tablesim/1", "seed": 5, "roles": ROLES, "host": host, "seats": seats}, peaks


def _add_moves(perf: Performance, scene: Scene, acts: list[Act]) -> None:
    for a in acts:
        if a.kind == "head_up":
            tr = perf.tracks[(a.seat, "head")]
            tr.go(a.t - HEAD_MOVE, float(a.t), np.array([a.size]), "head", "head")
            tr.go(float(a.until), a.until + HEAD_MOVE, np.array([0.0]), "head", "head")
        elif a.kind == "gesture":
            s = scene.seat(a.seat)
            tr = perf.tracks[(a.seat, "right")]
            there = s.edge + s.inward * 0.12 + np.array([0.0, 0.0, 0.22])
            tr.go(a.t - 500.0, float(a.t), there, "point", "gesture")
            tr.go(float(a.until), a.until + 500.0, s.rest_r, "point", "gesture", end_pose="relaxed",
                  end_orient="rest")  # fmt: skip


Fidget = tuple[int, int, str, float]  # (t ms, seat, "nod" | "shift", size: lift share / metres)


def _add_fidgets(
    perf: Performance, scene: Scene, fidgets: list[Fidget], rng: np.random.Generator
) -> list[Fidget]:
    """Nuisance moves that are not violations: ``nod`` (the bowed head lifts by ``size`` of a peek and settles
    within about a second) or ``shift`` (a resting hand slides ``size`` metres on the table, in a random
    direction, stays about two seconds and slides back). Returns those that fitted (a part already busy
    then is left alone)."""
    done = []
    for t, seat, what, size in fidgets:
        try:
            if what == "nod":
                tr = perf.tracks[(seat, "head")]
                if tr.busy(t - 200.0, t + 1500.0):
                    continue
                tr.go(float(t), t + 400.0, np.array([size]), "head", "head")
                tr.go(t + 900.0, t + 1300.0, np.array([0.0]), "head", "head")
            else:
                s = scene.seat(seat)
                left = bool(rng.random() < 0.5)
                tr = perf.tracks[(seat, "left" if left else "right")]
                rest = s.rest_l if left else s.rest_r
                if tr.busy(t - 200.0, t + 3200.0):
                    continue
                ang = float(rng.uniform(0.0, 2.0 * np.pi))
                off = (np.cos(ang) * s.lateral + np.sin(ang) * s.inward) * size
                tr.go(float(t), t + 500.0, rest + off, "relaxed", "rest")
                tr.go(t + 2500.0, t + 3000.0, rest, "relaxed", "rest")
        except ValueError:
            continue
        done.append((t, seat, what, size))
    return done


WAKE_MS = 3000  # the Don / the Sheriff look up this long at their check


def _add_wakeups(perf: Performance, checks: list[tuple[int, int, str]]) -> list[dict[str, Any]]:
    """Legitimate head lifts: the Don and the Sheriff wake for their checks ((t, seat, why)). Skipped when
    the head is busy then (a scripted act on the same seat)."""
    out = []
    for t, seat, why in checks:
        tr = perf.tracks[(seat, "head")]
        a, b = t + 300.0, t + 300.0 + WAKE_MS
        if tr.busy(a - HEAD_MOVE - 200.0, b + HEAD_MOVE + 200.0):
            continue
        tr.go(a - HEAD_MOVE, a, np.array([1.0]), "head", "head")
        tr.go(b, b + HEAD_MOVE, np.array([0.0]), "head", "head")
        out.append({"kind": "head_up", "seat": seat, "t": int(a), "until": int(b), "why": why})
    return out


def _masked_items(perf: Performance, acts: list[Act]) -> Any:
    """``perf.items`` with the masks of ``mask`` acts taken off (the head stays down)."""
    base = perf.items
    off = [(a.seat, a.t - 150, a.until + 150) for a in acts if a.kind == "mask"]

    def items(t: float) -> list[tuple[Any, ...]]:
        out = base(t)
        for i, it in enumerate(out):
            if it[0] == "head" and any(s == it[1] and a <= t < b for s, a, b in off):
                out[i] = (it[0], it[1], it[2], False)
        return out

    return items


def build_night(
    out: Path,
    acts: list[Act],
    *,
    night_ms: int = 30000,
    shots: list[tuple[int, int]] | None = None,
    round_at: int = 4000,
    checks: bool = True,
    fidgets: list[Fidget] | None = None,
    size: tuple[int, int] = (960, 540),
    fps: int = 10,
    seed: int = 5,
    wakeups: bool = False,
    idle_fidget: float = 0.0,
) -> Path:
    """A bundle of one shooting night (night 1 from 0.5 s to ``night_ms``) with ``acts`` in it, and a
    shooting round from ``round_at`` when ``shots`` ((seat, target) pairs) are given. ``wakeups``: the Don
    and the Sheriff lift their heads at their checks (legitimate, listed under ``"legit"``);
    ``idle_fidget``: tablesim's own idle hand shifts per hand and minute."""
    reaches = [a for a in acts if a.kind == "touch"]
    obj, peaks = _script(night_ms, round_at, shots or [], reaches, checks)
    obj["seed"] = seed
    obj["end"] = night_ms + 2500
    script = parse_script(obj)
    knobs = Knobs(camera=CameraKnobs(width=size[0], height=size[1]), fps=fps, fidget=idle_fidget)
    scene, perf, marks, _outcome = prepare(script, knobs)
    _add_moves(perf, scene, acts)
    legit = []
    if wakeups and checks:
        legit = _add_wakeups(
            perf,
            [
                (night_ms - 9000, script.roles.don, "don_check"),
                (night_ms - 6000, script.roles.sheriff, "sheriff_check"),
            ],
        )
    done = _add_fidgets(perf, scene, fidgets or [], np.random.default_rng([seed, 0xF1]))
    perf.items = _masked_items(perf, acts)  # type: ignore[method-assign]
    info = GameInfo(
        format="mafiacam/1",
        rules="federation",
        started_at=script.started_at,
        players=tuple(Player(seat=i + 1, name=n) for i, n in enumerate(script.players)),
        video=(VIDEO_FILE,),
    )
    create_bundle(out, info, layouts_from_json(scene.layout_json(), seats=10))
    with EventWriter(out / "events.jsonl") as w:
        for m in marks:
            w.append(parse_event({"t": m.t, "type": m.type, "src": "host", **m.fields, "id": m.id}))
    sound = np.zeros(
        script.end * audio.SAMPLE_RATE // 1000, np.float32
    )  # silent: the night watch does not listen
    encode(out / VIDEO_FILE, perf, Renderer(scene, knobs.look, seed=seed), sound, knobs)
    truth = {
        "night_acts": [asdict(a) for a in acts],
        "shots": [{"t": t, "seat": s} for t, s in peaks],
        "fidgets": [{"t": t, "seat": s, "what": w, "size": z} for t, s, w, z in done],
        "legit": legit,
        "idle_fidget": idle_fidget,
        "fps": fps,
        "frame_size": list(size),
        "duration_ms": script.end,
    }
    (out / "truth.json").write_text(json.dumps(truth, indent=1) + "\n", encoding="utf-8")
    return out
