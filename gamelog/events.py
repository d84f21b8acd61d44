"""Typed events of a game bundle (``events.jsonl``, ``vision.jsonl``, ``audio.jsonl``).

Every line of those files is one JSON object with ``t`` (integer milliseconds of media time), ``type``,
``src`` and an optional ``id``. Each type is a frozen dataclass below; :func:`parse_event` validates a
decoded JSON object at the edge and raises :class:`EventError` naming the file, line and field, and
:func:`event_to_json` turns an event back into the exact line shape of the contract.

Fields the contract does not know are kept in ``extra`` so that a newer writer's lines survive a
round trip through this version.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, TypeAlias

Source: TypeAlias = Literal["host", "vision", "judge", "audio"]
SOURCES: tuple[str, ...] = ("host", "vision", "judge", "audio")
GESTURES: tuple[str, ...] = ("thumb_up", "fist", "gun", "point", "palm", "other")
ROUNDS: tuple[str, ...] = ("main", "revote", "all")
Box: TypeAlias = tuple[float, float, float, float]
Candidate: TypeAlias = int | Literal["all"]


class EventError(ValueError):
    """A line that is not a valid event. ``str()`` reads ``file:line: field: message``."""

    def __init__(
        self, message: str, *, file: str | None = None, line: int | None = None, field: str | None = None
    ) -> None:
        self.message = message
        self.file = file
        self.line = line
        self.field = field
        super().__init__(self._render())

    def _render(self) -> str:
        where = ""
        if self.file is not None:
            where = self.file + (f":{self.line}" if self.line is not None else "") + ": "
        elif self.line is not None:
            where = f"line {self.line}: "
        what = f"field '{self.field}': " if self.field else ""
        return f"{where}{what}{self.message}"

    def located(self, file: str | None, line: int | None) -> EventError:
        return EventError(self.message, file=file, line=line, field=self.field)


@dataclass(frozen=True, kw_only=True)
class Event:
    """Fields every event has. Subclasses set ``TYPE`` and the sources that may emit them."""

    TYPE: ClassVar[str] = ""
    SOURCES: ClassVar[tuple[str, ...]] = ("host", "judge")

    t: int
    src: str
    id: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def type(self) -> str:
        return self.TYPE


# ---- host marks (a judge may enter the same marks as corrections) ----------------------------------


@dataclass(frozen=True, kw_only=True)
class Roles(Event):
    TYPE: ClassVar[str] = "roles"
    don: int
    mafia: tuple[int, ...]
    sheriff: int
    others: Mapping[int, str] = field(default_factory=dict, compare=False)


@dataclass(frozen=True, kw_only=True)
class Night(Event):
    TYPE: ClassVar[str] = "night"
    n: int


@dataclass(frozen=True, kw_only=True)
class Day(Event):
    TYPE: ClassVar[str] = "day"
    n: int


@dataclass(frozen=True, kw_only=True)
class Speech(Event):
    TYPE: ClassVar[str] = "speech"
    seat: int


@dataclass(frozen=True, kw_only=True)
class SpeechEnd(Event):
    TYPE: ClassVar[str] = "speech_end"
    seat: int


@dataclass(frozen=True, kw_only=True)
class Nominate(Event):
    TYPE: ClassVar[str] = "nominate"
    by: int
    target: int


@dataclass(frozen=True, kw_only=True)
class Withdraw(Event):
    TYPE: ClassVar[str] = "withdraw"
    by: int
    target: int


@dataclass(frozen=True, kw_only=True)
class VoteCall(Event):
    TYPE: ClassVar[str] = "vote_call"
    round: str
    candidate: int | None = None


@dataclass(frozen=True, kw_only=True)
class VoteStop(Event):
    TYPE: ClassVar[str] = "vote_stop"


@dataclass(frozen=True, kw_only=True)
class VoteCount(Event):
    TYPE: ClassVar[str] = "vote_count"
    candidate: Candidate
    count: int


@dataclass(frozen=True, kw_only=True)
class Vote(Event):
    TYPE: ClassVar[str] = "vote"
    seat: int
    candidate: Candidate


@dataclass(frozen=True, kw_only=True)
class ShotCall(Event):
    TYPE: ClassVar[str] = "shot_call"
    target: int


@dataclass(frozen=True, kw_only=True)
class Shot(Event):
    TYPE: ClassVar[str] = "shot"
    seat: int
    target: int


@dataclass(frozen=True, kw_only=True)
class DonCheck(Event):
    TYPE: ClassVar[str] = "don_check"
    target: int


@dataclass(frozen=True, kw_only=True)
class SheriffCheck(Event):
    TYPE: ClassVar[str] = "sheriff_check"
    target: int


@dataclass(frozen=True, kw_only=True)
class BestMove(Event):
    TYPE: ClassVar[str] = "best_move"
    seat: int
    suspects: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class Foul(Event):
    TYPE: ClassVar[str] = "foul"
    seat: int
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class Disqualify(Event):
    TYPE: ClassVar[str] = "disqualify"
    seat: int
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class TeamLoss(Event):
    """Project addition: the team of ``seat`` loses at once (000 10: deliberate peeking, hints…)."""

    TYPE: ClassVar[str] = "team_loss"
    seat: int
    reason: str = ""


# ---- vision and audio (derived, regenerated whole by the analyser) --------------------------------


@dataclass(frozen=True, kw_only=True)
class HandDown(Event):
    TYPE: ClassVar[str] = "hand_down"
    SOURCES: ClassVar[tuple[str, ...]] = ("vision",)
    seat: int
    gesture: str
    conf: float
    box: Box | None = None


@dataclass(frozen=True, kw_only=True)
class HandUp(Event):
    TYPE: ClassVar[str] = "hand_up"
    SOURCES: ClassVar[tuple[str, ...]] = ("vision",)
    seat: int
    conf: float


@dataclass(frozen=True, kw_only=True)
class ShotRaise(Event):
    TYPE: ClassVar[str] = "shot_raise"
    SOURCES: ClassVar[tuple[str, ...]] = ("vision",)
    seat: int
    gesture: str
    conf: float
    box: Box | None = None


@dataclass(frozen=True, kw_only=True)
class HeadUp(Event):
    TYPE: ClassVar[str] = "head_up"
    SOURCES: ClassVar[tuple[str, ...]] = ("vision",)
    seat: int
    until: int
    conf: float


@dataclass(frozen=True, kw_only=True)
class NightMotion(Event):
    TYPE: ClassVar[str] = "night_motion"
    SOURCES: ClassVar[tuple[str, ...]] = ("vision",)
    seat: int
    kind: str
    until: int
    conf: float


@dataclass(frozen=True, kw_only=True)
class ProposedWindow(Event):
    TYPE: ClassVar[str] = "proposed_window"
    SOURCES: ClassVar[tuple[str, ...]] = ("vision", "audio")
    kind: str
    until: int


@dataclass(frozen=True, kw_only=True)
class SpeechOnset(Event):
    TYPE: ClassVar[str] = "speech_onset"
    SOURCES: ClassVar[tuple[str, ...]] = ("audio",)
    ref: str
    conf: float


# ---- judge decisions ---------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Void(Event):
    TYPE: ClassVar[str] = "void"
    SOURCES: ClassVar[tuple[str, ...]] = ("judge",)
    ref: str
    reason: str = ""
    judge: str | None = None


@dataclass(frozen=True, kw_only=True)
class Confirm(Event):
    TYPE: ClassVar[str] = "confirm"
    SOURCES: ClassVar[tuple[str, ...]] = ("judge", "host")
    ref: str
    reason: str = ""
    judge: str | None = None


@dataclass(frozen=True, kw_only=True)
class Protest(Event):
    """Project addition: a protest filed after the game (003 SHOWTIME protest procedure)."""

    TYPE: ClassVar[str] = "protest"
    SOURCES: ClassVar[tuple[str, ...]] = ("judge",)
    protest: str
    by: int | None = None
    seats: tuple[int, ...] = ()
    claim: str = ""
    from_t: int | None = None
    until: int | None = None
    judge: str | None = None


@dataclass(frozen=True, kw_only=True)
class Decision(Event):
    TYPE: ClassVar[str] = "decision"
    SOURCES: ClassVar[tuple[str, ...]] = ("judge",)
    protest: str
    outcome: str
    reason: str = ""
    judge: str | None = None


EVENT_TYPES: dict[str, type[Event]] = {
    cls.TYPE: cls
    for cls in (
        Roles,
        Night,
        Day,
        Speech,
        SpeechEnd,
        Nominate,
        Withdraw,
        VoteCall,
        VoteStop,
        VoteCount,
        Vote,
        ShotCall,
        Shot,
        DonCheck,
        SheriffCheck,
        BestMove,
        Foul,
        Disqualify,
        TeamLoss,
        HandDown,
        HandUp,
        ShotRaise,
        HeadUp,
        NightMotion,
        ProposedWindow,
        SpeechOnset,
        Void,
        Confirm,
        Protest,
        Decision,
    )
}

# Fields whose JSON form differs from a plain scalar, with their reader.
_COMMON = ("t", "type", "src", "id")


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _read_int(name: str, v: object, *, minimum: int | None = None) -> int:
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    if not _is_int(v):
        raise EventError(f"expected an integer, got {v!r}", field=name)
    assert isinstance(v, int)
    if minimum is not None and v < minimum:
        raise EventError(f"must be at least {minimum}, got {v}", field=name)
    return v


def _read_seat(name: str, v: object) -> int:
    return _read_int(name, v, minimum=1)


def _read_float(name: str, v: object) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise EventError(f"expected a finite number, got {v!r}", field=name)
    try:
        x = float(v)
    except OverflowError:
        raise EventError("number too large", field=name) from None
    if not math.isfinite(x):
        raise EventError(f"expected a finite number, got {v!r}", field=name)
    return x


def _read_conf(name: str, v: object) -> float:
    x = _read_float(name, v)
    if not 0.0 <= x <= 1.0:
        raise EventError(f"confidence must be within 0..1, got {x}", field=name)
    return x


def _read_str(name: str, v: object) -> str:
    if not isinstance(v, str):
        raise EventError(f"expected a string, got {v!r}", field=name)
    return v


def _read_opt_str(name: str, v: object) -> str | None:
    return None if v is None else _read_str(name, v)


def _read_seats(name: str, v: object) -> tuple[int, ...]:
    if not isinstance(v, list | tuple):
        raise EventError(f"expected a list of seats, got {v!r}", field=name)
    return tuple(_read_seat(name, x) for x in v)


def _read_candidate(name: str, v: object) -> Candidate:
    if v == "all":
        return "all"
    return _read_seat(name, v)


def _read_box(name: str, v: object) -> Box | None:
    if v is None:
        return None
    if not isinstance(v, list | tuple) or len(v) != 4:
        raise EventError(f"expected [x0, y0, x1, y1], got {v!r}", field=name)
    x0, y0, x1, y1 = (_read_float(name, x) for x in v)
    return (x0, y0, x1, y1)


def _read_gesture(name: str, v: object) -> str:
    s = _read_str(name, v)
    if s not in GESTURES:
        raise EventError(f"unknown gesture {s!r} (one of {', '.join(GESTURES)})", field=name)
    return s


def _read_round(name: str, v: object) -> str:
    s = _read_str(name, v)
    if s not in ROUNDS:
        raise EventError(f"unknown round {s!r} (one of {', '.join(ROUNDS)})", field=name)
    return s


def _read_others(name: str, v: object) -> dict[int, str]:
    if not isinstance(v, dict):
        raise EventError(f"expected an object {{seat: role}}, got {v!r}", field=name)
    out: dict[int, str] = {}
    for k, role in v.items():
        if not isinstance(k, str | int) or isinstance(k, bool) or not (str(k).isascii() and str(k).isdigit()):
            raise EventError(f"seat key {k!r} is not a number", field=name)
        seat = int(k)
        out[_read_seat(name, seat)] = _read_str(name, role)
    return out


_Reader = Any
_FIELD_READERS: dict[str, _Reader] = {
    "seat": _read_seat,
    "by": _read_seat,
    "target": _read_seat,
    "don": _read_seat,
    "sheriff": _read_seat,
    "n": lambda n, v: _read_int(n, v, minimum=0),
    "until": lambda n, v: _read_int(n, v, minimum=0),
    "from_t": lambda n, v: None if v is None else _read_int(n, v, minimum=0),
    "count": lambda n, v: _read_int(n, v, minimum=0),
    "mafia": _read_seats,
    "suspects": _read_seats,
    "seats": _read_seats,
    "others": _read_others,
    "candidate": _read_candidate,
    "conf": _read_conf,
    "box": _read_box,
    "gesture": _read_gesture,
    "round": _read_round,
    "reason": _read_str,
    "kind": _read_str,
    "ref": _read_str,
    "outcome": _read_str,
    "protest": _read_str,
    "claim": _read_str,
    "judge": _read_opt_str,
}


_OWN_FIELDS: dict[type[Event], tuple[tuple[dataclasses.Field[Any], ...], frozenset[str]]] = {}


def _own_fields(cls: type[Event]) -> tuple[tuple[dataclasses.Field[Any], ...], frozenset[str]]:
    """The fields a type adds to the common ones, and their names (cached: this is the hot path)."""
    got = _OWN_FIELDS.get(cls)
    if got is None:
        own = tuple(f for f in dataclasses.fields(cls) if f.name not in ("t", "src", "id", "extra"))
        got = _OWN_FIELDS[cls] = (own, frozenset(f.name for f in own))
    return got


def parse_event(obj: object, *, file: str | None = None, line: int | None = None) -> Event:
    """Validate one decoded JSON object and build its event. Raises :class:`EventError`."""
    try:
        return _parse(obj)
    except EventError as e:
        raise e.located(file, line) from None


def _parse(obj: object) -> Event:
    if not isinstance(obj, dict):
        raise EventError(f"expected a JSON object, got {type(obj).__name__}")
    for key in ("t", "type", "src"):
        if key not in obj:
            raise EventError("missing", field=key)
    t = _read_int("t", obj["t"], minimum=0)
    typ = _read_str("type", obj["type"])
    cls = EVENT_TYPES.get(typ)
    if cls is None:
        raise EventError(f"unknown event type {typ!r}", field="type")
    src = _read_str("src", obj["src"])
    if src not in SOURCES:
        raise EventError(f"unknown source {src!r} (one of {', '.join(SOURCES)})", field="src")
    if src not in cls.SOURCES:
        raise EventError(
            f"a {typ!r} event cannot come from {src!r} (only {', '.join(cls.SOURCES)})", field="src"
        )
    ev_id = obj.get("id")
    if ev_id is not None and (not isinstance(ev_id, str) or not ev_id):
        raise EventError(f"expected a non-empty string, got {ev_id!r}", field="id")
    kwargs: dict[str, Any] = {"t": t, "src": src, "id": ev_id}
    own, known = _own_fields(cls)
    for f in own:
        if f.name in obj:
            reader = _FIELD_READERS[f.name]
            value = obj[f.name]
            if value is None and f.default is None:  # an optional field written as null
                kwargs[f.name] = None
                continue
            kwargs[f.name] = reader(f.name, value)
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise EventError("missing", field=f.name)
    extra = {k: v for k, v in obj.items() if k not in known and k not in _COMMON}
    kwargs["extra"] = extra
    ev = cls(**kwargs)
    _check(ev)
    return ev


def _check(ev: Event) -> None:
    """Cross-field rules that a single field reader cannot see."""
    if isinstance(ev, VoteCall):
        if ev.round == "all" and ev.candidate is not None:
            raise EventError("an 'all' round has no candidate", field="candidate")
        if ev.round != "all" and ev.candidate is None:
            raise EventError(f"a {ev.round!r} round needs a candidate", field="candidate")
    elif isinstance(ev, HeadUp | NightMotion | ProposedWindow) and ev.until < ev.t:
        raise EventError(f"ends ({ev.until}) before it starts ({ev.t})", field="until")
    elif isinstance(ev, BestMove) and not 1 <= len(ev.suspects) <= 3:
        raise EventError("names one to three suspects", field="suspects")
    elif isinstance(ev, Roles):
        seats = [ev.don, *ev.mafia, ev.sheriff]
        if len(set(seats)) != len(seats):
            raise EventError("a seat holds two roles", field="mafia")
    elif isinstance(ev, HandDown | ShotRaise) and ev.box is not None:
        x0, y0, x1, y1 = ev.box
        if x1 < x0 or y1 < y0:
            raise EventError("box corners are swapped", field="box")


def event_to_json(ev: Event) -> dict[str, Any]:
    """The contract's line shape: ``t``, ``type``, ``src``, the type's fields, ``id``, then extras."""
    out: dict[str, Any] = {"t": ev.t, "type": ev.TYPE, "src": ev.src}
    for f in _own_fields(type(ev))[0]:
        v = getattr(ev, f.name)
        if v is None and f.default is None:
            continue
        if f.name == "candidate" and v is None:
            continue
        if isinstance(v, tuple):
            v = list(v)
        elif isinstance(v, Mapping):
            if not v:
                continue
            v = {str(k): x for k, x in v.items()}
        out[f.name] = v
    if ev.id is not None:
        out["id"] = ev.id
    for k, v in ev.extra.items():
        out.setdefault(k, v)
    return out


def sort_key(ev: Event) -> tuple[int, int]:
    """Events sort by media time; the referee decides ties between equal times by rule, not by order."""
    return (ev.t, _TIE_ORDER.get(ev.TYPE, 50))


# At one and the same ``t``: the state-changing marks first (night/day, roles), then calls, then
# observations, then closings. The referee never depends on file order; this only makes listings stable.
_TIE_ORDER: dict[str, int] = {
    "night": 0,
    "day": 0,
    "roles": 1,
    "speech": 5,
    "vote_call": 10,
    "shot_call": 10,
    "hand_down": 20,
    "hand_up": 21,
    "shot_raise": 20,
    "vote": 22,
    "shot": 22,
    "vote_stop": 30,
    "vote_count": 31,
    "speech_end": 40,
}
