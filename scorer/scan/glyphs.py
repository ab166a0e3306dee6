"""Read a publisher card's corner letter and number with nothing taught (issue 42): what every printing has.

A corner character is found as a shape, not at a fixed place: the corner window (a few mm around where
publishers print it, since the card's cut may be off by as much), looked at in the photo at its own resolution
when there is one, is split into what is darker and what is lighter than its surroundings, and every piece the
height of a printed character near where one is printed is a candidate, light-on-dark (a letter on a badge)
and dark-on-light alike. Each candidate, cut to its own outline and scaled to one height, is compared with the
character drawn in common faces (a publisher's font is none of them, so no single drawing is expected to fit:
the shape of the letter is). `scorer.scan.faces.read_corners` decides what is clear enough to name a card.

Plain OpenCV + numpy, nothing downloaded or trained at run time; the drawings are made once per process.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from assets import FONT_DIR, SHIPPED_FONTS
from scorer.scan.find import CARD_MM, PAD_MM, PX_PER_MM

#: A character is compared at this size (px): its outline scaled to GLYPH_H high, centred in GLYPH_W.
GLYPH_W, GLYPH_H = 32, 32
#: Where publishers print each character's centre (mm from the card's top-left), and how far from there a
#: candidate's centre may lie (the cut's error, a printing's offset).
NUMBER_AT_MM, LETTER_AT_MM = (8.0, 8.0), (8.5, CARD_MM[1] - 9.0)
NUMBER_REACH_MM, LETTER_REACH_MM = 5.0, 9.0
#: A character's printed height (mm): digits in their circle, letters on their badge.
NUMBER_HEIGHT_MM, LETTER_HEIGHT_MM = (3.0, 7.5), (4.0, 10.0)


@dataclass(frozen=True)
class GlyphRead:
    """How a corner's character fits each character it may be, best first (empty: no character found)."""

    ranked: tuple[tuple[str, float], ...] = ()
    #: Where the character was found in its corner window: its outline's box (x, y, w, h, px).
    box: tuple[int, int, int, int] = (0, 0, 0, 0)
    #: How busy the field round it is (`_field_spread`): a printed character sits on a plain one.
    field: float = float("inf")

    @property
    def char(self) -> str | None:
        return self.ranked[0][0] if self.ranked else None

    @property
    def fit(self) -> float:
        return self.ranked[0][1] if self.ranked else -1.0

    @property
    def margin(self) -> float:
        """The best character's lead over the next."""
        return self.ranked[0][1] - self.ranked[1][1] if len(self.ranked) > 1 else max(0.0, self.fit)


def _normalised(mask: np.ndarray) -> np.ndarray:
    """A character's mask (bool, cut to its outline) scaled to GLYPH_H high and centred in GLYPH_W, as float,
    smoothed a little: a stroke a pixel off still overlaps."""
    h, w = mask.shape
    width = max(1, min(GLYPH_W, round(w * GLYPH_H / h)))
    scaled = cv2.resize(mask.astype(np.float32), (width, GLYPH_H), interpolation=cv2.INTER_AREA)
    out = np.zeros((GLYPH_H, GLYPH_W), np.float32)
    x0 = (GLYPH_W - width) // 2
    out[:, x0:x0 + width] = scaled
    return cv2.GaussianBlur(out, (0, 0), 1.0)


def _unit(shape: np.ndarray) -> np.ndarray:
    centred = shape - shape.mean()
    return (centred / (np.linalg.norm(centred) + 1e-6)).ravel()


#: Reference faces for the corner characters, from Debian's fonts-urw-base35 and fonts-freefont-ttf (installed by
#: `make`): the common families a card's corner is printed in (grotesque, geometric and narrow sans, old-style and
#: modern serif, slab and typewriter), none of them a face the benchmark's printings use. With tourpad's own
#: shipped DejaVu Sans, they stand for a publisher's font.
REFERENCE_FACES = tuple(f"/usr/share/fonts/opentype/urw-base35/{name}.otf" for name in (
    "NimbusSans-Regular", "NimbusSans-Bold", "NimbusSansNarrow-Regular", "NimbusSansNarrow-Bold",
    "NimbusRoman-Regular", "NimbusRoman-Bold", "NimbusMonoPS-Regular", "NimbusMonoPS-Bold", "URWGothic-Book",
    "URWGothic-Demi", "C059-Roman", "C059-Bold", "P052-Roman", "P052-Bold", "URWBookman-Light",
    "URWBookman-Demi")) + tuple(f"/usr/share/fonts/truetype/freefont/{name}.ttf" for name in (
    "FreeSans", "FreeSansBold", "FreeSerif", "FreeSerifBold", "FreeMono", "FreeMonoBold"))


def _faces() -> tuple[str, ...]:
    """The faces the drawings are made in: tourpad's own and every reference face installed."""
    return tuple(str(FONT_DIR / name) for name in SHIPPED_FONTS) + tuple(
        path for path in REFERENCE_FACES if Path(path).is_file())


@cache
def _drawings(chars: str) -> np.ndarray:
    """Every character of `chars` drawn in each face, as unit vectors: (character, face, pixel)."""
    fonts = [ImageFont.truetype(path, 96) for path in _faces()]
    drawings = np.zeros((len(chars), len(fonts), GLYPH_W * GLYPH_H), np.float32)
    for c, char in enumerate(chars):
        for f, font in enumerate(fonts):
            left, top, right, bottom = font.getbbox(char)
            image = Image.new("L", (right - left + 24, bottom - top + 24), 0)
            ImageDraw.Draw(image).text((12 - left, 12 - top), char, font=font, fill=255)
            ys, xs = np.nonzero(np.asarray(image) > 127)
            drawings[c, f] = _unit(_normalised(np.asarray(image)[ys.min():ys.max() + 1, xs.min():xs.max() + 1] > 127))
    return drawings


#: How far from its surroundings' brightness a character's ink must be, as shares of the window's range: a
#: blurred thin stroke is lost at the higher ones (a letter split in pieces), a shadow or a picture's edge merges
#: at the lower ones; every level's pieces are candidates.
THRESHOLD_SHARES = (0.06, 0.12, 0.22)
#: Where the neighbourhood's range is under this share of the window's, nothing is a stroke (flat paper, noise).
LOCAL_CONTRAST = 0.4


@dataclass(frozen=True)
class _Window:
    """A corner of the card, upright and smoothed a little (float grey), `scale` px per mm, the character's
    expected centre at its middle."""

    grey: np.ndarray
    scale: float


#: The finest a corner is looked at (px per mm) when the photo has it: a thin stroke a cut at PX_PER_MM blurs away.
LOOK_PX_PER_MM = 8.0


def _window(card: np.ndarray, at_mm: tuple[float, float], half_mm: float,
            photo: tuple[np.ndarray, np.ndarray] | None) -> _Window:
    """The square window `half_mm` round `at_mm` (mm from the card's top-left): from the photo (grey, and where
    each of the cut's pixels lies in it) at up to LOOK_PX_PER_MM, as finely as the photo shows the card;
    without it, from the cut."""
    x0_mm, y0_mm = PAD_MM + at_mm[0] - half_mm, PAD_MM + at_mm[1] - half_mm
    scale = float(PX_PER_MM)
    if photo is not None:
        grey, cut_to_photo = photo
        photo_px_per_mm = PX_PER_MM * float(np.sqrt(abs(np.linalg.det(cut_to_photo[:2, :2]))))
        scale = min(LOOK_PX_PER_MM, max(float(PX_PER_MM), photo_px_per_mm))
        window_to_cut = np.array([[PX_PER_MM / scale, 0, x0_mm * PX_PER_MM], [0, PX_PER_MM / scale, y0_mm * PX_PER_MM],
                                  [0, 0, 1]])
        size = round(2 * half_mm * scale)
        image = cv2.warpPerspective(grey, cut_to_photo @ window_to_cut, (size, size),
                                    flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
    else:
        x0, y0, size = round(x0_mm * PX_PER_MM), round(y0_mm * PX_PER_MM), round(2 * half_mm * PX_PER_MM)
        image = cv2.copyMakeBorder(card, size, size, size, size, cv2.BORDER_REPLICATE)[
            y0 + size:y0 + 2 * size, x0 + size:x0 + 2 * size]
    return _Window(cv2.GaussianBlur(image.astype(np.float32), (0, 0), 0.7 * scale / PX_PER_MM), scale)


#: A character's piece: its outline's box (x, y, w, h) in the window, its mask cut to that box, and its kind (0
#: darker, 1 lighter than its surroundings).
Piece = tuple[tuple[int, int, int, int], np.ndarray, int]


def _character_sized(w: int, h: int, area: int, scale: float, height: tuple[float, float]) -> bool:
    """Whether a piece is the size and shape of a printed character (`height` in px)."""
    fill = area / (w * h)
    return height[0] <= h <= height[1] and 0.5 * scale <= w <= 1.6 * h and \
        0.06 <= fill <= (0.95 if w < 0.35 * h else 0.8)


@dataclass(frozen=True)
class _Pieces:
    """A window's pieces that could be a printed character (`loose`), and its badges (box, mask, and the kind of
    what they hold), whose gaps are looked into only when no loose piece reads clearly (`held`): most reads
    never need them."""

    loose: list[Piece]
    badges: list[Piece]
    scale: float
    height: tuple[float, float]  #: a character's height (px)
    near: Callable[[int, int, int, int], bool]  #: whether a box (x, y, w, h) is centred where a character may be

    def held(self) -> list[Piece]:
        """The characters the badges hold (`_held_by_badge`), as pieces of the window."""
        return [((left + x, top + y, w, h), inner, kind)
                for (left, top, _w, _h), badge, kind in self.badges
                for (x, y, w, h), inner in _held_by_badge(badge, self.scale, self.height)
                if self.near(left + x, top + y, w, h)]


def _candidates(window: _Window, reach_mm: float, height_mm: tuple[float, float]) -> _Pieces:
    """The pieces of the window that could be a printed character: the height of a character, centred within
    `reach_mm` of the window's middle, not touching its edge; and the badges that may hold one."""
    grey, scale = window.grey, window.scale
    cy, cx = grey.shape[0] / 2, grey.shape[1] / 2
    around = cv2.GaussianBlur(grey, (0, 0), 1.5 * scale)
    spread = float(np.percentile(grey, 95) - np.percentile(grey, 5))
    height = (height_mm[0] * scale, height_mm[1] * scale)
    masks = [mask for share in THRESHOLD_SHARES
             for mask in (grey < around - max(4.0, share * spread), grey > around + max(4.0, share * spread))]
    # A thin stroke blurred to half its contrast (an H's bar, an M's diagonals in a serif) falls below those
    # thresholds and splits the character: against its own neighbourhood's darkest and lightest (2 mm), it is
    # still on the character's side of the middle.
    kernel = np.ones((2 * round(scale) + 1,) * 2, np.uint8)
    lightest, darkest = cv2.dilate(grey, kernel), cv2.erode(grey, kernel)
    middle, contrasty = (lightest + darkest) / 2, lightest - darkest > max(8.0, LOCAL_CONTRAST * spread)
    masks += [contrasty & (grey < middle), contrasty & (grey > middle)]

    def near(left: int, top: int, w: int, h: int) -> bool:
        return bool(np.hypot(left + w / 2 - cx, top + h / 2 - cy) <= reach_mm * scale)

    sized, badges = [], []
    for index, mask in enumerate(masks):
        count, labels, stats, _centres = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
        for label in range(1, count):
            left, top, w, h, area = stats[label]
            badge = height[0] <= h <= BADGE_TALLER * height[1] and w <= BADGE_TALLER * height[1] and \
                area >= BADGE_FILL * w * h
            character = _character_sized(w, h, area, scale, height) and near(left, top, w, h) and not (
                left == 0 or top == 0 or left + w >= grey.shape[1] or top + h >= grey.shape[0])
            if not (badge or character):
                continue  # most pieces: specks of noise and picture, never cut out
            piece = labels[top:top + h, left:left + w] == label
            if badge:
                badges.append(((left, top, w, h), piece, 1 - index % 2))
            if character:
                sized.append(((left, top, w, h), piece, index % 2))
    return _Pieces(sized, badges, scale, height, near)


#: A badge is a piece at most this many times a character's greatest height, tall and wide, that fills at least
#: BADGE_FILL of its box and BADGE_SOLID of its outline (a ring round a number is no badge: its inside is a field).
BADGE_TALLER, BADGE_FILL, BADGE_SOLID = 1.6, 0.35, 0.5


def _held_by_badge(badge: np.ndarray, scale: float, height: tuple[float, float],
                   ) -> list[tuple[tuple[int, int, int, int], np.ndarray]]:
    """The characters a badge's outline holds (box in the badge's box, and mask), as the gaps inside its convex
    outline: a letter that runs into the edge of a badge hardly larger than itself (a hexagon's, a blurred
    photo's) joins the field beyond the badge at every threshold, so it is never a piece of its own, but the
    badge's outline still surrounds it."""
    outline = np.zeros(badge.shape, np.uint8)
    cv2.fillConvexPoly(outline, cv2.convexHull(cv2.findNonZero(badge.astype(np.uint8))), 1)
    if badge.sum() < BADGE_SOLID * outline.sum():
        return []
    gaps = cv2.erode(outline, np.ones((3, 3), np.uint8)).astype(bool) & ~badge
    _count, labels, stats, _centres = cv2.connectedComponentsWithStats(gaps.astype(np.uint8), connectivity=8)
    return [((left, top, w, h), labels[top:top + h, left:left + w] == label)
            for label, (left, top, w, h, area) in enumerate(stats[1:].tolist(), start=1)
            if _character_sized(w, h, area, scale, height)]


#: A piece fits some character's drawings at least this well to be taken for a character at all.
SHAPE_FIT = 0.6


def _split(box: tuple[int, int, int, int], kind: int, others: list[Piece], scale: float) -> bool:
    """Whether a piece is half of a character split by blur at a thin stroke (a serif W's middle, read as a V):
    another piece of its kind about as tall lies beside it, side by side, with no gap between them."""
    left, top, w, h = box
    for (x, y, xw, yh), _mask, other_kind in others:
        if other_kind != kind or (x, y, xw, yh) == box or yh < SPLIT_HEIGHT * h:
            continue
        beside = min(top + h, y + yh) - max(top, y) >= 0.5 * min(h, yh)
        gap = max(x - (left + w), left - (x + xw))
        if beside and -SPLIT_OVERLAP * min(w, xw) <= gap <= SPLIT_GAP_MM * scale:
            return True
    return False


#: Pieces at least this share of each other's height, at most SPLIT_GAP_MM apart (or overlapping by at most
#: SPLIT_OVERLAP of the narrower one's width), are one character split in two.
SPLIT_HEIGHT, SPLIT_GAP_MM, SPLIT_OVERLAP = 0.6, 0.5, 0.3


def _read(window: _Window, candidates: list[Piece], chars: str) -> GlyphRead:
    """The character the candidates show, with its fit and its lead over any other character: the largest
    candidate that looks like a character (one stroke of a D, split off by blur, is a perfect I) and holds no
    candidate that fits better (a circle's fill round its digit, a badge round its letter)."""
    drawings = _drawings(chars)
    reads = []
    if candidates:
        shapes = np.array([_unit(_normalised(mask)) for _box, mask, _kind in candidates])
        fits = np.einsum("cfp,kp->kcf", drawings, shapes).max(axis=2)  # (candidate, character): its best face
        for (box, mask, kind), row in zip(candidates, fits.tolist(), strict=True):
            if _split(box, kind, candidates, window.scale):
                continue
            ranked = tuple(sorted(zip(chars, row, strict=True), key=lambda item: -item[1]))
            reads.append((box, mask, int(mask.sum()), GlyphRead(ranked, tuple(int(v) for v in box))))

    def held(outer_box, outer_mask, inner_box, inner_mask) -> bool:
        """Whether the inner piece lies inside the outer one's outline, in its hole (a digit in its circle's
        fill), not over its ink (a stroke of the same letter, found at another threshold)."""
        (left, top, w, h), (x, y, xw, yh) = outer_box, inner_box
        if not (left < x and top < y and x + xw < left + w and y + yh < top + h):
            return False
        under = outer_mask[y - top:y - top + yh, x - left:x - left + xw]
        return float((under & inner_mask).sum()) < 0.2 * float(inner_mask.sum())

    best, best_area, best_mask = GlyphRead(), -1, None
    for box, mask, area, read in reads:
        if read.fit < SHAPE_FIT or any(held(box, mask, inner_box, inner_mask) and inner.fit > read.fit
                                       for inner_box, inner_mask, _area, inner in reads):
            continue
        if (area, read.fit) > (best_area, best.fit):
            best, best_area, best_mask = read, area, mask
    if best_mask is None:
        return best
    return GlyphRead(best.ranked, best.box, _field_spread(window, best.box, best_mask))


#: The band round a character whose greys tell a plain field from a busy one (mm).
FIELD_BAND_MM = 0.5


def _field_spread(window: _Window, box: tuple[int, int, int, int], ink: np.ndarray) -> float:
    """How unlike a plain field the band round a character's outline is: its spread of greys against the
    character's contrast with it (`ink`: the character's pixels in its box). A printed character sits on a
    plain badge, circle or margin; a bar that is a stroke of something larger, or an edge, does not."""
    x, y, w, h = box
    band = max(1, round(FIELD_BAND_MM * window.scale))
    x0, y0 = max(0, x - band), max(0, y - band)
    around = window.grey[y0:y + h + band, x0:x + w + band].copy()
    around[y - y0:y - y0 + h, x - x0:x - x0 + w] = np.nan
    ring = around[~np.isnan(around)]
    if ring.size == 0:
        return float("inf")
    contrast = abs(float(np.median(window.grey[y:y + h, x:x + w][ink])) - float(np.median(ring)))
    return float(np.std(ring)) / (contrast + 1e-3)


def _read_clearest(window: _Window, pieces: _Pieces, chars: str, clear: float) -> GlyphRead:
    """The character the window's pieces show; when none reads `clear`, the one its badges hold, if that reads
    better (looked for only then: a badge's gaps are often pieces of a picture, never a character)."""
    read = _read(window, pieces.loose, chars)
    if read.fit >= clear:
        return read
    held = pieces.held()
    if not held:
        return read
    on_badge = _read(window, held, chars)
    return on_badge if on_badge.fit > read.fit else read


def read_letter(card: np.ndarray, letters: str, photo: tuple[np.ndarray, np.ndarray] | None = None,
                clear: float = 1.0) -> GlyphRead:
    """The card's corner letter among `letters` (the edition's), from its cut (grey, upright, padded) or, given
    the photo (grey, and where each of the cut's pixels lies in it), from the photo at its own resolution. A
    letter that does not fit some drawing `clear`ly is looked for on its badge too."""
    window = _window(card, LETTER_AT_MM, LETTER_REACH_MM + LETTER_HEIGHT_MM[1] / 2 + 1.5, photo)
    return _read_clearest(window, _candidates(window, LETTER_REACH_MM, LETTER_HEIGHT_MM), letters, clear)


def read_number(card: np.ndarray, digits: str, photo: tuple[np.ndarray, np.ndarray] | None = None,
                clear: float = 1.0) -> GlyphRead:
    """The card's number (one digit of `digits`) inside its circle at the top-left corner (`clear`: as for a
    letter)."""
    window = _window(card, NUMBER_AT_MM, NUMBER_REACH_MM + NUMBER_HEIGHT_MM[1] / 2 + 1.5, photo)
    return _read_clearest(window, _candidates(window, NUMBER_REACH_MM, NUMBER_HEIGHT_MM), digits, clear)
