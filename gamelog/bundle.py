"""A game bundle on disk: one folder per game (format ``mafiacam/1``, see ``docs/FORMAT.md``).

``game.json`` (who, when, which rules, which video), ``layout.json`` (seat zones), ``events.jsonl``
(host marks and judge decisions, append-only), ``vision.jsonl`` / ``audio.jsonl`` (derived, replaced
whole), ``manifest.json`` + ``events.jsonl.chain`` (the hash chain, see :mod:`gamelog.manifest`).

:func:`load_bundle` reads it all and never loses a good line: bad lines and inconsistencies (an event
naming a seat the game does not have, a judge ``ref`` to a missing id, an event in the wrong file) are
reported in ``bad_lines`` / ``problems`` and the events stay in. Only what makes the bundle unreadable
as a whole (no ``game.json``, bad JSON in it, a format this version does not read) raises
:class:`BundleError`.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import Any

from gamelog.events import Candidate, Event, Roles, sort_key
from gamelog.fsio import atomic_write_text, fsync_dir
from gamelog.jsonl import BadLine, read_events
from gamelog.layout import LayoutError, Layouts, read_layout, write_layout

FORMAT = "mafiacam/1"
FORMAT_NAME, FORMAT_VERSION = "mafiacam", 1
GAME_FILE = "game.json"
LAYOUT_FILE = "layout.json"
EVENTS_FILE = "events.jsonl"
VISION_FILE = "vision.jsonl"
AUDIO_FILE = "audio.jsonl"
# Which sources belong in which file. A line in the wrong file is kept but reported.
FILE_SOURCES: dict[str, tuple[str, ...]] = {
    EVENTS_FILE: ("host", "judge"),
    VISION_FILE: ("vision",),
    AUDIO_FILE: ("audio",),
}
RULE_SETS: tuple[str, ...] = ("federation", "club", "showtime", "novosibirsk")
_KNOWN_KEYS = (
    "format",
    "rules",
    "started_at",
    "players",
    "video",
    "rule_options",
    "tournament",
    "stage",
    "table",
    "game_number",
    "host",
    "judges",
)
# Fields of events that name a seat.
_SEAT_FIELDS = ("seat", "by", "target", "don", "sheriff", "mafia", "suspects", "seats", "candidate")


class BundleError(Exception):
    """The bundle cannot be read as a whole; the message names the file (and line or field)."""


@dataclass(frozen=True)
class Player:
    seat: int
    name: str
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class GameInfo:
    """``game.json``. ``video`` is ``()`` for a game entered by hand; unknown keys are kept in ``extra``."""

    format: str
    rules: str
    started_at: str
    players: tuple[Player, ...]
    video: tuple[str, ...] = ()
    rule_options: Mapping[str, Any] = field(default_factory=dict)
    tournament: str | None = None
    stage: str | None = None
    table: str | None = None
    game_number: int | None = None
    host: str | None = None
    judges: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False)

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(sorted(p.seat for p in self.players))

    def player(self, seat: int) -> Player | None:
        for p in self.players:
            if p.seat == seat:
                return p
        return None

    @classmethod
    def new(cls, names: list[str] | tuple[str, ...], *, rules: str = "federation", **kw: Any) -> GameInfo:
        """A game with players seated 1..N in the order given, started now (local time with offset)."""
        started = kw.pop("started_at", None) or datetime.now().astimezone().isoformat(timespec="seconds")
        players = tuple(Player(seat=i, name=n) for i, n in enumerate(names, start=1))
        return cls(format=FORMAT, rules=rules, started_at=started, players=players, **kw)


@dataclass(frozen=True)
class Bundle:
    """Everything in a bundle folder. ``events`` merges the three logs sorted by :func:`sort_key`;
    ``origins[i]`` is ``(file, line)`` of ``events[i]``."""

    path: Path
    game: GameInfo
    events: tuple[Event, ...]
    bad_lines: tuple[BadLine, ...]
    layout: Layouts | None
    problems: tuple[str, ...]
    origins: tuple[tuple[str, int], ...] = field(default=(), compare=False, repr=False)
    _index: dict[int, int] = field(init=False, default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {id(e): i for i, e in enumerate(self.events)})

    def where(self, ev: Event) -> str | None:
        """``"events.jsonl:17"`` for an event of this bundle (by identity), else None."""
        i = self._index.get(id(ev))
        if i is None or i >= len(self.origins) or self.events[i] is not ev:
            return None
        name, line = self.origins[i]
        return f"{name}:{line}"

    def by_id(self) -> dict[str, Event]:
        return {e.id: e for e in self.events if e.id is not None}

    @property
    def ok(self) -> bool:
        return not self.bad_lines and not self.problems


# ---- game.json ---------------------------------------------------------------------------------------


def _game_path(path: str | Path) -> Path:
    p = Path(path)
    return p / GAME_FILE if p.is_dir() else p


def read_game(path: str | Path) -> GameInfo:
    """Read ``game.json`` (``path`` is the bundle folder or the file). Raises :class:`BundleError`."""
    p = _game_path(path)
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise BundleError(f"{p}: missing (every bundle has a game.json)") from None
    except OSError as e:
        raise BundleError(f"{p}: cannot be read: {e.strerror}") from None
    try:
        obj = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as e:
        raise BundleError(f"{p}: not UTF-8 text (byte {e.start})") from None
    except json.JSONDecodeError as e:
        raise BundleError(f"{p}:{e.lineno}:{e.colno}: invalid JSON: {e.msg}") from None
    return game_from_json(obj, where=str(p))


def game_from_json(obj: object, *, where: str = GAME_FILE) -> GameInfo:
    def err(fld: str, msg: str) -> BundleError:
        return BundleError(f"{where}: field '{fld}': {msg}")

    if not isinstance(obj, dict):
        raise BundleError(f"{where}: expected a JSON object, got {type(obj).__name__}")
    fmt = obj.get("format")
    if not isinstance(fmt, str):
        raise err("format", f"missing or not a string (expected {FORMAT!r})")
    check_format(fmt, where)
    rules = obj.get("rules", "federation")
    if not isinstance(rules, str) or not rules:
        raise err("rules", f"expected a rule-set name ({', '.join(RULE_SETS)}), got {rules!r}")
    started = obj.get("started_at")
    if not isinstance(started, str):
        raise err("started_at", f"expected an ISO 8601 time, got {started!r}")
    try:
        datetime.fromisoformat(started)
    except ValueError:
        raise err("started_at", f"not an ISO 8601 time: {started!r}") from None
    players = _players(obj.get("players"), err)
    video = _video(obj.get("video"), err)
    rule_options = obj.get("rule_options", {})
    if rule_options is None:
        rule_options = {}
    if not isinstance(rule_options, dict):
        raise err("rule_options", f"expected an object of option overrides, got {rule_options!r}")
    game_number = obj.get("game_number")
    if game_number is not None and (not isinstance(game_number, int) or isinstance(game_number, bool)):
        raise err("game_number", f"expected an integer, got {game_number!r}")
    judges = obj.get("judges") or []
    if isinstance(judges, str):
        judges = [judges]
    if not isinstance(judges, list) or not all(isinstance(j, str) for j in judges):
        raise err("judges", f"expected a list of names, got {judges!r}")
    return GameInfo(
        format=fmt,
        rules=rules,
        started_at=started,
        players=players,
        video=video,
        rule_options=dict(rule_options),
        tournament=_opt_text(obj, "tournament", err),
        stage=_opt_text(obj, "stage", err),
        table=_opt_text(obj, "table", err),
        game_number=game_number,
        host=_opt_text(obj, "host", err),
        judges=tuple(judges),
        extra={k: v for k, v in obj.items() if k not in _KNOWN_KEYS},
    )


def check_format(fmt: str, where: str) -> None:
    """Accept ``mafiacam/1``; a later version is refused with a clear message, anything else too."""
    name, _, version = fmt.partition("/")
    if name != FORMAT_NAME or not version.isdigit():
        raise BundleError(f"{where}: field 'format': {fmt!r} is not a mafiacam bundle (expected {FORMAT!r})")
    if int(version) > FORMAT_VERSION:
        raise BundleError(
            f"{where}: field 'format': {fmt!r} was written by a newer mafiacam; this version reads {FORMAT!r}"
        )
    if int(version) < 1:
        raise BundleError(f"{where}: field 'format': unknown version {fmt!r}")


def _players(obj: object, err: Any) -> tuple[Player, ...]:
    if not isinstance(obj, list) or not obj:
        raise err("players", "expected a non-empty list of {seat, name}")
    out: list[Player] = []
    for i, p in enumerate(obj):
        if not isinstance(p, dict):
            raise err(f"players[{i}]", f"expected an object, got {p!r}")
        seat = p.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or seat < 1:
            raise err(f"players[{i}].seat", f"expected a seat number >= 1, got {seat!r}")
        name = p.get("name", "")
        if not isinstance(name, str):
            raise err(f"players[{i}].name", f"expected a string, got {name!r}")
        if any(q.seat == seat for q in out):
            raise err(f"players[{i}].seat", f"seat {seat} is listed twice")
        out.append(
            Player(seat=seat, name=name, extra={k: v for k, v in p.items() if k not in ("seat", "name")})
        )
    return tuple(out)


def _video(obj: object, err: Any) -> tuple[str, ...]:
    if obj is None:
        return ()
    items = [obj] if isinstance(obj, str) else obj
    if not isinstance(items, list) or not all(isinstance(v, str) and v for v in items):
        raise err("video", f"expected a path, a list of segment paths or null, got {obj!r}")
    for v in items:
        pure = PurePosixPath(v.replace("\\", "/"))
        if pure.is_absolute() or ".." in pure.parts or (len(v) > 1 and v[1] == ":"):
            raise err("video", f"{v!r} must be a path relative to the bundle, inside it")
    return tuple(items)


def _opt_text(obj: Mapping[str, Any], key: str, err: Any) -> str | None:
    v = obj.get(key)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, str | int):
        raise err(key, f"expected a string, got {v!r}")
    return str(v)


def game_to_json(info: GameInfo) -> dict[str, Any]:
    out: dict[str, Any] = {
        "format": info.format,
        "rules": info.rules,
        "started_at": info.started_at,
        "players": [{"seat": p.seat, "name": p.name, **p.extra} for p in info.players],
        "video": None if not info.video else (info.video[0] if len(info.video) == 1 else list(info.video)),
    }
    if info.rule_options:
        out["rule_options"] = dict(info.rule_options)
    for key in ("tournament", "stage", "table", "game_number", "host"):
        v = getattr(info, key)
        if v is not None:
            out[key] = v
    if info.judges:
        out["judges"] = list(info.judges)
    for k, v in info.extra.items():
        out.setdefault(k, v)
    return out


def write_game(path: str | Path, info: GameInfo) -> None:
    """Write ``game.json`` atomically (``path`` is the bundle folder or the file)."""
    check_format(info.format, GAME_FILE)
    text = json.dumps(game_to_json(info), ensure_ascii=False, indent=2) + "\n"
    game_from_json(json.loads(text))  # never write what we could not read back
    atomic_write_text(_game_path(path), text)


# ---- the bundle --------------------------------------------------------------------------------------


def create_bundle(path: str | Path, info: GameInfo, layout: Layouts | None = None) -> Path:
    """Make a new bundle folder with ``game.json``, ``layout.json`` (if given) and an empty
    ``events.jsonl``. Refuses a folder that already holds a ``game.json``."""
    p = Path(path)
    if (p / GAME_FILE).exists():
        raise BundleError(f"{p / GAME_FILE}: a bundle already exists here")
    p.mkdir(parents=True, exist_ok=True)
    fsync_dir(p.parent)
    if layout is not None:
        write_layout(p / LAYOUT_FILE, layout)
    (p / EVENTS_FILE).touch()
    write_game(p, info)
    return p


def load_bundle(path: str | Path) -> Bundle:
    """Read a bundle folder. Raises :class:`BundleError` only when ``game.json`` is unusable."""
    p = Path(path)
    if not p.is_dir():
        raise BundleError(f"{p}: not a bundle folder")
    game = read_game(p)
    problems: list[str] = []
    bad: list[BadLine] = []
    merged: list[tuple[Event, str, int]] = []
    first_id: dict[str, str] = {}
    if not (p / EVENTS_FILE).exists():
        problems.append(f"{EVENTS_FILE}: missing (read as empty)")
    for name, sources in FILE_SOURCES.items():
        res = read_events(p / name, missing_ok=True, label=name)
        bad.extend(res.bad)
        for ev, line in zip(res.events, res.lines, strict=True):
            here = f"{name}:{line}"
            if ev.id is not None:
                if ev.id in first_id:
                    msg = f"{here}: field 'id': duplicate id {ev.id!r} (first at {first_id[ev.id]})"
                    bad.append(BadLine(name, line, "", msg))
                    continue
                first_id[ev.id] = here
            if ev.src not in sources:
                problems.append(f"{here}: a {ev.src!r} event does not belong in {name}")
            merged.append((ev, name, line))
    seats = set(game.seats)
    for ev, name, line in merged:
        for fld, seat in event_seats(ev):
            if seat not in seats:
                problems.append(f"{name}:{line}: field '{fld}': seat {seat} is not a seat of this game")
        ref = getattr(ev, "ref", None)
        if isinstance(ref, str) and ref not in first_id:
            problems.append(f"{name}:{line}: field 'ref': no event has id {ref!r}")
    layout = _load_layout(p, game, problems)
    file_order = {name: k for k, name in enumerate(FILE_SOURCES)}
    merged.sort(key=lambda x: (sort_key(x[0]), file_order[x[1]], x[2]))
    return Bundle(
        path=p,
        game=game,
        events=tuple(e for e, _, _ in merged),
        bad_lines=tuple(bad),
        layout=layout,
        problems=tuple(problems),
        origins=tuple((n, ln) for _, n, ln in merged),
    )


def _load_layout(p: Path, game: GameInfo, problems: list[str]) -> Layouts | None:
    if not (p / LAYOUT_FILE).exists():
        if game.video:
            problems.append(f"{LAYOUT_FILE}: missing (the video cannot be analysed without seat zones)")
        return None
    try:
        layouts = read_layout(p / LAYOUT_FILE, seats=len(game.players))
    except LayoutError as e:
        problems.append(str(e).replace(str(p / LAYOUT_FILE), LAYOUT_FILE, 1))
        return None
    except OSError as e:
        problems.append(f"{LAYOUT_FILE}: cannot be read: {e.strerror}")
        return None
    for lay in layouts.layouts:
        missing = set(game.seats) - set(lay.seat_numbers)
        if missing:
            problems.append(f"{LAYOUT_FILE}: layout from t={lay.from_t} has no zones for seat {min(missing)}")
    return layouts


def event_seats(ev: Event) -> list[tuple[str, int]]:
    """Every ``(field, seat)`` an event names (``candidate: "all"`` is not a seat)."""
    out: list[tuple[str, int]] = []
    for f in dataclasses.fields(ev):
        if f.name not in _SEAT_FIELDS:
            continue
        v: Candidate | tuple[int, ...] | None = getattr(ev, f.name)
        if isinstance(v, tuple):
            out.extend((f.name, s) for s in v)
        elif isinstance(v, int):
            out.append((f.name, v))
    if isinstance(ev, Roles):
        out.extend(("others", s) for s in ev.others)
    return out
