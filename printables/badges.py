"""Drawing pieces both printables share: the family badge around an icon, QR codes, colours, text boxes.

Badge shapes and colours follow the rulebooks' description of the cards: collections / cuisine /
Americana are green, animals / transport yellow diamonds, activities / treasures blue squares.
"""

from __future__ import annotations

from reportlab.lib import colors
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, Canvas

from printables.fonts import BOLD, CONDENSED_BOLD, fit_text, text_width
from printables.icons import Shape, icon_key, load_icon
from printables.payload import card_payload, card_qr

INK = colors.HexColor("#1E1E24")
PAPER_WHITE = colors.white
MUTED = colors.HexColor("#6B6B75")
FAMILY_COLOURS = {"collection": colors.HexColor("#3E8E3E"), "pairs": colors.HexColor("#E3A81B"),
                  "choice": colors.HexColor("#2F6DB5")}
#: Pictogram colour on each badge (dark on yellow reads better than white).
FAMILY_INK = {"collection": colors.white, "pairs": INK, "choice": colors.white}


def hex_colour(value: str) -> colors.Color:
    return colors.HexColor(value)


def tint(colour: colors.Color, amount: float) -> colors.Color:
    """Mix with white: 0 = the colour, 1 = white (pale backgrounds that keep a region recognisable)."""
    return colors.Color(*(c + (1 - c) * amount for c in (colour.red, colour.green, colour.blue)))


def initials(name: str) -> str:
    return "".join(word[0] for word in name.split()[:2]).upper() or "?"


def draw_shapes(canvas: Canvas, shapes: tuple[Shape, ...], x: float, y: float, size: float,
                ink, background) -> None:
    """Draw an icon's shapes in the square (x, y, size) — PDF coordinates, y up — in ``ink``,
    knock-outs in ``background``."""
    canvas.saveState()
    canvas.translate(x, y + size)
    canvas.scale(size / 100, -size / 100)
    canvas.setLineCap(1)
    canvas.setLineJoin(1)
    for shape in shapes:
        colour = background if shape.knock else ink
        canvas.setFillColor(colour)
        canvas.setStrokeColor(colour)
        canvas.setLineWidth(shape.stroke_width)
        path = canvas.beginPath()
        for op in shape.ops:
            if op[0] == "M":
                path.moveTo(op[1], op[2])
            elif op[0] == "L":
                path.lineTo(op[1], op[2])
            elif op[0] == "C":
                path.curveTo(*op[1:])
            else:
                path.close()
        canvas.drawPath(path, stroke=int(shape.stroke), fill=int(shape.fill), fillMode=FILL_EVEN_ODD)
    canvas.restoreState()


def draw_icon(canvas: Canvas, name: str, x: float, y: float, size: float, ink, background) -> bool:
    """Draw the pictogram for an icon name; False (nothing drawn) when we have none for it."""
    key = icon_key(name)
    if not key:
        return False
    draw_shapes(canvas, load_icon(key), x, y, size, ink, background)
    return True


def draw_badge(c: Canvas, role: str, icon_name: str, cx: float, cy: float, size: float,
               value: int | None = None) -> None:
    """A family badge of width ``size`` centred on (cx, cy) with the icon's pictogram (or its initials
    when we have no pictogram for that name) and, for valued icons, the value in a corner disc."""
    fill, ink = FAMILY_COLOURS[role], FAMILY_INK[role]
    half = size / 2
    c.saveState()
    c.setFillColor(fill)
    c.setStrokeColor(INK)
    c.setLineWidth(max(0.4, size * 0.015))
    if role == "pairs":
        path = c.beginPath()
        path.moveTo(cx, cy + half)
        path.lineTo(cx + half, cy)
        path.lineTo(cx, cy - half)
        path.lineTo(cx - half, cy)
        path.close()
        c.drawPath(path, stroke=1, fill=1)
        inner = size * 0.56
    elif role == "collection":
        c.circle(cx, cy, half, stroke=1, fill=1)
        inner = size * 0.62
    else:
        c.roundRect(cx - half, cy - half, size, size, size * 0.14, stroke=1, fill=1)
        inner = size * 0.74
    if not draw_icon(c, icon_name, cx - inner / 2, cy - inner / 2, inner, ink, fill):
        c.setFillColor(ink)
        size_pt, lines = fit_text(initials(icon_name), BOLD, inner, inner, inner * 0.6, max_lines=1)
        c.setFont(BOLD, size_pt)
        c.drawCentredString(cx, cy - size_pt * 0.35, lines[0])
    if value is not None:
        # In the badge's top-right corner, clear of the pictogram's middle.
        r = size * 0.17
        vx, vy = cx + half * 0.8, cy + half * 0.8
        c.setFillColor(colors.white)
        c.setStrokeColor(INK)
        c.circle(vx, vy, r, stroke=1, fill=1)
        c.setFillColor(INK)
        font_size = r * 1.3
        c.setFont(BOLD, font_size)
        c.drawCentredString(vx, vy - font_size * 0.36, str(value))
    c.restoreState()


def draw_fitted(c: Canvas, text: str, x: float, y: float, width: float, height: float, *,
                font: str = CONDENSED_BOLD, max_size: float = 10, min_size: float = 4, max_lines: int = 2,
                align: str = "centre", colour=INK, shrink_first: bool = False) -> float:
    """Draw ``text`` inside the box (x, y = bottom-left), shrunk and wrapped to fit (see `fit_text`);
    returns the size used."""
    size, lines = fit_text(text, font, width, height, max_size, min_size, max_lines, shrink_first=shrink_first)
    leading = size * 1.15
    block = size + leading * (len(lines) - 1)
    top_baseline = y + (height + block) / 2 - size * 0.8
    c.setFillColor(colour)
    c.setFont(font, size)
    for i, line in enumerate(lines):
        base = top_baseline - i * leading
        if align == "left":
            c.drawString(x, base, line)
        elif align == "right":
            c.drawRightString(x + width, base, line)
        else:
            c.drawCentredString(x + width / 2, base, line)
    return size


def draw_qr(c: Canvas, payload: str, x: float, y: float, size: float, border: int = 2) -> None:
    """A QR code (error level M) filling the square (x, y, size) including a quiet zone of ``border``
    modules, drawn as vector rectangles (one per horizontal run of dark modules)."""
    matrix = card_qr(payload).matrix
    n = len(matrix) + 2 * border
    module = size / n
    c.saveState()
    c.setFillColor(colors.white)
    c.rect(x, y, size, size, stroke=0, fill=1)
    c.setFillColor(colors.black)
    for row, bits in enumerate(matrix):
        top = y + size - (row + border) * module
        col = 0
        while col < len(bits):
            if bits[col]:
                start = col
                while col < len(bits) and bits[col]:
                    col += 1
                # A hair of overlap so renderers do not show seams between runs.
                c.rect(x + (start + border) * module, top - module - 0.05, (col - start) * module + 0.05,
                       module + 0.05, stroke=0, fill=1)
            col += 1
    c.restoreState()


def draw_card_qr(c: Canvas, edition_id: str, letter: str, x: float, y: float, size: float, border: int = 2) -> None:
    draw_qr(c, card_payload(edition_id, letter), x, y, size, border)


__all__ = ["draw_badge", "draw_card_qr", "draw_fitted", "draw_qr", "hex_colour", "text_width", "tint"]
