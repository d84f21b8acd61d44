"""The whole recorder killed with SIGKILL at a random moment: the bundle still opens, every acknowledged
mark is there, and the video decodes to within two seconds of the kill."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from gamelog.bundle import load_bundle
from gamelog.jsonl import read_events
from recorder.inspect import check_bundle


def test_sigkill_loses_no_acknowledged_mark_and_at_most_two_seconds(tmp_path: Path) -> None:
    seed = int.from_bytes(os.urandom(4), "little")
    rng = random.Random(seed)
    kill_after = rng.uniform(3.0, 6.0)
    bundle = tmp_path / "game"
    cmd = [sys.executable, "-m", "mafiacam", "record", "--source", "test", "--out", str(bundle), "--no-ui"]
    cmd += ["--size", "320x180", "--fps", "30", "--marks-stdin", "--status-every", "0"]
    cmd += ["--preset", "ultrafast"]
    proc = subprocess.Popen(
        cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    acks: list[tuple[int, str, float]] = []  # (t, id, when received)

    def read_acks() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            parts = line.split()
            if parts and parts[0] == "ack":
                acks.append((int(parts[1]), parts[2], time.monotonic()))

    reader = threading.Thread(target=read_acks, daemon=True)
    reader.start()
    assert proc.stdin is not None
    try:
        # the kill comes kill_after seconds into the recording (a starved machine may take long to start it)
        begun = time.monotonic()
        while not acks and time.monotonic() - begun < 60 and proc.poll() is None:
            proc.stdin.write("vote_stop\n")
            proc.stdin.flush()
            time.sleep(0.2)
        start = time.monotonic()
        while time.monotonic() - start < kill_after:
            proc.stdin.write("vote_stop\n")
            proc.stdin.flush()
            time.sleep(rng.uniform(0.1, 0.4))
        proc.send_signal(signal.SIGKILL)
        killed_at = time.monotonic()
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    reader.join(timeout=5)
    stderr = proc.stderr.read() if proc.stderr else ""
    assert proc.returncode == -signal.SIGKILL, stderr
    assert len(acks) >= 5, f"seed {seed}: too few marks acknowledged: {stderr}"

    # every acknowledged mark is in events.jsonl, at its time, with its id
    result = read_events(bundle / "events.jsonl")
    on_disk = {(e.id, e.t) for e in result.events}
    assert {(i, t) for t, i, _ in acks} <= on_disk, f"seed {seed}"
    assert all(b.line == len(result.events) + 1 for b in result.bad), result.bad  # at most a torn last line
    # the bundle opens and lists its (single) segment
    loaded = load_bundle(bundle)
    assert loaded.game.video == ("video/seg-0001.mkv",)
    # the video decodes up to about the kill: media time at the kill from the last ack's clock
    last_t, _, got_at = acks[-1]
    kill_ms = last_t + (killed_at - got_at) * 1000
    (chk,) = check_bundle(bundle)
    assert chk.frames > 30 and chk.last_ms is not None
    lost_ms = kill_ms - chk.last_ms
    assert lost_ms <= 2000, (
        f"seed {seed}: lost {lost_ms:.0f} ms of video (last frame {chk.last_ms}, kill {kill_ms:.0f})"
    )
