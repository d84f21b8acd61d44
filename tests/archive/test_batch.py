"""Batch analysis of an archive: locally (process pool) and through a Dask LocalCluster of two worker
processes on loopback, on a small tablesim game; the results must be the same bytes."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from archive.batch import analyse_archive, pending_jobs
from archive.catalog import Catalog
from archive.record import current_analyser, current_analysers, vision_analyser
from tests.archive.conftest import FULL_GAME, make_bundle, spring_game

pytestmark = pytest.mark.slow


# 20 s of a first day: two candidates, two vote windows with hands landing (one just before "Спасибо").
MINI_GAME = {
    "format": "tablesim/1",
    "seed": 5,
    "rules": "federation",
    "roles": {"don": 5, "mafia": [2, 7], "sheriff": 10},
    "players": [
        {"seat": 1, "name": "Бриз"},
        {"seat": 2, "name": "Штиль"},
        {"seat": 3, "name": "Орбита"},
        {"seat": 4, "name": "Шмель"},
        {"seat": 5, "name": "Сова"},
        {"seat": 6, "name": "Арчи"},
        {"seat": 7, "name": "Марс"},
        {"seat": 8, "name": "Ферзь"},
        {"seat": 9, "name": "Мира"},
        {"seat": 10, "name": "Лотос"},
    ],
    "end": 20000,
    "host": [
        {"t": 500, "do": "night", "n": 0},
        {"t": 1500, "do": "roles"},
        {"t": 2500, "do": "day", "n": 1},
        {"t": 3000, "do": "speech", "seat": 1},
        {"t": 3400, "do": "nominate", "by": 1, "target": 5},
        {"t": 4000, "do": "speech_end", "seat": 1},
        {"t": 4200, "do": "speech", "seat": 2},
        {"t": 4600, "do": "nominate", "by": 2, "target": 4},
        {"t": 5200, "do": "speech_end", "seat": 2},
        {"t": 6000, "do": "vote_call", "candidate": 5, "round": "main"},
        {"t": 9500, "do": "vote_stop"},
        {"t": 10300, "do": "vote_count"},
        {"t": 11500, "do": "vote_call", "candidate": 4, "round": "main"},
        {"t": 15000, "do": "vote_stop"},
        {"t": 15800, "do": "vote_count"},
    ],
    "seats": [
        {"t": 8000, "seat": 6, "do": "vote", "hand": "left"},
        {"t": 8300, "seat": 8, "do": "vote", "hand": "right"},
        {"t": 9200, "seat": 3, "do": "vote"},
        {"t": 13000, "seat": 1, "do": "vote"},
        {"t": 13500, "seat": 2, "do": "vote"},
        {"t": 14800, "seat": 9, "do": "vote"},
    ],
}


@pytest.fixture(scope="module")
def sim_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A short, small synthetic game with video and the host's voice (tablesim via mafiacam sim), hands
    drawn 1.5x life size so that a 640x360 frame keeps them detectable."""
    tmp = tmp_path_factory.mktemp("sim")
    script = tmp / "mini.json"
    script.write_text(json.dumps(MINI_GAME, ensure_ascii=False), encoding="utf-8")
    out = tmp / "game"
    cmd = [sys.executable, "-m", "mafiacam", "sim", str(script), "--out", str(out)]
    cmd += ["--size", "640x360", "--fps", "10", "--hand-scale", "1.5", "--quiet"]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    assert (out / "video.mp4").is_file() and (out / "layout.json").is_file()
    return out


def make_archive(root: Path, sim: Path, shared_dir: Path) -> Path:
    shutil.copytree(sim, root / "tournament" / "sim-game")
    spring_game(root / "tournament" / "hand-entered", shared_dir)  # no video: nothing to analyse
    return root


def test_local_and_dask_write_the_same_bytes(
    tmp_path: Path, sim_bundle: Path, shared_dir: Path, run_cli: Callable[..., tuple[int, str, str]]
) -> None:
    local = make_archive(tmp_path / "local", sim_bundle, shared_dir)
    dask = make_archive(tmp_path / "dask", sim_bundle, shared_dir)
    seen: list[tuple[float, int, int]] = []
    with Catalog(local) as cat:
        jobs, current = pending_jobs(cat)
        assert [j.key for j in jobs] == ["tournament/sim-game"] and current == 0
        assert jobs[0].video_ms is not None and jobs[0].video_ms > 15_000
        rep = analyse_archive(cat, workers=2, progress=lambda f, d, n, e: seen.append((f, d, n)))
        assert rep.engine == "local" and [r.ok for r in rep.results] == [True], rep.results
        assert rep.results[0].duration_ms > 15_000 and rep.throughput > 0
        row = cat.find("tournament/sim-game")
        assert row is not None and row["analysis"] == "current"
        assert current_analyser() in row["analyser"]
    assert seen[-1] == (1.0, 1, 1)
    assert any(0.0 < f < 1.0 for f, _, _ in seen)  # the bar moved with the stretches, not only at the end

    rc, out, err = run_cli("archive", "analyze", str(dask), "--local-cluster", "2", "--quiet")
    assert rc == 0, err
    assert "1 of 1 bundles analysed (dask)" in err
    assert "tournament/sim-game: " in out and " events from " in out

    for name in ("vision.jsonl", "audio.jsonl"):
        a = (local / "tournament" / "sim-game" / name).read_bytes()
        b = (dask / "tournament" / "sim-game" / name).read_bytes()
        assert a == b, name
    lines = [
        json.loads(x) for x in (local / "tournament" / "sim-game" / "audio.jsonl").read_text().splitlines()
    ]
    assert lines and all(x["type"] == "speech_onset" for x in lines)

    # already current: nothing to do, and the catalogue says so
    with Catalog(dask) as cat:
        again = analyse_archive(cat, workers=2)
        assert (again.jobs, again.skipped_current, again.results) == (0, 1, [])
        assert cat.find("tournament/sim-game")["analysis"] == "current"


def test_outdated_and_missing_analysis_are_pending(tmp_path: Path, shared_dir: Path) -> None:
    root = tmp_path / "arc"
    for name, vision in (("old", "mafiacam-vision/0.0"), ("new", current_analyser()), ("none", None)):
        b = make_bundle(FULL_GAME, root / name, game={"video": "video.mp4"}, sealed=False)
        (b / "video.mp4").write_bytes(b"not really a video")
        if vision:
            line = {"t": 1, "type": "hand_up", "src": "vision", "seat": 1, "conf": 0.5, "analyser": vision}
            (b / "vision.jsonl").write_text(json.dumps(line) + "\n")
    broken = make_bundle(FULL_GAME, root / "broken", game={"video": "video.mp4"}, sealed=False)
    (broken / "game.json").write_text("{")
    spring_game(root / "no-video", shared_dir)
    with Catalog(root) as cat:
        jobs, current = pending_jobs(cat)
        assert sorted(j.key for j in jobs) == ["none", "old"] and current == 1
        rows = {g["path"]: g for g in cat.games()}
    assert rows["old"]["analysis"] == "outdated" and rows["old"]["analyser"] == "mafiacam-vision/0.0"
    assert rows["none"]["analysis"] == "missing" and rows["no-video"]["analysis"] == "no video"
    assert rows["broken"]["status"] == "damaged"
    # workers that see the archive folder elsewhere (a share mounted at another path)
    with Catalog(root) as cat:
        remote, _ = pending_jobs(cat, remote_root="/mnt/club-archive")
    assert sorted(j.path for j in remote) == ["/mnt/club-archive/none", "/mnt/club-archive/old"]


def test_a_failed_bundle_is_recorded_and_the_others_go_on(tmp_path: Path) -> None:
    root = tmp_path / "arc"
    b = make_bundle(FULL_GAME, root / "bad-video", game={"video": "video.mp4"}, sealed=False)
    (b / "video.mp4").write_bytes(b"not really a video")
    with Catalog(root) as cat:
        rep = analyse_archive(cat, workers=1)
        assert [r.ok for r in rep.results] == [False]
        assert rep.results[0].error
        row = cat.find("bad-video")
        assert row is not None and row["analysis"] == "missing"
        assert row["analysis_errors"][0]["analyser"] == current_analyser()


def test_vision_written_by_several_analysers(tmp_path: Path) -> None:
    """vision.jsonl holds lines of the main analyser and of others it runs (the night watch): each must
    be at the version this installation writes."""
    main = current_analyser()
    name = main.partition("/")[0]
    others = {k: v for k, v in current_analysers().items() if k != name}

    def status(*analysers: str) -> str:
        b = tmp_path / f"b{len(list(tmp_path.iterdir()))}"
        b.mkdir()
        (b / "vision.jsonl").write_text(
            "".join(json.dumps({"t": 1, "type": "hand_up", "analyser": a}) + "\n" for a in analysers)
        )
        return vision_analyser(b)[0]

    assert status(main) == "current"
    assert status(main, "mafiacam-vision/0.0") == "outdated"
    assert status("someone-else/9") == "outdated"  # an analyser this version does not have
    assert status() == "unknown"  # empty, and no stretch cache of this version
    for other, version in others.items():
        assert status(main, f"{other}/{version}") == "current"
        assert status(main, f"{other}/0.0-old") == "outdated"
        assert status(f"{other}/{version}") == "unknown"  # the main analyser's lines are what date it


def test_each_bundle_starts_with_an_empty_video_cache(tmp_path: Path) -> None:
    """One worker process analyses many bundles; the analyser caches the last video of its process
    by the segments' relative names ("video.mp4" in every bundle), so each task must start without it."""
    import vision.analyzer
    from archive.batch import analyse_one

    b = make_bundle(FULL_GAME, tmp_path / "b", game={"video": "video.mp4"}, sealed=False)
    (b / "video.mp4").write_bytes(b"not really a video")
    vision.analyzer._WORKER["video.mp4"] = "the previous bundle's timeline"
    res = analyse_one(str(b), "b")
    assert res["ok"] is False and res["error"]
    assert "video.mp4" not in vision.analyzer._WORKER
