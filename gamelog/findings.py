"""What the referee found along the way: violations, facts for review, disagreements, timing changes.

A mutable collector used during one referee run; the frozen :class:`~gamelog.state.GameState` gets
sorted, de-duplicated tuples of its contents.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gamelog.state import Disagreement, ReviewItem, TimingChange, Violation


@dataclass
class Findings:
    violations: list[Violation] = field(default_factory=list)
    reviews: list[ReviewItem] = field(default_factory=list)
    disagreements: list[Disagreement] = field(default_factory=list)
    timing: list[TimingChange] = field(default_factory=list)

    def violation(self, t: int, seat: int | None, rule: str, what: str, ref: str | None = None) -> None:
        self.violations.append(Violation(t, seat, rule, what, ref))

    def review(self, t: int, seat: int | None, what: str, ref: str | None = None) -> None:
        self.reviews.append(ReviewItem(t, seat, what, ref))

    def disagree(self, t: int, what: str, seats: tuple[int, ...] = ()) -> None:
        self.disagreements.append(Disagreement(t, what, seats))

    def frozen(
        self, confirmed: frozenset[str]
    ) -> tuple[
        tuple[Violation, ...], tuple[ReviewItem, ...], tuple[Disagreement, ...], tuple[TimingChange, ...]
    ]:
        """Sorted, unique findings; review items whose ``ref`` a judge or host confirmed are dropped."""

        def vkey(v: Violation) -> tuple[int, int, str, str, str]:
            return (v.t, v.seat or 0, v.rule, v.what, v.ref or "")

        def rkey(r: ReviewItem) -> tuple[int, int, str, str]:
            return (r.t, r.seat or 0, r.what, r.ref or "")

        def dkey(d: Disagreement) -> tuple[int, str, tuple[int, ...]]:
            return (d.t, d.what, d.seats)

        def tkey(c: TimingChange) -> tuple[int, int, str]:
            return (c.t, c.seat, str(c.candidate))

        violations = tuple(sorted(set(self.violations), key=vkey))
        reviews = tuple(
            sorted({r for r in self.reviews if r.ref is None or r.ref not in confirmed}, key=rkey)
        )
        return (
            violations,
            reviews,
            tuple(sorted(set(self.disagreements), key=dkey)),
            tuple(sorted(set(self.timing), key=tkey)),
        )
