"""Signed-distance primitives for the hand renderer, vectorised over many points with numpy.

All functions take points ``p`` of shape (N, 3) (float32 or float64) and return distances of shape (N,) or
(N, M). Distances are exact or lower bounds (safe for sphere tracing).
"""

from __future__ import annotations

import numpy as np


def tapered_capsules(
    p: np.ndarray, a: np.ndarray, b: np.ndarray, r1: np.ndarray, r2: np.ndarray
) -> np.ndarray:
    """Distance from each of N points to each of M tapered capsules: (N, M).

    Capsule m runs from ``a[m]`` (radius ``r1[m]``) to ``b[m]`` (radius ``r2[m]``), radius linear along the
    axis: a close estimate for gentle tapers (the tracer steps at 0.9 of it). Built from (N, 3) x (3, M)
    products so no (N, M, 3) temporaries are made.
    """
    ba = b - a  # (M, 3)
    l2 = np.maximum(np.einsum("mk,mk->m", ba, ba), 1e-12)
    pa_ba = p @ ba.T - np.einsum("mk,mk->m", a, ba)  # (N, M) = (p - a) . ba
    pa2 = np.einsum("nk,nk->n", p, p)[:, None] - 2.0 * (p @ a.T) + np.einsum("mk,mk->m", a, a)
    t = np.clip(pa_ba / l2, 0.0, 1.0)
    q2 = pa2 - t * (2.0 * pa_ba - t * l2)
    return np.asarray(np.sqrt(np.maximum(q2, 0.0)) - (r1 + t * (r2 - r1)))


def capsule_axis_param(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Position t in [0, 1] along each point's own capsule axis (row-wise a, b of shape (N, 3)): (N,)."""
    ba = b - a
    l2 = np.maximum(np.einsum("nk,nk->n", ba, ba), 1e-12)
    return np.asarray(np.clip(np.einsum("nk,nk->n", p - a, ba) / l2, 0.0, 1.0))


def smin(a: np.ndarray, b: np.ndarray, k: float) -> np.ndarray:
    """Polynomial smooth minimum of two distance fields with blend radius ``k`` (k <= 0: hard min)."""
    if k <= 0:
        return np.asarray(np.minimum(a, b))
    h = np.clip(0.5 + 0.5 * (b - a) / k, 0.0, 1.0)
    return np.asarray(b + (a - b) * h - k * h * (1.0 - h))


def convex_polygon_2d(xy: np.ndarray, poly: np.ndarray) -> np.ndarray:
    """Exact signed distance from points ``xy`` (N, 2) to a convex, counter-clockwise polygon (K, 2)."""
    a = poly
    e = np.roll(poly, -1, axis=0) - a  # (K, 2) edges
    l2 = np.einsum("kc,kc->k", e, e)
    w_e = xy @ e.T - np.einsum("kc,kc->k", a, e)  # (N, K) = (xy - a) . e
    w2 = np.einsum("nc,nc->n", xy, xy)[:, None] - 2.0 * (xy @ a.T) + np.einsum("kc,kc->k", a, a)
    t = np.clip(w_e / l2, 0.0, 1.0)
    dist = np.sqrt(np.maximum(np.min(w2 - t * (2.0 * w_e - t * l2), axis=1), 0.0))
    # Outward normal of a CCW edge (ex, ey) is (ey, -ex).
    normals = (np.stack([e[:, 1], -e[:, 0]], axis=1) / np.sqrt(l2)[:, None]).astype(xy.dtype)
    side = np.max(xy @ normals.T - np.einsum("kc,kc->k", a, normals), axis=1)
    return np.asarray(np.where(side > 0, dist, side))


def rounded_slab(p: np.ndarray, poly: np.ndarray, half_thickness: float, rounding: float) -> np.ndarray:
    """A convex polygon in the xy plane extruded to |z| <= half_thickness, edges rounded by ``rounding``.

    The polygon and half thickness are the outer size; the rounding is carved from inside them.
    """
    d2 = convex_polygon_2d(p[:, :2], poly) + rounding
    dz = np.abs(p[:, 2]) - (half_thickness - rounding)
    outside = np.sqrt(np.maximum(d2, 0.0) ** 2 + np.maximum(dz, 0.0) ** 2)
    return np.asarray(outside + np.minimum(np.maximum(d2, dz), 0.0) - rounding)


def elliptic_cone(p: np.ndarray, y0: float, y1: float, r0: float, r1: float, z_squash: float) -> np.ndarray:
    """A cone along the -y axis from y0 (radius r0) down to y1 < y0 (radius r1), flat ends, with its z extent
    divided by ``z_squash`` (>= 1; a flattened wrist/forearm). A lower bound of the true distance."""
    y = p[:, 1]
    t = np.clip((y0 - y) / (y0 - y1), 0.0, 1.0)
    r = r0 + t * (r1 - r0)
    radial = np.sqrt(p[:, 0] ** 2 + (p[:, 2] * z_squash) ** 2) / z_squash
    d_side = radial - r / z_squash
    d_ends = np.maximum(y - y0, y1 - y)
    outside = np.sqrt(np.maximum(d_side, 0.0) ** 2 + np.maximum(d_ends, 0.0) ** 2)
    return np.asarray(outside + np.minimum(np.maximum(d_side, d_ends), 0.0))
