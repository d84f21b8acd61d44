"""Small archives for the archive tests: hand-made bundles from the project's example game and the
shared contract examples, copied with edited game.json fields, extra judge events and vision lines."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from archive.record import current_analyser
from gamelog.manifest import seal

ROOT = Path(__file__).resolve().parents[2]
FULL_GAME = ROOT / "examples" / "full-game"


def make_bundle(
    src: Path,
    dst: Path,
    *,
    game: dict[str, Any] | None = None,
    rename: dict[int, str] | None = None,
    drop_types: Iterable[str] = (),
    events: Iterable[dict[str, Any]] = (),
    vision: Iterable[dict[str, Any]] = (),
    sealed: bool = True,
) -> Path:
    """Copy ``game.json`` and ``events.jsonl`` of ``src`` into ``dst`` with edits; seal when asked."""
    dst.mkdir(parents=True)
    g = json.loads((src / "game.json").read_text(encoding="utf-8"))
    g.update(game or {})
    for p in g["players"]:
        if rename and p["seat"] in rename:
            p["name"] = rename[p["seat"]]
    (dst / "game.json").write_text(json.dumps(g, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    drop = set(drop_types)
    lines = [
        ln
        for ln in (src / "events.jsonl").read_text(encoding="utf-8").splitlines()
        if ln.strip() and json.loads(ln)["type"] not in drop
    ]
    lines += [json.dumps(e, ensure_ascii=False) for e in events]
    (dst / "events.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    vis = [dict(e, src="vision", analyser=current_analyser()) for e in vision]
    if vis:
        (dst / "vision.jsonl").write_text(
            "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in vis), encoding="utf-8"
        )
    if sealed:
        seal(dst)
    return dst


def hand(t: int, seat: int) -> dict[str, Any]:
    return {
        "t": t,
        "type": "hand_down",
        "seat": seat,
        "gesture": "thumb_up",
        "conf": 0.9,
        "box": None,
        "id": f"vis:hand_down:{seat}:{t}",
    }


def cup_game_1(dst: Path, shared_dir: Path) -> Path:
    """examples/full-game: a sealed final of "Кубок Сибири" with a decided protest and an open one, and
    vision seeing 4 of the host's 5 votes against seat 9 on day 1 (a disagreement)."""
    return make_bundle(
        FULL_GAME,
        dst,
        game={
            "tournament": "Кубок Сибири",
            "stage": "финал",
            "table": "1",
            "game_number": 1,
            "started_at": "2025-03-01T19:00:00+07:00",
        },
        rename={7: "Мария Ёлкина"},
        events=[
            {
                "t": 2400000,
                "type": "protest",
                "src": "judge",
                "protest": "p1",
                "by": 9,
                "claim": "seat 8 voted after Спасибо",
                "id": "j0001",
            },
            {
                "t": 2460000,
                "type": "decision",
                "src": "judge",
                "protest": "p1",
                "outcome": "rejected",
                "reason": "the hand landed before the close",
                "id": "j0002",
            },
            {
                "t": 2470000,
                "type": "protest",
                "src": "judge",
                "protest": "p2",
                "by": 4,
                "claim": "seat 1 peeked at night",
                "id": "j0003",
            },
        ],
        vision=[hand(824300, 1), hand(824500, 2), hand(824700, 5), hand(824900, 7)],
    )


def cup_game_2(dst: Path, shared_dir: Path) -> Path:
    """Contract example 01 with the host's votes replaced by vision: seat 5 lands 150 ms before
    "Спасибо" of the first window (the closest counted vote)."""
    src = shared_dir / "contract_examples" / "01-majority-and-kill"
    w1 = [hand(816269, 3), hand(816400, 2), hand(816530, 1), hand(818049 - 150, 5)]
    w2 = [
        hand(t, s) for t, s in ((822680, 6), (822789, 10), (822851, 7), (823006, 8), (823135, 9), (823265, 4))
    ]
    return make_bundle(
        src,
        dst,
        game={
            "tournament": "Кубок Сибири",
            "stage": "финал",
            "table": "2",
            "game_number": 2,
            "started_at": "2025-03-02T12:00:00+07:00",
        },
        drop_types=("vote",),
        vision=w1 + w2,
    )


def spring_game(dst: Path, shared_dir: Path) -> Path:
    """Contract example 05 as a hand-entered game of "Spring Open", never chained."""
    src = shared_dir / "contract_examples" / "05-tie-all-leave-pass"
    return make_bundle(
        src,
        dst,
        game={
            "tournament": "Spring Open",
            "table": "3",
            "game_number": 1,
            "started_at": "2025-04-12T18:00:00+03:00",
        },
        sealed=False,
    )


def build_archive(root: Path, shared_dir: Path) -> Path:
    cup_game_1(root / "cup" / "final-t1-g1", shared_dir)
    cup_game_2(root / "cup" / "final-t2-g2", shared_dir)
    spring_game(root / "spring" / "t3-g1", shared_dir)
    return root


@pytest.fixture
def archive_dir(tmp_path: Path, shared_dir: Path) -> Path:
    """An archive folder holding three bundles (not yet indexed), for tests that change it."""
    return build_archive(tmp_path / "archive", shared_dir)


@pytest.fixture(scope="module")
def indexed_archive(tmp_path_factory: pytest.TempPathFactory, shared_dir: Path) -> Path:
    """The same archive, indexed once per module: for tests that only read it."""
    from archive.catalog import Catalog

    root = build_archive(tmp_path_factory.mktemp("archive"), shared_dir)
    with Catalog(root) as cat:
        cat.refresh()
    return root


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., tuple[int, str, str]]:
    from mafiacam.cli import main

    def run(*argv: str) -> tuple[int, str, str]:
        rc = main(list(argv))
        out, err = capsys.readouterr()
        return rc, out, err

    return run
