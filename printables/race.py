"""Race Around Europe print-and-play: tile sheets and a one-page schematic reference map (reportlab).

Tiles are 30 × 40 mm, six by six on a page, drawn edge to edge so one cut serves two tiles; a page of
plain backs follows each page of fronts (the tiles are drawn face down, so all backs must look alike).
The map is a schematic graph, not geography: one box per country in its colour, grey lines for land
borders, red dashes for ferries and a red bar for the Sweden–Denmark bridge, and sea badges (A, M, B).
"""

from __future__ import annotations

import io
import unicodedata
from pathlib import Path

from reportlab.lib.colors import Color, HexColor, black, white
from reportlab.lib.pagesizes import landscape
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from printables.badges import draw_fitted
from printables.fonts import BOLD, CONDENSED_BOLD, SANS
from printables.layout import pages_needed, paper_size
from printables.locale import _, pgettext
from printables.output import write_pdf
from rules import wording
from rules.race import map_layout as layout
from rules.race.board import COLOURS, SEAS, Board, colour_label, sea_label
from rules.race.map_layout import missing_positions

#: Print colours for the five tile colours (light enough for black text).
COLOUR_FILL = {"blue": HexColor("#6FA8DC"), "green": HexColor("#7CC47F"), "orange": HexColor("#F6A85B"),
               "pink": HexColor("#F2A2C0"), "yellow": HexColor("#F5D95A")}
SEA_FILL = {"Atlantic": HexColor("#1F4E79"), "Mediterranean": HexColor("#138D90"), "Baltic": HexColor("#6A4C93")}
FERRY_RED = HexColor("#C62828")
TILE_W, TILE_H = 30 * mm, 40 * mm
COLS, ROWS = 6, 6


def alphabetical(name: str) -> str:
    """A sort key putting translated names in dictionary order ("Écosse" with the E's, not after "Z")."""
    return "".join(ch for ch in unicodedata.normalize("NFD", name) if not unicodedata.combining(ch)).casefold()


def sea_initial(sea: str) -> str:
    """The letter on a sea badge: the sea's own initial (the label's first letter is its article in French,
    "l'Atlantique", which made every badge an "l")."""
    initials = {"Atlantic": pgettext("sea badge: Atlantic", "A"),
                "Mediterranean": pgettext("sea badge: Mediterranean", "M"),
                "Baltic": pgettext("sea badge: Baltic", "B")}
    return initials.get(sea, sea[:1])


def _colours_note(board: Board) -> str:
    if board.provenance == "tourpad":
        return _("tourpad's own colours (the rulebook does not list them)")
    return _("colours of board pack {name!r}").format(name=board.name)


# --- tiles --------------------------------------------------------------------------------------------------


def _plane(c: Canvas, cx: float, cy: float, s: float) -> None:
    """A simple aeroplane pictogram (fuselage, wings, tail) centred at (cx, cy), span about 2·s."""
    p = c.beginPath()
    pts = [(0, 1), (0.12, 0.8), (0.12, 0.25), (1, -0.15), (1, -0.3), (0.12, -0.1), (0.1, -0.65), (0.35, -0.85),
           (0.35, -0.97), (0, -0.88)]
    full = pts + [(-x, y) for x, y in reversed(pts[1:-1])]
    p.moveTo(cx + full[0][0] * s, cy + full[0][1] * s)
    for x, y in full[1:]:
        p.lineTo(cx + x * s, cy + y * s)
    p.close()
    c.drawPath(p, stroke=0, fill=1)


def _ship(c: Canvas, cx: float, cy: float, s: float) -> None:
    """A simple ship pictogram: hull, cabin and funnel, with a wave line."""
    hull = c.beginPath()
    hull.moveTo(cx - s, cy - 0.15 * s)
    hull.lineTo(cx + s, cy - 0.15 * s)
    hull.lineTo(cx + 0.7 * s, cy - 0.6 * s)
    hull.lineTo(cx - 0.75 * s, cy - 0.6 * s)
    hull.close()
    c.drawPath(hull, stroke=0, fill=1)
    c.rect(cx - 0.55 * s, cy - 0.15 * s, 0.9 * s, 0.4 * s, stroke=0, fill=1)
    c.rect(cx + 0.05 * s, cy + 0.25 * s, 0.22 * s, 0.35 * s, stroke=0, fill=1)
    c.setLineWidth(0.06 * s)
    wave = c.beginPath()
    wave.moveTo(cx - s, cy - 0.8 * s)
    for i in range(8):
        x = cx - s + (i + 1) * s / 4
        wave.curveTo(x - s / 6, cy - 0.7 * s, x - s / 12, cy - 0.9 * s, x, cy - 0.8 * s)
    c.drawPath(wave, stroke=1, fill=0)


def _tile_front(c: Canvas, board: Board, kind: int, x: float, y: float) -> None:
    inner = TILE_W - 4 * mm
    if board.is_country(kind):
        colour = COLOURS[board.colour[kind]]
        c.setFillColor(COLOUR_FILL[colour])
        c.rect(x, y, TILE_W, TILE_H, stroke=0, fill=1)
        draw_fitted(c, board.country_label(kind), x + 2 * mm, y + TILE_H - 15 * mm, inner - 2 * mm, 11 * mm,
                    font=BOLD, max_size=9.5, min_size=6, max_lines=2, colour=black)
        if board.copies[kind] == 2:  # the rulebook marks the six doubled countries with *
            c.setFont(BOLD, 12)
            c.drawRightString(x + TILE_W - 2 * mm, y + TILE_H - 5.5 * mm, "*")
        badges = [s for i, s in enumerate(SEAS) if board.seas[kind] >> i & 1]
        for i, sea in enumerate(badges):
            bx = x + 5 * mm + i * 6.5 * mm
            c.setFillColor(SEA_FILL[sea])
            c.circle(bx, y + 5 * mm, 2.6 * mm, stroke=0, fill=1)
            c.setFillColor(white)
            c.setFont(BOLD, 7)
            c.drawCentredString(bx, y + 5 * mm - 2.5, sea_initial(sea))
        # the neighbours, so a printed tile doubles as a reference card
        near = sorted((board.country_label(j) for j in range(board.n_countries) if board.borders(kind, j)),
                      key=alphabetical)
        text = (_("Borders: {countries}").format(countries=", ".join(near)) if near
                else wording.race_no_border())
        draw_fitted(c, text, x + 2 * mm, y + 9 * mm, inner, 15 * mm, font=SANS, max_size=5.5, min_size=4,
                    max_lines=6, colour=black)
        c.setFillColor(black)
        c.setFont(SANS, 5.5)
        c.drawRightString(x + TILE_W - 2 * mm, y + 4.2 * mm, colour_label(colour))
        return
    if board.is_plane(kind):
        colour = COLOURS[kind - board.plane_kind(0)]
        c.setFillColor(COLOUR_FILL[colour])
        c.rect(x, y, TILE_W, TILE_H, stroke=0, fill=1)
        c.setFillColor(white)
        c.circle(x + TILE_W / 2, y + TILE_H / 2 + 2 * mm, 10 * mm, stroke=0, fill=1)
        c.setFillColor(black)
        _plane(c, x + TILE_W / 2, y + TILE_H / 2 + 2 * mm, 8 * mm)
        label = _("{colour} AEROPLANE").format(colour=colour_label(colour).upper())
        draw_fitted(c, label, x + 2 * mm, y + 3 * mm, inner, 5 * mm, font=CONDENSED_BOLD, max_size=7.5, max_lines=1,
                    colour=black)
        return
    sea = SEAS[kind - board.ship_kind(0)]
    c.setFillColor(SEA_FILL[sea])
    c.rect(x, y, TILE_W, TILE_H, stroke=0, fill=1)
    c.setFillColor(white)
    c.setStrokeColor(white)
    _ship(c, x + TILE_W / 2, y + TILE_H / 2 + 3 * mm, 9 * mm)
    draw_fitted(c, sea_label(sea).upper(), x + 2 * mm, y + 7.5 * mm, inner, 4.5 * mm, font=CONDENSED_BOLD, max_size=7.5,
                max_lines=1, colour=white)
    c.setFont(SANS, 6.5)
    c.drawCentredString(x + TILE_W / 2, y + 4.5 * mm, _("SHIP"))
    c.setStrokeColor(black)


def _tile_back(c: Canvas, x: float, y: float) -> None:
    c.setFillColor(HexColor("#2E3A59"))
    c.rect(x, y, TILE_W, TILE_H, stroke=0, fill=1)
    c.setFillColor(HexColor("#F5D95A"))
    c.setFont(BOLD, 7)
    for i, word in enumerate(("RACE", "AROUND", "EUROPE")):
        c.drawCentredString(x + TILE_W / 2, y + TILE_H / 2 + (6 - 8 * i), word)


def tile_order(board: Board) -> list[int]:
    """Every physical tile's kind: countries (doubles twice), then aeroplanes, then ships."""
    return list(board.tiles)


def render_tiles(board: Board, target: Path | io.BufferedIOBase, paper: str = "a4", backs: bool = True) -> int:
    """Write the print-and-play tile sheets (atomically, via `write_pdf`); returns the number of pages."""
    page_w, page_h = paper_size(paper)
    kinds = tile_order(board)
    per_page = COLS * ROWS
    grid_w, grid_h = COLS * TILE_W, ROWS * TILE_H
    x0, y0 = (page_w - grid_w) / 2, (page_h - grid_h) / 2 - 4 * mm
    sheets = pages_needed(len(kinds), per_page)

    def draw(c: Canvas) -> None:
        for sheet in range(sheets):
            chunk = kinds[sheet * per_page:(sheet + 1) * per_page]
            cells = [(x0 + (i % COLS) * TILE_W, y0 + grid_h - (i // COLS + 1) * TILE_H) for i in range(len(chunk))]
            for kind, (x, y) in zip(chunk, cells, strict=True):
                _tile_front(c, board, kind, x, y)
            _cut_lines(c, cells)
            c.setFillColor(black)
            c.setFont(SANS, 8)
            c.drawString(x0, page_h - 12 * mm, _("Race Around Europe — print-and-play tiles, {colours}. Cut along "
                                                 "the grey lines.").format(colours=_colours_note(board)))
            c.drawRightString(x0 + grid_w, 10 * mm, _("fronts {page} of {pages}").format(page=sheet + 1,
                                                                                        pages=sheets))
            c.showPage()
            if backs:
                # long-edge duplex mirrors columns; every back is the same, so only the cells need mirroring
                mirrored = [(page_w - x - TILE_W, y) for x, y in cells]
                for x, y in mirrored:
                    _tile_back(c, x, y)
                _cut_lines(c, mirrored)
                c.showPage()

    write_pdf(target, draw, title=_("Race Around Europe tiles — {board}").format(board=board.name),
              pagesize=(page_w, page_h))
    return sheets * (2 if backs else 1)


def _cut_lines(c: Canvas, cells: list[tuple[float, float]]) -> None:
    c.setStrokeColor(Color(0.55, 0.55, 0.55))
    c.setLineWidth(0.3)
    for x, y in cells:
        c.rect(x, y, TILE_W, TILE_H, stroke=1, fill=0)


# --- the reference map --------------------------------------------------------------------------------------

#: The printed map's box for a country (the layout's box, at the page's scale; see `_draw_map`).
BOX_W, BOX_H = 19 * mm, 8.5 * mm


def render_map(board: Board, target: Path | io.BufferedIOBase, paper: str = "a4") -> None:
    """One landscape page: the schematic graph of countries, colours, seas, ferries and the bridge."""
    missing = missing_positions(board)
    if missing:
        raise ValueError(_("no map position for {countries}").format(countries=", ".join(missing)))
    page_w, page_h = landscape(paper_size(paper))
    write_pdf(target, lambda c: _draw_map(c, board, page_w, page_h),
              title=_("Race Around Europe reference map — {board}").format(board=board.name),
              pagesize=(page_w, page_h))


def _draw_map(c: Canvas, board: Board, page_w: float, page_h: float) -> None:
    left, bottom = 14 * mm, 40 * mm
    # one cell of the layout, in points: its box (BOX_W × BOX_H cells) prints as BOX_W × BOX_H here
    col_w = BOX_W / layout.BOX_W
    row_h = BOX_H / layout.BOX_H

    def at(point: tuple[float, float]) -> tuple[float, float]:
        return left + BOX_W / 2 + point[0] * col_w, bottom + BOX_H / 2 + point[1] * row_h

    def centre(i: int) -> tuple[float, float]:
        return at(layout.POSITIONS[board.countries[i]])

    c.setFont(BOLD, 13)
    c.drawString(left, page_h - 13 * mm, _("Race Around Europe — reference map"))
    c.setFont(SANS, 8)
    c.drawString(left, page_h - 18 * mm, wording.race_map_note(_colours_note(board)))
    for line in layout.map_lines(board):
        if line.kind == "border":
            c.setStrokeColor(Color(0.6, 0.6, 0.6))
            c.setLineWidth(0.8)
            c.setDash()
        else:
            c.setStrokeColor(FERRY_RED)
            c.setLineWidth(2.4 if line.kind == "bridge" else 1.4)
            if line.kind == "bridge":
                c.setDash()
            else:
                c.setDash(3, 2)
        path = c.beginPath()
        path.moveTo(*at(line.points[0]))
        for point in line.points[1:]:
            path.lineTo(*at(point))
        c.drawPath(path, stroke=1, fill=0)
    c.setDash()
    for i, name in enumerate(board.countries):
        _map_box(c, board, i, name, *centre(i))
    _legend(c, board, left, 8 * mm)
    c.showPage()


def _map_box(c: Canvas, board: Board, i: int, name: str, cx: float, cy: float) -> None:
    c.setFillColor(COLOUR_FILL[COLOURS[board.colour[i]]])
    c.setStrokeColor(black)
    c.setLineWidth(0.5)
    c.roundRect(cx - BOX_W / 2, cy - BOX_H / 2, BOX_W, BOX_H, 1.5 * mm, stroke=1, fill=1)
    label = board.country_label(i) + (" *" if board.copies[i] == 2 else "")
    draw_fitted(c, label, cx - BOX_W / 2 + 1 * mm, cy - BOX_H / 2 + 0.8 * mm, BOX_W - 2 * mm, BOX_H - 1.6 * mm,
                font=BOLD, max_size=6.5, min_size=4.5, max_lines=2, colour=black)
    seas = [s for j, s in enumerate(SEAS) if board.seas[i] >> j & 1]
    for k, sea in enumerate(seas):
        bx = cx + BOX_W / 2 - 1.2 * mm - k * 3.4 * mm
        by = cy + BOX_H / 2
        c.setFillColor(SEA_FILL[sea])
        c.circle(bx, by, 1.6 * mm, stroke=0, fill=1)
        c.setFillColor(white)
        c.setFont(BOLD, 5)
        c.drawCentredString(bx, by - 1.7, sea_initial(sea))


def _legend(c: Canvas, board: Board, x: float, y: float) -> None:
    c.setFont(BOLD, 7.5)
    c.setFillColor(black)
    c.drawString(x, y + 20 * mm, wording.race_colours_legend())
    cx = x
    for colour in COLOURS:
        count = board.colour.count(COLOURS.index(colour))
        c.setFillColor(COLOUR_FILL[colour])
        c.roundRect(cx, y + 14 * mm, 16 * mm, 4.5 * mm, 1 * mm, stroke=1, fill=1)
        c.setFillColor(black)
        c.setFont(SANS, 7)
        c.drawCentredString(cx + 8 * mm, y + 15.4 * mm, _("{colour} ({count})").format(colour=colour_label(colour),
                                                                                        count=count))
        cx += 18 * mm
    c.setFont(BOLD, 7.5)
    c.drawString(x, y + 9 * mm, wording.race_seas_legend())
    cx = x
    for sea in SEAS:
        c.setFillColor(SEA_FILL[sea])
        c.circle(cx + 2 * mm, y + 5.3 * mm, 1.8 * mm, stroke=0, fill=1)
        c.setFillColor(white)
        c.setFont(BOLD, 5.5)
        c.drawCentredString(cx + 2 * mm, y + 5.3 * mm - 1.9, sea_initial(sea))
        c.setFillColor(black)
        c.setFont(SANS, 7)
        c.drawString(cx + 5 * mm, y + 4.6 * mm, sea_label(sea))
        cx += 30 * mm
    c.drawString(cx, y + 4.6 * mm, wording.race_black_sea())
    lx = x + 110 * mm
    c.setFont(SANS, 7)
    c.setStrokeColor(Color(0.6, 0.6, 0.6))
    c.setLineWidth(0.8)
    c.line(lx, y + 16 * mm, lx + 10 * mm, y + 16 * mm)
    c.drawString(lx + 12 * mm, y + 15.3 * mm, _("land border"))
    c.setStrokeColor(FERRY_RED)
    c.setLineWidth(1.4)
    c.setDash(3, 2)
    c.line(lx + 35 * mm, y + 16 * mm, lx + 45 * mm, y + 16 * mm)
    c.setDash()
    c.drawString(lx + 47 * mm, y + 15.3 * mm, _("ferry"))
    c.setLineWidth(2.4)
    c.line(lx + 60 * mm, y + 16 * mm, lx + 70 * mm, y + 16 * mm)
    c.drawString(lx + 72 * mm, y + 15.3 * mm, wording.race_bridge_legend())
    c.drawString(lx + 35 * mm, y + 9.6 * mm, wording.race_two_tiles_legend())
    tiles = wording.race_tiles(
        countries=sum(board.copies[:board.n_countries]),
        planes=sum(board.copies[board.plane_kind(0):board.ship_kind(0)]), ships=sum(board.copies[board.ship_kind(0):]))
    c.drawString(lx + 35 * mm, y + 4.6 * mm, tiles)
