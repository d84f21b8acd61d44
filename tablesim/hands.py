"""Procedural 3D hands for tablesim: signed-distance capsules ray-marched in numpy, shaded skin and a sleeve.

NOTE FOR THE SCENE ENGINEER (conventions that differ from the first draft of the API):
- The hand frame's +z is PALMAR (out of the palm), not dorsal: with +x toward the thumb and +y distal, a
  dorsal +z frame is left-handed and a proper rotation would have drawn every right hand mirrored.
- ``rotation(0, 0, 0)``: hand upright, fingers up in the image, palm toward the camera. yaw turns it about
  the image's vertical (180 = back of the hand to the camera), then pitch tips the fingers away from the
  camera, then roll turns it clockwise in the image. See ``tablesim.skeleton``.
- Sprite pixel convention: the centre of pixel (row i, column j) is at (x, y) = (j, i), as in OpenCV.
  ``HandSprite.depth`` is in pixels (same scale as ``hand_len_px``), positive = farther than the wrist.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field

import numpy as np

from tablesim import sdf
from tablesim.skeleton import CHAIN_START, POSES, HandModel, hand_model, rotation

SKIN_TONES: tuple[tuple[int, int, int], ...] = (
    (246, 214, 190),
    (234, 188, 156),
    (214, 162, 124),
    (186, 132, 94),
    (150, 100, 68),
    (108, 70, 48),
    (76, 50, 36),
)
SLEEVE_COLOURS: tuple[tuple[int, int, int], ...] = (
    (28, 28, 32),
    (232, 232, 228),
    (38, 56, 104),
    (116, 30, 38),
    (96, 98, 104),
    (58, 88, 62),
    (176, 146, 108),
)


@dataclass(frozen=True)
class HandLook:
    """How a hand looks: skin and sleeve colours (RGB) and which hand it is."""

    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int]
    left: bool = False


@dataclass(frozen=True)
class HandSprite:
    """A rendered hand ready to composite.

    rgba: (H, W, 4) uint8, straight (non-premultiplied) alpha, RGB order.
    joints: (21, 2) float32 sprite pixel coordinates of the joints (x right, y down; pixel centres at
        integers).
    depth: (21,) float32 camera-space z of each joint minus the wrist's, in pixels (+ = farther away).
    wrist: (2,) float32 sprite px of the wrist joint.
    elbow: (2,) float32 sprite px of the centre of the forearm's cut end (where the arm leaves the sprite).
    """

    rgba: np.ndarray
    joints: np.ndarray
    depth: np.ndarray
    wrist: np.ndarray
    elbow: np.ndarray

    def __post_init__(self) -> None:
        if self.rgba.ndim != 3 or self.rgba.shape[2] != 4 or self.rgba.dtype != np.uint8:
            raise ValueError(
                f"HandSprite.rgba must be (H, W, 4) uint8, got {self.rgba.shape} {self.rgba.dtype}"
            )
        for name, shape in (("joints", (21, 2)), ("depth", (21,)), ("wrist", (2,)), ("elbow", (2,))):
            arr = getattr(self, name)
            if arr.shape != shape or arr.dtype != np.float32:
                raise ValueError(f"HandSprite.{name} must be {shape} float32, got {arr.shape} {arr.dtype}")


# Radii (hand units) at the four joints of each finger chain: base, middle, distal joint, tip.
_RADII = {
    "thumb": (0.068, 0.058, 0.052, 0.046),
    "index": (0.053, 0.046, 0.041, 0.037),
    "middle": (0.055, 0.047, 0.042, 0.038),
    "ring": (0.051, 0.044, 0.040, 0.036),
    "pinky": (0.045, 0.039, 0.036, 0.032),
}
# Palm outline (right hand, counter-clockwise in the hand frame's xy plane).
_PALM_POLY = np.array(
    [(-0.145, 0.0), (0.135, 0.0), (0.165, 0.44), (0.115, 0.51), (-0.19, 0.465), (-0.245, 0.405)],
    dtype=np.float32,
)
_PALM_HALF_THICK = 0.062
_PALM_ROUND = 0.045
_FOREARM_R = (0.118, 0.15)  # at the wrist, at the elbow end
_FOREARM_SQUASH = 1.4  # forearm width / thickness
_SLEEVE_START = 0.16  # the cuff's edge, hand units behind the wrist
_SLEEVE_EXTRA = 0.045  # sleeve radius over the forearm's
_K_PALM = 0.045  # blend radius of fingers into the palm
_K_ARM = 0.06


@dataclass(frozen=True)
class _Scene:
    a: np.ndarray  # (M, 3) capsule starts (model frame: a right hand, hand units)
    b: np.ndarray
    r1: np.ndarray
    r2: np.ndarray
    finger: np.ndarray  # (M,) 1 if the capsule is a finger/thumb bone (hard union among them), else 0
    dorsal: np.ndarray  # (M, 3) nail/back direction of each capsule
    distal: np.ndarray  # (M,) 1 for a fingertip bone (nails)
    forearm_len: float = field(default=1.6)


def _build_scene(model: HandModel, forearm_len: float) -> _Scene:
    j = model.joints
    a, b, r1, r2, finger, dorsal, distal = [], [], [], [], [], [], []
    for name, start in CHAIN_START.items():
        radii = _RADII[name]
        for bone in range(3):
            p, q = j[start + bone], j[start + bone + 1]
            if bone == 2:  # keep the tip joint just inside the fingertip's end
                d = (q - p) / np.linalg.norm(q - p)
                q = q - d * radii[3] * 0.8
            a.append(p)
            b.append(q)
            r1.append(radii[bone])
            r2.append(radii[bone + 1])
            finger.append(1)
            dorsal.append(model.dorsal[start + bone + 1])
            distal.append(1 if bone == 2 else 0)
    cmc, thumb_mcp = j[1], j[2]
    palm_caps = [
        # thenar eminence: from the carpus toward the thumb's MCP, on the palmar side
        (
            np.array([0.03, 0.07, 0.035]),
            0.62 * thumb_mcp + 0.38 * cmc + np.array([0.0, 0.0, 0.01]),
            0.062,
            0.05,
        ),
        # hypothenar eminence along the little-finger edge
        (np.array([-0.12, 0.07, 0.02]), np.array([-0.18, 0.35, 0.015]), 0.058, 0.05),
        # metacarpal heads (knuckles)
        (j[5], j[17], 0.05, 0.044),
    ]
    for p, q, ra, rb in palm_caps:
        a.append(p)
        b.append(q)
        r1.append(ra)
        r2.append(rb)
        finger.append(0)
        dorsal.append(np.array([0.0, 0.0, -1.0]))
        distal.append(0)
    return _Scene(
        a=np.array(a, dtype=np.float32),
        b=np.array(b, dtype=np.float32),
        r1=np.array(r1, dtype=np.float32),
        r2=np.array(r2, dtype=np.float32),
        finger=np.array(finger, dtype=np.int8),
        dorsal=np.array(dorsal, dtype=np.float32),
        distal=np.array(distal, dtype=np.int8),
        forearm_len=forearm_len,
    )


def _fields(scene: _Scene, p: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(skin distance, sleeve distance, per-capsule distances (N, M)) at model-frame points p (N, 3)."""
    caps = sdf.tapered_capsules(p, scene.a, scene.b, scene.r1, scene.r2)
    fingers = np.min(caps[:, scene.finger == 1], axis=1)
    palm = sdf.rounded_slab(p, _PALM_POLY, _PALM_HALF_THICK, _PALM_ROUND)
    for m in np.flatnonzero(scene.finger == 0):
        palm = sdf.smin(palm, caps[:, m], 0.035)
    # The forearm stops just short of the sleeve's cut end, so the cut shows cloth, not skin.
    arm = sdf.elliptic_cone(p, 0.02, 0.03 - scene.forearm_len, _FOREARM_R[0], _FOREARM_R[1], _FOREARM_SQUASH)
    palm = sdf.smin(palm, arm, _K_ARM)
    skin = sdf.smin(palm, fingers, _K_PALM)
    sleeve = sdf.elliptic_cone(
        p,
        -_SLEEVE_START,
        -scene.forearm_len,
        _FOREARM_R[0] + _SLEEVE_EXTRA + 0.01,
        _FOREARM_R[1] + _SLEEVE_EXTRA,
        _FOREARM_SQUASH * 0.9,
    )
    return skin, sleeve, caps


def _ray_starts(scene: _Scene, origins: np.ndarray, direction: np.ndarray, margin: float) -> np.ndarray:
    """(N,) float32 distance along each ray (shared direction) to the first bounding capsule of the hand
    that it comes within ``margin`` of; +inf for rays that pass wide of them all (background)."""
    arm_r = _FOREARM_R[1] + _SLEEVE_EXTRA + 0.01
    a = np.concatenate([scene.a, [[0.0, 0.1, 0.0], [0.0, 0.05, 0.0]]]).astype(np.float32)
    b = np.concatenate([scene.b, [[-0.03, 0.4, 0.0], [0.0, -scene.forearm_len, 0.0]]]).astype(np.float32)
    r = np.concatenate([np.maximum(scene.r1, scene.r2), [0.265, arm_r]]).astype(np.float32)
    r = r + (_K_PALM + margin)

    def flat(v: np.ndarray) -> np.ndarray:
        return np.asarray(v - (v @ direction)[:, None] * direction[None, :], dtype=np.float32)

    # A capsule is a union of spheres on its axis: a ray cannot meet it before min(s_a, s_b) - r.
    near_end = np.minimum(a @ direction, b @ direction) - r
    out = np.full(len(origins), np.inf, dtype=np.float32)
    for start in range(0, len(origins), 65536):
        o = origins[start : start + 65536]
        d = sdf.tapered_capsules(flat(o), flat(a), flat(b), r, r)
        entry = np.where(d < 0, near_end[None, :] - (o @ direction)[:, None], np.inf)
        out[start : start + 65536] = np.maximum(np.min(entry, axis=1), 0.0)
    return out


def _march(
    scene: _Scene, origins: np.ndarray, direction: np.ndarray, t0: np.ndarray, eps: float, t_max: float
) -> tuple[np.ndarray, np.ndarray]:
    """Sphere tracing of rays (shared direction) from ``t0`` (+inf: skip), compacting the live rays.
    Returns (t, hit): distance along each ray and whether it met the surface before ``t_max``."""
    t = np.array(t0, dtype=np.float32)
    hit = np.zeros(len(origins), dtype=bool)
    live = np.flatnonzero(np.isfinite(t))
    for _ in range(96):
        if live.size == 0:
            break
        d = _distance(scene, origins[live] + t[live, None] * direction)
        done = d < eps
        hit[live[done]] = True
        t[live] += np.where(done, 0.0, 0.9 * d)
        live = live[~done & (t[live] < t_max)]
    return t, hit & (t < t_max)


def _distance(scene: _Scene, p: np.ndarray) -> np.ndarray:
    skin, sleeve, _ = _fields(scene, p)
    return np.asarray(np.minimum(skin, sleeve))


def _srgb_to_lin(c: np.ndarray) -> np.ndarray:
    return np.asarray((np.asarray(c, dtype=np.float32) / 255.0) ** 2.2)


def render_hand(
    pose: str,
    look: HandLook,
    rot: np.ndarray,
    hand_len_px: float,
    *,
    light_dir: tuple[float, float, float] = (-0.3, -0.6, -0.75),
    forearm_len: float = 1.6,
    supersample: int = 2,
    seed: int = 0,
) -> HandSprite:
    """Render one hand (with forearm and sleeve) as an RGBA sprite, orthographic projection.

    rot: (3, 3) rotation hand frame → camera frame (``tablesim.skeleton.rotation``). hand_len_px: wrist →
    middle fingertip (fingers straight) in pixels. light_dir: camera-frame direction TOWARD the light.
    forearm_len: in hand lengths. The same arguments always give the same bytes.
    """
    if pose not in POSES:
        raise ValueError(f"unknown hand pose {pose!r}; expected one of {', '.join(POSES)}")
    rot = np.asarray(rot, dtype=np.float64)
    if rot.shape != (3, 3) or not np.allclose(rot @ rot.T, np.eye(3), atol=1e-6) or np.linalg.det(rot) < 0:
        raise ValueError("rot must be a proper 3x3 rotation matrix")
    if not 4.0 <= hand_len_px <= 2000.0:
        raise ValueError(f"hand_len_px must be in [4, 2000], got {hand_len_px}")
    if supersample < 1:
        raise ValueError(f"supersample must be >= 1, got {supersample}")
    model = hand_model(pose)
    scene = _build_scene(model, forearm_len)
    mirror = np.diag([-1.0 if look.left else 1.0, 1.0, 1.0])
    to_cam = rot @ mirror  # model frame → camera frame (hand units)
    s = float(hand_len_px)

    # Bounds of everything, in camera pixels.
    pts = np.concatenate([scene.a, scene.b])
    rad = np.concatenate([scene.r1, scene.r2])
    arm_r = _FOREARM_R[1] + _SLEEVE_EXTRA
    ring = [
        (arm_r * np.cos(t), -y, arm_r * np.sin(t))
        for y in (0.0, forearm_len)
        for t in np.linspace(0, 6.3, 12)
    ]
    pts = np.concatenate([pts, np.array(ring), _PALM_POLY_3D])
    rad = np.concatenate([rad, np.full(len(ring), 0.01), np.full(len(_PALM_POLY_3D), _PALM_HALF_THICK)])
    cam = (pts @ to_cam.T) * s
    lo = np.floor(np.min(cam - rad[:, None] * s, axis=0)) - 2.0
    hi = np.ceil(np.max(cam + rad[:, None] * s, axis=0)) + 2.0
    width, height = int(hi[0] - lo[0]) + 1, int(hi[1] - lo[1]) + 1
    ss = supersample
    sub = (np.arange(ss) + 0.5) / ss - 0.5
    xs = (lo[0] + np.arange(width)[:, None] + sub[None, :]).reshape(-1)
    ys = (lo[1] + np.arange(height)[:, None] + sub[None, :]).reshape(-1)
    gy, gx = np.meshgrid(ys, xs, indexing="ij")  # (H*ss, W*ss)
    n_rays = gx.size
    origins_cam = np.stack([gx.ravel(), gy.ravel(), np.full(n_rays, lo[2])], axis=1) / s
    to_model = to_cam.T
    origins = (origins_cam @ to_model.T).astype(np.float32)
    direction = (to_model @ np.array([0.0, 0.0, 1.0])).astype(np.float32)
    t_max = float(hi[2] - lo[2]) / s

    # Rays that pass wide of every bounding capsule (measured across the rays) are background; the others
    # start at the first bounding capsule they meet.
    eps = 0.35 / (s * ss)
    t = _ray_starts(scene, origins, direction, 1.5 / s)
    if ss > 1:
        # Coarse to fine: trace one ray per pixel centre first; a sub-sample ray then starts 2 px short of
        # the nearest surface its pixel's 3x3 neighbourhood found, and is background when that
        # neighbourhood found none (it lies within 0.4 px of its pixel's centre: only a sub-pixel speck
        # could be lost).
        c_orig = np.stack(
            [
                *np.meshgrid(lo[0] + np.arange(width), lo[1] + np.arange(height)),
                np.full((height, width), lo[2]),
            ],
            axis=-1,
        )
        c_orig = ((c_orig.reshape(-1, 3) / s) @ to_model.T).astype(np.float32)
        ct, chit = _march(
            scene, c_orig, direction, _ray_starts(scene, c_orig, direction, 1.5 / s), 0.35 / s, t_max
        )
        near = np.pad(np.where(chit, ct, np.inf).reshape(height, width), 1, constant_values=np.inf)
        nmin = np.min([near[dy : dy + height, dx : dx + width] for dy in range(3) for dx in range(3)], axis=0)
        fine = np.repeat(np.repeat(nmin, ss, axis=0), ss, axis=1).reshape(-1) - 2.0 / s
        t = np.where(np.isfinite(fine), np.maximum(t, fine), np.inf).astype(np.float32)
    t, hit = _march(scene, origins, direction, t, eps, t_max)

    # Shade every sub-sample of the edge pixels (anti-aliasing) but one sample of a fully covered pixel.
    hit4 = hit.reshape(height, ss, width, ss)
    full = np.asarray(hit4.all(axis=(1, 3)))
    to_shade = hit4 & ~full[:, None, :, None]
    to_shade[:, 0, :, 0] |= full
    colour = np.zeros((n_rays, 3), dtype=np.float32)
    idx = np.flatnonzero(to_shade.reshape(-1))
    if idx.size:
        p = origins[idx] + t[idx, None] * direction
        colour[idx] = _shade(scene, p, look, to_model, np.asarray(light_dir, dtype=np.float64), s, seed)

    cov = hit4.astype(np.float32)
    alpha = cov.mean(axis=(1, 3))
    colour4 = colour.reshape(height, ss, width, ss, 3)
    col = (colour4 * cov[..., None]).sum(axis=(1, 3))
    col = col / np.maximum(cov.sum(axis=(1, 3)), 1e-6)[..., None]
    col[full] = colour4[:, 0, :, 0][full]
    rgb = np.clip(col ** (1 / 2.2) * 255.0 + 0.5, 0, 255).astype(np.uint8)
    rgba = np.dstack([rgb, np.clip(alpha * 255.0 + 0.5, 0, 255).astype(np.uint8)])

    joints_cam = (model.joints @ to_cam.T) * s
    elbow_cam = (np.array([0.0, -forearm_len, 0.0]) @ to_cam.T) * s
    return HandSprite(
        rgba=rgba,
        joints=(joints_cam[:, :2] - lo[:2]).astype(np.float32),
        depth=(joints_cam[:, 2] - joints_cam[0, 2]).astype(np.float32),
        wrist=(joints_cam[0, :2] - lo[:2]).astype(np.float32),
        elbow=(elbow_cam[:2] - lo[:2]).astype(np.float32),
    )


_PALM_POLY_3D = np.concatenate([_PALM_POLY, np.zeros((len(_PALM_POLY), 1))], axis=1)


def _shade(
    scene: _Scene,
    p: np.ndarray,
    look: HandLook,
    to_model: np.ndarray,
    light_cam: np.ndarray,
    s: float,
    seed: int,
) -> np.ndarray:
    """Linear RGB (N, 3) at surface points p (model frame)."""
    e = np.float32(0.5 / s)
    k = np.array([[1, -1, -1], [-1, -1, 1], [-1, 1, -1], [1, 1, 1]], dtype=np.float32)
    grad = sum(k[i] * _distance(scene, p + e * k[i])[:, None] for i in range(4))
    n = grad / np.maximum(np.linalg.norm(grad, axis=1, keepdims=True), 1e-9)

    skin_d, sleeve_d, caps = _fields(scene, p)
    is_sleeve = sleeve_d < skin_d
    nearest = np.argmin(caps, axis=1)
    # The back-of-hand direction, blended over nearby bones so tones do not jump at the joints.
    weights = np.exp(-(caps - caps[np.arange(len(p)), nearest][:, None]) / 0.015)
    dorsal = weights @ scene.dorsal
    dorsal /= np.maximum(np.linalg.norm(dorsal, axis=1, keepdims=True), 1e-6)
    ndot = np.sum(n * dorsal, axis=1)

    light = to_model @ (light_cam / np.linalg.norm(light_cam))
    view = to_model @ np.array([0.0, 0.0, -1.0])
    up = to_model @ np.array([0.0, -1.0, 0.0])
    half = (light + view) / np.linalg.norm(light + view)

    # Ambient occlusion from a few samples along the normal.
    occ = np.zeros(len(p), dtype=np.float32)
    for i, h in enumerate((0.02, 0.045, 0.08, 0.13)):
        occ += (h - _distance(scene, p + n * h)) / h * (0.5**i)
    ao = np.clip(1.0 - 0.55 * occ, 0.35, 1.0)

    skin = _srgb_to_lin(np.array(look.skin))
    # Palms and finger pads are lighter and pinker than the back of the hand, much more so on dark skin.
    darkness = 1.0 - float(np.mean(look.skin)) / 255.0
    palm_mix = 0.12 + 0.45 * darkness
    palm_tone = _srgb_to_lin(
        np.array(look.skin) * (1 - palm_mix) + np.array([236.0, 180.0, 160.0]) * palm_mix
    )
    nail_tone = _srgb_to_lin(np.array(look.skin) * 0.45 + np.array([245.0, 205.0, 200.0]) * 0.55)
    cloth = _srgb_to_lin(np.array(look.sleeve))

    palmar_w = np.clip((-ndot + 0.2) / 0.9, 0.0, 1.0)[:, None] * (1 - is_sleeve[:, None])
    albedo = skin * (1 - palmar_w) + palm_tone * palmar_w
    nail = (scene.distal[nearest] == 1) & (ndot > 0.55) & ~is_sleeve
    if np.any(nail):
        cap_t = sdf.capsule_axis_param(p[nail], scene.a[nearest[nail]], scene.b[nearest[nail]])
        on_nail = cap_t > 0.35
        sel = np.flatnonzero(nail)[on_nail]
        albedo[sel] = nail_tone
    rng = np.random.default_rng(seed)
    albedo = albedo * (1.0 + 0.025 * rng.standard_normal((len(p), 1)).astype(np.float32))
    # Cloth, with a darker cuff band at the sleeve's edge.
    cuff = (p[:, 1] > -_SLEEVE_START - 0.07)[:, None]
    cloth_col = cloth * np.where(cuff, 0.8, 1.0) * (1.0 + 0.04 * rng.standard_normal((len(p), 1)))
    albedo = np.where(is_sleeve[:, None], cloth_col, albedo)

    ndl = n @ light
    diff = np.clip(ndl, 0.0, 1.0)[:, None]
    wrap = np.clip((ndl + 0.4) / 1.4, 0.0, 1.0)[:, None]
    hemi = (0.8 + 0.2 * (n @ up))[:, None]  # sky-ish fill from above, bounce light from below
    sss = np.array([0.9, 0.35, 0.2], dtype=np.float32) * (1 - is_sleeve[:, None])
    spec_k = np.where(is_sleeve, 0.03, 0.10)[:, None]
    spec = spec_k * np.clip(n @ half, 0.0, 1.0)[:, None] ** np.where(is_sleeve, 8.0, 22.0)[:, None]
    out = albedo * (hemi * ao[:, None] * 0.52 + 0.58 * diff) + albedo * sss * (wrap - diff) * 0.3 + spec
    return np.asarray(out, dtype=np.float32)


_Key = tuple[str, HandLook, float, float, float, int]


class SpriteCache:
    """LRU cache of rendered sprites; key = (pose, look, angles quantised to ``angle_step`` degrees, size to
    1 px). Keep one per thread or process (a lock makes sharing safe, but renders are not parallel)."""

    def __init__(self, maxsize: int = 512, angle_step: float = 4.0) -> None:
        if maxsize < 1 or angle_step <= 0:
            raise ValueError("SpriteCache needs maxsize >= 1 and angle_step > 0")
        self.maxsize = maxsize
        self.angle_step = angle_step
        self.hits = 0
        self.misses = 0
        self._items: OrderedDict[_Key, HandSprite] = OrderedDict()
        self._lock = threading.Lock()

    def _q(self, angle: float, wrap: bool) -> float:
        q = round(angle / self.angle_step) * self.angle_step
        return float(q % 360.0) if wrap else float(q)

    def key(
        self, pose: str, look: HandLook, yaw: float, pitch: float, roll: float, hand_len_px: float
    ) -> _Key:
        return (
            pose,
            look,
            self._q(yaw, True),
            self._q(pitch, False),
            self._q(roll, True),
            max(4, round(hand_len_px)),
        )

    def get(
        self, pose: str, look: HandLook, yaw: float, pitch: float, roll: float, hand_len_px: float
    ) -> HandSprite:
        key = self.key(pose, look, yaw, pitch, roll, hand_len_px)
        with self._lock:
            sprite = self._items.get(key)
            if sprite is not None:
                self._items.move_to_end(key)
                self.hits += 1
                return sprite
            self.misses += 1
        _, _, qy, qp, qr, size = key
        sprite = render_hand(pose, look, rotation(qy, qp, qr), float(size))
        with self._lock:
            self._items[key] = sprite
            while len(self._items) > self.maxsize:
                self._items.popitem(last=False)
        return sprite

    def __len__(self) -> int:
        return len(self._items)
