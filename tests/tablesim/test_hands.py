"""Rendered hand sprites: geometry agrees with the joints, mirroring, determinism, the sprite cache."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tablesim.hands import SKIN_TONES, SLEEVE_COLOURS, HandLook, HandSprite, SpriteCache, render_hand
from tablesim.skeleton import CHAIN_START, POSES, rotation

LOOK = HandLook(SKIN_TONES[2], SLEEVE_COLOURS[2])
FRONT = rotation(0, 0, 0)  # upright, palm toward the camera


def alpha_at(sprite: HandSprite, xy: np.ndarray) -> int:
    x, y = (round(float(v)) for v in xy)
    return int(sprite.rgba[y, x, 3])


@pytest.fixture(scope="module")
def palm() -> HandSprite:
    return render_hand("palm", LOOK, FRONT, 60.0)


def test_sprite_arrays_and_transparent_border(palm: HandSprite) -> None:
    h, w = palm.rgba.shape[:2]
    assert palm.rgba.dtype == np.uint8 and palm.rgba.shape[2] == 4
    assert palm.joints.shape == (21, 2) and palm.joints.dtype == np.float32
    edge = np.concatenate([palm.rgba[0, :, 3], palm.rgba[-1, :, 3], palm.rgba[:, 0, 3], palm.rgba[:, -1, 3]])
    # Everything is inside the sprite except the forearm's cut end at the elbow.
    assert edge.max() == 0
    assert (palm.rgba[..., 3] == 255).sum() > 0.1 * h * w
    assert np.all((palm.joints >= 0) & (palm.joints < [w, h]))


def test_joints_lie_on_their_own_fingers(palm: HandSprite) -> None:
    """Every bone of the spread hand is opaque along its length; between neighbouring fingertips is a gap."""
    for start in CHAIN_START.values():
        chain = [0, start, start + 1, start + 2, start + 3] if start != 1 else [1, 2, 3, 4]
        for a, b in itertools.pairwise(chain[1:]):
            for f in np.linspace(0.0, 1.0, 6):
                want = 100 if (b in (4, 8, 12, 16, 20) and f == 1.0) else 200  # a tip joint is near the end
                assert alpha_at(palm, palm.joints[a] * (1 - f) + palm.joints[b] * f) > want, (a, b, f)
    for a, b in ((8, 12), (12, 16), (16, 20), (4, 8)):
        assert alpha_at(palm, (palm.joints[a] + palm.joints[b]) / 2) == 0, (a, b)


def test_size_wrist_and_depth(palm: HandSprite) -> None:
    # Fingers nearly straight and facing the camera: wrist → middle tip ≈ hand length in pixels.
    assert np.linalg.norm(palm.joints[12] - palm.joints[0]) == pytest.approx(60.0, rel=0.03)
    assert np.array_equal(palm.wrist, palm.joints[0]) and palm.depth[0] == 0.0
    assert palm.elbow[1] > palm.wrist[1] + 80  # forearm hangs below the upright hand, 1.6 hand lengths
    tipped = render_hand("flat", LOOK, rotation(0, 90, 0), 50.0)  # fingers pointing into the scene
    assert tipped.depth[12] == pytest.approx(50.0, rel=0.03)


@pytest.mark.parametrize("pose", POSES)
def test_each_pose_renders_with_its_joints_on_the_hand(pose: str) -> None:
    sprite = render_hand(pose, LOOK, rotation(180, 30, 10), 40.0)  # back of the hand, tipped, turned
    a = sprite.rgba[..., 3]
    near = [
        a[max(0, round(y) - 1) : round(y) + 2, max(0, round(x) - 1) : round(x) + 2].max()
        for x, y in sprite.joints
    ]
    assert min(near) > 128  # every joint projects onto the hand (a joint may be hidden behind it)


def test_left_hand_is_the_mirror_of_the_right() -> None:
    right = render_hand("gun", LOOK, FRONT, 50.0)
    left = render_hand("gun", HandLook(LOOK.skin, LOOK.sleeve, left=True), FRONT, 50.0)
    assert right.joints[4, 0] > right.joints[20, 0]  # right palm to the camera: thumb on the right
    assert left.joints[4, 0] < left.joints[20, 0]
    # Same silhouette, flipped: align on the wrist and compare the masks.
    rm = right.rgba[..., 3] > 127
    lm = left.rgba[..., 3][:, ::-1] > 127
    lw = left.rgba.shape[1] - 1 - left.wrist[0]
    dx, dy = round(float(right.wrist[0] - lw)), round(float(right.wrist[1] - left.wrist[1]))
    h, w = rm.shape
    shifted = np.zeros_like(rm)
    ys, xs = np.nonzero(lm)
    keep = (ys + dy >= 0) & (ys + dy < h) & (xs + dx >= 0) & (xs + dx < w)
    shifted[ys[keep] + dy, xs[keep] + dx] = True
    assert (rm & shifted).sum() / (rm | shifted).sum() > 0.9


def test_same_arguments_same_bytes_and_seed_only_changes_texture() -> None:
    a = render_hand("fist", LOOK, rotation(20, 40, -30), 45.0, seed=3)
    b = render_hand("fist", LOOK, rotation(20, 40, -30), 45.0, seed=3)
    c = render_hand("fist", LOOK, rotation(20, 40, -30), 45.0, seed=4)
    assert a.rgba.tobytes() == b.rgba.tobytes()
    assert np.array_equal(a.rgba[..., 3], c.rgba[..., 3]) and not np.array_equal(a.rgba, c.rgba)


def test_colours_follow_the_look() -> None:
    def mean_rgb(look: HandLook) -> np.ndarray:
        s = render_hand("flat", look, rotation(180, 0, 0), 40.0, forearm_len=0.3)
        opaque = s.rgba[..., 3] == 255
        return s.rgba[..., :3][opaque].mean(axis=0)

    light = mean_rgb(HandLook(SKIN_TONES[0], SLEEVE_COLOURS[1]))
    dark = mean_rgb(HandLook(SKIN_TONES[-1], SLEEVE_COLOURS[1]))
    assert light.mean() > dark.mean() + 60
    full = render_hand("flat", HandLook(SKIN_TONES[0], (200, 20, 20)), rotation(180, 0, 0), 40.0)
    arm = full.rgba[round(float(full.elbow[1])) - 5, round(float(full.elbow[0]))]
    assert arm[0] > 2 * arm[2]  # the sleeve near the elbow is the cloth's red


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="wave"):
        render_hand("wave", LOOK, FRONT, 40.0)
    with pytest.raises(ValueError, match="rotation"):
        render_hand("fist", LOOK, np.diag([1.0, 1.0, -1.0]), 40.0)
    with pytest.raises(ValueError, match="hand_len_px"):
        render_hand("fist", LOOK, FRONT, 1.0)


def test_cache_hits_quantises_and_evicts() -> None:
    cache = SpriteCache(maxsize=2, angle_step=4.0)
    a = cache.get("fist", LOOK, 8.5, 20.0, 30.0, 40.2)
    b = cache.get("fist", LOOK, 9.5, 19.0, 31.0, 39.8)  # same 4° / 1 px cell: no second render
    assert b is a and (cache.hits, cache.misses) == (1, 1)
    assert cache.get("fist", LOOK, 368.5, 20.0, 30.0, 40.0) is a  # yaw wraps
    cache.get("point", LOOK, 10.0, 20.0, 30.0, 40.0)
    cache.get("gun", LOOK, 10.0, 20.0, 30.0, 40.0)
    assert len(cache) == 2 and cache.misses == 3
    assert cache.get("fist", LOOK, 10.0, 20.0, 30.0, 40.0) is not a  # evicted, rendered again
    assert cache.misses == 4
