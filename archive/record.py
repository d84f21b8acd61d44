"""One bundle as the archive indexes it: :func:`read_record` → :class:`GameRecord`.

Never raises for a bad bundle: what cannot be read becomes ``status="damaged"`` with the error (naming
the file and line), what was edited after sealing or lost a segment ``status="broken"``, what loads with
bad lines or inconsistencies ``status="warnings"``; a registered folder that is gone is ``"missing"``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from archive.margins import Margin, smallest_counted, vote_margins
from gamelog.bundle import (
    AUDIO_FILE,
    EVENTS_FILE,
    GAME_FILE,
    LAYOUT_FILE,
    VISION_FILE,
    BundleError,
    load_bundle,
    read_game,
)
from gamelog.events import Decision, Event, Protest
from gamelog.exports.facts import live_events
from gamelog.manifest import CHAIN_FILE, MANIFEST_FILE, bundle_head, check_events, read_manifest, verify
from gamelog.referee import referee_bundle, seats_of
from gamelog.rules import rules_for

# Files whose size and mtime make a bundle's signature (plus the video segments game.json lists).
TRACKED = (GAME_FILE, LAYOUT_FILE, EVENTS_FILE, CHAIN_FILE, VISION_FILE, AUDIO_FILE, MANIFEST_FILE)
HASHED = (GAME_FILE, MANIFEST_FILE)  # small: hashed too, so an edit keeping size and mtime is seen
STATUSES = ("ok", "warnings", "broken", "damaged", "missing")


def current_analyser() -> str:
    """``"<name>/<version>"`` of the analyser in this installation, as vision.jsonl lines carry it."""
    from vision.analyzer import ANALYSER, VERSION

    return f"{ANALYSER}/{VERSION}"


def current_analysers() -> dict[str, str]:
    """name -> version of every analyser whose lines this installation writes into vision.jsonl (the
    main one, and the night watch when this version has it)."""
    from vision.analyzer import ANALYSER, VERSION

    out = {ANALYSER: VERSION}
    try:
        from vision import nightwatch
    except ImportError:
        return out
    name, version = getattr(nightwatch, "NAME", None), getattr(nightwatch, "VERSION", None)
    if isinstance(name, str) and isinstance(version, str):
        out[name] = version
    return out


def norm(text: str) -> str:
    """Search form of a name: Unicode case folding (Cyrillic included) with ё read as е."""
    return " ".join(text.casefold().replace("ё", "е").split())


@dataclass(frozen=True)
class PlayerRow:
    seat: int
    name: str
    role: str | None


@dataclass(frozen=True)
class ProtestRow:
    protest: str
    t: int | None  # when filed (None: only a decision names it)
    by: int | None
    claim: str
    outcome: str | None  # None: not decided yet
    reason: str
    judge: str | None
    decided_t: int | None


@dataclass(frozen=True)
class GameRecord:
    path: str
    signature: str
    status: str
    error: str | None = None
    problems: tuple[str, ...] = ()
    started_at: str | None = None
    date: str | None = None  # YYYY-MM-DD, the local date of started_at
    tournament: str | None = None
    stage: str | None = None
    table: str | None = None
    game_number: int | None = None
    rules: str | None = None
    host: str | None = None
    players: tuple[PlayerRow, ...] = ()
    winner: str | None = None
    win_reason: str | None = None
    video_segments: int = 0
    video_ms: int | None = None
    analysis: str = "no video"  # no video | missing | current | outdated | unknown
    analyser: str | None = None
    integrity: str = "unchecked"  # sealed | unsealed | unchained | broken
    head: str | None = None
    disagreements: int = 0
    needs_review: int = 0
    violations: int = 0
    protests: tuple[ProtestRow, ...] = ()
    margins: tuple[Margin, ...] = ()
    min_vote_margin_ms: int | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def needs_analysis(self) -> bool:
        return self.video_segments > 0 and self.status != "damaged" and self.analysis != "current"


# ---- signature ---------------------------------------------------------------------------------------


def _segments(p: Path) -> tuple[str, ...]:
    try:
        return read_game(p).video
    except BundleError:
        return ()


def signature(path: str | Path) -> str:
    """Size and mtime of the tracked files and segments, hashes of the small ones: changes when any does."""
    p = Path(path)
    parts: dict[str, Any] = {}
    for name in (*TRACKED, *_segments(p)):
        f = p / name
        try:
            st = f.stat()
        except OSError:
            parts[name] = None
            continue
        parts[name] = [st.st_size, st.st_mtime_ns]
        if name in HASHED:
            parts[name].append(hashlib.sha256(f.read_bytes()).hexdigest())
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


# ---- reading -----------------------------------------------------------------------------------------


def _date(started_at: str) -> str | None:
    try:
        return datetime.fromisoformat(started_at).date().isoformat()
    except ValueError:
        return None


def vision_analyser(p: Path) -> tuple[str, str | None]:
    """(analysis status, the analysers that wrote vision.jsonl, e.g. ``"mafiacam-vision/0.4"``).

    ``current`` when every line from an analyser this installation knows carries its current version
    and the main analyser is among them; ``outdated`` when any carries another version (or comes from an
    analyser this installation no longer has); a file without any line of the main analyser (nothing
    seen) is current when the current version's stretch cache is in the bundle, else ``unknown``."""
    f = p / VISION_FILE
    if not f.is_file():
        return "missing", None
    want = current_analysers()
    main = current_analyser().partition("/")[0]
    found: set[str] = set()
    with open(f, "rb") as fh:
        for raw in fh:
            try:
                obj = json.loads(raw)
            except ValueError:
                continue
            if isinstance(obj, dict) and isinstance(obj.get("analyser"), str):
                found.add(obj["analyser"])
    names = ", ".join(sorted(found)) or None
    for a in found:
        name, _, version = a.partition("/")
        if want.get(name) != version:
            return "outdated", names
    if not any(a.partition("/")[0] == main for a in found):
        if (p / ".analysis" / want[main]).is_dir():
            return "current", names or f"{main}/{want[main]}"
        return "unknown", names
    return "current", names


def video_duration_ms(p: Path, segments: tuple[str, ...]) -> int | None:
    """Sum of the segments' container durations (None when one cannot be read)."""
    try:
        import av
    except ImportError:  # pragma: no cover - av is a project dependency
        return None
    total = 0
    for s in segments:
        try:
            with av.open(str(p / s)) as c:
                if c.duration is None:
                    return None
                total += int(c.duration // 1000)
        except (OSError, av.error.FFmpegError):
            return None
    return total


def _protests(events: list[Event]) -> tuple[ProtestRow, ...]:
    filed = {e.protest: e for e in events if isinstance(e, Protest)}
    decided: dict[str, Decision] = {}
    for e in events:
        if isinstance(e, Decision):
            decided[e.protest] = e  # the latest decision stands (events are in time order)
    out = []
    for name in sorted(
        set(filed) | set(decided), key=lambda n: (filed[n].t if n in filed else decided[n].t, n)
    ):
        pr, dc = filed.get(name), decided.get(name)
        out.append(
            ProtestRow(
                protest=name,
                t=pr.t if pr else None,
                by=pr.by if pr else None,
                claim=pr.claim if pr else "",
                outcome=dc.outcome if dc else None,
                reason=dc.reason if dc else "",
                judge=(dc.judge if dc else None) or (pr.judge if pr else None),
                decided_t=dc.t if dc else None,
            )
        )
    return tuple(out)


def integrity_of(p: Path, segments: tuple[str, ...]) -> tuple[str, str | None, list[str]]:
    """(integrity, head when intact, problems): verify() plus segments game.json lists but are gone."""
    report = verify(p)
    problems = list(report.problems)
    for s in segments:
        if not (p / s).is_file() and not any(m.startswith(f"{s}:") for m in problems):
            problems.append(f"{s}: video segment missing (listed in {GAME_FILE})")
    if not problems:
        return ("sealed" if report.sealed else "unsealed"), report.head, []
    unchained = set(check_events(p).unchained)
    fatal = [m for m in problems if m not in unchained]
    if not fatal:
        return "unchained", None, problems
    return "broken", None, fatal


def anchor_matches(path: str | Path, anchor: str) -> bool:
    """Whether a head recorded earlier is the head of some state of the bundle's log (lines appended
    since are allowed), with the sealed files as they are now. Cheap: no video is hashed."""
    p = Path(path)
    try:
        m = read_manifest(p)
    except BundleError:
        return False
    files_head = m.files_head if m is not None else "00" * 32
    return any(bundle_head(h, files_head) == anchor for h in check_events(p).heads)


def anchor_message(anchor: str) -> str:
    return (
        f"the head the archive recorded when it first saw this bundle sealed ({anchor[:16]}…) "
        "matches no state of it now: the chain was rewritten after the fact"
    )


def read_record(path: str | Path, *, with_duration: bool = True) -> GameRecord:
    p = Path(path)
    sig = signature(p)
    if not p.is_dir():
        return GameRecord(str(p), sig, "missing", error=f"{p}: the bundle folder is gone")
    try:
        bundle = load_bundle(p)
    except BundleError as e:
        integrity, _, probs = integrity_of(p, ())
        return GameRecord(str(p), sig, "damaged", error=str(e), problems=tuple(probs), integrity=integrity)
    game = bundle.game
    problems = [str(b) for b in bundle.bad_lines] + list(bundle.problems)
    segs = game.video
    integrity, head, chain_problems = integrity_of(p, segs)
    state: dict[str, Any] = {}
    margins: list[Margin] = []
    try:
        state = referee_bundle(bundle).to_json()
        rules = rules_for(game.rules, game.rule_options)
        margins = vote_margins(bundle.events, state, rules, seats_of(game))
    except Exception as e:  # a rule set this version does not know, or a referee bug: keep the game listed
        problems.append(f"{GAME_FILE}: the referee could not read the game: {e}")
    roles = {int(k): str(v) for k, v in (state.get("roles") or {}).items()}
    analysis, analyser = vision_analyser(p) if segs else ("no video", None)
    if integrity == "broken":
        status, error = "broken", chain_problems[0]
    elif problems:
        status, error = "warnings", problems[0]
    else:
        status, error = "ok", None
    return GameRecord(
        path=str(p),
        signature=sig,
        status=status,
        error=error,
        problems=tuple(problems + [m for m in chain_problems if m not in problems]),
        started_at=game.started_at,
        date=_date(game.started_at),
        tournament=game.tournament,
        stage=game.stage,
        table=game.table,
        game_number=game.game_number,
        rules=game.rules,
        host=game.host,
        players=tuple(PlayerRow(pl.seat, pl.name, roles.get(pl.seat)) for pl in game.players),
        winner=state.get("winner"),
        win_reason=state.get("win_reason"),
        video_segments=len(segs),
        video_ms=video_duration_ms(p, segs) if segs and with_duration else None,
        analysis=analysis,
        analyser=analyser,
        integrity=integrity,
        head=head,
        disagreements=len(state.get("disagreements", [])),
        needs_review=len(state.get("needs_review", [])),
        violations=len(state.get("violations", [])),
        protests=_protests(live_events(bundle.events)),
        margins=tuple(margins),
        min_vote_margin_ms=smallest_counted(margins),
    )
