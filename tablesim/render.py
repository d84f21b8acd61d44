"""Frames of the table scene: a cached static background, then per frame heads, arms and hand sprites.

The background (room, table, seat plates, chairs and bodies) is drawn once. Per frame only what moves is
drawn: heads (up by day, down with eye masks at night, rising for a peek), the arms (sleeves from shoulder
to the sprite's forearm end) and the hands (``tablesim.hands.render_hand`` sprites, rendered once per
seat, hand, pose and orientation and rescaled for depth). A frame whose drawn items did not change reuses
the previous composite, so idle stretches cost little. Post effects (blur, sensor noise, JPEG-like
compression, brightness) come from :class:`LookKnobs`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from tablesim.hands import SKIN_TONES, SLEEVE_COLOURS, HandLook, HandSprite, render_hand
from tablesim.scene import HEAD_R, Scene, Seat, vote_fingers, vote_wrist

UP = np.array([0.0, 0.0, 1.0])


@dataclass(frozen=True)
class LookKnobs:
    """Image knobs: ``light`` (overall gain), ``noise`` (sensor noise σ in 8-bit levels), ``blur`` (Gaussian
    σ in px), ``jpeg`` (quality 1–100 of a JPEG round trip per changed frame; 0 = off)."""

    light: float = 1.0
    noise: float = 1.5
    blur: float = 0.6
    jpeg: int = 0
    light_dir: tuple[float, float, float] = (-0.3, -0.6, -0.75)

    def __post_init__(self) -> None:
        if not 0.2 <= self.light <= 3.0:
            raise ValueError(f"light {self.light} must be within 0.2..3")
        if not 0.0 <= self.noise <= 40.0 or not 0.0 <= self.blur <= 10.0:
            raise ValueError("noise must be within 0..40 and blur within 0..10")
        if not 0 <= self.jpeg <= 100:
            raise ValueError(f"jpeg quality {self.jpeg} must be within 0..100")


@dataclass(frozen=True)
class Person:
    """How the player at a seat looks (RGB colours)."""

    skin: tuple[int, int, int]
    shirt: tuple[int, int, int]
    hair: tuple[int, int, int]
    sleeve: tuple[int, int, int]


HAIR = ((30, 24, 20), (60, 40, 28), (110, 80, 50), (20, 20, 22), (150, 120, 80), (90, 60, 40))


def people(seed: int, seats: int = 10) -> tuple[Person, ...]:
    rng = np.random.default_rng([seed, 0xFACE])
    out = []
    for _ in range(seats):
        skin = SKIN_TONES[int(rng.integers(0, 5))]
        sleeve = SLEEVE_COLOURS[int(rng.integers(len(SLEEVE_COLOURS)))]
        hair = HAIR[int(rng.integers(len(HAIR)))]
        out.append(Person(skin=skin, shirt=sleeve, hair=hair, sleeve=sleeve))
    return tuple(out)


def _unit(v: np.ndarray) -> np.ndarray:
    return np.asarray(v / np.linalg.norm(v))


def hand_world_axes(seat: Seat, left: bool, orient: str, cam_pos: np.ndarray, at: np.ndarray) -> np.ndarray:
    """(3, 3) columns = the hand frame's x, y, z axes in world coordinates for an orientation name.

    The renderer's model is a right hand with the thumb on +x; a left hand is its mirror, so the thumb of a
    left hand lies on -x. We choose the fingers' direction and the thumb's direction in the world and build
    a proper rotation from them."""
    medial = seat.lateral if left else -seat.lateral
    ray = at - cam_pos
    side = _unit(np.array([-ray[1], ray[0], 0.0]))  # horizontal, perpendicular to the line of sight
    if np.dot(side, seat.inward + medial) < 0:
        side = -side
    if orient == "vote":  # fist on its little-finger side, thumb up, forearm on the table
        fingers, thumb = vote_fingers(seat, left), UP
    elif orient == "raise":  # raised high, fingers up, thumb sideways to the camera
        fingers, thumb = _unit(UP + 0.25 * seat.inward), side
    elif orient == "reach":
        fingers, thumb = _unit(seat.inward + 0.6 * medial), _unit(medial + 0.3 * UP)
    elif orient == "gesture":
        fingers, thumb = _unit(seat.inward + UP * 0.8), medial
    else:  # rest: relaxed on the table, palm down, tilted a little onto its side
        fingers, thumb = _unit(seat.inward + 0.35 * medial), _unit(medial + 0.35 * UP)
    thumb = _unit(thumb - np.dot(thumb, fingers) * fingers)
    x = -thumb if left else thumb
    y = fingers
    z = np.cross(x, y)
    return np.stack([x, y, z], axis=1)


class Renderer:
    """Draws frames of ``scene``. ``looks`` per seat (default from ``seed``)."""

    def __init__(self, scene: Scene, knobs: LookKnobs | None = None, seed: int = 0) -> None:
        self.scene = scene
        self.knobs = knobs or LookKnobs()
        self.seed = seed
        self.people = people(seed, len(scene.seats))
        self._sprites: dict[tuple[Any, ...], HandSprite] = {}
        self._sprite_ref_size: dict[tuple[Any, ...], float] = {}
        self._scaled: dict[tuple[Any, ...], tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self._heads: dict[tuple[int, str], tuple[np.ndarray, np.ndarray]] = {}
        self._last_key: tuple[Any, ...] | None = None
        self._last_frame: np.ndarray | None = None
        self.background = self._background()
        rng = np.random.default_rng([seed, 0x0015E])
        h, w = scene.camera.height, scene.camera.width
        # sensor noise: a few fixed fields cycled frame by frame, split into the parts that brighten and
        # darken so that saturating uint8 adds (fast in OpenCV) apply them
        self._noise: list[tuple[np.ndarray, np.ndarray]] = []
        for _ in range(6 if self.knobs.noise > 0 else 0):
            n = np.round(rng.normal(0.0, self.knobs.noise, (h, w))).clip(-255, 255)
            up = np.repeat(np.clip(n, 0, 255).astype(np.uint8)[:, :, None], 3, axis=2)
            down = np.repeat(np.clip(-n, 0, 255).astype(np.uint8)[:, :, None], 3, axis=2)
            self._noise.append((up, down))

    # ---- the static background ------------------------------------------------------------------

    def _px(self, pts: np.ndarray) -> np.ndarray:
        return np.round(self.scene.camera.project(pts) * 16).astype(np.int32)

    def _background(self) -> np.ndarray:
        cam = self.scene.camera
        h, w = cam.height, cam.width
        yy = np.linspace(0.0, 1.0, h, dtype=np.float32)[:, None, None]
        wall = np.array([58, 52, 62], np.float32) * (0.75 + 0.35 * yy)
        img = np.ascontiguousarray(np.broadcast_to(wall, (h, w, 3)), dtype=np.float32)
        # floor below the horizon of the table's plane
        floor = cam.project(np.array([[0.0, 6.0, -0.75]]))[0, 1]
        if floor < h:
            f0 = max(0, int(floor))
            img[f0:] = np.array([46, 38, 34], np.float32) * (0.8 + 0.4 * yy[f0:])
        xx = np.linspace(-1, 1, w, dtype=np.float32)[None, :, None]
        img *= 1.0 - 0.25 * (xx**2)  # vignette
        canvas = np.ascontiguousarray(np.clip(img, 0, 255).astype(np.uint8))
        t = self.scene.table
        th = np.linspace(0, 2 * math.pi, 240, endpoint=False)
        ring = np.stack([t.half_width * np.cos(th), t.half_length * np.sin(th), np.zeros_like(th)], axis=1)
        side = ring + np.array([0, 0, -0.06])
        cv2.fillPoly(canvas, [self._px(side)], (40, 26, 18), cv2.LINE_AA, shift=4)
        cv2.fillPoly(canvas, [self._px(ring)], (32, 92, 58), cv2.LINE_AA, shift=4)
        inner = ring * np.array([0.93, 0.96, 1.0])
        cv2.polylines(canvas, [self._px(inner)], True, (44, 108, 70), 2, cv2.LINE_AA, shift=4)
        cv2.polylines(canvas, [self._px(ring)], True, (92, 60, 36), 3, cv2.LINE_AA, shift=4)
        order = sorted(self.scene.seats, key=lambda s: -float(cam.depth(s.body)))
        for s in order:
            self._plate(canvas, s)
        for s in order:
            self._body(canvas, s, self.people[s.seat - 1])
        return self._soften(canvas)

    def _soften(self, img: np.ndarray) -> np.ndarray:
        """The lens blur: applied once to the background and to each sprite when it is cached."""
        if self.knobs.blur <= 0:
            return img
        if img.shape[2] == 3:
            return np.ascontiguousarray(cv2.GaussianBlur(img, (0, 0), self.knobs.blur))
        # straight alpha: blur premultiplied colour, then divide back (no dark fringes)
        a = img[..., 3:4].astype(np.float32) / 255.0
        pre = np.concatenate([img[..., :3].astype(np.float32) * a, a * 255.0], axis=2)
        pre = cv2.GaussianBlur(pre, (0, 0), self.knobs.blur)
        alpha = pre[..., 3:4] / 255.0
        rgb = np.where(alpha > 1e-4, pre[..., :3] / np.maximum(alpha, 1e-4), 0.0)
        return np.ascontiguousarray(
            np.concatenate([rgb, pre[..., 3:4]], axis=2).clip(0, 255).round().astype(np.uint8)
        )

    def _plate(self, canvas: np.ndarray, s: Seat) -> None:
        c = s.edge + s.inward * 0.07
        corners = np.stack(
            [
                c + s.lateral * dx + s.inward * dy
                for dx, dy in ((-0.05, -0.025), (0.05, -0.025), (0.05, 0.025), (-0.05, 0.025))
            ]
        )
        cv2.fillPoly(canvas, [self._px(corners)], (235, 232, 220), cv2.LINE_AA, shift=4)
        ppm = self.scene.camera.px_per_m(c)
        scale = max(0.25, ppm * 0.045 / 22.0)
        text = str(s.seat)
        (tw, tht), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
        p = self.scene.camera.project(c)
        org = (round(p[0] - tw / 2), round(p[1] + tht / 2))
        cv2.putText(
            canvas,
            text,
            org,
            cv2.FONT_HERSHEY_SIMPLEX,
            scale,
            (20, 20, 20),
            max(1, int(scale * 2)),
            cv2.LINE_AA,
        )

    def _body(self, canvas: np.ndarray, s: Seat, who: Person) -> None:
        cam = self.scene.camera
        # chair back behind the player
        back = s.body - s.inward * 0.2
        chair = np.stack(
            [
                back + s.lateral * dx + UP * dz
                for dx, dz in ((-0.22, -0.2), (0.22, -0.2), (0.2, 0.42), (-0.2, 0.42))
            ]
        )
        cv2.fillPoly(canvas, [self._px(chair)], (30, 22, 20), cv2.LINE_AA, shift=4)
        # torso: an elliptic cylinder, silhouette = convex hull of its projected rings
        pts = []
        for z, rx in ((-0.25, 0.17), (0.05, 0.19), (0.26, 0.21), (0.33, 0.17)):
            for a in np.linspace(0, 2 * math.pi, 24, endpoint=False):
                pts.append(s.body + s.lateral * rx * math.cos(a) + s.inward * 0.11 * math.sin(a) + UP * z)
        proj = cam.project(np.array(pts))
        hull = cv2.convexHull(np.round(proj * 16).astype(np.int32))
        base = np.array(who.shirt, np.float32)
        cv2.fillPoly(canvas, [hull], tuple(int(v) for v in base * 0.8), cv2.LINE_AA, shift=4)
        # a lit side: the hull of the half nearer the light
        lit = [p for p in pts if np.dot(p - s.body, np.array([-0.4, -0.6, 0.5])) > -0.02]
        if len(lit) > 3:
            lp = cam.project(np.array(lit))
            cv2.fillPoly(
                canvas,
                [cv2.convexHull(np.round(lp * 16).astype(np.int32))],
                tuple(int(v) for v in np.clip(base * 1.0 + 8, 0, 255)),
                cv2.LINE_AA,
                shift=4,
            )

    # ---- heads --------------------------------------------------------------------------------

    def head_sprite(self, seat: int, state: str) -> tuple[np.ndarray, np.ndarray]:
        """(rgba, centre) of a head: ``state`` is ``day`` (no mask) or ``mask``."""
        key = (seat, state)
        if key in self._heads:
            return self._heads[key]
        s = self.scene.seat(seat)
        who = self.people[seat - 1]
        cam = self.scene.camera
        r = cam.px_per_m(s.head_up) * HEAD_R
        ss = 4
        size = math.ceil(r * 2.6) + 4
        R = r * ss
        can = np.zeros((size * ss, size * ss, 4), np.uint8)
        c = np.array([size * ss / 2, size * ss / 2])
        # where the face looks, in the image: the projection of the inward direction
        look = cam.project(s.head_up + s.inward * 0.1) - cam.project(s.head_up)
        look = look / (np.linalg.norm(look) + 1e-9)
        toward_cam = float(-np.dot(cam.R[2], s.inward))  # 1 = faces the camera
        skin = (*who.skin, 255)
        hair = (*who.hair, 255)
        cv2.ellipse(can, _ip(c), (int(R * 0.9), int(R * 1.05)), 0, 0, 360, skin, -1, cv2.LINE_AA)
        # hair: the back and top of the head, away from the face
        hc = c - look * R * (0.35 + 0.3 * toward_cam) - np.array([0, R * 0.25])
        cv2.ellipse(can, _ip(hc), (int(R * 0.95), int(R * 0.85)), 0, 0, 360, hair, -1, cv2.LINE_AA)
        # keep the face visible on the side it looks to
        face = c + look * R * 0.35 * (1 - 0.5 * toward_cam) + np.array([0, R * 0.15])
        cv2.ellipse(can, _ip(face), (int(R * 0.62), int(R * 0.7)), 0, 0, 360, skin, -1, cv2.LINE_AA)
        if state == "mask":
            band = face + np.array([0, -R * 0.12])
            cv2.ellipse(
                can, _ip(band), (int(R * 0.78), int(R * 0.24)), 0, 0, 360, (12, 12, 14, 255), -1, cv2.LINE_AA
            )
            cv2.line(
                can, _ip(band - [R * 0.7, 0]), _ip(c - [R * 0.9, R * 0.1]), (12, 12, 14, 255), int(R * 0.1)
            )
        small = self._soften(cv2.resize(can, (size, size), interpolation=cv2.INTER_AREA))
        out = (small, np.array([size / 2, size / 2]))
        self._heads[key] = out
        return out

    # ---- hands ---------------------------------------------------------------------------------

    def sprite(self, seat: int, left: bool, pose: str, orient: str, wrist: np.ndarray) -> HandSprite:
        """The hand sprite for a seat/hand/pose/orientation at its nominal size (rendered once)."""
        key = (seat, left, pose, orient)
        spr = self._sprites.get(key)
        if spr is None:
            s = self.scene.seat(seat)
            ref = {"vote": vote_wrist(s, left), "raise": s.raise_peak}.get(
                orient, s.rest_l if left else s.rest_r
            )
            axes = hand_world_axes(s, left, orient, self.scene.camera.position, ref)
            rot = self.scene.camera.R @ axes
            who = self.people[seat - 1]
            look = HandLook(skin=who.skin, sleeve=who.sleeve, left=left)
            size = max(4.0, self.scene.hand_len_px(ref))
            spr = render_hand(
                pose, look, rot, size, light_dir=self.knobs.light_dir, seed=seat * 2 + int(left)
            )
            self._sprites[key] = spr
            self._sprite_ref_size[key] = size
        return spr

    def _scaled_sprite(
        self, seat: int, left: bool, pose: str, orient: str, wrist: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(rgba, wrist px, elbow px) of the sprite scaled for the depth of ``wrist`` (2 % steps)."""
        spr = self.sprite(seat, left, pose, orient, wrist)
        want = max(4.0, self.scene.hand_len_px(wrist))
        ratio = want / self._sprite_ref_size[(seat, left, pose, orient)]
        q = round(math.log(ratio) / math.log(1.02))
        key = (seat, left, pose, orient, q)
        got = self._scaled.get(key)
        if got is None:
            f = 1.02**q
            if q == 0:
                got = (self._soften(spr.rgba), spr.wrist.astype(np.float64), spr.elbow.astype(np.float64))
            else:
                h, w = spr.rgba.shape[:2]
                nw, nh = max(1, round(w * f)), max(1, round(h * f))
                rgba = cv2.resize(
                    spr.rgba, (nw, nh), interpolation=cv2.INTER_AREA if f < 1 else cv2.INTER_LINEAR
                )
                got = (self._soften(rgba), spr.wrist * (nw / w), spr.elbow * (nh / h))
            self._scaled[key] = got
        return got

    # ---- a frame --------------------------------------------------------------------------------

    def signature(self, items: list[tuple[Any, ...]], index: int) -> tuple[Any, ...]:
        """What :meth:`frame` draws for these arguments: two calls with equal signatures give equal frames
        (the composite's items and the sensor-noise field), so an encoder may reuse a converted frame."""
        key = tuple(_item_key(it) for it in items)
        return (key, index % len(self._noise) if self._noise else 0)

    def frame(self, items: list[tuple[Any, ...]], index: int) -> np.ndarray:
        """Compose one RGB frame. ``items``: ("head", seat, lift 0..1, masked) and ("hand", seat, left, pose,
        orient, wrist (3,)). ``index`` picks the sensor-noise field."""
        key = tuple(_item_key(it) for it in items)
        if key != self._last_key or self._last_frame is None:
            img = self.background.copy()
            cam = self.scene.camera
            depth_items = []
            for it in items:
                if it[0] == "head":
                    s = self.scene.seat(it[1])
                    pos = s.head_down + (s.head_up - s.head_down) * float(it[2])
                    depth_items.append((float(cam.depth(pos)) + 0.3, it, pos))
                else:
                    depth_items.append((float(cam.depth(it[5])), it, it[5]))
            depth_items.sort(key=lambda d: -d[0])
            for _, it, pos in depth_items:
                if it[0] == "head":
                    self._neck(img, it[1], pos)
                    rgba, c = self.head_sprite(it[1], "mask" if it[3] else "day")
                    _blit(img, rgba, cam.project(pos) - c)
                else:
                    self._draw_hand(img, it)
            if self.knobs.light != 1.0:
                img = cv2.convertScaleAbs(img, alpha=self.knobs.light)
            if self.knobs.jpeg:
                _ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, self.knobs.jpeg])
                img = cv2.imdecode(buf, cv2.IMREAD_UNCHANGED)
            self._last_key, self._last_frame = key, img
        img = self._last_frame
        if self._noise:
            up, down = self._noise[index % len(self._noise)]
            img = cv2.subtract(cv2.add(img, up), down)
        return img

    def _neck(self, img: np.ndarray, seat: int, head: np.ndarray) -> None:
        s = self.scene.seat(seat)
        cam = self.scene.camera
        base = s.body + UP * 0.30 + s.inward * 0.03
        top = base + (head - base) * 0.6
        wpx = max(2, int(cam.px_per_m(base) * 0.11))
        col = tuple(int(v * 0.85) for v in self.people[seat - 1].skin)
        cv2.line(img, _ip(cam.project(base)), _ip(cam.project(top)), col, wpx, cv2.LINE_AA)

    def _draw_hand(self, img: np.ndarray, it: tuple[Any, ...]) -> None:
        _, seat, left, pose, orient, wrist = it
        s = self.scene.seat(seat)
        cam = self.scene.camera
        rgba, wpx, epx = self._scaled_sprite(seat, left, pose, orient, wrist)
        at = cam.project(wrist)
        off = at - wpx
        elbow_img = epx + off
        shoulder = cam.project(s.shoulder_l if left else s.shoulder_r)
        who = self.people[seat - 1]
        width = max(2, int(cam.px_per_m(wrist) * 0.085))
        col = tuple(int(v * 0.85) for v in who.sleeve)
        # the upper arm: from the shoulder to the elbow, where the sprite's forearm ends
        cv2.line(img, _ip(shoulder), _ip(elbow_img), col, width, cv2.LINE_AA)
        _blit(img, rgba, off)
        # cover the sprite's cut sleeve end where the upper arm joins it
        cv2.circle(img, _ip(elbow_img), max(1, int(width * 0.55)), col, -1, cv2.LINE_AA)


def _item_key(it: tuple[Any, ...]) -> tuple[Any, ...]:
    if it[0] == "head":
        return ("head", it[1], round(float(it[2]), 3), it[3])
    pos = tuple(round(float(v), 4) for v in it[5])
    return ("hand", it[1], it[2], it[3], it[4], pos)


def _ip(p: np.ndarray | list[float]) -> tuple[int, int]:
    return (round(float(p[0])), round(float(p[1])))


def _blit(img: np.ndarray, rgba: np.ndarray, off: np.ndarray) -> None:
    """Alpha-blend ``rgba`` (straight alpha) onto ``img`` with its top-left at ``off`` (rounded to px)."""
    x0, y0 = round(float(off[0])), round(float(off[1]))
    h, w = rgba.shape[:2]
    H, W = img.shape[:2]
    ax0, ay0, ax1, ay1 = max(x0, 0), max(y0, 0), min(x0 + w, W), min(y0 + h, H)
    if ax1 <= ax0 or ay1 <= ay0:
        return
    src = rgba[ay0 - y0 : ay1 - y0, ax0 - x0 : ax1 - x0]
    a = src[..., 3:4].astype(np.float32) * (1.0 / 255.0)
    dst = img[ay0:ay1, ax0:ax1]
    dst[:] = (src[..., :3].astype(np.float32) * a + dst.astype(np.float32) * (1.0 - a) + 0.5).astype(np.uint8)
