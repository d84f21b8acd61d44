"""Seeded random games that are legal: a script (``tablesim.script`` format) from a seed.

A game runs night 0 (the mafia meet), then days and shooting nights until ``days`` days have been played
or a side has won. Days have 2–3 candidates; votes land inside their windows, some seats stay silent and
are defaulted to the last candidate, some vote late (on or after "Спасибо"), some lift the hand before the
count; ties lead to a re-vote and, if the same players tie again, the all-leave question. Nights kill (all
black players shoot the same number) or miss (one shoots another number or not at all); a red player may
peek. ``length="short"`` compresses speeches to a couple of seconds (for tests and accuracy benchmarks);
``"full"`` plays the game at a real game's pace: every speech its minute, 30 s speeches of the tied players
before a re-vote, and a minute of last words for each player voted out or shot (long idle stretches with no
host marks, cheap to encode; the draws are the same as for ``"short"``, so both lengths play the same game).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tablesim.script import DEFAULT_NAMES, FORMAT, Script, parse_script

SEATS = 10
QUESTION_MS = 2900  # the spoken vote question lasts about this long
WINDOW_MS = 1900  # from the end of the question to "Спасибо"
LAST_WORDS_MS = 60000  # full length: a player voted out or shot speaks a last minute
TIE_SPEECH_MS = 30000  # full length: each tied player speaks 30 s before the re-vote


class _Game:
    def __init__(self, seed: int, length: str) -> None:
        self.rng = np.random.default_rng([seed, 0x6A3E])
        self.seed = seed
        self.length = length
        self.t = 1000
        self.host: list[dict[str, Any]] = []
        self.seats: list[dict[str, Any]] = []
        perm = [int(x) + 1 for x in self.rng.permutation(SEATS)]
        self.don, self.mafia, self.sheriff = perm[0], sorted(perm[1:3]), perm[3]
        self.black = {self.don, *self.mafia}
        self.alive = set(range(1, SEATS + 1))
        self.first_speaker = 1
        self.misses = 0
        self.peeked = False
        self.shot_last_night = False

    def r(self, a: float, b: float) -> int:
        return int(self.rng.uniform(a, b))

    def say(self, do: str, **kw: Any) -> None:
        self.host.append({"t": self.t, "do": do, **kw})

    def act(self, t: int, seat: int, do: str, **kw: Any) -> None:
        self.seats.append({"t": t, "seat": seat, "do": do, **kw})

    def winner(self) -> str | None:
        b = len(self.alive & self.black)
        if b == 0:
            return "red"
        if b >= len(self.alive - self.black) or self.misses >= 3:
            return "black" if b else "red"
        return None

    # ---- night 0 --------------------------------------------------------------------------------

    def night0(self) -> None:
        self.say("night", n=0)
        self.t += 3000
        meet0 = self.t
        for s in sorted(self.black):
            self.act(meet0 + self.r(0, 400), s, "meet", until=meet0 + 3200 + self.r(0, 400))
        self.t += 4200
        self.say("roles")
        self.t += 1500

    # ---- a day ----------------------------------------------------------------------------------

    def day(self, n: int) -> None:
        self.say("day", n=n)
        self.t += 1500
        if self.shot_last_night and self.length == "full":
            self.t += LAST_WORDS_MS  # the shot player's last words
        order = [((self.first_speaker - 1 + i) % SEATS) + 1 for i in range(SEATS)]
        order = [s for s in order if s in self.alive]
        want = min(len(self.alive) - 1, 2 + int(self.rng.random() < 0.5))
        pool = [int(x) for x in self.rng.permutation(sorted(self.alive))]
        candidates: list[int] = []
        nominated_by: set[int] = set()
        speech_ms = 60000 if self.length == "full" else 1800
        for s in order:
            self.say("speech", seat=s)
            t_speech = self.t
            self.t += speech_ms
            if (len(candidates) < want and self.rng.random() < 0.6) or (
                len(candidates) < want and s == order[-1]
            ):
                target = next(c for c in pool if c not in candidates and c != s)
                self.t_nominate(t_speech, s, target)
                candidates.append(target)
                nominated_by.add(s)
            self.say("speech_end", seat=s)
            self.t += 400
        self.first_speaker = self.first_speaker % SEATS + 1
        if n == 1 and len(candidates) == 1:
            self.t += 2000
            return
        self.t += 1500
        eliminated = self.vote(candidates)
        for s in eliminated:
            self.alive.discard(s)
            if self.length == "full":
                self.t += LAST_WORDS_MS
        self.t += 3000

    def t_nominate(self, t_speech: int, by: int, target: int) -> None:
        saved = self.t
        self.t = t_speech + (self.t - t_speech) // 2
        self.say("nominate", by=by, target=target)
        self.t = saved

    def vote(self, candidates: list[int]) -> list[int]:
        names, rnd = list(candidates), "main"
        while True:
            groups = self.split(names)
            self.round(names, groups, rnd)
            counts = [len(g) for g in groups]
            top = max(counts)
            tied = [c for c, k in zip(names, counts, strict=True) if k == top]
            if len(tied) == 1:
                return tied
            if rnd == "revote" and tied == names:
                return self.all_round(tied)
            names, rnd = tied, "revote"
            # the tied players' 30 s speeches (compressed in short games)
            self.t += TIE_SPEECH_MS * len(tied) if self.length == "full" else 4000

    def split(self, names: list[int]) -> list[list[int]]:
        """Who ends up counted for each candidate (before defaults are decided): a tie now and then."""
        voters = [int(x) for x in self.rng.permutation(sorted(self.alive))]
        k = len(names)
        n = len(voters)
        if k >= 2 and (k > 2 or n % 2 == 0) and self.rng.random() < 0.45:
            h = n // 2 if k == 2 else (n + 1) // 2 - 1  # a tie between the first two, the rest below them
            rest = n - 2 * h
            sizes = [h, h] + [rest // (k - 2) + (1 if i < rest % (k - 2) else 0) for i in range(k - 2)]
        else:
            cuts = sorted(int(x) for x in self.rng.integers(0, n + 1, k - 1))
            sizes = [b - a for a, b in zip([0, *cuts], [*cuts, n], strict=True)]
        groups, i = [], 0
        for size in sizes:
            groups.append(voters[i : i + size])
            i += size
        return groups

    def round(self, names: list[int], groups: list[list[int]], rnd: str) -> None:
        last = len(names) - 1
        silent = [s for s in groups[last] if self.rng.random() < 0.4]  # defaulted to the last candidate
        late_for: dict[int, list[int]] = {}
        for s in silent:
            if last > 0 and self.rng.random() < 0.5:  # some of them vote late for an earlier candidate
                late_for.setdefault(int(self.rng.integers(0, last)), []).append(s)
        late_seats = {s for v in late_for.values() for s in v}
        reacher = next((s for s in silent if s not in late_seats), None) if self.rng.random() < 0.5 else None
        for j, cand in enumerate(names):
            self.say("vote_call", candidate=cand, round=rnd)
            call = self.t
            if reacher is not None and j == 0 and last > 0:
                # a silent neighbour's hand reaches into the next seat's zone during a vote: not a vote.
                # Seats 1 and 10 are not neighbours (the host sits between them): they reach inwards.
                into = reacher + 1 if self.rng.random() < 0.5 else reacher - 1
                if not 1 <= into <= SEATS:
                    into = 2 if reacher == 1 else SEATS - 1
                t0 = call + QUESTION_MS + self.r(0, 400)
                self.act(t0, reacher, "reach", into=into, until=t0 + self.r(700, 1200))
            stop = call + QUESTION_MS + WINDOW_MS + self.r(-200, 200)
            lifter = None
            for s in groups[j]:
                if j == last and s in silent:
                    continue
                land = call + QUESTION_MS + self.r(100, stop - call - QUESTION_MS - 250)
                hand = "left" if self.rng.random() < 0.25 else "right"
                self.act(land, s, "vote", hand=hand)
                if lifter is None and self.rng.random() < 0.3:
                    lifter = (s, land)
            for s in late_for.get(j, []):
                self.act(stop + self.r(0, 450), s, "vote")
            self.t = stop
            self.say("vote_stop")
            if lifter is not None:
                self.act(stop + self.r(150, 700), lifter[0], "lift")
            self.t = stop + 1100
            self.say("vote_count")
            self.t += 2300

    def all_round(self, tied: list[int]) -> list[int]:
        self.say("vote_call", round="all")
        call = self.t
        stop = call + 3500 + WINDOW_MS
        voters = [s for s in sorted(self.alive) if self.rng.random() < 0.55]
        for s in voters:
            self.act(call + 3500 + self.r(100, WINDOW_MS - 250), s, "vote")
        self.t = stop
        self.say("vote_stop")
        self.t += 1100
        self.say("vote_count")
        self.t += 2300
        return tied if len(voters) * 2 > len(self.alive) else []

    # ---- a shooting night ---------------------------------------------------------------------

    def night(self, n: int) -> None:
        self.say("night", n=n)
        self.t += 3500
        self.say("hunt")
        self.t += 2500
        shooters = sorted(self.alive & self.black)
        reds = sorted(self.alive - self.black)
        target = int(self.rng.choice(reds))
        kill = self.rng.random() < 0.6
        aim = {s: target for s in shooters}
        if not kill and shooters:
            odd = int(self.rng.choice(shooters))
            if self.rng.random() < 0.5 or len(shooters) == 1:
                others = [x for x in sorted(self.alive) if x != target]
                aim[odd] = int(self.rng.choice(others))
            else:
                del aim[odd]  # does not shoot
        calls: dict[int, int] = {}
        for number in range(1, SEATS + 1):
            calls[number] = self.t
            self.say("shot_call", target=number)
            self.t += 1500
        for s, tg in aim.items():
            self.act(
                calls[tg] + self.r(500, 900), s, "shot", hand="right" if self.rng.random() < 0.7 else "left"
            )
        if not self.peeked and reds and self.rng.random() < 0.7:
            peeker = int(self.rng.choice([x for x in reds if x not in aim]))
            t0 = calls[3] + self.r(0, 3000)
            self.act(t0, peeker, "peek", until=t0 + self.r(1200, 2500))
            self.peeked = True
        self.t += 1000
        if self.don in self.alive:
            self.say(
                "don_check", target=int(self.rng.choice([x for x in sorted(self.alive) if x != self.don]))
            )
            self.t += 2500
        if self.sheriff in self.alive:
            self.say(
                "sheriff_check",
                target=int(self.rng.choice([x for x in sorted(self.alive) if x != self.sheriff])),
            )
            self.t += 2500
        shots = list(aim.values())
        if len(shots) == len(shooters) and len(set(shots)) == 1 and shooters:
            self.alive.discard(shots[0])
            self.misses = 0
            self.shot_last_night = True
        else:
            self.misses += 1
            self.shot_last_night = False


def random_script_json(seed: int, *, days: int = 1, length: str = "short") -> dict[str, Any]:
    """The JSON object of a random legal game: night 0, then ``days`` days each followed by a night."""
    if length not in ("short", "full"):
        raise ValueError(f"length must be short or full, got {length!r}")
    if days < 1:
        raise ValueError("a game has at least one day")
    g = _Game(seed, length)
    g.night0()
    for n in range(1, days + 1):
        if g.winner():
            break
        g.day(n)
        if g.winner():
            break
        g.night(n)
    if not g.winner():
        g.say("day", n=min(days + 1, 99))
        g.t += 1500
    return {
        "format": FORMAT,
        "seed": seed,
        "rules": "federation",
        "roles": {"don": g.don, "mafia": g.mafia, "sheriff": g.sheriff},
        "players": [{"seat": i + 1, "name": n} for i, n in enumerate(DEFAULT_NAMES)],
        "end": g.t + 2500,
        "host": g.host,
        "seats": sorted(g.seats, key=lambda a: (a["t"], a["seat"])),
    }


def random_script(seed: int, *, days: int = 1, length: str = "short") -> Script:
    return parse_script(
        random_script_json(seed, days=days, length=length), file=f"<random game, seed {seed}>"
    )
