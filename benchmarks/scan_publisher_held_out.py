"""Held-out publisher-style photos: deck styles and rows the untaught reader is never tuned on.

`tourpad bench scan --style publisher-held-out` reads these; the reader is tuned on the deck styles of
`benchmarks.scan_publisher_photos` only. Everything here differs from those on purpose, so the figures say
how the reader does on a printing it has never seen:

- **faces**: another picture (city blocks and stripes rather than scenery), icons as rounded squares, the
  banner at another height, the number circle a little larger or smaller with its own ring, the letter on a
  pill, a circle or bare with an outline;
- **fonts**: the installed fonts the tuning styles and the reader's own templates do not use (monospaced,
  narrow, regular weights);
- **colour schemes** of their own;
- **rows as people lay them**: cards touching, overlapping 2–7 mm (each card over its left neighbour's right
  edge, its own corners showing), a slight fan, on patterned mats (stripes, dots, tiles, plaid), in warm or
  dim light, blurred, JPEG.

The seeds are fixed here (HELD_OUT_SEED): this file was committed before any tuning of the untaught reader, and
the bench reports only how many rows were read, not which ones failed, so its misses are never looked at.
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

#: The held-out set's seed: committed with the styles, never changed while tuning.
HELD_OUT_SEED = 4242

#: Fonts neither the tuning styles nor the reader's templates use. Those missing on a machine are skipped
#: (fonts-liberation and fonts-dejavu-core, which the Makefile installs, hold the first four).
HELD_OUT_FONTS = ("/usr/share/fonts/truetype/liberation/LiberationMono-Bold.ttf",
                  "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf",
                  "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
                  "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
                  "/usr/share/fonts/truetype/liberation/LiberationSansNarrow-Bold.ttf",
                  "/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf")

_SCHEMES = [  # (number fill, number ink, ring, letter fill, letter ink, banner)
    ((235, 240, 245), (10, 40, 80), (10, 40, 80), (10, 40, 80), (235, 240, 245), (10, 40, 80)),
    ((30, 30, 30), (250, 220, 80), (250, 220, 80), (30, 30, 30), (250, 220, 80), (90, 20, 20)),
    ((40, 120, 60), (255, 255, 255), (255, 255, 255), None, (255, 255, 255), (40, 120, 60)),
    ((245, 235, 210), (150, 30, 30), (150, 30, 30), (245, 235, 210), (150, 30, 30), (60, 40, 100)),
    ((255, 140, 0), (20, 20, 20), (20, 20, 20), (20, 20, 20), (255, 140, 0), (20, 20, 20)),
    ((200, 220, 255), (0, 0, 0), (0, 0, 0), None, (0, 0, 0), (0, 90, 160)),
]


@dataclass(frozen=True)
class HeldOutStyle:
    """One held-out printing: its corner marks' font, colours and shapes."""

    font: str
    number_fill: tuple[int, int, int]
    number_ink: tuple[int, int, int]
    ring: tuple[int, int, int]
    letter_fill: tuple[int, int, int] | None  # None: bare letter with an outline of the other colour
    letter_ink: tuple[int, int, int]
    banner: tuple[int, int, int]
    badge: str  # "pill", "circle" or "diamond"
    circle_mm: float  # the number circle's radius
    ring_mm: float  # its ring's width
    number_mm: float  # the number's font size (em, mm)
    letter_mm: float  # the letter's font size (em, mm)
    banner_mm: float  # the banner's top, from the card's top
    offset_mm: tuple[float, float]


def held_out_fonts() -> tuple[str, ...]:
    return tuple(path for path in HELD_OUT_FONTS if Path(path).is_file())


def held_out_style(seed: int) -> HeldOutStyle:
    rng = random.Random(f"held-out:{seed}")
    number_fill, number_ink, ring, letter_fill, letter_ink, banner = rng.choice(_SCHEMES)
    return HeldOutStyle(rng.choice(held_out_fonts()), number_fill, number_ink, ring, letter_fill, letter_ink,
                        banner, rng.choice(["pill", "circle", "diamond"]), rng.uniform(5.0, 6.0),
                        rng.uniform(0.3, 1.0), rng.uniform(6.5, 8.0), rng.uniform(8.5, 11.0), rng.uniform(55, 66),
                        (rng.uniform(-1.2, 1.2), rng.uniform(-1.2, 1.2)))


def _city(rng: random.Random, size: tuple[int, int]) -> Image.Image:
    """A picture unlike the tuning faces' scenery: a flat sky, blocks of buildings with windows, stripes."""
    w, h = size[0] // 2, size[1] // 2
    sky = tuple(rng.randrange(90, 250) for _ in range(3))
    picture = Image.new("RGB", (w, h), sky)
    draw = ImageDraw.Draw(picture)
    for _ in range(rng.randrange(3, 7)):  # stripes across the sky (a sunset, a field)
        y = rng.uniform(0, h)
        draw.rectangle((0, y, w, y + rng.uniform(2, h / 8)), fill=tuple(rng.randrange(0, 256) for _ in range(3)))
    x = -rng.uniform(0, w / 6)
    while x < w:
        width, top = rng.uniform(w / 8, w / 3), rng.uniform(0.25, 0.7) * h
        colour = tuple(rng.randrange(20, 220) for _ in range(3))
        draw.rectangle((x, top, x + width, h), fill=colour)
        window = tuple(min(255, c + 70) for c in colour)
        for wy in np.arange(top + 4, h - 4, rng.uniform(6, 12)):
            for wx in np.arange(x + 3, x + width - 5, rng.uniform(5, 10)):
                draw.rectangle((wx, wy, wx + 2, wy + 3), fill=window)
        x += width + rng.uniform(0, w / 20)
    picture = picture.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 1.0)))
    return picture.resize(size, Image.BILINEAR)


@cache
def held_out_face(edition_id: str, letter: str, site: str, number: int, icons: tuple[str, ...],
                  style: HeldOutStyle) -> Image.Image:
    """A held-out card face (RGBA, FACE_PX_PER_MM px/mm)."""
    mm = FACE_PX_PER_MM
    size = (CARD_MM[0] * mm, CARD_MM[1] * mm)
    rng = random.Random(f"held-out:{edition_id}:{letter}:{site}")
    face = _city(rng, size)
    draw = ImageDraw.Draw(face)
    dx, dy = style.offset_mm
    top = style.banner_mm * mm
    draw.rectangle((0, top, size[0], top + 7 * mm), fill=style.banner)
    draw.text((size[0] / 2 + 4 * mm, top + 3.5 * mm), site[:22], font=_font(style.font, int(3.2 * mm)),
              fill=(255, 255, 255), anchor="mm")
    for i, icon in enumerate(icons[:4]):  # icons: rounded squares with a pale bar
        irng = random.Random(f"held-out:{icon}")
        colour = tuple(irng.randrange(40, 230) for _ in range(3))
        cx, cy = 55.5 * mm, (12 + 10 * i) * mm
        draw.rounded_rectangle((cx - 4 * mm, cy - 4 * mm, cx + 4 * mm, cy + 4 * mm), radius=1.5 * mm, fill=colour)
        draw.rectangle((cx - 2.5 * mm, cy - 0.7 * mm, cx + 2.5 * mm, cy + 0.7 * mm), fill=(245, 245, 245))
    cx, cy, r = (8 + dx) * mm, (8 + dy) * mm, style.circle_mm * mm
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=style.number_fill, outline=style.ring,
                 width=max(1, round(style.ring_mm * mm)))
    draw.text((cx, cy), str(number), font=_font(style.font, int(style.number_mm * mm)), fill=style.number_ink,
              anchor="mm")
    cx, cy = (8.5 + dx) * mm, (79 + dy) * mm
    letter_font = _font(style.font, int(style.letter_mm * mm))
    if style.letter_fill is None:
        outline = tuple(255 - c for c in style.letter_ink)
        draw.text((cx, cy), letter, font=letter_font, fill=style.letter_ink, anchor="mm",
                  stroke_width=max(1, mm // 3), stroke_fill=outline)
    else:
        r = 6 * mm
        if style.badge == "circle":
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=style.letter_fill)
        elif style.badge == "diamond":
            draw.polygon([(cx, cy - 1.2 * r), (cx + 1.2 * r, cy), (cx, cy + 1.2 * r), (cx - 1.2 * r, cy)],
                         fill=style.letter_fill)
        else:
            draw.rounded_rectangle((cx - 0.85 * r, cy - r, cx + 0.85 * r, cy + r), radius=2.5 * mm,
                                   fill=style.letter_fill)
        draw.text((cx, cy), letter, font=letter_font, fill=style.letter_ink, anchor="mm")
    return die_cut(face, 3.5 * mm)


def face_of(edition: Edition, letter: str, style: HeldOutStyle) -> Image.Image:
    return held_out_face(edition.id, letter, *printed_facts(edition, letter), style)


def mat(size: tuple[int, int], rng: random.Random) -> Image.Image:
    """A patterned play mat or cloth: stripes, dots, tiles or plaid; drawn small and scaled up."""
    small = (size[0] // 6, size[1] // 6)
    y, x = np.mgrid[0:small[1], 0:small[0]].astype(np.float32)
    c1 = np.array([rng.randrange(40, 230) for _ in range(3)], np.float32)
    c2 = np.array([rng.randrange(40, 230) for _ in range(3)], np.float32)
    kind = rng.choice(["stripes", "dots", "tiles", "plaid"])
    period = rng.uniform(5, 18)
    angle = rng.uniform(0, math.pi)
    u = x * math.cos(angle) + y * math.sin(angle)
    v = -x * math.sin(angle) + y * math.cos(angle)
    if kind == "stripes":
        share = (np.sin(u / period * 2 * math.pi) > 0).astype(np.float32)
    elif kind == "dots":
        share = (np.hypot((u % period) - period / 2, (v % period) - period / 2) < period / 4).astype(np.float32)
    elif kind == "tiles":
        share = (((u // period) + (v // period)) % 2 == 0).astype(np.float32) * 0.8 + 0.1
    else:
        share = 0.5 * (np.sin(u / period * 2 * math.pi) > 0.3) + 0.5 * (np.sin(v / period * 2 * math.pi) > 0.3)
    img = c1 * share[..., None] + c2 * (1 - share[..., None])
    img += np.random.default_rng(rng.getrandbits(32)).normal(0, 5, img.shape)
    return Image.fromarray(np.clip(img, 0, 255).astype(np.uint8), "RGB").resize(size, Image.BILINEAR)


def lay_out(faces: list[Image.Image], rng: random.Random, gap_mm: float, fan_deg: float) -> Image.Image:
    """Cards side by side `gap_mm` apart (negative: each over its left neighbour's right edge), fanned: turned
    from -fan_deg/2 to +fan_deg/2 along the row and raised along an arc."""
    card_w, card_h = faces[0].size
    mm = FACE_PX_PER_MM
    gap = gap_mm * mm
    pad = 10 * mm
    along = len(faces) * card_w + (len(faces) - 1) * gap
    row = Image.new("RGBA", (round(along) + 2 * pad, card_h + 2 * pad), (0, 0, 0, 0))
    for i in reversed(range(len(faces))):  # right to left: each card's left edge (its corners) on top
        t = i / max(1, len(faces) - 1) - 0.5
        turn = -fan_deg * t + rng.uniform(-1, 1)
        card = faces[i].rotate(turn, resample=Image.BICUBIC, expand=True)
        lift = (4 * t * t - 1) * fan_deg * 0.8 * mm + rng.uniform(-1, 1) * mm
        x = pad + i * (card_w + gap) - (card.width - card_w) / 2
        y = pad + lift - (card.height - card_h) / 2
        row.alpha_composite(card, (max(0, round(x)), max(0, round(y))))
    return row


@dataclass(frozen=True)
class Lay:
    """How a held-out row is laid and photographed."""

    gap_mm: float
    fan_deg: float
    light: str  # "warm", "dim" or "daylight"
    blur: float


def lay_of(rng: random.Random) -> Lay:
    gap = rng.choice([0.0, rng.uniform(-7, -2), rng.uniform(-4, 0), rng.uniform(1, 4)])
    fan = rng.choice([0.0, 0.0, rng.uniform(2, 6)])
    return Lay(gap, fan, rng.choice(["warm", "dim", "daylight"]), rng.uniform(0.0, 1.8))


def photo(edition: Edition, style: HeldOutStyle, seed: int, index: int, letters: tuple[str, ...] | None = None, *,
          lay: Lay | None = None, photo_size: tuple[int, int] = (2592, 1944), scale: float | None = None,
          across: bool | None = None) -> Photo:
    """Held-out photo `index` of the set `seed`: a row of `style` cards on a patterned mat."""
    rng = random.Random(f"held-out:{seed}:{index}")
    if letters is None:
        letters = tuple(rng.sample(list(edition.letters), ROW_LENGTH))
    lay = lay or lay_of(rng)
    faces = [face_of(edition, letter, style) for letter in letters]
    rotation = rng.uniform(-12, 12)
    if across if across is not None else rng.random() < 0.25:
        rotation += 180
    scale = rng.uniform(0.75, 1.3) if scale is None else scale
    row = lay_out(faces, rng, lay.gap_mm, lay.fan_deg)
    layer, (x0, y0) = place(row, photo_size, rotation, scale * len(faces) / ROW_LENGTH, False, rng)
    picture = mat(photo_size, rng)
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
    tint = {"warm": (1.0, 0.82, 0.6), "dim": (0.55, 0.55, 0.55), "daylight": (1.0, 1.0, 1.0)}[lay.light]
    pixels = np.asarray(picture, np.float32) * np.array(tint, np.float32) * rng.uniform(0.85, 1.0)
    picture = Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8), "RGB")
    if rng.random() < 0.3:
        picture = glare(picture, cards, rng)
    picture = sensor_noise(picture, rng.uniform(2, 7), rng)
    quality = rng.randint(50, 90)
    out = io.BytesIO()
    picture.save(out, "JPEG", quality=quality)
    description = (f"held-out seed={seed} index={index} gap={lay.gap_mm:.1f}mm fan={lay.fan_deg:.1f}° "
                   f"light={lay.light} blur={lay.blur:.2f} jpeg={quality}")
    return Photo(out.getvalue(), tuple(letters), edition.id, description)


def teaching_photo(edition: Edition, style: HeldOutStyle, letters: str, seed: int,
                   photo_size: tuple[int, int] = (2592, 1944)) -> bytes:
    """A teaching photo of held-out cards, laid as the teaching screen asks: apart, upright, from above."""
    return photo(edition, style, seed, 10_000 + edition.letters.index(letters[0]), tuple(letters),
                 lay=Lay(5.0, 0.0, "daylight", 0.5), photo_size=photo_size, scale=1.1, across=False).jpeg
