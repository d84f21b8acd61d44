"""Recorder benchmark: ffmpeg alone (the baseline, same run); the recorder alone with frames crossing the
pipe as YUV 4:2:0 and as RGB; a soak of the bundled sample game at 1080p30, looped, with the console's live
check on (real MediaPipe on the tap, the host's marks replayed every loop, the «Спасибо» onset found in the
recorded sound); SIGKILL at random moments; a disk that fills up (a small tmpfs, as root).

    .venv/bin/python bench/bench_recorder.py                 # 2-minute soak, 20 kills, tmpfs disk test
    .venv/bin/python bench/bench_recorder.py --minutes 30    # the full soak target
    .venv/bin/python bench/bench_recorder.py --kills 0 --no-disk --minutes 0.5 --pipe-seconds 0

Prints figures: dropped frames (target 0), RSS over time (flat), CPU share of the recorder and of
ffmpeg, CPU per frame against ffmpeg alone encoding the same file with the same settings as fast as it
can, the live check's latency after «Спасибо» (from the key to the count on screen) and its onsets
against the sample's truth; for the kills: does every bundle open, how much video and how many
acknowledged marks were lost (target: at most 2 s, none).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import imageio_ffmpeg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gamelog.bundle import load_bundle  # noqa: E402
from gamelog.jsonl import read_events  # noqa: E402
from recorder.inspect import check_bundle  # noqa: E402
from recorder.session import Notice, RecorderConfig, RecordingSession  # noqa: E402
from recorder.sources import FileSource  # noqa: E402
from recorder.writer import EncoderSettings  # noqa: E402

FF = imageio_ffmpeg.get_ffmpeg_exe()
TICKS = os.sysconf("SC_CLK_TCK")


def make_test_file(path: Path, seconds: int) -> None:
    """1080p30 testsrc2 with a 440 Hz tone (AAC), the recorder's input."""
    if path.exists():
        return
    cmd = [FF, "-v", "error", "-y", "-f", "lavfi", "-i", f"testsrc2=size=1920x1080:rate=30:d={seconds}"]
    cmd += ["-f", "lavfi", "-i", f"sine=f=440:d={seconds}:r=48000", "-c:v", "libx264", "-preset", "ultrafast"]
    cmd += ["-g", "30", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", str(path)]
    subprocess.run(cmd, check=True)


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def cpu_s(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS
    except (OSError, IndexError):
        return 0.0


def ffmpeg_pids(marker: str) -> list[int]:
    out = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if marker.encode() in cmd and b"ffmpeg" in cmd:
                out.append(int(pid))
    return out


def baseline_encode(src: Path, seconds: float, preset: str) -> tuple[float, float]:
    """ffmpeg alone: decode the file and encode it with the recorder's settings as fast as it can.
    Returns the speed as a multiple of real time and its CPU time per frame in ms."""
    cmd = [FF, "-v", "error", "-y", "-t", f"{seconds}", "-i", str(src), "-an", "-c:v", "libx264"]
    cmd += ["-preset", preset, "-crf", "23", "-g", "30", "-keyint_min", "30", "-sc_threshold", "0"]
    cmd += ["-tune", "zerolatency", "-pix_fmt", "yuv420p", "-f", "matroska", os.devnull]
    t = time.monotonic()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds / (time.monotonic() - t), 1000 * cpu / (seconds * 30)


SAMPLE = ROOT / "sample_videos" / "sample_game"


def make_sample30(path: Path) -> None:
    """The bundled sample game (a tablesim table with ten players and the host's voice) at 1080p30: the
    soak's input, so that the live check sees real hands and hears a real «Спасибо»."""
    if path.exists():
        return
    cmd = [FF, "-v", "error", "-y", "-i", str(SAMPLE / "video.mp4"), "-vf", "fps=30", "-c:v", "libx264"]
    cmd += ["-preset", "veryfast", "-crf", "20", "-g", "30", "-pix_fmt", "yuv420p", "-c:a", "copy", str(path)]
    subprocess.run(["nice", "-n", "19", *cmd], check=True)


def loop_ms(src: Path) -> float:
    """How far media time moves per loop of the file source (its last frame's pts plus one frame, or the
    container's duration when longer), as FileSource computes it."""
    import av

    with av.open(str(src)) as c:
        vs = c.streams.video[0]
        last = max(float(p.pts * p.time_base) for p in c.demux(vs) if p.pts is not None)
        fps = float(vs.average_rate or 30)
        dur = (c.duration or 0) / 1e6
    return 1000 * max(last + 1 / fps, dur)


@dataclass
class Replay:
    """The sample's host marks replayed every loop at their own game times, with the console's live check
    (real MediaPipe on the tap, the onset from the recorded sound) closing every vote window."""

    session: RecordingSession
    live: Any
    marks: list[dict[str, Any]]
    onsets: dict[str, float]  # mark id -> truth onset (game ms)
    alive: dict[str, tuple[int, ...]]  # vote_stop id -> the seats at the table then
    loop_len_ms: float = 1e12
    loop_starts: list[int] = field(default_factory=list)  # media ms of each loop's first frame
    checks: list[dict[str, Any]] = field(default_factory=list)
    _pending: dict[str, dict[str, Any]] = field(default_factory=dict)
    _tl_pos: int = 0
    _next: int = 0
    _call: Any = None
    _close_after: bool = False

    def poll_segments(self) -> None:
        path = self.session.bundle / "timeline.jsonl"
        if not path.exists():
            return
        with open(path, "rb") as f:
            f.seek(self._tl_pos)
            while True:
                line = f.readline()
                if not line.endswith(b"\n"):
                    break
                self._tl_pos += len(line)
                if b'"kind":"segment"' in line:
                    # a segment may open a frame or two into its loop: the loop began that much earlier
                    rec = json.loads(line)
                    into = round(1000 * (rec.get("source_s") or 0.0) % self.loop_len_ms)
                    self.loop_starts.append(int(rec["start_ms"]) - into)

    def due(self) -> float | None:
        """Media ms of the next mark (None: no loop started yet, or this loop's marks are done)."""
        if not self.loop_starts or self._next >= len(self.marks):
            return None
        return self.loop_starts[-1] + self.marks[self._next]["t"]

    def new_loop(self) -> None:
        self._next = 0
        self._call = None

    def fire(self) -> None:
        from gamelog.events import VoteCall, VoteStop

        m = dict(self.marks[self._next])
        self._next += 1
        game_t = m.pop("t")
        base = self.loop_starts[-1]
        mid = m["id"]
        m["id"] = f"L{len(self.loop_starts)}-{mid}"
        ev = self.session.mark(m, t_ms=base + game_t)
        if isinstance(ev, VoteCall):
            self._call = ev
            self.live.open_window(ev, self.alive.get(mid))
        elif isinstance(ev, VoteStop) and self._call is not None:
            truth = self.onsets.get(mid)
            self._pending[self._call.id or ""] = {
                "stop_t": ev.t,
                "truth_onset": None if truth is None else base + truth,
                "asked_late_ms": self.session.media_ms() - ev.t,  # the replay's own delay, for the record
            }
            self.live.request_check([self._call, ev], ev, self.alive.get(mid, tuple(range(1, 11))))
        elif m["type"] == "vote_count" and self._call is not None:
            rec = self._pending.get(self._call.id or "")
            done = next((c for c in self.checks if c.get("call") == self._call.id), None)
            if rec is not None:
                rec["host_count"] = m["count"]
                self._close_after = True  # the result is still coming: close the window after it
            else:
                if done is not None:
                    done["host_count"] = m["count"]
                self.live.close_window()

    def on_result(self, res: Any) -> None:
        rec = self._pending.pop(res.call_id, None) if res.call_id else None
        if rec is None:
            return
        rec["result"] = res
        rec["call"] = res.call_id
        rec["from_key_ms"] = self.session.media_ms() - rec["stop_t"]  # the key to the count on screen
        self.checks.append(rec)
        err = None if res.onset_t is None or rec["truth_onset"] is None else res.onset_t - rec["truth_onset"]
        print(
            f"    check {res.call_id}: {rec['from_key_ms']} ms after the key (asked "
            f"{rec['asked_late_ms']} ms after it), onset {err} ms from truth, "
            f"vision {res.count} {res.voters} late {res.late}",
            flush=True,
        )
        if self._close_after:
            self._close_after = False
            self.live.close_window()


def soak(src: Path, minutes: float, preset: str, work: Path) -> dict[str, object]:
    from gamelog.events import parse_event
    from gamelog.layout import read_layout
    from gamelog.referee import referee
    from gamelog.rules import rules_for
    from review_ui.console.live_check import LiveVision

    bundle = work / "soak"
    shutil.rmtree(bundle, ignore_errors=True)
    loop = loop_ms(src)
    # one segment per loop of the file, so that every segment has the file's sound from its start
    cfg = RecorderConfig(
        encoder=EncoderSettings(preset=preset),
        segment_s=(loop - 15) / 1000,
        tap_width=1280,  # the console's live frames
        disk_warn_bytes=0,
        disk_stop_bytes=0,
    )
    session = RecordingSession(bundle, FileSource(src, speed=1.0, loop=True), cfg)
    marks = [json.loads(x) for x in (SAMPLE / "events.jsonl").read_text(encoding="utf-8").splitlines() if x]
    truth = json.loads((SAMPLE / "truth.json").read_text(encoding="utf-8"))
    onsets = {s["mark_id"]: s["onset_ms"] for s in truth["speech"] if s["kind"] == "vote_stop"}
    replay_voters = truth_voters(marks, truth)
    rules = rules_for("federation")
    seats = tuple(range(1, 11))
    evs = [parse_event(m) for m in marks]
    alive = {
        m["id"]: tuple(referee(evs[:i], rules=rules, seats=seats, live=True).alive or seats)
        for i, m in enumerate(marks)
        if m["type"] == "vote_stop"
    }
    layout = read_layout(SAMPLE / "layout.json", seats=10).layouts[-1]
    live = LiveVision(bundle, rules, layout, sound=session.pcm, warm_width=cfg.tap_width)
    live.warm.wait(60)  # the console loads the landmarker while the camera opens
    replay = Replay(session, live, marks, onsets, alive, loop_len_ms=loop)
    live.on_result = replay.on_result
    quit_fan = threading.Event()

    def fan_out() -> None:  # what the console's bridge does with the tap
        while not quit_fan.is_set():
            f = session.tap.get(timeout=0.2)
            if f is not None:
                live.offer(f)
            elif session.tap.closed:
                return

    fan = threading.Thread(target=fan_out, name="fan-out", daemon=True)
    me = os.getpid()
    cpu0 = cpu_s(me)
    t0 = time.monotonic()
    session.start()
    fan.start()
    samples: list[tuple[float, float, float]] = []  # (s, recorder RSS, ffmpeg RSS)
    ff_cpu: dict[int, float] = {}
    loops_seen = 0
    try:
        while (el := time.monotonic() - t0) < minutes * 60:
            replay.poll_segments()
            if len(replay.loop_starts) > loops_seen:
                loops_seen = len(replay.loop_starts)
                replay.new_loop()
            due = replay.due()
            now = session.media_ms()
            if due is not None and now >= due:
                replay.fire()
                continue
            time.sleep(0.005 if due is not None and due - now < 50 else 0.02)
            quiet = due is None or due - session.media_ms() > 400  # never delay a mark with /proc scans
            if quiet and (not samples or el - samples[-1][0] >= 5.0):
                pids = ffmpeg_pids(str(bundle))
                for pid in pids:
                    ff_cpu[pid] = max(ff_cpu.get(pid, 0.0), cpu_s(pid))
                samples.append((el, rss_mb(me), sum(rss_mb(p) for p in pids)))
                st = session.status()
                print(
                    f"  {el:6.0f}s  frames {st.frames_written:6d}  dropped {st.dropped}  fps {st.fps:5.1f}  "
                    f"RSS {samples[-1][1]:6.0f} MB (+ffmpeg {samples[-1][2]:4.0f} MB)  "
                    f"checks {len(replay.checks)}  load {os.getloadavg()[0]:.1f}",
                    flush=True,
                )
    finally:
        for pid in ffmpeg_pids(str(bundle)):
            ff_cpu[pid] = max(ff_cpu.get(pid, 0.0), cpu_s(pid))
        st = session.stop()
        quit_fan.set()
        live.stop()
    wall = time.monotonic() - t0
    checks = check_bundle(bundle, decode=False)
    rec_cpu = cpu_s(me) - cpu0
    ff_total = sum(ff_cpu.values())
    rss = [s[1] for s in samples]
    half = len(rss) // 2
    res = [c["result"] for c in replay.checks]
    lat = [c["from_key_ms"] for c in replay.checks]
    asked = [c["asked_late_ms"] for c in replay.checks]
    err = [
        c["result"].onset_t - c["truth_onset"]
        for c in replay.checks
        if c["result"].onset_t is not None and c["truth_onset"] is not None
    ]
    counted = [c for c in replay.checks if c["result"].count is not None and "host_count" in c]
    agree = sum(c["result"].count == c["host_count"] for c in counted)
    scored = [c for c in replay.checks if c["call"].split("-", 1)[-1] in replay_voters]
    right = sum(frozenset(c["result"].voters) == replay_voters[c["call"].split("-", 1)[-1]] for c in scored)
    return {
        "seconds": round(wall, 1),
        "frames_captured": st.frames_captured,
        "frames_written": st.frames_written,
        "dropped": st.dropped,
        "expected_frames": round(wall * 30),
        "segments": len(st.segments),
        "video_frames_in_files": sum(c.frames for c in checks),
        "bytes_per_minute_MB": round(st.bytes_written / 1e6 / (wall / 60), 1),
        "rss_first_half_MB": round(statistics.mean(rss[:half] or rss), 1),
        "rss_second_half_MB": round(statistics.mean(rss[half:]), 1),
        "rss_max_MB": round(max(rss), 1),
        "rss_every_5_min_MB": [round(s[1]) for s in samples if round(s[0]) % 300 < 5],
        "ffmpeg_rss_max_MB": round(max(s[2] for s in samples), 1),
        "recorder_cpu_cores": round(rec_cpu / wall, 2),
        "ffmpeg_cpu_cores": round(ff_total / wall, 2),
        "cpu_share_of_2_cores": round((rec_cpu + ff_total) / wall / 2, 2),
        "recorder_cpu_ms_per_captured_frame": round(1000 * rec_cpu / max(1, st.frames_captured), 1),
        "ffmpeg_cpu_ms_per_written_frame": round(1000 * ff_total / max(1, st.frames_written), 1),
        "tap_dropped": session.tap.dropped,
        "live_frames_fed": live.frames_fed,
        "live_frames_dropped": live.dropped,
        "marks": st.marks,
        "live_checks": len(lat),
        "live_latency_from_key_ms_median": statistics.median(lat) if lat else None,
        "live_latency_from_key_ms_max": max(lat) if lat else None,
        "replay_asked_late_ms_max": max(asked) if asked else None,
        "onsets_found": f"{len(err)}/{len(res)}",
        "onset_error_ms_median_abs": statistics.median(abs(e) for e in err) if err else None,
        "onset_error_ms_max_abs": max(abs(e) for e in err) if err else None,
        "vision_count_equals_host": f"{agree}/{len(counted)}",  # host counts include defaulted seats
        "vision_voters_equal_truth": f"{right}/{len(scored)}",  # seats whose hand was placed, per window
        "live_error": live.error,
    }


def truth_voters(marks: list[dict[str, Any]], truth: dict[str, Any]) -> dict[str, frozenset[int]]:
    """Vote-call mark id -> the seats that placed a hand before «Спасибо» (the truth's voters less the seats
    defaulted to the last candidate), pairing the sample's calls with the truth's rounds in game order."""
    calls = [m["id"] for m in marks if m["type"] == "vote_call"]
    rounds = [v for day in truth["expected"]["days"] for v in day["votes"]]
    if len(calls) != len(rounds):
        raise SystemExit(f"{SAMPLE}: {len(calls)} vote calls, the truth has {len(rounds)} rounds")
    return {c: frozenset(v["voters"]) - frozenset(v["defaulted"]) for c, v in zip(calls, rounds, strict=True)}


def pipeline_cost(src: Path, seconds: float, preset: str, work: Path, pix_fmt: str) -> dict[str, object]:
    """The recorder alone (no live analysis, the tap drained and dropped): CPU per frame of our process and
    of its ffmpeg, with frames crossing the pipe as ``pix_fmt``."""
    bundle = work / f"pipe-{pix_fmt}"
    shutil.rmtree(bundle, ignore_errors=True)
    cfg = RecorderConfig(encoder=EncoderSettings(preset=preset), disk_warn_bytes=0, disk_stop_bytes=0)
    session = RecordingSession(bundle, FileSource(src, speed=1.0, loop=True, pix_fmt=pix_fmt), cfg)

    def drain() -> None:
        while not session.tap.closed:
            session.tap.get(timeout=0.2)

    me = os.getpid()
    cpu0 = cpu_s(me)
    t0 = time.monotonic()
    session.start()
    threading.Thread(target=drain, daemon=True).start()
    ff_cpu: dict[int, float] = {}
    while time.monotonic() - t0 < seconds:
        time.sleep(1.0)
        for pid in ffmpeg_pids(str(bundle)):
            ff_cpu[pid] = max(ff_cpu.get(pid, 0.0), cpu_s(pid))
    st = session.stop()
    wall = time.monotonic() - t0
    rec = cpu_s(me) - cpu0
    ff = sum(ff_cpu.values())
    return {
        "pix_fmt": pix_fmt,
        "seconds": round(wall, 1),
        "frames_written": st.frames_written,
        "dropped": st.dropped,
        "recorder_cpu_ms_per_frame": round(1000 * rec / max(1, st.frames_captured), 1),
        "ffmpeg_cpu_ms_per_frame": round(1000 * ff / max(1, st.frames_written), 1),
        "cpu_cores": round((rec + ff) / wall, 2),
    }


def kill_once(
    src: Path, work: Path, i: int, rng: random.Random, preset: str, group: bool = False
) -> dict[str, object]:
    """SIGKILL ``mafiacam record`` after a random 3–10 s (``group``: its ffmpeg children at the same
    instant too, as a power cut would; else they see their input end and finish what they were given)."""
    bundle = work / f"kill{i:02d}"
    shutil.rmtree(bundle, ignore_errors=True)
    after = rng.uniform(3.0, 10.0)
    cmd = [sys.executable, "-m", "mafiacam", "record", "--source", str(src), "--loop", "--out", str(bundle)]
    cmd += ["--no-ui", "--marks-stdin", "--status-every", "0", "--preset", preset]
    pipe = subprocess.PIPE
    # its own process group (not session: the scheduler's autogroup, and so its CPU share, stays ours)
    proc = subprocess.Popen(cmd, stdin=pipe, stdout=pipe, stderr=pipe, text=True, cwd=ROOT, process_group=0)
    acks: list[tuple[int, str, float]] = []

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            p = line.split()
            if p and p[0] == "ack":
                acks.append((int(p[1]), p[2], time.monotonic()))

    th = threading.Thread(target=read, daemon=True)
    th.start()
    assert proc.stdin is not None
    t0 = time.monotonic()
    while time.monotonic() - t0 < after:
        proc.stdin.write("vote_stop\n")
        proc.stdin.flush()
        time.sleep(rng.uniform(0.05, 0.3))
    if group:
        os.killpg(proc.pid, signal.SIGKILL)
    else:
        proc.send_signal(signal.SIGKILL)
    killed = time.monotonic()
    proc.wait()
    th.join(timeout=5)
    for pid in ffmpeg_pids(str(bundle)):  # its ffmpeg children die with their stdin; wait for them
        for _ in range(50):
            if not Path(f"/proc/{pid}").exists():
                break
            time.sleep(0.1)
    res: dict[str, object] = {"after_s": round(after, 2), "acked": len(acks)}
    if not (bundle / "game.json").exists():  # killed while still starting (slow on a busy machine)
        res.update(opens="not started", marks_lost=0, video_lost_ms=None)
        assert not acks
        return res
    try:
        load_bundle(bundle)
        res["opens"] = True
    except Exception as e:  # reported, not raised: the figure is how many open
        res["opens"] = f"no: {e}"
    on_disk = {(e.id, e.t) for e in read_events(bundle / "events.jsonl").events}
    res["marks_lost"] = sum((i, t) not in on_disk for t, i, _ in acks)
    checks = check_bundle(bundle)
    last = max((c.last_ms for c in checks if c.last_ms is not None), default=None)
    if acks and last is not None:
        t, _, got = acks[-1]
        res["video_lost_ms"] = round(t + (killed - got) * 1000 - last)
    else:
        res["video_lost_ms"] = None
    return res


def disk_full(src: Path, preset: str) -> dict[str, object]:
    """A 16 MB tmpfs: warn at 10 MB free, stop at 5 MB. Needs root (mount)."""
    mnt = Path(tempfile.mkdtemp(prefix="mafiacam-disk-"))
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(mnt)], check=False).returncode:
        mnt.rmdir()
        return {"skipped": "mount failed (needs root)"}
    try:
        notices: list[Notice] = []
        cfg = RecorderConfig(
            encoder=EncoderSettings(preset=preset),
            disk_warn_bytes=10_000_000,
            disk_stop_bytes=5_000_000,
            disk_check_s=0.5,
        )
        s = RecordingSession(mnt / "g", FileSource(src, speed=1.0, loop=True), cfg, on_notice=notices.append)
        t0 = time.monotonic()
        s.start()
        stopped_itself = s.wait(timeout=300)
        try:
            s.mark({"type": "vote_stop"})
            mark_after = "written"
        except OSError as e:
            mark_after = f"refused: {e}"
        st = s.stop()
        checks = check_bundle(mnt / "g")
        return {
            "stopped_itself": stopped_itself,
            "after_s": round(time.monotonic() - t0, 1),
            "notices": [f"{n.kind}: {n.message}" for n in notices],
            "stop_reason": st.stop_reason,
            "free_MB_at_end": round(shutil.disk_usage(mnt).free / 1e6, 1),
            "video_decodes": all(c.error is None for c in checks),
            "video_s": round(sum(c.frames for c in checks) / 30, 1),
            "bundle_opens": load_bundle(mnt / "g") is not None,
            "marks_on_disk": len(read_events(mnt / "g" / "events.jsonl").events),
            "mark_after_stop": mark_after,
        }
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)
        mnt.rmdir()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=2.0)
    ap.add_argument("--kills", type=int, default=20)
    ap.add_argument("--no-disk", action="store_true")
    ap.add_argument("--pipe-seconds", type=float, default=60.0, help="recorder-only runs (YUV, then RGB)")
    ap.add_argument("--preset", default="veryfast")
    ap.add_argument("--kill-group", action="store_true", help="kill the recorder's ffmpeg children too")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "mafiacam-bench-recorder")
    args = ap.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    src = args.work / "testsrc2_1080p30.mp4"
    make_test_file(src, 20)
    print(f"input: {src} (1080p30, 20 s, looped); preset {args.preset}; cores: {os.cpu_count()}")
    print(f"load average at start: {os.getloadavg()}")

    base, base_ms = baseline_encode(src, 10.0, args.preset)
    print(
        f"baseline: ffmpeg alone decodes and encodes this 1080p30 at {base:.2f}x real time "
        f"({base * 30:.0f} fps), {base_ms:.1f} ms of CPU per frame"
    )
    if args.pipe_seconds > 0:
        for fmt in ("yuv420p", "rgb24"):
            r = pipeline_cost(src, args.pipe_seconds, args.preset, args.work, fmt)
            per = float(str(r["recorder_cpu_ms_per_frame"])) + float(str(r["ffmpeg_cpu_ms_per_frame"]))
            r["ratio_to_ffmpeg_alone"] = round(per / base_ms, 2)
            print(json.dumps(r), flush=True)
    if args.minutes > 0:
        sample = args.work / "sample_game_1080p30.mp4"
        make_sample30(sample)
        print(f"soak: {args.minutes} min of {sample} looped, with the console's live check on the tap")
        res = soak(sample, args.minutes, args.preset, args.work)
        print(json.dumps(res, indent=1))

    if args.kills:
        seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
        rng = random.Random(seed)
        who = "the recorder and its ffmpeg children" if args.kill_group else "the recorder"
        print(f"kill -9 of {who} at {args.kills} random moments (seed {seed})")
        kills = []
        for i in range(args.kills):
            r = kill_once(src, args.work, i, rng, args.preset, args.kill_group)
            kills.append(r)
            print(f"  {i:2d}: {r}", flush=True)
        lost = [k["video_lost_ms"] for k in kills if isinstance(k["video_lost_ms"], int)]
        summary = {
            "runs": len(kills),
            "bundles_open": sum(k["opens"] is True for k in kills),
            "killed_before_start": sum(k["opens"] == "not started" for k in kills),
            "marks_acked": sum(int(k["acked"]) for k in kills),  # type: ignore[call-overload]
            "marks_lost": sum(int(k["marks_lost"]) for k in kills),  # type: ignore[call-overload]
            "video_lost_ms_max": max(lost) if lost else None,
            "video_lost_ms_median": statistics.median(lost) if lost else None,
            "runs_without_video_figure": len(kills) - len(lost),
        }
        print(json.dumps(summary, indent=1))
    if not args.no_disk:
        print("disk filling up (16 MB tmpfs)")
        print(json.dumps(disk_full(src, args.preset), indent=1))
    print(f"load average at end: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
