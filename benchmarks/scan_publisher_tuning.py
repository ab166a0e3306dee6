"""Tuning photos of publisher-style cards: deck styles and rows the reader is tuned on for issue 42.

`benchmarks.scan_publisher_held_out` is never tuned on (its misses are never looked at). To make the reader
answer `?` rather than a wrong letter on a printing it has not seen, it needs printings of its own to be
tuned on that are neither tourpad's development styles (`benchmarks.scan_publisher_photos`) nor the held-out
ones. These differ from both on purpose:

- **faces**: layered dunes and rings, or walls of repeated bricks, tiles or vines (not scenery, not city
  blocks), icons as triangles or hexagons, a banner
  of its own height and place, the number circle with its own size and ring, the letter on a hexagon, a
  shield, a square or bare with a drop shadow;
- **fonts**: installed faces neither the held-out set nor the reader's own templates use (serif bold,
  condensed, mono regular, narrow regular, sans regular);
- **colour schemes** of their own;
- **rows**: touching, overlapping up to 8 mm (drawn, like the other two sets' rows, with each card over its
  right neighbour's corner marks; `Lay.over_corners=False` lays them as people do), curved (cards
  lifted along a wave and turned with it), on mats of hexagons, weave, blotches or wood, in warm, cool or dim
  light, blurred, JPEG.

`tourpad bench scan --style publisher-tuning` reads them and, unlike the held-out bench, lists every row not
read whole and every wrong letter: these are the photos to look at.
"""

from __future__ import annotations

import io
import math
import random
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from benchmarks.scan_photos import Photo, place, sensor_noise, uneven_light
from benchmarks.scan_publisher_photos import (
    CARD_MM,
    FACE_PX_PER_MM,
    ROW_LENGTH,
    _font,
    die_cut,
    glare,
    printed_facts,
)
from rules.edition import Edition

TUNING_SEED = 5151

#: Installed fonts neither the held-out styles nor the reader's templates (tourpad's DejaVu Sans) use.
TUNING_FONTS = ("/usr/share/fonts/truetype/liberation/LiberationSerif-Bold.ttf",
                "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf",
                "/usr/share/fonts/truetype/dejavu/DejaVuSerifCondensed-Bold.ttf",
                "/usr/share/fonts/truetype/liberation/LiberationMono-Regular.ttf",
                "/usr/share/fonts/truetype/liberation/LiberationSansNarrow-Regular.ttf",
                "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
                "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")

_SCHEMES = [  # (number fill, number ink, ring, letter fill, letter ink, banner)
    ((255, 250, 240), (90, 40, 10), (200, 120, 30), (90, 40, 10), (255, 250, 240), (200, 120, 30)),
    ((15, 90, 90), (240, 255, 250), (240, 255, 250), (240, 255, 250), (15, 90, 90), (15, 90, 90)),
    ((230, 30, 90), (255, 255, 255), (120, 0, 40), None, (255, 255, 255), (120, 0, 40)),
    ((250, 250, 180), (20, 60, 20), (20, 60, 20), (20, 60, 20), (250, 250, 180), (70, 110, 30)),
    ((60, 60, 70), (255, 200, 200), (255, 200, 200), (255, 200, 200), (60, 60, 70), (110, 110, 130)),
    ((255, 255, 255), (0, 70, 200), (0, 70, 200), None, (0, 70, 200), (0, 40, 120)),
]


@dataclass(frozen=True)
class TuningStyle:
    """One tuning printing: its corner marks' font, colours and shapes."""

    font: str
    number_fill: tuple[int, int, int]
    number_ink: tuple[int, int, int]
    ring: tuple[int, int, int]
    letter_fill: tuple[int, int, int] | None  # None: bare letter with a drop shadow
    letter_ink: tuple[int, int, int]
    banner: tuple[int, int, int]
    badge: str  # "hexagon", "shield" or "square"
    circle_mm: float
    ring_mm: float
    number_mm: float
    letter_mm: float
    banner_mm: float
    icon: str  # "triangle" or "hexagon"
    offset_mm: tuple[float, float]
    picture: str = "dunes"  # "dunes" or "masonry": what the cards' pictures show


def tuning_fonts() -> tuple[str, ...]:
    return tuple(path for path in TUNING_FONTS if Path(path).is_file())


def tuning_style(seed: int) -> TuningStyle:
    rng = random.Random(f"tuning:{seed}")
    number_fill, number_ink, ring, letter_fill, letter_ink, banner = rng.choice(_SCHEMES)
    return TuningStyle(rng.choice(tuning_fonts()), number_fill, number_ink, ring, letter_fill, letter_ink, banner,
                       rng.choice(["hexagon", "shield", "square"]), rng.uniform(4.8, 6.2), rng.uniform(0.2, 1.2),
                       rng.uniform(6.0, 8.5), rng.uniform(8.0, 11.5), rng.uniform(50, 68),
                       rng.choice(["triangle", "hexagon"]), (rng.uniform(-1.3, 1.3), rng.uniform(-1.3, 1.3)),
                       rng.choice(["dunes", "masonry"]))


def _dunes(rng: random.Random, size: tuple[int, int]) -> Image.Image:
    """A picture unlike the other sets' faces: layered wavy bands (dunes, rock strata) and rings."""
    w, h = size[0] // 3, size[1] // 3
    picture = Image.new("RGB", (w, h), tuple(rng.randrange(120, 250) for _ in range(3)))
    draw = ImageDraw.Draw(picture)
    level = rng.uniform(0.15, 0.35) * h
    while level < h:
        amplitude, period, phase = rng.uniform(2, h / 10), rng.uniform(w / 3, w * 1.5), rng.uniform(0, 6.3)
        edge = [(x, level + amplitude * math.sin(x / period * 2 * math.pi + phase)) for x in np.linspace(0, w, 24)]
        draw.polygon([(0, h), *edge, (w, h)], fill=tuple(rng.randrange(20, 240) for _ in range(3)))
        level += rng.uniform(h / 12, h / 4)
    for _ in range(rng.randrange(2, 6)):
        x, y, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(4, w / 5)
        draw.ellipse((x - r, y - r, x + r, y + r), outline=tuple(rng.randrange(0, 256) for _ in range(3)),
                     width=max(1, round(r / rng.uniform(3, 8))))
    picture = picture.filter(ImageFilter.GaussianBlur(rng.uniform(0.4, 1.5)))
    return picture.resize(size, Image.BILINEAR)


def _masonry(rng: random.Random, size: tuple[int, int]) -> Image.Image:
    """A picture of repeated shapes (a wall of bricks or tiles, rows of vines, a field of windows): the same
    small shape many times over, which keypoints can match to another card's at many shifts."""
    w, h = size[0] // 3, size[1] // 3
    picture = Image.new("RGB", (w, h), tuple(rng.randrange(60, 240) for _ in range(3)))
    draw = ImageDraw.Draw(picture)
    top = rng.uniform(0.1, 0.5) * h
    draw.rectangle((0, 0, w, top), fill=tuple(rng.randrange(100, 255) for _ in range(3)))
    brick_w, brick_h = rng.uniform(5, 14), rng.uniform(3, 7)
    mortar = tuple(rng.randrange(150, 256) for _ in range(3))
    colour = np.array([rng.randrange(40, 200) for _ in range(3)])
    shape = rng.choice(["brick", "tile", "vine"])
    for row, y in enumerate(np.arange(top, h, brick_h + 1.5)):
        shift = (row % 2) * brick_w / 2 if shape == "brick" else 0
        for x in np.arange(-shift, w, brick_w + 1.5):
            fill = tuple(int(v) for v in np.clip(colour + rng.randrange(-25, 26), 0, 255))
            if shape == "vine":
                draw.ellipse((x, y, x + brick_w * 0.6, y + brick_h), fill=fill, outline=mortar)
            else:
                draw.rectangle((x, y, x + brick_w, y + brick_h), fill=fill, outline=mortar)
    for _ in range(rng.randrange(1, 4)):  # a door, a sign, a tree: what tells one wall from another
        x, y, r = rng.uniform(0, w), rng.uniform(top, h), rng.uniform(4, w / 6)
        draw.rectangle((x - r / 2, y - r, x + r / 2, y + r), fill=tuple(rng.randrange(0, 256) for _ in range(3)))
    picture = picture.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 0.8)))
    return picture.resize(size, Image.BILINEAR)


def _polygon(cx: float, cy: float, r: float, sides: int, turn: float = 0.0) -> list[tuple[float, float]]:
    return [(cx + r * math.cos(turn + 2 * math.pi * k / sides), cy + r * math.sin(turn + 2 * math.pi * k / sides))
            for k in range(sides)]


@cache
def tuning_face(edition_id: str, letter: str, site: str, number: int, icons: tuple[str, ...],
                style: TuningStyle) -> Image.Image:
    """A tuning card face (RGBA, FACE_PX_PER_MM px/mm)."""
    mm = FACE_PX_PER_MM
    size = (CARD_MM[0] * mm, CARD_MM[1] * mm)
    rng = random.Random(f"tuning:{edition_id}:{letter}:{site}")
    face = (_masonry if style.picture == "masonry" else _dunes)(rng, size)
    draw = ImageDraw.Draw(face)
    dx, dy = style.offset_mm
    top = style.banner_mm * mm
    draw.rectangle((0, top, size[0], top + 6.5 * mm), fill=style.banner)
    draw.text((size[0] / 2 + 3 * mm, top + 3.2 * mm), site[:20], font=_font(style.font, int(3.4 * mm)),
              fill=(250, 250, 250), anchor="mm")
    for i, icon in enumerate(icons[:4]):
        irng = random.Random(f"tuning:{icon}")
        colour = tuple(irng.randrange(30, 220) for _ in range(3))
        cx, cy = 56 * mm, (11 + 10.5 * i) * mm
        if style.icon == "triangle":
            draw.polygon(_polygon(cx, cy, 4.6 * mm, 3, -math.pi / 2), fill=colour, outline=(255, 255, 255))
        else:
            draw.polygon(_polygon(cx, cy, 4.3 * mm, 6), fill=colour)
        draw.ellipse((cx - 1.3 * mm, cy - 1.3 * mm, cx + 1.3 * mm, cy + 1.3 * mm), fill=(250, 250, 240))
    cx, cy, r = (8 + dx) * mm, (8 + dy) * mm, style.circle_mm * mm
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=style.number_fill, outline=style.ring,
                 width=max(1, round(style.ring_mm * mm)))
    draw.text((cx, cy), str(number), font=_font(style.font, int(style.number_mm * mm)), fill=style.number_ink,
              anchor="mm")
    cx, cy = (8.5 + dx) * mm, (79 + dy) * mm
    letter_font = _font(style.font, int(style.letter_mm * mm))
    if style.letter_fill is None:
        shadow = tuple(max(0, c - 160) for c in style.letter_ink)
        draw.text((cx + 0.6 * mm, cy + 0.6 * mm), letter, font=letter_font, fill=shadow, anchor="mm")
        draw.text((cx, cy), letter, font=letter_font, fill=style.letter_ink, anchor="mm")
    else:
        r = 6.3 * mm
        if style.badge == "hexagon":
            draw.polygon(_polygon(cx, cy, r, 6, math.pi / 6), fill=style.letter_fill)
        elif style.badge == "shield":
            draw.polygon([(cx - r, cy - r), (cx + r, cy - r), (cx + r, cy + 0.2 * r), (cx, cy + 1.15 * r),
                          (cx - r, cy + 0.2 * r)], fill=style.letter_fill)
        else:
            draw.rectangle((cx - 0.9 * r, cy - 0.9 * r, cx + 0.9 * r, cy + 0.9 * r), fill=style.letter_fill)
        draw.text((cx, cy), letter, font=letter_font, fill=style.letter_ink, anchor="mm")
    return die_cut(face, 2.5 * mm)


def face_of(edition: Edition, letter: str, style: TuningStyle) -> Image.Image:
    return tuning_face(edition.id, letter, *printed_facts(edition, letter), style)


MATS = ("hexagons", "weave", "blotches", "wood")


def mat(size: tuple[int, int], rng: random.Random, kind: str | None = None) -> Image.Image:
    """A table of the tuning set's own (`kind`, one of MATS; None: drawn): hexagon tiles, a weave, blotches or
    wood; drawn small, scaled up."""
    small = (size[0] // 5, size[1] // 5)
    y, x = np.mgrid[0:small[1], 0:small[0]].astype(np.float32)
    c1 = np.array([rng.randrange(30, 220) for _ in range(3)], np.float32)
    c2 = np.array([rng.randrange(30, 220) for _ in range(3)], np.float32)
    nprng = np.random.default_rng(rng.getrandbits(32))
    drawn = rng.choice(MATS)
    kind = kind or drawn
    period = rng.uniform(6, 20)
    if kind == "hexagons":
        q = x / period
        r = (y - (np.floor(q) % 2) * period / 2) / period
        share = ((np.floor(q) + np.floor(r)) % 3 == 0).astype(np.float32) * 0.7 + 0.15
    elif kind == "weave":
        share = 0.5 + 0.25 * np.sign(np.sin(x / period * math.pi)) * np.sign(np.sin(y / period * math.pi))
    elif kind == "blotches":
        noise = nprng.normal(0, 1, (small[1] // 8 + 1, small[0] // 8 + 1)).astype(np.float32)
        share = _upscaled(noise, small) > 0
        share = share.astype(np.float32)
    else:
        share = 0.5 + 0.5 * np.sin(y / period + 2 * np.sin(x / (period * 8)))
    img = c1 * share[..., None] + c2 * (1 - share[..., None])
    img += nprng.normal(0, 6, img.shape)
    return Image.fromarray(np.clip(img, 0, 255).astype(np.uint8), "RGB").resize(size, Image.BILINEAR)


def _upscaled(values: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """`values` scaled smoothly to `size` (w, h) with Pillow (the generator needs no OpenCV)."""
    image = Image.fromarray(values.astype(np.float32), "F").resize(size, Image.BICUBIC)
    return np.asarray(image, np.float32)


def lay_out(faces: list[Image.Image], rng: random.Random, gap_mm: float, wave_deg: float,
            over_corners: bool = False) -> Image.Image:
    """Cards `gap_mm` apart (negative: each over its left neighbour's right edge, or with `over_corners` over
    its right neighbour's corner marks), along a gentle wave: each card lifted and turned with the wave's slope
    (`wave_deg` the largest turn)."""
    card_w, card_h = faces[0].size
    mm = FACE_PX_PER_MM
    gap = gap_mm * mm
    pad = 12 * mm
    along = len(faces) * card_w + (len(faces) - 1) * gap
    row = Image.new("RGBA", (round(along) + 2 * pad, card_h + 2 * pad), (0, 0, 0, 0))
    phase = rng.uniform(0, 2 * math.pi)
    # Left to right: each card drawn over its left neighbour's right edge, its own corner marks on top. (The
    # development and held-out generators draw right to left, so there each card lies over its right
    # neighbour's corner marks, whatever their comments say.)
    order = reversed(range(len(faces))) if over_corners else range(len(faces))
    for i in order:
        t = i / max(1, len(faces) - 1)
        turn = wave_deg * math.cos(2 * math.pi * t + phase) + rng.uniform(-1.5, 1.5)
        card = faces[i].rotate(turn, resample=Image.BICUBIC, expand=True)
        lift = wave_deg * 1.2 * math.sin(2 * math.pi * t + phase) * mm + rng.uniform(-1.5, 1.5) * mm
        x = pad + i * (card_w + gap) - (card.width - card_w) / 2
        y = pad + lift - (card.height - card_h) / 2
        row.alpha_composite(card, (max(0, round(x)), max(0, round(y))))
    return row


@dataclass(frozen=True)
class Lay:
    """How a tuning row is laid and photographed."""

    gap_mm: float
    wave_deg: float
    light: str  # "warm", "cool", "dim" or "daylight"
    blur: float
    over_corners: bool = False  # overlapping cards cover their right neighbour's corner marks (people do not)


def lay_of(rng: random.Random) -> Lay:
    gap = rng.choice([0.0, rng.uniform(-8, -2), rng.uniform(-3, 0), rng.uniform(0.5, 5)])
    wave = rng.choice([0.0, rng.uniform(1.5, 5)])
    # Over the corner marks, as the development and held-out rows are drawn (and the figures in
    # docs/scanning.md measured): the harder lay; the tests lay cards as people do.
    return Lay(gap, wave, rng.choice(["warm", "cool", "dim", "daylight"]), rng.uniform(0.0, 2.0), over_corners=True)


_TINTS = {"warm": (1.0, 0.85, 0.62), "cool": (0.8, 0.92, 1.0), "dim": (0.5, 0.5, 0.52), "daylight": (1.0, 1.0, 1.0)}


def photo(edition: Edition, style: TuningStyle, seed: int, index: int, letters: tuple[str, ...] | None = None, *,
          lay: Lay | None = None, photo_size: tuple[int, int] = (2592, 1944), scale: float | None = None,
          across: bool | None = None, extra_faces: dict[int, Image.Image] | None = None,
          mat_kind: str | None = None) -> Photo:
    """Tuning photo `index` of the set `seed`: a row of `style` cards on a mat of the set's own (`mat_kind`:
    one of MATS; None: drawn). `extra_faces` swaps other faces in at 0-based positions (a misprinted card,
    another edition's)."""
    rng = random.Random(f"tuning:{seed}:{index}")
    if letters is None:
        letters = tuple(rng.sample(list(edition.letters), ROW_LENGTH))
    lay = lay or lay_of(rng)
    faces = [face_of(edition, letter, style) for letter in letters]
    for position, face in (extra_faces or {}).items():
        faces[position] = face
    rotation = rng.uniform(-14, 14)
    if across if across is not None else rng.random() < 0.25:
        rotation += 180
    scale = rng.uniform(0.7, 1.3) if scale is None else scale
    row = lay_out(faces, rng, lay.gap_mm, lay.wave_deg, lay.over_corners)
    layer, (x0, y0) = place(row, photo_size, rotation, scale * len(faces) / ROW_LENGTH, False, rng)
    picture = mat(photo_size, rng, mat_kind)
    region = picture.crop((x0, y0, x0 + layer.width, y0 + layer.height))
    shadow = layer.getchannel("A").point(lambda a: a * 0.3).filter(ImageFilter.BoxBlur(10))
    region.paste(Image.new("RGB", layer.size, "black"), (rng.randint(-8, 8), rng.randint(3, 12)), shadow)
    region.paste(layer, (0, 0), layer)
    cards = Image.new("L", photo_size, 0)
    cards.paste(layer.getchannel("A"), (x0, y0))
    if lay.blur > 0.2:
        region = region.filter(ImageFilter.GaussianBlur(lay.blur))
    picture.paste(region, (x0, y0))
    picture = uneven_light(picture, rng)
    pixels = np.asarray(picture, np.float32) * np.array(_TINTS[lay.light], np.float32) * rng.uniform(0.85, 1.0)
    picture = Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8), "RGB")
    if rng.random() < 0.35:
        picture = glare(picture, cards, rng)
    picture = sensor_noise(picture, rng.uniform(2, 7), rng)
    quality = rng.randint(50, 90)
    out = io.BytesIO()
    picture.save(out, "JPEG", quality=quality)
    description = (f"tuning seed={seed} index={index} gap={lay.gap_mm:.1f}mm wave={lay.wave_deg:.1f}° "
                   f"light={lay.light} blur={lay.blur:.2f} jpeg={quality} rotation={rotation:.0f}° "
                   f"font={Path(style.font).stem} badge={style.badge if style.letter_fill else 'bare'} "
                   f"picture={style.picture}")
    return Photo(out.getvalue(), tuple(letters), edition.id, description)


def teaching_photo(edition: Edition, style: TuningStyle, letters: str, seed: int,
                   photo_size: tuple[int, int] = (2592, 1944)) -> bytes:
    """A teaching photo of tuning cards, laid as the teaching screen asks: apart, upright, from above."""
    return photo(edition, style, seed, 10_000 + edition.letters.index(letters[0]), tuple(letters),
                 lay=Lay(5.0, 0.0, "daylight", 0.5), photo_size=photo_size, scale=1.1, across=False).jpeg
