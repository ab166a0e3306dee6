"""The schematic map's geometry (one layout for the printed map and the app's): every drawn line is a real
border, ferry or bridge, and no line passes through a country's box that is not one of its two ends."""

from __future__ import annotations

from itertools import combinations

from rules.race import map_layout as layout
from rules.race.board import load_board
from rules.race.map_layout import MapLine, crossed_boxes, map_lines, segment_meets_box

BOARD = load_board()


def idx(name: str) -> int:
    return BOARD.countries.index(name)


def test_every_country_has_a_place_and_no_two_boxes_overlap():
    assert layout.missing_positions(BOARD) == []
    for a, b in combinations(BOARD.countries, 2):
        (al, ab, ar, at), (bl, bb, br, bt) = layout.box(a), layout.box(b)
        assert ar <= bl or br <= al or at <= bb or bt <= ab, (a, b)


def test_each_drawn_segment_meets_no_other_countrys_box():
    crossing = {(BOARD.countries[line.a], BOARD.countries[line.b]): crossed_boxes(BOARD, line)
                for line in map_lines(BOARD)}
    assert {pair: boxes for pair, boxes in crossing.items() if boxes} == {}


def test_the_check_sees_the_old_straight_lines_through_other_countries():
    """The lines issue #44 found: drawn straight, each crosses a country that is not one of its ends."""
    def straight(kind: str, a: str, b: str) -> MapLine:
        return MapLine(kind, idx(a), idx(b), (layout.POSITIONS[a], layout.POSITIONS[b]))

    assert "Estonia" in crossed_boxes(BOARD, straight("border", "Norway", "Russia"))
    assert "Macedonia" in crossed_boxes(BOARD, straight("border", "Bulgaria", "Greece"))
    assert "Bulgaria" in crossed_boxes(BOARD, straight("ferry", "Romania", "Turkey"))
    assert "Lithuania" not in crossed_boxes(BOARD, straight("border", "Lithuania", "Latvia"))


def test_every_line_is_a_border_ferry_or_bridge_and_each_is_drawn_once():
    lines = map_lines(BOARD)
    drawn = [frozenset((line.a, line.b)) for line in lines]
    assert len(drawn) == len(set(drawn))
    borders = {frozenset((a, b)) for a in range(BOARD.n_countries) for b in range(BOARD.n_countries)
               if a < b and BOARD.borders(a, b)}
    assert set(drawn) == borders
    kinds = {frozenset((a, b)): kind for kind, a, b in BOARD.crossings}
    for line in lines:
        assert line.kind == kinds.get(frozenset((line.a, line.b)), "border")
        assert line.points[0] == layout.POSITIONS[BOARD.countries[line.a]]
        assert line.points[-1] == layout.POSITIONS[BOARD.countries[line.b]]
    assert sum(line.kind == "ferry" for line in lines) == 6 and sum(line.kind == "bridge" for line in lines) == 1


def test_bends_are_only_for_real_borders_and_no_two_lines_share_one():
    """A bend listed for a pair that does not border would draw nothing; two lines through one bend point
    would read as one line forking (Norway–Russia and Finland–Russia did in a first try)."""
    for first, second in layout.BENDS:
        assert first < second and BOARD.borders(idx(first), idx(second)), (first, second)
    points = [p for bends in layout.BENDS.values() for p in bends]
    assert len(points) == len(set(points))


def test_segment_meets_box_edge_cases():
    rect = (0.0, 0.0, 1.0, 1.0)
    assert segment_meets_box((-1, 0.5), (2, 0.5), rect)
    assert not segment_meets_box((-1, 1.5), (2, 1.5), rect)
    assert segment_meets_box((-1, 1.03), (2, 1.03), rect, margin=0.04)
    assert not segment_meets_box((-1, -1), (-0.5, 3), rect)
    assert segment_meets_box((0.5, 0.5), (0.5, 0.5), rect)
