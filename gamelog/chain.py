"""The per-line SHA-256 hash chain of an append-only log (``events.jsonl`` → ``events.jsonl.chain``).

For the lines ``L1, L2, …`` of the log (the bytes of each line without its ``\\n``):
``h0 = 32 zero bytes`` and ``h_i = sha256(h_{i-1} || L_i)``. The sidecar holds one JSON line per log
line: ``{"line": i, "sha256": hex(sha256(L_i)), "chain": hex(h_i)}``. The per-line digest lets a check say
exactly which line changed, was inserted or was deleted; the chain value binds every line to all before it,
so the last one (the head) vouches for the whole log.

Crash safety: the log line is written and fsynced before its chain entry. After a crash the sidecar may
lack the entries of the last lines, or end with a torn entry; :class:`LineChain` drops a torn entry and
chains the missing lines from the log when it is opened again.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

fcntl: ModuleType | None
try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no advisory locks; one writer at a time there
    fcntl = None

GENESIS = bytes(32)
SUFFIX = ".chain"


def chain_step(prev: bytes, line: bytes) -> bytes:
    return hashlib.sha256(prev + line).digest()


def chain_path(log_path: str | Path) -> Path:
    p = Path(log_path)
    return p.with_name(p.name + SUFFIX)


def split_lines(data: bytes) -> tuple[list[bytes], bytes]:
    """The complete lines (without ``\\n``) and the torn tail after the last ``\\n`` (``b""`` if none)."""
    parts = data.split(b"\n")
    return parts[:-1], parts[-1]


@dataclass(frozen=True)
class ChainEntry:
    line: int
    digest: str  # hex sha256 of the line's bytes
    chain: str  # hex h_i

    def to_line(self) -> bytes:
        obj = {"line": self.line, "sha256": self.digest, "chain": self.chain}
        return json.dumps(obj).encode("ascii") + b"\n"


@dataclass(frozen=True)
class ChainRead:
    """The sidecar as read: its good entries, one problem per unreadable entry, and a torn tail."""

    entries: tuple[ChainEntry, ...]
    problems: tuple[str, ...]
    torn_tail: bytes
    exists: bool


def _is_hex(s: object) -> bool:
    return isinstance(s, str) and len(s) == 64 and all(c in "0123456789abcdef" for c in s)


def read_chain(path: str | Path) -> ChainRead:
    """Read a sidecar; never raises for content (an unreadable entry becomes a problem)."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        return ChainRead((), (), b"", False)
    return parse_chain(data, p.name)


def parse_chain(data: bytes, name: str) -> ChainRead:
    lines, tail = split_lines(data)
    entries: list[ChainEntry] = []
    problems: list[str] = []
    for no, raw in enumerate(lines, start=1):
        try:
            obj = json.loads(raw.decode("ascii"))
        except (UnicodeDecodeError, ValueError):
            problems.append(f"{name}:{no}: chain entry is not readable")
            continue
        if (
            not isinstance(obj, dict)
            or not isinstance(obj.get("line"), int)
            or not _is_hex(obj.get("sha256"))
            or not _is_hex(obj.get("chain"))
        ):
            problems.append(f"{name}:{no}: chain entry lacks line, sha256 or chain")
            continue
        entries.append(ChainEntry(int(obj["line"]), str(obj["sha256"]), str(obj["chain"])))
    return ChainRead(tuple(entries), tuple(problems), tail, True)


def chain_lines(lines: list[bytes], prev: bytes = GENESIS, first: int = 1) -> list[ChainEntry]:
    """Chain entries for ``lines`` numbered from ``first``, continuing from ``prev``."""
    out: list[ChainEntry] = []
    h = prev
    for i, line in enumerate(lines, start=first):
        h = chain_step(h, line)
        out.append(ChainEntry(i, hashlib.sha256(line).hexdigest(), h.hex()))
    return out


class LineChain:
    """Keeps ``<log>.chain`` up to date while a writer appends to ``<log>``.

    Opening it recovers from a crash: a torn last entry is cut off, and log lines that have no entry
    yet (written just before a crash) are chained. Lines already chained are not re-checked here;
    ``manifest.verify`` does that. Every change of the sidecar happens under an advisory lock
    (``flock``, where the OS has it), and a writer that finds entries it did not write (``seal`` ran
    meanwhile) takes them over instead of chaining a line twice.
    """

    def __init__(self, log_path: str | Path) -> None:
        self.log_path = Path(log_path)
        self.path = chain_path(self.log_path)
        self._lock = threading.Lock()
        self._f = open(self.path, "a+b")  # noqa: SIM115 - held open for the writer's lifetime
        self._count = 0
        self._head = GENESIS
        self._size = 0
        with self._locked():
            self._sync()
            self._catch_up()

    @property
    def head(self) -> str:
        return self._head.hex()

    @property
    def count(self) -> int:
        return self._count

    def append(self, line: bytes) -> ChainEntry:
        """Chain one line (bytes without ``\\n``) that was just written to the log."""
        with self._lock, self._locked():
            if os.fstat(self._f.fileno()).st_size != self._size:
                # Someone else chained lines since our last write: the line is in the log, so
                # catching up with the log chains it exactly once.
                self._sync()
                self._catch_up()
                return ChainEntry(self._count, hashlib.sha256(line).hexdigest(), self.head)
            (entry,) = chain_lines([line], self._head, self._count + 1)
            self._write([entry])
            return entry

    @contextmanager
    def _locked(self) -> Iterator[None]:
        if fcntl is None:
            yield
            return
        fcntl.flock(self._f.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(self._f.fileno(), fcntl.LOCK_UN)

    def _sync(self) -> None:
        """Read the sidecar: cut a torn last entry, continue from the last good one."""
        self._f.seek(0)
        data = self._f.read()
        _, tail = split_lines(data)
        if tail:
            self._f.truncate(len(data) - len(tail))
            self._f.flush()
            os.fsync(self._f.fileno())
            data = data[: len(data) - len(tail)]
        entries = parse_chain(data, self.path.name).entries
        last = entries[-1] if entries else None
        self._count = last.line if last else 0
        self._head = bytes.fromhex(last.chain) if last else GENESIS
        self._size = len(data)

    def _catch_up(self) -> None:
        try:
            log_lines, _ = split_lines(self.log_path.read_bytes())
        except FileNotFoundError:
            log_lines = []
        if len(log_lines) > self._count:
            self._write(chain_lines(log_lines[self._count :], self._head, self._count + 1))

    def _write(self, entries: list[ChainEntry]) -> None:
        if not entries:
            return
        data = b"".join(e.to_line() for e in entries)
        self._f.write(data)
        self._f.flush()
        os.fsync(self._f.fileno())
        self._size += len(data)
        self._count = entries[-1].line
        self._head = bytes.fromhex(entries[-1].chain)

    def close(self) -> None:
        if not self._f.closed:
            self._f.close()
