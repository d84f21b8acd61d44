"""The PCM tap: bytes in any chunking become samples at media time; nothing later than now is shown."""

from __future__ import annotations

import numpy as np
import pytest

from recorder.pcmtap import RATE, PcmTap


def test_samples_land_at_media_time_across_chunks_and_tracks() -> None:
    tap = PcmTap(keep_s=5.0)
    tr = tap.track(1000.0)
    data = np.arange(RATE, dtype="<f4").tobytes()  # one second of samples 0, 1, 2, ...
    for k in range(0, len(data), 1001):  # chunks that split samples
        tr.feed(data[k : k + 1001])
    assert tap.covered_ms() == pytest.approx(2000.0)
    win = tap.window(1500.0, 2500.0)
    assert win is not None and win.heard == pytest.approx(0.5)
    assert win.samples[0] == RATE // 2 and win.samples[-1] == 0.0  # silence where nothing was heard
    # a later track (the next segment) overlapping the end wins; old sound beyond keep_s is dropped
    tap.track(1900.0).feed(np.full(RATE * 6, -1.0, "<f4").tobytes())
    later = tap.window(1800.0, 2000.0)
    assert later is not None and (later.samples[-10:] == -1.0).all()
    assert later.samples[50] == 0.0  # the first track ended more than keep_s before the newest sound: gone
    assert tap.window(900.0, 1000.0) is None


def test_nothing_from_the_future() -> None:
    now = [1200.0]
    tap = PcmTap(now_ms=lambda: now[0])
    tap.track(1000.0).feed(np.ones(RATE, "<f4").tobytes())  # read ahead: sound up to 2000 ms
    assert tap.covered_ms() == 1200.0
    win = tap.window(1000.0, 1400.0)
    assert win is not None and win.heard == pytest.approx(0.5) and win.samples[-1] == 0.0
    assert not tap.wait_for(1500.0, timeout=0.05)
    now[0] = 1600.0
    assert tap.covered_ms() == 1600.0 and tap.wait_for(1500.0, timeout=0.05)
