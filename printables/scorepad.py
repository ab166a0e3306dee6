"""Score pads: one sheet per player, laid out like the paper pads the rulebooks describe.

The sheet is designed once in a 190 × 277 mm frame and drawn into a PDF form (XObject); every sheet of
the pad places that form, scaled to the paper and layout, and adds its pre-printed player name. A
50-sheet pad therefore holds the drawing once, which keeps it fast to make and small.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from printables.badges import INK, MUTED, draw_badge, draw_fitted, hex_colour, tint
from printables.fonts import BOLD, CONDENSED_BOLD, SANS, register_fonts, text_width
from printables.layout import fit_into, pages_needed, sheet_slots
from printables.locale import _, ngettext
from printables.output import write_pdf
from printables.townmap import DESIGN_W, TOWN_RADIUS, Pathway, town_map
from rules import wording
from rules.edition import Edition, Icon
from rules.engine import ROUNDS

DESIGN_H = 277 * mm
COAST_BLUE = colors.HexColor("#1565C0")
LINE = colors.HexColor("#44444C")
FORM_NAME = "tourpadSheet"
MAP_HEIGHT = 86 * mm


@dataclass(frozen=True, slots=True)
class PadOptions:
    sheets: int = 4
    paper: str = "a4"
    compact: bool = False
    names: tuple[str, ...] = ()


def parse_names(text: str | None) -> tuple[str, ...]:
    """'Ann, Bob' → ('Ann', 'Bob'); empty entries are dropped."""
    return tuple(n.strip() for n in (text or "").split(",") if n.strip())


# --- small drawing helpers (design coordinates, y measured from the top) -----------------------------------

class Sheet:
    def __init__(self, c: Canvas, edition: Edition, gap: float = 0.0):
        self.c = c
        self.e = edition
        #: Extra space between the score rows, so a sheet with a small map uses its whole page.
        self.gap = gap

    def y(self, top: float) -> float:
        return DESIGN_H - top

    def box(self, x: float, top: float, w: float, h: float, *, fill=None, stroke=LINE, width: float = 0.8,
            radius: float = 1.2 * mm) -> None:
        c = self.c
        c.setLineWidth(width)
        c.setStrokeColor(stroke)
        if fill is not None:
            c.setFillColor(fill)
        c.roundRect(x, self.y(top + h), w, h, radius, stroke=1, fill=int(fill is not None))

    def rule(self, top: float) -> None:
        """A thin line across the sheet between sections."""
        self.c.setStrokeColor(LINE)
        self.c.setLineWidth(0.5)
        self.c.line(0, self.y(top), DESIGN_W, self.y(top))

    def two_row_table(self, x: float, top: float, cell: float, heads: Sequence[str], values: Sequence[str]) -> None:
        """A small reference table: a shaded row of headings over a row of points."""
        for k, (head, value) in enumerate(zip(heads, values, strict=True)):
            cx = x + cell * k
            self.box(cx, top, cell, 6 * mm, fill=colors.HexColor("#E8EEF7"), width=0.5, radius=0)
            self.box(cx, top + 6 * mm, cell, 6 * mm, fill=colors.white, width=0.5, radius=0)
            self.text(head, cx, top, cell, 6 * mm, font=SANS, max_size=7, max_lines=1)
            self.text(value, cx, top + 6 * mm, cell, 6 * mm, font=BOLD, max_size=7.5, max_lines=1)

    def text(self, text: str, x: float, top: float, w: float, h: float, **kw) -> float:
        return draw_fitted(self.c, text, x, self.y(top + h), w, h, **kw)

    def star(self, cx: float, ctop: float, r: float, label: str, colour=colors.HexColor("#F2C230")) -> None:
        import math

        c = self.c
        cy = self.y(ctop)
        path = c.beginPath()
        for k in range(10):
            radius = r if k % 2 == 0 else r * 0.5
            angle = math.pi / 2 + k * math.pi / 5
            x, y = cx + radius * math.cos(angle), cy + radius * math.sin(angle)
            path.moveTo(x, y) if k == 0 else path.lineTo(x, y)
        path.close()
        c.setFillColor(colour)
        c.setStrokeColor(INK)
        c.setLineWidth(0.6)
        c.drawPath(path, stroke=1, fill=1)
        draw_fitted(c, label, cx - r * 0.5, cy - r * 0.42, r, r * 0.75, font=BOLD, max_size=r * 0.8,
                    max_lines=1)

    def letter_circle(self, letter: str, cx: float, ctop: float, r: float, colour, coast: bool = False) -> None:
        c = self.c
        cy = self.y(ctop)
        if coast:
            c.setStrokeColor(COAST_BLUE)
            c.setLineWidth(1.6)
            c.setFillColor(colors.white)
            c.circle(cx, cy, r + 1.3 * mm, stroke=1, fill=1)
        c.setFillColor(tint(colour, 0.75))
        c.setStrokeColor(colour)
        c.setLineWidth(1.1)
        c.circle(cx, cy, r, stroke=1, fill=1)
        draw_fitted(c, letter, cx - r, cy - r * 0.7, 2 * r, r * 1.4, font=BOLD, max_size=r * 1.25, max_lines=1)


# --- sections -----------------------------------------------------------------------------------------------

def draw_header(s: Sheet) -> float:
    e = s.e
    s.text(e.label, 0, 0, 100 * mm, 9 * mm, font=BOLD, max_size=16, max_lines=1, align="left")
    s.text(wording.sheet_heading(ROUNDS, e.provenance_label),
           0, 9 * mm, 100 * mm, 4.5 * mm, font=SANS, max_size=7.5, max_lines=1, align="left", colour=MUTED)
    s.text(_("Player"), 104 * mm, 1 * mm, 14 * mm, 8 * mm, font=SANS, max_size=8, max_lines=1, align="left")
    s.box(118 * mm, 0, 72 * mm, 9 * mm)
    s.text(_("Date"), 104 * mm, 10 * mm, 14 * mm, 5 * mm, font=SANS, max_size=7, max_lines=1, align="left",
           colour=MUTED)
    s.c.setStrokeColor(MUTED)
    s.c.setLineWidth(0.5)
    s.c.line(118 * mm, s.y(15 * mm), 190 * mm, s.y(15 * mm))
    return 18 * mm


def section_title(s: Sheet, top: float, title: str, hint: str) -> float:
    s.text(title, 0, top, 60 * mm, 6 * mm, font=BOLD, max_size=10, max_lines=1, align="left")
    s.text(hint, 52 * mm, top, DESIGN_W - 52 * mm, 6 * mm, font=SANS, max_size=7, max_lines=1, align="right",
           colour=MUTED)
    return top + 7 * mm


def draw_regions(s: Sheet, top: float) -> float:
    """Australia / Europe: a box per region (coloured), its letters to cross out and its bonus star."""
    e = s.e
    cell, star_w, pad, gap, box_h = 10.5 * mm, 13 * mm, 3 * mm, 3 * mm, 25 * mm
    regions = list(e.regions)
    # A deck pack may have a region too big for one line of letters: its letters wrap, its box grows.
    per_line = int((DESIGN_W - 2 * pad - star_w) // cell)
    lines = [-(-region.mask.bit_count() // per_line) for region in regions]
    widths = [max(2 * pad + min(region.mask.bit_count(), per_line) * cell + star_w, 46 * mm) for region in regions]
    rows: list[list[int]] = [[]]
    used = 0.0
    for i, w in enumerate(widths):
        if rows[-1] and used + gap + w > DESIGN_W:
            rows.append([])
            used = 0.0
        used += w + (gap if rows[-1] else 0)
        rows[-1].append(i)
    previous_stretch = None
    for row in rows:
        natural = sum(widths[i] for i in row) + gap * (len(row) - 1)
        stretch = (DESIGN_W - natural) / len(row)
        if previous_stretch is not None and row is rows[-1]:
            # A short last row keeps the boxes' proportions instead of one box spanning the page.
            stretch = min(stretch, previous_stretch)
        previous_stretch = stretch
        x = (DESIGN_W - natural - stretch * len(row)) / 2
        row_h = box_h + (max(lines[i] for i in row) - 1) * cell
        for i in row:
            region = regions[i]
            w = widths[i] + stretch
            colour = hex_colour(region.color)
            s.box(x, top, w, row_h, fill=tint(colour, 0.85), stroke=colour, width=1.2, radius=2 * mm)
            s.text(region.label, x + pad, top + 1.2 * mm, w - 2 * pad - star_w, 6 * mm, font=BOLD, max_size=9,
                   min_size=5, max_lines=1, align="left", colour=colour)
            letters = e.letters_of(region.mask)
            for k, letter in enumerate(letters):
                line, col = divmod(k, per_line)
                s.letter_circle(letter, x + pad + cell * (col + 0.5), top + 15.5 * mm + line * cell, 4.3 * mm, colour)
            s.star(x + w - star_w / 2 - 1 * mm, top + 12.5 * mm, 6.2 * mm, f"+{region.bonus}")
            x += w + gap
        top += row_h + gap
    return top


def draw_route_box(s: Sheet, top: float, title: str, hint: str) -> float:
    """The shared first-come bonus (Europe's passport, USA's coast to coast): circle yours, cross taken ones."""
    assert s.e.route is not None
    labels = wording.route_tier_labels(s.e.route)
    h = 15 * mm
    s.box(0, top, DESIGN_W, h, fill=colors.HexColor("#EEF3FA"), stroke=COAST_BLUE, width=1.1, radius=2 * mm)
    s.text(title, 3 * mm, top + 1.5 * mm, 70 * mm, 6 * mm, font=BOLD, max_size=10, max_lines=1, align="left",
           colour=COAST_BLUE)
    s.text(hint, 3 * mm, top + 7.5 * mm, 80 * mm, 6.5 * mm, font=SANS, max_size=7, min_size=4.5, max_lines=2,
           align="left", colour=INK)
    x0 = 88 * mm
    slot = (DESIGN_W - 2 * mm - x0) / len(labels)
    for k, (points, caption) in enumerate(labels):
        x = x0 + slot * k
        s.c.setFillColor(colors.white)
        s.c.setStrokeColor(COAST_BLUE)
        s.c.setLineWidth(1)
        s.c.circle(x + 5.5 * mm, s.y(top + h / 2), 5 * mm, stroke=1, fill=1)
        s.text(str(points), x + 0.5 * mm, top + h / 2 - 3.5 * mm, 10 * mm, 7 * mm, font=BOLD, max_size=13,
               max_lines=1)
        s.text(caption, x + 11.5 * mm, top + h / 2 - 4 * mm, slot - 12 * mm, 8 * mm, font=SANS, max_size=7,
               min_size=4.5, max_lines=2, align="left")
    return top + h + 3 * mm


def draw_town_map(s: Sheet, top: float) -> float:
    """USA: towns as letters coloured by region, pathways as lines, coast towns circled in blue."""
    e = s.e
    route = e.route
    assert route is not None
    w, h, r = DESIGN_W, MAP_HEIGHT, TOWN_RADIUS
    s.box(0, top, w, h, fill=colors.HexColor("#FAFAF7"), stroke=LINE, width=0.6, radius=2 * mm)
    for label, x, align in ((_("WEST COAST"), 2 * mm, "left"), (_("EAST COAST"), w - 42 * mm, "right")):
        s.text(label, x, top + 1 * mm, 40 * mm, 4.5 * mm, font=BOLD, max_size=7, max_lines=1, align=align,
               colour=COAST_BLUE)
    local, paths = town_map(e, w, h - 6 * mm)
    # The labels take the top 6 mm of the box; everything below moves down by that much.
    centres = [(x, y + 6 * mm) for x, y in local]
    paths = [Pathway(p.a, p.b, None if p.control is None else (p.control[0], p.control[1] + 6 * mm))
             for p in paths]
    c = s.c
    c.setStrokeColor(colors.HexColor("#8A7F70"))
    c.setLineWidth(1.4)
    c.setDash(3, 1.6)
    for p in paths:
        (x0, y0), (x1, y1) = centres[p.a], centres[p.b]
        path = c.beginPath()
        path.moveTo(x0, s.y(top + y0))
        if p.control is None:
            path.lineTo(x1, s.y(top + y1))
        else:
            qx, qy = p.control
            path.curveTo(x0 + 2 / 3 * (qx - x0), s.y(top + y0 + 2 / 3 * (qy - y0)),
                         x1 + 2 / 3 * (qx - x1), s.y(top + y1 + 2 / 3 * (qy - y1)), x1, s.y(top + y1))
        c.drawPath(path, stroke=1, fill=0)
    c.setDash()
    for card, (x, y) in zip(e.cards, centres, strict=True):
        colour = hex_colour(e.regions[card.region].color)
        s.letter_circle(card.letter, x, top + y, r, colour, coast=bool((route.west_mask | route.east_mask)
                                                                       >> card.index & 1))
    top += h + 2 * mm
    # Region legend: colour, name, letters and the bonus star.
    per_row = 4
    cell_w = DESIGN_W / per_row
    for k, region in enumerate(e.regions):
        col, row = k % per_row, k // per_row
        x, t = col * cell_w, top + row * 11 * mm
        colour = hex_colour(region.color)
        s.box(x + 0.5 * mm, t, cell_w - 1 * mm, 10 * mm, fill=tint(colour, 0.85), stroke=colour, width=1,
              radius=1.5 * mm)
        s.text(region.label, x + 2 * mm, t + 0.6 * mm, cell_w - 15 * mm, 5 * mm, font=BOLD, max_size=8,
               min_size=4.5, max_lines=1, align="left", colour=colour)
        s.text(" ".join(e.letters_of(region.mask)), x + 2 * mm, t + 5 * mm, cell_w - 15 * mm, 4.5 * mm,
               font=SANS, max_size=7, max_lines=1, align="left")
        s.star(x + cell_w - 7 * mm, t + 5 * mm, 4.6 * mm, f"+{region.bonus}")
    rows = -(-len(e.regions) // per_row)
    return top + rows * 11 * mm + 2 * mm


# Score table geometry (design coordinates).
LABEL_W = 44 * mm
ROUND_X = 46 * mm
ROUND_W = 16 * mm
TOTAL_X = ROUND_X + 4 * ROUND_W + 4 * mm
TOTAL_W = 18 * mm
REF_X = TOTAL_X + TOTAL_W + 3 * mm
REF_W = DESIGN_W - REF_X
ROW_H = 15 * mm
BOX_H = 11 * mm


def draw_score_row(s: Sheet, top: float, label: str, note: str, icons: Sequence[Icon] = (), role: str = "",
                   row_h: float = ROW_H) -> float:
    """A score category's row; ``icons`` (of the family ``role``) are shown beside it with their values."""
    s.text(label, 0, top + 1 * mm, LABEL_W, 6 * mm, font=BOLD, max_size=10, min_size=6, max_lines=1, align="left")
    s.text(note, 0, top + 7 * mm, LABEL_W, row_h - 8 * mm, font=SANS, max_size=7, min_size=4.2, max_lines=3,
           align="left", colour=MUTED)
    for k in range(ROUNDS):
        s.box(ROUND_X + k * ROUND_W + 0.6 * mm, top + 2 * mm, ROUND_W - 1.2 * mm, BOX_H)
    s.text("=", TOTAL_X - 4 * mm, top + 2 * mm, 4 * mm, BOX_H, font=BOLD, max_size=11, max_lines=1)
    s.box(TOTAL_X, top + 2 * mm, TOTAL_W, BOX_H, width=1.3)
    if icons:
        size = min(8.5 * mm, REF_W / len(icons) - 1 * mm)
        for k, icon in enumerate(icons):
            cx = REF_X + (REF_W / len(icons)) * (k + 0.5)
            draw_badge(s.c, role, icon.name, cx, s.y(top + 2 * mm + size / 2), size, icon.value)
            # A name too long for one line (a translation) wraps onto up to three, in a box 1 mm taller than
            # the one line needs and with the same centre, so a one-line name sits where it always did.
            s.text(icon.label, cx - REF_W / len(icons) / 2, top + 2.5 * mm + size, REF_W / len(icons), 4.5 * mm,
                   font=CONDENSED_BOLD, max_size=5.5, min_size=3.5, max_lines=3, shrink_first=True, colour=MUTED)
    return top + row_h


def draw_choice_row(s: Sheet, top: float) -> float:
    """One box per choice icon (each scored once per game), then the reference table beside it."""
    e = s.e
    family = e.choice
    h = 27 * mm
    s.text(family.label, 0, top + 1 * mm, LABEL_W, 6 * mm, font=BOLD, max_size=10, min_size=6, max_lines=1,
           align="left")
    s.text(_("{rule} Write the points under the one you chose.").format(rule=wording.choice_sheet(e)), 0, top + 7 * mm,
           LABEL_W, 14 * mm, font=SANS, max_size=7, min_size=4.2, max_lines=4, align="left", colour=MUTED)
    span = 4 * ROUND_W
    slot = span / len(family.icons)
    for k, icon in enumerate(family.icons):
        x = ROUND_X + k * slot
        badge = min(8 * mm, slot - 2 * mm)
        draw_badge(s.c, "choice", icon.name, x + slot / 2, s.y(top + 1 * mm + badge / 2), badge)
        s.text(icon.label, x + 0.3 * mm, top + 1.5 * mm + badge, slot - 0.6 * mm, 5.5 * mm, font=CONDENSED_BOLD,
               max_size=6, min_size=3.8, max_lines=2, colour=INK)
        s.box(x + 0.6 * mm, top + 15 * mm, slot - 1.2 * mm, BOX_H)
    s.text("=", TOTAL_X - 4 * mm, top + 15 * mm, 4 * mm, BOX_H, font=BOLD, max_size=11, max_lines=1)
    s.box(TOTAL_X, top + 15 * mm, TOTAL_W, BOX_H, width=1.3)
    if family.rule == "activity_table":
        counts = list(range(1, len(family.table)))
        cell = REF_W / (len(counts) + 1)
        s.text(_("Icons"), REF_X, top + 6 * mm, cell * 1.2, 5 * mm, font=SANS, max_size=6, max_lines=1, align="left")
        s.text(_("Points"), REF_X, top + 12 * mm, cell * 1.2, 5 * mm, font=SANS, max_size=6, max_lines=1, align="left")
        s.two_row_table(REF_X + cell, top + 5.5 * mm, cell, [str(n) for n in counts],
                        [str(family.table[n]) for n in counts])
        s.text(wording.activity_table_caption(), REF_X, top + 18.5 * mm, REF_W, 4 * mm, font=SANS,
               max_size=5.8, min_size=4, max_lines=1, align="left", colour=MUTED)
    else:
        per = dict(family.per_icon_by_players)
        s.text(wording.treasure_table_caption(), REF_X,
               top + 1 * mm, REF_W, 9 * mm, font=SANS, max_size=6, min_size=4, max_lines=3, align="left",
               colour=MUTED)
        cell = REF_W / len(per)
        ordered = sorted(per.items())
        s.two_row_table(REF_X, top + 11 * mm, cell,
                        [ngettext("{n} player", "{n} players", players).format(n=players) for players, _pts in ordered],
                        [ngettext("{n} pt", "{n} pts", points).format(n=points) for _players, points in ordered])
    return top + h


def draw_table(s: Sheet, top: float) -> float:
    e = s.e
    s.rule(top)
    top += 1.5 * mm
    for k in range(ROUNDS):
        s.text(_("Round {n}").format(n=k + 1), ROUND_X + k * ROUND_W, top, ROUND_W, 4.5 * mm, font=SANS, max_size=7,
               max_lines=1, colour=MUTED)
    s.text(_("Total"), TOTAL_X, top, TOTAL_W, 4.5 * mm, font=BOLD, max_size=7.5, max_lines=1)
    s.text(_("Reference"), REF_X, top, REF_W, 4.5 * mm, font=SANS, max_size=7, max_lines=1, align="left",
           colour=MUTED)
    top += 4.5 * mm
    top = draw_score_row(s, top, wording.throw_catch_name(), wording.THROW_CATCH_SHEET[e.throw_catch_rule]) + s.gap
    top = draw_score_row(s, top, e.collection.label, wording.COLLECTION_SHEET[e.collection.rule],
                         e.collection.icons, "collection", row_h=17 * mm) + s.gap
    top = draw_score_row(s, top, e.pairs.label, wording.pairs_sheet(), e.pairs.icons, "pairs",
                         row_h=17 * mm) + s.gap
    return draw_choice_row(s, top) + s.gap


def draw_end_of_game(s: Sheet, top: float) -> float:
    e = s.e
    s.rule(top)
    top += 2 * mm
    s.text(_("At the end of the game"), 0, top, 80 * mm, 5 * mm, font=BOLD, max_size=9, max_lines=1, align="left")
    top += 6 * mm
    items = [wording.sites_end_sheet(e),
             (_("Region bonuses"), _("stars you circled"))]
    if e.route is not None:
        items.append((e.route.label, _("the bonus you circled")))
    items.append((_("Category totals"), _("the = column above")))
    gap = 3 * mm
    grand_w = 38 * mm
    w = (DESIGN_W - grand_w - gap * len(items)) / len(items)
    for k, (label, hint) in enumerate(items):
        x = k * (w + gap)
        s.text(label, x, top, w, 5 * mm, font=BOLD, max_size=7.5, min_size=4.5, max_lines=1, align="left")
        s.text(hint, x, top + 4.6 * mm, w, 4 * mm, font=SANS, max_size=6, min_size=4, max_lines=1, align="left",
               colour=MUTED)
        s.box(x, top + 9 * mm, w, BOX_H)
        s.text("+" if k < len(items) - 1 else "=", x + w, top + 9 * mm, gap, BOX_H, font=BOLD, max_size=10,
               max_lines=1)
    x = DESIGN_W - grand_w
    s.text(_("GRAND TOTAL"), x, top, grand_w, 5 * mm, font=BOLD, max_size=9, max_lines=1)
    s.box(x, top + 6 * mm, grand_w, 15 * mm, width=2.2, fill=colors.HexColor("#FFF7DF"))
    top += 23 * mm
    tie_rule = wording.tie_sheet(e)
    if tie_rule:
        s.text(tie_rule, 0, top, DESIGN_W, 4.5 * mm, font=SANS, max_size=6.5,
               max_lines=1, align="left", colour=MUTED)
    return top + 5 * mm


SPREAD_GAPS = 5  # s.gap is added this many times (before the table, after each of its four rows)
MAX_GAP = 8 * mm


def draw_sheet_template(c: Canvas, edition: Edition, gap: float | None = None) -> float:
    """Everything on a sheet except the player's name; returns the height used (≤ DESIGN_H).
    Without ``gap``, the sheet is measured first and the spare height spread between the score rows."""
    if gap is None:
        spare = DESIGN_H - draw_sheet_template(Canvas(io.BytesIO()), edition, gap=0.0)
        gap = max(0.0, min(MAX_GAP, spare / SPREAD_GAPS))
    s = Sheet(c, edition, gap)
    top = draw_header(s)
    if edition.spec.map is not None and edition.route is not None:
        top = section_title(s, top, _("{sites} & pathways").format(sites=edition.sites_label),
                            wording.sites_sheet(edition))
        top = draw_town_map(s, top)
        top = draw_route_box(s, top, edition.route.label, wording.route_sheet(edition))
    else:
        top = section_title(s, top, edition.sites_label, wording.sites_sheet(edition))
        top = draw_regions(s, top)
        if edition.route is not None:
            top = draw_route_box(s, top, edition.route.label, wording.route_sheet(edition))
    top = draw_table(s, top + 1 * mm + s.gap)
    return draw_end_of_game(s, top + 1 * mm)


def draw_player_name(c: Canvas, name: str) -> None:
    if name:
        draw_fitted(c, name, 120 * mm, DESIGN_H - 9 * mm, 68 * mm, 9 * mm, font=BOLD, max_size=13, max_lines=1,
                    align="left")


def render_scorepad(edition: Edition, target: Path | io.BufferedIOBase, options: PadOptions) -> int:
    """Write the pad; returns the number of pages."""
    if options.sheets < 1:
        raise ValueError(_("a pad needs at least 1 sheet (got {n})").format(n=options.sheets))
    register_fonts()
    pagesize, slots = sheet_slots(options.paper, options.compact)
    n_pages = pages_needed(options.sheets, len(slots))

    def draw(c: Canvas) -> None:
        c.beginForm(FORM_NAME, lowerx=0, lowery=0, upperx=DESIGN_W, uppery=DESIGN_H)
        used = draw_sheet_template(c, edition)
        c.endForm()
        if used > DESIGN_H + 0.01:
            raise ValueError(_("{edition}: the score sheet needs {needed} mm; only {fit} fit").format(
                edition=edition.id, needed=round(used / mm), fit=round(DESIGN_H / mm)))
        for sheet in range(options.sheets):
            slot = slots[sheet % len(slots)]
            x, y, scale = fit_into(DESIGN_W, DESIGN_H, slot)
            c.saveState()
            c.translate(x, y)
            c.scale(scale, scale)
            c.doForm(FORM_NAME)
            if options.names:
                draw_player_name(c, options.names[sheet % len(options.names)])
            c.restoreState()
            if sheet % len(slots) == len(slots) - 1 or sheet == options.sheets - 1:
                c.showPage()

    write_pdf(target, draw, title=_("{edition} — score pad").format(edition=edition.label), pagesize=pagesize)
    return n_pages


def measure_template(edition: Edition) -> float:
    """Height the sheet needs (design units), for tests that check nothing runs off the sheet."""
    register_fonts()
    return draw_sheet_template(Canvas(io.BytesIO()), edition)


__all__ = ["PadOptions", "parse_names", "render_scorepad", "text_width"]
