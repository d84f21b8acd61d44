"""``archive verify``: every bundle's hash chain, sealed files and segments, re-hashed in full.

Unlike the index (which trusts size and mtime to skip unchanged bundles), this reads every byte. Per
bundle it reports what :func:`gamelog.manifest.verify` finds (lines changed, inserted or deleted after
recording; sealed files or segments changed or missing; an edited manifest), segments that ``game.json``
lists but are gone (also in a bundle not sealed yet), and, when the archive saw the bundle sealed
before, whether the head it recorded then still matches a state of the log (a chain rewritten from
scratch after an edit verifies on its own, but not against that anchor; lines appended since are fine).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from archive.catalog import Catalog
from archive.record import anchor_matches, anchor_message, integrity_of
from gamelog.bundle import BundleError, read_game

INTACT = ("sealed", "unsealed")


@dataclass(frozen=True)
class BundleCheck:
    path: str  # as in the index
    integrity: str  # sealed | unsealed | unchained | broken
    head: str | None
    problems: tuple[str, ...]

    def intact(self, *, allow_unchained: bool = False) -> bool:
        return self.integrity in INTACT or (allow_unchained and self.integrity == "unchained")


def check_bundle(path: Path, anchor: str | None) -> tuple[str, str | None, list[str]]:
    try:
        segments = read_game(path).video
    except BundleError:
        segments = ()
    integrity, head, problems = integrity_of(path, segments)
    if anchor is not None and integrity in INTACT and not anchor_matches(path, anchor):
        integrity, head, problems = "broken", None, [anchor_message(anchor)]
    return integrity, head, problems


def verify_archive(cat: Catalog, *, progress: Callable[[str], None] | None = None) -> list[BundleCheck]:
    """Refresh the index, then check every indexed bundle in full."""
    cat.refresh()
    out: list[BundleCheck] = []
    for row in cat.games():
        key = row["path"]
        if progress:
            progress(key)
        path = cat.abs_path(key)
        if not path.is_dir():
            out.append(BundleCheck(key, "broken", None, (f"{path}: the bundle folder is gone",)))
            continue
        integrity, head, problems = check_bundle(path, cat.anchor(key))
        if integrity == "sealed" and head is not None:
            cat.set_anchor(key, head)
        out.append(BundleCheck(key, integrity, head, tuple(problems)))
    return out
