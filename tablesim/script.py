"""Game scripts: what the host says and what each seat's hands and head do, and when.

A script is a JSON object (``docs/TABLESIM.md`` has the full reference)::

    {"format": "tablesim/1", "seed": 7, "rules": "federation",
     "roles": {"don": 4, "mafia": [7, 9], "sheriff": 2},
     "players": [{"seat": 1, "name": "Бриз"}, ...],            (optional)
     "end": 95000,                                               (optional, ms)
     "host": [{"t": 1000, "do": "night", "n": 0}, {"t": 9000, "do": "vote_call", "candidate": 7}, ...],
     "seats": [{"t": 9800, "seat": 3, "do": "vote"}, {"t": 30500, "seat": 4, "do": "shot"}, ...]}

Host lines: ``t`` is the moment the host starts to speak (the true onset of the first word); the host's
keystroke mark follows 150–300 ms later. Silent marks (``speech``, ``roles``…) are stamped at ``t``.
Seat actions: ``vote`` (the fist lands on the table zone at ``t``), ``lift`` (the resting hand leaves at
``t``), ``shot`` (the raised finger-gun peaks at ``t``), ``peek`` and ``meet`` (head up from ``t`` to
``until``), ``reach`` (a hand reaches towards seat ``into``'s zone and back, not a vote).

:func:`parse_script` validates a decoded object and raises :class:`ScriptError` naming the file and the
field (``seats[3].t``).
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FORMAT = "tablesim/1"
RULES = ("federation", "club", "showtime", "novosibirsk")
HOST_KINDS: dict[str, tuple[str, ...]] = {
    # kind: required fields beyond t
    "night": ("n",),
    "day": ("n",),
    "roles": (),
    "speech": ("seat",),
    "speech_end": ("seat",),
    "nominate": ("by", "target"),
    "vote_call": (),  # candidate (not for round "all"), round (default "main")
    "vote_stop": (),
    "vote_count": (),  # candidate (default: the last call's); count is filled in from the truth
    "hunt": (),  # "Мафия выходит на охоту" (no mark)
    "shot_call": ("target",),
    "don_check": ("target",),
    "sheriff_check": ("target",),
    "foul": ("seat",),
    "say": ("text",),  # any other spoken line (no mark)
}
SPOKEN = ("night", "day", "nominate", "vote_call", "vote_stop", "vote_count", "hunt", "shot_call", "say")
SEAT_KINDS = ("vote", "lift", "shot", "peek", "meet", "reach")
HANDS = ("right", "left")
VOTE_GESTURES = ("thumb_up", "fist", "palm", "point", "flat")


class ScriptError(ValueError):
    """A script that cannot be played. ``str()`` reads ``file: field: message``."""

    def __init__(self, message: str, *, file: str | None = None, field: str | None = None) -> None:
        self.message, self.file, self.field = message, file, field
        where = (file + ": ") if file else ""
        what = (field + ": ") if field else ""
        super().__init__(f"{where}{what}{message}")

    def located(self, file: str) -> ScriptError:
        return ScriptError(self.message, file=file, field=self.field)


@dataclass(frozen=True)
class HostLine:
    index: int  # position in the script's "host" list (for error messages)
    t: int
    kind: str
    seat: int | None = None
    n: int | None = None
    by: int | None = None
    target: int | None = None
    candidate: int | None = None
    round: str = "main"
    text: str = ""
    reason: str = ""

    @property
    def where(self) -> str:
        return f"host[{self.index}]"


@dataclass(frozen=True)
class SeatAction:
    index: int
    t: int
    seat: int
    kind: str
    hand: str = "right"
    gesture: str = "thumb_up"
    until: int | None = None
    into: int | None = None

    @property
    def where(self) -> str:
        return f"seats[{self.index}]"


@dataclass(frozen=True)
class Roles:
    don: int
    mafia: tuple[int, ...]  # the other black players
    sheriff: int

    @property
    def black(self) -> tuple[int, ...]:
        return tuple(sorted((self.don, *self.mafia)))


@dataclass(frozen=True)
class Script:
    seed: int
    rules: str
    roles: Roles
    players: tuple[str, ...]
    host: tuple[HostLine, ...]
    seats: tuple[SeatAction, ...]
    end: int
    started_at: str = "2026-01-10T19:00:00+03:00"
    seat_count: int = 10
    extra: dict[str, Any] = field(default_factory=dict, compare=False)


DEFAULT_NAMES = ("Бриз", "Штиль", "Орбита", "Шмель", "Сова", "Арчи", "Марс", "Ферзь", "Мира", "Лотос")


def _int(
    obj: dict[str, Any], key: str, where: str, *, minimum: int | None = None, required: bool = True
) -> Any:
    if key not in obj:
        if required:
            raise ScriptError("missing", field=f"{where}.{key}" if where else key)
        return None
    v = obj[key]
    if isinstance(v, bool) or not isinstance(v, int):
        raise ScriptError(f"must be an integer, got {v!r}", field=f"{where}.{key}" if where else key)
    if minimum is not None and v < minimum:
        raise ScriptError(f"must be at least {minimum}, got {v}", field=f"{where}.{key}" if where else key)
    return v


def _seat(obj: dict[str, Any], key: str, where: str, seats: int, *, required: bool = True) -> Any:
    v = _int(obj, key, where, required=required)
    if v is not None and not 1 <= v <= seats:
        raise ScriptError(f"seat must be within 1..{seats}, got {v}", field=f"{where}.{key}")
    return v


def parse_script(obj: object, *, file: str | None = None) -> Script:
    try:
        return _parse(obj)
    except ScriptError as e:
        raise e.located(file) if file else e from None


def load_script(path: str | Path) -> Script:
    p = Path(path)
    try:
        obj = json.loads(p.read_text(encoding="utf-8"))
    except OSError as e:
        raise ScriptError(f"cannot read: {e.strerror}", file=str(p)) from None
    except json.JSONDecodeError as e:
        raise ScriptError(f"not JSON: line {e.lineno} column {e.colno}: {e.msg}", file=str(p)) from None
    return parse_script(obj, file=str(p))


def _parse(obj: object) -> Script:
    if not isinstance(obj, dict):
        raise ScriptError("a script is a JSON object")
    if obj.get("format") != FORMAT:
        raise ScriptError(f"must be {FORMAT!r}, got {obj.get('format')!r}", field="format")
    seed = _int(obj, "seed", "", required=False) or 0
    rules = obj.get("rules", "federation")
    if rules not in RULES:
        raise ScriptError(f"unknown rule set {rules!r} (one of {', '.join(RULES)})", field="rules")
    n_seats = 10
    roles_obj = obj.get("roles")
    if not isinstance(roles_obj, dict):
        raise ScriptError("missing or not an object", field="roles")
    don = _seat(roles_obj, "don", "roles", n_seats)
    sheriff = _seat(roles_obj, "sheriff", "roles", n_seats)
    mafia_v = roles_obj.get("mafia")
    if not isinstance(mafia_v, list) or not all(isinstance(x, int) and 1 <= x <= n_seats for x in mafia_v):
        raise ScriptError("must be a list of seats", field="roles.mafia")
    black = {don, *mafia_v}
    if len(black) != 1 + len(mafia_v) or len(black) != 3:
        raise ScriptError("the don and two mafia must be three different seats", field="roles.mafia")
    if sheriff in black:
        raise ScriptError("the sheriff cannot be black", field="roles.sheriff")
    roles = Roles(don=don, mafia=tuple(sorted(mafia_v)), sheriff=sheriff)

    players = list(DEFAULT_NAMES)
    if "players" in obj:
        pl = obj["players"]
        if not isinstance(pl, list) or len(pl) != n_seats:
            raise ScriptError(f"must list {n_seats} players", field="players")
        for i, p in enumerate(pl):
            if not isinstance(p, dict) or p.get("seat") != i + 1 or not isinstance(p.get("name"), str):
                raise ScriptError(
                    'each player is {"seat": n, "name": "…"} in seat order', field=f"players[{i}]"
                )
            players[i] = p["name"]

    host_v = obj.get("host")
    if not isinstance(host_v, list) or not host_v:
        raise ScriptError("missing or empty list", field="host")
    host = tuple(_host_line(i, h, n_seats) for i, h in enumerate(host_v))
    for a, b in itertools.pairwise(host):
        if b.t < a.t:
            raise ScriptError(f"host lines must be in time order ({b.t} after {a.t})", field=f"{b.where}.t")
    seats_v = obj.get("seats", [])
    if not isinstance(seats_v, list):
        raise ScriptError("must be a list", field="seats")
    actions = tuple(_seat_action(i, a, n_seats) for i, a in enumerate(seats_v))
    last = max([h.t for h in host] + [a.until or a.t for a in actions])
    end = _int(obj, "end", "", minimum=1, required=False) or last + 4000
    if end < last + 500:
        raise ScriptError(f"must be at least 0.5 s after the last line/action ({last} ms)", field="end")
    started = obj.get("started_at", "2026-01-10T19:00:00+03:00")
    if not isinstance(started, str):
        raise ScriptError("must be an ISO 8601 string", field="started_at")
    script = Script(
        seed=seed,
        rules=rules,
        roles=roles,
        players=tuple(players),
        host=host,
        seats=actions,
        end=end,
        started_at=started,
        seat_count=n_seats,
    )
    check_timing(script)
    return script


def _host_line(i: int, h: object, seats: int) -> HostLine:
    where = f"host[{i}]"
    if not isinstance(h, dict):
        raise ScriptError("must be an object", field=where)
    kind = h.get("do")
    if kind not in HOST_KINDS:
        raise ScriptError(f"unknown host line {kind!r} (one of {', '.join(HOST_KINDS)})", field=f"{where}.do")
    for key in HOST_KINDS[kind]:
        if key not in h:
            raise ScriptError(f"a {kind} line needs {key!r}", field=f"{where}.{key}")
    t = _int(h, "t", where, minimum=0)
    rnd = h.get("round", "main")
    if rnd not in ("main", "revote", "all"):
        raise ScriptError(f"round must be main, revote or all, got {rnd!r}", field=f"{where}.round")
    cand = _seat(h, "candidate", where, seats, required=False)
    if kind == "vote_call" and rnd != "all" and cand is None:
        raise ScriptError("a vote call needs a candidate (except round 'all')", field=f"{where}.candidate")
    text = h.get("text", "")
    if not isinstance(text, str) or (kind == "say" and not text.strip()):
        raise ScriptError("must be a non-empty string", field=f"{where}.text")
    return HostLine(
        index=i,
        t=t,
        kind=kind,
        seat=_seat(h, "seat", where, seats, required=False),
        n=_int(h, "n", where, minimum=0, required=False),
        by=_seat(h, "by", where, seats, required=False),
        target=_seat(h, "target", where, seats, required=False),
        candidate=cand,
        round=rnd,
        text=text,
        reason=str(h.get("reason", "")),
    )


def _seat_action(i: int, a: object, seats: int) -> SeatAction:
    where = f"seats[{i}]"
    if not isinstance(a, dict):
        raise ScriptError("must be an object", field=where)
    kind = a.get("do")
    if kind not in SEAT_KINDS:
        raise ScriptError(f"unknown action {kind!r} (one of {', '.join(SEAT_KINDS)})", field=f"{where}.do")
    t = _int(a, "t", where, minimum=0)
    seat = _seat(a, "seat", where, seats)
    hand = a.get("hand", "right")
    if hand not in HANDS:
        raise ScriptError(f"hand must be right or left, got {hand!r}", field=f"{where}.hand")
    gesture = a.get("gesture", "gun" if kind == "shot" else "thumb_up")
    if kind == "vote" and gesture not in VOTE_GESTURES:
        raise ScriptError(f"gesture must be one of {', '.join(VOTE_GESTURES)}", field=f"{where}.gesture")
    until = _int(a, "until", where, required=kind in ("peek", "meet", "reach"))
    if until is not None and until <= t:
        raise ScriptError(f"until ({until}) must be after t ({t})", field=f"{where}.until")
    into = _seat(a, "into", where, seats, required=kind == "reach")
    if kind == "reach" and (into == seat or min(abs(into - seat), seats - abs(into - seat)) != 1):
        raise ScriptError("a hand can only reach into a neighbour's zone", field=f"{where}.into")
    return SeatAction(index=i, t=t, seat=seat, kind=kind, hand=hand, gesture=gesture, until=until, into=into)


MIN_VOTE_AFTER_CALL = 400  # ms: a vote lands at least this long after the host starts the question
AMBIGUOUS_BEFORE_STOP = 100  # ms: a vote landing this close before "Спасибо" is neither clearly in nor late


def check_timing(script: Script) -> None:
    """Checks that need the whole timeline: votes in a day phase after a call, shots and peeks at night."""
    phases: list[tuple[int, str, int]] = []  # (t, "day"/"night", n)
    for h in script.host:
        if h.kind in ("day", "night"):
            phases.append((h.t, h.kind, h.n or 0))
    calls = [h for h in script.host if h.kind == "vote_call"]
    stops = [h for h in script.host if h.kind == "vote_stop"]

    def phase_at(t: int) -> tuple[str, int]:
        cur = ("none", -1)
        for pt, kind, n in phases:
            if pt <= t:
                cur = (kind, n)
        return cur

    for a in script.seats:
        kind, n = phase_at(a.t)
        if a.kind in ("vote", "lift") and kind != "day":
            raise ScriptError(f"a {a.kind} must happen during a day (it is {kind} {n})", field=f"{a.where}.t")
        if a.kind == "vote":
            before = [c for c in calls if c.t <= a.t]
            if not before or a.t - before[-1].t < MIN_VOTE_AFTER_CALL:
                raise ScriptError(
                    f"a vote lands at least {MIN_VOTE_AFTER_CALL} ms after the host starts a vote call",
                    field=f"{a.where}.t",
                )
            after = [s for s in stops if s.t > before[-1].t]
            if after and 0 < after[0].t - a.t < AMBIGUOUS_BEFORE_STOP:
                raise ScriptError(
                    f"lands {after[0].t - a.t} ms before Спасибо (host[{after[0].index}]): ambiguous; "
                    f"land ≥ {AMBIGUOUS_BEFORE_STOP} ms before it or at/after it (late)",
                    field=f"{a.where}.t",
                )
        if a.kind == "shot" and (kind != "night" or n < 1):
            raise ScriptError("a shot happens in a shooting night (night 1 or later)", field=f"{a.where}.t")
        if a.kind == "peek" and kind != "night":
            raise ScriptError("a peek happens at night", field=f"{a.where}.t")
        if a.kind == "meet" and (kind, n) != ("night", 0):
            raise ScriptError("the mafia meet at night 0", field=f"{a.where}.t")
        if a.kind == "meet" and a.seat not in script.roles.black:
            raise ScriptError(
                f"seat {a.seat} is not black and does not meet the mafia", field=f"{a.where}.seat"
            )
