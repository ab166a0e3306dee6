"""A synthetic, deterministic set of photos of a player's drafted row, for `tourpad bench scan` and the tests.

Each photo shows 7 card faces laid in a row (or a column) on a table-like background, seen by a hand-held
phone: the whole row rotated (±15°), tilted in perspective, at 0.5–1.5 × a nominal framing, then blurred,
noised, lit unevenly and JPEG-compressed. The same (seed, index, case) always gives the same photo, so a
failure can be reproduced with `photo(seed, index, case=...)`.

`CASES` names the kinds of photo the benchmark mixes: everyday shots and the hard ones (far, blurred, heavily
compressed, dim), each a set of ranges the photo's settings are drawn from.

The card faces are the printed ones: `printables.cards` renders the edition's sheets as a PDF, pdftoppm
rasterises it, and each card is cut out at its trim box (`pdf_card_faces`). Where pdftoppm is missing,
stand-ins drawn with PIL + segno (`card_face`) carry the same code at the same size and place.
"""

from __future__ import annotations

import io
import math
import random
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

from printables.payload import CARD_QR_BORDER, CARD_QR_CENTRE_MM, CARD_QR_MM, card_payload, card_qr

CARD_MM = (63, 88)
#: The code as the printed cards carry it (printables.cards): size with quiet zone, and centre.
QR_MM = CARD_QR_MM
QR_BORDER_MODULES = CARD_QR_BORDER
QR_CENTRE_MM = CARD_QR_CENTRE_MM
FACE_PX_PER_MM = 8
PHOTO_SIZE = (4032, 3024)
#: At scale 1.0 a row's length spans this share of the photo's width; 0.5–1.5 gives 30–90 %.
NOMINAL_ROW_SHARE = 0.6
ROW_LENGTH = 7


@dataclass(frozen=True)
class PhotoCase:
    """The ranges one kind of photo draws its settings from. `exposure` darkens the whole photo before the
    sensor noise (a dim room: the phone keeps the shutter short and the picture comes out dark and grainy)."""

    scale: tuple[float, float] = (0.5, 1.5)
    blur: tuple[float, float] = (0.0, 1.6)
    noise: tuple[float, float] = (2, 10)
    quality: tuple[int, int] = (35, 90)
    exposure: tuple[float, float] | None = None


#: The benchmark's mix, one case after another by photo index (`case_of`). Every hard case pushes one
#: setting past the everyday range and draws the rest as usual, except that a blurred shot is not also a far
#: one: at 2 px per module a 2 px blur leaves no code for any reader.
CASES: dict[str, PhotoCase] = {
    "everyday": PhotoCase(),
    "far": PhotoCase(scale=(0.5, 0.6)),
    "blurred": PhotoCase(scale=(0.8, 1.5), blur=(1.6, 2.2)),
    "compressed": PhotoCase(quality=(12, 25)),
    # One to two stops under-exposed: a quarter to a half of the contrast left, the sensor's grain the same.
    "dim": PhotoCase(exposure=(0.25, 0.5)),
}


def case_of(index: int) -> str:
    """The case photo `index` of a benchmark set shows: the cases in turn, so any 5 consecutive photos hold
    one of each."""
    return list(CASES)[index % len(CASES)]


@dataclass(frozen=True)
class Photo:
    """One synthetic photo: the JPEG as a phone would send it and the letters laid out, in draft order."""

    jpeg: bytes
    letters: tuple[str, ...]
    edition_id: str
    description: str


def qr_image(payload: str, px_per_module: int, border: int = 4) -> Image.Image:
    """The QR code as a greyscale image with a quiet zone of `border` modules."""
    code = card_qr(payload)  # the printed cards' parameters
    matrix = np.pad(np.array([list(row) for row in code.matrix], dtype=np.uint8), border)
    pixels = np.where(matrix.repeat(px_per_module, 0).repeat(px_per_module, 1) > 0, 0, 255).astype(np.uint8)
    return Image.fromarray(pixels, "L")


@cache
def _font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size)


@cache
def card_face(edition_id: str, letter: str, region_color: str = "#3A7CA5", qr_mm: float = QR_MM) -> Image.Image:
    """A stand-in card face (RGB, 8 px/mm): border in the region colour, the letter large, the QR code."""
    mm = FACE_PX_PER_MM
    width, height = CARD_MM[0] * mm, CARD_MM[1] * mm
    face = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(face)
    draw.rounded_rectangle((0, 0, width - 1, height - 1), radius=3 * mm, fill=region_color)
    draw.rounded_rectangle((3 * mm, 3 * mm, width - 3 * mm, height - 3 * mm), radius=2 * mm, fill="#FBF7EE")
    draw.text((6 * mm, 4 * mm), letter, fill="#222222", font=_font(16 * mm))
    draw.text((6 * mm, 24 * mm), f"site {letter}", fill="#444444", font=_font(4 * mm))
    # Drawn large and scaled down to the exact size, as a PDF renderer would anti-alias it.
    qr = qr_image(card_payload(edition_id, letter), 16, border=QR_BORDER_MODULES)
    side = round(qr_mm * mm)
    qr = qr.resize((side, side), Image.LANCZOS)
    # A larger code (to measure what size would be needed) moves in so it stays inside the card's border.
    cx = min(QR_CENTRE_MM[0], CARD_MM[0] - 3 - qr_mm / 2)
    cy = min(QR_CENTRE_MM[1], CARD_MM[1] - 3 - qr_mm / 2)
    face.paste(qr, (round(cx * mm - side / 2), round(cy * mm - side / 2)))
    return face


@cache
def pdf_card_faces(edition_id: str, dpi: int = 200) -> dict[str, Image.Image] | None:
    """Every card face of the edition as printed (letter → RGB image at `dpi`), cut from the card sheets'
    PDF; None where pdftoppm is not installed."""
    if shutil.which("pdftoppm") is None:
        return None
    from printables.cards import render_cards
    from printables.layout import CARDS_PER_PAGE, card_grid
    from scorer.packs import resolve_edition

    edition = resolve_edition(edition_id)
    grid = card_grid("a4", bleed=False)
    faces = {}
    with tempfile.TemporaryDirectory(prefix="tourpad-cards-") as tmp:
        pdf = Path(tmp) / "cards.pdf"
        render_cards(edition, pdf, paper="a4")
        subprocess.run(["pdftoppm", "-r", str(dpi), "-png", str(pdf), str(Path(tmp) / "page")], check=True)
        pages = sorted(Path(tmp).glob("page-*.png"))
        scale = dpi / 72  # PDF points → pixels; PDF y runs up from the bottom of the page
        for i, card in enumerate(edition.cards):
            page = Image.open(pages[i // CARDS_PER_PAGE])
            trim = grid.trims[i % CARDS_PER_PAGE]
            box = (round(trim.x * scale), round((grid.page_height - trim.top) * scale),
                   round(trim.right * scale), round((grid.page_height - trim.y) * scale))
            faces[card.letter] = page.crop(box).convert("RGB")
    return faces


def lay_out(faces: list[Image.Image], column: bool, rng: random.Random) -> Image.Image:
    """The cards side by side (or stacked) with small uneven gaps and slight per-card skew, on transparency."""
    card_w, card_h = faces[0].size
    gap = rng.uniform(1, 6) * FACE_PX_PER_MM
    pad = 4 * FACE_PX_PER_MM
    along = len(faces) * (card_h if column else card_w) + (len(faces) - 1) * gap
    size = (card_w + 2 * pad, round(along) + 2 * pad) if column else (round(along) + 2 * pad, card_h + 2 * pad)
    row = Image.new("RGBA", size, (0, 0, 0, 0))
    for i, face in enumerate(faces):
        card = face.convert("RGBA").rotate(rng.uniform(-3, 3), resample=Image.BICUBIC, expand=True)
        jitter = rng.uniform(-1.5, 1.5) * FACE_PX_PER_MM
        step = i * ((card_h if column else card_w) + gap)
        x, y = (pad + jitter, pad + step) if column else (pad + step, pad + jitter)
        x -= (card.width - card_w) / 2
        y -= (card.height - card_h) / 2
        row.alpha_composite(card, (max(0, round(x)), max(0, round(y))))
    return row


def background(size: tuple[int, int], rng: random.Random) -> Image.Image:
    """A table: wood grain, a plain or checked cloth, or a dark mat; drawn small and scaled up (cheap, soft)."""
    small = (size[0] // 8, size[1] // 8)
    nprng = np.random.default_rng(rng.getrandbits(32))
    kind = rng.choice(["wood", "cloth", "check", "dark", "light"])
    y, x = np.mgrid[0:small[1], 0:small[0]].astype(np.float32)
    if kind == "wood":
        base = np.array([150, 105, 65], np.float32) * rng.uniform(0.7, 1.2)
        grain = np.sin(y / rng.uniform(2, 6) + 3 * np.sin(x / rng.uniform(20, 60))) * 18
        img = base + grain[..., None] + nprng.normal(0, 6, (*small[::-1], 1))
    elif kind == "check":
        c1 = np.array([rng.randrange(60, 230) for _ in range(3)], np.float32)
        c2 = c1 * rng.uniform(0.4, 0.8)
        period = rng.randrange(6, 20)
        mask = ((x // period + y // period) % 2)[..., None]
        img = c1 * mask + c2 * (1 - mask)
    elif kind == "dark":
        img = np.full((*small[::-1], 3), rng.uniform(20, 60), np.float32) + nprng.normal(0, 5, (*small[::-1], 3))
    elif kind == "light":
        img = np.full((*small[::-1], 3), rng.uniform(170, 230), np.float32) + nprng.normal(0, 4, (*small[::-1], 3))
    else:
        color = np.array([rng.randrange(30, 200) for _ in range(3)], np.float32)
        img = color + nprng.normal(0, 8, (*small[::-1], 3))
    return Image.fromarray(np.clip(img, 0, 255).astype(np.uint8), "RGB").resize(size, Image.BILINEAR)


def perspective_coefficients(dest: list[tuple[float, float]], src: list[tuple[float, float]]) -> list[float]:
    """PIL's PERSPECTIVE data mapping output points `dest` back to input points `src` (4 pairs)."""
    rows, rhs = [], []
    for (x, y), (u, v) in zip(dest, src, strict=True):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        rhs.extend([u, v])
    return list(np.linalg.solve(np.array(rows, float), np.array(rhs, float)))


def place(row: Image.Image, size: tuple[int, int], rotation: float, scale: float, column: bool,
          rng: random.Random) -> tuple[Image.Image, tuple[int, int]]:
    """Warp the row as the camera sees it: scaled, rotated about its centre, keystoned, shifted somewhere in
    the photo. Returns the RGBA layer covering just the row's bounding box and where that box goes."""
    w, h = row.size
    length = NOMINAL_ROW_SHARE * scale * size[0]
    factor = length / (h if column else w)
    tilt_x, tilt_y = rng.uniform(-0.06, 0.06), rng.uniform(-0.06, 0.06)
    angle = math.radians(rotation)
    corners = []
    for u, v in [(-1, -1), (1, -1), (1, 1), (-1, 1)]:
        # Keystone: the side farther from the camera looks shorter.
        x = u * w / 2 * factor * (1 + tilt_y * v)
        y = v * h / 2 * factor * (1 + tilt_x * u)
        corners.append((x * math.cos(angle) - y * math.sin(angle), x * math.sin(angle) + y * math.cos(angle)))
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    margin = 0.02 * size[0]
    room_x = max(0.0, size[0] - 2 * margin - (max(xs) - min(xs)))
    room_y = max(0.0, size[1] - 2 * margin - (max(ys) - min(ys)))
    cx = margin - min(xs) + rng.uniform(0, room_x)
    cy = margin - min(ys) + rng.uniform(0, room_y)
    box = (max(0, int(cx + min(xs)) - 40), max(0, int(cy + min(ys)) - 40),
           min(size[0], int(cx + max(xs)) + 40), min(size[1], int(cy + max(ys)) + 40))
    dest = [(x + cx - box[0], y + cy - box[1]) for x, y in corners]
    coeffs = perspective_coefficients(dest, [(0, 0), (w, 0), (w, h), (0, h)])
    layer = row.transform((box[2] - box[0], box[3] - box[1]), Image.PERSPECTIVE, coeffs, Image.BICUBIC)
    return layer, (box[0], box[1])


def uneven_light(picture: Image.Image, rng: random.Random) -> Image.Image:
    """A lamp off to one side and a soft shadow: a smooth multiplicative light field, 0.5–1.0."""
    w, h = picture.size
    y, x = np.mgrid[0:h:16, 0:w:16].astype(np.float32)
    lx, ly = rng.uniform(-0.3, 1.3) * w, rng.uniform(-0.3, 1.3) * h
    dist = np.hypot(x - lx, y - ly) / math.hypot(w, h)
    field = 1.0 - rng.uniform(0.1, 0.5) * dist
    angle = rng.uniform(0, 2 * math.pi)
    field += rng.uniform(-0.08, 0.08) * ((x * math.cos(angle) + y * math.sin(angle)) / max(w, h))
    field = np.clip(field, 0.5, 1.0)
    light = Image.fromarray((field * 255).astype(np.uint8), "L").resize((w, h), Image.BILINEAR)
    return ImageChops.multiply(picture, Image.merge("RGB", (light, light, light)))


def sensor_noise(picture: Image.Image, sigma: float, rng: random.Random) -> Image.Image:
    """Grey grain of standard deviation `sigma` grey levels on every pixel."""
    w, h = picture.size
    grain = np.random.default_rng(rng.getrandbits(32)).standard_normal((h, w), dtype=np.float32) * sigma + 128
    grain_image = Image.fromarray(np.clip(grain, 0, 255).astype(np.uint8), "L")
    return ImageChops.add(picture, Image.merge("RGB", (grain_image,) * 3), scale=1.0, offset=-128)


def photo(seed: int, index: int, edition_id: str = "australia", letters: tuple[str, ...] | None = None, *,
          column: bool = False, turn: float = 0.0, scale: float | None = None, blur: float | None = None,
          all_letters: tuple[str, ...] | None = None, extra_faces: dict[int, Image.Image] | None = None,
          qr_mm: float = QR_MM, printed: bool = True, case: str = "everyday") -> Photo:
    """Photo `index` of the set made from `seed`, of the kind `case` (a key of `CASES`).

    `turn` adds to the random ±15° (180 photographs the row from across the table); `letters` fixes the
    row instead of dealing 7 at random; `extra_faces` swaps in other faces at given positions (0-based),
    e.g. a card of another edition; `scale` fixes the framing instead of drawing it from 0.5–1.5 and `blur`
    the camera's blur (Gaussian radius in pixels) instead of drawing it from 0–1.6. The faces are the
    printed cards' unless `printed` is False or `qr_mm` asks for another code size (quiet zone included):
    then the stand-ins.
    """
    if case not in CASES:
        raise ValueError(f"unknown photo case {case!r}: one of {', '.join(CASES)}")
    settings = CASES[case]
    rng = random.Random(seed * 1_000_003 + index)
    if letters is None:
        pool = list(all_letters or (*"ABCDEFGHIJKLMNOPQRSTUVWXYZ", "@", "#"))
        letters = tuple(rng.sample(pool, ROW_LENGTH))
    palette = ["#D9822B", "#B5472F", "#7A4EA3", "#3A7CA5", "#4E8F3A", "#C9A227"]
    printed_faces = pdf_card_faces(edition_id) if printed and qr_mm == QR_MM else None
    faces = [printed_faces[letter].resize(card_face(edition_id, letter).size, Image.LANCZOS)
             if printed_faces and letter in printed_faces
             else card_face(edition_id, letter, palette[ord(letter) % len(palette)], qr_mm) for letter in letters]
    for position, face in (extra_faces or {}).items():
        faces[position] = face
    rotation = rng.uniform(-15, 15) + turn
    scale = rng.uniform(*settings.scale) if scale is None else scale
    row = lay_out(faces, column, rng)
    layer, (x0, y0) = place(row, PHOTO_SIZE, rotation, scale, column, rng)
    picture = background(PHOTO_SIZE, rng)
    # Everything that touches the cards happens in their bounding box: a 12 MP canvas is slow to filter.
    region = picture.crop((x0, y0, x0 + layer.width, y0 + layer.height))
    shadow = layer.getchannel("A").point(lambda a: a * 0.35).filter(ImageFilter.BoxBlur(12))
    offset = (rng.randint(-10, 10), rng.randint(4, 16))
    region.paste(Image.new("RGB", layer.size, "black"), offset, shadow)
    region.paste(layer, (0, 0), layer)
    drawn_blur = rng.uniform(*settings.blur)
    blur = drawn_blur if blur is None else blur
    if blur > 0.2:
        region = region.filter(ImageFilter.GaussianBlur(blur))
    picture.paste(region, (x0, y0))
    picture = uneven_light(picture, rng)
    exposure = 1.0 if settings.exposure is None else rng.uniform(*settings.exposure)
    if exposure < 1.0:
        picture = picture.point(lambda level: round(level * exposure))
    noise = rng.uniform(*settings.noise)
    picture = sensor_noise(picture, noise, rng)
    quality = rng.randint(*settings.quality)
    out = io.BytesIO()
    picture.save(out, "JPEG", quality=quality)
    description = (f"seed={seed} index={index} case={case} {'column' if column else 'row'} "
                   f"rotation={rotation:.1f}° scale={scale:.2f} blur={blur:.2f} exposure={exposure:.2f} "
                   f"noise={noise:.1f} jpeg={quality}")
    return Photo(out.getvalue(), tuple(letters), edition_id, description)
