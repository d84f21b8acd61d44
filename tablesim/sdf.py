"""Signed-distance primitives for the hand renderer, vectorised over many points with numpy.

All functions take points ``p`` of shape (N, 3) (float32 or float64) and return distances of shape (N,) or
(N, M). Distances are exact or lower bounds (safe for sphere tracing).
"""

from __future__ import annotations

import numpy as np


def tapered_capsules(p: np.ndarray, a: np.ndarray, b: np.ndarray, r1: np.ndarray, r2: np.ndarray) -> np.ndarray:
    """Distance from each of N points to each of M tapered capsules: (N, M).

    Capsule m runs from ``a[m]`` (radius ``r1[m]``) to ``b[m]`` (radius ``r2[m]``), radius linear along the
    axis. For gentle tapers (|r1 - r2| small against the length) this is a close lower-bound-ish estimate; the
    tracer steps at 0.9 of it.
    """
    ba = b - a  # (M, 3)
    l2 = np.maximum(np.einsum("mk,mk->m", ba, ba), 1e-12)
    pa = p[:, None, :] - a[None, :, :]  # (N, M, 3)
    t = np.clip(np.einsum("nmk,mk->nm", pa, ba) / l2, 0.0, 1.0)
    q = pa - t[..., None] * ba
    return np.sqrt(np.einsum("nmk,nmk->nm", q, q)) - (r1 + t * (r2 - r1))


def capsule_axis_param(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Position t in [0, 1] along each point's own capsule axis (row-wise a, b of shape (N, 3)): (N,)."""
    ba = b - a
    l2 = np.maximum(np.einsum("nk,nk->n", ba, ba), 1e-12)
    return np.asarray(np.clip(np.einsum("nk,nk->n", p - a, ba) / l2, 0.0, 1.0))


def smin(a: np.ndarray, b: np.ndarray, k: float) -> np.ndarray:
    """Polynomial smooth minimum of two distance fields with blend radius ``k`` (k <= 0: hard min)."""
    if k <= 0:
        return np.minimum(a, b)
    h = np.clip(0.5 + 0.5 * (b - a) / k, 0.0, 1.0)
    return b + (a - b) * h - k * h * (1.0 - h)


def convex_polygon_2d(xy: np.ndarray, poly: np.ndarray) -> np.ndarray:
    """Exact signed distance from points ``xy`` (N, 2) to a convex polygon ``poly`` (K, 2), counter-clockwise."""
    a = poly
    b = np.roll(poly, -1, axis=0)
    e = b - a  # (K, 2)
    l2 = np.einsum("kc,kc->k", e, e)
    w = xy[:, None, :] - a[None, :, :]  # (N, K, 2)
    t = np.clip(np.einsum("nkc,kc->nk", w, e) / l2, 0.0, 1.0)
    q = w - t[..., None] * e
    dist = np.sqrt(np.min(np.einsum("nkc,nkc->nk", q, q), axis=1))
    # Outward normal of a CCW edge (ex, ey) is (ey, -ex).
    normals = np.stack([e[:, 1], -e[:, 0]], axis=1) / np.sqrt(l2)[:, None]
    side = np.max(np.einsum("nkc,kc->nk", w, normals), axis=1)
    return np.where(side > 0, dist, side)


def rounded_slab(p: np.ndarray, poly: np.ndarray, half_thickness: float, rounding: float) -> np.ndarray:
    """A convex polygon in the xy plane extruded to |z| <= half_thickness, edges rounded by ``rounding``.

    The polygon and half thickness are the outer size; the rounding is carved from inside them.
    """
    d2 = convex_polygon_2d(p[:, :2], poly) + rounding
    dz = np.abs(p[:, 2]) - (half_thickness - rounding)
    outside = np.sqrt(np.maximum(d2, 0.0) ** 2 + np.maximum(dz, 0.0) ** 2)
    return np.asarray(outside + np.minimum(np.maximum(d2, dz), 0.0) - rounding)


def elliptic_cone(
    p: np.ndarray, y0: float, y1: float, r0: float, r1: float, z_squash: float
) -> np.ndarray:
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
