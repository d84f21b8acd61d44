"""Judge actions as events (no Qt): file a protest, void, confirm, move "Спасибо", enter a vote, decide.

A judge never edits a line: every action appends new judge events to ``events.jsonl`` through
:class:`gamelog.jsonl.EventWriter` (append-only, fsynced, hash chain kept). Each event carries the judge's
name, a reason and ``at`` (the wall-clock time of the action, UTC ISO 8601; ``t`` is media time); ids are
fresh ``j…`` strings unique in the bundle. The builders are pure so the
dialogs (asking) stay apart from the change (doing), and the tests can check what would be written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from gamelog.bundle import EVENTS_FILE
from gamelog.events import Confirm, Decision, Event, Protest, Void, Vote, VoteStop
from gamelog.jsonl import EventWriter


class JudgeError(ValueError):
    """A judge action that cannot be taken (no name, no reason, an unknown reference)."""


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass
class IdMaker:
    """Fresh ids ``j<t>-<n>`` not yet used in the bundle (nor by this maker); ``clock`` stamps ``at``."""

    taken: set[str]
    clock: Callable[[], str] = utc_now

    def at(self) -> dict[str, str]:
        return {"at": self.clock()}

    @classmethod
    def for_events(cls, events: Iterable[Event]) -> IdMaker:
        return cls({e.id for e in events if e.id is not None})

    def new(self, t: int, prefix: str = "j") -> str:
        n = 1
        while f"{prefix}{t}-{n}" in self.taken:
            n += 1
        out = f"{prefix}{t}-{n}"
        self.taken.add(out)
        return out


def _need(judge: str, reason: str) -> None:
    if not judge.strip():
        raise JudgeError("the judge's name is required")
    if not reason.strip():
        raise JudgeError("a reason is required")


def protest(
    ids: IdMaker,
    *,
    t: int,
    judge: str,
    by: int | None,
    seats: Sequence[int],
    claim: str,
    from_t: int,
    until: int,
) -> Protest:
    if not judge.strip():
        raise JudgeError("the judge's name is required")
    if not claim.strip():
        raise JudgeError("what is claimed is required")
    if until < from_t:
        raise JudgeError(f"the range ends ({until}) before it starts ({from_t})")
    pid = ids.new(t, "p")
    return Protest(
        t=t,
        src="judge",
        id=pid,
        protest=pid,
        by=by,
        seats=tuple(sorted(set(seats))),
        claim=claim.strip(),
        from_t=from_t,
        until=until,
        judge=judge.strip(),
        extra=ids.at(),
    )


def void(ids: IdMaker, *, target: Event, judge: str, reason: str, t: int | None = None) -> Void:
    _need(judge, reason)
    if target.id is None:
        raise JudgeError(f"the {target.TYPE} at t={target.t} has no id and cannot be voided")
    at = target.t if t is None else t
    return Void(
        t=at,
        src="judge",
        id=ids.new(at),
        ref=target.id,
        reason=reason.strip(),
        judge=judge.strip(),
        extra=ids.at(),
    )


def confirm(ids: IdMaker, *, ref: str, t: int, judge: str, reason: str) -> Confirm:
    _need(judge, reason)
    return Confirm(
        t=t, src="judge", id=ids.new(t), ref=ref, reason=reason.strip(), judge=judge.strip(), extra=ids.at()
    )


def move_stop(ids: IdMaker, *, stop: VoteStop, new_t: int, judge: str, reason: str) -> list[Event]:
    """Move the host's "Спасибо" to ``new_t`` (the true voice onset): void it and stop again as a judge."""
    _need(judge, reason)
    gone = void(ids, target=stop, judge=judge, reason=reason, t=stop.t)
    extra = {"judge": judge.strip(), "reason": reason.strip(), "replaces": stop.id, **ids.at()}
    again = VoteStop(t=new_t, src="judge", id=ids.new(new_t), extra=extra)
    return [gone, again]


def judge_vote(ids: IdMaker, *, t: int, seat: int, candidate: int | str, judge: str, reason: str) -> Vote:
    _need(judge, reason)
    extra = {"judge": judge.strip(), "reason": reason.strip(), **ids.at()}
    cand: int | Literal["all"] = "all" if candidate == "all" else int(candidate)
    return Vote(t=t, src="judge", id=ids.new(t), seat=seat, candidate=cand, extra=extra)


def decision(ids: IdMaker, *, protest_id: str, t: int, outcome: str, judge: str, reason: str) -> Decision:
    _need(judge, reason)
    if outcome not in OUTCOMES:
        raise JudgeError(f"unknown outcome {outcome!r} (one of {', '.join(OUTCOMES)})")
    return Decision(
        t=t,
        src="judge",
        id=ids.new(t, "d"),
        protest=protest_id,
        outcome=outcome,
        reason=reason.strip(),
        judge=judge.strip(),
        extra=ids.at(),
    )


OUTCOMES = ("upheld", "rejected", "partly")


def append(bundle: Path, events: Sequence[Event]) -> None:
    """Append judge events to the bundle's ``events.jsonl`` (all validated before the first is written)."""
    with EventWriter(bundle / EVENTS_FILE) as w:
        w.extend(events)
