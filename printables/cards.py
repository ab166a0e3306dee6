"""Print-and-play card sheets: the 28 cards of an edition at 63 × 88 mm, nine to a page, with crop
marks, optional bleed and (for duplex printing) a page of backs after each page of fronts."""

from __future__ import annotations

import io
from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from printables.badges import INK, MUTED, draw_badge, draw_card_qr, draw_fitted, hex_colour
from printables.fonts import BOLD, CONDENSED_BOLD, SANS, register_fonts
from printables.layout import CARDS_PER_PAGE, CardGrid, Rect, card_grid, pages_needed
from printables.locale import _
from printables.output import write_pdf
from printables.payload import CARD_QR_BORDER, CARD_QR_BOTTOM_MM, CARD_QR_MM, CARD_QR_RIGHT_MM
from rules.edition import Card, Edition, Icon

BACK_COLOUR = colors.HexColor("#1F3A5F")
BACK_ACCENT = colors.HexColor("#E8A33D")
FRAME = 3 * mm  # the region-coloured border inside the trim
ROLES = ("collection", "pairs", "choice")


def card_icons(edition: Edition, card: Card) -> list[tuple[str, Icon, int | None]]:
    """(family role, icon, value or None) for each icon the card shows, in family order."""
    icons = []
    for role in ROLES:
        index = getattr(card, role)
        if index >= 0:
            icon = getattr(edition, role).icons[index]
            icons.append((role, icon, icon.value if role != "choice" else None))
    return icons


def draw_card_front(c: Canvas, edition: Edition, card: Card, trim: Rect, bleed: float) -> None:
    region = edition.regions[card.region]
    colour = hex_colour(region.color)
    c.saveState()
    c.setFillColor(colour)
    c.rect(trim.x - bleed, trim.y - bleed, trim.width + 2 * bleed, trim.height + 2 * bleed, stroke=0, fill=1)
    c.translate(trim.x, trim.y)
    c.setFillColor(colors.white)
    c.roundRect(FRAME, FRAME, trim.width - 2 * FRAME, trim.height - 2 * FRAME, 2.5 * mm, stroke=0, fill=1)

    # Throw & Catch number, top left, and the letter, top right (what players read across the table).
    c.setFillColor(INK)
    c.circle(11 * mm, 77 * mm, 6 * mm, stroke=0, fill=1)
    c.setFillColor(colors.white)
    c.setFont(BOLD, 22)
    c.drawCentredString(11 * mm, 77 * mm - 22 * 0.36, str(card.number))
    draw_fitted(c, card.letter, 22 * mm, 67.5 * mm, 35 * mm, 17 * mm, font=BOLD, max_size=46,
                max_lines=1, align="right", colour=colour)

    draw_fitted(c, card.site_label, 6 * mm, 52.5 * mm, 51 * mm, 14 * mm, font=CONDENSED_BOLD, max_size=12.5,
                min_size=5, max_lines=3)
    draw_fitted(c, region.label, 6 * mm, 48 * mm, 51 * mm, 4.5 * mm, font=SANS, max_size=7, min_size=4,
                max_lines=1, colour=colour)
    c.setStrokeColor(colour)
    c.setLineWidth(0.6)
    c.line(8 * mm, 48 * mm, 55 * mm, 48 * mm)

    icons = card_icons(edition, card)
    slot = 51 * mm / max(1, len(icons))
    badge = min(13 * mm, slot - 2 * mm)
    for i, (role, icon, value) in enumerate(icons):
        cx = 6 * mm + slot * (i + 0.5)
        draw_badge(c, role, icon.name, cx, 38.5 * mm, badge, value)
        draw_fitted(c, icon.label, cx - slot / 2 + 0.5 * mm, 27.5 * mm, slot - 1 * mm, 4 * mm, font=CONDENSED_BOLD,
                    max_size=7, min_size=4, max_lines=2, shrink_first=True, colour=MUTED)

    qr = CARD_QR_MM * mm
    qr_left = CARD_QR_RIGHT_MM * mm - qr
    draw_card_qr(c, edition.id, card.letter, qr_left, CARD_QR_BOTTOM_MM * mm, qr, CARD_QR_BORDER)
    text_width = qr_left - 7 * mm
    draw_fitted(c, edition.label, 6 * mm, 13 * mm, text_width, 8 * mm, font=SANS, max_size=6.5, min_size=4,
                max_lines=2, align="left", colour=MUTED)
    draw_fitted(c, edition.provenance_label, 6 * mm, 5 * mm, text_width, 7 * mm, font=SANS, max_size=5.5,
                min_size=4, max_lines=2, align="left", colour=MUTED)
    c.restoreState()


def draw_card_back(c: Canvas, edition: Edition, trim: Rect, bleed: float) -> None:
    """The same back for every card of the edition (nothing on it may tell cards apart)."""
    c.saveState()
    c.setFillColor(BACK_COLOUR)
    c.rect(trim.x - bleed, trim.y - bleed, trim.width + 2 * bleed, trim.height + 2 * bleed, stroke=0, fill=1)
    c.translate(trim.x, trim.y)
    c.setStrokeColor(BACK_ACCENT)
    c.setLineWidth(1.2)
    c.roundRect(FRAME + 1 * mm, FRAME + 1 * mm, trim.width - 2 * FRAME - 2 * mm, trim.height - 2 * FRAME - 2 * mm,
                2.5 * mm, stroke=1, fill=0)
    # A boomerang: two thick arms with rounded tips meeting at a rounded elbow, centred on the card.
    c.saveState()
    c.translate(trim.width / 2, trim.height / 2 + 10 * mm)
    c.rotate(-12)
    c.setStrokeColor(BACK_ACCENT)
    c.setLineWidth(7 * mm)
    c.setLineCap(1)
    c.setLineJoin(1)
    arm = c.beginPath()
    arm.moveTo(-17 * mm, -7 * mm)
    arm.curveTo(-9 * mm, 2 * mm, -4 * mm, 8 * mm, 0, 10 * mm)
    arm.curveTo(5 * mm, 7 * mm, 11 * mm, -1 * mm, 17 * mm, -10 * mm)
    c.drawPath(arm, stroke=1, fill=0)
    c.restoreState()
    draw_fitted(c, "tourpad", 8 * mm, 26 * mm, trim.width - 16 * mm, 10 * mm, font=BOLD, max_size=20,
                max_lines=1, colour=colors.white)
    draw_fitted(c, edition.label, 8 * mm, 17 * mm, trim.width - 16 * mm, 8 * mm, font=SANS, max_size=9,
                max_lines=2, colour=colors.white)
    c.restoreState()


def draw_crop_marks(c: Canvas, grid: CardGrid) -> None:
    c.saveState()
    c.setStrokeColor(colors.black)
    c.setLineWidth(0.3)
    for x1, y1, x2, y2 in grid.crop_marks():
        c.line(x1, y1, x2, y2)
    c.restoreState()


def render_cards(edition: Edition, target: Path | io.BufferedIOBase, *, paper: str = "a4", bleed: bool = False,
                 backs: bool = False) -> int:
    """Write the card sheets; returns the number of pages. Backs (if asked) follow each front page,
    placed behind their fronts for long-edge duplex printing."""
    register_fonts()
    grid = card_grid(paper, bleed)
    cards = edition.cards
    n_front_pages = pages_needed(len(cards), CARDS_PER_PAGE)

    def draw(c: Canvas) -> None:
        for page in range(n_front_pages):
            on_page = cards[page * CARDS_PER_PAGE:(page + 1) * CARDS_PER_PAGE]
            for slot, card in enumerate(on_page):
                draw_card_front(c, edition, card, grid.trims[slot], grid.bleed)
            draw_crop_marks(c, grid)
            c.showPage()
            if backs:
                for slot in range(len(on_page)):
                    draw_card_back(c, edition, grid.back_trim(slot), grid.bleed)
                draw_crop_marks(c, grid)
                c.showPage()

    write_pdf(target, draw, title=_("{edition} — print-and-play cards").format(edition=edition.label),
              pagesize=(grid.page_width, grid.page_height))
    return n_front_pages * (2 if backs else 1)
