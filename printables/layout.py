"""Page geometry, in PDF points (1/72 in), with no drawing: tested on its own.

Card sheets: a 3 × 3 grid of 63 × 88 mm cards centred on the page. With bleed, every card gets its own
3 mm bleed on all sides, so neighbouring cards sit 2 × bleed apart and each cut goes through that card's
own colour. Backs for duplex printing are mirrored left–right: a sheet flipped on its long edge puts the
front's column c behind column (cols − 1 − c) of the back.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.units import mm

from printables.locale import _
from rules.i18n import format_number

PAPERS: dict[str, tuple[float, float]] = {"a4": A4, "letter": LETTER}
CARD_WIDTH = 63 * mm
CARD_HEIGHT = 88 * mm
CARD_BLEED = 3 * mm
GRID_COLS = 3
GRID_ROWS = 3
CARDS_PER_PAGE = GRID_COLS * GRID_ROWS
#: Crop marks start this far outside the cut (so they never show on a card) and are at most this long.
CROP_GAP = 1 * mm
CROP_LENGTH = 5 * mm
#: Shortest crop mark worth printing, and the strip along the paper edge most printers cannot print on.
CROP_MIN_LENGTH = 1.5 * mm
PAGE_EDGE_KEEP = 3 * mm


def paper_size(paper: str) -> tuple[float, float]:
    try:
        return PAPERS[paper]
    except KeyError:
        raise ValueError(_("unknown paper {paper!r}; choose one of {papers}").format(
            paper=paper, papers=", ".join(PAPERS))) from None


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def top(self) -> float:
        return self.y + self.height

    def inset(self, d: float) -> Rect:
        return Rect(self.x + d, self.y + d, self.width - 2 * d, self.height - 2 * d)

    def mirrored(self, page_width: float) -> Rect:
        """The same rectangle seen through the sheet after a flip on its long (vertical) edge."""
        return Rect(page_width - self.right, self.y, self.width, self.height)


@dataclass(frozen=True, slots=True)
class CardGrid:
    page_width: float
    page_height: float
    bleed: float
    #: Trim boxes (the card as cut), in reading order: row 0 at the top, left to right.
    trims: tuple[Rect, ...]

    def bleed_box(self, slot: int) -> Rect:
        return self.trims[slot].inset(-self.bleed)

    def back_trim(self, slot: int) -> Rect:
        """Where the back of the card in ``slot`` goes on the back page (long-edge duplex)."""
        return self.trims[slot].mirrored(self.page_width)

    @property
    def extent(self) -> Rect:
        """Everything printed for the cards, bleed included."""
        first, last = self.bleed_box(GRID_COLS * (GRID_ROWS - 1)), self.bleed_box(GRID_COLS - 1)
        return Rect(first.x, first.y, last.right - first.x, last.top - first.y)

    def cut_positions(self) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """Distinct x positions of vertical cuts and y positions of horizontal cuts."""
        xs = sorted({round(v, 3) for t in self.trims for v in (t.x, t.right)})
        ys = sorted({round(v, 3) for t in self.trims for v in (t.y, t.top)})
        return tuple(xs), tuple(ys)

    def crop_marks(self) -> list[tuple[float, float, float, float]]:
        """Line segments (x1, y1, x2, y2), one pair per cut line, never over a card's trim box.

        They go in the page margin; where the margin is too narrow (A4 with bleed leaves 1.5 mm at the
        sides) they go in the outer bleed instead, which is cut away with the rest of the bleed."""
        ext = self.extent
        xs, ys = self.cut_positions()
        marks = []
        for start, outward, length in (self._mark_span(self.page_height - ext.top, ext.top, +1),
                                       self._mark_span(ext.y, ext.y, -1)):
            marks += [(x, start, x, start + outward * length) for x in xs] if length else []
        for start, outward, length in (self._mark_span(ext.x, ext.x, -1),
                                       self._mark_span(self.page_width - ext.right, ext.right, +1)):
            marks += [(start, y, start + outward * length, y) for y in ys] if length else []
        return marks

    def _mark_span(self, margin: float, edge: float, outward: int) -> tuple[float, int, float]:
        """(start, direction, length) of the marks on one side of the grid; length 0 when no room."""
        room = margin - CROP_GAP - PAGE_EDGE_KEEP
        if room >= CROP_MIN_LENGTH:
            return edge + outward * CROP_GAP, outward, min(CROP_LENGTH, room)
        if self.bleed - CROP_GAP >= CROP_MIN_LENGTH:
            # Inside the bleed: from the page-side edge of the bleed inward, stopping short of the cut.
            return edge, -outward, self.bleed - CROP_GAP
        return edge, outward, 0.0


def card_grid(paper: str, bleed: bool) -> CardGrid:
    """The 3 × 3 card grid centred on the page (ValueError if the paper cannot hold it)."""
    page_w, page_h = paper_size(paper)
    b = CARD_BLEED if bleed else 0.0
    cell_w, cell_h = CARD_WIDTH + 2 * b, CARD_HEIGHT + 2 * b
    grid_w, grid_h = GRID_COLS * cell_w, GRID_ROWS * cell_h
    if grid_w > page_w or grid_h > page_h:
        sizes = dict(cards=CARDS_PER_PAGE, bleed=format_number(b / mm), paper=paper, width=_tenths(grid_w / mm),
                     height=_tenths(grid_h / mm), paper_width=_tenths(page_w / mm),
                     paper_height=_tenths(page_h / mm))
        if b:
            raise ValueError(_("{cards} cards with {bleed} mm bleed need {width} × {height} mm; {paper} paper is "
                               "{paper_width} × {paper_height} mm (print the bleed version on A4, or leave out "
                               "--bleed)").format(**sizes))
        raise ValueError(_("{cards} cards need {width} × {height} mm; {paper} paper is {paper_width} × "
                           "{paper_height} mm").format(**sizes))
    x0, y0 = (page_w - grid_w) / 2, (page_h - grid_h) / 2
    trims = tuple(
        Rect(x0 + col * cell_w + b, y0 + (GRID_ROWS - 1 - row) * cell_h + b, CARD_WIDTH, CARD_HEIGHT)
        for row in range(GRID_ROWS) for col in range(GRID_COLS))
    return CardGrid(page_w, page_h, b, trims)


def _tenths(value: float) -> str:
    """A size in mm with one decimal, in the language's digits ("215.9", "215,9"); Babel drops a trailing
    ".0", which the sizes keep so that both sizes of a pair read alike."""
    whole, tenth = divmod(round(value * 10), 10)
    decimal_mark = format_number(0.5)[1:-1]
    return f"{format_number(whole)}{decimal_mark}{tenth}"


def pages_needed(count: int, per_page: int) -> int:
    return -(-count // per_page)


def sheet_slots(paper: str, compact: bool, margin: float = 8 * mm, gutter: float = 8 * mm) -> tuple[
        tuple[float, float], tuple[Rect, ...]]:
    """Page size and the boxes score sheets are drawn into: one per portrait page, or (compact)
    two side by side on a landscape page."""
    w, h = paper_size(paper)
    if not compact:
        return (w, h), (Rect(margin, margin, w - 2 * margin, h - 2 * margin),)
    w, h = h, w
    slot_w = (w - 2 * margin - gutter) / 2
    return (w, h), (Rect(margin, margin, slot_w, h - 2 * margin),
                    Rect(margin + slot_w + gutter, margin, slot_w, h - 2 * margin))


def fit_into(content_w: float, content_h: float, box: Rect) -> tuple[float, float, float]:
    """(x, y, scale) placing content of that size centred in ``box``, as large as it fits."""
    scale = min(box.width / content_w, box.height / content_h)
    return (box.x + (box.width - content_w * scale) / 2, box.y + (box.height - content_h * scale) / 2, scale)
