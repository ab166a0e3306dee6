"""USA's town graph for the app's sheet: the printable pad's layout (same function, same box
proportions, computed once per edition by ``printables.townmap.town_map``) scaled to screen pixels,
with what one player has drawn: visited towns, and the pathways whose two towns are both visited."""

from __future__ import annotations

from dataclasses import dataclass

from printables.townmap import DESIGN_W, town_map
from rules.edition import Edition
from rules.scoring import drawn_pathways

#: The map's box in the printables' units (points): the pad's width, a phone-friendly height.
LAYOUT_W = DESIGN_W
LAYOUT_H = DESIGN_W * 0.62
#: A town circle's radius as a share of the map width (11 px at 366 px, where towns are 24 px apart).
RADIUS_SHARE = 11 / 366


@dataclass(frozen=True, slots=True)
class Town:
    index: int
    letter: str
    site: str  # the town's name as a person reads it (`Card.site_label`)
    x: float
    y: float
    color: str
    coast: bool
    visited: bool


@dataclass(frozen=True, slots=True)
class PathwayLine:
    a: int
    b: int
    start: tuple[float, float]
    #: Quadratic Bézier control point, or None for a straight line.
    control: tuple[float, float] | None
    end: tuple[float, float]
    #: Both towns visited: the player has drawn this pathway.
    drawn: bool


@dataclass(frozen=True, slots=True)
class TownMapView:
    width: float
    height: float
    radius: float
    towns: tuple[Town, ...]
    pathways: tuple[PathwayLine, ...]


def has_town_map(edition: Edition) -> bool:
    return edition.route is not None and bool(edition.route.edges)


def town_map_view(edition: Edition, visited: int, width: float) -> TownMapView:
    """The map at ``width`` pixels for a player who has visited the card mask ``visited``."""
    route = edition.route
    if route is None or not route.edges:
        raise ValueError(f"{edition.name} has no town map (no pathways)")
    centres, paths = town_map(edition, LAYOUT_W, LAYOUT_H)
    k = width / LAYOUT_W
    coast = route.west_mask | route.east_mask
    towns = tuple(Town(card.index, card.letter, card.site_label, x * k, y * k, edition.regions[card.region].color,
                       bool(coast >> card.index & 1), bool(visited >> card.index & 1))
                  for card, (x, y) in zip(edition.cards, centres, strict=True))
    drawn = {frozenset(edge) for edge in drawn_pathways(edition, visited)}
    lines = tuple(PathwayLine(p.a, p.b, (centres[p.a][0] * k, centres[p.a][1] * k),
                              None if p.control is None else (p.control[0] * k, p.control[1] * k),
                              (centres[p.b][0] * k, centres[p.b][1] * k), frozenset((p.a, p.b)) in drawn)
                  for p in paths)
    return TownMapView(width, LAYOUT_H * k, width * RADIUS_SHARE, towns, lines)
