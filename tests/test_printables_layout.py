"""Printables geometry and helpers, without rendering: card grid, bleed, mirrored backs, crop marks,
sheet slots, text fitting, QR payloads, the USA town map and our pictograms."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from reportlab.lib.units import mm

from printables.fonts import BOLD, CONDENSED_BOLD, fit_text, register_fonts, text_width
from printables.icons import IconError, has_icon, icon_key, parse_svg
from printables.layout import (
    CARD_BLEED,
    CARD_HEIGHT,
    CARD_WIDTH,
    CARDS_PER_PAGE,
    PAGE_EDGE_KEEP,
    Rect,
    card_grid,
    fit_into,
    pages_needed,
    sheet_slots,
)
from printables.payload import PayloadError, card_payload, parse_card_payload
from printables.townmap import bezier_points, clearance, route_pathways
from rules.model import LETTERS

sys.path.insert(0, str(Path(__file__).parent))
from printables_editions import europe_like, usa_like

GRIDS = [("a4", False), ("a4", True), ("letter", False)]


def overlaps(a: Rect, b: Rect) -> bool:
    eps = 1e-6
    return a.x < b.right - eps and b.x < a.right - eps and a.y < b.top - eps and b.y < a.top - eps


def inside(inner: Rect, outer: Rect) -> bool:
    eps = 1e-6
    return (inner.x >= outer.x - eps and inner.y >= outer.y - eps and inner.right <= outer.right + eps
            and inner.top <= outer.top + eps)


@pytest.mark.parametrize(("paper", "bleed"), GRIDS)
def test_card_grid_fits_the_page_at_real_card_size(paper, bleed):
    grid = card_grid(paper, bleed)
    page = Rect(0, 0, grid.page_width, grid.page_height)
    assert len(grid.trims) == CARDS_PER_PAGE == 9
    for slot, trim in enumerate(grid.trims):
        assert (trim.width, trim.height) == pytest.approx((CARD_WIDTH, CARD_HEIGHT))
        assert (trim.width / mm, trim.height / mm) == pytest.approx((63, 88))
        assert inside(grid.bleed_box(slot), page)
        # the card itself is printable: clear of the strip along the paper edge printers cannot reach
        assert inside(trim, page.inset(PAGE_EDGE_KEEP))
        for other in range(slot + 1, 9):
            assert not overlaps(grid.bleed_box(slot), grid.bleed_box(other))
    # centred: equal margins left/right and top/bottom
    ext = grid.extent
    assert ext.x == pytest.approx(grid.page_width - ext.right)
    assert ext.y == pytest.approx(grid.page_height - ext.top)


def test_reading_order_is_rows_from_the_top():
    grid = card_grid("a4", False)
    assert grid.trims[0].top > grid.trims[3].top > grid.trims[6].top
    assert grid.trims[0].x < grid.trims[1].x < grid.trims[2].x


def test_bleed_surrounds_every_card_by_3mm():
    grid = card_grid("a4", True)
    assert grid.bleed == pytest.approx(CARD_BLEED) and pytest.approx(3 * mm) == CARD_BLEED
    for slot, trim in enumerate(grid.trims):
        box = grid.bleed_box(slot)
        assert trim.x - box.x == pytest.approx(3 * mm) and box.top - trim.top == pytest.approx(3 * mm)
    # neighbours sit two bleeds apart, so each cut runs through the card's own colour
    assert grid.trims[1].x - grid.trims[0].right == pytest.approx(6 * mm)
    assert grid.trims[0].y - grid.trims[3].top == pytest.approx(6 * mm)


def test_bleed_on_letter_is_refused_with_the_sizes():
    with pytest.raises(ValueError, match=r"letter paper is 215\.9 × 279\.4 mm.*A4"):
        card_grid("letter", True)
    with pytest.raises(ValueError, match="unknown paper"):
        card_grid("a3", False)


@pytest.mark.parametrize(("paper", "bleed"), GRIDS)
def test_backs_are_mirrored_for_long_edge_duplex(paper, bleed):
    grid = card_grid(paper, bleed)
    for slot in range(9):
        front, back = grid.trims[slot], grid.back_trim(slot)
        assert back.x == pytest.approx(grid.page_width - front.right)
        assert back.y == pytest.approx(front.y)
        row, col = divmod(slot, 3)
        # the back of column c lies exactly where column 2 − c is on the front page
        assert back.x == pytest.approx(grid.trims[row * 3 + 2 - col].x)
    # flipping twice is the identity
    assert grid.back_trim(4).mirrored(grid.page_width).x == pytest.approx(grid.trims[4].x)


def _segment_hits_rect(seg, rect: Rect) -> bool:
    x1, y1, x2, y2 = seg
    for k in range(21):
        t = k / 20
        x, y = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
        if rect.x < x < rect.right and rect.y < y < rect.top:
            return True
    return False


@pytest.mark.parametrize(("paper", "bleed"), GRIDS)
def test_crop_marks_mark_every_cut_and_never_touch_a_card(paper, bleed):
    grid = card_grid(paper, bleed)
    marks = grid.crop_marks()
    xs, ys = grid.cut_positions()
    assert len(xs) == (6 if bleed else 4) and len(ys) == (6 if bleed else 4)
    for x in xs:
        assert any(m[0] == m[2] == pytest.approx(x) for m in marks), f"no mark for the cut at x={x / mm:.1f} mm"
    for y in ys:
        assert any(m[1] == m[3] == pytest.approx(y) for m in marks), f"no mark for the cut at y={y / mm:.1f} mm"
    page = Rect(0, 0, grid.page_width, grid.page_height)
    for mark in marks:
        assert all(0 <= v <= page.right for v in (mark[0], mark[2]))
        assert all(0 <= v <= page.top for v in (mark[1], mark[3]))
        for trim in grid.trims:
            assert not _segment_hits_rect(mark, trim)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_compact_layout_puts_two_sheets_side_by_side_on_landscape(paper):
    (w, h), slots = sheet_slots(paper, compact=True)
    assert w > h and len(slots) == 2
    assert not overlaps(*slots)
    page = Rect(0, 0, w, h)
    assert all(inside(s, page) for s in slots)
    (pw, ph), single = sheet_slots(paper, compact=False)
    assert ph > pw and len(single) == 1


@given(st.floats(10, 500), st.floats(10, 500), st.floats(20, 600), st.floats(20, 600))
def test_fit_into_keeps_proportions_and_stays_in_the_box(cw, ch, bw, bh):
    box = Rect(5, 7, bw, bh)
    x, y, scale = fit_into(cw, ch, box)
    placed = Rect(x, y, cw * scale, ch * scale)
    assert inside(placed, box)
    assert math.isclose(placed.width, bw, rel_tol=1e-9) or math.isclose(placed.height, bh, rel_tol=1e-9)


def test_pages_needed():
    assert [pages_needed(n, 9) for n in (1, 9, 10, 28)] == [1, 1, 2, 4]


words = st.text(alphabet=st.characters(whitelist_categories=("Lu", "Ll")), min_size=1, max_size=12)


@given(st.lists(words, min_size=1, max_size=6).map(" ".join), st.floats(20, 200), st.floats(8, 60))
def test_fitted_text_stays_inside_its_box(text, width, height):
    register_fonts()
    size, lines = fit_text(text, CONDENSED_BOLD, width, height, max_size=14, min_size=4, max_lines=3)
    assert 4 <= size <= 14 and 1 <= len(lines) <= 3
    if size > 4:  # above the floor the whole text fits, on at most three lines
        assert all(text_width(line, CONDENSED_BOLD, size) <= width + 1e-6 for line in lines)
        assert size * (1 + 1.15 * (len(lines) - 1)) <= height + 1e-6
        assert " ".join(lines).split() == text.split()


def test_every_card_name_fits_at_a_readable_size():
    register_fonts()
    for edition in (usa_like(), europe_like()):
        for card in edition.cards:
            size, lines = fit_text(card.site, CONDENSED_BOLD, 51 * mm, 14 * mm, 12.5, 5, 3)
            assert size >= 6, f"{card.letter} {card.site!r} shrinks to {size} pt"
            assert all(text_width(line, CONDENSED_BOLD, size) <= 51 * mm for line in lines)
    assert text_width("W", BOLD, 46) < 35 * mm  # the largest letter fits its corner


edition_ids = st.from_regex(r"[a-z0-9][a-z0-9_-]{0,20}", fullmatch=True)


@given(edition_ids, st.sampled_from(LETTERS))
def test_qr_payload_round_trips(edition_id, letter):
    text = card_payload(edition_id, letter)
    assert text == f"tp:{edition_id}:{letter}"
    assert parse_card_payload(text) == (edition_id, letter)


@pytest.mark.parametrize("text", ["", "tp:australia", "tp:australia:AB", "other:australia:A", "tourpad:australia:A",
                                  "tp:Australia:A", "tp:australia:a", "tp:aus:tralia:A"])
def test_qr_payload_refuses_other_texts(text):
    with pytest.raises(PayloadError):
        parse_card_payload(text)


def test_qr_payload_refuses_what_no_card_has():
    with pytest.raises(PayloadError, match="letter"):
        card_payload("australia", "!")
    with pytest.raises(PayloadError, match="edition id"):
        card_payload("Bad Id", "A")


def _map_editions():
    from rules.editions import bundled_ids, load_edition

    return [usa_like()] + [load_edition(e) for e in bundled_ids() if load_edition(e).spec.map is not None]


@pytest.mark.parametrize("edition", _map_editions(), ids=lambda e: e.id)
def test_town_map_keeps_pathways_off_other_towns(edition):
    from printables.scorepad import MAP_HEIGHT
    from printables.townmap import TOWN_RADIUS, town_map

    route = edition.route
    n, width, height = 28, 190 * mm, MAP_HEIGHT - 6 * mm
    centres, pathways = town_map(edition, width, height)  # exactly what the sheet draws
    for x, y in centres:
        assert 0 <= x <= width and 0 <= y <= height
    for i in range(n):
        for j in range(i + 1, n):
            assert math.dist(centres[i], centres[j]) >= 3 * TOWN_RADIUS - 0.05, (i, j)
    west = [i for i in range(n) if route.west_mask >> i & 1]
    east = [i for i in range(n) if route.east_mask >> i & 1]
    assert sum(centres[i][0] for i in west) / len(west) < sum(centres[i][0] for i in east) / len(east)
    assert len(pathways) == len(route.edges)
    for p in pathways:
        points = bezier_points(centres[p.a], p.control, centres[p.b], samples=60)
        room = clearance(points, centres, {p.a, p.b})
        assert room >= TOWN_RADIUS + 1.3 * mm, f"pathway {p.a}–{p.b} runs over a town (or its coast ring)"


def test_a_pathway_past_a_town_is_bent_round_it():
    from printables.townmap import PATHWAY_CLEARANCE, town_centres

    edition = usa_like()  # A–C runs along the west coast past B
    centres = town_centres(edition, 190 * mm, 80 * mm)
    straight = bezier_points(centres[0], None, centres[2])
    pathway = next(p for p in route_pathways(edition.route.edges, centres, PATHWAY_CLEARANCE) if (p.a, p.b) == (0, 2))
    assert clearance(straight, centres, {0, 2}) < PATHWAY_CLEARANCE
    assert pathway.control is not None


def test_route_pathways_bends_a_line_that_would_cross_a_town():
    centres = [(0.0, 0.0), (10.0, 0.0), (20.0, 0.0)]
    (pathway,) = route_pathways([(0, 2)], centres, keep_clear=3.0)
    assert pathway.control is not None
    assert clearance(bezier_points(centres[0], pathway.control, centres[2]), centres, {0, 2}) >= 3.0


def test_every_icon_of_every_edition_has_a_pictogram():
    from rules.editions import bundled_ids, load_edition

    editions = [load_edition(e) for e in bundled_ids()] + [usa_like(), europe_like()]
    for edition in editions:
        for family in (edition.collection, edition.pairs, edition.choice):
            for icon in family.icons:
                assert has_icon(icon.name), f"{edition.id}: no pictogram for {icon.name!r}"


def test_icon_names_fold_plurals_and_aliases():
    assert icon_key("Platypuses") == "platypus"
    assert icon_key("Leaves") == "leaf"
    assert icon_key("Natural Wonders") == "natural-wonder"
    assert icon_key("Bigfoot") == icon_key("Big Foot") == "big-foot"
    assert icon_key("Something Else") == ""


def test_icon_parser_refuses_what_it_cannot_draw():
    svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><text>x</text></svg>'
    with pytest.raises(IconError, match="text"):
        parse_svg(svg)
    arc = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><path d="M0 0 A5 5 0 0 1 10 10"/></svg>'
    with pytest.raises(IconError, match="'A'"):
        parse_svg(arc)


def test_icon_parser_reads_relative_and_quadratic_paths():
    svg = '<svg xmlns="http://www.w3.org/2000/svg"><path d="M10 10 l10 0 v10 h-10 q5 5 0 0 z"/></svg>'
    (shape,) = parse_svg(svg)
    assert shape.ops[:4] == (("M", 10, 10), ("L", 20, 10), ("L", 20, 20), ("L", 10, 20))
    assert shape.ops[4][0] == "C" and shape.ops[4][-2:] == (10, 20)
    assert shape.ops[-1] == ("Z",)
