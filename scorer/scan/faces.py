"""Recognise the publisher's printed cards (no QR code) that `scorer.scan.find` cut out of a photo of a row,
and teach tourpad a player's own deck (kept by `scorer.scan.taught`).

Pure and Flet-free (OpenCV + numpy); only `scorer.scan.photo` and the scan commands import it, lazily, so the
browser build never loads OpenCV.

**Reading** (after `teach_deck`): a taught card is recognised by its face, the keypoints of its picture,
banner and icons (SIFT) that agree on one upright placement of it; its number, inside its circle, is
compared with the taught circles (the checksum): a number that clearly reads another digit names the
problem, and a faint recognition needs the number to confirm it. Anything less reads `?`, never a guess.
Untaught (and for a card its face does not name), the corner letter and number are read as shapes
(`scorer.scan.glyphs`): a card is named when both read clearly and agree.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass
from functools import cache, cached_property

import cv2
import numpy as np

from rules.edition import Edition
from rules.engine import HAND_SIZE
from scorer.locale import _
from scorer.scan.find import (
    CARD_MM,
    CIRCLE_RADIUS_MM,
    CIRCLE_SIZES,
    PAD_MM,
    PX_PER_MM,
    FoundCard,
    FoundRow,
    circle_map,
    find_cards,
    find_rows,
    load_rgb,
)
from scorer.scan.taught import Deck, LearnedCard, learned, load_deck, save_deck
from scorer.userfile import UserFileError

#: Corner regions (x0, y0, x1, y1 in mm, in the padded cut) of an upright card: the number's circle and the
#: letter. Publishers print them about 8 mm in from the left edge, 8 mm from the top and 9 mm from the bottom.
NUMBER_BOX_MM = (0, 0, 2 * PAD_MM + 16, 2 * PAD_MM + 16)
LETTER_BOX_MM = (0, CARD_MM[1] - 18, 2 * PAD_MM + 18, CARD_MM[1] + 2 * PAD_MM)
NUMBER_CENTRE_MM = (PAD_MM + 8, PAD_MM + 8)
#: Certainty: the best template must score at least this, beat the best other letter by this much and (taught)
#: lie this many times closer to a perfect match than the next (see `_certain`).
TAUGHT_MIN, TAUGHT_MARGIN, TAUGHT_RATIO = 0.85, 0.04, 2.5


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


def _way_for(row: FoundRow, count: int) -> FoundRow:
    """The row the way up that holds `count` cards, without an end "card" of bare table beyond them."""
    if len(row.cards) != count and row.other_way is not None and len(row.other_way.cards) == count:
        row = row.other_way
    return _without_blank_end(row) if len(row.cards) == count + 1 else row


#: A row found along another outline than the card colours gave is taught only when at least this share of its
#: cards' corners read as the letters given, letter and number alike: on the tuning photos 5-7 of 7 where the
#: cards were cut where they lie, at most 1 of 7 where the comb strung the table's or a picture's blobs.
CORNERS_SAY_SHARE = 0.5


def _digits(edition: Edition) -> str:
    """The characters a card's number may read as: the edition's numbers, each once."""
    return "".join(sorted({str(number) for number in edition.numbers}))


def _corners_say(row: FoundRow, edition: Edition, letters: str, grey: np.ndarray) -> bool:
    """Whether enough of the row's cards show `letters`' letters and numbers in their corners (CORNERS_SAY_SHARE),
    read as an untaught card is (`read_corners`), in the photo at its own resolution."""
    from scorer.scan.glyphs import read_letter, read_number

    if len(row.cards) != len(letters):
        return False
    number_of = dict(zip(edition.letters, edition.numbers, strict=True))
    digits = _digits(edition)
    said = 0
    for card, letter in zip(row.cards, letters, strict=True):
        photo = _in_photo(grey, card.image_to_photo)
        said += read_letter(card.image, edition.letters, photo, LETTER_CLEAR).char == letter and \
            read_number(card.image, digits, photo, NUMBER_CLEAR).char == str(number_of[letter])
    return said >= CORNERS_SAY_SHARE * len(letters)


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
    rgb = load_rgb(source)
    grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)  # found in, and the corners read at the photo's resolution
    found, *others = find_rows(rgb, grey, expected=len(letters))
    row = _way_for(found, len(letters))
    if len(row.cards) != len(letters) and others:
        # Rows found along other outlines are taught only when their corners say they are these cards.
        row = next((other for other in (_way_for(other, len(letters)) for other in others)
                    if _corners_say(other, edition, letters, grey)), row)
    if not row.cards:
        raise TeachError(_("found no cards in the photo: lay the cards face up in one row on a plain table"))
    if len(row.cards) != len(letters):
        raise TeachError(_("found {found} cards in the photo but {given} letters were given: lay the cards in "
                           "one row on a plain table, not touching the photo's edges").format(
            found=len(row.cards), given=len(letters)))
    deck = load_deck(edition.id, damaged_is_empty=True)  # a damaged file is taught over, from nothing
    learn_cards(deck, [card.image for card in row.cards], letters)
    save_deck(edition.id, deck)
    keep_photos(rgb, row, edition, letters)
    return learned(edition)


#: A card's picture for the deck editor: 3 px a millimetre (189 × 264), enough to read its number, letter and
#: icons on a phone, small enough to keep 28 of them (JPEG, ~10 KB each).
PHOTO_PX_PER_MM = 3


def keep_photos(rgb: np.ndarray, row: FoundRow, edition: Edition, letters: str) -> None:
    """Keep each card of a teaching photo cut out upright in colour (`scorer.scan.card_photos`), for the deck
    editor. The learning is kept in any case: a picture that cannot be written is only not shown."""
    from scorer.scan.card_photos import keep_card_photos

    size = (CARD_MM[0] * PHOTO_PX_PER_MM, CARD_MM[1] * PHOTO_PX_PER_MM)
    upright = np.float32([[0, 0], [size[0], 0], [size[0], size[1]], [0, size[1]]])
    photos = {}
    for card, letter in zip(row.cards, letters, strict=True):
        if card.corners is None:
            continue
        cut = cv2.warpPerspective(rgb, cv2.getPerspectiveTransform(card.corners, upright), size,
                                  flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
        ok, jpeg = cv2.imencode(".jpg", cv2.cvtColor(cut, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 85])
        if ok:
            photos[letter] = jpeg.tobytes()
    with contextlib.suppress(OSError, UserFileError):
        keep_card_photos(edition.id, photos)




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
    fit = circle_map(region, [r * CIRCLE_RADIUS_MM * mm for r in CIRCLE_SIZES])
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
    """Every taught card's keypoints of one kind (sharp or blurred), their descriptors in one matrix."""

    def __init__(self, taught: dict[str, tuple[np.ndarray, np.ndarray]]) -> None:
        self.letters = tuple(letter for letter, (_points, descriptors) in taught.items() if len(descriptors))
        self.points = [taught[letter][0] for letter in self.letters]
        counts = [len(taught[letter][1]) for letter in self.letters]
        self.descriptors = np.vstack([taught[letter][1] for letter in self.letters]).astype(np.float32) \
            if self.letters else np.zeros((0, 128), np.float32)
        #: which taught card each row of `descriptors` is of, and its keypoint's index in that card
        self.card_of = np.repeat(np.arange(len(self.letters)), counts)
        self.index_in_card = np.concatenate([np.arange(count) for count in counts]) if counts else \
            np.zeros(0, np.int64)
        self.squared = np.einsum("ij,ij->i", self.descriptors, self.descriptors)

    def _nearest_two(self, descriptors: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For each descriptor, its nearest taught descriptor and the squared distances to the nearest two.
        One matrix product (OpenCV's, on this thread) instead of a brute-force matcher: the same neighbours,
        a quarter of the time."""
        descriptors = np.asarray(descriptors, dtype=np.float32)  # SIFT's are float32 already: no copy
        # |q - t|² = |q|² + |t|² - 2 q·t; |q|² is added after the two smallest are found (one per row)
        distances = cv2.gemm(descriptors, self.descriptors, -2.0, None, 0, flags=cv2.GEMM_2_T)
        distances += self.squared[None, :]
        rows = np.arange(len(descriptors))
        nearest = distances.argmin(axis=1)
        first = distances[rows, nearest].copy()
        distances[rows, nearest] = np.inf
        second = distances.min(axis=1)
        own = np.einsum("ij,ij->i", descriptors, descriptors)
        return nearest, np.maximum(first + own, 0.0), np.maximum(second + own, 0.0)

    def agreeing(self, points: np.ndarray, descriptors: np.ndarray) -> list[tuple[int, str]]:
        """(agreeing keypoints, letter) of every taught card some of these keypoints match, most first: how
        many of the matches agree on one upright placement of that taught card over this one."""
        if len(descriptors) < 2 or len(self.descriptors) < 2:
            return []
        nearest, first, second = self._nearest_two(descriptors)
        matches: dict[int, list[tuple[int, int]]] = {}
        # Lowe's ratio test on distances, squared: first < MATCH_RATIO * second
        for query in np.flatnonzero(first < MATCH_RATIO * MATCH_RATIO * second).tolist():
            row = int(nearest[query])
            matches.setdefault(int(self.card_of[row]), []).append((query, int(self.index_in_card[row])))
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


def read_card(card: np.ndarray, edition: Edition, deck: Deck, index: _DeckIndex | None = None,
              photo: tuple[np.ndarray, np.ndarray] | None = None) -> CardReading:
    """The card's letter when it is certain and its number agrees (the checksum); else None, with a problem
    when the number says the card is another one (another edition's, or a misread). `photo` (grey, and where
    each of the cut's pixels lies in it) lets the corner characters be read at the photo's resolution."""
    number_of = dict(zip(edition.letters, edition.numbers, strict=True))
    if deck:
        index = index or _DeckIndex(deck)
        # A taught card is told by its whole face: the keypoints of its picture, banner and icons.
        found, named, firm = index.identify(card)
        fits: dict[int, float] | None = None  # how the number fits each digit: read once, when first needed
        face_scores: list[list[tuple[float, str]]] = []  # the face's likeness to each taught card: once, if needed

        def likeness() -> list[tuple[float, str]]:
            if not face_scores:
                face_scores.append(_face_scores(card, deck)[0])
            return face_scores[0]

        def by_face() -> str | None:
            """The card the face's likeness names (FACE_MIN, FACE_MARGIN), if any."""
            return _certain(likeness(), FACE_MIN, FACE_MARGIN)

        if firm and found[0][0] < IDENTIFY_MIN and likeness() and likeness()[0][1] != named:
            # Firm only by having no rival (IDENTIFY_ALONE): a card never taught was named so, six keypoints of a
            # taught look-alike agreeing by chance while the face looked most like another card. Faint, then.
            firm = False
        if named is None and len(found) > 1 and found[0][0] >= IDENTIFY_FAINT and found[1][0] >= 2:
            # Two taught cards close (a blurred face matches a look-alike too): the number, read clearly as the
            # first card's and no rival's, settles it (the checksum doing its work). Without a rival this would
            # be a faint naming by one look, which `identify` has already refused.
            fits = index.digit_fits(card, number_of)
            digit = max(fits, key=fits.get)
            clear = fits[digit] >= DIGIT_CLEAR and all(
                fits[digit] - fit >= DIGIT_MARGIN for other, fit in fits.items() if other != digit)
            rivals = {number_of[letter] for agreeing, letter in found[1:] if agreeing >= 2}
            if clear and digit == number_of[found[0][1]] and digit not in rivals and \
                    by_face() == found[0][1]:
                return CardReading(found[0][1], score=found[0][0])
        if named is None and found and found[0][0] >= 2 and by_face() == found[0][1]:
            # Few keypoints (a plain face, a blurred photo): the face's likeness as a whole names the same card.
            named = found[0][1]
        if named is not None:
            fits = fits if fits is not None else index.digit_fits(card, number_of)
            digit = max(fits, key=fits.get)
            if digit != number_of[named] and fits[digit] >= DIGIT_CLEAR and \
                    fits[digit] - fits.get(number_of[named], -1.0) >= DIGIT_MARGIN:
                return CardReading(None, _disagree(edition, named, digit))
            if not firm and by_face() != named:
                # A faint naming the face's likeness does not share: on printings the reader was not tuned on,
                # cards never taught were named as taught look-alikes (3-6 keypoints agreeing by chance, and the
                # number, which every fourth card shares, confirming it). Its corners may still name it.
                return read_corners(card, edition, photo)
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
        # A card its face does not name (a printing taught under other light, a card never taught) may still
        # read by its corners, as an untaught deck does.
        return read_corners(card, edition, photo)
    return read_corners(card, edition, photo)


#: How clearly a corner character must read, with nothing taught, to count: its fit to the best drawing and
#: its lead over every other character's (`scorer.scan.glyphs`). Measured on the tuning photos (issue 42): a
#: letter is misread more often than a digit (serif J run into its badge's edge is an L).
LETTER_CLEAR, LETTER_LEAD = 0.85, 0.05
NUMBER_CLEAR, NUMBER_LEAD = 0.8, 0.05
#: A letter that is a plain bar (I) is also the stroke of any other letter split off by blur, or an edge: on the
#: tuning photos 104 of 127 pieces read as an I were not one. It is named only on a plain field (`GlyphRead.field`
#: at most this; every right I of the tuning photos but three, none of the wrong ones).
BAR_LETTERS, BAR_FIELD_SPREAD = "I", 0.12
#: Any other character on a field this busy is taken for part of the picture: on the tuning photos, 87 % of the
#: clear right letters and 21 of the 57 clear wrong ones lie on a field this plain (the number then refuses most).
FIELD_SPREAD = 0.5


def read_corners(card: np.ndarray, edition: Edition, photo: tuple[np.ndarray, np.ndarray] | None = None,
                 ) -> CardReading:
    """The card named by what every printing shows, its corner letter and its number, when both read clearly
    and agree (the edition's card list gives each letter its number); a clear letter and a clear number that
    disagree name the problem; anything less is `?`. Given the photo (grey, and where each of the cut's pixels
    lies in it), the corners are looked at in it, at its own resolution."""
    from scorer.scan.glyphs import read_letter, read_number

    number_of = dict(zip(edition.letters, edition.numbers, strict=True))
    letter = read_letter(card, edition.letters, photo, LETTER_CLEAR)
    if letter.char is None or letter.fit < LETTER_CLEAR or letter.margin < LETTER_LEAD or \
            letter.field > (BAR_FIELD_SPREAD if letter.char in BAR_LETTERS else FIELD_SPREAD):
        return CardReading(None)
    digit = read_number(card, _digits(edition), photo, NUMBER_CLEAR)
    if digit.char is None or digit.fit < NUMBER_CLEAR or digit.margin < NUMBER_LEAD:
        return CardReading(None)
    if int(digit.char) != number_of[letter.char]:
        return CardReading(None, _disagree(edition, letter.char, int(digit.char)))
    return CardReading(letter.char, score=min(letter.fit, digit.fit))


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


def _in_photo(grey: np.ndarray, cut_to_photo: np.ndarray | None) -> tuple[np.ndarray, np.ndarray] | None:
    return None if cut_to_photo is None else (grey, cut_to_photo)


def read_row(source, edition: Edition, rgb: np.ndarray | None = None) -> PublisherRead:
    """Find and read every publisher card in the photo, in row order. One thread: a phone's photo is read
    while the app serves others, and the bench measures one core."""
    cv2.setNumThreads(1)
    started = time.perf_counter()
    rgb = load_rgb(source) if rgb is None else rgb
    deck = load_deck(edition.id)
    grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)  # found in, and the corners read at the photo's resolution
    row = find_cards(rgb, grey)
    index = _DeckIndex(deck) if deck else None

    def read_one(card: FoundCard) -> CardReading:
        reading = read_card(card.image, edition, deck, index, _in_photo(grey, card.image_to_photo))
        if reading.letter is None and not reading.problem and card.plain is not None:
            second_look = read_card(card.plain, edition, deck, index, _in_photo(grey, card.plain_to_photo))
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
    if row.other_way is not None:
        other_cards, other = read(row.other_way)
        if sum(r.letter is not None for r in other) > sum(r.letter is not None for r in readings):
            cards, readings, upside_down = other_cards, other, row.other_way.upside_down
    return PublisherRead(cards, readings, upside_down, time.perf_counter() - started)
