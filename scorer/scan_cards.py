"""Read the publisher's printed cards (no QR code) from one photo of a row, and learn a player's own deck.

Pure and Flet-free (OpenCV + numpy); only `scorer.scan` and the scan commands import it, lazily, so the
browser build never loads OpenCV.

How a row is read:
1. **The row**: the table is what the photo's border shows; everything far from the table's colours is card.
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
   decide.
3. **Reading** (after `teach_deck`): a taught card is recognised by its face, the keypoints of its picture,
   banner and icons (SIFT) that agree on one upright placement of it; its number, inside its circle, is
   compared with the taught circles (the checksum): a number that clearly reads another digit names the
   problem, and a faint recognition needs the number to confirm it. Anything less reads `?`, never a guess.
   Untaught, the corner letter and number are matched against tourpad's fonts (rarely sure).
"""

from __future__ import annotations

import contextlib
import json
import re
import time
import zipfile
from dataclasses import dataclass, field, fields
from functools import cache, cached_property
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from assets import FONT_DIR, SHIPPED_FONTS
from rules.edition import Edition
from rules.engine import HAND_SIZE
from scorer.locale import _
from scorer.scan_image import ScanImageError, load_photo
from scorer.userfile import shown

CARD_MM = (63, 88)
#: The rectified card's resolution: enough for a corner letter ~7 mm tall to show ~28 px.
PX_PER_MM = 4
#: Each card is cut out with this much of its surroundings (mm): where a card's edge was found a little
#: off, its corner marks are still inside the cut.
PAD_MM = 4
CARD_PX = ((CARD_MM[0] + 2 * PAD_MM) * PX_PER_MM, (CARD_MM[1] + 2 * PAD_MM) * PX_PER_MM)
#: Corner regions (x0, y0, x1, y1 in mm, in the padded cut) of an upright card: the number's circle and the
#: letter. Publishers print them about 8 mm in from the left edge, 8 mm from the top and 9 mm from the bottom.
NUMBER_BOX_MM = (0, 0, 2 * PAD_MM + 16, 2 * PAD_MM + 16)
LETTER_BOX_MM = (0, CARD_MM[1] - 18, 2 * PAD_MM + 18, CARD_MM[1] + 2 * PAD_MM)
NUMBER_CENTRE_MM = (PAD_MM + 8, PAD_MM + 8)
#: Segmentation runs on a preview this many pixels long (cheap), the letters on the full-resolution grey.
PREVIEW_PX = 640
#: Certainty: the best template must score at least this, beat the best other letter by this much and (taught)
#: lie this many times closer to a perfect match than the next (see `_certain`).
TAUGHT_MIN, TAUGHT_MARGIN, TAUGHT_RATIO = 0.85, 0.04, 2.5
FONT_MIN, FONT_MARGIN = 0.8, 0.15



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


@dataclass(frozen=True)
class FoundRow:
    cards: tuple[FoundCard, ...]
    upside_down: bool
    #: The row read the other way up, when its circles fit nearly as well (a letter badge shaped like a number
    #: circle): the cards' faces then tell which way is up (`read_row`, `teach_deck`).
    other_way: FoundRow | None = None


def _card_mask(preview: np.ndarray) -> np.ndarray:
    """Where the preview (RGB) shows cards rather than table: far, in colour, from every table colour the
    photo's border shows, closed into solid shapes."""
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


def _circle_map(band: np.ndarray, radii: list[float], angles: int = 32) -> np.ndarray:
    """How clearly a circle of one of `radii` (px) is centred on each pixel of `band`: along the circle,
    the share of the edge strength that points across the rim, the same way all round (a disc lighter or
    darker than what surrounds it; a letter's strokes or a corner cross the circle both ways), times the share
    of the rim where there is an edge at all (complete, not an arc of a larger blob). 0..1."""
    smooth = cv2.GaussianBlur(band.astype(np.float32), (0, 0), 1.0)
    gx, gy = cv2.Sobel(smooth, cv2.CV_32F, 1, 0), cv2.Sobel(smooth, cv2.CV_32F, 0, 1)
    magnitude = np.hypot(gx, gy)
    floor = 0.3 * float(np.percentile(magnitude, 95)) + 1e-3
    h, w = band.shape
    reach = int(max(radii)) + 2
    gx, gy, magnitude = (cv2.copyMakeBorder(a, reach, reach, reach, reach, cv2.BORDER_CONSTANT, value=0)
                         for a in (gx, gy, magnitude))
    best = np.zeros((h, w), np.float32)
    for radius in radii:
        signed_sum = np.zeros((h, w), np.float32)
        strength = np.zeros((h, w), np.float32)
        complete = np.zeros((h, w), np.float32)
        for angle in np.linspace(0, 2 * np.pi, angles, endpoint=False):
            c, s = float(np.cos(angle)), float(np.sin(angle))
            dx, dy = round(radius * c), round(radius * s)
            at = (slice(reach + dy, reach + dy + h), slice(reach + dx, reach + dx + w))
            signed = gx[at] * c + gy[at] * s
            signed_sum += signed
            strength += magnitude[at]
            complete += np.abs(signed) > floor
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
    scores = _circle_map(band, [r * CIRCLE_RADIUS_MM * mm for r in CIRCLE_SIZES])
    centre_rows = scores[round(CIRCLE_ROWS_MM[0] * mm): round(CIRCLE_ROWS_MM[1] * mm)]
    column = centre_rows.max(axis=0)
    best_y = centre_rows.argmax(axis=0) + round(CIRCLE_ROWS_MM[0] * mm)
    # One score per millimetre along the strip (the best circle within it).
    length_mm = int(strip.shape[1] / mm)
    per_mm = np.array([column[round(k * mm): max(round(k * mm) + 1, round((k + 1) * mm))].max()
                       for k in range(length_mm)])
    where = [round(k * mm) + int(np.argmax(column[round(k * mm): max(round(k * mm) + 1, round((k + 1) * mm))]))
             for k in range(length_mm)]
    edge_at = np.array([left_edges[max(0, round((k - 8.5) * mm)): max(1, round((k - 7) * mm))].max(initial=0)
                        for k in range(length_mm)])
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
    for k in range(length_mm):
        lo, hi = k - PITCH_MM[1], k - PITCH_MIN_MM
        if hi < 0:
            continue
        # A row's circles lie on one line across the rectified strip: a step up or down costs.
        at = np.arange(max(0, lo), hi + 1)
        pitch = k - at
        pitch_before = np.where(before[at] >= 0, at - before[at], pitch)
        short = pitch < PITCH_MM[0]
        window = best[at] - STEP_COST * np.maximum(0, np.abs(circle_y[at] - circle_y[k]) / mm - STEP_FREE_MM) \
            - short * (PITCH_COST * (PITCH_MM[0] - pitch)
                       + PITCH_DROP_COST * np.maximum(0, pitch_before - pitch - PITCH_DROP_FREE_MM))
        if window.size and np.isfinite(window.max()):
            i = int(np.argmax(window))
            if window[i] + gain[k] > best[k]:
                best[k], before[k] = window[i] + gain[k], at[i]
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
    column = np.median(across, axis=0)
    return np.clip(column / (float(np.percentile(column, 99)) + 1e-3), 0, 1)


def find_cards(rgb: np.ndarray, gray: np.ndarray | None = None) -> FoundRow:
    """Every card in the photo, rectified upright (grey, CARD_PX), in row order (Throw first)."""
    gray = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY) if gray is None else gray
    h, w = gray.shape
    shrink = PREVIEW_PX / max(h, w)
    # at least a pixel each way: a photo a pixel high (1 × 1500) would otherwise shrink to no rows at all
    preview = cv2.resize(rgb, (max(1, round(w * shrink)), max(1, round(h * shrink))), interpolation=cv2.INTER_AREA)
    quad = _row_quad(_card_mask(preview))
    if quad is None:
        return FoundRow((), False)
    along = (np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2
    across = (np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2
    if across < 8 or along < 0.5 * across:
        return FoundRow((), False)
    mm = PX_PER_MM
    inner_h = STRIP_MM * mm
    inner_w = max(1, round(along / across * inner_h))
    if inner_w < 60 * mm:
        return FoundRow((), False)
    around = AROUND_MM * mm
    # The outline misses cards the colour of the table (a patterned cloth): while the comb finds a card beyond
    # one end of what the strip was first meant to hold, the strip grows that way and the comb is looked for again.
    beyond = [REACH_MM, REACH_MM]  # mm of the photo the strip holds beyond the outline's left and right ends
    found = _cards_along(gray, quad / shrink, inner_w, inner_h, around, beyond)
    for _growth in range(GROWTH_STEPS):
        grow = [side for side in (0, 1) if found.outer[side] > beyond[side] - REACH_MM + GROW_WHEN_MM]
        room = MAX_STRIP_MM - (inner_w / mm + sum(beyond))
        if not grow or room < GROW_MM / 2:
            break
        for side in grow:
            beyond[side] = round(beyond[side] + min(GROW_MM, room / len(grow)))
        grown = _cards_along(gray, quad / shrink, inner_w, inner_h, around, beyond)
        # A card more at a grown end must be a clear circle: a faint one there is the table's pattern.
        if len(grown.row.cards) > len(found.row.cards) and any(
                grown.end_strengths[side] < LEVEL_STRENGTH for side in grow):
            break
        found = grown
    return found.row


#: A card found further than this (mm) beyond the part of the strip first searched grows the strip that way,
#: by GROW_MM, at most GROWTH_STEPS times, and never past MAX_STRIP_MM all along (nine cards and their gaps).
GROW_WHEN_MM, GROW_MM, GROWTH_STEPS, MAX_STRIP_MM = 20, 140, 3, 640


@dataclass(frozen=True)
class _Found:
    row: FoundRow
    outer: tuple[float, float]  #: how far (mm) the row's first and last card reach beyond the outline's ends
    end_strengths: tuple[float, float]  #: how clearly the first and last card's circles are circles (0..1)


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
    return _Found(FoundRow(cards, upside_down, other_way), outer, end_strengths)


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


def _along(strength: np.ndarray, start: np.ndarray, step: np.ndarray, count: int) -> float:
    """The mean of `strength` along a line of `count` pixels from `start`, `step` apart (nearest pixel)."""
    t = np.arange(count, dtype=np.float32)[:, None]
    points = np.rint(start[None, :] + t * step[None, :]).astype(int)
    h, w = strength.shape
    inside = (points[:, 0] >= 0) & (points[:, 0] < w) & (points[:, 1] >= 0) & (points[:, 1] < h)
    if not inside.any():
        return 0.0
    return float(strength[points[inside, 1], points[inside, 0]].sum() / count)


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
    # Size: the bottom and right edges a card's height and width on from the corner.
    size_best = (-np.inf, k0)
    for k in np.arange(OUTLINE_SCALE[0] * k0, OUTLINE_SCALE[1] * k0, 0.005):
        bottom = corner + CARD_MM[1] * k * mm * down + 5 * mm * right
        side = corner + CARD_MM[0] * k * mm * right + 10 * mm * down
        # ... and the left edge runs down to the bottom edge and no further (a banner's edge is not the bottom).
        above = corner + (CARD_MM[1] * k - 12) * mm * down
        below = corner + (CARD_MM[1] * k + 3) * mm * down
        fit = (_along(down_edges, bottom.astype(np.float32), right.astype(np.float32), round(40 * k * mm))
               + _along(across, side.astype(np.float32), down.astype(np.float32), round(60 * k * mm))
               + _along(across, above.astype(np.float32), down.astype(np.float32), 9 * mm)
               - _along(across, below.astype(np.float32), down.astype(np.float32), 9 * mm))
        if fit > size_best[0]:
            size_best = (fit, float(k))
    k = size_best[1]
    return corner, k * right, k * down


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
        cards.append(FoundCard(_cut(source, corner, right, down),
                               (float(centre[0] / centre[2]), float(centre[1] / centre[2])),
                               _cut(source, plain_corner, *square)))
    return tuple(cards)


def _cut(source: np.ndarray, corner: np.ndarray, right: np.ndarray, down: np.ndarray) -> np.ndarray:
    """The card whose top-left corner is at `corner` in `source`, `right` and `down` one millimetre along its
    top and left edges, cut out upright (CARD_PX, with PAD_MM of what surrounds it)."""
    mm = PX_PER_MM
    box = np.float32([corner - PAD_MM * mm * (right + down),
                      corner + (CARD_MM[0] + PAD_MM) * mm * right - PAD_MM * mm * down,
                      corner - PAD_MM * mm * right + (CARD_MM[1] + PAD_MM) * mm * down])
    cut = np.float32([[0, 0], [CARD_PX[0], 0], [0, CARD_PX[1]]])
    card = cv2.warpAffine(source, cv2.getAffineTransform(box, cut), CARD_PX, flags=cv2.INTER_AREA,
                          borderMode=cv2.BORDER_REPLICATE)
    return np.ascontiguousarray(card)


# --- Corner regions and templates ---------------------------------------------------------------------------

def _region(card: np.ndarray, box_mm: tuple[int, int, int, int]) -> np.ndarray:
    """A corner region, smoothed and normalised (zero mean, unit spread): light and exposure drop out."""
    x0, y0, x1, y1 = (v * PX_PER_MM for v in box_mm)
    region = card[y0:y1, x0:x1].astype(np.float32)
    # Only detail the size of a letter's strokes counts: the photograph's smooth shading behind would
    # otherwise outweigh the letter, and match any card with a similar sky.
    region = cv2.GaussianBlur(region, (0, 0), 1.0) - cv2.GaussianBlur(region, (0, 0), 2.5 * PX_PER_MM)
    return (region - region.mean()) / (region.std() + 1e-3)


#: The character alone (without the badge or circle around it, the same on every card), in mm.
LETTER_GLYPH_MM = (8, 9)
NUMBER_GLYPH_MM = (6, 7)


#: Where each character's centre is printed in its corner region (mm, region coordinates): the number in its
#: circle 8 mm from the card's top and left, the letter 8.5 mm from its left and 9 mm from its bottom.
NUMBER_AT_MM = (PAD_MM + 8, PAD_MM + 8)
LETTER_AT_MM = (PAD_MM + 8.5, PAD_MM + CARD_MM[1] - 9 - LETTER_BOX_MM[1])


def _template(region: np.ndarray, glyph_mm: tuple[int, int], at_mm: tuple[float, float], border: int = 0,
              reach_mm: float = 3) -> np.ndarray:
    """The character's window in a corner region: of the windows whose centre lies within `reach_mm` of where
    the character is printed (`at_mm`), the one with the most detail (the character; the badge's rim lies
    outside it), with `border` pixels more on every side."""
    gw, gh = glyph_mm[0] * PX_PER_MM, glyph_mm[1] * PX_PER_MM
    energy = cv2.boxFilter(region * region, -1, (gw, gh), normalize=False, borderType=cv2.BORDER_CONSTANT)
    h, w = region.shape
    reach = round(reach_mm * PX_PER_MM)
    ax, ay = round(at_mm[0] * PX_PER_MM), round(at_mm[1] * PX_PER_MM)
    ys = slice(max(gh // 2, ay - reach), max(max(gh // 2, ay - reach) + 1, min(h - gh // 2, ay + reach + 1)))
    xs = slice(max(gw // 2, ax - reach), max(max(gw // 2, ax - reach) + 1, min(w - gw // 2, ax + reach + 1)))
    window = energy[ys, xs]
    y, x = np.unravel_index(int(np.argmax(window)), window.shape)
    cy, cx = y + ys.start, x + xs.start
    y0, x0 = max(0, cy - gh // 2 - border), max(0, cx - gw // 2 - border)
    return np.ascontiguousarray(region[y0:cy - gh // 2 + gh + border, x0:cx - gw // 2 + gw + border])


#: When reading, the character found on the card may sit this far from the taught one's window.
SLACK_PX = 2 * PX_PER_MM


def _best(region: np.ndarray, templates: dict[str, list[np.ndarray]], invert: bool = False) -> list[tuple[float, str]]:
    """(score, key) for every key, best first: the highest correlation of any of its templates anywhere in
    the region (and, with `invert`, of the inverted region: light-on-dark and dark-on-light print alike)."""
    scores = []
    variants = (region, -region) if invert else (region,)
    for key, shapes in templates.items():
        best = -1.0
        for shape in shapes:
            if shape.shape[0] > region.shape[0] or shape.shape[1] > region.shape[1]:
                continue
            for variant in variants:
                best = max(best, float(cv2.matchTemplate(variant, shape, cv2.TM_CCOEFF_NORMED).max()))
        scores.append((best, key))
    return sorted(scores, reverse=True)


def _distinct(region: np.ndarray, templates: dict[str, list[np.ndarray]]) -> list[tuple[float, str]]:
    """(score, key) for every key, best first, judged on what tells the deck's cards apart: each template is
    placed where it fits the region best, then the deck's average character (the badge, the circle, the
    print's shared texture) is taken from both before they are compared. Two letters of one printing then
    differ by their strokes alone, not by the much larger badge they share."""
    templates = {key: [(shape - shape.mean()) / (shape.std() + 1e-3) for shape in group]
                 for key, group in templates.items()}
    shapes = [shape for group in templates.values() for shape in group]
    common = None
    if len(templates) >= 3 and len({s.shape for s in shapes}) == 1:  # fewer: nothing shared to take away
        common = np.mean([np.mean(group, axis=0) for group in templates.values()], axis=0)
    scores = []
    for key, group in templates.items():
        best = -1.0
        for shape in group:
            if shape.shape[0] > region.shape[0] or shape.shape[1] > region.shape[1]:
                continue
            fit = cv2.matchTemplate(region, shape, cv2.TM_CCOEFF_NORMED)
            y, x = np.unravel_index(int(np.argmax(fit)), fit.shape)
            patch = region[y:y + shape.shape[0], x:x + shape.shape[1]]
            patch = (patch - patch.mean()) / (patch.std() + 1e-3)
            if common is not None:
                patch, shape = patch - common, shape - common
            best = max(best, float((patch * shape).sum() / (np.linalg.norm(patch) * np.linalg.norm(shape) + 1e-6)))
        scores.append((best, key))
    return sorted(scores, reverse=True)


@cache
def _font_shapes(text: str) -> tuple[np.ndarray, ...]:
    """The character drawn dark on light in tourpad's fonts at the sizes publishers print corner marks
    (letters ~7 mm tall, digits ~5.5 mm), normalised like a region."""
    shapes = []
    heights_mm = (5.0, 5.8, 6.6) if text.isdigit() else (6.4, 7.3, 8.2)
    for name in SHIPPED_FONTS:
        for height in heights_mm:
            px = round(height * PX_PER_MM / 0.73)  # cap height is about 0.73 em in these fonts
            font = ImageFont.truetype(str(FONT_DIR / name), px)
            left, top, right, bottom = font.getbbox(text)
            image = Image.new("L", (right - left + 8, bottom - top + 8), 255)
            ImageDraw.Draw(image).text((4 - left, 4 - top), text, font=font, fill=0)
            shape = cv2.GaussianBlur(np.asarray(image, np.float32), (3, 3), 0)
            shapes.append((shape - shape.mean()) / (shape.std() + 1e-3))
    return tuple(shapes)


@dataclass(frozen=True)
class LearnedCard:
    """What tourpad keeps of one taught card (a rectified upright cut, CARD_PX grey)."""

    letter: np.ndarray  #: its corner letter (a template, normalised like a region)
    number: np.ndarray  #: its number's glyph (a template)
    face: np.ndarray  #: its left part, small and normalised (`_face`)
    points: np.ndarray  #: its keypoints (N × 2, in the feature image's pixels)
    descriptors: np.ndarray  #: their SIFT descriptors (N × 128)
    circle: np.ndarray  #: the inside of its number circle, centred on the circle (`_circle_inside`)
    #: the keypoints and descriptors of the same cut blurred (TAUGHT_BLUR_PX): for reading a blurred photo.
    #: Empty for a deck taught by a tourpad that kept none (it reads as before until taught again).
    blurred_points: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), np.float32))
    blurred_descriptors: np.ndarray = field(default_factory=lambda: np.zeros((0, 128), np.float32))


#: letter → what was learned of that card from the player's deck.
Deck = dict[str, LearnedCard]
_LEARNED_FIELDS = tuple(kept.name for kept in fields(LearnedCard))  # as kept in the deck's file


# --- Learned templates (the player's deck) ------------------------------------------------------------------

def templates_dir(create: bool = False) -> Path:
    """Where the learned decks are kept; created only to save one (reading a row writes nothing)."""
    from scorer.packs import data_subfolder

    return data_subfolder("scan-templates", create)


def _deck_file(edition_id: str, create: bool = False) -> Path:
    return templates_dir(create) / f"{re.sub(r'[^A-Za-z0-9_-]', '_', edition_id)}.npz"


class DamagedDeckError(ScanImageError):
    """The file of what was learned of the player's cards cannot be read back (cut short, overwritten)."""


def _load_deck(edition_id: str, damaged_is_empty: bool = False) -> Deck:
    """letter → what was learned of that card for the edition; {} when none (or taught by an older tourpad that
    kept no keypoints: teach again). A file that cannot be read back raises DamagedDeckError, naming it and
    the way out, unless `damaged_is_empty` (teaching again and forgetting start over)."""
    path = _deck_file(edition_id)
    if not path.is_file():
        return {}
    try:
        with np.load(path) as data:
            letters = json.loads(str(data["letters"]))
            if letters and "descriptors_0" not in data:
                return {}
            kept = set(data.files)
            return {letter: LearnedCard(**{name: data[f"{name}_{i}"] for name in _LEARNED_FIELDS
                                           if f"{name}_{i}" in kept})
                    for i, letter in enumerate(letters)}
    except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile) as err:
        if damaged_is_empty:
            return {}
        raise DamagedDeckError(_("what was learned of your cards ({path}) cannot be read back; forget it "
                                 "(tourpad scan teach --forget --edition {edition}) and teach the cards "
                                 "again").format(path=shown(path), edition=edition_id)) from err


def _save_deck(edition_id: str, deck: Deck) -> None:
    path = _deck_file(edition_id, create=True)
    letters = sorted(deck)
    arrays = {"letters": np.array(json.dumps(letters))}
    for i, letter in enumerate(letters):
        for name in _LEARNED_FIELDS:
            arrays[f"{name}_{i}"] = getattr(deck[letter], name)
    partial = path.with_suffix(".tmp.npz")
    np.savez_compressed(partial, **arrays)
    partial.replace(path)  # all or nothing: a crash mid-write keeps the old templates


def learned(edition: Edition) -> str:
    """The letters whose cards tourpad has learned for this edition, in the edition's order (none from a file
    that cannot be read back: reading a row says so)."""
    deck = _load_deck(edition.id, damaged_is_empty=True)
    return "".join(letter for letter in edition.letters if letter in deck)


def forget_deck(edition: Edition) -> int:
    """Remove what was learned for the edition; how many cards that was."""
    count = len(_load_deck(edition.id, damaged_is_empty=True))
    _deck_file(edition.id).unlink(missing_ok=True)
    return count


class TeachError(ValueError):
    """The photo or the letters cannot teach; the message (translated) names what to change."""


#: A "card" at an end of a teaching row with fewer keypoints than this share of the fewest any other card has is
#: the table beyond the row (a checked cloth's edge taken for a card's), not a card: a card's picture, icons and
#: banner give it hundreds, the table a few dozen (development photos: 65-76 against 214-300).
BLANK_KEYPOINTS_SHARE = 0.5


def _without_blank_end(row: FoundRow) -> FoundRow:
    """The row without an end "card" that is blank table, when one end clearly is (BLANK_KEYPOINTS_SHARE)."""
    keypoints = [len(_features(card.image)[0]) for card in row.cards]
    end = 0 if keypoints[0] < keypoints[-1] else len(keypoints) - 1
    others = keypoints[1:] if end == 0 else keypoints[:-1]
    if keypoints[end] >= BLANK_KEYPOINTS_SHARE * min(others):
        return row
    return FoundRow(row.cards[1:] if end == 0 else row.cards[:-1], row.upside_down, row.other_way)


def teach_deck(source, edition: Edition, letters: str) -> str:
    """Learn the cards of one photo: `letters` are the cards in row order (Throw first, as `scan` reads
    them). Replaces those cards' templates, keeps the others. Returns the letters learned for the edition.
    Raises TeachError (wrong letters, wrong count) or scorer.scan.ScanImageError (not an image)."""
    letters = "".join(letters.split()).upper()
    if not letters:
        raise TeachError(_("give the letters of the cards in the photo, in row order (Throw first)"))
    unknown = sorted({letter for letter in letters if letter not in edition.letters})
    if unknown:
        raise TeachError(_("{edition} has no card {letters} (its letters: {all})").format(
            edition=edition.label, letters=", ".join(unknown), all=edition.letters))
    twice = sorted({letter for letter in letters if letters.count(letter) > 1})
    if twice:
        raise TeachError(_("letter {letters} given twice: each card of the row once, in row order").format(
            letters=", ".join(twice)))
    row = find_cards(load_rgb(source))
    if len(row.cards) != len(letters) and row.other_way is not None and len(row.other_way.cards) == len(letters):
        row = row.other_way  # the way up that finds as many cards as there are letters
    if len(row.cards) == len(letters) + 1:
        row = _without_blank_end(row)
    if not row.cards:
        raise TeachError(_("found no cards in the photo: lay the cards face up in one row on a plain table"))
    if len(row.cards) != len(letters):
        raise TeachError(_("found {found} cards in the photo but {given} letters were given: lay the cards in "
                           "one row on a plain table, not touching the photo's edges").format(
            found=len(row.cards), given=len(letters)))
    deck = _load_deck(edition.id, damaged_is_empty=True)  # a damaged file is taught over, from nothing
    learn_cards(deck, [card.image for card in row.cards], letters)
    _save_deck(edition.id, deck)
    return learned(edition)


def learned_preview(edition: Edition) -> dict[str, bytes]:
    """letter → a small PNG of what was learned of that card (its corner letter and number side by side, as
    the reader sees them), for the app to show after teaching; {} when nothing was learned."""
    out = {}
    for letter, taught in _load_deck(edition.id, damaged_is_empty=True).items():
        letter_shape, number_shape = taught.letter, taught.number
        height = max(letter_shape.shape[0], number_shape.shape[0])
        parts = [cv2.copyMakeBorder(shape, 0, height - shape.shape[0], 0, 2, cv2.BORDER_CONSTANT, value=0)
                 for shape in (number_shape, letter_shape)]
        both = np.hstack(parts)
        grey = np.clip(128 + 40 * both, 0, 255).astype(np.uint8)
        ok, png = cv2.imencode(".png", cv2.resize(grey, None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST))
        if ok:
            out[letter] = png.tobytes()
    return {letter: out[letter] for letter in edition.letters if letter in out}


# --- Reading ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class CardReading:
    """What one card's corners say: the letter if certain, else None. `problem` names, for the player, a card
    whose letter and number disagree (another edition's card, or a misread)."""

    letter: str | None
    problem: str = ""
    score: float = 0.0


def _certain(scores: list[tuple[float, str]], floor: float, margin: float, ratio: float = 0.0) -> str | None:
    """The best key when it scores at least `floor`, beats the next by `margin`, and (with `ratio`) lies
    `ratio` times closer to a perfect match than the next: two letters of one print that differ by one stroke
    (E, F) both score high, so a fixed margin alone would refuse even a sharp photo of either."""
    if not scores or scores[0][0] < floor:
        return None
    if len(scores) > 1:
        best, second = scores[0][0], scores[1][0]
        if best - second < margin or (1 - second) < ratio * (1 - best):
            return None
    return scores[0][1]


def _disagree(edition: Edition, letter: str, digit: int) -> str:
    """The problem of a card read as `letter` with number `digit` where the edition's card differs: another
    bundled edition's card when one has that letter with that number, else a misread."""
    from rules.editions import bundled_ids
    from scorer.packs import resolve_edition

    for other_id in bundled_ids():
        if other_id == edition.id:
            continue
        with contextlib.suppress(Exception):  # a bundled file that no longer loads narrows the comparison
            other = resolve_edition(other_id)
            if letter in other.letters and other.numbers[other.card_index(letter)] == digit:
                return _("card {letter} with number {number} is a card of {other}, not of {edition}").format(
                    letter=letter, number=digit, other=other.label, edition=edition.label)
    return _("the card reads {letter} with number {number}, but {edition}'s {letter} has number {expected}: "
             "misread, type it in").format(letter=letter, number=digit, edition=edition.label,
                                           expected=edition.numbers[edition.card_index(letter)])


#: A taught card's face is kept at this resolution (px per mm): its picture, banner and icons are what tell
#: it from the deck's other cards, far more than its corner letter; its left part only (FACE_MM wide),
#: the part a neighbour laid over it never covers.
FACE_PX_PER_MM = 1
FACE_MM = 56
#: When reading, a face may sit this far (mm) off where it was taught (the card's corner found a little off).
FACE_SLACK_MM = 3
#: A face is recognised when it matches this well (correlation) and this much better than the next face.
FACE_MIN, FACE_MARGIN = 0.45, 0.16


def _face(card: np.ndarray, slack_mm: int) -> np.ndarray:
    """The card's left part, small and normalised (light and exposure drop out), with `slack_mm` of its
    surroundings on every side for reading."""
    pad = PAD_MM * PX_PER_MM
    slack = slack_mm * PX_PER_MM
    part = card[pad - slack: pad + CARD_MM[1] * PX_PER_MM + slack, pad - slack: pad + FACE_MM * PX_PER_MM + slack]
    part = cv2.GaussianBlur(part.astype(np.float32), (0, 0), PX_PER_MM / FACE_PX_PER_MM / 2)
    small = cv2.resize(part, None, fx=FACE_PX_PER_MM / PX_PER_MM, fy=FACE_PX_PER_MM / PX_PER_MM,
                       interpolation=cv2.INTER_AREA)
    return (small - small.mean()) / (small.std() + 1e-3)


#: A card's size is measured to a few per cent (its top and bottom edges on a blurred photo): a face is compared
#: at these sizes relative to the measured one.
FACE_SCALES = (0.92, 0.94, 0.96, 0.98, 1.0, 1.02, 1.04, 1.06, 1.08)


def _grown(card: np.ndarray, factor: float) -> np.ndarray:
    """The card image grown (or shrunk) by `factor` about the card's top-left corner, which the circle fixes."""
    if factor == 1.0:
        return card
    corner = PAD_MM * PX_PER_MM
    return cv2.warpAffine(card, np.float32([[factor, 0, (1 - factor) * corner], [0, factor, (1 - factor) * corner]]),
                          (card.shape[1], card.shape[0]), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _face_scores(card: np.ndarray, deck: Deck) -> tuple[list[tuple[float, str]], float]:
    """(score, letter) of every taught face against this card's, best first, judged on what tells the deck's
    faces apart (the banner, circle and icon column every card shares taken away: `_distinct`), each at the
    size that fits it best; and the size factor that fits the best face (the card's size, measured closer)."""
    faces = {letter: [taught.face] for letter, taught in deck.items()}
    best: dict[str, tuple[float, float]] = {}
    for factor in FACE_SCALES:
        for score, letter in _distinct(_face(_grown(card, factor), FACE_SLACK_MM), faces):
            if score > best.get(letter, (-1.0, 1.0))[0]:
                best[letter] = (score, factor)
    scores = sorted(((score, letter) for letter, (score, _factor) in best.items()), reverse=True)
    return scores, (best[scores[0][1]][1] if scores else 1.0)


#: Keypoints are found on the card brought down to this many px per mm: a card photographed small or blurred
#: and a sharp teaching photo then show the same detail (measured: 2 px/mm reads more cards than 3 or 4).
FEATURE_PX_PER_MM = 2
FEATURES = 300
#: Lowe's ratio: a keypoint counts only when its nearest taught keypoint is clearly nearer than the next one.
#: What every card shares (the circle, the badge, the banner's ends) matches many cards alike and drops out.
MATCH_RATIO = 0.8
#: A taught card is recognised by the matched keypoints that agree on one placement of it (RANSAC inliers
#: within RANSAC_PX of the feature image): at least IDENTIFY_MIN and IDENTIFY_RATIO times the next card's; or
#: IDENTIFY_ALONE when no other card has more than one. With IDENTIFY_FAINT and no other card at all, the card
#: is only named when its number clearly reads as that card's too (a positive checksum, not merely no
#: disagreement), and only when both looks name it or one names it by IDENTIFY_FAINT_ONE_LOOK (`identify`).
RANSAC_PX = 2.5
IDENTIFY_MIN, IDENTIFY_RATIO, IDENTIFY_ALONE, IDENTIFY_FAINT = 8, 2.5, 5, 3
#: A faint naming by one look (sharp or blurred, `_DeckIndex.identify`) alone needs this many keypoints.
IDENTIFY_FAINT_ONE_LOOK = 4
#: Both images are cut upright at the same nominal size: a placement turned further than this, or scaled
#: beyond these bounds, is a coincidence (or a card upside down), not the card.
PLACEMENT_TURN_DEG, PLACEMENT_SCALE, PLACEMENT_SHIFT_MM = 30, (0.7, 1.4), 20


@cache
def _sift():
    return cv2.SIFT_create(nfeatures=FEATURES)


def _features(card: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The card's keypoints (N × 2) and their descriptors (N × 128), on a contrast-levelled small copy."""
    levelled = cv2.createCLAHE(2.0, (4, 4)).apply(card)
    factor = FEATURE_PX_PER_MM / PX_PER_MM
    small = cv2.resize(levelled, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    keypoints, descriptors = _sift().detectAndCompute(small, None)
    if descriptors is None or len(keypoints) == 0:
        return np.zeros((0, 2), np.float32), np.zeros((0, 128), np.float32)
    return np.float32([k.pt for k in keypoints]), descriptors.astype(np.float32)


#: The number is compared inside its circle (radius in mm): inside the rim, which every card's circle shares.
CIRCLE_INSIDE_MM = 3.4


def _circle_inside(card: np.ndarray) -> np.ndarray:
    """The inside of the card's number circle, centred on the circle found near where it is printed,
    smoothed and normalised."""
    mm = PX_PER_MM
    region = card[: (PAD_MM + 18) * mm, : (PAD_MM + 18) * mm].astype(np.float32)
    fit = _circle_map(region, [r * CIRCLE_RADIUS_MM * mm for r in CIRCLE_SIZES])
    lo, hi = 5 * mm, (PAD_MM + 13) * mm
    y, x = np.unravel_index(int(np.argmax(fit[lo:hi, lo:hi])), (hi - lo, hi - lo))
    y, x, r = y + lo, x + lo, round(CIRCLE_INSIDE_MM * mm)
    inside = cv2.GaussianBlur(region[y - r: y + r, x - r: x + r], (0, 0), 0.8)
    return (inside - inside.mean()) / (inside.std() + 1e-3)


#: A blurred photo has lost the fine detail the sharp teaching cut's keypoints sit on, and its own keypoints are
#: found on what is left. So each taught card is also kept blurred by this much (Gaussian sigma, px of the cut,
#: 0.75 mm), its keypoints found again: a second look for a card the sharp ones do not name firmly. Chosen on
#: blurred development photos (40 USA rows, blur 1.4-2.0 px; 34 read whole by the sharp look alone): sigma 2
#: read 36, 3 39, 4 38, none wrong (38 with the stricter faint namings of `_DeckIndex.identify`).
TAUGHT_BLUR_PX = 3


def learn_cards(deck: Deck, cards: list[np.ndarray], letters: str) -> None:
    """Add (or replace) what is learned of rectified upright card images (CARD_PX grey) with known letters."""
    for card, letter in zip(cards, letters, strict=True):
        points, descriptors = _features(card)
        blurred_points, blurred_descriptors = _features(cv2.GaussianBlur(card, (0, 0), TAUGHT_BLUR_PX))
        deck[letter] = LearnedCard(_template(_region(card, LETTER_BOX_MM), LETTER_GLYPH_MM, LETTER_AT_MM),
                                   _template(_region(card, NUMBER_BOX_MM), NUMBER_GLYPH_MM, NUMBER_AT_MM,
                                             reach_mm=0.5),
                                   _face(card, 0), points, descriptors, _circle_inside(card),
                                   blurred_points, blurred_descriptors)


class _Keypoints:
    """Every taught card's keypoints of one kind (sharp or blurred) in one matcher."""

    def __init__(self, taught: dict[str, tuple[np.ndarray, np.ndarray]]) -> None:
        self.letters = tuple(letter for letter, (_points, descriptors) in taught.items() if len(descriptors))
        self.points = [taught[letter][0] for letter in self.letters]
        self.matcher = cv2.BFMatcher(cv2.NORM_L2)
        if self.letters:
            self.matcher.add([taught[letter][1] for letter in self.letters])

    def agreeing(self, points: np.ndarray, descriptors: np.ndarray) -> list[tuple[int, str]]:
        """(agreeing keypoints, letter) of every taught card some of these keypoints match, most first: how
        many of the matches agree on one upright placement of that taught card over this one."""
        if len(descriptors) < 2 or not self.letters:
            return []
        matches: dict[int, list[tuple[int, int]]] = {}
        for pair in self.matcher.knnMatch(descriptors, k=2):
            if len(pair) == 2 and pair[0].distance < MATCH_RATIO * pair[1].distance:
                matches.setdefault(pair[0].imgIdx, []).append((pair[0].queryIdx, pair[0].trainIdx))
        found = []
        for taught, pairs in matches.items():
            agreeing = 0
            if len(pairs) >= 3:
                here = points[[q for q, _t in pairs]]
                there = self.points[taught][[t for _q, t in pairs]]
                placement, inliers = cv2.estimateAffinePartial2D(here, there, method=cv2.RANSAC,
                                                                 ransacReprojThreshold=RANSAC_PX)
                if placement is not None and _upright(placement):
                    agreeing = int(inliers.sum())
            found.append((agreeing, self.letters[taught]))
        return sorted(found, reverse=True)


class _DeckIndex:
    """A taught deck laid out for reading a row: every taught card's keypoints in one matcher, and (built when
    first needed) their blurred twins in another."""

    def __init__(self, deck: Deck) -> None:
        self.deck = deck
        self.sharp = _Keypoints({letter: (taught.points, taught.descriptors) for letter, taught in deck.items()})

    @cached_property
    def blurred(self) -> _Keypoints:
        return _Keypoints({letter: (taught.blurred_points, taught.blurred_descriptors)
                           for letter, taught in self.deck.items()})

    def identify(self, card: np.ndarray) -> tuple[list[tuple[int, str]], str | None, bool]:
        """The taught card this card's keypoints name, whether firmly (as `_identified` says), and the
        (agreeing keypoints, letter) list they say it from (`_Keypoints.agreeing`). The sharp teaching cuts
        are asked first; when they name no card firmly, the blurred ones, and a card those name firmly is
        named. A faint naming needs both looks to name the card, or one look IDENTIFY_FAINT_ONE_LOOK
        keypoints while the other names no card (and, for the blurred look's, no IDENTIFY_FAINT sharp keypoints
        agree on another): on a card that was never taught (a teaching photo that failed), three keypoints of
        one look agree on a look-alike by chance."""
        points, descriptors = _features(card)
        found = self.sharp.agreeing(points, descriptors)
        named, firm = _identified(found)
        if firm:
            return found, named, True
        blurred = self.blurred.agreeing(points, descriptors)
        blurred_named, blurred_firm = _identified(blurred)
        if blurred_firm:
            return blurred, blurred_named, True
        if named is not None and (blurred_named == named or
                                  (blurred_named is None and found[0][0] >= IDENTIFY_FAINT_ONE_LOOK)):
            return found, named, False
        if named is None and blurred_named is not None and blurred[0][0] >= IDENTIFY_FAINT_ONE_LOOK and \
                (not found or found[0][0] < IDENTIFY_FAINT or found[0][1] == blurred_named):
            return blurred, blurred_named, False
        return found, None, False

    def digit_fits(self, card: np.ndarray, number_of: dict[str, int]) -> dict[int, float]:
        """digit → how well this card's number circle fits the taught circles of that digit (the best of them)."""
        inside = _circle_inside(card)
        fits: dict[int, float] = {}
        for letter, taught in self.deck.items():
            margin = 2  # a couple of pixels either way: the circles are centred each on its own
            fit = float(cv2.matchTemplate(inside, taught.circle[margin:-margin, margin:-margin],
                                          cv2.TM_CCOEFF_NORMED).max())
            digit = number_of[letter]
            fits[digit] = max(fits.get(digit, -1.0), fit)
        return fits


def _upright(placement: np.ndarray) -> bool:
    """Whether a placement of a taught card over this one is one the two cuts allow: upright, about the same
    size, the card's middle over the card's middle (not over a neighbour's)."""
    scale = float(np.hypot(placement[0, 0], placement[1, 0]))
    turn = abs(float(np.degrees(np.arctan2(placement[1, 0], placement[0, 0]))))
    middle = np.array([PAD_MM + CARD_MM[0] / 2, PAD_MM + CARD_MM[1] / 2]) * FEATURE_PX_PER_MM
    shift = float(np.linalg.norm(placement[:, :2] @ middle + placement[:, 2] - middle)) / FEATURE_PX_PER_MM
    return (PLACEMENT_SCALE[0] < scale < PLACEMENT_SCALE[1] and turn < PLACEMENT_TURN_DEG
            and shift < PLACEMENT_SHIFT_MM)


def _identified(found: list[tuple[int, str]]) -> tuple[str | None, bool]:
    """The taught card the keypoints name (see IDENTIFY_MIN), and whether they name it firmly (else faintly:
    its number must then confirm it); (None, False) when they name none."""
    if not found:
        return None, False
    best, letter = found[0]
    second = found[1][0] if len(found) > 1 else 0
    if (best >= IDENTIFY_MIN and best >= IDENTIFY_RATIO * max(second, 2)) or (best >= IDENTIFY_ALONE and second <= 1):
        return letter, True
    if best >= IDENTIFY_FAINT and second == 0:
        return letter, False
    return None, False


#: The number disagrees with the card the face names only when it clearly reads another digit: fits that well,
#: and this much better than the named card's own digit (a blurred digit that fits nothing well is no evidence).
DIGIT_CLEAR, DIGIT_MARGIN = 0.8, 0.12


def _corner_marks(card: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The card's corner letter and its number, each in the window where its character is (with slack)."""
    return (_template(_region(card, LETTER_BOX_MM), LETTER_GLYPH_MM, LETTER_AT_MM, SLACK_PX),
            _template(_region(card, NUMBER_BOX_MM), NUMBER_GLYPH_MM, NUMBER_AT_MM, PX_PER_MM, reach_mm=0.5))


def read_card(card: np.ndarray, edition: Edition, deck: Deck, index: _DeckIndex | None = None) -> CardReading:
    """The card's letter when it is certain and its number agrees (the checksum); else None, with a problem
    when the number says the card is another one (another edition's, or a misread)."""
    number_of = dict(zip(edition.letters, edition.numbers, strict=True))
    if deck:
        index = index or _DeckIndex(deck)
        # A taught card is told by its whole face: the keypoints of its picture, banner and icons.
        found, named, firm = index.identify(card)
        fits: dict[int, float] | None = None  # how the number fits each digit: read once, when first needed
        if named is None and len(found) > 1 and found[0][0] >= IDENTIFY_FAINT and found[1][0] >= 2:
            # Two taught cards close (a blurred face matches a look-alike too): the number, read clearly as the
            # first card's and no rival's, settles it (the checksum doing its work). Without a rival this would
            # be a faint naming by one look, which `identify` has already refused.
            fits = index.digit_fits(card, number_of)
            digit = max(fits, key=fits.get)
            clear = fits[digit] >= DIGIT_CLEAR and all(
                fits[digit] - fit >= DIGIT_MARGIN for other, fit in fits.items() if other != digit)
            rivals = {number_of[letter] for agreeing, letter in found[1:] if agreeing >= 2}
            if clear and digit == number_of[found[0][1]] and digit not in rivals:
                return CardReading(found[0][1], score=found[0][0])
        if named is None and found and found[0][0] >= 2:
            # Few keypoints (a plain face, a blurred photo): the face's likeness as a whole must name the same card.
            faces, _factor = _face_scores(card, deck)
            if _certain(faces, FACE_MIN, FACE_MARGIN) == found[0][1]:
                named = found[0][1]
        if named is not None:
            fits = fits if fits is not None else index.digit_fits(card, number_of)
            digit = max(fits, key=fits.get)
            if digit != number_of[named] and fits[digit] >= DIGIT_CLEAR and \
                    fits[digit] - fits.get(number_of[named], -1.0) >= DIGIT_MARGIN:
                return CardReading(None, _disagree(edition, named, digit))
            if firm or (digit == number_of[named] and fits[digit] >= DIGIT_CLEAR):
                return CardReading(named, score=found[0][0])
            return CardReading(None)
        # Not a taught face: its corner letter and number may still say it is another edition's card.
        letter_region, number_region = _corner_marks(card)
        by_digit: dict[str, list[np.ndarray]] = {}
        for known, taught in deck.items():
            by_digit.setdefault(str(number_of[known]), []).append(taught.number)
        digit = _certain(_distinct(number_region, by_digit), TAUGHT_MIN, TAUGHT_MARGIN, TAUGHT_RATIO)
        glyph = _certain(_distinct(letter_region, {k: [v.letter] for k, v in deck.items()}), TAUGHT_MIN,
                         TAUGHT_MARGIN, TAUGHT_RATIO)
        if glyph and digit and int(digit) != number_of[glyph]:
            return CardReading(None, _disagree(edition, glyph, int(digit)))
        return CardReading(None)
    letter_region, number_region = _corner_marks(card)
    letter_scores = _best(letter_region, {k: list(_font_shapes(k)) for k in edition.letters}, invert=True)
    letter = _certain(letter_scores, FONT_MIN, FONT_MARGIN)
    digits = {str(d): list(_font_shapes(str(d))) for d in sorted(set(edition.numbers))}
    digit = _certain(_best(number_region, digits, invert=True), FONT_MIN, FONT_MARGIN)
    if letter is None or digit is None:
        return CardReading(None)
    if int(digit) != number_of[letter]:
        return CardReading(None, _disagree(edition, letter, int(digit)))
    return CardReading(letter)


@dataclass(frozen=True)
class PublisherRead:
    """The cards found in row order (Throw first) and what each one reads."""

    cards: tuple[FoundCard, ...]
    readings: tuple[CardReading, ...]
    upside_down: bool
    seconds: float


def _one_card_each(readings: tuple[CardReading, ...]) -> tuple[CardReading, ...]:
    """The readings with a letter read at two positions kept only where its face fits best: the other reads
    `?` and says which card it looked like (two copies of one card, or, far likelier, a look-alike face)."""
    best: dict[str, tuple[float, int]] = {}
    for position, reading in enumerate(readings):
        if reading.letter is not None and reading.score > best.get(reading.letter, (-1.0, 0))[0]:
            best[reading.letter] = (reading.score, position)
    out = []
    for position, reading in enumerate(readings):
        if reading.letter is not None and best[reading.letter][1] != position:
            reading = CardReading(None, _("looks like card {letter}, which is also at position {other}: two copies "
                                          "of one card, or a misread").format(letter=reading.letter,
                                                                              other=best[reading.letter][1] + 1))
        out.append(reading)
    return tuple(out)


def read_row(source, edition: Edition, rgb: np.ndarray | None = None) -> PublisherRead:
    """Find and read every publisher card in the photo, in row order. One thread: a phone's photo is read
    while the app serves others, and the bench measures one core."""
    cv2.setNumThreads(1)
    started = time.perf_counter()
    rgb = load_rgb(source) if rgb is None else rgb
    deck = _load_deck(edition.id)
    row = find_cards(rgb)
    index = _DeckIndex(deck) if deck else None

    def read_one(card: FoundCard) -> CardReading:
        reading = read_card(card.image, edition, deck, index)
        if reading.letter is None and not reading.problem and card.plain is not None and index is not None:
            second_look = read_card(card.plain, edition, deck, index)
            if second_look.letter is not None:
                return second_look
        return reading

    def read(found: FoundRow) -> tuple[tuple[FoundCard, ...], tuple[CardReading, ...]]:
        cards, readings = list(found.cards), list(map(read_one, found.cards))
        # More cards than a row holds, the others read, and a card at an end that is no card of the taught deck
        # nor any other: the table beyond the row (a checked cloth's lines look like a card's edge), not a card.
        # (With several unread, the row itself may be found wrong: it stays too long, and is not read.)
        while len(cards) > HAND_SIZE and index is not None:
            blank = [end for end in (len(cards) - 1, 0) if readings[end].letter is None and not readings[end].problem]
            if not blank or sum(reading.letter is None for reading in readings) > len(cards) - HAND_SIZE + 1:
                break
            del cards[blank[0]], readings[blank[0]]
        return tuple(cards), _one_card_each(tuple(readings))

    cards, readings = read(row)
    upside_down = row.upside_down
    if row.other_way is not None and index is not None:
        other_cards, other = read(row.other_way)
        if sum(r.letter is not None for r in other) > sum(r.letter is not None for r in readings):
            cards, readings, upside_down = other_cards, other, row.other_way.upside_down
    return PublisherRead(cards, readings, upside_down, time.perf_counter() - started)
