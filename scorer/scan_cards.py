"""Read the publisher's printed cards (no QR code) from one photo of a row, and learn a player's own deck.

Pure and Flet-free (OpenCV + numpy); only `scorer.scan` and the scan commands import it, lazily, so the
browser build never loads OpenCV.

How a row is read:
1. **Cards**: the table is what the photo's border shows; everything far from the table's colours is card.
   The cards' outline (touching or overlapping cards form one outline) is fitted with a quadrilateral and
   rectified (rotation and perspective) into a strip one card high; the strip splits into cards where the
   table shows through, and a stretch wider than one card splits at the cards' own edges.
2. **Direction**: a publisher card prints its number in a circle at its top-left corner. Whichever way up
   the strip shows more of those circles (at the top-left of each card, or rotated at the bottom-right) is
   upright, and the cards are then read left to right as they face the player: the Throw card is the
   leftmost card of the row as its letters read upright. A row photographed from across the table or at an
   angle reads the same; a row laid the other way round (Throw card on the right) cannot be told apart.
3. **Letters**: each card's bottom-left corner is matched against the templates learned from the player's
   own deck (`teach`), else against the letter shapes rendered from tourpad's fonts. The top-left number is
   read the same way and must agree with the edition's number for that letter: a card whose number
   disagrees, or whose best match is not clearly better than the next, reads `?` — never a guess.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import re
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont, ImageOps, UnidentifiedImageError

from rules.edition import Edition

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

_FONT_DIR = Path(__file__).resolve().parent.parent / "assets" / "fonts"
_FONTS = ("DejaVuSans-Bold.ttf", "DejaVuSansCondensed-Bold.ttf", "DejaVuSans.ttf")


# --- Loading ------------------------------------------------------------------------------------------------

def load_rgb(source: bytes | bytearray | str | Path | Image.Image) -> np.ndarray:
    """The photo as an RGB array, upright as the phone meant it. Raises ScanImageError for a non-image."""
    from scorer.scan import ScanImageError

    if isinstance(source, Image.Image):
        image = source
    else:
        try:
            data = Path(source).read_bytes() if isinstance(source, str | Path) else bytes(source)
            image = Image.open(io.BytesIO(data))
            image.load()
        except OSError as err:
            raise ScanImageError(f"cannot read the image {source if isinstance(source, str | Path) else ''}: "
                                 f"{err}") from err
        except (UnidentifiedImageError, ValueError, Image.DecompressionBombError) as err:
            raise ScanImageError("the file is not an image we can read (JPEG, PNG, WebP, …)") from err
    with contextlib.suppress(Exception):
        image = ImageOps.exif_transpose(image)
    return np.asarray(image.convert("RGB"))


# --- Finding the cards --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class FoundCard:
    """One card, rectified upright (grey, CARD_PX), and its centre in the photo."""

    image: np.ndarray
    centre: tuple[float, float]


@dataclass(frozen=True)
class FoundRow:
    cards: tuple[FoundCard, ...]
    upside_down: bool


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
    fit, *_ = np.linalg.lstsq(terms[edge], lab[edge], rcond=None)
    lab = lab - terms @ fit
    border = lab[edge]
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 1.0)
    cv2.setRNGSeed(1)
    _, _, centres = cv2.kmeans(border, 3, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
    lab = cv2.GaussianBlur(lab, (5, 5), 0)
    distance = np.min([np.linalg.norm(lab - c, axis=2) for c in centres], axis=0)
    spread = float(np.percentile(np.min([np.linalg.norm(border - c, axis=1) for c in centres], axis=0), 98))
    mask = (distance > max(12.0, 2.0 * spread)).astype(np.uint8) * 255
    k = max(3, min(h, w) // 60)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3 * k, 3 * k)))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    if count <= 1:
        return np.zeros_like(mask)
    areas = stats[1:, cv2.CC_STAT_AREA]
    keep = [i + 1 for i, area in enumerate(areas) if area >= 0.15 * areas.max()]
    mask = np.isin(labels, keep).astype(np.uint8) * 255
    # Holes (a card's photo the colour of the table) are card too.
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
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
    candidates = [cv2.boxPoints(cv2.minAreaRect(points)).astype(np.float32)]
    for share in (0.005, 0.01, 0.02, 0.03, 0.05, 0.08):
        approx = cv2.approxPolyDP(hull, share * perimeter, True)
        if len(approx) == 4:
            candidates.append(approx.reshape(4, 2).astype(np.float32))

    def overlap(quad: np.ndarray) -> float:
        drawn = np.zeros_like(mask)
        cv2.fillConvexPoly(drawn, quad.astype(np.int32), 255)
        both = np.count_nonzero(drawn & mask)
        return both / (np.count_nonzero(drawn | mask) or 1)

    quad = max(candidates, key=overlap)
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


def _split(coverage: np.ndarray, card_w: float, gradient: np.ndarray) -> list[tuple[int, int]]:
    """Column ranges of the cards in the strip: runs where card shows, each split into as many cards as its
    width holds, at the columns where the picture changes most (a card's edge) near the even split."""
    covered = coverage > 0.5
    runs, start = [], None
    for x, on in enumerate([*covered, False]):
        if on and start is None:
            start = x
        elif not on and start is not None:
            if x - start >= 0.4 * card_w:
                runs.append((start, x))
            start = None
    # The strip is a little taller than a card (cards lie askew), so the nominal width is only a first
    # guess: the cards' edges repeat along the strip at their true pitch, which the edge profile's
    # autocorrelation finds.
    profile = gradient - gradient.mean()
    lags = range(int(0.75 * card_w), int(1.08 * card_w) + 1)
    if len(profile) > 2.5 * card_w:
        pitch = max(lags, key=lambda lag: float(profile[:-lag] @ profile[lag:]) / (len(profile) - lag))
    else:
        pitch = card_w
    # Each stretch of cards: the comb of card edges (one every pitch) that lies on the strongest edges.
    peaks = np.maximum.reduce([np.roll(gradient, shift) for shift in range(-2, 3)])
    cards = []
    for a, b in runs:
        if b - a < 1.4 * pitch:
            cards.append((a, b))
            continue
        step = round(pitch)

        def comb(phase: int, b: int = b, step: int = step) -> float:
            return float(peaks[phase:b:step].sum())

        phase = max(range(a, a + step), key=comb)
        edges = list(range(phase, b + 1, step))
        if edges[0] - a > 0.5 * pitch:
            edges.insert(0, edges[0] - step)
        if b - edges[-1] > 0.5 * pitch:
            edges.append(edges[-1] + step)
        edges = [min(max(e, a), b) for e in edges]
        cards.extend((x, y) for x, y in itertools.pairwise(edges) if y - x > 0.5 * pitch)
    return cards


def _circle_score(card: np.ndarray) -> float:
    """How clearly a circle of the number's size sits at the card's top-left corner: the share of the edge
    strength, along the best-placed circle near where publishers print it, that points across the circle's rim
    (a square badge or a letter's strokes point every which way)."""
    x0, y0, x1, y1 = (v * PX_PER_MM for v in NUMBER_BOX_MM)
    region = cv2.GaussianBlur(card[y0:y1, x0:x1].astype(np.float32), (3, 3), 0)
    gx, gy = cv2.Sobel(region, cv2.CV_32F, 1, 0), cv2.Sobel(region, cv2.CV_32F, 0, 1)
    magnitude = np.hypot(gx, gy)
    edge = 0.3 * float(np.percentile(magnitude, 95)) + 1e-3
    angles = np.linspace(0, 2 * np.pi, 48, endpoint=False)
    ux, uy = np.cos(angles), np.sin(angles)
    best = 0.0
    nominal = NUMBER_CENTRE_MM[0] * PX_PER_MM
    reach = 3 * PX_PER_MM
    for radius in (5.0 * PX_PER_MM, 5.5 * PX_PER_MM, 6.0 * PX_PER_MM):
        for cy in range(nominal - reach, nominal + reach + 1, 2):
            for cx in range(nominal - reach, nominal + reach + 1, 2):
                xs = np.clip(np.round(cx + radius * ux).astype(int), 0, region.shape[1] - 1)
                ys = np.clip(np.round(cy + radius * uy).astype(int), 0, region.shape[0] - 1)
                signed = gx[ys, xs] * ux + gy[ys, xs] * uy
                # Complete (the rim shows all round) and one-sided (a disc lighter or darker than around it
                # all the way round; a letter's strokes cross the circle both ways).
                coherence = abs(float(signed.sum())) / (float(magnitude[ys, xs].sum()) + 1e-3)
                best = max(best, coherence * float(np.mean(np.abs(signed) > edge)))
    return best


def find_cards(rgb: np.ndarray, gray: np.ndarray | None = None,
               deck: dict[str, tuple[np.ndarray, np.ndarray]] | None = None) -> FoundRow:
    """Every card in the photo, rectified upright, in row order (Throw first)."""
    gray = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY) if gray is None else gray
    h, w = gray.shape
    shrink = PREVIEW_PX / max(h, w)
    preview = cv2.resize(rgb, (round(w * shrink), round(h * shrink)), interpolation=cv2.INTER_AREA)
    mask = _card_mask(preview)
    quad = _row_quad(mask)
    if quad is None:
        return FoundRow((), False)
    along = (np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2
    across = (np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2
    if across < 8:
        return FoundRow((), False)
    strip_h = CARD_PX[1]
    strip_w = max(1, round(along / across * strip_h))
    target = np.float32([[0, 0], [strip_w, 0], [strip_w, strip_h], [0, strip_h]])
    full = cv2.getPerspectiveTransform(quad / shrink, target)
    strip = cv2.warpPerspective(gray, full, (strip_w, strip_h), flags=cv2.INTER_AREA)
    strip_mask = cv2.warpPerspective(mask, cv2.getPerspectiveTransform(quad, target), (strip_w, strip_h))
    coverage = strip_mask.mean(axis=0) / 255
    # A card's edge runs its whole height; the icons and banner ends that repeat from card to card with the
    # same pitch do not: a column's median edge strength keeps only the former.
    across_x = np.abs(cv2.Sobel(cv2.GaussianBlur(strip, (0, 0), 1.5).astype(np.float32), cv2.CV_32F, 1, 0, ksize=3))
    edges = np.median(across_x, axis=0)
    card_w = strip_h * CARD_MM[0] / CARD_MM[1]
    back = np.linalg.inv(full)
    margin = round(2 * PAD_MM * strip_h / CARD_MM[1])
    padded = cv2.copyMakeBorder(strip, margin, margin, margin, margin, cv2.BORDER_REPLICATE)
    cards = []
    for a, b in _split(coverage, card_w, edges):
        # Each card's own top and bottom: cards lie a little higher or lower than their neighbours.
        rows = np.flatnonzero(strip_mask[:, a:b].mean(axis=1) > 127)
        top, bottom = (int(rows[0]), int(rows[-1]) + 1) if len(rows) > 0.5 * strip_h else (0, strip_h)
        pad_x = round(PAD_MM * (b - a) / CARD_MM[0])
        pad_y = round(PAD_MM * (bottom - top) / CARD_MM[1])
        card = cv2.resize(padded[top - pad_y + margin:bottom + pad_y + margin, a - pad_x + margin:b + pad_x + margin],
                          CARD_PX, interpolation=cv2.INTER_AREA)
        centre = back @ np.array([(a + b) / 2, strip_h / 2, 1.0])
        cards.append(FoundCard(card, (float(centre[0] / centre[2]), float(centre[1] / centre[2]))))
    deck = deck or {}
    if deck:  # the player's own cards say best which way up they are
        templates = {k: [v[0]] for k, v in deck.items()}
        upright = sum(_best(_region(c.image, LETTER_BOX_MM), templates)[0][0] for c in cards)
        flipped = sum(_best(_region(c.image[::-1, ::-1], LETTER_BOX_MM), templates)[0][0] for c in cards)
    else:
        upright = sum(_circle_score(c.image) for c in cards)
        flipped = sum(_circle_score(c.image[::-1, ::-1]) for c in cards)
    if flipped > upright:
        cards = [FoundCard(np.ascontiguousarray(c.image[::-1, ::-1]), c.centre) for c in reversed(cards)]
    return FoundRow(tuple(cards), flipped > upright)


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


def _template(region: np.ndarray, glyph_mm: tuple[int, int], border: int = 0) -> np.ndarray:
    """The character's window in a corner region: of the windows whose centre lies within 4 mm of the
    region's centre, the one with the most detail (the character; the badge's rim lies outside it)."""
    gw, gh = glyph_mm[0] * PX_PER_MM, glyph_mm[1] * PX_PER_MM
    energy = cv2.boxFilter(region * region, -1, (gw, gh), normalize=False, borderType=cv2.BORDER_CONSTANT)
    h, w = region.shape
    reach = round(4 * PX_PER_MM)
    ys = slice(max(gh // 2, h // 2 - reach), min(h - gh // 2, h // 2 + reach + 1))
    xs = slice(max(gw // 2, w // 2 - reach), min(w - gw // 2, w // 2 + reach + 1))
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
    for name in _FONTS:
        for height in heights_mm:
            px = round(height * PX_PER_MM / 0.73)  # cap height is about 0.73 em in these fonts
            font = ImageFont.truetype(str(_FONT_DIR / name), px)
            left, top, right, bottom = font.getbbox(text)
            image = Image.new("L", (right - left + 8, bottom - top + 8), 255)
            ImageDraw.Draw(image).text((4 - left, 4 - top), text, font=font, fill=0)
            shape = cv2.GaussianBlur(np.asarray(image, np.float32), (3, 3), 0)
            shapes.append((shape - shape.mean()) / (shape.std() + 1e-3))
    return tuple(shapes)


# --- Learned templates (the player's deck) ------------------------------------------------------------------

def templates_dir() -> Path:
    from scorer.packs import data_dir

    path = data_dir() / "scan-templates"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _deck_file(edition_id: str) -> Path:
    return templates_dir() / f"{re.sub(r'[^A-Za-z0-9_-]', '_', edition_id)}.npz"


def _load_deck(edition_id: str) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """letter → (letter template, number template) learned for the edition; {} when none."""
    path = _deck_file(edition_id)
    if not path.is_file():
        return {}
    with np.load(path) as data:
        letters = json.loads(str(data["letters"]))
        return {letter: (data[f"letter_{i}"], data[f"number_{i}"]) for i, letter in enumerate(letters)}


def _save_deck(edition_id: str, deck: dict[str, tuple[np.ndarray, np.ndarray]]) -> None:
    path = _deck_file(edition_id)
    letters = sorted(deck)
    arrays = {"letters": np.array(json.dumps(letters))}
    for i, letter in enumerate(letters):
        arrays[f"letter_{i}"], arrays[f"number_{i}"] = deck[letter]
    partial = path.with_suffix(".tmp.npz")
    np.savez_compressed(partial, **arrays)
    partial.replace(path)  # all or nothing: a crash mid-write keeps the old templates


def learned(edition: Edition) -> str:
    """The letters whose cards tourpad has learned for this edition, in the edition's order."""
    deck = _load_deck(edition.id)
    return "".join(letter for letter in edition.letters if letter in deck)


def forget_deck(edition: Edition) -> int:
    """Remove what was learned for the edition; how many cards that was."""
    count = len(_load_deck(edition.id))
    _deck_file(edition.id).unlink(missing_ok=True)
    return count


class TeachError(ValueError):
    """The photo or the letters cannot teach; the message names what to change."""


def teach_deck(source, edition: Edition, letters: str) -> str:
    """Learn the cards of one photo: `letters` are the cards in row order (Throw first, as `scan` reads
    them). Replaces those cards' templates, keeps the others. Returns the letters learned for the edition."""
    letters = letters.strip().upper()
    unknown = [letter for letter in letters if letter not in edition.letters]
    if unknown:
        raise TeachError(f"{edition.name} has no card {', '.join(unknown)} (its letters: {edition.letters})")
    twice = sorted({letter for letter in letters if letters.count(letter) > 1})
    if twice:
        raise TeachError(f"letter {', '.join(twice)} given twice: each card of the row once, in row order")
    row = find_cards(load_rgb(source))
    if not row.cards:
        raise TeachError("found no cards in the photo: lay the cards face up in one row on a plain table")
    if len(row.cards) != len(letters):
        raise TeachError(f"found {len(row.cards)} cards in the photo but {len(letters)} letters were given: "
                         "lay the cards in one row on a plain table, not touching the photo's edges")
    deck = _load_deck(edition.id)
    learn_cards(deck, [card.image for card in row.cards], letters)
    _save_deck(edition.id, deck)
    return learned(edition)


# --- Reading ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class CardReading:
    """What one card's corners say: the letter if certain, else None; and why not."""

    letter: str | None
    doubt: str = ""


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


def _disagree(edition: Edition, letter: str, digit: str) -> str:
    number = edition.numbers[edition.card_index(letter)]
    return (f"shows {letter} with number {digit}, but {edition.name}'s {letter} has number {number}: "
            "a card of another edition, or misread")


def learn_cards(deck: dict[str, tuple[np.ndarray, np.ndarray]], cards: list[np.ndarray], letters: str) -> None:
    """Add (or replace) the templates of rectified upright card images (CARD_PX grey) with known letters."""
    for card, letter in zip(cards, letters, strict=True):
        deck[letter] = (_template(_region(card, LETTER_BOX_MM), LETTER_GLYPH_MM),
                        _template(_region(card, NUMBER_BOX_MM), NUMBER_GLYPH_MM))


def read_card(card: np.ndarray, edition: Edition, deck: dict[str, tuple[np.ndarray, np.ndarray]]) -> CardReading:
    """The card's letter, only when its corner letter is read with certainty and its number agrees."""
    letter_region = _template(_region(card, LETTER_BOX_MM), LETTER_GLYPH_MM, SLACK_PX)
    number_region = _template(_region(card, NUMBER_BOX_MM), NUMBER_GLYPH_MM, SLACK_PX)
    number_of = dict(zip(edition.letters, edition.numbers, strict=True))
    if deck:
        letter = _certain(_distinct(letter_region, {k: [v[0]] for k, v in deck.items()}), TAUGHT_MIN, TAUGHT_MARGIN,
                          TAUGHT_RATIO)
        by_digit: dict[str, list[np.ndarray]] = {}
        for known, (_, number_template) in deck.items():
            by_digit.setdefault(str(number_of[known]), []).append(number_template)
        digit = _certain(_distinct(number_region, by_digit), TAUGHT_MIN, TAUGHT_MARGIN, TAUGHT_RATIO)
        if letter and digit:
            if int(digit) == number_of[letter]:
                return CardReading(letter)
            return CardReading(None, _disagree(edition, letter, digit))
    letter_scores = _best(letter_region, {k: list(_font_shapes(k)) for k in edition.letters}, invert=True)
    letter = _certain(letter_scores, FONT_MIN, FONT_MARGIN)
    digits = {str(d): list(_font_shapes(str(d))) for d in sorted(set(edition.numbers))}
    digit = _certain(_best(number_region, digits, invert=True), FONT_MIN, FONT_MARGIN)
    if letter is None or digit is None:
        return CardReading(None, "its corner letter or number is not clear")
    if int(digit) != number_of[letter]:
        return CardReading(None, _disagree(edition, letter, digit))
    return CardReading(letter)


@dataclass(frozen=True)
class PublisherRead:
    cards: tuple[FoundCard, ...]
    readings: tuple[CardReading, ...]
    seconds: float


def read_row(source, edition: Edition, rgb: np.ndarray | None = None) -> PublisherRead:
    """Find and read every publisher card in the photo, in row order."""
    started = time.perf_counter()
    rgb = load_rgb(source) if rgb is None else rgb
    deck = _load_deck(edition.id)
    row = find_cards(rgb, deck=deck)
    readings = tuple(read_card(card.image, edition, deck) for card in row.cards)
    return PublisherRead(row.cards, readings, time.perf_counter() - started)


def publisher_result(source, edition: Edition, taken=(), row_length: int = 7):
    """The row as a `scorer.scan.ScanResult` (same messages as for tourpad's own cards), or None when the
    photo shows no card at all (then the caller looks for QR codes harder)."""
    from scorer.scan import ScanResult, letter_problems

    read = read_row(source, edition)
    if not read.cards:
        return None
    found = len(read.cards)
    slots = [reading.letter for reading in read.readings] + [None] * max(0, row_length - found)
    problems = []
    if found < row_length:
        problems.append(f"found {found} cards; a row has {row_length}: is a card covered, or outside the photo?")
    elif found > row_length:
        problems.append(f"found {found} cards; a row has {row_length}: photograph one player's row only")
    problems += [f"position {i + 1}: {reading.doubt}" for i, reading in enumerate(read.readings)
                 if reading.doubt and "another edition" in reading.doubt]
    problems += letter_problems(((i, letter) for i, letter in enumerate(slots) if letter), taken)
    return ScanResult(edition.id, tuple(slots), tuple(problems), "row", (), read.seconds)
