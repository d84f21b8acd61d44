"""Event logs, one JSON object a line: ``events.jsonl``, ``vision.jsonl``, ``audio.jsonl``.

- :func:`read_events` keeps every good line of a damaged file and reports each bad one as a
  :class:`BadLine` (JSON syntax, unknown type, bad field, a torn last line, invalid UTF-8, a duplicate
  id); it never raises for content.
- :class:`EventWriter` appends to ``events.jsonl``: one line per event, flushed and fsynced, and by
  default keeps the hash chain sidecar (``events.jsonl.chain``, see :mod:`gamelog.chain`) up to date.
- :func:`write_events_replace` rewrites a derived file (``vision.jsonl``) whole and atomically.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

from gamelog.chain import LineChain, split_lines
from gamelog.events import Event, EventError, event_to_json, parse_event
from gamelog.fsio import atomic_write_bytes, fsync_dir

MAX_TEXT = 200  # how much of a bad line BadLine.text keeps


@dataclass(frozen=True)
class BadLine:
    """A line that could not be read. ``error`` is the full message, starting with ``file:line:``."""

    file: str
    line: int
    text: str
    error: str

    def __str__(self) -> str:
        return self.error


@dataclass(frozen=True)
class ReadResult:
    """The good events in file order, the bad lines, and for each event the line it came from."""

    events: tuple[Event, ...]
    bad: tuple[BadLine, ...]
    lines: tuple[int, ...] = field(default=(), compare=False)

    @property
    def ok(self) -> bool:
        return not self.bad


def event_line(ev: Event) -> bytes:
    """The exact bytes (without ``\\n``) that a writer stores for ``ev``; validates by round trip."""
    try:
        text = json.dumps(event_to_json(ev), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as e:
        raise EventError(f"cannot be written as JSON: {e}") from None
    obj = json.loads(text)
    back = parse_event(obj)
    if event_to_json(back) != obj:
        raise EventError(f"does not survive a round trip: {obj!r} is read back as {event_to_json(back)!r}")
    return text.encode("utf-8")


def parse_line(raw: bytes, *, file: str, line: int) -> Event:
    """One line's bytes (without ``\\n``) to an event; raises :class:`EventError` naming file and line."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise EventError(f"not UTF-8 text (byte {e.start})", file=file, line=line) from None
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as e:
        raise EventError(f"invalid JSON: {e.msg} (column {e.colno})", file=file, line=line) from None
    except RecursionError:
        raise EventError("invalid JSON: nested too deeply", file=file, line=line) from None
    except ValueError as e:  # e.g. an integer literal too long to convert
        raise EventError(f"invalid JSON: {e}", file=file, line=line) from None
    return parse_event(obj, file=file, line=line)


def read_events(path: str | Path, *, missing_ok: bool = False, label: str | None = None) -> ReadResult:
    """Read a log, keeping every good line; ``label`` names the file in messages (default: the path).

    Blank lines are skipped silently. A last line without ``\\n`` was torn by a crash mid-write and is
    reported as bad even when it happens to parse. Raises :class:`FileNotFoundError` only when the file
    is missing and not ``missing_ok`` (then the result is empty).
    """
    p = Path(path)
    name = str(p) if label is None else label
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        if missing_ok:
            return ReadResult((), ())
        raise
    if data.startswith(b"\xef\xbb\xbf"):  # a byte-order mark from a text editor: not part of the JSON
        data = data[3:]
    lines, tail = split_lines(data)
    events: list[Event] = []
    numbers: list[int] = []
    bad: list[BadLine] = []
    first_seen: dict[str, int] = {}
    for no, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            ev = parse_line(raw, file=name, line=no)
        except EventError as e:
            bad.append(_bad(name, no, raw, str(e)))
            continue
        except Exception as e:  # a reader bug must not lose the rest of the file
            bad.append(_bad(name, no, raw, f"{name}:{no}: unreadable event ({type(e).__name__}: {e})"))
            continue
        if ev.id is not None:
            if ev.id in first_seen:
                msg = f"duplicate id {ev.id!r} (first on line {first_seen[ev.id]})"
                bad.append(_bad(name, no, raw, str(EventError(msg, file=name, line=no, field="id"))))
                continue
            first_seen[ev.id] = no
        events.append(ev)
        numbers.append(no)
    if tail.strip():
        no = len(lines) + 1
        msg = f"{name}:{no}: truncated last line (no newline at the end; a crash mid-write?)"
        bad.append(_bad(name, no, tail, msg))
    return ReadResult(tuple(events), tuple(bad), tuple(numbers))


def _bad(name: str, no: int, raw: bytes, error: str) -> BadLine:
    text = raw.decode("utf-8", errors="replace")
    if len(text) > MAX_TEXT:
        text = text[:MAX_TEXT] + "…"
    return BadLine(file=name, line=no, text=text, error=error)


class EventWriter:
    """Append-only writer of ``events.jsonl``: one line per event, flushed and fsynced before returning.

    Opening creates the file when missing. If the file ends with a torn line (a crash mid-write), that
    line is left as it is and a newline is written first, so the next event starts on its own line (the
    reader reports the torn line; nothing good is lost). With ``chain=True`` the hash chain sidecar
    ``<file>.chain`` is kept up to date (see :mod:`gamelog.chain`). Safe to share between threads.
    """

    def __init__(self, path: str | Path, *, chain: bool = True) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        existed = self.path.exists()
        self._f = open(self.path, "a+b")  # noqa: SIM115 - held open for the writer's lifetime
        if not existed:
            fsync_dir(self.path.parent)
        self._f.seek(0)
        data = self._f.read()
        lines, tail = split_lines(data)
        self._next_line = len(lines) + 1
        if tail:
            self._f.write(b"\n")
            self._sync()
            self._next_line += 1
        self._ids: dict[str, int] = {}
        for no, raw in enumerate(lines + ([tail] if tail else []), start=1):
            ev_id = _peek_id(raw)
            if ev_id is not None:
                self._ids.setdefault(ev_id, no)
        self._chain: LineChain | None = LineChain(self.path) if chain else None

    @property
    def head(self) -> str | None:
        """The hex head of the hash chain after the last line (None without a chain)."""
        return self._chain.head if self._chain else None

    def append(self, ev: Event) -> None:
        """Validate ``ev`` (round trip, id unique in the file) and append it durably."""
        with self._lock:
            if self._f.closed:
                raise ValueError(f"{self.path}: writer is closed")
            name, no = self.path.name, self._next_line
            try:
                raw = event_line(ev)
            except EventError as e:
                raise e.located(name, no) from None
            if ev.id is not None and ev.id in self._ids:
                msg = f"duplicate id {ev.id!r} (already on line {self._ids[ev.id]})"
                raise EventError(msg, file=name, line=no, field="id")
            self._f.write(raw + b"\n")
            self._sync()
            if ev.id is not None:
                self._ids[ev.id] = self._next_line
            self._next_line += 1
            if self._chain is not None:
                self._chain.append(raw)

    def extend(self, events: Iterable[Event]) -> None:
        for ev in events:
            self.append(ev)

    def _sync(self) -> None:
        self._f.flush()
        os.fsync(self._f.fileno())

    def close(self) -> None:
        with self._lock:
            if not self._f.closed:
                self._f.close()
            if self._chain is not None:
                self._chain.close()

    def __enter__(self) -> EventWriter:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def _peek_id(raw: bytes) -> str | None:
    try:
        obj: Any = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if isinstance(obj, dict) and isinstance(obj.get("id"), str):
        return str(obj["id"])
    return None


def write_events_replace(path: str | Path, events: Iterable[Event]) -> None:
    """Write a derived log whole: every event validated, then temp file, fsync, ``os.replace``.

    Readers see the old file or the new one, never half a file or half a line. Raises
    :class:`EventError` (naming the line it would have had) before touching the file.
    """
    p = Path(path)
    out: list[bytes] = []
    seen: dict[str, int] = {}
    for no, ev in enumerate(events, start=1):
        try:
            raw = event_line(ev)
        except EventError as e:
            raise e.located(p.name, no) from None
        if ev.id is not None:
            if ev.id in seen:
                raise EventError(
                    f"duplicate id {ev.id!r} (also line {seen[ev.id]})", file=p.name, line=no, field="id"
                )
            seen[ev.id] = no
        out.append(raw + b"\n")
    atomic_write_bytes(p, b"".join(out))
