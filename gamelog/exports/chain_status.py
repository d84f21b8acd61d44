"""What a score sheet prints about the bundle's hash chain: :func:`chain_status` of a bundle folder."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gamelog.manifest import check_events, verify


@dataclass(frozen=True)
class ChainStatus:
    """``head`` only when the bundle verifies. ``status``: sealed, unsealed (the event log verifies, no
    manifest yet), unchained (a log entered by hand and never chained) or broken. ``problems`` are what
    :func:`gamelog.manifest.verify` found that matters here (all of them when the log was never chained)."""

    head: str | None
    status: str
    detail: str
    problems: tuple[str, ...]


def chain_status(bundle: str | Path) -> ChainStatus:
    report = verify(bundle)
    if report.ok:
        return ChainStatus(report.head, "sealed" if report.sealed else "unsealed", "", ())
    unchained = set(check_events(bundle).unchained)
    fatal = tuple(m for m in report.problems if m not in unchained)
    if not fatal:
        return ChainStatus(None, "unchained", "", tuple(report.problems))
    return ChainStatus(None, "broken", "; ".join(fatal[:2]), fatal)
