"""`tourpad sim`'s output for people: the simulations' results as tables, and their progress bar."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.progress import Progress
from rich.table import Table

from rules.i18n import format_percent
from scorer.commands.common import console
from scorer.locale import _, ngettext


@contextmanager
def games_progress(title: str, games: int, shown: bool) -> Iterator[Callable[[int], None]]:
    """A transient bar counting finished games (hidden with --json); yields the `on_games_done` callback."""
    with Progress(disable=not shown, transient=True, console=console) as bar:
        task = bar.add_task(title, total=games)
        yield lambda done: bar.advance(task, done)


def print_simulation(result: dict, category_names: dict[str, str] | None = None) -> None:
    """Narrow tables (they fit an 80-column terminal): win rates, points per category, head to head, and
    each bot against the field."""
    names = category_names or {}
    rotated = result.get("rotated_seats", False)
    title = (_("{edition}: {games}, {players}, seats rotated, {speed} games/s") if rotated
             else _("{edition}: {games}, {players}, {speed} games/s"))
    wins = Table(title=title.format(
        edition=result["edition"], games=ngettext("{n} game", "{n} games", result["games"]).format(n=result["games"]),
        players=ngettext("{n} player", "{n} players", result["players"]).format(n=result["players"]),
        speed=result["games_per_second"]))
    # with rotation a row is a line-up entry, which sat in every seat in turn
    for column, justify in ((_("Entry") if rotated else _("Seat"), "left"), (_("Bot"), "left"),
                            (_("Win rate"), "right"), (_("95% CI"), "right"), (_("Mean total"), "right")):
        wins.add_column(column, justify=justify)
    for seat in result["seats"]:
        low, high = seat["win_rate_ci95"]
        wins.add_row(str(seat["seat"]), seat["bot"], format_percent(seat["win_rate"], 1),
                     f"{format_percent(low, 1)}–{format_percent(high, 1)}",
                     f"{seat['mean_total']:.1f}")
    console.print(wins)
    points = Table(title=_("Mean points per game"))
    points.add_column(_("Category"))
    for seat in result["seats"]:
        points.add_column(f"{seat['seat']}: {seat['bot']}", justify="right")
    for category in result["seats"][0]["mean_points"]:
        points.add_row(names.get(category, category),
                       *(f"{seat['mean_points'][category]:.2f}" for seat in result["seats"]))
    console.print(points)

    labels = [f"{s['seat']}: {s['bot']}" for s in result["seats"]]
    h2h = Table(title=_("Head to head: share of games the row finished ahead of the column (95% CI)"))
    h2h.add_column("")
    for label in labels:
        h2h.add_column(label, justify="right")
    for label, row in zip(labels, result["head_to_head"], strict=True):
        h2h.add_row(label, *("—" if cell is None else
                             f"{format_percent(cell['ahead'])} "
                             f"({format_percent(cell['ci95'][0])}–{format_percent(cell['ci95'][1])})"
                             for cell in row))
    console.print(h2h)

    field_table = Table(title=_("Each bot against the field: share of games won by any copy of it"))
    for k, column in enumerate((_("Bot"), _("Copies"), _("Wins"), _("95% CI"), _("Chance"), _("Mean total"))):
        field_table.add_column(column, justify="left" if k == 0 else "right")
    for bot in result["bots"]:
        low, high = bot["win_share_ci95"]
        field_table.add_row(bot["bot"], str(bot["copies"]), format_percent(bot["win_share"], 1),
                            f"{format_percent(low, 1)}–{format_percent(high, 1)}", format_percent(bot["chance"]),
                            f"{bot['mean_total']:.1f}")
    console.print(field_table)
    console.print(_("Region bonus won in: {regions}").format(regions=", ".join(
        f"{name} {format_percent(share)}" for name, share in result["region_bonus_won"].items())), highlight=False)
    if "route_bonus_per_game" in result:
        console.print(_("Route bonus scored per game: {points}").format(points=result["route_bonus_per_game"]),
                      highlight=False)




def print_race_simulation(result: dict) -> None:
    table = Table(title=_("Race Around Europe: {games}, {players} ({speed} games/s)").format(
        games=ngettext("{n} game", "{n} games", result["games"]).format(n=result["games"]),
        players=ngettext("{n} player", "{n} players", result["players"]).format(n=result["players"]),
        speed=result["games_per_second"]))
    for k, column in enumerate((_("Seat"), _("Bot"), _("Wins"), _("Win rate"), _("95% CI"))):
        table.add_column(column, justify="right" if k >= 2 else "left")
    for seat in result["seats"]:
        low, high = seat["win_rate_ci95"]
        table.add_row(str(seat["seat"]), seat["bot"], str(seat["wins"]), format_percent(seat["win_rate"], 1),
                      f"{format_percent(low, 1)}–{format_percent(high, 1)}")
    console.print(table)
    console.print(_("Game length in turns (all players): median {median}, mean {mean}, longest {longest}; draws at "
                    "the {cap}-turn cap: {draws}").format(median=result["median_turns"], mean=result["mean_turns"],
                                                         longest=result["max_turns"], cap=result["turn_cap"],
                                                         draws=result["draws"]))


