"""The bundle's manifest and hash chains: :func:`seal` records, :func:`verify` checks.

Two chains, one head:

- the **event chain** over every line of ``events.jsonl``, kept line by line by the writer in
  ``events.jsonl.chain`` (see :mod:`gamelog.chain`); its head ``E`` moves with every appended line;
- the **sealed-files chain** in ``manifest.json``, written by :func:`seal` once files are closed:
  ``f0 = 32 zero bytes``, ``f_k = sha256(f_{k-1} || sha256(file_k))`` over ``game.json``, ``layout.json``
  (when present) and the video segments in their order; its head is ``F`` (zeros before sealing).

The bundle's head, printed on score sheets and protest reports, is ``hex(sha256(E || F))``. A head
printed earlier still verifies after more lines were appended (judge decisions after the game): the
check finds the line up to which it matches. ``vision.jsonl`` / ``audio.jsonl`` are derived and are
replaced by each analysis, so they are outside both chains; the manifest notes their digests at sealing
for information only.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from gamelog.bundle import (
    AUDIO_FILE,
    EVENTS_FILE,
    FORMAT,
    GAME_FILE,
    LAYOUT_FILE,
    VISION_FILE,
    BundleError,
    read_game,
)
from gamelog.chain import GENESIS, LineChain, chain_path, chain_step, read_chain, split_lines
from gamelog.fsio import atomic_write_text

MANIFEST_FILE = "manifest.json"
CHAIN_FILE = EVENTS_FILE + ".chain"
_BLOCK = 1 << 20


class SealError(Exception):
    """The bundle cannot be sealed as it is (its log does not match its chain, a segment is missing)."""


@dataclass(frozen=True)
class SealedFile:
    file: str
    size: int
    sha256: str
    chain: str  # f_k after this file


@dataclass(frozen=True)
class Manifest:
    sealed_at: str
    events_lines: int  # lines of events.jsonl chained when sealing
    events_head: str  # h at that line
    files: tuple[SealedFile, ...]  # game.json, layout.json, then the segments
    segments: int  # how many of ``files`` (at the end) are video segments
    derived: dict[str, str] = field(default_factory=dict)  # file -> sha256, informational
    head: str = ""  # sha256(E_at_seal || F)

    @property
    def files_head(self) -> str:
        return self.files[-1].chain if self.files else GENESIS.hex()

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "hash": "sha256",
            "sealed_at": self.sealed_at,
            "events": {
                "file": EVENTS_FILE,
                "chain_file": CHAIN_FILE,
                "lines": self.events_lines,
                "head": self.events_head,
            },
            "files": [
                {"file": f.file, "size": f.size, "sha256": f.sha256, "chain": f.chain}
                for f in self.files[: len(self.files) - self.segments]
            ],
            "segments": [
                {"file": f.file, "size": f.size, "sha256": f.sha256, "chain": f.chain}
                for f in self.files[len(self.files) - self.segments :]
            ],
            "files_head": self.files_head,
            "derived": [{"file": k, "sha256": v} for k, v in self.derived.items()],
            "head": self.head,
        }


def bundle_head(events_head: str, files_head: str) -> str:
    return hashlib.sha256(bytes.fromhex(events_head) + bytes.fromhex(files_head)).hexdigest()


def file_digest(path: Path) -> tuple[int, str]:
    h = hashlib.sha256()
    size = 0
    with open(path, "rb") as f:
        while block := f.read(_BLOCK):
            h.update(block)
            size += len(block)
    return size, h.hexdigest()


def read_manifest(bundle: str | Path) -> Manifest | None:
    """The manifest, or None when the bundle was never sealed. Raises :class:`BundleError` when unreadable."""
    p = Path(bundle) / MANIFEST_FILE
    try:
        obj = json.loads(p.read_bytes().decode("utf-8"))
    except FileNotFoundError:
        return None
    except (UnicodeDecodeError, ValueError) as e:
        raise BundleError(f"{MANIFEST_FILE}: not readable JSON ({e})") from None
    try:
        ev = obj["events"]

        def sealed(items: list[dict[str, Any]]) -> list[SealedFile]:
            return [
                SealedFile(str(x["file"]), int(x["size"]), str(x["sha256"]), str(x["chain"])) for x in items
            ]

        files = sealed(obj["files"])
        segs = sealed(obj["segments"])
        return Manifest(
            sealed_at=str(obj["sealed_at"]),
            events_lines=int(ev["lines"]),
            events_head=str(ev["head"]),
            files=tuple(files + segs),
            segments=len(segs),
            derived={str(d["file"]): str(d["sha256"]) for d in obj.get("derived", [])},
            head=str(obj["head"]),
        )
    except (KeyError, TypeError, ValueError) as e:
        raise BundleError(f"{MANIFEST_FILE}: missing or malformed field ({e})") from None


# ---- the event chain ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class EventsCheck:
    problems: tuple[str, ...]
    notes: tuple[str, ...]
    lines: int  # complete lines in the log
    chained: int  # entries in the sidecar
    heads: tuple[str, ...]  # heads[i] = h_i for i = 0..chained (recomputed where the log allows)
    unchained: tuple[str, ...] = ()  # the problems that are only lines not chained yet (seal fixes them)

    @property
    def head(self) -> str:
        return self.heads[-1]


def check_events(bundle: str | Path) -> EventsCheck:
    """Compare ``events.jsonl`` with its chain sidecar, line by line."""
    log = Path(bundle) / EVENTS_FILE
    try:
        data = log.read_bytes()
    except FileNotFoundError:
        data = None
    read = read_chain(chain_path(log))
    problems: list[str] = list(read.problems)
    notes: list[str] = []
    entries = read.entries
    if data is None:
        if entries:
            problems.append(f"{EVENTS_FILE}: missing, but its chain holds {len(entries)} lines")
        return EventsCheck(tuple(problems), (), 0, len(entries), (GENESIS.hex(), *(e.chain for e in entries)))
    lines, tail = split_lines(data)
    if tail:
        notes.append(
            f"{EVENTS_FILE}:{len(lines) + 1}: torn last line (a crash mid-write); "
            "not an event and not chained"
        )
    if read.torn_tail:
        notes.append(
            f"{CHAIN_FILE}: torn last entry (a crash mid-write); the writer recovers it when reopened"
        )
    if not read.exists:
        msgs: tuple[str, ...] = ()
        if lines:
            msgs = (
                f"{EVENTS_FILE}: {len(lines)} lines are not chained (no {CHAIN_FILE}; "
                "`seal` chains a log entered by hand)",
            )
        return EventsCheck(tuple(problems) + msgs, tuple(notes), len(lines), 0, (GENESIS.hex(),), msgs)
    for j, e in enumerate(entries, start=1):
        if e.line != j:
            problems.append(f"{CHAIN_FILE}:{j}: entry is numbered {e.line}, expected {j}")
            break
    recorded = [e.digest for e in entries]
    current = [hashlib.sha256(line).hexdigest() for line in lines]
    diff, unchained = _diff_lines(recorded, current)
    problems.extend(diff)
    problems.extend(unchained)
    # Recompute the chain over the lines that still match their entries, up to the first difference.
    first_diff = next((i for i, (a, b) in enumerate(zip(recorded, current, strict=False)) if a != b), None)
    upto = min(len(recorded), len(current)) if first_diff is None else first_diff
    heads = [GENESIS.hex()]
    h = GENESIS
    for i in range(upto):
        h = chain_step(h, lines[i])
        if h.hex() != entries[i].chain:
            problems.append(
                f"{CHAIN_FILE}:{i + 1}: chain value does not follow from the lines before it "
                "(the chain file was edited)"
            )
            break
        heads.append(h.hex())
    heads.extend(e.chain for e in entries[len(heads) - 1 :])
    return EventsCheck(
        tuple(problems), tuple(notes), len(lines), len(entries), tuple(heads), tuple(unchained)
    )


def _diff_lines(recorded: list[str], current: list[str]) -> tuple[list[str], list[str]]:
    """Problems for changed, inserted and deleted lines, and (apart) lines appended after the chain."""
    out: list[str] = []
    unchained: list[str] = []
    f = EVENTS_FILE
    sm = difflib.SequenceMatcher(None, recorded, current, autojunk=False)
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            continue
        if op == "replace":
            for k in range(max(i2 - i1, j2 - j1)):
                i, j = i1 + k, j1 + k
                if i < i2 and j < j2:
                    was = "" if i == j else f" (recorded as line {i + 1})"
                    out.append(f"{f}:{j + 1}: line changed after it was recorded{was}")
                elif j < j2:
                    out.append(f"{f}:{j + 1}: line inserted after recording")
                else:
                    out.append(_deleted(i, j2, len(current)))
        elif op == "delete":
            out.extend(_deleted(i, j1, len(current)) for i in range(i1, i2))
        elif op == "insert":
            for j in range(j1, j2):
                if i1 == len(recorded):
                    unchained.append(
                        f"{f}:{j + 1}: line is not in the chain (appended without the writer, "
                        "or a crash before its chain entry; `seal` chains it)"
                    )
                else:
                    out.append(f"{f}:{j + 1}: line inserted after recording")
    return out, unchained


def _deleted(i: int, j: int, n_current: int) -> str:
    where = f"before current line {j + 1}" if j < n_current else "at the end of the log"
    return f"{EVENTS_FILE}: recorded line {i + 1} was deleted ({where})"


# ---- sealing -----------------------------------------------------------------------------------------


def seal(bundle: str | Path, *, segments: int | None = None) -> Manifest:
    """(Re)write ``manifest.json`` for the bundle's closed files and return it.

    Chains any log lines that have no chain entry yet (a log entered by hand, or lines written just before
    a crash) but refuses (:class:`SealError`) when lines already chained no longer match. ``segments``
    seals only the first N video segments (the recorder may seal each closed segment as it goes).
    """
    p = Path(bundle)
    game = read_game(p)
    check = check_events(p)
    fatal = [m for m in check.problems if m not in check.unchained]
    if fatal:
        raise SealError(f"{p}: will not seal a log that no longer matches its chain:\n" + "\n".join(fatal))
    if (p / EVENTS_FILE).exists():
        chain = LineChain(p / EVENTS_FILE)  # chains the missing lines, recovers a torn entry
        events_lines, events_head = chain.count, chain.head
        chain.close()
    else:
        events_lines, events_head = 0, GENESIS.hex()
    names = [GAME_FILE] + ([LAYOUT_FILE] if (p / LAYOUT_FILE).exists() else [])
    videos = list(game.video if segments is None else game.video[:segments])
    files: list[SealedFile] = []
    f = GENESIS
    for name in names + videos:
        path = p / name
        if not path.is_file():
            raise SealError(f"{p}: {name}: missing, cannot be sealed")
        size, digest = file_digest(path)
        f = chain_step(f, bytes.fromhex(digest))
        files.append(SealedFile(name, size, digest, f.hex()))
    derived = {n: file_digest(p / n)[1] for n in (VISION_FILE, AUDIO_FILE) if (p / n).is_file()}
    m = Manifest(
        sealed_at=datetime.now(UTC).isoformat(timespec="seconds"),
        events_lines=events_lines,
        events_head=events_head,
        files=tuple(files),
        segments=len(videos),
        derived=derived,
        head=bundle_head(events_head, f.hex()),
    )
    atomic_write_text(p / MANIFEST_FILE, json.dumps(m.to_json(), ensure_ascii=False, indent=1) + "\n")
    return m


# ---- verifying ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class VerifyReport:
    """``ok`` only when nothing recorded was changed, inserted, deleted or is missing."""

    ok: bool
    head: str
    problems: list[str]
    notes: list[str] = field(default_factory=list)
    lines: int = 0  # lines of events.jsonl covered by the chain
    segments: int = 0  # video segments sealed
    sealed: bool = False
    matched_line: int | None = None  # with expect_head: the log line up to which it matched


def verify(bundle: str | Path, *, expect_head: str | None = None) -> VerifyReport:
    """Check the event chain, the sealed files and the segments; ``expect_head`` is a head printed
    earlier (a prefix of at least 8 hex digits is enough) to check the bundle against."""
    p = Path(bundle)
    problems: list[str] = []
    notes: list[str] = []
    try:
        game = read_game(p)
    except BundleError as e:
        game = None
        problems.append(str(e).replace(str(p / GAME_FILE), GAME_FILE, 1))
    ev = check_events(p)
    problems.extend(ev.problems)
    notes.extend(ev.notes)
    try:
        manifest = read_manifest(p)
    except BundleError as e:
        manifest = None
        problems.append(str(e))
    files_head = GENESIS.hex()
    if manifest is None:
        if not any(m.startswith(MANIFEST_FILE) for m in problems):
            notes.append(f"not sealed ({MANIFEST_FILE} missing): only {EVENTS_FILE} is covered")
    else:
        files_head = _check_manifest(p, manifest, ev, game.video if game else (), problems, notes)
    head = bundle_head(ev.head, files_head)
    matched: int | None = None
    if expect_head is not None:
        matched = _match_head(expect_head, ev.heads, files_head, problems, notes)
    return VerifyReport(
        ok=not problems,
        head=head,
        problems=problems,
        notes=notes,
        lines=ev.chained,
        segments=manifest.segments if manifest else 0,
        sealed=manifest is not None,
        matched_line=matched,
    )


def _check_manifest(
    p: Path, m: Manifest, ev: EventsCheck, videos: tuple[str, ...], problems: list[str], notes: list[str]
) -> str:
    f = GENESIS
    n_plain = len(m.files) - m.segments
    for k, sf in enumerate(m.files):
        f = chain_step(f, bytes.fromhex(sf.sha256))
        if f.hex() != sf.chain:
            problems.append(
                f"{MANIFEST_FILE}: chain value of {sf.file} does not follow (the manifest was edited)"
            )
            break
        path = p / sf.file
        what = "segment" if k >= n_plain else "file"
        seg = f" (segment {k - n_plain + 1})" if k >= n_plain else ""
        if not path.is_file():
            problems.append(f"{sf.file}: {what} missing{seg}; it was sealed")
            continue
        size, digest = file_digest(path)
        if size != sf.size or digest != sf.sha256:
            problems.append(f"{sf.file}: {what} changed after it was sealed{seg}")
    sealed_names = {sf.file for sf in m.files}
    for v in videos:
        if v not in sealed_names:
            notes.append(f"{v}: segment not sealed yet")
    if LAYOUT_FILE not in sealed_names and (p / LAYOUT_FILE).exists():
        problems.append(f"{LAYOUT_FILE}: added after the bundle was sealed")
    if m.events_lines > ev.chained:
        problems.append(
            f"{MANIFEST_FILE}: sealed with {m.events_lines} log lines, the chain now holds only {ev.chained}"
        )
    elif m.events_head != ev.heads[m.events_lines]:
        problems.append(
            f"{MANIFEST_FILE}: the log's first {m.events_lines} lines no longer hash to the head sealed then"
        )
    if m.head != bundle_head(m.events_head, m.files_head):
        problems.append(f"{MANIFEST_FILE}: its head does not match its contents (the manifest was edited)")
    for name, digest in m.derived.items():
        path = p / name
        if not path.is_file() or file_digest(path)[1] != digest:
            notes.append(f"{name}: differs from when sealed (derived; re-analysis replaces it, not chained)")
    return m.files_head


def _match_head(
    expect: str, heads: tuple[str, ...], files_head: str, problems: list[str], notes: list[str]
) -> int | None:
    want = expect.strip().lower()
    if len(want) < 8 or any(c not in "0123456789abcdef" for c in want):
        problems.append(f"expected head {expect!r}: give at least 8 hex digits")
        return None
    for i in range(len(heads) - 1, -1, -1):
        if bundle_head(heads[i], files_head).startswith(want):
            if i < len(heads) - 1:
                notes.append(
                    f"the expected head matches the log as of line {i}; "
                    f"lines {i + 1}..{len(heads) - 1} were appended later"
                )
            return i
    problems.append(f"expected head {want}: no state of this bundle has it (changed since it was printed)")
    return None


def current_head(bundle: str | Path) -> str:
    """The bundle's head without re-hashing the video (reads the chain sidecar and the manifest)."""
    p = Path(bundle)
    read = read_chain(chain_path(p / EVENTS_FILE))
    events_head = read.entries[-1].chain if read.entries else GENESIS.hex()
    try:
        m = read_manifest(p)
    except BundleError:
        m = None
    return bundle_head(events_head, m.files_head if m else GENESIS.hex())
