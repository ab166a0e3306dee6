"""Find the publisher's printed cards (no QR code) in one photo of a row, each cut out upright.

OpenCV + numpy; only `scorer.scan.faces` (reading and teaching) imports it, lazily from the scanner, so the
browser build never loads OpenCV.

1. **The row**: the table is what the photo's border shows; everything far from the table's colours and near a
   printed edge is card (a table's colours vary smoothly where the border does not show them).
   The cards' outline (touching or overlapping cards form one outline) is fitted with a quadrilateral and
   rectified (rotation and perspective) into a strip one card high, with a card's width more at each end (a
   card the colour of the table is missing from the outline).
2. **The cards**: what stays visible however the cards touch or overlap is each card's number circle at its
   top-left corner (players lay a card over its neighbour's right edge, never its corner marks). Along the
   strip's top edge (or its bottom edge, turned: a row photographed from across the table) the circles lie
   one card pitch apart: the comb of circles that fits best gives the number of cards and which way up the
   row is; the strip is then levelled along its clear circles and each card's own outline fitted (left and
   top edges with their lean, then its size). The Throw card is the leftmost card as its letters read upright.
   When the other way up fits nearly as well (a letter badge shaped like a number circle), the taught faces
   decide (`scorer.scan.faces`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from scorer.scan.image import load_photo

CARD_MM = (63, 88)
#: The rectified card's resolution: enough for a corner letter ~7 mm tall to show ~28 px.
PX_PER_MM = 4
#: Each card is cut out with this much of its surroundings (mm): where a card's edge was found a little
#: off, its corner marks are still inside the cut.
PAD_MM = 4
CARD_PX = ((CARD_MM[0] + 2 * PAD_MM) * PX_PER_MM, (CARD_MM[1] + 2 * PAD_MM) * PX_PER_MM)
#: Segmentation runs on a preview this many pixels long (cheap), the letters on the full-resolution grey.
PREVIEW_PX = 640


# --- Loading ------------------------------------------------------------------------------------------------

def load_rgb(source: bytes | bytearray | str | Path | Image.Image) -> np.ndarray:
    """The photo as an RGB array, upright as the phone meant it. Raises ScanImageError for a non-image."""
    return np.asarray(load_photo(source, "RGB"))


# --- Finding the cards --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class FoundCard:
    """One card, rectified upright (grey, CARD_PX), and its centre in the photo."""

    image: np.ndarray
    centre: tuple[float, float]
    #: The card cut square to the row at the row's scale from its circle alone: a second look for a card whose
    #: own outline was fitted to the wrong edges (a neighbour's, a banner's).
    plain: np.ndarray | None = None
    #: The card's corners in the photo (top-left, top-right, bottom-right, bottom-left as the card reads
    #: upright), placed as `plain` is (from its circle, at the row's scale: a whole card even where its own
    #: outline was fitted to a neighbour's edge): where teaching cuts the card out in colour for the editor.
    corners: np.ndarray | None = None
    #: Where a pixel of `image` and of `plain` lies in the photo (3 × 3, cut to photo): the corner characters
    #: are looked at again at the photo's own resolution, finer than the cut's.
    image_to_photo: np.ndarray | None = None
    plain_to_photo: np.ndarray | None = None


@dataclass(frozen=True)
class FoundRow:
    cards: tuple[FoundCard, ...]
    upside_down: bool
    #: The row read the other way up, when its circles fit nearly as well (a letter badge shaped like a number
    #: circle): the cards' faces then tell which way is up (`read_row`, `teach_deck`).
    other_way: FoundRow | None = None


#: A printed edge: the preview's grey changes this much across a 3×3 Sobel (a step of about 10 grey levels); the
#: card is what lies within 1/PRINTED_REACH of the photo's short side of one (a card is 40-70 px of a 480 px side).
PRINTED_EDGE, PRINTED_REACH = 40.0, 60


def _card_mask(preview: np.ndarray) -> np.ndarray:
    """Where the preview (RGB) shows cards rather than table: far, in colour, from every table colour the
    photo's border shows and near printed edges, closed into solid shapes."""
    lab = cv2.cvtColor(preview, cv2.COLOR_RGB2LAB).astype(np.float32)
    h, w = lab.shape[:2]
    band = max(4, min(h, w) // 25)
    edge = np.zeros((h, w), bool)
    edge[:band], edge[-band:], edge[:, :band], edge[:, -band:] = True, True, True, True
    # A lamp lights the table unevenly: take away the smooth (quadratic) trend the border shows, per channel.
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    x, y = x / w - 0.5, y / h - 0.5
    terms = np.stack([np.ones_like(x), x, y, x * x, y * y, x * y], axis=-1)
    fit, *_rest = np.linalg.lstsq(terms[edge], lab[edge], rcond=None)
    lab = lab - terms @ fit
    border = lab[edge]
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 1.0)
    cv2.setRNGSeed(1)
    _compactness, _labels, centres = cv2.kmeans(border, 3, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
    lab = cv2.GaussianBlur(lab, (5, 5), 0)
    distance = np.min([np.linalg.norm(lab - c, axis=2) for c in centres], axis=0)
    spread = float(np.percentile(np.min([np.linalg.norm(border - c, axis=1) for c in centres], axis=0), 98))
    mask = (distance > max(12.0, 2.0 * spread)).astype(np.uint8) * 255
    # A table's colours can vary where its border does not show it (a mat's stripes brighter under the lamp at the
    # middle of the photo), but they vary smoothly; a card is printed all over. What lies far from any printed
    # edge is table, whatever its colour.
    grey = cv2.GaussianBlur(cv2.cvtColor(preview, cv2.COLOR_RGB2GRAY).astype(np.float32), (3, 3), 0)
    printed = (np.hypot(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1)) >
               PRINTED_EDGE).astype(np.uint8)
    reach = max(3, min(h, w) // PRINTED_REACH)
    mask &= cv2.dilate(printed, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1,) * 2)) * 255
    k = max(3, min(h, w) // 60)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3 * k, 3 * k)))
    count, labels, stats, _centroids = cv2.connectedComponentsWithStats(mask)
    if count <= 1:
        return np.zeros_like(mask)
    areas = stats[1:, cv2.CC_STAT_AREA]
    keep = [i + 1 for i, area in enumerate(areas) if area >= 0.15 * areas.max()]
    mask = np.isin(labels, keep).astype(np.uint8) * 255
    # Holes (a card's photo the colour of the table) are card too.
    contours, _hierarchy = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cv2.drawContours(mask, contours, -1, 255, cv2.FILLED)
    return mask


def _row_quad(mask: np.ndarray) -> np.ndarray | None:
    """The row's outline as 4 corners (top-left, top-right, bottom-right, bottom-left along the row)."""
    points = cv2.findNonZero(mask)
    if points is None or len(points) < 50:
        return None
    hull = cv2.convexHull(points)
    perimeter = cv2.arcLength(hull, True)
    # Candidates: the hull simplified to 4 corners at several tolerances (perspective), and the smallest
    # rotated rectangle (none); the one that covers the cards best, and the least else, wins.
    box = cv2.minAreaRect(points)
    candidates = [cv2.boxPoints(box).astype(np.float32)]
    # The hull's extreme points along the box's diagonals: the row's four corners under perspective.
    angle = np.deg2rad(box[2])
    u, v = np.array([np.cos(angle), np.sin(angle)]), np.array([-np.sin(angle), np.cos(angle)])
    rim = hull.reshape(-1, 2).astype(np.float32)
    candidates.append(np.float32([rim[np.argmax(rim @ direction)] for direction in (-u - v, u - v, u + v, -u + v)]))
    for share in (0.003, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.03, 0.04, 0.05, 0.065, 0.08):
        approx = cv2.approxPolyDP(hull, share * perimeter, True)
        if len(approx) == 4 and cv2.isContourConvex(approx):
            corners = approx.reshape(4, 2).astype(np.float32)
            middle = corners.mean(axis=0)
            # corners in turn around the middle (a quadrilateral whose sides cross would cover the row badly)
            order = np.argsort(np.arctan2(corners[:, 1] - middle[1], corners[:, 0] - middle[0]))
            candidates.append(corners[order])

    cards_px = np.count_nonzero(mask)

    def fit(quad: np.ndarray) -> tuple[bool, float]:
        # Whole cards first (a corner cut off loses a card's circle), then the tightest of those.
        drawn = np.zeros_like(mask)
        cv2.fillConvexPoly(drawn, quad.astype(np.int32), 255)
        covered = np.count_nonzero(drawn & mask) / (cards_px or 1)
        return covered >= 0.985, covered if covered < 0.985 else -np.count_nonzero(drawn) / mask.size

    quad = max(candidates, key=fit)
    # Start at the corner that begins a long side, so corners 0→1 run along the row.
    sides = [np.linalg.norm(quad[(i + 1) % 4] - quad[i]) for i in range(4)]
    if sides[0] + sides[2] < sides[1] + sides[3]:
        quad = np.roll(quad, -1, axis=0)
    # Keep the row's "top" towards the photo's top (the card's own orientation is decided later).
    if quad[0][1] + quad[1][1] > quad[2][1] + quad[3][1]:
        quad = np.roll(quad, 2, axis=0)
    along, across = quad[1] - quad[0], quad[3] - quad[0]
    if along[0] * across[1] - along[1] * across[0] < 0:  # clockwise in image coordinates
        quad = quad[[1, 0, 3, 2]]
    return quad


#: The strip is rectified at PX_PER_MM assuming the row's outline is this tall (mm): a card's 88 mm plus what
#: the cards' slight skew and jitter add to the outline.
STRIP_MM = 91
#: Number circles: radius (mm) as publishers print it, and where its centre sits from the card's top-left.
CIRCLE_RADIUS_MM = 5.5
#: The sizes a circle is looked for at (times CIRCLE_RADIUS_MM): printings differ a little. (Sizes in between,
#: for a circle drawn as a thin ring, found more false circles than true ones on the development photos.)
CIRCLE_SIZES = (0.9, 1.0, 1.1)
#: Neighbouring cards' circles lie a card's width (63 mm) plus the gap between them apart: from 2 mm of
#: overlap to a finger's width apart, and a little more for cards laid askew.
PITCH_MM = (58, 74)
#: ... or, at PITCH_COST per millimetre below that range, as close as PITCH_MIN_MM: a row seen at a slant,
#: whose far end the strip shows smaller than its near end. A slant shrinks the pitch card by card; a pitch
#: that drops below the range at once (an icon, 48 mm on from the last card's circle) costs PITCH_DROP_COST
#: per millimetre it drops by more than PITCH_DROP_FREE_MM.
PITCH_MIN_MM, PITCH_COST, PITCH_DROP_FREE_MM, PITCH_DROP_COST = 52, 0.04, 5, 0.06
#: Cards laid overlapping (each over its neighbour by up to 9 mm, its corner marks showing) lie one short pitch
#: apart all along the row: a short pitch within this many mm of the short one before it costs nothing more
#: (paid once per row, not once per card, which made a comb with a card fewer fit better), when the circle
#: there is clear (PITCH_REPEAT_CIRCLE of circle_map's 0..1; a tuning photo's teaching row strung three weak
#: blobs of its pictures, 0.17-0.38, into an eighth card otherwise).
PITCH_REPEAT_MM, PITCH_REPEAT_CIRCLE = 2, 0.5


def circle_map(band: np.ndarray, radii: list[float], angles: int = 32, rows: tuple[int, int] | None = None,
               ) -> np.ndarray:
    """How clearly a circle of one of `radii` (px) is centred on each pixel of `band` (of its `rows`, start
    and end, when given; the rim around them may lie in the rows beyond): along the circle,
    the share of the edge strength that points across the rim, the same way all round (a disc lighter or
    darker than what surrounds it; a letter's strokes or a corner cross the circle both ways), times the share
    of the rim where there is an edge at all (complete, not an arc of a larger blob). 0..1.

    Called a few times a photo, it was 40 % of finding a row's cards in numpy: each step over the rim is done
    in OpenCV's vectorised calls into buffers made once (about 60 ms a call against 90–130 ms, the same map to
    2e-7)."""
    smooth = cv2.GaussianBlur(band.astype(np.float32), (0, 0), 1.0)
    gx, gy = cv2.Sobel(smooth, cv2.CV_32F, 1, 0), cv2.Sobel(smooth, cv2.CV_32F, 0, 1)
    magnitude = np.hypot(gx, gy)
    floor = 0.3 * float(np.percentile(magnitude, 95)) + 1e-3
    first, end = rows if rows is not None else (0, band.shape[0])
    h, w = end - first, band.shape[1]
    reach = int(max(radii)) + 2
    gx, gy, magnitude = (cv2.copyMakeBorder(a, reach, reach, reach, reach, cv2.BORDER_CONSTANT, value=0)
                         for a in (gx, gy, magnitude))
    best = np.zeros((h, w), np.float32)
    signed = np.empty((h, w), np.float32)
    quiet = np.empty((h, w), np.uint8)
    for radius in radii:
        signed_sum, strength, quiet_count = (np.zeros((h, w), np.float32) for _ in range(3))
        for angle in np.linspace(0, 2 * np.pi, angles, endpoint=False):
            c, s = float(np.cos(angle)), float(np.sin(angle))
            dx, dy = round(radius * c), round(radius * s)
            at = (slice(reach + first + dy, reach + first + dy + h), slice(reach + dx, reach + dx + w))
            cv2.addWeighted(gx[at], c, gy[at], s, 0.0, dst=signed)  # the edge strength across the rim there
            cv2.add(signed_sum, signed, dst=signed_sum)
            cv2.add(strength, magnitude[at], dst=strength)
            cv2.inRange(signed, -floor, floor, dst=quiet)  # 255 where no edge crosses the rim
            cv2.accumulate(quiet, quiet_count)
        complete = angles - quiet_count / 255
        best = np.maximum(best, np.abs(signed_sum) / (strength + 1e-3) * complete / angles)
    return best


@dataclass(frozen=True)
class _Comb:
    """The number circles along one edge of the strip: their centres (x, y in strip pixels) and fit."""

    centres: tuple[tuple[float, float], ...]
    score: float
    strengths: tuple[float, ...] = ()  #: how clearly each one is a circle (0..1)


#: Where a circle's centre may lie across the comb's band (mm from its top, 6 mm above the outline): 14 mm as
#: printed, give or take what an outline a little off at one end of the row shifts it by.
CIRCLE_ROWS_MM = (3, 25)
#: Neighbouring circles may sit this far (mm) above or below each other for free (cards laid a little askew);
#: each millimetre more costs this much of a circle's score.
STEP_FREE_MM, STEP_COST = 2.0, 0.15


def _span_max(values: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The largest of `values[start:end]` for each span, and where it is (the first such index); -inf and the
    span's start for an empty one. All spans at once: one call per millimetre was a tenth of finding a row."""
    width = int((ends - starts).max(initial=1))
    at = starts[:, None] + np.arange(width)[None, :]
    inside = at < np.minimum(ends, len(values))[:, None]
    spans = np.where(inside, values[np.clip(at, 0, len(values) - 1)], -np.inf)
    first = spans.argmax(axis=1)
    return spans.max(axis=1), starts + first


def _circle_comb(strip: np.ndarray, px_per_mm: float, left_edges: np.ndarray,
                 reach_mm: tuple[int, int] = (0, 0)) -> _Comb:
    """The row's number circles along the strip's top edge: the first within reach of the strip's left end,
    each next one a card pitch on, the last a card's width from the right end; of the combs that fit, the one
    whose circles stand out most (each circle counts for what it scores above an icon's or a blob's typical
    score, so a comb with one card too many or too few scores less). A number circle has its card's left edge
    8 mm to its left (`left_edges`: per strip column, 0..1, how much a straight edge runs the card's height
    there); the letter's badge of a card seen upside down, or an icon, has none."""
    mm = px_per_mm
    band = strip[: round(CIRCLE_ROWS_MM[1] + 7) * round(mm)]
    centre_rows = circle_map(band, [r * CIRCLE_RADIUS_MM * mm for r in CIRCLE_SIZES],
                             rows=(round(CIRCLE_ROWS_MM[0] * mm), round(CIRCLE_ROWS_MM[1] * mm)))
    column = centre_rows.max(axis=0)
    best_y = centre_rows.argmax(axis=0) + round(CIRCLE_ROWS_MM[0] * mm)
    # One score per millimetre along the strip (the best circle within it).
    length_mm = int(strip.shape[1] / mm)
    millimetres = np.arange(length_mm)
    starts = np.round(millimetres * mm).astype(int)
    per_mm, where = _span_max(column, starts, np.maximum(starts + 1, np.round((millimetres + 1) * mm).astype(int)))
    edge_at, _where = _span_max(left_edges, np.maximum(0, np.round((millimetres - 8.5) * mm).astype(int)),
                                np.maximum(1, np.round((millimetres - 7) * mm).astype(int)))
    edge_at = np.maximum(edge_at, 0)  # 0..1 and never below nothing, as `max(initial=0)` had it
    gain = per_mm + 0.5 * edge_at - 0.7
    circle_y = best_y[where].astype(np.float32)
    # The row's outline may have missed a card at either end (a card the colour of the table): `reach_mm` of
    # the photo beyond the left and the right end is searched too, and the comb may start and end anywhere in it.
    first = range(2, min(length_mm, 26 + reach_mm[0]))
    last_from = length_mm - 63 + 1
    # dynamic programming: best[k] = best total gain of a comb ending with a circle at millimetre k
    best = np.full(length_mm, -np.inf)
    before = np.full(length_mm, -1)
    for k in first:
        best[k] = gain[k]
    # A circle's predecessors lie at least PITCH_MIN_MM before it, so a block of that many millimetres depends
    # only on what lies before the block: each block is settled at once (one step per millimetre in turn was a
    # fifth of finding a row's cards). Of predecessors as good, the farthest (the longest pitch) is taken.
    pitches = np.arange(PITCH_MM[1], PITCH_MIN_MM - 1, -1)
    for block_start in range(PITCH_MIN_MM, length_mm, PITCH_MIN_MM):
        ks = np.arange(block_start, min(length_mm, block_start + PITCH_MIN_MM))
        at_all = ks[:, None] - pitches[None, :]
        valid = at_all >= 0
        at = np.maximum(at_all, 0)
        pitch = ks[:, None] - at
        earlier = before[at]
        pitch_before = np.where(earlier >= 0, at - earlier, pitch)
        # A short pitch like the one before it is the same overlap (or slant) again: it was paid for once.
        # Only for a clear circle: weak blobs (a picture's detail) strung at a short pitch are no row.
        repeated = (earlier >= 0) & (pitch_before < PITCH_MM[0]) & \
            (np.abs(pitch - pitch_before) <= PITCH_REPEAT_MM) & (per_mm[ks] >= PITCH_REPEAT_CIRCLE)[:, None]
        short = (pitch < PITCH_MM[0]) & ~repeated
        # A row's circles lie on one line across the rectified strip: a step up or down costs.
        window = best[at] - STEP_COST * np.maximum(0, np.abs(circle_y[at] - circle_y[ks][:, None]) / mm
                                                   - STEP_FREE_MM) \
            - short * (PITCH_COST * (PITCH_MM[0] - pitch)
                       + PITCH_DROP_COST * np.maximum(0, pitch_before - pitch - PITCH_DROP_FREE_MM))
        window[~valid] = -np.inf
        top, i = window.max(axis=1), window.argmax(axis=1)
        chained = top + gain[ks]
        better = np.isfinite(top) & (chained > best[ks])
        best[ks[better]] = chained[better]
        before[ks[better]] = at[np.flatnonzero(better), i[better]]
    ends = [k for k in range(max(0, last_from - 14 - reach_mm[1]), min(length_mm, last_from + 12))
            if np.isfinite(best[k])]
    if not ends:
        return _Comb((), -np.inf)
    k = max(ends, key=lambda e: best[e])
    total = float(best[k])
    chain = []
    while k >= 0:
        chain.append(k)
        k = int(before[k])
    chain.reverse()
    return _Comb(tuple((float(where[k]), float(best_y[where[k]])) for k in chain), total,
                 tuple(float(per_mm[k]) for k in chain))


#: The strip is warped with this much of the photo around the row's outline (mm): the outline found on the
#: preview may be a little tight, and a card's edges must be inside the strip to be measured.
AROUND_MM = 12
#: A card the colour of the table may be missing from the row's outline: the cards are looked for this far (mm,
#: a card and a gap) beyond each end of the outline too.
REACH_MM = 70


def _card_scale(edges: np.ndarray, cx: float, cy: float, mm: float) -> float:
    """How much larger than nominal (PX_PER_MM) the card whose number circle is at (cx, cy) appears: the
    scale whose predicted top edge (8 mm above the circle's centre) and bottom edge (88 mm below the top)
    both lie on strong horizontal edges across the card's left part (`edges`: vertical gradient strength).
    Measured against the left and top edges alone (8 mm from the circle) it reads fewer cards."""
    x0, x1 = max(0, round(cx - 5 * mm)), min(edges.shape[1], round(cx + 40 * mm))
    profile = edges[:, x0:x1].mean(axis=1) if x1 > x0 else np.zeros(edges.shape[0])
    profile = np.maximum.reduce([np.roll(profile, k) for k in (-1, 0, 1)])
    best, best_k = -1.0, 1.0
    for k in np.arange(0.8, 1.35, 0.01):
        top, bottom = round(cy - 8 * k * mm), round(cy + (CARD_MM[1] - 8) * k * mm)
        if top < 0 or bottom >= len(profile):
            continue
        fit = float(profile[top] + profile[bottom])
        if fit > best:
            best, best_k = fit, float(k)
    return best_k


def _left_edges(strip: np.ndarray) -> np.ndarray:
    """Per column of the strip, 0..1: how strongly a card's left edge runs there, from the table (or the
    card beneath) to the card on its right, over most of the card's height: the median across the rows of the
    horizontal brightness change, relative to the strip's strongest such columns. The icons and the banner's
    ends repeat from card to card with the same pitch but run only a short way down."""
    smooth = cv2.GaussianBlur(strip.astype(np.float32), (0, 0), 1.5)
    across = np.abs(cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3))
    across = np.maximum(across, np.roll(across, 1, axis=1))  # a card laid askew: its edge spans two columns
    column = np.median(np.ascontiguousarray(across.T), axis=1)  # each column's values side by side: 1.5× faster
    return np.clip(column / (float(np.percentile(column, 99)) + 1e-3), 0, 1)


def _preview_shrink(gray: np.ndarray) -> float:
    """How much the photo is shrunk for the preview its row's outline is found in (PREVIEW_PX on its long side)."""
    return PREVIEW_PX / max(gray.shape)


def find_cards(rgb: np.ndarray, gray: np.ndarray | None = None) -> FoundRow:
    """Every card in the photo, rectified upright (grey, CARD_PX), in row order (Throw first)."""
    return find_rows(rgb, gray)[0]


def find_rows(rgb: np.ndarray, gray: np.ndarray | None = None, expected: int | None = None) -> list[FoundRow]:
    """The row as its outline gives it (as `find_cards`), first. Given how many cards the photo holds
    (`expected`) and that row holds another count either way up, also the rows found along outlines wider,
    narrower or longer (`_other_outlines`) that hold that many, best comb of circles first: along a wrong
    outline the table's or a picture's blobs can fill in a comb too, so the caller checks them."""
    gray = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY) if gray is None else gray
    h, w = gray.shape
    shrink = _preview_shrink(gray)
    # at least a pixel each way: a photo a pixel high (1 × 1500) would otherwise shrink to no rows at all
    preview = cv2.resize(rgb, (max(1, round(w * shrink)), max(1, round(h * shrink))), interpolation=cv2.INTER_AREA)
    quad = _row_quad(_card_mask(preview))
    if quad is None:
        return [FoundRow((), False)]
    found = _row_along(gray, quad / shrink)
    rows = [found.row if found is not None else FoundRow((), False)]
    if expected is None or _holds(rows[0], expected):
        return rows
    others = [other for other in (_row_along(gray, outline / shrink) for outline in _other_outlines(quad))
              if other is not None and _holds(other.row, expected)]
    return rows + [other.row for other in sorted(others, key=lambda other: -other.comb.score)]


def _holds(row: FoundRow, count: int) -> bool:
    """Whether the row holds `count` cards one way up or the other."""
    return count in (len(row.cards), len(row.other_way.cards) if row.other_way is not None else -1)


#: When the row's outline found by its colours gives the wrong count of cards (the part of the cards the colour
#: of a striped mat was left out, or a stripe the colour of the cards was taken in), the outline is tried this
#: many times wider or narrower, kept along either long side ...
OUTLINE_WIDENINGS = (1.4, 1.8, 0.75)
#: ... or longer at one end by this share of its width across: about a card's width (63 mm of 88).
OUTLINE_LONGER = 0.8


def _other_outlines(quad: np.ndarray) -> list[np.ndarray]:
    """The row's outline (top-left, top-right, bottom-right, bottom-left) widened or narrowed across the row by
    each of OUTLINE_WIDENINGS, once keeping its top edge and once its bottom edge; and made longer at one end
    or the other (OUTLINE_LONGER)."""
    top_left, top_right, bottom_right, bottom_left = quad
    outlines = []
    for factor in OUTLINE_WIDENINGS:
        outlines.append(np.float32([top_left, top_right, top_right + factor * (bottom_right - top_right),
                                    top_left + factor * (bottom_left - top_left)]))
        outlines.append(np.float32([bottom_left + factor * (top_left - bottom_left),
                                    bottom_right + factor * (top_right - bottom_right), bottom_right, bottom_left]))
    # ... and longer by about a card's width at either end: cards at an end the colour of the table.
    along = (top_right - top_left) / (np.linalg.norm(top_right - top_left) + 1e-6)
    longer = OUTLINE_LONGER * np.linalg.norm(bottom_left - top_left) * along
    outlines.append(np.float32([top_left - longer, top_right, bottom_right, bottom_left - longer]))
    outlines.append(np.float32([top_left, top_right + longer, bottom_right + longer, bottom_left]))
    return outlines


def _row_along(gray: np.ndarray, quad: np.ndarray) -> _Found | None:
    """The cards of the row whose outline is `quad` (photo pixels), or None for an outline no row fits."""
    along = (np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2
    across = (np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2
    if across < 8 / _preview_shrink(gray) or along < 0.5 * across:  # under 8 px across in the preview
        return None
    mm = PX_PER_MM
    inner_h = STRIP_MM * mm
    inner_w = max(1, round(along / across * inner_h))
    if inner_w < 60 * mm:
        return None
    around = AROUND_MM * mm
    # The outline misses cards the colour of the table (a patterned cloth): while the comb finds a card beyond
    # one end of what the strip was first meant to hold, the strip grows that way and the comb is looked for again.
    beyond = [REACH_MM, REACH_MM]  # mm of the photo the strip holds beyond the outline's left and right ends
    found = _cards_along(gray, quad, inner_w, inner_h, around, beyond)
    for _growth in range(GROWTH_STEPS):
        grow = [side for side in (0, 1) if found.outer[side] > beyond[side] - REACH_MM + GROW_WHEN_MM]
        room = MAX_STRIP_MM - (inner_w / mm + sum(beyond))
        if not grow or room < GROW_MM / 2:
            break
        for side in grow:
            beyond[side] = round(beyond[side] + min(GROW_MM, room / len(grow)))
        grown = _cards_along(gray, quad, inner_w, inner_h, around, beyond)
        # A card more at a grown end must be a clear circle: a faint one there is the table's pattern.
        if len(grown.row.cards) > len(found.row.cards) and any(
                grown.end_strengths[side] < LEVEL_STRENGTH for side in grow):
            break
        found = grown
    return found


#: A card found further than this (mm) beyond the part of the strip first searched grows the strip that way,
#: by GROW_MM, at most GROWTH_STEPS times, and never past MAX_STRIP_MM all along (nine cards and their gaps).
GROW_WHEN_MM, GROW_MM, GROWTH_STEPS, MAX_STRIP_MM = 20, 140, 3, 640


@dataclass(frozen=True)
class _Found:
    row: FoundRow
    outer: tuple[float, float]  #: how far (mm) the row's first and last card reach beyond the outline's ends
    end_strengths: tuple[float, float]  #: how clearly the first and last card's circles are circles (0..1)
    comb: _Comb  #: the row's circles, the way up taken


def _cards_along(gray: np.ndarray, quad: np.ndarray, inner_w: int, inner_h: int, around: int,
                 beyond: list[int]) -> _Found:
    """The cards along the row whose outline is `quad` (photo pixels), in a strip holding `beyond` mm of the
    photo past the outline's left and right ends."""
    mm = PX_PER_MM
    left, right = (around + b * mm for b in beyond)
    strip_w, strip_h = inner_w + left + right, inner_h + 2 * around
    target = np.float32([[left, around], [left + inner_w, around], [left + inner_w, around + inner_h],
                         [left, around + inner_h]])
    to_strip = cv2.getPerspectiveTransform(quad, target)
    # The comb is looked for from 6 mm above the outline's top (a tight outline) on, within the outline's length
    # and the reach beyond either end; the row seen upright, and turned (photographed from across the table).
    top_band = around - 6 * mm
    turn = np.array([[-1, 0, strip_w - 1], [0, -1, strip_h - 1], [0, 0, 1]], np.float64)
    ways = []
    for to_image, reach in ((to_strip, (beyond[0], beyond[1])), (turn @ to_strip, (beyond[1], beyond[0]))):
        image, comb = _comb_of(gray, to_image, (strip_w, strip_h), around, top_band, inner_h, reach)
        # The outline may be off at one end (a card missed, a shadow): the circles' own line says where the
        # row's top runs. Warped again along it, every circle sits where the comb looks for it.
        level = _level_along_circles(comb, around, top_band)
        if level is not None:
            to_image = level @ to_image
            image, comb = _comb_of(gray, to_image, (strip_w, strip_h), around, top_band, inner_h, reach)
        ways.append((comb, image, to_image, reach))
    upside_down = ways[1][0].score > ways[0][0].score
    chosen, other = (ways[1], ways[0]) if upside_down else (ways[0], ways[1])
    cards = _cut_cards(chosen[0], chosen[1], np.linalg.inv(chosen[2]), around, top_band)
    other_way = None
    if min(chosen[0].score, other[0].score) >= OTHER_WAY_SHARE * chosen[0].score > 0:
        other_way = FoundRow(_cut_cards(other[0], other[1], np.linalg.inv(other[2]), around, top_band),
                             not upside_down)
    # How far the comb's end cards lie beyond the outline (its circles are 8 mm in from a card's left edge).
    centres, reach = chosen[0].centres, chosen[3]
    outer, end_strengths = (0.0, 0.0), (0.0, 0.0)
    if centres:
        first_edge = centres[0][0] / mm - 8
        last_edge = centres[-1][0] / mm - 8 + CARD_MM[0]
        outer = (reach[0] - first_edge, last_edge - (strip_w - 2 * around) / mm + reach[1])
        end_strengths = (chosen[0].strengths[0], chosen[0].strengths[-1])
        if upside_down:
            outer, end_strengths = (outer[1], outer[0]), (end_strengths[1], end_strengths[0])
    return _Found(FoundRow(cards, upside_down, other_way), outer, end_strengths, chosen[0])


def _comb_of(gray: np.ndarray, to_image: np.ndarray, size: tuple[int, int], around: int, top_band: int,
             inner_h: int, reach_mm: tuple[int, int]) -> tuple[np.ndarray, _Comb]:
    """The strip warped from the photo by `to_image`, and the comb of circles along its top."""
    image = cv2.warpPerspective(gray, to_image, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    strip_w = size[0]
    comb = _circle_comb(np.ascontiguousarray(image[top_band:, around:strip_w - around]), PX_PER_MM,
                        _left_edges(image[around:around + inner_h, around:strip_w - around]), reach_mm)
    return image, comb


#: Circles this clear say where the row's top runs (at least LEVEL_CIRCLES of them).
LEVEL_STRENGTH, LEVEL_CIRCLES = 0.6, 3


def _level_along_circles(comb: _Comb, around: int, top_band: int) -> np.ndarray | None:
    """A shear of the strip (3 × 3) that puts the comb's clear circles on the line where circles belong
    (8 mm below the outline's top), or None when fewer than LEVEL_CIRCLES are clear."""
    clear = [(x + around, y + top_band) for (x, y), strength in zip(comb.centres, comb.strengths, strict=True)
             if strength >= LEVEL_STRENGTH]
    if len(clear) < LEVEL_CIRCLES:
        return None
    xs, ys = np.array(clear).T
    slope, at_zero = np.polyfit(xs, ys, 1)
    expected = around + 8 * PX_PER_MM
    return np.array([[1, 0, 0], [-slope, 1, expected - at_zero], [0, 0, 1]], np.float64)


#: The row's other way up is kept when its comb of circles scores at least this share of the best one's.
OTHER_WAY_SHARE = 0.6


def _along(strength: np.ndarray, starts: np.ndarray, step: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """For each of K lines, the mean of `strength` along `counts[i]` pixels from `starts[i]` (K × 2), `step`
    apart (nearest pixel; a pixel outside counts as nothing). All lines at once: one call per line was a tenth
    of finding a row's cards."""
    starts = starts.astype(np.float32)
    t = np.arange(int(counts.max()), dtype=np.float32)[None, :, None]
    points = np.rint(starts[:, None, :] + t * step.astype(np.float32)[None, None, :]).astype(int)
    h, w = strength.shape
    inside = (points[..., 0] >= 0) & (points[..., 0] < w) & (points[..., 1] >= 0) & (points[..., 1] < h) \
        & (t[..., 0] < counts[:, None])
    values = np.where(inside, strength[np.clip(points[..., 1], 0, h - 1), np.clip(points[..., 0], 0, w - 1)], 0)
    return values.sum(axis=1) / counts


#: A card's own outline: its left edge may lean this much (tangent) in the strip, its top edge this much (cards
#: laid askew, and what the row's rectification leaves of the photo's perspective: a shear) ...
OUTLINE_LEAN, OUTLINE_TILT = 0.2, 0.08
#: ... its left and top edges lie within this many mm of where its circle puts them, and its size within
#: these factors of the row's.
OUTLINE_SLACK_MM, OUTLINE_SCALE = 4, (0.9, 1.12)


def _best_line(strength: np.ndarray, fixed: np.ndarray, moving: np.ndarray, pivot: float,
               slopes: np.ndarray) -> tuple[float, float]:
    """The line of `strength` (a 2-D array indexed [fixed, moving]) that is strongest on average over the
    `fixed` coordinates: moving = m + slope * (fixed - pivot), for m in `moving` and slope in `slopes`.
    Returns (m, slope)."""
    size = strength.shape[1]
    best, found = -1.0, (float(moving[len(moving) // 2]), 0.0)
    for slope in slopes:
        shift = np.rint(slope * (fixed - pivot)).astype(int)
        columns = np.clip(np.rint(moving).astype(int)[None, :] + shift[:, None], 0, size - 1)
        totals = strength[np.clip(fixed, 0, strength.shape[0] - 1)[:, None], columns].mean(axis=0)
        at = int(np.argmax(totals))
        if totals[at] > best:
            best, found = float(totals[at]), (float(moving[at]), float(slope))
    return found


def _outline(across: np.ndarray, down_edges: np.ndarray, cx: float, cy: float, row_scale: float,
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The card whose number circle is at (cx, cy) in the strip: its top-left corner (px) and the vectors of
    one millimetre along its top edge and down its left edge. Fitted to its own edges: the left edge (which no
    neighbour covers) and the top edge, each with its lean, then the size whose bottom and right edges lie on
    edges too and where the left edge ends (`across`, `down_edges`: the strip's horizontal and vertical
    brightness change)."""
    mm = PX_PER_MM
    k0 = row_scale
    slack = OUTLINE_SLACK_MM * mm
    # Left edge: x = x0 + lean * (y - cy), over the card's height below the circle (clear of its corners).
    rows = np.arange(round(cy - 2 * mm), round(cy + 60 * k0 * mm))
    x0, lean = _best_line(across, rows, np.arange(cx - 8 * k0 * mm - slack, cx - 8 * k0 * mm + slack + 1), cy,
                          np.linspace(-OUTLINE_LEAN, OUTLINE_LEAN, 21))
    # Top edge: y = y0 + tilt * (x - cx), across the card's left part (clear of its rounded corner).
    columns = np.arange(round(x0 + 5 * mm), round(x0 + 45 * k0 * mm))
    y0, tilt = _best_line(down_edges.T, columns, np.arange(cy - 8 * k0 * mm - slack, cy - 8 * k0 * mm + slack + 1),
                          cx, np.linspace(-OUTLINE_TILT, OUTLINE_TILT, 9))
    # Where they meet: x = x0 + lean (y - cy), y = y0 + tilt (x - cx).
    y = (y0 + tilt * (x0 - lean * cy - cx)) / (1 - tilt * lean)
    corner = np.array([x0 + lean * (y - cy), y])
    down = np.array([lean, 1.0]) / np.hypot(lean, 1.0)
    right = np.array([1.0, tilt]) / np.hypot(tilt, 1.0)
    # Size: the bottom and right edges a card's height and width on from the corner ...
    k = np.arange(OUTLINE_SCALE[0] * k0, OUTLINE_SCALE[1] * k0, 0.005)[:, None]
    bottom = corner + CARD_MM[1] * k * mm * down + 5 * mm * right
    side = corner + CARD_MM[0] * k * mm * right + 10 * mm * down
    # ... and the left edge runs down to the bottom edge and no further (a banner's edge is not the bottom).
    above = corner + (CARD_MM[1] * k - 12) * mm * down
    below = corner + (CARD_MM[1] * k + 3) * mm * down
    k, edge = k[:, 0], np.full(len(k), 9 * mm)
    fit = (_along(down_edges, bottom, right, np.round(40 * k * mm)) + _along(across, side, down, np.round(60 * k * mm))
           + _along(across, above, down, edge) - _along(across, below, down, edge))
    size = float(k[int(np.argmax(fit))])
    return corner, size * right, size * down


def _cut_cards(comb: _Comb, source: np.ndarray, back: np.ndarray, around: int, top_band: int,
               ) -> tuple[FoundCard, ...]:
    """Each card of the comb cut out of the rectified strip (`source`, the cards upright in it), and its middle
    in the photo (`back`: strip to photo)."""
    mm = PX_PER_MM
    smooth = cv2.GaussianBlur(source.astype(np.float32), (0, 0), 1.2)
    edges = np.abs(cv2.Sobel(smooth, cv2.CV_32F, 0, 1))
    centres = [(cx + around, cy + top_band) for cx, cy in comb.centres]
    # The row's scale (its cards' median) is where each card's own outline is looked for.
    row_scale = float(np.median([_card_scale(edges, cx, cy, mm) for cx, cy in centres])) if centres else 1.0
    across = np.abs(cv2.Sobel(smooth, cv2.CV_32F, 1, 0))
    cards = []
    square = np.array([row_scale, 0.0]), np.array([0.0, row_scale])
    for cx, cy in centres:
        corner, right, down = _outline(across, edges, cx, cy, row_scale)
        middle = corner + CARD_MM[0] * mm / 2 * right + CARD_MM[1] * mm / 2 * down
        centre = back @ np.array([middle[0], middle[1], 1.0])
        plain_corner = np.array([cx, cy]) - 8 * mm * (square[0] + square[1])
        width, height = CARD_MM[0] * mm * square[0], CARD_MM[1] * mm * square[1]
        in_strip = np.float64([plain_corner, plain_corner + width, plain_corner + width + height,
                               plain_corner + height])
        in_photo = cv2.perspectiveTransform(in_strip.reshape(-1, 1, 2), back).reshape(4, 2).astype(np.float32)
        (image, image_to_strip), (plain, plain_to_strip) = (_cut(source, corner, right, down),
                                                             _cut(source, plain_corner, *square))
        cards.append(FoundCard(image, (float(centre[0] / centre[2]), float(centre[1] / centre[2])), plain,
                               in_photo, back @ image_to_strip, back @ plain_to_strip))
    return tuple(cards)


def _cut(source: np.ndarray, corner: np.ndarray, right: np.ndarray, down: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The card whose top-left corner is at `corner` in `source`, `right` and `down` one millimetre along its
    top and left edges, cut out upright (CARD_PX, with PAD_MM of what surrounds it), and where each of the
    cut's pixels lies in `source` (3 × 3)."""
    mm = PX_PER_MM
    box = np.float32([corner - PAD_MM * mm * (right + down),
                      corner + (CARD_MM[0] + PAD_MM) * mm * right - PAD_MM * mm * down,
                      corner - PAD_MM * mm * right + (CARD_MM[1] + PAD_MM) * mm * down])
    cut = np.float32([[0, 0], [CARD_PX[0], 0], [0, CARD_PX[1]]])
    card = cv2.warpAffine(source, cv2.getAffineTransform(box, cut), CARD_PX, flags=cv2.INTER_AREA,
                          borderMode=cv2.BORDER_REPLICATE)
    return np.ascontiguousarray(card), np.vstack([cv2.getAffineTransform(cut, box), [0.0, 0.0, 1.0]])
