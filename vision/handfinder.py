"""Find hands in one seat's zone of a frame, classify their shape, and say whose they are.

The landmarker runs on a padded crop around the zone, scaled up so life-size hands reach the palm
detector's scale (:mod:`vision.crops`). A hand found is attributed by **where its arm comes from**,
not only by where the hand is: the forearm runs from the wrist away from the knuckles, and the seat
whose body (the head zone's centre) lies best along that line owns the hand. A neighbour reaching into
the zone is therefore reported as the neighbour's hand.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from gamelog.layout import Layout, polygon_area
from vision.armpath import arm_pixels, cloth_distance, wrist_strip
from vision.crops import crop_around, crop_for_zone, detect_in_crops_counted, merge_hands, tile_zone
from vision.gestures import classify
from vision.landmarker import HandTracker
from vision.landmarks import HandLandmarks

WRIST = 0
# The zone's own seat keeps a hand unless the arm runs to a neighbour within ARM_MAX_DEG and this much
# better than to the zone's own player.
OWN_SEAT_BIAS_DEG = 50.0
ARM_MAX_DEG = 25.0
# An arm is a neighbour's by its sleeve when its colour lies this close (_colour_distance) to the neighbour's
# clothes and at least SLEEVE_APART (and SLEEVE_RATIO times as far) from the zone's own player's. One sleeve
# under the table's light measures 0.1-0.3 from its own torso (the arm's pixels mix in some skin and shadow);
# different cloth colours measure 0.5 and more.
SLEEVE_MATCH, SLEEVE_APART, SLEEVE_RATIO = 0.4, 0.45, 1.6
# Dark cloths lie closer together than SLEEVE_APART (clean 1608, zone 5: seat 6's dark grey sleeve
# reaching in measured 0.13 from seat 6's clothes and 0.43 from seat 5's black, so the reach became seat 5's
# vote, and seat 5's true vote 1.8 s later was dropped as that hand coming back). A sleeve that matches a
# neighbour as tightly as one sleeve matches its own torso (SLEEVE_TIGHT) names that neighbour when the zone's
# own player lies SLEEVE_TIGHT_RATIO times as far (1608: 3.3) and beyond any own sleeve (SLEEVE_OWN_MAX, the
# 0.3 above; two players dressed alike measure small distances to both, whose ratio says nothing).
SLEEVE_TIGHT, SLEEVE_TIGHT_RATIO, SLEEVE_OWN_MAX = 0.2, 3.0, 0.3
# The sleeve is judged only on at least this much changed arm beyond the hand (in hand-box sides squared): a
# sleeve on a blurred, compressed video can change too little to show, leaving the hand's own skin (seat 10
# of noisy seed 412: 0.09, read as a beige neighbour's sleeve; a clean sleeve there measures 1.0).
SLEEVE_MIN_AREA = 0.25
# A sleeve names a seat only if the changed pixels beyond the hand run towards that seat's body, within this
# angle of the line from the hand to it. Noisy 2416 (set R), zone 9 at 58.48 s: seat 9's thumb-up landed
# while seat 10's pointing reach lay just below it; the "arm" beyond the hand was that reach's skin and cuff,
# running down and left, away from every body (173.7° from seat 8's, 130° from seat 9's, 85° from seat
# 10's), and its colour, 0.39 from seat 8's grey, gave seat 9's vote to seat 8 as a reach (4 rounds lost).
SLEEVE_AWAY_DEG = 90.0
# The two neighbours dressed alike: a sleeve matching both within this much of each other names the one the
# arm runs nearer to. Noisy BB 3318, zone 5 at 58.48 s: seat 6's reach, its sleeve 0.25 from seat 6's
# clothes and 0.24 from seat 4's, was named seat 4's, 73 degrees from the arm against seat 6's 65; clean DD
# 3505, zone 2: 0.11 from both seat 1's and seat 3's tan, the arm 4 degrees from seat 1's body and 86 from
# seat 3's, and the colour chose seat 3.
SLEEVE_ALIKE = 0.05
# An arm whose colour is a blend of the cloth and the zone's own player's clothes (within SLEEVE_BLEND RGB of
# the line between them, at least SLEEVE_BLEND_MIX of the way from either end) is the rim of the player's own
# sleeve over the cloth, whatever neighbour its colour comes near, unless a neighbour's clothes lie within
# twice SLEEVE_BLEND of that line themselves. Noisy Z 3109, zone 8 at 58.88 s: seat 8's
# thumb-up came with its maroon sleeve where the same sleeve lay before, so only the sleeve's lower rim
# changed; that rim, (50, 72, 50), lay 6 RGB from the line from the cloth (29, 89, 55) to seat 8's clothes
# (120, 36, 45), a quarter of the way, and 0.16 from seat 9's dark green (64, 93, 67; 26 RGB from the line),
# so the vote became seat 9's reach (2 rounds lost).
SLEEVE_BLEND, SLEEVE_BLEND_MIX = 12.0, 0.1
# The hand is taken at least this much of the zone's hand length across: on noisy video the landmarker can
# box only part of a fist (noisy 1007: 8 × 11 px of a 47-px hand), and the rest of the fist, beyond the box,
# counted as the arm; its skin matched a beige-clad neighbour. Vote fists box at 0.5-0.7 hand lengths.
HAND_FLOOR = 0.45
# The forearm strip joined to the wrist (vision.armpath.wrist_strip) is judged on at least this much changed
# sleeve (in expected hand lengths squared); clean 1105's grey forearm: 0.21.
STRIP_MIN_AREA = 0.1
# The strip keeps only a hand in a voting shape for the zone's player: a pointing hand is a reach's shape, and
# the zone player's own forearm, voting at the same moment, can lie at its wrist (clean 1004, zone 8 at
# 66.56 s: seat 9's pointing hand, its wrist strip 0.20 from seat 8's clothes).
STRIP_SHAPES = ("thumb_up", "fist")
# The strip of a hand in a voting shape that lies at least this far from the clothes of the neighbour the
# arm's colour names (and farther than from the zone player's) is not that neighbour's sleeve: the sleeve
# named lies elsewhere in the changed region, not at the hand's wrist. Clean 1809, zone 4 at 39.00 s: seat
# 5's beige reach went back as seat 4's black sleeve brought its thumb-up, and the region joined to the
# thumb was mostly the beige arm's new place; the strip at the wrist (black sleeve and its shadow on the
# cloth) measured 0.84 from seat 5's clothes, 0.71 from seat 4's. One sleeve measures 0.1-0.3 from its own
# torso, different cloths 0.5 and more (SLEEVE_MATCH, SLEEVE_APART).
STRIP_NOT_SLEEVE = SLEEVE_APART
# The strip's colour, pixel by pixel: a strip's median mixes what lies in it, and a shaded sleeve, the hand's
# own skin at the wrist and a neighbour's arm passing just below the wrist can make a median that is nobody's
# sleeve. Clean DD 3505, zone 2 at 66.72 s: seat 2's white sleeve shaded from (230, 230, 225) to
# (135, 146, 139) across the forearm, the hand's brown skin and seat 1's tan reach lay at the strip's ends,
# and the median (171, 148, 124) came 0.43 from seat 2's clothes and 0.10 from seat 1's and seat 3's (both
# tan), so seat 2's vote became seat 3's reach (5 rounds lost). Each strip pixel goes to the nearest of the
# nearby seats' clothes and the hand's own skin (its colour at the landmarks), if within STRIP_PIXEL_MATCH
# of it: there, 336 pixels seat 2's and 222 the tan neighbours' (the rest skin or nobody's). A strip whose
# pixels are at least STRIP_OWN_SHARE the zone player's and STRIP_OWN_RATIO times the named neighbour's is
# the player's own sleeve, if the two players' clothes are apart (SLEEVE_APART: players dressed alike leave
# the pixels saying nothing).
STRIP_PIXEL_MATCH = 0.3
STRIP_OWN_SHARE, STRIP_OWN_RATIO = 0.5, 1.5
# An unread hand (no landmarks, no wrist) is joined to the changed arm within this many hand lengths beyond
# it, on every side (noisy 1003: seat 4's white cuff above its fist, 0.13 from seat 4's clothes, where the
# whole region, reaching seat 5's tan torso, measured 0.10 from seat 5's).
RING = 0.5
# An unreadable landing (no landmarks) is taken at most this much of the zone's hand length across: its box
# is what changed, and can hold the cuff or the sleeve that brought it (noisy 1008: 78 px for a 58-px hand),
# which then counted as hand and left too little arm to judge its sleeve by.
BLOB_CAP = 1.0
# An empty zone crop is tried again turned by these angles (degrees) before the tiled pass: each try is
# another look at a hand the palm detector missed (bench/RESULTS.md, "Rendered hands vs MediaPipe"). Off
# by default: every empty zone crop pays for it.
RETRY_TURNS: tuple[float, ...] = ()


@dataclass(frozen=True)
class HandSeen:
    """One hand found in a zone: its owner, shape, confidence and where it is (frame pixels)."""

    owner: int
    gesture: str
    conf: float  # how sure the shape is (MediaPipe gives no per-hand detection score in IMAGE mode)
    gesture_conf: float
    box: tuple[float, float, float, float]
    centre: tuple[float, float]
    top_y: float
    inside: float  # share of the hand's landmarks inside the zone polygon
    points: npt.NDArray[np.float32]  # (21, 3) frame pixels


def _inside(points: npt.NDArray[np.float32], polygon: npt.NDArray[np.float64]) -> float:
    contour = polygon.astype(np.float32).reshape(-1, 1, 2)
    hits = sum(cv2.pointPolygonTest(contour, (float(x), float(y)), False) >= 0 for x, y in points[:, :2])
    return hits / len(points)


def _colour_distance(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]) -> float:
    """How different two cloth colours are, little moved by shading: the difference of their
    chromaticities (r, g, b over their sum), plus a smaller part for a difference in brightness (black and
    white cloth have the same chromaticity)."""
    sa, sb = float(a.sum()) + 10.0, float(b.sum()) + 10.0
    chroma = float(np.linalg.norm((a + 10.0 / 3) / sa - (b + 10.0 / 3) / sb))
    return 3.0 * chroma + 0.5 * abs(math.log(sa / sb))


def _skin(frame: npt.NDArray[np.uint8], points: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    """The hand's own colour: the median of the (H, W, 3) frame at its (21, 3) landmarks, RGB."""
    h, w = frame.shape[:2]
    xs = np.clip(points[:, 0].astype(np.int64), 0, w - 1)
    ys = np.clip(points[:, 1].astype(np.int64), 0, h - 1)
    return np.median(frame[ys, xs].astype(np.float64), axis=0)


def _pixels_by_clothes(
    rgb: npt.NDArray[np.float64], clothes: dict[int, npt.NDArray[np.float64]], skin: npt.NDArray[np.float64]
) -> dict[int, int]:
    """How many of the (N, 3) ``rgb`` pixels lie nearest each seat's clothes, within STRIP_PIXEL_MATCH of
    them; pixels nearest the hand's ``skin`` count for nobody (see STRIP_PIXEL_MATCH)."""
    seats = list(clothes)
    if not seats or len(rgb) == 0:
        return {}
    d = np.stack([cloth_distance(rgb, clothes[s]) for s in seats] + [cloth_distance(rgb, skin)], axis=1)
    best = np.argmin(d, axis=1)
    near = d[np.arange(len(rgb)), best] <= STRIP_PIXEL_MATCH
    return {s: int(np.count_nonzero(near & (best == i))) for i, s in enumerate(seats)}


def _on_blend(
    colour: npt.NDArray[np.float64], cloth: npt.NDArray[np.float64], clothes: npt.NDArray[np.float64]
) -> bool:
    """``colour`` (RGB) lies within SLEEVE_BLEND of the line from ``cloth`` to ``clothes``, at least
    SLEEVE_BLEND_MIX of the way from either end: what the rim of a sleeve of ``clothes`` over the cloth
    looks like on a blurred picture."""
    k, d = _off_blend(colour, cloth, clothes)
    return SLEEVE_BLEND_MIX <= k <= 1.0 - SLEEVE_BLEND_MIX and d <= SLEEVE_BLEND


def _off_blend(
    colour: npt.NDArray[np.float64], cloth: npt.NDArray[np.float64], clothes: npt.NDArray[np.float64]
) -> tuple[float, float]:
    """Where ``colour`` (RGB) lies along the line from ``cloth`` (0) to ``clothes`` (1), and how far from
    the segment between them (RGB). Clothes of the cloth's own colour have no blend: (0, inf)."""
    a, b, c = (np.asarray(v, np.float64) for v in (cloth, clothes, colour))
    d = b - a
    span = float(d @ d)
    if span < SLEEVE_BLEND**2:
        return 0.0, math.inf
    k = float((c - a) @ d) / span
    return k, float(np.linalg.norm(c - (a + float(np.clip(k, 0.0, 1.0)) * d)))


def _padded_box(
    polygon: npt.NDArray[np.float64], frame_shape: tuple[int, ...], pad: float
) -> tuple[int, int, int, int]:
    """The polygon's bounding box grown by ``pad`` of its larger side, clipped to the frame."""
    h, w = frame_shape[:2]
    bx0, by0 = polygon.min(axis=0)
    bx1, by1 = polygon.max(axis=0)
    p = pad * max(bx1 - bx0, by1 - by0)
    return (
        int(max(0, bx0 - p)),
        int(max(0, by0 - p)),
        int(min(w, bx1 + p + 1)),
        int(min(h, by1 + p + 1)),
    )


def _body_anchor(head_zone: tuple[tuple[float, float], ...]) -> npt.NDArray[np.float64]:
    """Where a player's arms come from, seen by the camera: the shoulders, about one head below the head
    zone's centre (the zone frames the head)."""
    pts = np.asarray(head_zone, dtype=np.float64)
    centre = pts.mean(axis=0)
    height = float(pts[:, 1].max() - pts[:, 1].min())
    return centre + np.array([0.0, 0.9 * height])


class HandFinder:
    """Per-worker hand finder over one layout. Owns an IMAGE-mode tracker unless one is given."""

    def __init__(
        self,
        layout: Layout,
        tracker: HandTracker | None = None,
        *,
        hand_px: float = 0.0,
        retry_turns: tuple[float, ...] | None = None,
    ) -> None:
        self.layout = layout
        self.retry_turns = RETRY_TURNS if retry_turns is None else retry_turns
        self._own = tracker is None
        self.tracker = tracker if tracker is not None else HandTracker(mode="image", num_hands=2)
        self.hand_px = hand_px
        self.calls = 0
        self.last_arm_angles: dict[int, float] = {}
        self.last_sleeve_dist: dict[int, float] = {}
        self.last_strip_dist: dict[int, float] = {}
        self.last_strip_pixels: dict[int, int] = {}  # the wrist strip's pixels by whose clothes they match
        # The zone crop's last detection, kept for the frame it was made on: a plain look followed by a
        # thorough one on the same still frame (a settle; a noisy raise zone whose crop found only lying
        # hands) would otherwise run the landmarker on the same crop twice.
        self._last_crop: tuple[npt.NDArray[np.uint8], tuple[int, str], HandLandmarks] | None = None
        self._anchors = {s.seat: _body_anchor(s.head_zone) for s in layout.seats}
        self._heads = {
            s.seat: np.mean(np.asarray(s.head_zone, dtype=np.float64), axis=0) for s in layout.seats
        }
        self._polys = {
            (s.seat, name): np.asarray(s.zone(name), dtype=np.float64)
            for s in layout.seats
            for name in ("table_zone", "raise_zone", "head_zone")
        }

    def close(self) -> None:
        if self._own:
            self.tracker.close()

    def __enter__(self) -> HandFinder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def polygon(self, seat: int, zone: str) -> npt.NDArray[np.float64]:
        return self._polys[(seat, zone)]

    def body(self, seat: int) -> npt.NDArray[np.float64]:
        """Where the seat's arms come from on camera (its shoulders): (2,) frame pixels."""
        return self._anchors[seat]

    def hand_size(self, seat: int) -> float:
        """Expected hand length in pixels at ``seat``: a table zone is drawn about a hand and a third across
        (measured on tablesim layouts, where the true size is known: 0.68-0.83 of the zone's square root)."""
        if self.hand_px > 0:
            return self.hand_px
        area = polygon_area(tuple((float(x), float(y)) for x, y in self._polys[(seat, "table_zone")]))
        return float(np.clip(0.75 * np.sqrt(area), 20.0, 400.0))

    def detect(
        self, frame: npt.NDArray[np.uint8], seat: int, zone: str, *, tiles: bool = False
    ) -> HandLandmarks:
        poly = self._polys[(seat, zone)]
        specs = [crop_for_zone(frame.shape, poly, pad=0.25)]
        turns = self.retry_turns
        if tiles:
            # Windows three hands wide: the measured best for 40-60 px hands (bench/RESULTS.md, small hands).
            specs = tile_zone(frame.shape, poly, hand_px=self.hand_size(seat), window_hands=3.0)
            turns = ()
        if not tiles and self._last_crop is not None:
            seen_frame, key, seen = self._last_crop
            if seen_frame is frame and key == (seat, zone):
                return seen  # the same look at the same picture: the landmarker (IMAGE mode) says the same
        hands, calls = detect_in_crops_counted(self.tracker, frame, specs, retry_turns=turns)
        self.calls += calls
        if not tiles:
            self._last_crop = (frame, (seat, zone), hands)
        return hands

    def find(
        self, frame: npt.NDArray[np.uint8], seat: int, zone: str, *, thorough: bool = False
    ) -> list[HandSeen]:
        """Hands whose landmarks lie mostly in ``seat``'s ``zone``, best first. A second, tiled pass runs
        when the single crop finds no hand *in the zone* (it may find only neighbours' hands at the crop's
        edge, the zone's own small hand too small to detect at that scale), or always when ``thorough``."""
        hands = self.detect(frame, seat, zone)
        out = self._seen(hands, seat, zone)
        if not out or thorough:
            tiled = self.detect(frame, seat, zone, tiles=True)
            hands = merge_hands(HandLandmarks.concat([hands, tiled]))
            if thorough and len(hands):
                hands = HandLandmarks.concat([hands, self._behind(frame, hands, seat, zone)])
            out = self._seen(hands, seat, zone)
        return out

    def look_at(
        self, frame: npt.NDArray[np.uint8], seat: int, zone: str, centre: tuple[float, float], side: float
    ) -> list[HandSeen]:
        """Hands in ``seat``'s ``zone`` found by one look through a square crop of ``side`` pixels around
        ``centre`` (a place where something came: a crop two hands across reads a small far-side thumb-up
        that the zone's crop and its tiles pass over)."""
        hands, calls = detect_in_crops_counted(self.tracker, frame, [crop_around(frame.shape, centre, side)])
        self.calls += calls
        return self._seen(hands, seat, zone)

    def _behind(
        self, frame: npt.NDArray[np.uint8], found: HandLandmarks, seat: int, zone: str
    ) -> HandLandmarks:
        """Hands the detector passed over because another hand lies close by (its palm boxes overlap and
        only one survives): paint the hands already found over with the surrounding colour and look
        again. Only new hands, away from those painted over, are returned."""
        poly = self._polys[(seat, zone)]
        x0, y0, x1, y1 = _padded_box(poly, frame.shape, 0.6)
        region = frame[y0:y1, x0:x1]
        mask = np.zeros(region.shape[:2], np.uint8)
        for pts in found.points:
            hull = cv2.convexHull(np.round(pts[:, :2] - [x0, y0]).astype(np.int32))
            cv2.fillConvexPoly(mask, hull, 1)
        size = self.hand_size(seat)
        k = max(3, int(0.3 * size) | 1)
        mask = cv2.dilate(mask, np.ones((k, k), np.uint8))
        if not (mask == 0).any():
            return HandLandmarks.empty()
        painted = frame.copy()
        fill = np.median(region[mask == 0].reshape(-1, 3), axis=0).astype(np.uint8)
        painted[y0:y1, x0:x1][mask > 0] = fill
        again = self.detect(painted, seat, zone, tiles=True)
        centres = found.points[:, :, :2].mean(axis=1)
        keep = []
        for i in range(len(again)):
            c = again.points[i][:, :2].mean(axis=0)
            cx, cy = int(c[0] - x0), int(c[1] - y0)
            if 0 <= cy < mask.shape[0] and 0 <= cx < mask.shape[1] and mask[cy, cx]:
                continue  # what is left of a hand painted over
            if float(np.min(np.hypot(*(centres - c).T))) < 0.5 * size:
                continue  # a hand outside the painted region, found again
            keep.append(i)
        return again.select(np.asarray(keep, dtype=np.int64))

    def _seen(self, hands: HandLandmarks, seat: int, zone: str) -> list[HandSeen]:
        poly = self._polys[(seat, zone)]
        out: list[HandSeen] = []
        up = (0.0, -1.0)
        for i in range(len(hands)):
            pts = hands.points[i]
            inside = _inside(pts, poly)
            if inside < 0.5:
                continue
            if zone == "raise_zone":
                owner = self.raise_owner(pts, seat)
                if float(pts[:, 1].mean()) > self._heads[owner][1]:
                    continue  # a shot is a hand raised above the head, not one at chest height
            g = classify(pts, image_up=up)
            x0, y0 = float(pts[:, 0].min()), float(pts[:, 1].min())
            x1, y1 = float(pts[:, 0].max()), float(pts[:, 1].max())
            out.append(
                HandSeen(
                    # On the table the zone's own player, until the arm's path says otherwise (arm_owner,
                    # called by the watcher once the hand is still); the landmarks' wrist-to-knuckle line of
                    # a 50 px fist is too short to tell (measured: it named a neighbour for own votes).
                    owner=self.raise_owner(pts, seat) if zone == "raise_zone" else seat,
                    gesture=g.gesture,
                    conf=round(g.conf, 3),
                    gesture_conf=round(g.conf, 3),
                    box=(round(x0, 1), round(y0, 1), round(x1, 1), round(y1, 1)),
                    centre=(float(pts[:, 0].mean()), float(pts[:, 1].mean())),
                    top_y=y0,
                    inside=inside,
                    points=pts,
                )
            )
        out.sort(key=lambda h: (-h.inside, -h.conf))
        return out

    def _near(self, seat: int) -> tuple[int, ...]:
        """The seat and its neighbours at the table; the first and last seats are not neighbours (the host
        sits between them)."""
        order = list(self.layout.seat_numbers)
        i = order.index(seat)
        return tuple(order[j] for j in (i - 1, i, i + 1) if 0 <= j < len(order))

    def neighbours(self, seat: int) -> tuple[int, ...]:
        """The seats beside ``seat`` at the table (not across the host, see ``_near``)."""
        return tuple(s for s in self._near(seat) if s != seat)

    def raise_owner(self, points: npt.NDArray[np.float32], zone_seat: int) -> int:
        """A hand raised high belongs to the player whose head is under it: raise zones of neighbours overlap
        on camera, heads do not."""
        wrist = points[WRIST, :2].astype(np.float64)
        best, best_d = zone_seat, math.inf
        for seat, anchor in self._heads.items():
            if anchor[1] < wrist[1] - 10.0:
                continue  # a head above the wrist is not under the raised hand
            d = abs(anchor[0] - wrist[0]) + 0.35 * abs(anchor[1] - wrist[1])
            if d < best_d:
                best, best_d = seat, d
        return best

    def clothing(self, frame: npt.NDArray[np.uint8], seat: int) -> npt.NDArray[np.float64]:
        """The median colour of the player's torso (just below the head zone), RGB."""
        pts = np.asarray(self.layout.seat(seat).head_zone, dtype=np.float64)
        half = 0.25 * float(pts[:, 1].max() - pts[:, 1].min())
        cx, cy = self._anchors[seat]
        h, w = frame.shape[:2]
        x0, y0 = int(np.clip(cx - half, 0, w - 1)), int(np.clip(cy - half, 0, h - 1))
        x1, y1 = int(np.clip(cx + half + 1, x0 + 1, w)), int(np.clip(cy + half + 1, y0 + 1, h))
        return np.median(frame[y0:y1, x0:x1].reshape(-1, 3).astype(np.float64), axis=0)

    def cloth(self, frame: npt.NDArray[np.uint8], seat: int) -> npt.NDArray[np.float64]:
        """The median colour of the seat's table zone, RGB: the cloth's colour there (hands and cards cover
        only a small part of the zone)."""
        x0, y0, x1, y1 = _padded_box(self._polys[(seat, "table_zone")], frame.shape, 0.0)
        poly = self._polys[(seat, "table_zone")] - np.array([x0, y0])
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillPoly(mask, [np.round(poly).astype(np.int32)], 1)
        if not mask.any():
            mask[:] = 1
        return np.median(frame[y0:y1, x0:x1][mask.astype(bool)].astype(np.float64), axis=0)

    def _sleeve_owner(
        self,
        before: npt.NDArray[np.uint8],
        after: npt.NDArray[np.uint8],
        arm_px: npt.NDArray[np.float64],
        zone_seat: int,
        seats: tuple[int, ...],
        cloth: npt.NDArray[np.float64] | None = None,
    ) -> int | None:
        """Whose sleeve the arm is: players' sleeves are the colour of their clothes. The arm's colour
        (the pixels along it, after the movement) must match one neighbour's torso clearly and the zone's
        own player's clearly not; players dressed alike (or bare arms) leave it undecided (None). Given the
        ``cloth``'s colour, an arm coloured as a blend of the cloth and the zone player's clothes is that
        player's sleeve's rim (SLEEVE_BLEND): no neighbour, nor any colour for the direction to go by."""
        if len(arm_px) < 8 or zone_seat not in seats:
            return None
        xs, ys = arm_px[:, 0].astype(np.int64), arm_px[:, 1].astype(np.int64)
        arm = np.median(after[ys, xs].astype(np.float64), axis=0)
        clothes = {s: self.clothing(before, s) for s in seats}
        # ...unless a neighbour's clothes are such a blend themselves: then the colour cannot tell.
        if (
            cloth is not None
            and _on_blend(arm, cloth, clothes[zone_seat])
            and all(
                _off_blend(c, cloth, clothes[zone_seat])[1] > 2 * SLEEVE_BLEND
                for s, c in clothes.items()
                if s != zone_seat
            )
        ):
            return None
        dist = {s: _colour_distance(arm, c) for s, c in clothes.items()}
        own = dist[zone_seat]
        others = {s: d for s, d in dist.items() if s != zone_seat}
        if not others:
            return None
        best = min(others, key=lambda s: others[s])
        self.last_sleeve_dist = dist
        if others[best] <= SLEEVE_MATCH and own >= SLEEVE_APART and own >= SLEEVE_RATIO * others[best]:
            return best
        if others[best] <= SLEEVE_TIGHT and own > SLEEVE_OWN_MAX and own >= SLEEVE_TIGHT_RATIO * others[best]:
            return best  # two dark cloths: see SLEEVE_TIGHT
        return None

    def _joined(
        self,
        after: npt.NDArray[np.uint8],
        before: npt.NDArray[np.uint8],
        found: tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]],
        hand: HandSeen,
        zone_seat: int,
        cloth: npt.NDArray[np.float64],
        size: float,
    ) -> dict[int, float] | None:
        """How far the colour of the arm joined to the hand lies from each nearby seat's clothes: the
        forearm strip leaving a landmarked wrist (``vision.armpath.wrist_strip``), or for an unread hand the
        arm within ``RING`` hand lengths beyond it. ``found``: the changed region's
        (N, 2) pixels and its arm mask (``arm_pixels``). None when too little of it changed to judge. Two arms
        in one changed region (a neighbour's reach and the player's own vote) are told apart here: the
        region's median colour is either's or neither's, the arm joined to the hand is the hand's own
        (clean 1105, noisy 1003)."""
        self.last_strip_dist = {}
        self.last_strip_pixels = {}
        pts, far = found
        hand_len = self.hand_size(zone_seat)
        strip = wrist_strip(pts, after, hand.points, hand_len, cloth)
        if strip is not None and hand.gesture not in STRIP_SHAPES:
            return None
        joined = strip
        if strip is None:
            r = np.hypot(pts[:, 0] - hand.centre[0], pts[:, 1] - hand.centre[1])
            joined = far & (r < 0.9 * size + RING * hand_len)
        assert joined is not None
        if joined.sum() < STRIP_MIN_AREA * hand_len * hand_len:
            return None
        xs, ys = pts[joined, 0].astype(np.int64), pts[joined, 1].astype(np.int64)
        rgb = after[ys, xs].astype(np.float64)
        colour = np.median(rgb, axis=0)
        clothes = {s: self.clothing(before, s) for s in self._near(zone_seat)}
        dist = {s: _colour_distance(colour, c) for s, c in clothes.items()}
        self.last_strip_dist = dist
        if strip is not None:
            self.last_strip_pixels = _pixels_by_clothes(rgb, clothes, _skin(after, hand.points))
        return dist

    def _strip_is_own(self, before: npt.NDArray[np.uint8], zone_seat: int, seat: int) -> bool:
        """The last wrist strip's pixels (``_joined``) are mostly the zone player's clothes, clearly more than
        ``seat``'s, and the two players are not dressed alike (see STRIP_PIXEL_MATCH)."""
        px = self.last_strip_pixels
        total = sum(px.values())
        own, other = px.get(zone_seat, 0), px.get(seat, 0)
        if not total or own < STRIP_OWN_SHARE * total or own < STRIP_OWN_RATIO * other:
            return False
        return _colour_distance(self.clothing(before, zone_seat), self.clothing(before, seat)) >= SLEEVE_APART

    def _alike_by_direction(self, by_colour: int, zone_seat: int, angles: dict[int, float]) -> int:
        """Of two neighbours whose clothes the last sleeve matched alike (within SLEEVE_ALIKE), the one the
        arm runs nearer to (see SLEEVE_ALIKE)."""
        dist = self.last_sleeve_dist
        alike = [
            s for s in angles if s != zone_seat and s in dist and dist[s] <= dist[by_colour] + SLEEVE_ALIKE
        ]
        return min(alike, key=lambda s: angles[s]) if alike else by_colour

    def arm_owner(
        self,
        before: npt.NDArray[np.uint8],
        after: npt.NDArray[np.uint8],
        hand: HandSeen,
        zone_seat: int,
        background: npt.NDArray[np.uint8] | None = None,
        recent: npt.NDArray[np.uint8] | None = None,
    ) -> int | None:
        """Whose arm brought the hand here: the picture changed along the arm as well as at the hand, so
        the changed region joined to the hand's wrist runs out of the zone towards the owner's body.
        Returns the seat whose body lies along it, or None when the change does not say (then the zone's
        own player keeps the hand). See :mod:`vision.armpath` for which changed pixels count as the arm;
        ``recent`` is the zone's picture just before its movement (optional)."""
        self.last_arm_angles = {}
        box_side = max(hand.box[2] - hand.box[0], hand.box[3] - hand.box[1])
        size = max(box_side, 12.0, HAND_FLOOR * self.hand_size(zone_seat))
        if not np.any(hand.points[:, :2]):
            size = min(size, BLOB_CAP * self.hand_size(zone_seat))
        cx, cy = hand.centre
        cloth = self.cloth(background if background is not None else before, zone_seat)
        found = arm_pixels(before, after, hand.centre, hand.points, size, background, cloth, recent)
        if found is None:
            return None
        pts, far = found
        self.last_strip_dist = {}

        def mine(seat: int) -> bool:
            """The arm joined to the hand clearly matches the zone's own player, not ``seat``; or, for a
            hand in a voting shape, it is clearly not ``seat``'s sleeve and nearer the zone player's clothes
            (STRIP_NOT_SLEEVE: the neighbour's sleeve that named it lies elsewhere in the changed region).
            It only ever keeps a hand for the zone's player: naming a neighbour by it moved two own
            thumb-ups (clean 1116 and noisy 1106, zone 4) to the neighbour whose sleeve lay at their wrists.
            Measured only when a neighbour is named."""
            joined = self._joined(after, before, found, hand, zone_seat, cloth, size)
            if joined is None:
                return False
            own = joined.get(zone_seat, math.inf)
            other = joined.get(seat, 0.0)
            if own <= SLEEVE_MATCH and other >= SLEEVE_RATIO * own:
                return True
            if self._strip_is_own(before, zone_seat, seat):  # only a voting shape has a strip (see _joined)
                return True
            return hand.gesture in STRIP_SHAPES and other >= STRIP_NOT_SLEEVE and other > own

        if far.sum() < 0.15 * size * size / 4:
            return None
        arm = pts[far].mean(axis=0) - np.array([cx, cy])
        norm = float(np.hypot(*arm))
        if norm < 1e-6:
            return None
        arm /= norm
        angles: dict[int, float] = {}
        for seat, anchor in self._anchors.items():
            if seat not in self._near(zone_seat):
                continue  # an arm reaches into a zone from the seat beside it, not across the table
            to_body = anchor - np.array([cx, cy])
            d = float(np.hypot(*to_body))
            if d < 1e-6:
                continue
            angles[seat] = math.degrees(math.acos(float(np.clip(np.dot(arm, to_body / d), -1.0, 1.0))))
        if not angles:
            return None
        by_colour = None
        self.last_arm_angles = angles
        self.last_sleeve_dist = {}
        if far.sum() >= SLEEVE_MIN_AREA * size * size:  # enough of the arm to be its sleeve, not a finger
            by_colour = self._sleeve_owner(before, after, pts[far], zone_seat, tuple(angles), cloth)
        if by_colour is not None:
            by_colour = self._alike_by_direction(by_colour, zone_seat, angles)
            if angles[by_colour] > SLEEVE_AWAY_DEG:
                return None  # what changed beyond the hand runs away from that body: not its arm
            return None if mine(by_colour) else by_colour
        sleeve = self.last_sleeve_dist
        best = min(angles, key=lambda k: angles[k])
        if best == zone_seat:
            return best
        # Another seat only when the arm clearly runs to it and clearly not to the zone's own player.
        own = angles.get(zone_seat, 180.0)
        if angles[best] > ARM_MAX_DEG or own - angles[best] < OWN_SEAT_BIAS_DEG:
            return None
        # A player's own vote is the normal case: the direction alone names a neighbour only on an arm's
        # worth of changed pixels (enough to judge its sleeve; seed 417: 90 px of seat 4's own cuff
        # pointed at seat 5), and only if that sleeve's colour does not speak for the zone's own player
        # (seed 514: seat 7's grey cuff straight above its fist, pointing at seat 6's body, is 0.6 from
        # seat 7's clothes and 1.3 from seat 6's red).
        if not sleeve or sleeve.get(best, 0.0) > sleeve.get(zone_seat, math.inf):
            return None
        # And the arm must end nearer the neighbour's body than the zone's own player's (at the far end of
        # the table two players' bodies lie in nearly the same direction from a hand).
        tip = pts[int(np.argmax(np.hypot(pts[:, 0] - cx, pts[:, 1] - cy)))]
        near_best = float(np.hypot(*(tip - self._anchors[best])))
        near_own = float(np.hypot(*(tip - self._anchors[zone_seat])))
        return best if near_best < near_own and not mine(best) else None
