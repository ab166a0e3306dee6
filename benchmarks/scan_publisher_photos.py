"""Synthetic photos of publisher-style cards (no QR code), for `tourpad bench scan --style publisher` and tests.

A publisher card is drawn the way the boxed games print theirs, in tourpad's own procedural rendition (no
downloaded image): a full-bleed "photograph" of the site (sky gradient, hills, blobs, grain), the card's
number (1–7) in a circle at the top-left corner, its site letter at the bottom-left corner, coloured icons
down the right side and a banner with the site's name. A *deck style* (font, colour scheme, badge shape) is
one printing: a player's deck has one style, and teaching and scanning see the same deck under different
light. The reader was not tuned on particular photos: the bench draws fresh ones from its own seed.

Row photos reuse the table, camera and light of `benchmarks.scan_photos` (rotation, keystone, scale, blur,
noise, uneven light, JPEG), plus glare and cards laid touching or slightly overlapping.
"""

from __future__ import annotations

import io
import math
import random
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

from assets import FONT_DIR, SHIPPED_FONTS
from benchmarks.scan_photos import Photo, background, place, sensor_noise, uneven_light
from rules.edition import Edition
from scorer.pad.teach import teaching_rows as teaching_rows  # re-exported: the teaching photos' rows

CARD_MM = (63, 88)
FACE_PX_PER_MM = 6
PHOTO_SIZE = (4032, 3024)
ROW_LENGTH = 7

#: Fonts a deck style may print with: the bundled DejaVu ones, plus Debian's Liberation and DejaVu Serif
#: where installed (the Makefile installs them), so the untaught reader also meets faces it has no template of.
_SYSTEM_FONTS = ("/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
                 "/usr/share/fonts/truetype/liberation/LiberationSerif-Bold.ttf",
                 "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf")


def deck_fonts() -> tuple[str, ...]:
    bundled = tuple(str(FONT_DIR / name) for name in SHIPPED_FONTS)
    return bundled + tuple(path for path in _SYSTEM_FONTS if Path(path).is_file())


@cache
def _font(path: str, px: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, px)


@dataclass(frozen=True)
class DeckStyle:
    """One printing of a deck: how its corner marks, icons and banner look."""

    font: str
    number_fill: tuple[int, int, int]
    number_ink: tuple[int, int, int]
    letter_fill: tuple[int, int, int] | None  # None: the letter stands on the photo with an outline
    letter_ink: tuple[int, int, int]
    badge: str  # "circle" or "square" behind the letter
    banner: tuple[int, int, int]
    offset_mm: tuple[float, float]  # where this printing puts its corner marks, relative to the nominal place


_SCHEMES = [  # (number fill, number ink, letter fill, letter ink, banner)
    ((250, 246, 235), (30, 30, 30), (250, 246, 235), (30, 30, 30), (150, 40, 30)),
    ((20, 60, 110), (255, 255, 255), (20, 60, 110), (255, 255, 255), (20, 60, 110)),
    ((200, 60, 40), (255, 255, 255), None, (255, 255, 255), (60, 60, 60)),
    ((255, 210, 60), (40, 30, 20), (40, 30, 20), (255, 210, 60), (40, 30, 20)),
    ((255, 255, 255), (120, 20, 90), (255, 255, 255), (120, 20, 90), (30, 110, 70)),
]


def deck_style(seed: int) -> DeckStyle:
    rng = random.Random(seed)
    number_fill, number_ink, letter_fill, letter_ink, banner = rng.choice(_SCHEMES)
    return DeckStyle(rng.choice(deck_fonts()), number_fill, number_ink, letter_fill, letter_ink,
                     rng.choice(["circle", "square"]), banner, (rng.uniform(-1, 1), rng.uniform(-1, 1)))


def _scenery(rng: random.Random, size: tuple[int, int]) -> Image.Image:
    """A photograph-like picture: sky gradient, horizon, hills, blobs of colour, grain; drawn small, scaled up."""
    w, h = size[0] // 3, size[1] // 3
    nprng = np.random.default_rng(rng.getrandbits(32))
    top = np.array([rng.randrange(60, 200), rng.randrange(100, 220), rng.randrange(150, 255)], np.float32)
    low = np.array([rng.randrange(150, 255), rng.randrange(120, 230), rng.randrange(80, 200)], np.float32)
    t = np.linspace(0, 1, h, dtype=np.float32)[:, None, None]
    img = np.broadcast_to(top * (1 - t) + low * t, (h, w, 3)).copy()
    picture = Image.fromarray(img.astype(np.uint8), "RGB")
    draw = ImageDraw.Draw(picture)
    horizon = rng.uniform(0.35, 0.65) * h
    ground = tuple(rng.randrange(30, 200) for _ in range(3))
    points = [(0, h)] + [(x, horizon + rng.uniform(-0.15, 0.1) * h) for x in np.linspace(0, w, 7)] + [(w, h)]
    draw.polygon(points, fill=ground)
    for _ in range(rng.randrange(6, 14)):
        x, y, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(3, w / 4)
        colour = tuple(rng.randrange(0, 256) for _ in range(3))
        if rng.random() < 0.5:
            draw.ellipse((x - r, y - r * rng.uniform(0.3, 1), x + r, y + r), fill=colour)
        else:
            draw.polygon([(x + r * math.cos(a), y + r * math.sin(a))
                          for a in sorted(rng.uniform(0, 2 * math.pi) for _ in range(5))], fill=colour)
    picture = picture.filter(ImageFilter.GaussianBlur(rng.uniform(0.5, 2)))
    grain = nprng.normal(0, 10, (h, w, 1)).astype(np.float32)
    img = np.clip(np.asarray(picture, np.float32) + grain, 0, 255).astype(np.uint8)
    return Image.fromarray(img, "RGB").resize(size, Image.BILINEAR)


def _text_centred(draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, font, fill,
                  stroke: tuple[int, int, int] | None = None, stroke_width: int = 0) -> None:
    draw.text(centre, text, font=font, fill=fill, anchor="mm", stroke_width=stroke_width, stroke_fill=stroke)


@cache
def card_face(edition_id: str, letter: str, site: str, number: int, icons: tuple[str, ...],
              style: DeckStyle) -> Image.Image:
    """A publisher-style card face (RGB, FACE_PX_PER_MM px/mm), the same for the same card and style."""
    mm = FACE_PX_PER_MM
    size = (CARD_MM[0] * mm, CARD_MM[1] * mm)
    rng = random.Random(f"{edition_id}:{letter}:{site}")  # the site's photo is the card's, whatever the printing
    face = _scenery(rng, size)
    draw = ImageDraw.Draw(face)
    dx, dy = style.offset_mm
    # Banner with the site's name.
    top = (61 + rng.uniform(-1, 1)) * mm
    draw.rectangle((0, top, size[0], top + 8 * mm), fill=style.banner)
    name_font = _font(style.font, int(3.6 * mm))
    _text_centred(draw, (size[0] / 2 + 5 * mm, top + 4 * mm), site[:24], name_font, (255, 255, 255))
    # Icons down the right side: coloured discs with a pale mark.
    for i, icon in enumerate(icons[:4]):
        irng = random.Random(icon)
        colour = tuple(irng.randrange(40, 230) for _ in range(3))
        cx, cy = 56 * mm, (10 + 11 * i) * mm
        draw.ellipse((cx - 4.5 * mm, cy - 4.5 * mm, cx + 4.5 * mm, cy + 4.5 * mm), fill=colour,
                     outline=(255, 255, 255), width=max(1, mm // 3))
        draw.regular_polygon((cx, cy, 2.2 * mm), irng.randrange(3, 7), fill=(250, 250, 250))
    # Number in a circle, top-left.
    cx, cy, r = (8 + dx) * mm, (8 + dy) * mm, 5.5 * mm
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=style.number_fill, outline=style.number_ink,
                 width=max(1, mm // 2))
    _text_centred(draw, (cx, cy + 0.3 * mm), str(number), _font(style.font, int(7.5 * mm)), style.number_ink)
    # Letter, bottom-left.
    cx, cy = (8.5 + dx) * mm, (79 + dy) * mm
    letter_font = _font(style.font, int(10 * mm))
    if style.letter_fill is None:
        _text_centred(draw, (cx, cy), letter, letter_font, style.letter_ink, (20, 20, 20), max(1, mm // 2))
    else:
        r = 6.2 * mm
        box = (cx - r, cy - r, cx + r, cy + r)
        if style.badge == "circle":
            draw.ellipse(box, fill=style.letter_fill)
        else:
            draw.rounded_rectangle(box, radius=1.5 * mm, fill=style.letter_fill)
        _text_centred(draw, (cx, cy), letter, letter_font, style.letter_ink)
    return die_cut(face, 3 * mm)


def die_cut(face: Image.Image, radius: float) -> Image.Image:
    """The face with rounded corners cut off (RGBA): the table shows through."""
    mask = Image.new("L", face.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, face.size[0] - 1, face.size[1] - 1), radius=radius, fill=255)
    out = Image.new("RGBA", face.size, (0, 0, 0, 0))
    out.paste(face, (0, 0), mask)
    return out


def printed_facts(edition: Edition, letter: str) -> tuple[str, int, tuple[str, ...]]:
    """What a card of `letter` prints: its site, its number and the names of its icons."""
    card = edition.cards[edition.card_index(letter)]
    icons = tuple(family.icons[index].name for family, index in
                  ((edition.collection, card.collection), (edition.pairs, card.pairs), (edition.choice, card.choice))
                  if index >= 0)
    return card.site, card.number, icons


def face_of(edition: Edition, letter: str, style: DeckStyle) -> Image.Image:
    return card_face(edition.id, letter, *printed_facts(edition, letter), style)


def lay_out(faces: list[Image.Image], rng: random.Random, overlap: bool, gap_mm: float | None = None) -> Image.Image:
    """Cards side by side: small gaps, touching, or (when `overlap`) each over its neighbour by up to 2 mm on
    the side away from its corner marks; slight per-card skew and jitter."""
    card_w, card_h = faces[0].size
    mm = FACE_PX_PER_MM
    gap = (rng.uniform(-2, 0) if overlap else rng.choice([0.0, rng.uniform(0, 5)])) * mm
    gap = gap if gap_mm is None else gap_mm * mm
    pad = 4 * mm
    along = len(faces) * card_w + (len(faces) - 1) * gap
    row = Image.new("RGBA", (round(along) + 2 * pad, card_h + 2 * pad), (0, 0, 0, 0))
    # Laid right to left so each card's left edge (its corner marks) lies on top of the previous card.
    for i in reversed(range(len(faces))):
        card = faces[i].rotate(rng.uniform(-2, 2), resample=Image.BICUBIC, expand=True)
        jitter = rng.uniform(-1.2, 1.2) * mm
        x = pad + i * (card_w + gap) - (card.width - card_w) / 2
        y = pad + jitter - (card.height - card_h) / 2
        row.alpha_composite(card, (max(0, round(x)), max(0, round(y))))
    return row


def glare(picture: Image.Image, cards: Image.Image, rng: random.Random) -> Image.Image:
    """A soft bright spot where a lamp reflects off the cards' gloss (`cards`: where the cards are, L)."""
    w, h = picture.size
    y, x = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    gx, gy, radius = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h, rng.uniform(0.04, 0.12) * w
    spot = np.exp(-(((x - gx) ** 2 + (y - gy) ** 2) / (2 * radius ** 2))) * rng.uniform(60, 140)
    layer = ImageChops.multiply(Image.fromarray(spot.astype(np.uint8), "L").resize((w, h), Image.BILINEAR), cards)
    return Image.merge("RGB", [Image.fromarray(np.minimum(255, np.asarray(band, np.int16) +
                                                           np.asarray(layer, np.int16)).astype(np.uint8))
                               for band in picture.split()])


def photo(edition: Edition, style: DeckStyle, seed: int, index: int, letters: tuple[str, ...] | None = None, *,
          turn: float = 0.0, scale: float | None = None, blur: float | None = None,
          extra_faces: dict[int, Image.Image] | None = None, count: int = ROW_LENGTH, gap_mm: float | None = None,
          photo_size: tuple[int, int] = PHOTO_SIZE, across: bool | None = None) -> Photo:
    """Photo `index` of the set `seed` of a row of `style` cards. `letters` fixes the row (else `count` dealt at
    random); `turn` adds to the random ±15° rotation (180: photographed from across the table);
    `across`: photographed from across the table (turned 180°; None: one photo in four, as players do);
    `extra_faces` swaps other faces in at 0-based positions (e.g. another edition's card); `gap_mm` fixes
    the space between cards (negative: overlapping) instead of drawing it."""
    rng = random.Random(seed * 1_000_003 + index)
    if letters is None:
        letters = tuple(rng.sample(list(edition.letters), count))
    faces = [face_of(edition, letter, style) for letter in letters]
    for position, face in (extra_faces or {}).items():
        faces[position] = face
    rotation = rng.uniform(-15, 15) + turn
    if across if across is not None else rng.random() < 0.25:
        rotation += 180
    scale = rng.uniform(0.6, 1.4) if scale is None else scale
    overlap = rng.random() < 0.3 and gap_mm is None
    row = lay_out(faces, rng, overlap, gap_mm)
    # The nominal framing (scan_photos.place) is for 7 cards; fewer or more keep the cards' size.
    layer, (x0, y0) = place(row, photo_size, rotation, scale * len(faces) / ROW_LENGTH, False, rng)
    picture = background(photo_size, rng)
    region = picture.crop((x0, y0, x0 + layer.width, y0 + layer.height))
    shadow = layer.getchannel("A").point(lambda a: a * 0.35).filter(ImageFilter.BoxBlur(12))
    region.paste(Image.new("RGB", layer.size, "black"), (rng.randint(-10, 10), rng.randint(4, 16)), shadow)
    region.paste(layer, (0, 0), layer)
    cards = Image.new("L", photo_size, 0)
    cards.paste(layer.getchannel("A"), (x0, y0))
    blur = rng.uniform(0.0, 2.0) if blur is None else blur
    if blur > 0.2:
        region = region.filter(ImageFilter.GaussianBlur(blur))
    picture.paste(region, (x0, y0))
    picture = uneven_light(picture, rng)
    has_glare = rng.random() < 0.4
    if has_glare:
        picture = glare(picture, cards, rng)
    noise = rng.uniform(2, 8)
    picture = sensor_noise(picture, noise, rng)
    quality = rng.randint(45, 90)
    out = io.BytesIO()
    picture.save(out, "JPEG", quality=quality)
    description = (f"seed={seed} index={index} rotation={rotation:.1f}° scale={scale:.2f} blur={blur:.2f} "
                   f"noise={noise:.1f} jpeg={quality} {'overlapping' if overlap else 'gaps/touching'}"
                   f"{' glare' if has_glare else ''} font={Path(style.font).stem}")
    return Photo(out.getvalue(), tuple(letters), edition.id, description)


# --- What tests and the app's browser test use (a stable, small surface over the generator) ----------------

def teaching_photo(edition: Edition, style: DeckStyle, letters: str, seed: int = 1,
                   photo_size: tuple[int, int] = PHOTO_SIZE) -> bytes:
    """A JPEG of `letters` laid as the teaching screen asks: upright, a finger's width apart, from above."""
    return photo(edition, style, seed, 10_000 + edition.letters.index(letters[0]), tuple(letters), scale=1.1,
                 blur=0.5, gap_mm=5, count=len(letters), photo_size=photo_size, across=False).jpeg


def row_photo(edition: Edition, style: DeckStyle, letters: str, seed: int = 7) -> bytes:
    """A JPEG of a played row of `letters` (Throw first), photographed as at the table."""
    return photo(edition, style, seed, 0, tuple(letters), count=len(letters), across=False).jpeg
