"""Recorder benchmark: a 1080p30 file played as if live through RecordingSession, with a stand-in live
analysis consumer; then SIGKILL at random moments; then a disk that fills up (a small tmpfs, as root).

    .venv/bin/python bench/bench_recorder.py                 # 2 minutes, 20 kills, tmpfs disk test
    .venv/bin/python bench/bench_recorder.py --minutes 30    # the full soak target
    .venv/bin/python bench/bench_recorder.py --kills 0 --no-disk --minutes 0.5

Prints figures: dropped frames (target 0), RSS over time (flat), CPU share of the recorder and of
ffmpeg, encoder speed against a baseline measured in the same run (ffmpeg alone encoding the same file as
fast as it can with the same settings), and for the kills: does every bundle open, how much video and how
many acknowledged marks were lost (target: at most 2 s, none).
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
from pathlib import Path

import cv2
import imageio_ffmpeg
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gamelog.bundle import load_bundle  # noqa: E402
from gamelog.jsonl import read_events  # noqa: E402
from recorder.inspect import check_bundle  # noqa: E402
from recorder.session import Notice, RecorderConfig, RecordingSession  # noqa: E402
from recorder.sources import FileSource  # noqa: E402
from recorder.tap import LiveTap  # noqa: E402
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


class SeatDiffer:
    """Stand-in live analysis: per seat (a 5x2 grid), downscale and diff against the previous frame."""

    def __init__(self, tap: LiveTap) -> None:
        self.tap = tap
        self.frames = 0
        self.busy_s = 0.0
        self.motion: list[float] = []
        self._prev: list[np.ndarray] | None = None
        self.thread = threading.Thread(target=self.run, name="analysis", daemon=True)

    def run(self) -> None:
        while True:
            f = self.tap.get(timeout=0.5)
            if f is None:
                if self.tap.closed:
                    return
                continue
            t = time.monotonic()
            h, w = f.image.shape[:2]
            grey = cv2.cvtColor(f.image, cv2.COLOR_RGB2GRAY)
            crops = [
                cv2.resize(grey[r * h // 2 : (r + 1) * h // 2, c * w // 5 : (c + 1) * w // 5], (64, 64))
                for r in range(2)
                for c in range(5)
            ]
            if self._prev is not None:
                self.motion.append(
                    max(float(cv2.absdiff(a, b).mean()) for a, b in zip(crops, self._prev, strict=True))
                )
            self._prev = crops
            self.frames += 1
            self.busy_s += time.monotonic() - t


def soak(src: Path, minutes: float, preset: str, work: Path) -> dict[str, object]:
    bundle = work / "soak"
    shutil.rmtree(bundle, ignore_errors=True)
    cfg = RecorderConfig(
        encoder=EncoderSettings(preset=preset), segment_s=60.0, disk_warn_bytes=0, disk_stop_bytes=0
    )
    session = RecordingSession(bundle, FileSource(src, speed=1.0, loop=True), cfg)
    analysis = SeatDiffer(session.tap)
    me = os.getpid()
    cpu0 = cpu_s(me)
    t0 = time.monotonic()
    session.start()
    analysis.thread.start()
    samples: list[tuple[float, float, float]] = []  # (s, recorder RSS, ffmpeg RSS)
    ff_cpu: dict[int, float] = {}
    next_mark = t0 + 1.0
    try:
        while (el := time.monotonic() - t0) < minutes * 60:
            time.sleep(0.5)
            for pid in ffmpeg_pids(str(bundle)):
                ff_cpu[pid] = max(ff_cpu.get(pid, 0.0), cpu_s(pid))
            if time.monotonic() >= next_mark:
                session.mark({"type": "vote_stop"})
                next_mark += 1.0
            if not samples or el - samples[-1][0] >= 5.0:
                pids = ffmpeg_pids(str(bundle))
                samples.append((el, rss_mb(me), sum(rss_mb(p) for p in pids)))
                st = session.status()
                print(
                    f"  {el:6.0f}s  frames {st.frames_written:6d}  dropped {st.dropped}  fps {st.fps:5.1f}  "
                    f"RSS {samples[-1][1]:6.0f} MB (+ffmpeg {samples[-1][2]:4.0f} MB)",
                    flush=True,
                )
    finally:
        st = session.stop()
    wall = time.monotonic() - t0
    checks = check_bundle(bundle, decode=False)
    rec_cpu = cpu_s(me) - cpu0
    rss = [s[1] for s in samples]
    half = len(rss) // 2
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
        "ffmpeg_rss_max_MB": round(max(s[2] for s in samples), 1),
        "recorder_cpu_cores": round(rec_cpu / wall, 2),
        "ffmpeg_cpu_cores": round(sum(ff_cpu.values()) / wall, 2),
        "recorder_cpu_ms_per_captured_frame": round(1000 * rec_cpu / max(1, st.frames_captured), 1),
        "ffmpeg_cpu_ms_per_written_frame": round(1000 * sum(ff_cpu.values()) / max(1, st.frames_written), 1),
        "analysis_frames": analysis.frames,
        "analysis_ms_per_frame": round(1000 * analysis.busy_s / max(1, analysis.frames), 2),
        "tap_dropped": session.tap.dropped,
        "marks": st.marks,
    }


def kill_once(src: Path, work: Path, i: int, rng: random.Random, preset: str) -> dict[str, object]:
    bundle = work / f"kill{i:02d}"
    shutil.rmtree(bundle, ignore_errors=True)
    after = rng.uniform(3.0, 10.0)
    cmd = [sys.executable, "-m", "mafiacam", "record", "--source", str(src), "--loop", "--out", str(bundle)]
    cmd += ["--no-ui", "--marks-stdin", "--status-every", "0", "--preset", preset]
    pipe = subprocess.PIPE
    proc = subprocess.Popen(cmd, stdin=pipe, stdout=pipe, stderr=pipe, text=True, cwd=ROOT)
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
    ap.add_argument("--preset", default="veryfast")
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
    if args.minutes > 0:
        print(f"soak: {args.minutes} min at real speed with a seat-diff consumer on the tap")
        res = soak(src, args.minutes, args.preset, args.work)
        res["baseline_encode_x_realtime"] = round(base, 2)
        res["baseline_cpu_ms_per_frame"] = round(base_ms, 1)
        per_frame = [res["recorder_cpu_ms_per_captured_frame"], res["ffmpeg_cpu_ms_per_written_frame"]]
        ours = sum(float(str(x)) for x in per_frame)
        res["cpu_per_frame_ratio_to_baseline"] = round(ours / base_ms, 2)
        print(json.dumps(res, indent=1))

    if args.kills:
        seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
        rng = random.Random(seed)
        print(f"kill -9 at {args.kills} random moments (seed {seed})")
        kills = []
        for i in range(args.kills):
            r = kill_once(src, args.work, i, rng, args.preset)
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
