"""A small game writer for referee tests: host marks, host votes and vision hands with a moving clock.

    g = Game()                      # night 0, roles (Don 2, mafia 5 and 8, Sheriff 1), day 1
    g.discussion(noms={1: 4, 6: 9})  # speeches in seat order with nominations
    g.vote(4, [1, 3, 6, 7, 10])      # a host-entered vote window
    state = g.run()

Every event gets an id (``h0001``…, ``v0001``… for vision); helpers return the ids they made.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gamelog.events import Event, parse_event
from gamelog.referee import referee
from gamelog.rules import rules_for
from gamelog.state import GameState

BLACK = (2, 5, 8)


class Game:
    def __init__(
        self,
        rules: str = "federation",
        *,
        seats: int = 10,
        don: int = 2,
        mafia: tuple[int, ...] = (5, 8),
        sheriff: int = 1,
        start_day: bool = True,
        roles: bool = True,
    ) -> None:
        self.rules = rules
        self.seats = tuple(range(1, seats + 1))
        self.lines: list[dict[str, Any]] = []
        self.t = 2000
        self._n = 0
        self.day_n = 0
        self.night_n = 0
        self.gone: set[int] = set()
        self.add("night", n=0)
        if roles:
            self.add("roles", t=self.t + 100_000, don=don, mafia=list(mafia), sheriff=sheriff)
        self.t += 200_000
        if start_day:
            self.day()

    # ---- raw events -------------------------------------------------------------------------------
    def add(self, typ: str, *, t: int | None = None, src: str = "host", **kw: Any) -> str:
        self._n += 1
        prefix = {"vision": "v", "judge": "j", "audio": "a"}.get(src, "h")
        ev_id = kw.pop("id", None) or f"{prefix}{self._n:04d}"
        line = {"t": self.t if t is None else t, "type": typ, "src": src, **kw, "id": ev_id}
        if src == "vision":
            line.setdefault("analyser", "test/1")
        self.lines.append(line)
        return ev_id

    def tick(self, ms: int) -> int:
        self.t += ms
        return self.t

    def events(self) -> list[Event]:
        return [parse_event(line) for line in self.lines]

    def run(self, rules: str | None = None, **options: Any) -> GameState:
        return referee(self.events(), rules=rules_for(rules or self.rules, options), seats=self.seats)

    def json(self, **options: Any) -> dict[str, Any]:
        return self.run(**options).to_json()

    # ---- phases -----------------------------------------------------------------------------------
    def day(self) -> None:
        self.day_n += 1
        self.add("day", n=self.day_n)
        self.tick(4000)

    def night(self) -> None:
        self.night_n += 1
        self.add("night", n=self.night_n)
        self.tick(9000)

    def speech(
        self, seat: int, ms: int = 58_000, during: Iterable[tuple[int, str, dict[str, Any]]] = ()
    ) -> None:
        start = self.t
        self.add("speech", seat=seat)
        for off, typ, kw in during:
            self.add(typ, t=start + off, **kw)
        self.t = start + ms
        self.add("speech_end", seat=seat)
        self.tick(2000)

    def discussion(
        self,
        order: Iterable[int] | None = None,
        noms: Mapping[int, int] | None = None,
        during: Mapping[int, list[tuple[int, str, dict[str, Any]]]] | None = None,
    ) -> None:
        """Speeches (default: living seats from the usual opener) with ``noms`` {by: target}."""
        noms = noms or {}
        during = during or {}
        seats = list(order) if order is not None else [s for s in self.seats if s not in self.gone]
        for s in seats:
            extra = list(during.get(s, []))
            if s in noms:
                extra.append((10_000, "nominate", {"by": s, "target": noms[s]}))
            self.speech(s, during=sorted(extra, key=lambda x: x[0]))
        self.tick(5000)

    # ---- votes ------------------------------------------------------------------------------------
    def call(self, candidate: int | str, round: str = "main") -> str:
        kw: dict[str, Any] = {"round": round}
        if candidate != "all":
            kw["candidate"] = candidate
        return self.add("vote_call", **kw)

    def vote(
        self,
        candidate: int | str,
        voters: Iterable[int],
        round: str = "main",
        *,
        src: str = "host",
        count: int | None = None,
        window: int = 2000,
    ) -> dict[str, Any]:
        """A window with host/judge-entered votes; returns the ids {"call", "stop"}."""
        start = self.t
        call = self.call(candidate, round)
        for i, s in enumerate(voters):
            self.add("vote", t=start + 200 + 40 * i, src=src, seat=s, candidate=candidate)
        self.t = start + window
        stop = self.add("vote_stop")
        if count is not None:
            self.add("vote_count", t=self.t + 800, candidate=candidate, count=count)
        self.tick(4000)
        return {"call": call, "stop": stop}

    def hands(
        self,
        candidate: int | str,
        downs: Mapping[int, int],
        round: str = "main",
        *,
        window: int = 2000,
        ups: Mapping[int, int] | None = None,
        gesture: str = "thumb_up",
        conf: float = 0.95,
        count: int | None = None,
        onset: int | None = None,
        lift_all: bool = True,
    ) -> dict[str, Any]:
        """A window judged by vision: ``downs`` {seat: ms after the call}; the host announces the count
        0.8 s after the stop (``count``, default: the hands before the stop) and hands rise 1.5 s after
        the stop unless ``ups`` says when (ms after the call). Returns ids: call, stop, down, up."""
        start = self.t
        ids: dict[str, Any] = {"call": self.call(candidate, round), "down": {}, "up": {}}
        for s, off in downs.items():
            ids["down"][s] = self.add(
                "hand_down",
                t=start + off,
                src="vision",
                seat=s,
                gesture=gesture,
                conf=conf,
                box=[0, 0, 10, 10],
            )
        stop_t = start + window
        ids["stop"] = self.add("vote_stop", t=stop_t)
        if onset is not None:
            ids["onset"] = self.add("speech_onset", t=stop_t - onset, src="audio", ref=ids["stop"], conf=0.9)
        count_t = stop_t + 800
        if count is None:  # the host announces what he saw before his keystroke
            count = sum(1 for off in downs.values() if off < window)
        self.add("vote_count", t=count_t, candidate=candidate, count=count)
        ups = dict(ups or {})
        if lift_all:
            for s in downs:
                ups.setdefault(s, window + 1500)
        for s, off in ups.items():
            ids["up"][s] = self.add("hand_up", t=start + off, src="vision", seat=s, conf=0.9)
        self.t = max([stop_t + 2000, *(start + off + 100 for off in ups.values())])
        self.tick(2000)
        return ids

    # ---- nights -----------------------------------------------------------------------------------
    def shooting(
        self, shots: Mapping[int, int | list[int]] | None = None, *, src: str = "host"
    ) -> dict[int, str]:
        """Calls 1..N; host/judge shots {seat: target or [targets]} entered during the call."""
        shots = shots or {}
        calls: dict[int, str] = {}
        for num in self.seats:
            calls[num] = self.add("shot_call", target=num)
            for seat, tg in sorted(shots.items()):
                for x in [tg] if isinstance(tg, int) else tg:
                    if x == num:
                        self.add("shot", t=self.t + 300 + seat, src=src, seat=seat, target=x)
            self.tick(1500)
        self.tick(5000)
        return calls

    def raises(
        self, raises: Mapping[int, list[tuple[int, int]]], *, gesture: str = "gun", conf: float = 0.9
    ) -> None:
        """Calls 1..N with vision shot_raises {seat: [(number, ms after its call)]}."""
        start = self.t
        for i, num in enumerate(self.seats):
            self.add("shot_call", t=start + 1500 * i, target=num)
        for seat, items in raises.items():
            for num, off in items:
                t = start + 1500 * (num - 1) + off
                self.add(
                    "shot_raise", t=t, src="vision", seat=seat, gesture=gesture, conf=conf, box=[0, 0, 5, 5]
                )
        self.t = start + 1500 * len(self.seats) + 5000

    def full_day_vote(self, noms: Mapping[int, int], votes: Mapping[int, list[int]]) -> None:
        self.discussion(noms=noms)
        for cand, voters in votes.items():
            self.vote(cand, voters)


def seats_of(state: GameState) -> set[int]:
    return set(state.seats)
