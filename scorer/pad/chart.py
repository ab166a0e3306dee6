"""Geometry of the running-totals chart (plain numbers, so it is tested without a client)."""

from __future__ import annotations

from dataclasses import dataclass

from scorer.locale import _

#: One line colour per player: each at least 3:1 on both the light and the dark theme's surface.
PLAYER_COLORS = ("#1F7A6D", "#C2410C", "#8B5CF6", "#DC2626")


@dataclass(frozen=True, slots=True)
class ChartLayout:
    width: float
    height: float
    margin: float
    top: int
    #: Per player: the (x, y) of the running total after round 0 (start, 0 points), 1, 2, ...
    lines: tuple[tuple[tuple[float, float], ...], ...]
    #: Horizontal grid lines: (y, label).
    grid: tuple[tuple[float, str], ...]
    #: Round ticks: (x, label).
    ticks: tuple[tuple[float, str], ...]


def nice_top(value: int) -> int:
    """The chart's top: four grid steps of a round size (10, 15, 20, 25 …) reaching the highest total."""
    for step in (10, 15, 20, 25, 30, 40, 50, 75, 100, 150, 200, 250, 500):
        if value <= step * 4:
            return step * 4
    return value


def layout(running: list[list[int]], rounds: int, width: float = 340, height: float = 200,
           margin: float = 30) -> ChartLayout:
    top = nice_top(max((max(line) for line in running if line), default=0))
    plot_w, plot_h = width - 2 * margin, height - 2 * margin

    def x(r: int) -> float:
        return margin + plot_w * r / rounds

    def y(v: float) -> float:
        return margin + plot_h * (1 - v / top)

    lines = tuple(tuple((x(r), y(v)) for r, v in enumerate([0, *line])) for line in running)
    grid = tuple((y(top * k / 4), str(round(top * k / 4))) for k in range(5))
    # "R2": the second round, abbreviated to fit under the chart
    ticks = tuple((x(r), _("start") if r == 0 else _("R{n}").format(n=r)) for r in range(rounds + 1))
    return ChartLayout(width, height, margin, top, lines, grid, ticks)
