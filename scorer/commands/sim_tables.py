"""`tourpad sim`'s output for people: the simulations' results as tables, and their progress bar."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.progress import Progress
from rich.table import Table

from scorer.commands.common import console


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
    wins = Table(title=f"{result['edition']}: {result['games']} games, {result['players']} players"
                       f"{', seats rotated' if rotated else ''}, {result['games_per_second']} games/s")
    # with rotation a row is a line-up entry, which sat in every seat in turn
    for column, justify in (("Entry" if rotated else "Seat", "left"), ("Bot", "left"), ("Win rate", "right"),
                            ("95% CI", "right"), ("Mean total", "right")):
        wins.add_column(column, justify=justify)
    for seat in result["seats"]:
        low, high = seat["win_rate_ci95"]
        wins.add_row(str(seat["seat"]), seat["bot"], f"{seat['win_rate']:.1%}", f"{low:.1%}–{high:.1%}",
                     f"{seat['mean_total']:.1f}")
    console.print(wins)
    points = Table(title="Mean points per game")
    points.add_column("Category")
    for seat in result["seats"]:
        points.add_column(f"{seat['seat']}: {seat['bot']}", justify="right")
    for category in result["seats"][0]["mean_points"]:
        points.add_row(names.get(category, category),
                       *(f"{seat['mean_points'][category]:.2f}" for seat in result["seats"]))
    console.print(points)

    labels = [f"{s['seat']}: {s['bot']}" for s in result["seats"]]
    h2h = Table(title="Head to head: share of games the row finished ahead of the column (95% CI)")
    h2h.add_column("")
    for label in labels:
        h2h.add_column(label, justify="right")
    for label, row in zip(labels, result["head_to_head"], strict=True):
        h2h.add_row(label, *("—" if cell is None else
                             f"{cell['ahead']:.0%} ({cell['ci95'][0]:.0%}–{cell['ci95'][1]:.0%})"
                             for cell in row))
    console.print(h2h)

    field_table = Table(title="Each bot against the field: share of games won by any copy of it")
    for column in ("Bot", "Copies", "Wins", "95% CI", "Chance", "Mean total"):
        field_table.add_column(column, justify="left" if column == "Bot" else "right")
    for bot in result["bots"]:
        low, high = bot["win_share_ci95"]
        field_table.add_row(bot["bot"], str(bot["copies"]), f"{bot['win_share']:.1%}",
                            f"{low:.1%}–{high:.1%}", f"{bot['chance']:.0%}", f"{bot['mean_total']:.1f}")
    console.print(field_table)
    console.print("Region bonus won in: " + ", ".join(
        f"{name} {share:.0%}" for name, share in result["region_bonus_won"].items()), highlight=False)
    if "route_bonus_per_game" in result:
        console.print(f"Route bonus scored per game: {result['route_bonus_per_game']}", highlight=False)




def print_race_simulation(result: dict) -> None:
    table = Table(title=f"Race Around Europe: {result['games']} games, {result['players']} players "
                        f"({result['games_per_second']} games/s)")
    for column in ("Seat", "Bot", "Wins", "Win rate", "95% CI"):
        table.add_column(column, justify="right" if column in ("Wins", "Win rate", "95% CI") else "left")
    for seat in result["seats"]:
        low, high = seat["win_rate_ci95"]
        table.add_row(str(seat["seat"]), seat["bot"], str(seat["wins"]), f"{seat['win_rate']:.1%}",
                      f"{low:.1%}–{high:.1%}")
    console.print(table)
    console.print(f"Game length in turns (all players): median {result['median_turns']}, "
                  f"mean {result['mean_turns']}, longest {result['max_turns']}; "
                  f"draws at the {result['turn_cap']}-turn cap: {result['draws']}")


