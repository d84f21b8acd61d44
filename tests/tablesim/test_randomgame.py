"""Random games are legal, varied and repeatable."""

from __future__ import annotations

import pytest

from tablesim.build import Knobs, prepare
from tablesim.randomgame import random_script, random_script_json
from tablesim.scene import CameraKnobs

TINY = Knobs(camera=CameraKnobs(width=320, height=180))


def test_the_same_seed_gives_the_same_game() -> None:
    assert random_script_json(7) == random_script_json(7)
    assert random_script_json(7) != random_script_json(8)


@pytest.mark.parametrize("seed", range(1, 13))
def test_random_games_are_legal(seed: int) -> None:
    script = random_script(seed)  # parse_script validates windows, phases and timing
    _, perf, marks, out = prepare(script, TINY)  # the outcome reader checks the rounds follow the counts
    assert script.end < 150_000  # short by default
    assert out["days"] and out["days"][0]["votes"]
    for day in out["days"]:
        for v in day["votes"]:
            assert not set(v["late"]) & (set(v["voters"]) - set(v["defaulted"]))
            if v["round"] != "all":
                assert set(v["defaulted"]) <= set(v["voters"])
    counts = [m for m in marks if m.type == "vote_count"]
    assert counts and all("count" in m.fields for m in counts)
    downs = [h for h in perf.hands if h.kind == "hand_down"]
    ups = [h for h in perf.hands if h.kind == "hand_up"]
    assert len(downs) == len(ups)
    assert all(
        u.t > d.t
        for d, u in zip(
            sorted(downs, key=lambda h: (h.seat, h.t)), sorted(ups, key=lambda h: (h.seat, h.t)), strict=True
        )
    )


def test_random_games_cover_the_cases() -> None:
    seen: dict[str, int] = {
        "late": 0,
        "lift": 0,
        "defaulted": 0,
        "revote": 0,
        "all": 0,
        "kill": 0,
        "miss": 0,
        "peek": 0,
        "reach": 0,
    }
    for seed in range(1, 13):
        _, perf, _, out = prepare(random_script(seed), TINY)
        for d in out["days"]:
            for v in d["votes"]:
                seen["late"] += len(v["late"])
                seen["defaulted"] += len(v["defaulted"])
                seen["revote"] += v["round"] == "revote"
                seen["all"] += v["round"] == "all"
        for n in out["nights"]:
            seen["kill" if n["killed"] else "miss"] += 1
        seen["lift"] += sum(h.note == "lifted before the count" for h in perf.hands)
        seen["peek"] += sum(h.note == "peek" for h in perf.hands)
        seen["reach"] += len(perf.reaches)
    assert all(v > 0 for v in seen.values()), seen


def test_full_length_games_give_every_speech_its_minute() -> None:
    s = random_script(3, length="full")
    speeches = [h for h in s.host if h.kind == "speech"]
    ends = [h for h in s.host if h.kind == "speech_end"]
    assert ends[0].t - speeches[0].t == 60_000
    with pytest.raises(ValueError, match="short or full"):
        random_script_json(3, length="medium")


def test_full_length_plays_the_short_game_at_a_real_pace() -> None:
    """Same decisions; tied players speak 30 s each before a re-vote; a shot player's last words come
    between the day's announcement and its first speech."""
    full = random_script_json(2, days=3, length="full")
    short = random_script_json(2, days=3, length="short")

    def plot(obj: dict[str, object]) -> list[tuple[object, ...]]:
        host = obj["host"]
        seats = obj["seats"]
        assert isinstance(host, list) and isinstance(seats, list)
        return [(h["do"], h.get("seat"), h.get("target"), h.get("candidate")) for h in host] + [
            (a["do"], a["seat"], a.get("into")) for a in seats
        ]

    assert plot(full) == plot(short)
    for game, tie_gap, words in ((full, 2300 + 2 * 30_000, 61_500), (short, 2300 + 4000, 1500)):
        host = game["host"]
        revotes = [i for i, h in enumerate(host) if h["do"] == "vote_call" and h.get("round") == "revote"]
        assert revotes and host[revotes[0]]["t"] - host[revotes[0] - 1]["t"] == tie_gap
        mornings = [
            host[i + 1]["t"] - h["t"] for i, h in enumerate(host[:-1]) if h["do"] == "day" and h["n"] > 1
        ]
        assert words in mornings  # night 1 killed (seed 2): the shot player's last minute
    speeches = sum(h["do"] == "speech" for h in full["host"])
    # every speech's minute, one re-vote's two tie speeches and one night's last words at least
    assert full["end"] - short["end"] >= speeches * (60_000 - 1800) + 2 * (30_000 - 2000) + 60_000
