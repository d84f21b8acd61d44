"""A contact sheet of a synthetic bundle: the frames of a vote, a lift, a shot and a peek, found through
``truth.json`` and decoded from the bundle's own video, each beside a zoom on the seat's zone.

    .venv/bin/python -m tablesim.contact sample_videos/sample_game docs/img/table_contact.png
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import av
import cv2
import numpy as np

ZOOM_H = 300  # height of a zoomed panel


def _frames(video: Path, wanted: set[int]) -> dict[int, np.ndarray]:
    out: dict[int, np.ndarray] = {}
    with av.open(str(video)) as box:
        for i, f in enumerate(box.decode(video=0)):
            if i in wanted:
                out[i] = f.to_ndarray(format="rgb24")
            if len(out) == len(wanted):
                break
    return out


def moments(truth: dict[str, Any]) -> list[tuple[str, int, int, str]]:
    """(label, frame, seat, zone) of the first vote, lift before the count, shot and peek in the truth."""
    fps = truth["fps"]
    hands = truth["hands"]
    out = []
    down = next((h for h in hands if h["kind"] == "hand_down" and h.get("gesture") == "thumb_up"), None)
    if down:
        out.append(
            (
                f"vote: seat {down['seat']} thumb-up fist on the table",
                down["frame"] + 2,
                down["seat"],
                "table_zone",
            )
        )
    lift = next((h for h in hands if h["kind"] == "hand_up" and h.get("note")), None)
    if lift:
        f = lift["frame"] + int(0.25 * fps)
        out.append((f"lift: seat {lift['seat']} leaves before the count", f, lift["seat"], "table_zone"))
    shot = next((h for h in hands if h["kind"] == "shot_raise"), None)
    if shot:
        out.append(
            (f"shot: seat {shot['seat']} finger-gun raised", shot["frame"], shot["seat"], "raise_zone")
        )
    peek = next((h for h in hands if h["kind"] == "head_up" and h.get("note") == "peek"), None)
    if peek:
        mid = (peek["frame"] + int(peek["until"] * fps / 1000)) // 2
        out.append((f"peek: seat {peek['seat']} raises the head at night", mid, peek["seat"], "head_zone"))
    return out


def contact_sheet(bundle: str | Path, out_png: str | Path) -> Path:
    b = Path(bundle)
    truth = json.loads((b / "truth.json").read_text(encoding="utf-8"))
    layout = json.loads((b / "layout.json").read_text(encoding="utf-8"))
    picks = moments(truth)
    frames = _frames(b / "video.mp4", {f for _, f, _, _ in picks})
    rows = []
    w, h = layout["frame_size"]
    thumb_w = int(ZOOM_H * w / h)
    for label, f, seat, zone in picks:
        img = frames[f].copy()
        poly = np.array(layout["seats"][seat - 1][zone], np.float64)
        x0, y0 = poly.min(axis=0)
        x1, y1 = poly.max(axis=0)
        hand = truth["hand_len_px"][str(seat)] * truth["hand_scale"]
        cx, cy, half = (x0 + x1) / 2, (y0 + y1) / 2, max(max(x1 - x0, y1 - y0) * 0.6, 2.0 * hand)
        ax0, ay0 = int(max(0, cx - half * 1.4)), int(max(0, cy - half))
        ax1, ay1 = int(min(w, cx + half * 1.4)), int(min(h, cy + half))
        crop = img[ay0:ay1, ax0:ax1]
        zoom = cv2.resize(
            crop, (int(ZOOM_H * crop.shape[1] / crop.shape[0]), ZOOM_H), interpolation=cv2.INTER_CUBIC
        )
        full = img.copy()
        cv2.polylines(full, [poly.astype(np.int32)], True, (255, 220, 0), max(1, w // 640), cv2.LINE_AA)
        cv2.rectangle(full, (ax0, ay0), (ax1, ay1), (255, 255, 255), max(1, w // 960))
        thumb = cv2.resize(full, (thumb_w, ZOOM_H), interpolation=cv2.INTER_AREA)
        row = np.concatenate([thumb, np.full((ZOOM_H, 8, 3), 20, np.uint8), zoom], axis=1)
        bar = np.full((34, row.shape[1], 3), 20, np.uint8)
        t_ms = round(f * 1000 / truth["fps"])
        text = f"{label}   (frame {f}, t = {t_ms} ms)"
        cv2.putText(bar, text, (8, 24), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (235, 235, 235), 1, cv2.LINE_AA)
        rows.append(np.concatenate([bar, row], axis=0))
    width = max(r.shape[1] for r in rows)
    rows = [np.pad(r, ((0, 6), (0, width - r.shape[1]), (0, 0)), constant_values=20) for r in rows]
    sheet = np.concatenate(rows, axis=0)
    out = Path(out_png)
    out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(out), cv2.cvtColor(sheet, cv2.COLOR_RGB2BGR))
    return out


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print("usage: python -m tablesim.contact BUNDLE OUT.png", file=sys.stderr)
        raise SystemExit(2)
    print(contact_sheet(sys.argv[1], sys.argv[2]))
