"""Do MediaPipe's hand landmarks land on tablesim's rendered hands? Detection rate and landmark error.

Each case renders one hand (pose, skin tone, sleeve, left/right, an orientation an elevated tournament camera
sees, a hand length in pixels), composites it at life size on a plausible background patch (table wood or
cloth, a player's clothes, noise), blurs and JPEG-compresses it like a video frame, then crops a square
``--window`` hand lengths wide around the hand with ``vision.crops`` (as its motion window does for a hand
arriving in a seat zone; upscaled toward 256 px, at most 4x) and runs the real MediaPipe hand landmarker
(IMAGE mode, ``vision.crops.detect_crop``; ``--retry-mirrored`` tries an empty crop again mirrored) on it.
Error = mean distance of the 21 landmarks to the rendered joints, divided by the palm length (wrist → middle
MCP, 3D, in pixels: 0.48 × hand length), so it does not depend on size. ``--det-conf``/``--presence-conf``
override the landmarker's default thresholds; ``--negatives BUNDLE`` also counts false hands on hand-free
crops (backgrounds, real photo windows clear of hands, the bundle's head zones). ``--upright DEG`` turns each
crop so the arm points down (its direction known to ± DEG); ``--retry-turns``/``--retry-window`` try an empty
crop again turned or wider (``vision.crops.detect_crop`` retries); ``--cache DIR`` keeps the rendered cases,
so that variants are compared on the same pixels without rendering again.

    .venv/bin/python bench/bench_hand_detection.py --per-cell 3 --json /tmp/hands.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
import time
from collections import defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchstats import wilson

from tablesim.hands import SKIN_TONES, SLEEVE_COLOURS, HandLook, HandSprite, SpriteCache, render_hand
from tablesim.skeleton import POSES, camera_from_world, hand_in_world, hand_joints, rotation
from vision.crops import CropSpec, crop_around, detect_crop, extract, upright_angle

SIZES = (30, 40, 50, 60, 90, 120)
WINDOW = 3.0  # crop side in hand lengths, as vision.crops.motion_roi makes for a hand arriving
PALM_RATIO = float(np.linalg.norm(hand_joints("flat")[9] - hand_joints("flat")[0]))
# Where each pose is seen: on the table (lying or on the little-finger side) or raised in the air.
VIEWS = {
    "relaxed": ("table_down", "raised"),
    "thumb_up": ("table_side",),
    "gun": ("raised",),
    "palm": ("table_down", "raised"),
    "flat": ("table_down",),
    "point": ("table_down", "raised"),
    "fist": ("table_down", "table_side"),
}
BACKGROUNDS = ("wood", "green_cloth", "dark_clothes", "grey_noise")


@dataclass(frozen=True)
class Case:
    pose: str
    size: int
    view: str
    elevation: float
    heading: float
    tilt: float
    skin: int
    sleeve: int
    left: bool
    background: str
    blur: float
    seed: int = 0  # texture noise and background of this case


@dataclass(frozen=True)
class Outcome:
    case: Case
    detected: bool
    err_mean: float  # normalised by palm length; nan if not detected
    err_p90: float
    calls: int = 1  # detector calls (2 when an empty crop was tried again mirrored)


@dataclass(frozen=True)
class Negative:
    """A crop with no hand in it: ``spec`` of ``frame`` ((H, W, 3) uint8 RGB)."""

    kind: str
    frame: np.ndarray
    spec: CropSpec


def orientation(case: Case) -> np.ndarray:
    """Hand frame → camera frame for the case's view."""
    h = math.radians(case.heading)
    t = math.radians(case.tilt)
    along = np.array([math.sin(h), math.cos(h), 0.0])  # a horizontal direction on the table
    up = np.array([0.0, 0.0, 1.0])
    if case.view == "table_down":  # palm on the table, fingers along `along`, a little lifted by tilt
        distal = along * math.cos(t) + up * math.sin(t)
        world = hand_in_world(distal, -up)
    elif case.view == "table_side":  # resting on the little-finger side, thumb up
        side = np.cross(up, along) * (-1.0 if case.left else 1.0)  # a left hand's thumb is on its -x side
        world = hand_in_world(along, side * math.cos(t) + up * math.sin(t))
    else:  # raised: fingers up, palm toward `along` (the camera sees it when along points at it)
        distal = up * math.cos(t) + along * math.sin(t)
        world = hand_in_world(distal, along)
    return camera_from_world(case.elevation) @ world


def background(kind: str, h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "wood":
        base = np.array([150, 105, 65], np.float32) * rng.uniform(0.8, 1.15)
        grain = 0.08 * np.sin(xx * rng.uniform(0.05, 0.2) + 3 * np.sin(yy * 0.02))[..., None]
        img = base * (1 + grain)
    elif kind == "green_cloth":
        img = np.array([40, 100, 60], np.float32) * rng.uniform(0.8, 1.2) * np.ones((h, w, 1), np.float32)
    elif kind == "dark_clothes":
        img = np.array(rng.uniform(20, 70, 3), np.float32) * np.ones((h, w, 1), np.float32)
        img[: h // 3] = np.array([150, 105, 65], np.float32)  # table edge above
    else:
        img = np.full((h, w, 3), rng.uniform(80, 170), np.float32)
    img = img * (1 + 0.15 * (yy / h - 0.5))[..., None]
    img += rng.normal(0, 6, img.shape).astype(np.float32)
    return img


def composite(sprite: HandSprite, bg: np.ndarray, x0: int, y0: int) -> np.ndarray:
    out = bg.copy()
    h, w = sprite.rgba.shape[:2]
    a = sprite.rgba[..., 3:4].astype(np.float32) / 255.0
    region = out[y0 : y0 + h, x0 : x0 + w]
    region[:] = sprite.rgba[..., :3].astype(np.float32) * a + region * (1 - a)
    return out


def frame_for(case: Case) -> tuple[np.ndarray, np.ndarray]:
    """A life-size frame patch with the hand in it, and the hand's 21 true joints in that patch (px)."""
    img, joints, _ = frame_with_arm(case)
    return img, joints


FRAME_CACHE: Path | None = None  # --cache: rendered cases kept on disk between runs (same bytes)


def frame_with_arm(case: Case) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`frame_for`, and the unit direction (image x, y) from the wrist along the rendered forearm:
    where the arm comes from, as the analyser knows it from the seat layout (the player's body)."""
    if FRAME_CACHE is None:
        return _render_case(case)
    key = hashlib.sha1(repr(case).encode()).hexdigest()[:20]
    path = FRAME_CACHE / f"{key}.npz"
    if path.exists():
        with np.load(path) as z:
            return z["img"], z["joints"], z["arm"]
    img, joints, arm = _render_case(case)
    FRAME_CACHE.mkdir(parents=True, exist_ok=True)
    np.savez(path, img=img, joints=joints, arm=arm)
    return img, joints, arm


def _render_case(case: Case) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(case.seed)
    look = HandLook(SKIN_TONES[case.skin], SLEEVE_COLOURS[case.sleeve], left=case.left)
    sprite = render_hand(case.pose, look, orientation(case), float(case.size), seed=case.seed)
    sh, sw = sprite.rgba.shape[:2]
    margin = 2 * case.size
    bg = background(case.background, sh + 2 * margin, sw + 2 * margin, rng)
    img = composite(sprite, bg, margin, margin)
    if case.blur > 0:
        img = cv2.GaussianBlur(img, (0, 0), case.blur)
    img8 = np.clip(img + 0.5, 0, 255).astype(np.uint8)
    ok, enc = cv2.imencode(".jpg", img8[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 85])
    assert ok
    img8 = cv2.imdecode(enc, cv2.IMREAD_COLOR)[..., ::-1].copy()
    arm = (sprite.elbow - sprite.wrist).astype(np.float64)
    if np.hypot(*arm) < 0.1 * case.size:  # forearm pointing at the camera: the palm's axis says it
        arm = (sprite.joints[0] - sprite.joints[9]).astype(np.float64)
    return img8, sprite.joints + margin, arm / max(float(np.hypot(*arm)), 1e-9)


def arm_estimate(case: Case, arm: np.ndarray, err_deg: float) -> np.ndarray:
    """The arm direction turned by a random error, uniform in ± ``err_deg`` (drawn from the case's own
    seed, so the same hands get the same errors in every run): what a layout-based guess would give."""
    e = math.radians(float(np.random.default_rng(case.seed + 99).uniform(-err_deg, err_deg)))
    c, s = math.cos(e), math.sin(e)
    return np.array([c * arm[0] - s * arm[1], s * arm[0] + c * arm[1]])


def hand_crop(
    img: np.ndarray, joints: np.ndarray, size: int, window: float, angle: float = 0.0
) -> tuple[np.ndarray, CropSpec]:
    """The detector's view: a square ``window`` hand lengths wide around the hand, made by the vision
    package's own crop code (``vision.crops``: clamped to the frame, upscaled toward 256 px, at most 4×,
    turned by ``angle``)."""
    cx, cy = (joints.min(axis=0) + joints.max(axis=0)) / 2
    spec = crop_around(img.shape, (float(cx), float(cy)), window * size, angle=angle)
    return extract(img, spec), spec


@dataclass(frozen=True)
class CropPlan:
    """How the bench crops: ``window`` hand lengths; turned upright from the arm direction known to within
    ± ``upright`` degrees (None: not turned); while empty, retried turned by each of ``retry_turns``
    degrees more, then ``retry_window`` hand lengths wide (0: not), then mirrored (``retry_mirrored``)."""

    window: float = WINDOW
    upright: float | None = None
    retry_turns: tuple[float, ...] = ()
    retry_window: float = 0.0
    retry_mirrored: bool = False

    def specs(self, case: Case, img: np.ndarray, joints: np.ndarray, arm: np.ndarray) -> list[CropSpec]:
        angle = 0.0 if self.upright is None else upright_angle(arm_estimate(case, arm, self.upright))
        first = hand_crop(img, joints, case.size, self.window, angle)[1]
        return [first, *self.retries(first, img.shape)]

    def retries(self, first: CropSpec, frame_shape: tuple[int, ...]) -> list[CropSpec]:
        """The retries of the crop ``first`` (``window`` hand lengths wide), in order."""
        out = [first.turned(first.angle + t) for t in self.retry_turns]
        if self.retry_window > 0:
            centre = ((first.x0 + first.x1) / 2, (first.y0 + first.y1) / 2)
            side = max(first.width, first.height) * self.retry_window / self.window
            out.append(crop_around(frame_shape, centre, side, angle=first.angle))
        return out


def make_cases(per_cell: int, sizes: tuple[int, ...], blur: float, seed: int) -> list[Case]:
    rng = np.random.default_rng(seed)
    cases = []
    for size in sizes:
        for pose in POSES:
            for i in range(per_cell):
                view = VIEWS[pose][i % len(VIEWS[pose])]
                if view == "raised":
                    heading = float(rng.uniform(-110, 110)) + 180.0  # palm toward the camera ± 110°
                    tilt = float(rng.uniform(-25, 25))
                else:
                    heading = float(rng.uniform(-180, 180))
                    tilt = float(rng.uniform(0, 15))
                cases.append(
                    Case(
                        pose=pose,
                        size=size,
                        view=view,
                        elevation=float(rng.uniform(25, 60)),
                        heading=heading,
                        tilt=tilt,
                        skin=int(rng.integers(len(SKIN_TONES))),
                        sleeve=int(rng.integers(len(SLEEVE_COLOURS))),
                        left=bool(rng.integers(2)),
                        background=str(rng.choice(BACKGROUNDS)),
                        blur=blur,
                        seed=int(rng.integers(1 << 30)),
                    )
                )
    return cases


def run_case(tracker: object, case: Case, plan: CropPlan) -> Outcome:
    img, truth, arm = frame_with_arm(case)
    spec, *retries = plan.specs(case, img, truth, arm)
    found, calls = detect_crop(
        tracker,  # type: ignore[arg-type]
        img,
        spec,
        retries=retries,
        retry_mirrored=plan.retry_mirrored,
    )
    if len(found) == 0:
        return Outcome(case, False, math.nan, math.nan, calls)
    palm = PALM_RATIO * case.size
    best = None
    for pts in found.points:
        err = np.linalg.norm(pts[:, :2] - truth, axis=1) / palm
        if best is None or err.mean() < best.mean():
            best = err
    assert best is not None
    return Outcome(case, True, float(best.mean()), float(np.percentile(best, 90)), calls)


def summarise(outcomes: list[Outcome], key: str) -> list[str]:
    groups: dict[object, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        groups[getattr(o.case, key)].append(o)
    lines = [f"| {key} | n | detected | 95% CI | mean err | p90 err |", "|---|---|---|---|---|---|"]
    for k in sorted(groups, key=lambda v: (str(type(v)), v)):
        g = groups[k]
        det = [o for o in g if o.detected]
        lo, hi = wilson(len(det), len(g))
        me = np.mean([o.err_mean for o in det]) if det else math.nan
        p90 = np.percentile([o.err_mean for o in det], 90) if det else math.nan
        lines.append(
            f"| {k} | {len(g)} | {100 * len(det) / len(g):.0f}% | {100 * lo:.0f}–{100 * hi:.0f}% "
            f"| {me:.3f} | {p90:.3f} |"
        )
    return lines


def contact_sheet(tracker: object, path: Path, size: int, seed: int, window: float) -> int:
    """Every pose × four looks/orientations at ``size`` px: the middle of the crop MediaPipe saw, and a copy
    with its landmarks (white bones, red points) and the rendered truth (small cyan points). Returns how
    many of the 28 MediaPipe missed."""
    tile = 160
    rows = []
    missed = 0
    for pose in POSES:
        row = []
        for i in range(4):
            view = VIEWS[pose][i % len(VIEWS[pose])]
            case = Case(
                pose=pose,
                size=size,
                view=view,
                elevation=(30.0, 45.0, 55.0, 35.0)[i],
                heading=(180.0 + (-40.0, 20.0, 70.0, -90.0)[i])
                if view == "raised"
                else (-30.0, 60.0, 150.0, -120.0)[i],
                tilt=(10.0, -10.0, 5.0, 15.0)[i] if view == "raised" else 5.0,
                skin=(1, 3, 5, 6)[i],
                sleeve=(0, 2, 1, 3)[i],
                left=i % 2 == 1,
                background=BACKGROUNDS[i],
                blur=0.5,
                seed=seed + i,
            )
            img, truth = frame_for(case)
            crop, spec = hand_crop(img, truth, size, window)
            found = tracker.detect(crop)  # type: ignore[attr-defined]
            marked = crop.copy()
            for x, y in spec.from_frame(truth):
                cv2.circle(marked, (round(x), round(y)), 2, (0, 255, 255), -1)
            for pts in found.points:
                for a, b in BONES:
                    pa, pb = pts[a, :2], pts[b, :2]
                    cv2.line(
                        marked, (round(pa[0]), round(pa[1])), (round(pb[0]), round(pb[1])), (255, 255, 255), 1
                    )
                for x, y in pts[:, :2]:
                    cv2.circle(marked, (round(x), round(y)), 2, (255, 0, 0), -1)
            missed += len(found) == 0
            # Show the middle of the crop (the hand, ~1.9 hand lengths) so the gesture can be judged by eye.
            cx, cy = spec.from_frame((truth.min(axis=0) + truth.max(axis=0))[None] / 2)[0]
            half = 0.62 * crop.shape[1] / 2
            x0, y0 = (
                int(max(0, min(cx - half, crop.shape[1] - 2 * half))),
                int(max(0, min(cy - half, crop.shape[0] - 2 * half))),
            )
            for im in (crop, marked):
                part = im[y0 : y0 + int(2 * half), x0 : x0 + int(2 * half)]
                row.append(cv2.resize(part, (tile, tile), interpolation=cv2.INTER_AREA))
            if len(found) == 0:
                cv2.putText(row[-1], "no hand", (6, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 60, 60), 2)
        strip = np.hstack(row)
        label = np.full((24, strip.shape[1], 3), 30, np.uint8)
        cv2.putText(
            label,
            f"{pose}  ({size} px hand; MediaPipe saw {window:g} hand lengths at {crop.shape[1]} px)",
            (6, 17),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.55,
            (230, 230, 230),
            1,
        )
        rows.append(np.vstack([label, strip]))
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), np.vstack(rows)[..., ::-1], [cv2.IMWRITE_PNG_COMPRESSION, 9])
    return missed


def real_baseline(
    tracker: object,
    ref: object,
    real_dir: Path,
    sizes: tuple[int, ...],
    blur: float,
    plan: CropPlan,
) -> list[str]:
    """The same measurement on REAL hands: every still photo in ``real_dir`` (LABELS.tsv) where MediaPipe
    finds hands at full resolution; each such hand, with those landmarks as the reference, is shrunk to each
    hand length in ``sizes`` (whole photo, area resampling; only ever downscaled), blurred and JPEG-compressed
    like the rendered frames, cropped the same way and detected again by ``tracker``. The reference hands
    are those ``ref`` (fixed confidences 0.5) finds, whatever confidences ``tracker`` is given. The hand
    length of a photo's hand is its 2D bone lengths over MediaPipe's metric world bones (90th percentile
    ratio) × 0.19 m."""
    rows = []
    for line in (real_dir / "LABELS.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        name, label = line.split("\t")[:2]
        if label == "clip" or not name.lower().endswith((".png", ".jpg", ".jpeg")):
            continue
        bgr = cv2.imread(str(real_dir / name), cv2.IMREAD_COLOR)
        if bgr is None:
            continue
        rgb = np.ascontiguousarray(bgr[..., ::-1])
        seen = ref.detect(rgb)  # type: ignore[attr-defined]
        if seen.world is None:
            continue
        for pts, world in zip(seen.points, seen.world, strict=True):
            bones = [(a, b) for a, b in BONES]
            ratio = [
                np.linalg.norm(pts[b, :2] - pts[a, :2]) / max(np.linalg.norm(world[b] - world[a]), 1e-4)
                for a, b in bones
            ]
            length = float(np.percentile(ratio, 90)) * 0.19
            rows.append((name, label, rgb, pts[:, :2].astype(np.float64), length))
    counts: dict[int, list[tuple[bool, float]]] = defaultdict(list)
    for _name, _label, rgb, pts, length in rows:
        for size in sizes:
            k = size / length
            if k > 1.0:
                continue
            h, w = rgb.shape[:2]
            small = cv2.resize(
                rgb, (max(1, round(w * k)), max(1, round(h * k))), interpolation=cv2.INTER_AREA
            )
            img = small.astype(np.float32)
            if blur > 0:
                img = cv2.GaussianBlur(img, (0, 0), blur)
            ok, enc = cv2.imencode(
                ".jpg", np.clip(img + 0.5, 0, 255).astype(np.uint8)[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 85]
            )
            assert ok
            img8 = cv2.imdecode(enc, cv2.IMREAD_COLOR)[..., ::-1].copy()
            truth = pts * k
            angle = 0.0
            if plan.upright is not None:  # the arm's direction: the palm's axis, wrist side, give or take
                axis = truth[0] - truth[9]
                rng = np.random.default_rng(len(counts[size]) + 1000 * size)
                e = math.radians(float(rng.uniform(-plan.upright, plan.upright)))
                c, s_ = math.cos(e), math.sin(e)
                angle = upright_angle((c * axis[0] - s_ * axis[1], s_ * axis[0] + c * axis[1]))
            spec = hand_crop(img8, truth, size, plan.window, angle)[1]
            found = detect_crop(
                tracker,  # type: ignore[arg-type]
                img8,
                spec,
                retries=plan.retries(spec, img8.shape),
                retry_mirrored=plan.retry_mirrored,
            )[0]
            errs = [
                float(np.mean(np.linalg.norm(p[:, :2] - truth, axis=1))) / (PALM_RATIO * size)
                for p in found.points
            ]
            best = min(errs) if errs else math.nan
            # A hand found elsewhere in the crop (another person's) does not count for this one.
            counts[size].append((bool(errs) and best < 0.5, best))
    lines = [
        f"real photos: {len(rows)} hands found at full resolution in {real_dir}",
        "| size | n | detected | 95% CI | mean err |",
        "|---|---|---|---|---|",
    ]
    for size in sizes:
        got = counts[size]
        det = [e for ok, e in got if ok]
        lo, hi = wilson(len(det), len(got))
        me = float(np.mean(det)) if det else math.nan
        pct = 100 * len(det) / max(len(got), 1)
        lines.append(f"| {size} | {len(got)} | {pct:.0f}% | {100 * lo:.0f}–{100 * hi:.0f}% | {me:.3f} |")
    return lines


def handfree_crops(ref: object, real_dir: Path | None, bundle: Path | None, seed: int) -> list[Negative]:
    """Crops with no hand in them, cut the way the hand crops are: the four bench backgrounds (3 hand
    lengths at 40/50/60 px), windows of the real photos clear of every hand ``ref`` finds there at full
    size (faces, clothes, sleeves, rooms; the photo shrunk so its hands are 40 or 60 px, windows 3 hands wide;
    the one group photo whose raised hands MediaPipe mostly misses is left out), and the sample game's
    head zones (heads, shoulders, sleeves; the analyser's padded seat crop) at eight moments."""
    rng = np.random.default_rng(seed + 7)
    out: list[Negative] = []
    for kind in BACKGROUNDS:
        for size in (40, 50, 60):
            for _ in range(8):
                img = cv2.GaussianBlur(background(kind, 4 * size, 4 * size, rng), (0, 0), 0.5)
                img8 = np.clip(img + 0.5, 0, 255).astype(np.uint8)
                out.append(Negative(kind, img8, crop_around(img8.shape, (2 * size, 2 * size), 3 * size)))
    if real_dir is not None:
        for line in (real_dir / "LABELS.tsv").read_text(encoding="utf-8").splitlines()[1:]:
            name, label = line.split("\t")[:2]
            if label in ("clip", "group_raise") or not name.lower().endswith((".png", ".jpg", ".jpeg")):
                continue
            bgr = cv2.imread(str(real_dir / name), cv2.IMREAD_COLOR)
            if bgr is None:
                continue
            rgb = np.ascontiguousarray(bgr[..., ::-1])
            boxes = ref.detect(rgb).bboxes()  # type: ignore[attr-defined]
            if len(boxes) == 0:
                continue  # no hand found: nothing tells where the photo's hands are
            longest = float(np.max(np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])))
            for hand in (40, 60):
                k = min(1.0, hand / longest)
                h, w = rgb.shape[:2]
                small = np.ascontiguousarray(
                    cv2.resize(
                        rgb, (max(1, round(w * k)), max(1, round(h * k))), interpolation=cv2.INTER_AREA
                    )
                )
                side, keep = 3 * hand, hand  # window and clearance from a hand's box (px)
                for y in range(0, small.shape[0] - side + 1, 2 * hand):
                    for x in range(0, small.shape[1] - side + 1, 2 * hand):
                        if all(
                            x + side < b[0] - keep
                            or x > b[2] + keep
                            or y + side < b[1] - keep
                            or y > b[3] + keep
                            for b in boxes * k
                        ):
                            out.append(Negative("photo", small, CropSpec(x, y, x + side, y + side, 1.0)))
    if bundle is not None:
        import av

        from vision.crops import crop_for_zone

        layout = json.loads((bundle / "layout.json").read_text(encoding="utf-8"))
        want = (60, 700, 1500, 2100, 2500, 3000, 3500, 4200)
        with av.open(str(bundle / "video.mp4")) as box:
            for i, fr in enumerate(box.decode(video=0)):
                if i in want:
                    frame = fr.to_ndarray(format="rgb24")
                    for seat in layout["seats"]:
                        spec = crop_for_zone(frame.shape, seat["head_zone"], pad=0.25)
                        out.append(Negative("game head zone", frame, spec))
                if i >= max(want):
                    break
    return out


def false_hands(tracker: object, negatives: list[Negative], plan: CropPlan) -> list[str]:
    """How many hand-free crops MediaPipe finds a hand in, per kind, and detector calls per crop (a hand-free
    crop is empty, so it pays for every retry of ``plan``; with ``plan.upright`` it is turned at random)."""
    hits: dict[str, list[bool]] = defaultdict(list)
    calls = 0
    rng = np.random.default_rng(5)
    for neg in negatives:
        spec = neg.spec if plan.upright is None else neg.spec.turned(float(rng.uniform(-180, 180)))
        found, n = detect_crop(
            tracker,  # type: ignore[arg-type]
            neg.frame,
            spec,
            retries=plan.retries(spec, neg.frame.shape),
            retry_mirrored=plan.retry_mirrored,
        )
        calls += n
        hits[neg.kind].append(len(found) > 0)
    total = [h for v in hits.values() for h in v]
    lo, hi = wilson(sum(total), len(total))
    lines = [
        f"hand-free crops: a hand found in {sum(total)}/{len(total)} (95% CI {100 * lo:.1f}–{100 * hi:.1f}%);"
        f" {calls / max(len(total), 1):.2f} detector calls per crop",
        "| crop | n | with a false hand |",
        "|---|---|---|",
    ]
    lines += [f"| {k} | {len(v)} | {sum(v)} |" for k, v in hits.items()]
    return lines


def timing(tracker: object, sizes: tuple[int, ...], repeats: int = 3) -> list[str]:
    """Render time per hand size (median of ``repeats`` renders of the 7 poses), against two baselines
    measured in the same run: one MediaPipe call on a 256 px crop, and a SpriteCache hit."""
    case = Case("palm", 60, "raised", 40.0, 180.0, 0.0, 2, 2, False, "grey_noise", 0.5, 0)
    img, truth = frame_for(case)
    crop = hand_crop(img, truth, 60, WINDOW)[0]  # a crop with a hand in it: detection and landmarks
    tracker.detect(crop)  # type: ignore[attr-defined]
    t0 = time.perf_counter()
    for _ in range(5):
        tracker.detect(crop)  # type: ignore[attr-defined]
    mp_ms = (time.perf_counter() - t0) / 5 * 1000
    look = HandLook(SKIN_TONES[2], SLEEVE_COLOURS[2])
    cache = SpriteCache()
    cache.get("fist", look, 10.0, 20.0, 30.0, 60.0)
    t0 = time.perf_counter()
    for _ in range(1000):
        cache.get("fist", look, 10.0, 20.0, 30.0, 60.0)
    hit_ms = (time.perf_counter() - t0) / 1000 * 1000
    lines = [
        f"baselines: one MediaPipe call on a 256 px crop with a hand {mp_ms:.1f} ms; "
        f"a SpriteCache hit {1000 * hit_ms:.1f} µs",
        "| hand px | sprite (px) | render ms (median) | × MediaPipe call |",
        "|---|---|---|---|",
    ]
    rot = rotation(150.0, 35.0, 20.0)
    for size in sizes:
        times = []
        shape = (0, 0)
        for _ in range(repeats):
            for pose in POSES:
                t0 = time.perf_counter()
                sprite = render_hand(pose, look, rot, float(size))
                times.append(time.perf_counter() - t0)
                shape = sprite.rgba.shape[:2]
        ms = float(np.median(times)) * 1000
        lines.append(f"| {size} | {shape[1]}×{shape[0]} | {ms:.0f} | {ms / mp_ms:.1f} |")
    return lines


def failure_sheet(outcomes: list[Outcome], path: Path, window: float, limit: int = 40) -> None:
    """The crops MediaPipe missed (or placed badly: mean error > 0.3), labelled, 8 per row."""
    bad = [o for o in outcomes if not o.detected or o.err_mean > 0.3][:limit]
    tiles = []
    for o in bad:
        img, truth = frame_for(o.case)
        crop = cv2.resize(
            hand_crop(img, truth, o.case.size, window)[0], (160, 160), interpolation=cv2.INTER_AREA
        )
        c = o.case
        text = f"{c.pose} {c.size}px {c.view[:6]}" + ("" if not o.detected else f" e{o.err_mean:.2f}")
        cv2.putText(crop, text, (3, 12), cv2.FONT_HERSHEY_SIMPLEX, 0.38, (255, 255, 0), 1)
        tiles.append(crop)
    if not tiles:
        return
    while len(tiles) % 8:
        tiles.append(np.zeros_like(tiles[0]))
    sheet = np.vstack([np.hstack(tiles[i : i + 8]) for i in range(0, len(tiles), 8)])
    cv2.imwrite(str(path), sheet[..., ::-1])


BONES = [
    (0, 1),
    (1, 2),
    (2, 3),
    (3, 4),
    (0, 5),
    (5, 6),
    (6, 7),
    (7, 8),
    (5, 9),
    (9, 10),
    (10, 11),
    (11, 12),
    (9, 13),
    (13, 14),
    (14, 15),
    (15, 16),
    (13, 17),
    (0, 17),
    (17, 18),
    (18, 19),
    (19, 20),
]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--per-cell", type=int, default=3, help="hands per (size, pose)")
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)), help="hand lengths in px")
    ap.add_argument("--poses", default=",".join(POSES))
    ap.add_argument("--blur", type=float, default=0.5, help="Gaussian blur sigma at life size (px)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--window", type=float, default=WINDOW, help="crop side in hand lengths")
    ap.add_argument("--model", type=Path, default=None, help="hand_landmarker.task (default: models/)")
    ap.add_argument("--json", type=Path, default=None, help="write every outcome here")
    ap.add_argument("--failures", type=Path, default=None, help="write a sheet of the missed hands here")
    ap.add_argument("--real", type=Path, default=None, help="also measure real photos (shared/real_hands)")
    ap.add_argument("--timing", action="store_true", help="only time rendering per size and stop")
    ap.add_argument("--contact", type=Path, default=None, help="write a contact sheet PNG here and stop")
    ap.add_argument("--contact-size", type=int, default=60, help="hand length in the contact sheet (px)")
    ap.add_argument(
        "--retry-mirrored",
        action="store_true",
        help="try an empty crop again mirrored (vision.crops.detect_crop)",
    )
    ap.add_argument(
        "--det-conf", type=float, default=None, help="min detection confidence (default: vision's)"
    )
    ap.add_argument("--presence-conf", type=float, default=None, help="min presence confidence (same)")
    ap.add_argument(
        "--negatives",
        type=Path,
        default=None,
        metavar="BUNDLE",
        help="also count false hands on hand-free crops (backgrounds, --real photos, BUNDLE's head zones)",
    )
    ap.add_argument(
        "--upright",
        type=float,
        default=None,
        metavar="DEG",
        help="turn each crop so the arm points down, the arm's direction known to within ± DEG",
    )
    ap.add_argument(
        "--retry-turns", default="", help="degrees: an empty crop is tried again turned by each (e.g. 90,-90)"
    )
    ap.add_argument(
        "--retry-window", type=float, default=0.0, help="then again this many hand lengths wide (0: not)"
    )
    ap.add_argument("--cache", type=Path, default=None, help="keep rendered cases here between runs")
    args = ap.parse_args(argv)
    global FRAME_CACHE
    FRAME_CACHE = args.cache
    plan = CropPlan(
        window=args.window,
        upright=args.upright,
        retry_turns=tuple(float(t) for t in args.retry_turns.split(",") if t.strip()),
        retry_window=args.retry_window,
        retry_mirrored=args.retry_mirrored,
    )

    from vision.landmarker import HandTracker

    def tracker_for(args: argparse.Namespace) -> HandTracker:
        conf = {}
        if args.det_conf is not None:
            conf["min_detection_confidence"] = args.det_conf
        if args.presence_conf is not None:
            conf["min_presence_confidence"] = args.presence_conf
        return HandTracker(args.model, mode="image", num_hands=2, **conf)

    if args.contact:
        with tracker_for(args) as tracker:
            missed = contact_sheet(tracker, args.contact, args.contact_size, args.seed, args.window)
        print(f"wrote {args.contact}: MediaPipe missed {missed} of {4 * len(POSES)} hands")
        return 0
    sizes = tuple(int(s) for s in args.sizes.split(","))
    if args.timing:
        with tracker_for(args) as tracker:
            print("\n".join(timing(tracker, sizes)))
        return 0
    if args.real or args.negatives:
        # the reference hands of the real photos: found at full size with fixed confidences
        with (
            HandTracker(
                args.model, num_hands=4, min_detection_confidence=0.5, min_presence_confidence=0.5
            ) as ref,
            tracker_for(args) as tracker,
        ):
            if args.real:
                print("\n".join(real_baseline(tracker, ref, args.real, sizes, args.blur, plan)))
                print()
            if args.negatives:
                photos = args.real or Path(__file__).resolve().parent.parent.parent / "shared" / "real_hands"
                negs = handfree_crops(ref, photos, args.negatives, args.seed)
                print("\n".join(false_hands(tracker, negs, plan)))
                print()
    poses = set(args.poses.split(","))
    cases = [c for c in make_cases(args.per_cell, sizes, args.blur, args.seed) if c.pose in poses]
    outcomes = []
    t0 = time.perf_counter()
    with tracker_for(args) as tracker:
        for case in cases:
            outcomes.append(run_case(tracker, case, plan))
    elapsed = time.perf_counter() - t0
    if not outcomes:
        return 0
    det = [o for o in outcomes if o.detected]
    lo, hi = wilson(len(det), len(outcomes))
    print(
        f"{len(outcomes)} hands in {elapsed:.0f} s; blur sigma {args.blur} px; "
        f"crop {args.window:g} hand lengths, upscaled toward 256 px (at most 4x); "
        f"{sum(o.calls for o in outcomes) / len(outcomes):.2f} detector calls per hand; "
        f"{plan}"
    )
    print(
        f"detected {len(det)}/{len(outcomes)} ({100 * len(det) / len(outcomes):.1f}%, "
        f"CI {100 * lo:.0f}–{100 * hi:.0f}%)"
    )
    if det:
        errs = np.array([o.err_mean for o in det])
        print(f"landmark error / palm length: mean {errs.mean():.3f}, p90 {np.percentile(errs, 90):.3f}")
    life = [o for o in outcomes if 40 <= o.case.size <= 60]
    if life:
        ld = [o for o in life if o.detected]
        lo, hi = wilson(len(ld), len(life))
        le = np.mean([o.err_mean for o in ld]) if ld else math.nan
        print(
            f"life size (40–60 px): detected {len(ld)}/{len(life)} ({100 * len(ld) / len(life):.1f}%, "
            f"CI {100 * lo:.0f}–{100 * hi:.0f}%), mean error {le:.3f}"
        )
    for key in ("size", "pose", "view", "skin", "background"):
        print()
        print("\n".join(summarise(outcomes, key)))
    if args.failures:
        failure_sheet(outcomes, args.failures, args.window)
    if args.json:
        args.json.write_text(
            json.dumps(
                [{**asdict(o.case), **{k: v for k, v in asdict(o).items() if k != "case"}} for o in outcomes]
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
