"""USA's town graph laid out for the score pad, from the edition's pathways alone (the data has no
coordinates): towns run west → east by how far they are from each coast, columns are ordered to keep
pathways short, and a pathway that would pass over another town is bent around it.

Pure geometry in a box of the caller's units with y growing downwards; tested on its own. No reportlab
here: the app draws the same map on screen (``scorer.pad.townmap``).
"""

from __future__ import annotations

import itertools
import math
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from rules.edition import Edition

Point = tuple[float, float]

#: One millimetre in PDF points (reportlab's ``mm``, without importing reportlab).
MM = 72.0 / 2.54 * 0.1
#: The score pad sheet's drawing width, which the map spans.
DESIGN_W = 190 * MM
#: Town circle radius, and how far a pathway keeps from any other town's centre (clear of the circle, its
#: blue coast ring and a little air).
TOWN_RADIUS = 4.3 * MM
PATHWAY_CLEARANCE = TOWN_RADIUS + 2.8 * MM


@dataclass(frozen=True, slots=True)
class Pathway:
    a: int
    b: int
    #: Quadratic Bézier control point, or None for a straight line.
    control: Point | None


def _distances(n: int, adjacency: Sequence[set[int]], sources: Iterable[int]) -> list[float]:
    dist = [math.inf] * n
    queue = deque()
    for s in sources:
        dist[s] = 0
        queue.append(s)
    while queue:
        u = queue.popleft()
        for v in adjacency[u]:
            if dist[v] == math.inf:
                dist[v] = dist[u] + 1
                queue.append(v)
    return dist


def layout_towns(n: int, edges: Sequence[tuple[int, int]], west: Iterable[int], east: Iterable[int],
                 groups: Sequence[int], width: float, height: float, margin: float,
                 min_gap: float = 0.0) -> list[Point]:
    """Centre of each town 0..n-1 in the box (0, 0, width, height), west coast on the left.

    Stress majorisation on pathway distances (towns one pathway apart end up close, far ones far, which
    for a road map gives few crossings), started from a west-to-east order so the result is the same on
    every run; then turned so the west coast is on the left, stretched to the box, and towns closer
    than ``min_gap`` are pushed apart."""
    adjacency = [set() for _ in range(n)]
    for a, b in edges:
        adjacency[a].add(b)
        adjacency[b].add(a)
    west, east = list(west), list(east)
    dist = [_distances(n, adjacency, [i]) for i in range(n)]
    longest = max((d for row in dist for d in row if d != math.inf), default=1)
    dist = [[d if d != math.inf else longest + 1 for d in row] for row in dist]
    dw, de = _distances(n, adjacency, west), _distances(n, adjacency, east)
    share = [0.5 if (dw[i] + de[i]) in (0, math.inf) else dw[i] / (dw[i] + de[i]) for i in range(n)]
    order = sorted(range(n), key=lambda i: (groups[i], i))
    xs = [share[i] * longest for i in range(n)]
    ys = [0.0] * n
    for rank, i in enumerate(order):
        ys[i] = (rank % 7 - 3) * 0.5 + groups[i] * 0.05
    for _ in range(300):
        moved = 0.0
        for i in range(n):
            num_x = num_y = den = 0.0
            for j in range(n):
                if i == j:
                    continue
                d = dist[i][j]
                w = 1.0 / (d * d)
                dx, dy = xs[i] - xs[j], ys[i] - ys[j]
                norm = math.hypot(dx, dy) or 1e-6
                num_x += w * (xs[j] + d * dx / norm)
                num_y += w * (ys[j] + d * dy / norm)
                den += w
            nx, ny = num_x / den, num_y / den
            moved = max(moved, abs(nx - xs[i]) + abs(ny - ys[i]))
            xs[i], ys[i] = nx, ny
        if moved < 1e-4 * longest:  # settled: further sweeps change nothing visible
            break
    # Turn the drawing so the west coast's centre is left of the east coast's, on a horizontal line.
    if west and east:
        wx, wy = sum(xs[i] for i in west) / len(west), sum(ys[i] for i in west) / len(west)
        ex, ey = sum(xs[i] for i in east) / len(east), sum(ys[i] for i in east) / len(east)
        angle = -math.atan2(ey - wy, ex - wx)
        cos, sin = math.cos(angle), math.sin(angle)
        xs, ys = [x * cos - y * sin for x, y in zip(xs, ys, strict=True)], \
                 [x * sin + y * cos for x, y in zip(xs, ys, strict=True)]
    # Mirror top-bottom so card A (a rulebook's first, usually north-western, town) is in the upper half.
    if ys[0] > sum(ys) / n:
        ys = [-y for y in ys]
    points = _fit_box(xs, ys, width, height, margin)
    if min_gap:
        points = _spread(points, min_gap, width, height, margin)
    return points


def _fit_box(xs: list[float], ys: list[float], width: float, height: float, margin: float) -> list[Point]:
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    sx = (width - 2 * margin) / ((x1 - x0) or 1)
    sy = (height - 2 * margin) / ((y1 - y0) or 1)
    return [(margin + (x - x0) * sx, margin + (y - y0) * sy) for x, y in zip(xs, ys, strict=True)]


def _spread(points: list[Point], min_gap: float, width: float, height: float, margin: float) -> list[Point]:
    """Push apart towns closer than ``min_gap`` (a few relaxation rounds), keeping them inside the box."""
    pts = [list(p) for p in points]
    for _ in range(60):
        moved = False
        for i in range(len(pts)):
            for j in range(i + 1, len(pts)):
                dx, dy = pts[j][0] - pts[i][0], pts[j][1] - pts[i][1]
                d = math.hypot(dx, dy)
                if d < min_gap:
                    push = (min_gap - d) / 2 + 0.01
                    ux, uy = (dx / d, dy / d) if d > 1e-9 else (1.0, 0.0)
                    pts[i][0] -= ux * push
                    pts[i][1] -= uy * push
                    pts[j][0] += ux * push
                    pts[j][1] += uy * push
                    moved = True
        for p in pts:
            p[0] = min(max(p[0], margin), width - margin)
            p[1] = min(max(p[1], margin), height - margin)
        if not moved:
            break
    return [(p[0], p[1]) for p in pts]


def bezier_points(p0: Point, control: Point | None, p1: Point, samples: int = 24) -> list[Point]:
    if control is None:
        return [(p0[0] + (p1[0] - p0[0]) * t / samples, p0[1] + (p1[1] - p0[1]) * t / samples)
                for t in range(samples + 1)]
    pts = []
    for k in range(samples + 1):
        t = k / samples
        u = 1 - t
        pts.append((u * u * p0[0] + 2 * u * t * control[0] + t * t * p1[0],
                    u * u * p0[1] + 2 * u * t * control[1] + t * t * p1[1]))
    return pts


def clearance(points: Sequence[Point], centres: Sequence[Point], skip: set[int]) -> float:
    """Smallest distance from a sampled line to any town centre not in ``skip`` (its own ends)."""
    best = math.inf
    for i, (cx, cy) in enumerate(centres):
        if i in skip:
            continue
        for (x1, y1), (x2, y2) in itertools.pairwise(points):
            dx, dy = x2 - x1, y2 - y1
            length2 = dx * dx + dy * dy
            t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((cx - x1) * dx + (cy - y1) * dy) / length2))
            best = min(best, math.hypot(x1 + t * dx - cx, y1 + t * dy - cy))
    return best


def route_pathways(edges: Sequence[tuple[int, int]], centres: Sequence[Point], keep_clear: float) -> list[Pathway]:
    """One drawable line per pathway: straight when it clears every other town by ``keep_clear``,
    otherwise the least bent curve that does (or, failing all, the one with the most room)."""
    result = []
    for a, b in edges:
        p0, p1 = centres[a], centres[b]
        mx, my = (p0[0] + p1[0]) / 2, (p0[1] + p1[1]) / 2
        length = math.hypot(p1[0] - p0[0], p1[1] - p0[1]) or 1.0
        nx, ny = -(p1[1] - p0[1]) / length, (p1[0] - p0[0]) / length
        best: tuple[float, Point | None] = (clearance(bezier_points(p0, None, p1), centres, {a, b}), None)
        if best[0] < keep_clear:
            for k in range(1, 13):
                for sign in (1, -1):
                    offset = sign * k * keep_clear * 0.6
                    control = (mx + nx * offset, my + ny * offset)
                    room = clearance(bezier_points(p0, control, p1), centres, {a, b})
                    if room >= keep_clear:
                        best = (room, control)
                        break
                    best = max(best, (room, control), key=lambda r: r[0])
                if best[0] >= keep_clear:
                    break
        result.append(Pathway(a, b, best[1]))
    return result


def town_centres(e: Edition, width: float, height: float) -> list[tuple[float, float]]:
    return list(_town_map(e, width, height)[0])


def town_map(e: Edition, width: float, height: float) -> tuple[tuple[tuple[float, float], ...], tuple[Pathway, ...]]:
    """Town centres and drawable pathways in a box of that size (computed once per edition and size)."""
    return _town_map(e, width, height)


def _town_map(e: Edition, width: float, height: float):
    route = e.route
    assert route is not None
    n = len(e.cards)
    west = tuple(i for i in range(n) if route.west_mask >> i & 1)
    east = tuple(i for i in range(n) if route.east_mask >> i & 1)
    return _layout(n, tuple(route.edges), west, east, tuple(card.region for card in e.cards), width, height)


@lru_cache(maxsize=32)
def _layout(n, edges, west, east, groups, width, height):
    """The map is the slowest part of a sheet; a pad (measured, then drawn) lays it out once."""
    centres = tuple(layout_towns(n, edges, west, east, groups, width, height, margin=8 * MM,
                                 min_gap=3 * TOWN_RADIUS))
    return centres, tuple(route_pathways(edges, centres, keep_clear=PATHWAY_CLEARANCE))
