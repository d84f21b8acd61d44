"""Evidence for a protest: the disputed range as a clip, and a self-contained HTML report.

- :func:`export_clip` re-encodes exactly ``[from_ms, to_ms)`` frame by frame (decoded with
  :class:`~vision.video.VideoTimeline`), draws the chosen overlays and a burned-in time code with QPainter on
  a QImage (fine off the UI thread) and encodes H.264 with PyAV, keeping every source frame's time.
- :func:`export_copy` is the lossless option: ffmpeg (imageio-ffmpeg's binary) copies the streams from the
  keyframe at or before ``from_ms`` (so it may start a little early; nothing is re-encoded).
- :func:`write_report` writes one HTML file with the stills embedded as PNG, each vote round's timing
  chart, the outcome before and after, and the decision.

All three run in the background (they touch no widget).
"""

from __future__ import annotations

import base64
import html
import subprocess
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from pathlib import Path

import numpy as np
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPointF, QRectF
from PySide6.QtGui import QImage, QPainter

from review_ui.i18n import english
from review_ui.overlays import paint_overlays
from review_ui.player_widget import format_time
from review_ui.review_data import ProtestView, ReviewData, outcome_changes, outcome_lines
from review_ui.timing_chart import render_chart
from vision.video import SegmentSpec, VideoTimeline


class EvidenceError(RuntimeError):
    pass


def draw_frame(
    rgb: np.ndarray, t: int, data: ReviewData | None, layers: Iterable[str], labels: Callable[[str], str]
) -> QImage:
    """A frame (h, w, 3 uint8 RGB) with the chosen overlay layers, as an RGB888 QImage owning its pixels."""
    h, w, _ = rgb.shape
    img = QImage(np.ascontiguousarray(rgb).data, w, h, 3 * w, QImage.Format.Format_RGB888).copy()
    p = QPainter(img)
    paint_overlays(
        p, lambda x, y: QPointF(x, y), data, t, list(layers), labels=labels, area=QRectF(0, 0, w, h)
    )
    p.end()
    return img


def qimage_rgb(img: QImage) -> np.ndarray:
    """(h, w, 3) uint8 RGB copy of a QImage."""
    img = img.convertToFormat(QImage.Format.Format_RGB888)
    w, h = img.width(), img.height()
    buf = np.frombuffer(img.constBits(), np.uint8, count=img.sizeInBytes()).reshape(h, img.bytesPerLine())
    return buf[:, : w * 3].reshape(h, w, 3).copy()


def export_clip(
    specs: Sequence[SegmentSpec | Path],
    from_ms: int,
    to_ms: int,
    out: Path,
    *,
    data: ReviewData | None = None,
    layers: Iterable[str] = (),
    labels: Callable[[str], str] = english,
    crf: int = 12,
    preset: str = "veryfast",
    timecode: bool = True,
) -> int:
    """Re-encode the frames with ``from_ms <= pts < to_ms``; returns the number of frames written."""
    import av

    if to_ms <= from_ms:
        raise EvidenceError(f"empty range {from_ms}–{to_ms} ms")
    layers = list(layers) + (["timecode"] if timecode else [])
    timeline = VideoTimeline(list(specs), index=False, background_index=False)
    n = 0
    try:
        fps = Fraction(timeline.fps).limit_denominator(1001)
        out.parent.mkdir(parents=True, exist_ok=True)
        with av.open(str(out), "w") as container:
            stream = container.add_stream("libx264", rate=fps)
            w, h = timeline.frame_size
            stream.width, stream.height = w - w % 2, h - h % 2
            stream.pix_fmt = "yuv420p"
            stream.time_base = Fraction(1, 1000)
            stream.options = {"crf": str(crf), "preset": preset}
            for frame in timeline.iter_frames(from_ms, to_ms):
                rgb = frame.image
                if layers:
                    rgb = qimage_rgb(draw_frame(rgb, frame.pts_ms, data, layers, labels))
                vf = av.VideoFrame.from_ndarray(rgb[: stream.height, : stream.width], format="rgb24")
                vf.pts = frame.pts_ms - from_ms
                vf.time_base = Fraction(1, 1000)
                for packet in stream.encode(vf):
                    container.mux(packet)
                n += 1
            for packet in stream.encode():
                container.mux(packet)
    finally:
        timeline.close()
    if n == 0:
        raise EvidenceError(f"no frames between {format_time(from_ms)} and {format_time(to_ms)}")
    return n


def export_copy(source: Path, from_ms: int, to_ms: int, out: Path) -> None:
    """Lossless: copy the streams from the keyframe at or before ``from_ms`` up to ``to_ms``."""
    import imageio_ffmpeg

    out.parent.mkdir(parents=True, exist_ok=True)
    cmd = [
        imageio_ffmpeg.get_ffmpeg_exe(),
        "-y",
        "-loglevel",
        "error",
        "-ss",
        f"{from_ms / 1000:.3f}",
        "-i",
        str(source),
        "-t",
        f"{(to_ms - from_ms) / 1000:.3f}",
        "-c",
        "copy",
        "-avoid_negative_ts",
        "make_zero",
        str(out),
    ]
    res = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if res.returncode != 0:
        raise EvidenceError(f"ffmpeg failed on {source}: {res.stderr.strip()[-400:]}")


def png_data_uri(img: QImage) -> str:
    raw = QByteArray()
    buf = QBuffer(raw)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    img.save(buf, "PNG")  # type: ignore[call-overload]  # the stubs want bytes; the binding wants str
    buf.close()
    return "data:image/png;base64," + base64.b64encode(bytes(raw.data())).decode("ascii")


def stills(
    specs: Sequence[SegmentSpec | Path],
    times: Sequence[int],
    data: ReviewData | None,
    layers: Iterable[str],
    labels: Callable[[str], str],
) -> list[tuple[int, QImage]]:
    timeline = VideoTimeline(list(specs), index=False, background_index=False)
    try:
        out = []
        for t in times:
            frame = timeline.frame_at(t)
            out.append(
                (frame.pts_ms, draw_frame(frame.image, frame.pts_ms, data, [*layers, "timecode"], labels))
            )
        return out
    finally:
        timeline.close()


def write_report(
    out: Path,
    data: ReviewData,
    protest: ProtestView,
    *,
    before: ReviewData | None,
    images: Sequence[tuple[int, QImage]],
    title: str = "",
) -> Path:
    p = protest.protest
    e = html.escape
    lo = p.from_t if p.from_t is not None else p.t
    hi = p.until if p.until is not None else p.t
    rounds = [r for r in data.rounds if r.call_t <= hi and r.close_t + 1500 >= lo]
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>{e(title or 'mafiacam protest')} {e(p.protest)}</title>",
        "<style>body{font-family:sans-serif;max-width:1000px;margin:2em auto}"
        "img{max-width:100%;border:1px solid #999}"
        "td,th{padding:2px 8px;text-align:left}.old{color:#a00}.new{color:#070}</style></head><body>",
        f"<h1>Протест / Protest {e(p.protest)}</h1>",
        f"<p>{e(title)}</p><table>",
        f"<tr><th>Подал / Filed by</th><td>{e(str(p.by) if p.by is not None else '—')}</td></tr>",
        f"<tr><th>Места / Seats</th><td>{e(', '.join(map(str, p.seats)) or '—')}</td></tr>",
        f"<tr><th>Суть / Claim</th><td>{e(p.claim)}</td></tr>",
        f"<tr><th>Отрезок / Range</th><td>{format_time(lo)} – {format_time(hi)}</td></tr>",
        f"<tr><th>Судья / Judge</th><td>{e(p.judge or '—')}</td></tr></table>",
        "<h2>Кадры / Stills</h2>",
    ]
    for t, img in images:
        parts.append(
            f"<figure><img src='{png_data_uri(img)}'><figcaption>{format_time(t)}</figcaption></figure>"
        )
    for r in rounds:
        chart = render_chart(r, data.seats)
        parts.append(
            f"<h2>Голосование / Vote: {e(r.label)} ({format_time(r.call_t)})</h2>"
            f"<p>«Спасибо» {format_time(r.close_t)}"
            + (
                f" (голос / voice; клавиша / key {format_time(r.keystroke_t)})"
                if r.onset_t == r.close_t
                else ""
            )
            + f"; голоса / voters: {e(', '.join(map(str, r.voters)) or '—')}</p>"
            f"<img src='{png_data_uri(chart)}'>"
            "<table><tr><th>Место / Seat</th><th>мс до(−)/после(+) «Спасибо»</th><th>жест / gesture</th></tr>"
            + "".join(
                f"<tr><td>{x.seat}</td><td>{x.delta_ms:+d}</td><td>{e(x.gesture)} {x.conf:.2f}</td></tr>"
                for x in sorted(r.landings, key=lambda x: x.seat)
            )
            + "</table>"
        )
    parts.append("<h2>Решение / Decision</h2>")
    if not protest.decisions:
        parts.append("<p>Не принято / Not decided yet.</p>")
    for d in protest.decisions:
        parts.append(
            f"<p><b>{e(d.outcome)}</b> — {e(d.reason)} ({e(d.judge or '—')}, "
            f"t={format_time(d.t)}, id {e(d.id or '')})</p>"
        )
    judge_events = [ev for ev in data.bundle.events if ev.src == "judge"]
    parts.append("<h3>События судей / Judge events</h3><ul>")
    for ev in judge_events:
        reason = getattr(ev, "reason", "") or ev.extra.get("reason", "")
        who = getattr(ev, "judge", None) or ev.extra.get("judge", "")
        ref = getattr(ev, "ref", "")
        parts.append(
            f"<li>{format_time(ev.t)} {e(ev.TYPE)} {e(str(ref))} — {e(str(reason))} ({e(str(who))})</li>"
        )
    parts.append("</ul><h2>Итог до и после / Outcome before and after</h2>")
    if before is not None:
        changes = outcome_changes(before.state, data.state)
        if not changes:
            parts.append("<p>Без изменений / No change.</p>")
        parts.append("<table>")
        for a, b in changes:
            parts.append(f"<tr><td class='old'>{e(a)}</td><td class='new'>{e(b)}</td></tr>")
        parts.append("</table>")
    parts.append("<pre>" + e("\n".join(outcome_lines(data.state))) + "</pre></body></html>")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(parts), encoding="utf-8")
    return out
