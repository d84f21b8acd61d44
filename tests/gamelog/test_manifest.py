"""The hash chain: verify passes on an intact bundle and names exactly what changed, came in or went."""

from __future__ import annotations

import dataclasses
import json
import shutil
from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import pytest

from gamelog.bundle import GameInfo, create_bundle, write_game
from gamelog.events import Foul, HandUp, Night, Vote, VoteCall, VoteStop, event_to_json
from gamelog.jsonl import EventWriter, read_events, write_events_replace
from gamelog.manifest import SealError, current_head, read_manifest, seal, verify

EVENTS = [
    Night(t=1000, src="host", n=0, id="h1"),
    VoteCall(t=5000, src="host", round="main", candidate=7, id="h2"),
    Vote(t=5200, src="host", seat=3, candidate=7, id="h3"),
    VoteStop(t=7000, src="host", id="h4"),
    Foul(t=8000, src="host", seat=5, reason="knocking", id="h5"),
    Night(t=9000, src="host", n=1, id="h6"),
]


def make_segment(path: Path, seconds: float, shade: int) -> None:
    """A real (tiny) H.264 segment made with PyAV."""
    with av.open(str(path), "w", format="matroska") as out:
        stream = out.add_stream("libx264", rate=10)
        stream.width, stream.height, stream.pix_fmt = 64, 48, "yuv420p"
        stream.codec_context.time_base = Fraction(1, 10)
        for i in range(int(seconds * 10)):
            img = np.full((48, 64, 3), (shade + 7 * i) % 256, dtype=np.uint8)
            frame = av.VideoFrame.from_ndarray(img, format="rgb24")
            frame.pts = i
            for pkt in stream.encode(frame):
                out.mux(pkt)
        for pkt in stream.encode():
            out.mux(pkt)


@pytest.fixture(scope="module")
def segments(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    d = tmp_path_factory.mktemp("segments")
    out = []
    for k in range(3):
        p = d / f"seg-{k + 1:04d}.mkv"
        make_segment(p, 0.5, 40 * k)
        out.append(p)
    return out


@pytest.fixture
def bundle(tmp_path: Path, segments: list[Path]) -> Path:
    names = [p.name for p in segments]
    info = GameInfo.new([f"p{i}" for i in range(10)], started_at="2024-10-05T18:30:00+03:00")
    path = create_bundle(
        tmp_path / "game", dataclasses.replace(info, video=tuple(f"video/{n}" for n in names))
    )
    (path / "video").mkdir()
    for p in segments:
        shutil.copy(p, path / "video" / p.name)
    with EventWriter(path / "events.jsonl") as w:
        for ev in EVENTS:
            w.append(ev)
    seal(path)
    return path


def lines_of(path: Path) -> list[str]:
    return (path / "events.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)


def put_lines(path: Path, lines: list[str]) -> None:
    (path / "events.jsonl").write_text("".join(lines), encoding="utf-8")


def test_intact_bundle_passes(bundle: Path) -> None:
    r = verify(bundle)
    assert r.ok, r.problems
    assert r.problems == []
    assert r.lines == len(EVENTS)
    assert r.segments == 3
    assert r.sealed
    assert len(r.head) == 64 and int(r.head, 16) >= 0
    assert r.head == current_head(bundle)
    m = read_manifest(bundle)
    assert m is not None and m.head == r.head
    assert [f.file for f in m.files] == [
        "game.json",
        "video/seg-0001.mkv",
        "video/seg-0002.mkv",
        "video/seg-0003.mkv",
    ]


def test_changed_line(bundle: Path) -> None:
    lines = lines_of(bundle)
    lines[2] = lines[2].replace('"seat": 3', '"seat": 4')
    put_lines(bundle, lines)
    r = verify(bundle)
    assert not r.ok
    assert r.problems[0] == "events.jsonl:3: line changed after it was recorded"
    assert len(r.problems) >= 1


def test_changed_whitespace_is_a_change(bundle: Path) -> None:
    lines = lines_of(bundle)
    lines[4] = lines[4].replace(", ", ",  ", 1)
    put_lines(bundle, lines)
    assert read_events(bundle / "events.jsonl").events == tuple(EVENTS)  # same events...
    assert (
        verify(bundle).problems[0] == "events.jsonl:5: line changed after it was recorded"
    )  # ...other bytes


def test_inserted_line(bundle: Path) -> None:
    lines = lines_of(bundle)
    extra = json.dumps(event_to_json(Vote(t=5300, src="host", seat=8, candidate=7))) + "\n"
    put_lines(bundle, [*lines[:3], extra, *lines[3:]])
    r = verify(bundle)
    assert not r.ok
    assert r.problems[0] == "events.jsonl:4: line inserted after recording"


def test_deleted_line(bundle: Path) -> None:
    lines = lines_of(bundle)
    put_lines(bundle, [*lines[:1], *lines[2:]])
    r = verify(bundle)
    assert not r.ok
    assert r.problems[0] == "events.jsonl: recorded line 2 was deleted (before current line 2)"


def test_last_line_cut_off(bundle: Path) -> None:
    put_lines(bundle, lines_of(bundle)[:-1])
    r = verify(bundle)
    assert r.problems[0] == "events.jsonl: recorded line 6 was deleted (at the end of the log)"


def test_changed_segment(bundle: Path) -> None:
    seg = bundle / "video" / "seg-0002.mkv"
    data = bytearray(seg.read_bytes())
    data[len(data) // 2] ^= 0x01
    seg.write_bytes(bytes(data))
    r = verify(bundle)
    assert not r.ok
    assert r.problems == ["video/seg-0002.mkv: segment changed after it was sealed (segment 2)"]


def test_missing_segment(bundle: Path) -> None:
    (bundle / "video" / "seg-0003.mkv").unlink()
    r = verify(bundle)
    assert r.problems == ["video/seg-0003.mkv: segment missing (segment 3); it was sealed"]


def test_swapped_segments(bundle: Path) -> None:
    a, b = bundle / "video" / "seg-0001.mkv", bundle / "video" / "seg-0002.mkv"
    tmp = a.read_bytes()
    a.write_bytes(b.read_bytes())
    b.write_bytes(tmp)
    r = verify(bundle)
    assert r.problems == [
        "video/seg-0001.mkv: segment changed after it was sealed (segment 1)",
        "video/seg-0002.mkv: segment changed after it was sealed (segment 2)",
    ]


def test_changed_game_json(bundle: Path) -> None:
    text = (bundle / "game.json").read_text(encoding="utf-8").replace('"p3"', '"someone else"')
    (bundle / "game.json").write_text(text, encoding="utf-8")
    assert verify(bundle).problems == ["game.json: file changed after it was sealed"]


def test_consistently_rewritten_chain_is_caught_by_the_manifest(bundle: Path) -> None:
    """Changing a line and rebuilding its chain entry still leaves the sealed head behind."""
    lines = lines_of(bundle)
    lines[2] = lines[2].replace('"seat": 3', '"seat": 4')
    put_lines(bundle, lines)
    (bundle / "events.jsonl.chain").unlink()
    seal_free = verify(bundle)
    assert not seal_free.ok
    # Re-chaining the edited log by hand, without re-sealing:
    from gamelog.chain import LineChain

    LineChain(bundle / "events.jsonl").close()
    r = verify(bundle)
    assert not r.ok
    assert r.problems == ["manifest.json: the log's first 6 lines no longer hash to the head sealed then"]


def test_edited_chain_entry(bundle: Path) -> None:
    chain = bundle / "events.jsonl.chain"
    entries = chain.read_text().splitlines(keepends=True)
    obj = json.loads(entries[3])
    obj["chain"] = "0" * 64
    entries[3] = json.dumps(obj) + "\n"
    chain.write_text("".join(entries))
    r = verify(bundle)
    msg = (
        "events.jsonl.chain:4: chain value does not follow from the lines before it "
        "(the chain file was edited)"
    )
    assert msg in r.problems


def test_appended_judge_lines_keep_the_bundle_intact_and_the_old_head_matches(bundle: Path) -> None:
    printed = verify(bundle).head
    with EventWriter(bundle / "events.jsonl") as w:
        w.append(Foul(t=20000, src="judge", seat=2, reason="after the game", id="j1"))
    r = verify(bundle)
    assert r.ok, r.problems
    assert r.head != printed
    old = verify(bundle, expect_head=printed[:16])
    assert old.ok and old.matched_line == len(EVENTS)
    assert any("appended later" in n for n in old.notes)
    wrong = verify(bundle, expect_head="deadbeef" * 2)
    assert not wrong.ok


def test_line_appended_without_the_writer(bundle: Path) -> None:
    extra = json.dumps(event_to_json(Foul(t=30000, src="host", seat=1))) + "\n"
    put_lines(bundle, [*lines_of(bundle), extra])
    r = verify(bundle)
    assert not r.ok
    assert r.problems[0].startswith("events.jsonl:7: line is not in the chain")


def test_writer_recovers_a_torn_chain_entry_and_a_torn_line(bundle: Path) -> None:
    # Crash 1: the line reached the disk, its chain entry only half.
    ev = Foul(t=20000, src="host", seat=2, id="x1")
    log, chain = bundle / "events.jsonl", bundle / "events.jsonl.chain"
    with open(log, "ab") as f:
        f.write(json.dumps(event_to_json(ev)).encode() + b"\n")
    with open(chain, "ab") as f:
        f.write(b'{"line": 7, "sha256": "ab')
    assert not verify(bundle).ok
    # Crash 2 on top: half a line.
    with open(log, "ab") as f:
        f.write(b'{"t": 21000, "type": "fo')
    with EventWriter(log) as w:
        w.append(HandUp(t=22000, src="vision", seat=3, conf=0.5))  # (wrong file, but it is only bytes here)
    r = verify(bundle)
    assert r.ok, r.problems
    assert r.lines == 9
    res = read_events(log)
    assert [b.line for b in res.bad] == [8]
    assert res.events[-2:] == (ev, HandUp(t=22000, src="vision", seat=3, conf=0.5))


def test_unsealed_and_unchained(tmp_path: Path) -> None:
    path = create_bundle(tmp_path / "g", GameInfo.new(["a"] * 10, started_at="2024-01-01T00:00:00"))
    r = verify(path)
    assert r.ok and not r.sealed
    assert any("not sealed" in n for n in r.notes)
    put_lines(path, [json.dumps(event_to_json(e)) + "\n" for e in EVENTS])  # a log entered by hand
    r = verify(path)
    assert not r.ok
    assert r.problems == [
        "events.jsonl: 6 lines are not chained (no events.jsonl.chain; `seal` chains a log entered by hand)"
    ]
    seal(path)
    r = verify(path)
    assert r.ok and r.lines == 6 and r.sealed and r.segments == 0


def test_seal_refuses_a_tampered_log(bundle: Path) -> None:
    lines = lines_of(bundle)
    put_lines(bundle, lines[1:])
    with pytest.raises(SealError, match="recorded line 1 was deleted"):
        seal(bundle)


def test_seal_refuses_a_missing_segment(bundle: Path) -> None:
    (bundle / "video" / "seg-0001.mkv").unlink()
    with pytest.raises(SealError, match=r"video/seg-0001\.mkv: missing"):
        seal(bundle)


def test_partial_seal_then_more_segments(bundle: Path) -> None:
    seal(bundle, segments=1)
    r = verify(bundle)
    assert r.ok and r.segments == 1
    assert any("seg-0003.mkv: segment not sealed yet" in n for n in r.notes)
    seal(bundle)
    assert verify(bundle).segments == 3


def test_derived_files_are_outside_the_chain(bundle: Path) -> None:
    write_events_replace(bundle / "vision.jsonl", [HandUp(t=1, src="vision", seat=1, conf=0.5, id="v")])
    head = verify(bundle).head
    seal(bundle)
    assert verify(bundle).head == head  # vision.jsonl does not move the head
    write_events_replace(bundle / "vision.jsonl", [HandUp(t=2, src="vision", seat=1, conf=0.5, id="v")])
    r = verify(bundle)
    assert r.ok
    assert any(n.startswith("vision.jsonl: differs") for n in r.notes)


def test_layout_added_after_sealing_and_edited_manifest(bundle: Path) -> None:
    m = json.loads((bundle / "manifest.json").read_text())
    m["segments"][0]["sha256"] = "0" * 64
    (bundle / "manifest.json").write_text(json.dumps(m))
    r = verify(bundle)
    assert (
        "manifest.json: chain value of video/seg-0001.mkv does not follow (the manifest was edited)"
        in r.problems
    )
    (bundle / "manifest.json").write_text("{not json")
    assert verify(bundle).problems[0].startswith("manifest.json: not readable JSON")


def test_resealing_after_a_legitimate_game_json_change(bundle: Path) -> None:
    from gamelog.bundle import read_game

    g = read_game(bundle)
    write_game(bundle, dataclasses.replace(g, judges=("Иванов",)))
    assert not verify(bundle).ok
    seal(bundle)
    assert verify(bundle).ok


def test_seal_while_a_writer_is_open_never_chains_a_line_twice(bundle: Path) -> None:
    from gamelog.chain import LineChain

    log = bundle / "events.jsonl"
    with EventWriter(log) as w:
        w.append(Foul(t=20000, src="judge", seat=2, id="j1"))
        # The race: a line reaches the log, then seal runs before the writer chains it.
        raw = json.dumps(event_to_json(Foul(t=21000, src="judge", seat=3, id="j2"))).encode()
        with open(log, "ab") as f:
            f.write(raw + b"\n")
        seal(bundle)
        chain = w._chain
        assert isinstance(chain, LineChain)
        chain.append(raw)  # the writer's own chain step for that line, now late
        w.append(Foul(t=22000, src="judge", seat=4, id="j3"))
    r = verify(bundle)
    assert r.ok, r.problems
    assert r.lines == len(EVENTS) + 3
    assert (bundle / "events.jsonl.chain").read_bytes().count(b"\n") == len(EVENTS) + 3


CHILD = r"""
import sys
from gamelog.events import Foul
from gamelog.jsonl import EventWriter
w = EventWriter(sys.argv[1])
i = 0
while True:
    w.append(Foul(t=100000 + i, src="host", seat=1 + i % 10, reason="r" * (i % 50), id=f"k{i}"))
    print(i, flush=True)
    i += 1
"""


def test_writer_killed_with_sigkill_loses_nothing_it_acknowledged(bundle: Path) -> None:
    import os
    import signal
    import subprocess
    import sys

    log = bundle / "events.jsonl"
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(log)], stdout=subprocess.PIPE, text=True, env=env, cwd=root
    )
    assert child.stdout is not None
    acked = -1
    for out in child.stdout:
        acked = int(out)
        if acked >= 10:
            break
    child.send_signal(signal.SIGKILL)
    child.wait()
    res = read_events(log)
    ids = {e.id for e in res.events}
    assert {f"k{i}" for i in range(acked + 1)} <= ids  # everything acknowledged is there
    assert all(b.line == len(log.read_bytes().split(b"\n")) for b in res.bad)  # at most a torn last line
    # The chain may lack the last line's entry (killed between the two fsyncs); reopening recovers it.
    with EventWriter(log) as w:
        w.append(Foul(t=500000, src="judge", seat=2, id="after"))
    r = verify(bundle)
    assert r.ok, r.problems
    assert read_events(log).events[-1].id == "after"


def test_the_head_recipe_in_the_format_doc(bundle: Path, project_root: Path) -> None:
    """The few lines docs/FORMAT.md gives outside tools compute the same head as verify."""
    doc = (project_root / "docs" / "FORMAT.md").read_text(encoding="utf-8")
    recipe = (
        doc.split("### Checking a bundle without mafiacam", 1)[1].split("```python", 1)[1].split("```", 1)[0]
    )
    scope: dict[str, object] = {}
    exec(recipe, scope)
    with EventWriter(bundle / "events.jsonl") as w:
        w.append(Foul(t=20000, src="judge", seat=2, id="late"))
    assert scope["bundle_head"](str(bundle)) == verify(bundle).head  # type: ignore[operator]
