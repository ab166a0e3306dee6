"""Read every card code in one photo with zxing-cpp, however hard the photo: close looks where the row says a
card should be, a blurred code told by its look among the game's known codes, the photo's busiest spots.

Image work only (numpy, Pillow, zxing-cpp): a greyscale image in, `FoundCode`s with their corners out. What
the codes say of the row (order, letters, problems) is `scorer.scan.rows`, shared with the web app's reader.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageFilter, ImageOps

from printables.payload import CARD_QR_BORDER
from rules.edition import Edition
from scorer.scan.image import load_photo
from scorer.scan.known import known_codes
from scorer.scan.rows import ROW_LENGTH, FoundCode, arrange, expected_spots, neighbours

#: CPU seconds the fallbacks may spend on a hard photo after the first read (the bench's bar is on the median,
#: 100 ms, which the first read meets; a far, blurred photo may take this long rather than ask for another:
#: the hardest of the bench's photos, five to seven codes found by their shape, need 1.1–1.7 s).
#: CPU time of this thread, not the wall clock: a busy machine then gives the same answer, only later.
DEFAULT_BUDGET = 2.0

# --- Reading the codes --------------------------------------------------------------------------------------

def load_image(source: bytes | bytearray | str | Path | Image.Image) -> Image.Image:
    """A greyscale image upright as the phone meant it (EXIF rotation applied); ScanImageError otherwise."""
    return load_photo(source, "L")


def _decode(gray: np.ndarray | Image.Image, binarizer=None,
            unread: list[np.ndarray] | None = None) -> list[tuple[str, np.ndarray]]:
    """(text, corners) of every QR code read. With `unread`, the corners of codes that were located but whose
    bits failed the error correction are appended to it (a blurred code: `match_known_code` may still tell it)."""
    import zxingcpp

    kwargs = {"formats": zxingcpp.BarcodeFormat.QRCode, "try_invert": False, "return_errors": unread is not None}
    if binarizer is not None:
        kwargs["binarizer"] = binarizer
    out = []
    for code in zxingcpp.read_barcodes(gray, **kwargs):
        p = code.position
        corners = np.array([(c.x, c.y) for c in (p.top_left, p.top_right, p.bottom_right, p.bottom_left)], float)
        if code.valid:
            out.append((code.text, corners))
        elif unread is not None:
            unread.append(corners)
    return out


# --- Telling a blurred code by its look ---------------------------------------------------------------------

#: A located code is taken for a known card only if its modules agree with that card's code this well
#: (correlation of the sampled greys with the code's dark/light pattern, -1..1) ...
MATCH_MIN = 0.5
#: ... and this much better than with any other card's code (one edition's codes share most of their modules,
#: so a true code's rivals still fit about 0.6–0.7; a sample that fits two about equally is too blurred to tell).
MATCH_MARGIN = 0.12


@dataclass(frozen=True)
class _CodeFamily:
    """The card codes of one size (modules across) a photo of the game may show, ready to compare: the
    modules that differ between them (`telling`) and, per payload, those modules' pattern, centred and
    scaled to unit length (+ for dark). `fixed_points` are the centres of the modules every one of them
    shares (finder and timing patterns, the common text, the printed quiet zone around), in modules from
    the code's centre, and `fixed_pattern` their look, centred and scaled the same way (+ for light): what
    finds a code whose bits are too soft for any binarizer (`locate_known_code`)."""

    modules: int
    payloads: tuple[str, ...]
    telling: np.ndarray
    patterns: np.ndarray
    fixed_points: np.ndarray
    fixed_pattern: np.ndarray


def _code_families(edition: Edition) -> tuple[_CodeFamily, ...]:
    """Every card code a photo of this game may show: this edition's cards and every bundled edition's, so
    another game's card is told as such, not taken for one of ours."""
    key = (edition.id, edition.letters)
    cached = _FAMILIES.get(key)
    if cached is None:
        by_size: dict[int, list[tuple[str, np.ndarray]]] = {}
        for payload, rows in known_codes(edition):
            matrix = np.array([[module == "1" for module in row] for row in rows], np.float32)
            by_size.setdefault(len(matrix), []).append((payload, np.where(matrix > 0, 1.0, -1.0)))
        families = []
        for modules, group in by_size.items():
            stack = np.stack([pattern for _, pattern in group])
            telling = stack.min(axis=0) != stack.max(axis=0)
            if len(group) < 2 or telling.sum() < 8:
                continue
            picked = stack[:, telling]
            picked = picked - picked.mean(axis=1, keepdims=True)
            picked /= np.linalg.norm(picked, axis=1, keepdims=True)
            points, looks = [], []
            for row in range(-CARD_QR_BORDER, modules + CARD_QR_BORDER):
                for column in range(-CARD_QR_BORDER, modules + CARD_QR_BORDER):
                    inside = 0 <= row < modules and 0 <= column < modules
                    if inside and telling[row, column]:
                        continue
                    points.append((column + 0.5 - modules / 2, row + 0.5 - modules / 2))
                    looks.append(-stack[0, row, column] if inside else 1.0)
            fixed = np.array(looks, np.float32) - np.mean(looks)
            families.append(_CodeFamily(modules, tuple(p for p, _ in group), telling, picked.astype(np.float32),
                                        np.array(points, np.float32), fixed / np.linalg.norm(fixed)))
        cached = _FAMILIES[key] = tuple(families)
    return cached


_FAMILIES: dict[tuple[str, str], tuple[_CodeFamily, ...]] = {}


def _sample_modules(gray: np.ndarray, corners: np.ndarray, modules: int) -> np.ndarray | None:
    """The grey level at every module centre of a code whose outer corners (top-left, top-right,
    bottom-right, bottom-left) are `corners`: a projective map from module space, bilinear sampling."""
    src = np.array([(0, 0), (modules, 0), (modules, modules), (0, modules)], float)
    rows, rhs = [], []
    for (u, v), (x, y) in zip(src, corners, strict=True):
        rows.append([u, v, 1, 0, 0, 0, -x * u, -x * v])
        rows.append([0, 0, 0, u, v, 1, -y * u, -y * v])
        rhs.extend([x, y])
    try:
        h = np.append(np.linalg.solve(np.array(rows), np.array(rhs)), 1.0).reshape(3, 3)
    except np.linalg.LinAlgError:
        return None
    centres = np.arange(modules) + 0.5
    u, v = np.meshgrid(centres, centres)
    w = h[2, 0] * u + h[2, 1] * v + h[2, 2]
    x = (h[0, 0] * u + h[0, 1] * v + h[0, 2]) / w
    y = (h[1, 0] * u + h[1, 1] * v + h[1, 2]) / w
    height, width = gray.shape
    if x.min() < 0 or y.min() < 0 or x.max() > width - 2 or y.max() > height - 2:
        return None
    x0, y0 = np.floor(x).astype(int), np.floor(y).astype(int)
    fx, fy = x - x0, y - y0
    g = gray.astype(np.float32)
    return (g[y0, x0] * (1 - fx) * (1 - fy) + g[y0, x0 + 1] * fx * (1 - fy) +
            g[y0 + 1, x0] * (1 - fx) * fy + g[y0 + 1, x0 + 1] * fx * fy)


def match_known_code(gray: np.ndarray, corners: np.ndarray, edition: Edition) -> str | None:
    """The payload of the card code located at `corners` whose bits were too blurred to decode, told by
    comparing its module greys with every card code the game can have; None unless one fits clearly best.

    A phone's QR reader must decode any text; ours only has to tell which of a few dozen known codes this
    is, which a code far too soft for the error correction still shows (its finder patterns were found).
    Only the modules that differ between the codes are compared: finder patterns, timing and the shared
    `tp:<edition>:` part would make every code look alike."""
    scores: list[tuple[float, str]] = []
    for family in _code_families(edition):
        sample = _sample_modules(gray, corners, family.modules)
        if sample is None:
            continue
        sample = sample[family.telling] - sample[family.telling].mean()
        norm = float(np.linalg.norm(sample))
        if norm < 1e-6:
            continue
        # dark modules are low grey: a good fit correlates negatively with the +1-for-dark pattern
        fits = -(family.patterns @ sample) / norm
        scores.extend(zip(fits.tolist(), family.payloads, strict=True))
    if len(scores) < 2:
        return None
    scores.sort(reverse=True)
    (best, payload), (second, _) = scores[0], scores[1]
    return payload if best >= MATCH_MIN and best - second >= MATCH_MARGIN else None


#: A code is taken as located by its shared modules only if they fit this well (correlation, -1..1): true codes
#: fit 0.7–0.85 even at 2.3 px per module blurred by 1.5 px, card text and table 0.35 at most.
LOCATE_MIN = 0.5


def _fixed_fit(gray: np.ndarray, family: _CodeFamily, frames: np.ndarray) -> np.ndarray:
    """How well the shared modules fit at each frame (rows of centre x, y, then one module's step along the
    code's right and down); -1 where the code would reach out of the image."""
    points = family.fixed_points
    xs = frames[:, 0, None] + points[None, :, 0] * frames[:, 2, None] + points[None, :, 1] * frames[:, 4, None]
    ys = frames[:, 1, None] + points[None, :, 0] * frames[:, 3, None] + points[None, :, 1] * frames[:, 5, None]
    height, width = gray.shape
    inside = ((xs >= 0) & (ys >= 0) & (xs < width - 1) & (ys < height - 1)).all(axis=1)
    xs, ys = np.clip(xs, 0, width - 1.001), np.clip(ys, 0, height - 1.001)
    x0, y0 = xs.astype(np.int32), ys.astype(np.int32)
    fx, fy = xs - x0, ys - y0
    sample = (gray[y0, x0] * (1 - fx) * (1 - fy) + gray[y0, x0 + 1] * fx * (1 - fy) +
              gray[y0 + 1, x0] * (1 - fx) * fy + gray[y0 + 1, x0 + 1] * fx * fy)
    sample -= sample.mean(axis=1, keepdims=True)
    norm = np.linalg.norm(sample, axis=1)
    fits = (sample @ family.fixed_pattern) / np.where(norm < 1e-6, np.inf, norm)
    return np.where(inside, fits, -1.0)


def _turned(vector: np.ndarray, degrees: float) -> np.ndarray:
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    return np.array([c * vector[0] - s * vector[1], s * vector[0] + c * vector[1]])


def locate_known_code(gray: np.ndarray, centre: np.ndarray, edges: np.ndarray, reach: float,
                      edition: Edition) -> np.ndarray | None:
    """The corners of a card code near `centre` whose shape is about `edges` (its top edge's and left edge's
    vectors, as a neighbour shows them), found by the modules every card code shares, not by a binarizer:
    at 2–3 px per module, out of focus, no finder pattern survives thresholding, yet the greys still follow
    the known pattern. None unless they fit at least LOCATE_MIN. Which code it is, `match_known_code` says.
    `edges` may also hold several shapes to start from (n × 2 × 2: the four ways up of an unknown code).

    A grid of places within `reach` (a module apart) in each shape; the likeliest turned ±3° and scaled ±5 %
    (cards lie a little askew), then the best few refined step by step in position, turn, size and skew."""
    starts = np.asarray(edges, float).reshape(-1, 2, 2)
    # Only the patch the search can reach is converted: the whole photo in floats would cost more than the search.
    half = reach + 1.1 * float(np.abs(starts).sum(axis=1).max())
    x0, y0 = max(0, int(centre[0] - half)), max(0, int(centre[1] - half))
    x1 = min(gray.shape[1], max(0, int(centre[0] + half) + 2))
    y1 = min(gray.shape[0], max(0, int(centre[1] + half) + 2))
    if x1 - x0 < 4 or y1 - y0 < 4:  # the spot lies beyond the photo's edge
        return None
    gray = np.asarray(gray[y0:y1, x0:x1], np.float32)
    centre = np.asarray(centre, float) - (x0, y0)
    best: tuple[float, np.ndarray | None] = (LOCATE_MIN, None)
    for family in _code_families(edition):
        shapes = starts / family.modules  # one module's step along the code's right and down
        module = math.sqrt(abs(shapes[0, 0, 0] * shapes[0, 1, 1] - shapes[0, 0, 1] * shapes[0, 1, 0]))
        if module < 0.5:
            continue
        # Places first, in the expected shapes; then the likeliest places in every nearby shape.
        steps = np.arange(-reach, reach + 1e-6, module)
        dx, dy = (offset.ravel() for offset in np.meshgrid(steps, steps))
        places = np.column_stack([centre[0] + dx, centre[1] + dy])
        frames = np.concatenate([np.column_stack([places, np.tile(shape.ravel(), (len(places), 1))])
                                 for shape in shapes])
        frames = frames[np.argsort(_fixed_fit(gray, family, frames))[::-1][:8]]
        frames = np.concatenate([np.column_stack([frames[:, :2], _turned(frames[:, 2:4].T, turn).T * scale,
                                                  _turned(frames[:, 4:6].T, turn).T * scale])
                                 for turn in (-3, 0, 3) for scale in (0.95, 1.0, 1.05)])
        fits = _fixed_fit(gray, family, frames)
        for start in np.argsort(fits)[::-1][:4]:
            frame, fit = frames[start], float(fits[start])
            step = np.array([0.5, 0.5, 0.04, 0.04, 0.04, 0.04]) * module
            for _halving in range(5):
                for _move in range(4):
                    trials = np.vstack([frame + np.diag(step), frame - np.diag(step)])
                    trial_fits = _fixed_fit(gray, family, trials)
                    pick = int(np.argmax(trial_fits))
                    if trial_fits[pick] <= fit + 1e-4:
                        break
                    frame, fit = trials[pick], float(trial_fits[pick])
                step = step / 2
            if fit > best[0]:
                middle = frame[:2]
                half_right, half_down = frame[2:4] * family.modules / 2, frame[4:6] * family.modules / 2
                corners = np.array([middle - half_right - half_down, middle + half_right - half_down,
                                    middle + half_right + half_down, middle - half_right + half_down])
                best = (fit, corners + np.array([x0, y0]))
    return best[1]


def _found(text: str, corners: np.ndarray, scale: float, offset: tuple[float, float]) -> FoundCode:
    corners = corners / scale + np.array(offset)
    centre = corners.mean(axis=0)
    right = (corners[1] - corners[0]) + (corners[2] - corners[3])
    size = float(np.mean([np.linalg.norm(corners[i] - corners[(i + 1) % 4]) for i in range(4)]))
    norm = float(np.linalg.norm(right)) or 1.0
    return FoundCode(text, (float(centre[0]), float(centre[1])), (float(right[0] / norm), float(right[1] / norm)),
                     size, tuple((float(x), float(y)) for x, y in corners))


def _merge(codes: list[FoundCode], new: Iterable[FoundCode]) -> int:
    """Add codes not already found (same place = same code, whichever attempt read it); how many were new."""
    added = 0
    for code in new:
        if all(math.dist(code.centre, seen.centre) > 0.5 * max(code.size, seen.size) for seen in codes):
            codes.append(code)
            added += 1
    return added


def _deblurred(image: Image.Image, sigma: float, noise: float = 0.03) -> Image.Image:
    """A Wiener filter for a Gaussian blur of `sigma` px (a phone slightly out of focus): the frequencies
    the blur damped are raised again, as far as `noise` (the grain's share) allows, then the greys stretched.
    For a small crop: an FFT of the whole image would cost more than every other look together."""
    pixels = np.asarray(image, np.float32)
    fy = np.fft.fftfreq(pixels.shape[0])[:, None]
    fx = np.fft.rfftfreq(pixels.shape[1])[None, :]
    blur = np.exp(-2 * np.pi ** 2 * sigma ** 2 * (fx ** 2 + fy ** 2))
    mean = float(pixels.mean())
    out = np.fft.irfft2(np.fft.rfft2(pixels - mean) * blur / (blur ** 2 + noise), s=pixels.shape) + mean
    low, high = np.percentile(out, (0.5, 99.5))
    return Image.fromarray(np.clip((out - low) * (255 / max(1e-6, high - low)), 0, 255).astype(np.uint8))


def _sharpened(image: Image.Image, radius: float = 2, percent: int = 300) -> Image.Image:
    # Undoes some of the camera's blur: a code whose modules ran together gets its edges back.
    return image.filter(ImageFilter.UnsharpMask(radius=radius, percent=percent, threshold=0))


#: Size (px) assumed for a code near a busy spot when no code has been read yet: small codes are the hard ones
#: (the first pass over the whole photo reads the large ones), about 2.6 px per module.
GUESSED_CODE_SIZE = 56


def _read_around(image: Image.Image, centre: np.ndarray, size: float, doubt: float = 0.0,
                 edition: Edition | None = None, sizes: int = 3, skip: int = 0) -> list[FoundCode]:
    """Look hard at the one spot where a card's code should be: crop, sharpen, enlarge to ~8 px per module,
    try three binarizers, then a smoothed, contrast-stretched copy (a dim, grainy photo). A crop is small, so
    this costs a few milliseconds where the whole photo costs 50+. If no attempt decodes but one located a
    code, the code is told by its look among the game's card codes (`match_known_code`, with `edition`)."""
    half = 1.4 * size + doubt
    box = (max(0, int(centre[0] - half)), max(0, int(centre[1] - half)),
           min(image.width, int(centre[0] + half)), min(image.height, int(centre[1] + half)))
    if box[2] - box[0] < size / 2 or box[3] - box[1] < size / 2:
        return []
    crop = image.crop(box)
    # ~8 px per module, then ~6 and ~7: at 2–3 px per module in the photo, whether the locator finds a code's finder
    # patterns hangs on how the enlargement lands on the blurred edges, so a second size often finds it.
    # `sizes` says how many of these enlargements to try: all where the row says a card lies, fewer on a guess;
    # `skip` leaves out the first ones (tried already).
    enlargements = ((4.0, 200), (3.0, 150), (3.5, 175))[skip:sizes]
    for factor in dict.fromkeys(min(limit, max(1.0, px / size)) for limit, px in enlargements):
        found = _read_crop(crop, factor, box[:2], edition)
        if found:
            return found
    return []


def _read_crop(crop: Image.Image, factor: float, offset: tuple[int, int], edition: Edition | None) -> list[FoundCode]:
    import zxingcpp

    def enlarged(img: Image.Image) -> Image.Image:
        if factor < 1.05:
            return img
        return img.resize((round(img.width * factor), round(img.height * factor)), Image.BICUBIC)

    # Sharpen before enlarging: the same effect on a ninth of the pixels. Strong sharpening with a fixed
    # threshold reads the most blurred codes (measured on the bench photos); the others catch the rest.
    # Grain (a dim room) breaks the binarizer's runs and sharpening makes it worse: average it away first,
    # and stretch what contrast is left past the binarizer's minimum. A code too soft for all of those
    # (2–3 px per module, out of focus) has its blur undone (`_deblurred`) for the locator. Each look is
    # made only if the ones before it failed.
    sharp = cache(lambda: enlarged(_sharpened(crop, 1.5)))
    sharper = cache(lambda: enlarged(_sharpened(crop, 1.5, 600)))
    looks = ((sharp, zxingcpp.Binarizer.LocalAverage),
             (sharper, zxingcpp.Binarizer.FixedThreshold),
             (sharper, zxingcpp.Binarizer.LocalAverage),
             (lambda: enlarged(crop), zxingcpp.Binarizer.LocalAverage),
             (sharp, zxingcpp.Binarizer.GlobalHistogram),
             (lambda: enlarged(ImageOps.autocontrast(crop.filter(ImageFilter.BoxBlur(1)), cutoff=1)),
              zxingcpp.Binarizer.LocalAverage),
             (deblurred := cache(lambda: enlarged(_deblurred(crop, 1.3))), zxingcpp.Binarizer.LocalAverage),
             (deblurred, zxingcpp.Binarizer.FixedThreshold),
             (lambda: enlarged(_deblurred(crop, 1.3, 0.01)), zxingcpp.Binarizer.LocalAverage),
             (deblurred_more := cache(lambda: enlarged(_deblurred(crop, 1.6, 0.01))),
              zxingcpp.Binarizer.FixedThreshold),
             (deblurred_more, zxingcpp.Binarizer.LocalAverage),
             (lambda: enlarged(_deblurred(crop, 1.6)), zxingcpp.Binarizer.LocalAverage))
    for look, binarizer in looks:
        pixels = np.asarray(look())
        unread: list[np.ndarray] = []
        found = [_found(t, c, factor, offset) for t, c in _decode(pixels, binarizer, unread)]
        if found:
            return found
        for corners in unread if edition is not None else ():
            payload = match_known_code(pixels, corners, edition)
            if payload is not None:
                return [_found(payload, corners, factor, offset)]
    return []


def _tell_around(gray: np.ndarray, centre: np.ndarray, size: float, doubt: float, edges: np.ndarray,
                 edition: Edition) -> list[FoundCode]:
    """The card code near `centre`, shaped about as `edges` say, when no binarizer could even locate it:
    found by its shared modules (`locate_known_code`), then told by its own (`match_known_code`) with the
    blur undone (`_deblurred`): each module's grey then owes less to its neighbours', which sets the true
    code further apart from its rivals (margins 0.15–0.3 rather than 0.10–0.27 on the bench's hardest)."""
    corners = locate_known_code(gray, centre, edges, 0.3 * size + doubt, edition)
    if corners is None:
        return []
    x0, y0 = (max(0, int(v) - 16) for v in corners.min(axis=0))
    x1, y1 = (int(v) + 16 for v in corners.max(axis=0))
    sharpened = np.asarray(_deblurred(Image.fromarray(gray[y0:y1, x0:x1]), 1.3))
    payload = match_known_code(sharpened, corners - np.array([x0, y0]), edition)
    return [] if payload is None else [_found(payload, corners, 1.0, (0, 0))]


def _grid_angle(gray: np.ndarray, centre: np.ndarray, half: float) -> float:
    """The angle (radians, modulo a quarter turn) of the square grid the patch at `centre` is drawn on: a
    code's module edges run along its two axes, so the gradients' directions, taken four times over (which
    folds the four edge directions into one), average to it."""
    x0, y0 = max(0, int(centre[0] - half)), max(0, int(centre[1] - half))
    patch = gray[y0:int(centre[1] + half), x0:int(centre[0] + half)].astype(np.float32)
    if min(patch.shape) < 3:
        return 0.0
    dy, dx = np.gradient(patch)
    gradient = dx + 1j * dy
    return float(np.angle(np.sum(gradient ** 4 / np.maximum(np.abs(gradient) ** 2, 1e-3))) / 4)


def _tell_anywhere(gray: np.ndarray, spot: np.ndarray, size: float, edition: Edition) -> list[FoundCode]:
    """A card code near a busy spot when not one code of the photo was read, so no neighbour says its shape:
    turned as the patch's grid runs (`_grid_angle`), any of the four ways up, square, `size` across."""
    angle = _grid_angle(gray, spot, size)
    rights = [size * np.array([math.cos(angle + quarter * math.pi / 2), math.sin(angle + quarter * math.pi / 2)])
              for quarter in range(4)]
    return _tell_around(gray, spot, size, 0.3 * size, np.array([(right, (-right[1], right[0])) for right in rights]),
                        edition)


#: The detail map's pixel is this many photo pixels wide: fine enough that a small code's modules (2–3 px)
#: still show as contrast, coarse enough to stay cheap.
MAP_STEP = 2


class Detail:
    """How much fine black-and-white texture the photo has around a point, from a half-size map of local
    contrast (computed on first use). QR codes are the densest texture on a card table, so unread codes
    still show up here even when too blurred to decode in one pass over the whole photo."""

    def __init__(self, image: Image.Image) -> None:
        self.image = image
        self._contrast: np.ndarray | None = None
        self._integral: np.ndarray | None = None

    def _map(self) -> np.ndarray:
        if self._contrast is None:
            small = np.asarray(self.image.reduce(MAP_STEP), np.int16)
            h, w = small.shape
            padded = np.pad(small, 1, mode="edge")
            shifted = [padded[dy:dy + h, dx:dx + w] for dy in range(3) for dx in range(3)]
            self._contrast = (np.max(shifted, axis=0) - np.min(shifted, axis=0)).astype(np.uint8)
            self._integral = np.pad(self._contrast.astype(np.int64).cumsum(0).cumsum(1), ((1, 0), (1, 0)))
        return self._contrast

    def __call__(self, centre: np.ndarray, size: float) -> float:
        """Mean local contrast over the code-sized square at `centre`."""
        contrast = self._map()
        h, w = contrast.shape
        r = max(1, int(size / 2 / MAP_STEP))
        x, y = int(centre[0] / MAP_STEP), int(centre[1] / MAP_STEP)
        x0, x1, y0, y1 = max(0, x - r), min(w, x + r + 1), max(0, y - r), min(h, y + r + 1)
        if x0 >= x1 or y0 >= y1:
            return 0.0
        table = self._integral
        total = table[y1, x1] - table[y0, x1] - table[y1, x0] + table[y0, x0]
        return float(total) / ((x1 - x0) * (y1 - y0))

    def busy_spots(self, limit: int = 24) -> list[np.ndarray]:
        """Centres of the most detailed code-sized patches, best first."""
        density = np.asarray(Image.fromarray(self._map()).filter(ImageFilter.BoxBlur(10)), np.float32)
        spots, floor = [], 0.35 * float(density.max())
        for _attempt in range(limit):
            y, x = np.unravel_index(int(np.argmax(density)), density.shape)
            if density[y, x] <= floor:
                break
            spots.append(np.array([(x + 0.5) * MAP_STEP, (y + 0.5) * MAP_STEP]))
            density[max(0, y - 24):y + 25, max(0, x - 24):x + 25] = 0
        return spots


def first_look(image: Image.Image) -> list[FoundCode]:
    """The QR codes one pass over the whole photo reads (the cheap first step of `read_codes`)."""
    return [_found(t, c, 1.0, (0, 0)) for t, c in _decode(np.asarray(image))]


def read_codes(image: Image.Image, want: int = ROW_LENGTH, budget: float = DEFAULT_BUDGET,
               detail: Detail | None = None, edition: Edition | None = None,
               first: list[FoundCode] | None = None) -> list[FoundCode]:
    """Every QR code in the photo (greyscale PIL image). While fewer than `want` are found and the time budget
    lasts: close looks where the row says a card should be, then at the photo's most detailed patches, then
    the whole photo with another binarizer. With `edition`, a code located but too blurred to decode is
    told by its look among that game's card codes. `first`: what `first_look` already read."""
    import zxingcpp

    deadline = time.thread_time() + budget
    detail = detail or Detail(image)
    gray = np.asarray(image)
    codes: list[FoundCode] = []
    _merge(codes, first_look(image) if first is None else first)

    def done() -> bool:
        return len(codes) >= want or time.thread_time() > deadline

    tried: list[tuple[np.ndarray, float, float]] = []

    def worth_a_look(centre: np.ndarray, size: float, doubt: float) -> bool:
        # A place looked at already is looked at again only when the row now says more surely where the
        # card is (a new neighbour found since): a tighter crop at the right enlargement reads what a loose
        # one missed.
        return all(math.dist(centre, seen) > 0.3 * size or doubt < seen_doubt - 0.2 * size
                   or abs(size - seen_size) > 0.15 * size for seen, seen_size, seen_doubt in tried)

    def look_where_cards_should_be() -> None:
        # One spot at a time, re-planned after every find: each new code sharpens where the rest must be.
        while codes and not done():
            spots = [spot for spot in _expected_spots(codes, image.size, want, detail) if worth_a_look(*spot[:3])]
            if not spots:
                return
            centre, size, doubt, edges = spots[0]
            # One enlargement's looks first (what a binarizer can read is surest), then the code found by its
            # shared modules (a few tens of ms, where every enlargement's looks cost about 50), then the rest.
            found = _read_around(image, centre, size, doubt, edition, sizes=1)
            if not found and edition is not None and not done():
                found = _tell_around(gray, centre, size, doubt, edges, edition)
            if not found and not done():
                found = _read_around(image, centre, size, doubt, edition, skip=1)
            if not _merge(codes, found):
                tried.append((centre, size, doubt))

    look_where_cards_should_be()
    if not done():
        for spot in detail.busy_spots():
            if done():
                break
            if any(math.dist(spot, code.centre) < 0.8 * code.size for code in codes):
                continue
            size = float(np.median([c.size for c in codes])) if codes else GUESSED_CODE_SIZE
            # The densest texture of a card may be its text beside the code: crop wide around the spot.
            found = _read_around(image, spot, size, 0.6 * size, edition, sizes=1)
            if not found and not codes and edition is not None and not done():
                found = _tell_anywhere(gray, spot, size, edition)
            if _merge(codes, found):
                look_where_cards_should_be()
    if not done():
        _merge(codes, (_found(t, c, 1.0, (0, 0))
                       for t, c in _decode(np.asarray(image), zxingcpp.Binarizer.GlobalHistogram)))
        look_where_cards_should_be()
    return codes


# --- Where the unread cards should be ----------------------------------------------------------------

def _edges(code: FoundCode) -> np.ndarray:
    """The code's top edge and left edge as vectors (rows), from its corners, else square along `right`."""
    if len(code.corners) == 4:
        tl, tr, br, bl = np.array(code.corners)
        return np.array([(tr - tl + br - bl) / 2, (bl - tl + br - tr) / 2])
    right = np.array(code.right) * code.size
    return np.array([right, (-right[1], right[0])])


def _shape_at(shapes: dict[int, np.ndarray], k: int) -> np.ndarray:
    """A code's edges at draft position k, followed from its found neighbours' as `rows.spot` follows centres:
    perspective skews the codes along the row, and a code far too soft to decode is found by its shape."""
    pair = neighbours(shapes, k)
    if pair is None:
        return next(iter(shapes.values()))
    a, b = pair
    return shapes[a] + (k - a) / (b - a) * (shapes[b] - shapes[a])


def _expected_spots(codes: list[FoundCode], image_size: tuple[int, int], row_length: int,
                    detail: Callable[[np.ndarray, float], float] | None = None):
    """(centre, code size, doubt, edges) of every place along the row where an unread card could lie
    (`rows.expected_spots`), with the shape a code there has as its found neighbours' say."""
    row = arrange(codes, image_size, row_length, detail)
    shapes = {p: _edges(c) for c, p in zip(row.codes, row.positions, strict=True)}
    return [(np.array(centre), size, doubt, _shape_at(shapes, k))
            for centre, size, doubt, k in expected_spots(codes, image_size, row_length, detail)]
