"""The table scene: projection, seat geometry and the layout.json zones."""

from __future__ import annotations

import numpy as np
import pytest

from gamelog.layout import layouts_from_json
from tablesim.scene import (
    Camera,
    CameraKnobs,
    Scene,
    point_in_polygon,
    polygon_area,
    vote_fingers,
    vote_wrist,
)


@pytest.fixture(scope="module")
def scene() -> Scene:
    return Scene.build()


def test_the_point_looked_at_projects_to_the_image_centre() -> None:
    k = CameraKnobs(width=1280, height=720, elevation=40, distance=5, look_y=0.3, look_z=0.1)
    cam = Camera.from_knobs(k)
    px = cam.project(np.array([0.0, 0.3, 0.1]))
    assert px == pytest.approx([640.0, 360.0], abs=1e-6)


def test_projection_follows_the_pinhole_model() -> None:
    cam = Camera.from_knobs(CameraKnobs())
    p = np.array([0.4, 0.5, 0.2])
    c = cam.to_camera(p)
    u, v = cam.project(p)
    assert u == pytest.approx(cam.f * c[0] / c[2] + cam.cx)
    assert v == pytest.approx(cam.f * c[1] / c[2] + cam.cy)
    # right in the world is right in the image, up in the world is up in the image
    assert cam.project(p + np.array([0.1, 0, 0]))[0] > u
    assert cam.project(p + np.array([0, 0, 0.1]))[1] < v
    # farther along the table is higher in the frame and smaller
    assert cam.project(np.array([0.0, 1.0, 0.0]))[1] < cam.project(np.array([0.0, -1.0, 0.0]))[1]
    assert cam.px_per_m(np.array([0.0, 1.0, 0.0])) < cam.px_per_m(np.array([0.0, -1.0, 0.0]))


def test_a_point_behind_the_camera_is_refused() -> None:
    cam = Camera.from_knobs(CameraKnobs())
    with pytest.raises(ValueError, match="behind the camera"):
        cam.project(cam.position - cam.R[2])


def test_bad_camera_knobs_are_refused() -> None:
    with pytest.raises(ValueError, match="elevation"):
        CameraKnobs(elevation=90)
    with pytest.raises(ValueError, match="hand_scale"):
        Scene.build(hand_scale=10)


def test_seats_run_clockwise_from_the_hosts_left(scene: Scene) -> None:
    xs = [s.edge[0] for s in scene.seats]
    ys = [s.edge[1] for s in scene.seats]
    assert xs[0] < 0 and xs[-1] > 0  # seat 1 on the host's left (camera left), seat 10 on his right
    assert ys[0] < 0 and ys[4] > 1.0 and ys[5] > 1.0  # 5 and 6 at the far end
    for s in scene.seats:  # every player faces the table
        assert np.dot(s.inward[:2], -s.edge[:2]) > 0


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720), (320, 180)])
def test_every_zone_lies_inside_the_frame(size: tuple[int, int]) -> None:
    sc = Scene.build(camera=CameraKnobs(width=size[0], height=size[1]))
    for s in sc.seats:
        for poly in (sc.table_zone(s.seat), sc.raise_zone(s.seat), sc.head_zone(s.seat)):
            assert poly[:, 0].min() >= 0 and poly[:, 0].max() <= size[0]
            assert poly[:, 1].min() >= 0 and poly[:, 1].max() <= size[1]
            assert polygon_area(poly) > 4


def _overlap(a: np.ndarray, b: np.ndarray) -> bool:
    """Convex polygons overlap unless some edge normal separates them."""
    for poly in (a, b):
        for i in range(len(poly)):
            e = poly[(i + 1) % len(poly)] - poly[i]
            n = np.array([-e[1], e[0]])
            pa, pb = a @ n, b @ n
            if pa.max() < pb.min() or pb.max() < pa.min():
                return False
    return True


def test_table_zones_do_not_overlap(scene: Scene) -> None:
    zones = [scene.table_zone(s.seat) for s in scene.seats]
    for i in range(len(zones)):
        for j in range(i + 1, len(zones)):
            assert not _overlap(zones[i], zones[j]), f"table zones of seats {i + 1} and {j + 1} overlap"


def test_the_raise_zone_is_above_the_head(scene: Scene) -> None:
    for s in scene.seats:
        raise_zone, head = scene.raise_zone(s.seat), scene.head_zone(s.seat)
        assert raise_zone[:, 1].mean() < head[:, 1].mean()
        assert raise_zone[:, 1].min() < head[:, 1].min()
        assert point_in_polygon(scene.camera.project(s.raise_peak), raise_zone)
        assert point_in_polygon(scene.camera.project(s.head_up), head)


@pytest.mark.parametrize("left", [False, True])
def test_the_voting_fist_lands_in_its_own_table_zone(scene: Scene, left: bool) -> None:
    for s in scene.seats:
        wrist = vote_wrist(s, left)
        fist = wrist + vote_fingers(s, left) * 0.06  # the middle of a closed fist
        px = scene.camera.project(fist)
        assert point_in_polygon(px, scene.table_zone(s.seat)), (
            f"seat {s.seat} ({'left' if left else 'right'})"
        )
        for other in scene.seats:
            if other.seat != s.seat:
                assert not point_in_polygon(px, scene.table_zone(other.seat))


@pytest.mark.parametrize("left", [False, True])
def test_the_voting_fist_keeps_clear_of_the_other_resting_hand(scene: Scene, left: bool) -> None:
    for s in scene.seats:
        fist = vote_wrist(s, left) + vote_fingers(s, left) * 0.06
        other_rest = s.rest_r if left else s.rest_l
        assert np.linalg.norm(fist - other_rest) > 0.2, f"seat {s.seat}"


def test_resting_hands_are_outside_the_table_zone(scene: Scene) -> None:
    for s in scene.seats:
        for rest in (s.rest_l, s.rest_r):
            assert not point_in_polygon(scene.camera.project(rest), scene.table_zone(s.seat))


def test_hands_are_life_size_on_a_1080p_frame(scene: Scene) -> None:
    sizes = [scene.hand_len_px(s.zone_centre) for s in scene.seats]
    assert min(sizes) >= 38 and max(sizes) <= 70, sizes
    big = Scene.build(hand_scale=2.0)
    assert big.hand_len_px(big.seats[0].zone_centre) == pytest.approx(2 * sizes[0])


def test_layout_json_is_the_contract_shape_and_reads_back(scene: Scene) -> None:
    obj = scene.layout_json()
    assert obj["frame_size"] == [1920, 1080]
    assert [s["seat"] for s in obj["seats"]] == list(range(1, 11))
    lay = layouts_from_json(obj, seats=10).at(0)
    assert lay.seat(3).table_zone[0] == tuple(obj["seats"][2]["table_zone"][0])
