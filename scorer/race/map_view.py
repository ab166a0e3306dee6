"""The app's Race Around Europe map, as data: the printed map's geometry (`rules.race.map_layout`) in pixels,
with the journey on it and the countries a tile in hand links to. The screen only paints what this says.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from rules.race import map_layout as layout
from rules.race.board import COLOURS, Board
from rules.race.journey import fitting_slots, reachable

#: One map cell in pixels (x, y): wide enough for a country's name in two short lines.
CELL = (56.0, 38.0)
MARGIN = 6.0


@dataclass(frozen=True, slots=True)
class MapBox:
    country: int
    label: str
    colour: str
    #: Pixels, y down (as a canvas draws).
    left: float
    top: float
    width: float
    height: float
    #: The trips (1-based) this country holds in the journey.
    trips: tuple[int, ...]
    #: The tile in hand links to this country (it borders it, or the ship / aeroplane serves it).
    reach: bool
    #: The tile in hand is this country.
    in_hand: bool


@dataclass(frozen=True, slots=True)
class MapStroke:
    kind: str
    points: tuple[tuple[float, float], ...]
    #: Two trips side by side in the journey cross this border.
    on_journey: bool


@dataclass(frozen=True, slots=True)
class MapPicture:
    width: float
    height: float
    boxes: tuple[MapBox, ...]
    strokes: tuple[MapStroke, ...]
    #: Where the tile in hand would connect with both its neighbours (0-based slots); () without a tile.
    fits: tuple[int, ...]


def map_picture(board: Board, journey: Sequence[int | None], in_hand: int | None = None,
                cell: tuple[float, float] = CELL) -> MapPicture:
    cx, cy = cell
    box_w, box_h = layout.BOX_W * cx, layout.BOX_H * cy
    # the highest point drawn: a box's centre, or a bend above them all (Norway–Russia goes over the top)
    top_y = max([y for _x, y in layout.POSITIONS.values()]
                + [y for bends in layout.BENDS.values() for _x, y in bends])

    def at(point: tuple[float, float]) -> tuple[float, float]:
        return MARGIN + box_w / 2 + point[0] * cx, MARGIN + box_h / 2 + (top_y - point[1]) * cy

    trips: dict[int, list[int]] = {}
    for slot, kind in enumerate(journey):
        if kind is not None and board.is_country(kind):
            trips.setdefault(kind, []).append(slot + 1)
    reach = reachable(board, in_hand) if in_hand is not None else 0
    boxes = []
    for i, name in enumerate(board.countries):
        x, y = at(layout.POSITIONS[name])
        boxes.append(MapBox(i, board.country_label(i), COLOURS[board.colour[i]], x - box_w / 2, y - box_h / 2,
                            box_w, box_h, tuple(trips.get(i, ())), bool(reach >> i & 1), in_hand == i))
    walked = {frozenset((a, b)) for a, b in itertools.pairwise(journey)
              if a is not None and b is not None and board.is_country(a) and board.is_country(b)
              and board.borders(a, b)}
    strokes = tuple(MapStroke(line.kind, tuple(at(p) for p in line.points), frozenset((line.a, line.b)) in walked)
                    for line in layout.map_lines(board))
    width = MARGIN * 2 + box_w + max(x for x, _y in layout.POSITIONS.values()) * cx
    lowest = min(y for _x, y in layout.POSITIONS.values())
    height = MARGIN * 2 + box_h + (top_y - lowest) * cy
    fits = fitting_slots(board, journey, in_hand) if in_hand is not None else ()
    return MapPicture(width, height, tuple(boxes), strokes, fits)
