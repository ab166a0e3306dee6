"""Where each country sits on Race Around Europe's schematic map, and the path of every line between two.

One geometry serves the printed reference map (`printables.race`) and the app's map (`scorer.ui.race`), so
both show the same thing: a box per country and a line per border, ferry or bridge. A line is drawn
straight from one box's centre to the other's, or through the bends listed in `BENDS` where a straight
line would cross a third country's box — a player reading the map must never see a border that is not
there (`crossed_boxes` finds such a line; the tests require none).

Units are map cells: x from 0 (west) to `WIDTH`, y from 0 (south) to `HEIGHT`; a renderer scales x and y
(each by its own factor, which keeps boxes boxes and straight lines straight, so what is clear here is
clear on paper and on screen).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from rules.race.board import Board

WIDTH, HEIGHT = 11.0, 9.0
#: A country's box, in cells (the printed map's 19 × 8.5 mm at its scale).
BOX_W, BOX_H = 0.84, 0.56
#: How far from a box a line must pass (in cells) so it does not seem to touch it.
CLEARANCE = 0.04

#: Box centres: roughly where each country lies, spread out so every name is readable. Countries a board
#: pack adds would need a place here.
POSITIONS: dict[str, tuple[float, float]] = {
    "Iceland": (0.6, 9.0), "Norway": (5.0, 9.0), "Sweden": (6.3, 8.2), "Finland": (7.7, 9.0),
    "Scotland": (2.5, 8.0), "Northern Ireland": (1.2, 7.3), "Ireland": (0.6, 6.3), "England": (2.9, 6.7),
    "Wales": (1.8, 5.9), "Denmark": (5.0, 7.4), "Estonia": (8.9, 8.1), "Latvia": (8.9, 7.3),
    "Lithuania": (8.4, 6.5), "Russia": (10.9, 7.5), "Netherlands": (4.2, 6.5), "Belgium": (3.7, 5.6),
    "Luxembourg": (4.4, 4.9), "Germany": (5.6, 6.0), "Poland": (7.4, 5.9), "Belarus": (9.55, 6.15),
    "France": (2.9, 4.4), "Switzerland": (4.6, 4.1), "Czech Republic": (6.4, 5.1), "Slovakia": (7.6, 4.8),
    "Ukraine": (9.8, 5.0), "Austria": (5.9, 4.2), "Hungary": (7.4, 3.9), "Moldova": (10.6, 4.0),
    "Romania": (9.2, 3.4), "Monaco": (4.0, 3.3), "Slovenia": (6.0, 3.4), "Croatia": (6.5, 2.75),
    "Italy": (5.1, 2.4), "Bosnia and Herzegovina": (7.25, 2.1), "Serbia": (8.3, 2.7), "Spain": (1.9, 2.8),
    "Portugal": (0.6, 2.4), "Montenegro": (7.0, 1.2), "Kosovo": (8.35, 1.55), "Bulgaria": (9.7, 2.3),
    "Macedonia": (8.9, 0.9), "Albania": (7.8, 0.5), "Greece": (9.0, 0.0), "Turkey": (11.0, 1.2),
    "Malta": (5.5, 0.7), "Cyprus": (11.0, 0.0),
}

#: The bends of the lines a straight stroke would draw across another country's box: (country, country)
#: in alphabetical order, then the points the line goes through on its way from the first to the second.
BENDS: dict[tuple[str, str], tuple[tuple[float, float], ...]] = {
    ("Austria", "Italy"): ((5.4, 3.7),),
    ("Bulgaria", "Greece"): ((9.5, 0.6),),
    ("Croatia", "Montenegro"): ((6.7, 1.7),),
    ("Finland", "Russia"): ((9.4, 8.5),),
    ("France", "Germany"): ((3.1, 6.0),),
    ("France", "Italy"): ((3.4, 2.9),),
    ("Germany", "Switzerland"): ((5.0, 4.6),),
    ("Macedonia", "Serbia"): ((8.9, 1.9),),
    ("Montenegro", "Serbia"): ((7.8, 1.7), (7.8, 1.9)),
    ("Norway", "Russia"): ((5.0, 9.55), (10.9, 9.55)),
    ("Poland", "Russia"): ((10.0, 5.6),),
    ("Romania", "Turkey"): ((10.2, 2.8),),
    ("Turkey", "Ukraine"): ((10.1, 3.5),),
}

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class MapLine:
    """One drawn line: a land border, a ferry or the bridge, from country `a`'s centre to `b`'s."""

    kind: str
    a: int
    b: int
    points: tuple[Point, ...]

    def segments(self) -> list[tuple[Point, Point]]:
        return list(itertools.pairwise(self.points))


def box(name: str) -> tuple[float, float, float, float]:
    """(left, bottom, right, top) of a country's box."""
    x, y = POSITIONS[name]
    return x - BOX_W / 2, y - BOX_H / 2, x + BOX_W / 2, y + BOX_H / 2


def missing_positions(board: Board) -> list[str]:
    return [n for n in board.countries if n not in POSITIONS]


def map_lines(board: Board) -> list[MapLine]:
    """Every border, ferry and bridge of the board as the line the maps draw (land borders first)."""
    crossings = {frozenset((a, b)): kind for kind, a, b in board.crossings}
    lines = []
    for a in range(board.n_countries):
        for b in range(a + 1, board.n_countries):
            if board.borders(a, b):
                lines.append(_line(board, crossings.get(frozenset((a, b)), "border"), a, b))
    return sorted(lines, key=lambda line: line.kind != "border")


def _line(board: Board, kind: str, a: int, b: int) -> MapLine:
    first, second = sorted((board.countries[a], board.countries[b]))
    bends = BENDS.get((first, second), ())
    start, end = (a, b) if board.countries[a] == first else (b, a)
    points = (POSITIONS[first], *bends, POSITIONS[second])
    return MapLine(kind, start, end, points)


def segment_meets_box(p: Point, q: Point, rect: tuple[float, float, float, float], margin: float = 0.0) -> bool:
    """Does the segment p–q come within `margin` of the axis-aligned box (Liang–Barsky clipping)?"""
    left, bottom, right, top = rect[0] - margin, rect[1] - margin, rect[2] + margin, rect[3] + margin
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for edge_p, edge_q in ((-dx, p[0] - left), (dx, right - p[0]), (-dy, p[1] - bottom), (dy, top - p[1])):
        if edge_p == 0:
            if edge_q < 0:
                return False
            continue
        t = edge_q / edge_p
        if edge_p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


def crossed_boxes(board: Board, line: MapLine) -> list[str]:
    """The countries other than its two ends whose box the line meets (or passes too close to)."""
    ends = {line.a, line.b}
    return [name for i, name in enumerate(board.countries) if i not in ends
            and any(segment_meets_box(p, q, box(name), CLEARANCE) for p, q in line.segments())]
