"""Script → game bundle: video (H.264 + AAC host voice), ``layout.json``, ``game.json``, ``events.jsonl`` with
the host's marks only, and ``truth.json`` with every true hand event and the expected referee outcome.

``events.jsonl`` holds no vision events and no host-entered votes or shots: finding those is the job of the
analyser, and ``truth.json`` is what it is measured against. Two builds of the same script with the same
knobs give identical files (fixed encoder settings, one fixed thread count, no wall-clock metadata).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from collections import deque
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import av
import numpy as np

from gamelog.bundle import GameInfo, Player, create_bundle
from gamelog.events import parse_event
from gamelog.jsonl import EventWriter
from gamelog.layout import layouts_from_json
from tablesim import audio
from tablesim.outcome import HandEvent, Mark, expected_outcome
from tablesim.plan import Performance, plan
from tablesim.render import LookKnobs, Renderer
from tablesim.scene import CameraKnobs, Scene
from tablesim.script import Script

TRUTH_FORMAT = "tablesim-truth/1"
VIDEO_FILE = "video.mp4"


@dataclass(frozen=True)
class Knobs:
    """Everything about how a script is filmed (the script says what happens)."""

    camera: CameraKnobs = field(default_factory=CameraKnobs)
    look: LookKnobs = field(default_factory=LookKnobs)
    audio: audio.AudioKnobs = field(default_factory=audio.AudioKnobs)
    fps: int = 25
    hand_scale: float = 1.0
    crf: int = 24
    preset: str = "ultrafast"
    threads: int = 2  # x264 threads: fixed, so that builds are bit-for-bit repeatable
    audio_bitrate: int = 64000
    fidget: float = 0.0  # idle shifts of each resting hand per minute (motion that is not an event)
    # Opt-in, for long games: the sensor noise restarts its cycle at every keyframe, and a one-second group
    # of pictures identical to one already encoded is copied instead of encoded again (see encode_fast).
    # Changes the pixels (not the truth), so the default stays off and old bundles rebuild bit for bit.
    fast_render: bool = False

    def __post_init__(self) -> None:
        if not 5 <= self.fps <= 60:
            raise ValueError(f"fps {self.fps} must be within 5..60")
        if not 0 <= self.crf <= 51:
            raise ValueError(f"crf {self.crf} must be within 0..51")


@dataclass(frozen=True)
class BuildResult:
    bundle: Path
    frames: int
    duration_ms: int
    seconds: float  # wall-clock time of the build
    render_seconds: float
    truth: dict[str, Any]


def make_scene(knobs: Knobs) -> Scene:
    return Scene.build(camera=knobs.camera, hand_scale=knobs.hand_scale)


def prepare(script: Script, knobs: Knobs) -> tuple[Scene, Performance, list[Mark], dict[str, Any]]:
    """Plan the performance and derive the host marks (with the announced counts) and the expected outcome."""
    scene = make_scene(knobs)
    perf = plan(script, scene, float(knobs.fps), fidget=knobs.fidget)
    outcome = expected_outcome(perf.marks, perf.hands, script.roles.black, script.seat_count, script.rules)
    marks = _fill_counts(perf.marks, outcome)
    return scene, perf, marks, outcome


def _fill_counts(marks: list[Mark], outcome: dict[str, Any]) -> list[Mark]:
    """Each ``vote_count`` announces the count of the latest round on its candidate before it."""
    rounds: list[tuple[int, Any, int]] = []  # (call t, candidate, count)
    calls = [m for m in marks if m.type == "vote_call"]
    flat = [v for d in outcome["days"] for v in d["votes"]]
    if len(flat) != len(calls):
        raise AssertionError(f"{len(calls)} vote calls but {len(flat)} rounds in the outcome")
    for c, v in zip(calls, flat, strict=True):
        rounds.append((c.t, v["candidate"], len(v["voters"])))
    out = []
    for m in marks:
        if m.type == "vote_count":
            prior = [r for r in rounds if r[0] < m.t and r[1] == m.fields["candidate"]]
            count = prior[-1][2] if prior else 0
            m = Mark(m.t, m.type, m.id, {**m.fields, "count": count}, m.line, m.onset)
        out.append(m)
    return out


def voice(
    script: Script, perf: Performance, marks: list[Mark], knobs: Knobs
) -> tuple[np.ndarray, list[dict[str, Any]]]:
    """The sound track and the truth of every spoken host line."""
    track = audio.Track(script.end)
    by_line = {m.line: m for m in marks}
    host = {h.index: h for h in script.host}
    spoken = []
    busy: list[tuple[int, int]] = []
    for idx, onset, kind in perf.spoken:
        h = host[idx]
        m = by_line.get(idx)
        count = m.fields.get("count") if m else None
        text = audio.host_text(
            kind, n=h.n, candidate=h.candidate, rnd=h.round, target=h.target, count=count, text=h.text
        )
        placed = track.place_onset(text, onset)
        busy.append(
            (placed.start - audio.SAMPLE_RATE // 2, placed.start + placed.length + audio.SAMPLE_RATE // 4)
        )
        spoken.append(
            {
                "kind": kind,
                "text": text,
                "host_line": idx,
                "onset_ms": round(placed.onset_ms, 3),
                "onset_sample": placed.onset_sample,
                "end_ms": round((placed.start + placed.length) * 1000.0 / audio.SAMPLE_RATE, 3),
                "mark_id": m.id if m else None,
                "mark_t": m.t if m else None,
                "lag_ms": round(m.t - placed.onset_ms, 3) if m else None,
            }
        )
    speeches = [h for h in script.host if h.kind in ("speech", "speech_end")]
    for i, h in enumerate(speeches):
        if h.kind == "speech":
            end = next((e.t for e in speeches[i + 1 :] if e.kind == "speech_end" and e.seat == h.seat), None)
            if end is not None and h.seat is not None:
                track.speech(h.seat, h.t, end, knobs.audio, script.seed)
    track.room(knobs.audio, script.seed, busy=busy)
    return track.finish(), spoken


def truth_json(
    script: Script,
    knobs: Knobs,
    scene: Scene,
    perf: Performance,
    marks: list[Mark],
    outcome: dict[str, Any],
    spoken: list[dict[str, Any]],
) -> dict[str, Any]:
    def hand(e: HandEvent) -> dict[str, Any]:
        d: dict[str, Any] = {
            "kind": e.kind,
            "seat": e.seat,
            "t": e.t,
            "t_exact": round(e.t_exact, 3),
            "frame": e.frame,
        }
        if e.gesture:
            d["gesture"] = e.gesture
        if e.until is not None:
            d["until"] = e.until
        if e.note:
            d["note"] = e.note
        return d

    return {
        "format": TRUTH_FORMAT,
        "seed": script.seed,
        "rules": script.rules,
        "roles": {
            "don": script.roles.don,
            "mafia": list(script.roles.mafia),
            "sheriff": script.roles.sheriff,
        },
        "fps": knobs.fps,
        "frames": perf.n_frames(),
        "duration_ms": script.end,
        "frame_size": [scene.camera.width, scene.camera.height],
        "hand_scale": knobs.hand_scale,
        "hand_len_px": {str(s.seat): round(scene.hand_len_px(s.zone_centre), 1) for s in scene.seats},
        "knobs": _knobs_json(knobs),
        "speech": spoken,
        "hands": [hand(e) for e in perf.hands],
        "reaches": perf.reaches,
        "expected": outcome,
        "host_marks": len(marks),
    }


def _knobs_json(knobs: Knobs) -> dict[str, Any]:
    d = asdict(knobs)
    d["look"]["light_dir"] = list(knobs.look.light_dir)
    if not knobs.fast_render:
        del d["fast_render"]  # the truth of a default build stays as it was before the knob existed
    return d


def build(
    script: Script,
    out_dir: str | Path,
    knobs: Knobs | None = None,
    *,
    progress: Callable[[int, int], None] | None = None,
    overwrite: bool = False,
) -> BuildResult:
    """Make a complete bundle in ``out_dir`` (which must not hold a bundle unless ``overwrite``)."""
    knobs = knobs or Knobs()
    t_start = time.perf_counter()
    out = Path(out_dir)
    if out.exists() and any(out.iterdir()):
        if not overwrite:
            raise FileExistsError(f"{out}: the folder is not empty (use overwrite)")
        shutil.rmtree(out)
    scene, perf, marks, outcome = prepare(script, knobs)
    sound, spoken = voice(script, perf, marks, knobs)
    truth = truth_json(script, knobs, scene, perf, marks, outcome, spoken)

    info = GameInfo(
        format="mafiacam/1",
        rules=script.rules,
        started_at=script.started_at,
        players=tuple(Player(seat=i + 1, name=n) for i, n in enumerate(script.players)),
        video=(VIDEO_FILE,),
        extra={"synthetic": {"generator": "tablesim", "seed": script.seed, "truth": "truth.json"}},
    )
    layouts = layouts_from_json(scene.layout_json(), seats=script.seat_count)
    create_bundle(out, info, layouts)
    with EventWriter(out / "events.jsonl") as w:
        for m in marks:
            w.append(parse_event({"t": m.t, "type": m.type, "src": "host", **m.fields, "id": m.id}))
    t_render = time.perf_counter()
    renderer = Renderer(scene, knobs.look, seed=script.seed)
    tmp = out / (VIDEO_FILE + ".part")
    (encode_fast if knobs.fast_render else encode)(tmp, perf, renderer, sound, knobs, progress=progress)
    os.replace(tmp, out / VIDEO_FILE)
    render_s = time.perf_counter() - t_render
    (out / "truth.json").write_text(json.dumps(truth, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return BuildResult(out, perf.n_frames(), script.end, time.perf_counter() - t_start, render_s, truth)


def _open_video(box: Any, renderer: Renderer, knobs: Knobs, extra: str = "") -> Any:
    """The H.264 stream: yuv420p, one keyframe per second (GOP = fps frames), fixed threads."""
    cam = renderer.scene.camera
    vs = box.add_stream("libx264", rate=Fraction(knobs.fps))
    vs.width, vs.height, vs.pix_fmt = cam.width, cam.height, "yuv420p"
    vs.time_base = Fraction(1, knobs.fps)
    vs.options = {
        "crf": str(knobs.crf),
        "preset": knobs.preset,
        "x264-params": f"keyint={knobs.fps}:min-keyint={knobs.fps}:scenecut=0:threads={knobs.threads}{extra}",
        "flags": "+bitexact",
    }
    vs.codec_context.thread_count = knobs.threads
    return vs


class _Audio:
    """The AAC stream, fed in 1024-sample blocks up to a sample position."""

    def __init__(self, box: Any, sound: np.ndarray, knobs: Knobs) -> None:
        self.box = box
        self.stream = box.add_stream("aac", rate=audio.SAMPLE_RATE, layout="mono")
        self.stream.bit_rate = knobs.audio_bitrate
        self.stream.options = {"flags": "+bitexact"}
        self.pcm = sound.astype(np.float32)
        self.pos = 0

    def until(self, sample: int, chunk: int = 1024) -> None:
        while self.pos < min(sample, len(self.pcm)):
            block = self.pcm[self.pos : self.pos + chunk]
            if len(block) < chunk:
                block = np.concatenate([block, np.zeros(chunk - len(block), np.float32)])
            fr = av.AudioFrame.from_ndarray(block[None, :], format="fltp", layout="mono")
            fr.sample_rate = audio.SAMPLE_RATE
            fr.pts = self.pos
            fr.time_base = Fraction(1, audio.SAMPLE_RATE)
            for p in self.stream.encode(fr):
                self.box.mux(p)
            self.pos += chunk

    def flush(self) -> None:
        for p in self.stream.encode(None):
            self.box.mux(p)


class _Converted:
    """Frames already drawn, converted to the encoder's pixel format, by renderer signature. While nothing
    moves only the sensor-noise field changes, cycling through a few, so a still stretch converts each noise
    field once (the conversion the encoder itself would make: the output is unchanged)."""

    def __init__(self, renderer: Renderer) -> None:
        self.renderer = renderer
        self.frames: dict[tuple[Any, ...], av.VideoFrame] = {}

    def get(self, items: list[tuple[Any, ...]], noise_index: int) -> av.VideoFrame:
        sig = self.renderer.signature(items, noise_index)
        vf = self.frames.get(sig)
        if vf is None:
            if self.frames and next(iter(self.frames))[0] != sig[0]:
                self.frames.clear()
            img = self.renderer.frame(items, noise_index)
            vf = av.VideoFrame.from_ndarray(img, format="rgb24").reformat(format="yuv420p")
            self.frames[sig] = vf
        return vf


def _container(path: Path) -> Any:
    options = {"movflags": "+faststart", "fflags": "+bitexact"}
    return av.open(str(path), mode="w", format="mp4", options=options)


def encode(
    path: Path,
    perf: Performance,
    renderer: Renderer,
    sound: np.ndarray,
    knobs: Knobs,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> None:
    """H.264 (yuv420p, GOP = 1 s) + AAC into an MP4, frames drawn by ``renderer`` from ``perf``."""
    n = perf.n_frames()
    with _container(path) as box:
        vs = _open_video(box, renderer, knobs)
        sound_out = _Audio(box, sound, knobs)
        frames = _Converted(renderer)
        for i in range(n):
            vf = frames.get(perf.items(perf.frame_time(i)), i)
            vf.pts = i
            for p in vs.encode(vf):
                box.mux(p)
            sound_out.until(int((i + 1) * audio.SAMPLE_RATE / knobs.fps))
            if progress and (i % 25 == 0 or i == n - 1):
                progress(i + 1, n)
        sound_out.until(len(sound_out.pcm))
        for p in vs.encode(None):
            box.mux(p)
        sound_out.flush()


def encode_fast(
    path: Path,
    perf: Performance,
    renderer: Renderer,
    sound: np.ndarray,
    knobs: Knobs,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> None:
    """:func:`encode` for long games (``Knobs.fast_render``): the noise field is chosen by the frame's place
    in its one-second GOP, so every GOP in which nothing moves is the same picture sequence; the first such
    GOP is encoded and the later ones are copies of its packets (each GOP starts with an IDR frame and
    refers to nothing before it, so a copy decodes to exactly the same frames). No B-frames, so that
    presentation and decoding order agree."""
    n = perf.n_frames()
    gop = knobs.fps
    with _container(path) as box:
        vs = _open_video(box, renderer, knobs, ":bframes=0")
        sound_out = _Audio(box, sound, knobs)
        frames = _Converted(renderer)
        gops = _GopReuse(box, vs, gop)
        for g0 in range(0, n, gop):
            idx = range(g0, min(n, g0 + gop))
            items = [perf.items(perf.frame_time(i)) for i in idx]
            sig = tuple(renderer.signature(it, i - g0) for it, i in zip(items, idx, strict=True))
            if not gops.copy(sig, g0):
                for it, i in zip(items, idx, strict=True):
                    gops.encode(frames.get(it, i - g0), i, sig)
            sound_out.until(int(idx[-1] + 1) * audio.SAMPLE_RATE // knobs.fps)
            if progress:
                progress(idx[-1] + 1, n)
        sound_out.until(len(sound_out.pcm))
        gops.finish()
        sound_out.flush()


class _GopReuse:
    """Muxes encoded and copied GOPs in presentation order. The encoder sees only the frames it encodes
    (numbered in its own sequence, so its keyframe every ``gop`` frames stays on our GOP starts); its packets
    get the real pts back, and each GOP's packets are kept under the GOP's signature for later copies."""

    def __init__(self, box: Any, stream: Any, gop: int) -> None:
        self.box, self.stream, self.gop = box, stream, gop
        self.fed = 0
        self.real: dict[int, int] = {}  # encoder pts -> real pts
        self.waiting: deque[int] = deque()  # real pts given to the encoder, not yet out
        self.building: dict[int, tuple[tuple[Any, ...], list[tuple[int, bytes, bool, Any]]]] = {}
        self.done: dict[tuple[Any, ...], list[tuple[int, bytes, bool, Any]]] = {}
        self.copies: deque[Any] = deque()
        self.copied_gops = 0
        self.encoded_gops = 0

    def encode(self, vf: av.VideoFrame, real: int, sig: tuple[Any, ...]) -> None:
        g0 = real - real % self.gop
        if g0 not in self.building:
            self.building[g0] = (sig, [])
            self.encoded_gops += 1
        vf.pts = self.fed
        self.real[self.fed] = real
        self.fed += 1
        self.waiting.append(real)
        for p in self.stream.encode(vf):
            self._out(p)

    def copy(self, sig: tuple[Any, ...], g0: int) -> bool:
        packets = self.done.get(sig)
        if packets is None or len(sig) != self.gop:
            return False
        for k, data, key, time_base in packets:
            pkt = av.Packet(data)
            pkt.pts = pkt.dts = g0 + k
            pkt.duration = 1
            pkt.is_keyframe = key
            pkt.time_base = time_base
            pkt.stream = self.stream
            self.copies.append(pkt)
        self.copied_gops += 1
        self._drain()
        return True

    def _out(self, p: Any) -> None:
        real = self.real.pop(int(p.pts))
        if self.waiting.popleft() != real:
            raise AssertionError("the encoder returned frames out of order (B-frames?)")
        g0 = real - real % self.gop
        sig, kept = self.building[g0]
        kept.append((real - g0, bytes(p), bool(p.is_keyframe), p.time_base))
        if len(kept) == len(sig):
            self.done.setdefault(sig, kept)
            del self.building[g0]
        while self.copies and self.copies[0].pts < real:
            self.box.mux(self.copies.popleft())
        p.pts = p.dts = real
        p.duration = 1
        self.box.mux(p)
        self._drain()

    def _drain(self) -> None:
        """Mux the copies that no frame still inside the encoder precedes."""
        while self.copies and (not self.waiting or self.copies[0].pts < self.waiting[0]):
            self.box.mux(self.copies.popleft())

    def finish(self) -> None:
        for p in self.stream.encode(None):
            self._out(p)
        self._drain()


def file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
