"""The JSONL reader keeps every good line of a damaged file; the writer survives a crash mid-line."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from gamelog.events import Event, EventError, Foul, HandUp, Night, Vote, event_to_json
from gamelog.jsonl import EventWriter, read_events, write_events_replace
from tests.gamelog.test_events import SAMPLES


def line(ev: Event) -> str:
    return json.dumps(event_to_json(ev), ensure_ascii=False)


GOOD = [
    Night(t=1000, src="host", id="h1", n=0),
    Foul(t=2000, src="host", id="h2", seat=3, reason="knock"),
    Vote(t=3000, src="host", seat=4, candidate=7),
]


def test_reads_a_clean_file(tmp_path: Path) -> None:
    p = tmp_path / "events.jsonl"
    p.write_text("".join(line(e) + "\n" for e in GOOD), encoding="utf-8")
    res = read_events(p)
    assert res.events == tuple(GOOD)
    assert res.bad == ()
    assert res.lines == (1, 2, 3)


def test_damaged_file_keeps_every_good_line(tmp_path: Path) -> None:
    p = tmp_path / "events.jsonl"
    raw = b"".join(
        [
            line(GOOD[0]).encode() + b"\n",  # 1 good
            b'{"t": 5, "type": "night", "src": "host", "n": \n',  # 2 bad JSON
            b"\n",  # 3 blank: skipped, not bad
            b"\xff\xfe\x00garbage\x80\n",  # 4 binary garbage
            line(GOOD[1]).encode() + b"\n",  # 5 good
            b'{"t": 6, "type": "foul", "src": "host", "seat": "three"}\n',  # 6 wrong type
            b'{"t": 7, "type": "smile", "src": "host"}\n',  # 7 unknown type
            b"[1, 2, 3]\n",  # 8 not an object
            b'{"t": 8, "type": "night", "src": "host", "n": 2, "id": "h1"}\n',  # 9 duplicate id
            line(GOOD[2]).encode() + b"\n",  # 10 good
            b'{"t": 9, "type": "night", "src": "ho',  # 11 torn last line
        ]
    )
    p.write_bytes(raw)
    res = read_events(p, label="events.jsonl")
    assert res.events == tuple(GOOD)
    assert res.lines == (1, 5, 10)
    by_line = {b.line: b for b in res.bad}
    assert sorted(by_line) == [2, 4, 6, 7, 8, 9, 11]
    for b in res.bad:
        assert b.file == "events.jsonl"
        assert b.error.startswith(f"events.jsonl:{b.line}: ")
        assert str(b) == b.error
    assert "invalid JSON" in by_line[2].error
    assert "UTF-8" in by_line[4].error
    assert "field 'seat'" in by_line[6].error
    assert "unknown event type 'smile'" in by_line[7].error
    assert "expected a JSON object" in by_line[8].error
    assert "duplicate id 'h1' (first on line 1)" in by_line[9].error
    assert "truncated last line" in by_line[11].error
    assert by_line[11].text == '{"t": 9, "type": "night", "src": "ho'
    assert by_line[4].text.endswith("garbage\ufffd")


def test_torn_line_that_parses_is_still_reported(tmp_path: Path) -> None:
    p = tmp_path / "e.jsonl"
    p.write_text(line(GOOD[0]) + "\n" + line(GOOD[1]), encoding="utf-8")
    res = read_events(p)
    assert res.events == (GOOD[0],)
    assert [b.line for b in res.bad] == [2]


def test_long_bad_line_text_is_cut(tmp_path: Path) -> None:
    p = tmp_path / "e.jsonl"
    p.write_text("x" * 5000 + "\n", encoding="utf-8")
    (bad,) = read_events(p).bad
    assert len(bad.text) <= 201


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_events(tmp_path / "nope.jsonl")
    res = read_events(tmp_path / "nope.jsonl", missing_ok=True)
    assert res.events == () and res.bad == ()


def test_deeply_nested_json_is_a_bad_line_not_a_crash(tmp_path: Path) -> None:
    p = tmp_path / "e.jsonl"
    p.write_text("[" * 100000 + "]" * 100000 + "\n" + line(GOOD[0]) + "\n", encoding="utf-8")
    res = read_events(p)
    assert res.events == (GOOD[0],)
    assert len(res.bad) == 1 and res.bad[0].line == 1


def test_writer_appends_lines_that_read_back(tmp_path: Path) -> None:
    p = tmp_path / "events.jsonl"
    with EventWriter(p) as w:
        for ev in SAMPLES:
            w.append(ev)
    res = read_events(p)
    assert res.bad == ()
    assert res.events == SAMPLES
    assert p.read_bytes().endswith(b"\n")
    assert p.read_bytes().count(b"\n") == len(SAMPLES)
    # The chain sidecar has one entry per line.
    assert (tmp_path / "events.jsonl.chain").read_bytes().count(b"\n") == len(SAMPLES)


def test_writer_without_chain_writes_no_sidecar(tmp_path: Path) -> None:
    with EventWriter(tmp_path / "events.jsonl", chain=False) as w:
        w.append(GOOD[0])
        assert w.head is None
    assert not (tmp_path / "events.jsonl.chain").exists()


def test_writer_survives_a_crash_mid_line(tmp_path: Path) -> None:
    p = tmp_path / "events.jsonl"
    with EventWriter(p) as w:
        w.append(GOOD[0])
        w.append(GOOD[1])
    # A crash while the third line was being written: half of it reached the disk.
    third = line(GOOD[2]).encode()
    with open(p, "ab") as f:
        f.write(third[: len(third) // 2])
    assert [b.line for b in read_events(p).bad] == [3]
    later = [HandUp(t=5000, src="vision", seat=2, conf=0.5), Night(t=6000, src="host", n=1, id="h9")]
    with EventWriter(p) as w:
        for ev in later:
            w.append(ev)
    res = read_events(p)
    assert res.events == (GOOD[0], GOOD[1], *later)
    assert [b.line for b in res.bad] == [3]
    assert "invalid JSON" in res.bad[0].error
    assert res.lines == (1, 2, 4, 5)


def test_writer_refuses_an_invalid_event_and_writes_nothing(tmp_path: Path) -> None:
    p = tmp_path / "events.jsonl"
    with EventWriter(p) as w:
        w.append(GOOD[0])
        with pytest.raises(EventError) as info:
            w.append(HandUp(t=1, src="vision", seat=2, conf=2.0))
        assert str(info.value).startswith("events.jsonl:2: field 'conf'")
        with pytest.raises(
            EventError, match=r"events.jsonl:2: field 'id': duplicate id 'h1' \(already on line 1\)"
        ):
            w.append(Night(t=5, src="host", n=1, id="h1"))
        w.append(GOOD[1])
    assert read_events(p).events == (GOOD[0], GOOD[1])


def test_writer_knows_ids_already_in_the_file(tmp_path: Path) -> None:
    p = tmp_path / "events.jsonl"
    p.write_text(line(GOOD[0]) + "\n", encoding="utf-8")
    with EventWriter(p) as w, pytest.raises(EventError, match="duplicate id"):
        w.append(Night(t=9, src="host", n=3, id="h1"))


def test_writer_from_several_threads_never_interleaves_lines(tmp_path: Path) -> None:
    p = tmp_path / "events.jsonl"
    with EventWriter(p) as w:

        def work(k: int) -> None:
            for i in range(25):
                w.append(Foul(t=i, src="host", seat=k + 1, reason="r" * 50, id=f"{k}-{i}"))

        threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
    res = read_events(p)
    assert res.bad == ()
    assert len(res.events) == 100


def test_replace_writes_whole_file(tmp_path: Path) -> None:
    p = tmp_path / "vision.jsonl"
    first = [HandUp(t=i, src="vision", seat=1, conf=0.5, id=f"v{i}") for i in range(5)]
    write_events_replace(p, first)
    assert read_events(p).events == tuple(first)
    second = [HandUp(t=9, src="vision", seat=2, conf=0.7, id="w")]
    write_events_replace(p, second)
    assert read_events(p).events == tuple(second)
    assert [x.name for x in tmp_path.iterdir()] == ["vision.jsonl"]  # no temp file left behind


def test_replace_with_a_bad_event_keeps_the_old_file(tmp_path: Path) -> None:
    p = tmp_path / "vision.jsonl"
    old = [HandUp(t=1, src="vision", seat=1, conf=0.5, id="a")]
    write_events_replace(p, old)
    before = p.read_bytes()
    bad = [HandUp(t=2, src="vision", seat=1, conf=0.5, id="b"), HandUp(t=3, src="vision", seat=1, conf=-1.0)]
    with pytest.raises(EventError, match=r"^vision.jsonl:2: field 'conf'"):
        write_events_replace(p, bad)
    dup = [
        HandUp(t=2, src="vision", seat=1, conf=0.5, id="b"),
        HandUp(t=3, src="vision", seat=1, conf=0.5, id="b"),
    ]
    with pytest.raises(EventError, match=r"^vision.jsonl:2: field 'id': duplicate id"):
        write_events_replace(p, dup)
    assert p.read_bytes() == before
    assert sorted(x.name for x in tmp_path.iterdir()) == ["vision.jsonl"]


def test_byte_order_mark_and_crlf_from_a_text_editor(tmp_path: Path) -> None:
    p = tmp_path / "events.jsonl"
    p.write_bytes(b"\xef\xbb\xbf" + line(GOOD[0]).encode() + b"\r\n" + line(GOOD[1]).encode() + b"\r\n\r\n")
    res = read_events(p)
    assert res.events == (GOOD[0], GOOD[1])
    assert res.bad == ()


def test_writer_accepts_lists_where_tuples_are_declared(tmp_path: Path) -> None:
    """Callers building events by hand may pass lists: what counts is that the line reads back the same."""
    from gamelog.events import Roles

    p = tmp_path / "events.jsonl"
    with EventWriter(p) as w:
        w.append(Roles(t=1, src="host", don=2, mafia=[5, 8], sheriff=1))  # type: ignore[arg-type]
    (ev,) = read_events(p).events
    assert isinstance(ev, Roles) and ev.mafia == (5, 8)


def test_writer_refuses_what_json_cannot_hold(tmp_path: Path) -> None:
    p = tmp_path / "events.jsonl"
    with EventWriter(p) as w, pytest.raises(EventError, match=r"events.jsonl:1: cannot be written as JSON"):
        w.append(Foul(t=1, src="host", seat=2, extra={"x": object()}))
    assert p.read_bytes() == b""
