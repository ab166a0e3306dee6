"""Bot-vs-bot simulation for `tourpad sim`: win rates with confidence intervals, points per category."""

from __future__ import annotations

import math
from collections.abc import Sequence

from rich.progress import Progress
from rich.table import Table

from rules.bots import bot_names, make_bot, play
from rules.edition import Edition
from rules.engine import Game
from scorer.commands.common import console

#: The app's difficulty names for the engine's bots.
BOT_ALIASES = {"easy": "random", "normal": "greedy"}


class SimError(ValueError):
    pass


def wilson_interval(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a proportion (ties count as fractional wins)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def resolve_bot_names(names: Sequence[str], players: int) -> list[str]:
    names = [BOT_ALIASES.get(n.strip(), n.strip()) for n in names]
    if len(names) != players:
        raise SimError(f"--bots names {len(names)} bots for {players} players; give one per seat")
    known = bot_names()
    for n in names:
        if n not in known:
            raise SimError(f"unknown bot {n!r}; choose from {', '.join(known)} (or easy, normal)")
    return names


def run_simulation(edition: Edition, players: int, bots: Sequence[str], games: int, seed: int,
                   direction_variant: bool = False, progress: bool = True) -> dict:
    names = resolve_bot_names(bots, players)
    if direction_variant and players < 3:
        raise SimError("the direction variant is for 3 or 4 players")
    categories = edition.category_ids()
    wins = [0.0] * players
    points = [[0] * len(categories) for _ in range(players)]
    totals = [0] * players
    region_won = [0] * len(edition.regions)
    route_awarded = 0
    with Progress(disable=not progress, transient=True, console=console) as bar:
        task = bar.add_task(f"{edition.name}: {games} games", total=games)
        for g in range(games):
            game_seed = seed * 1_000_003 + g
            seat_bots = [make_bot(name, game_seed * 8 + p) for p, name in enumerate(names)]
            state = play(Game(edition, players, game_seed, direction_variant), seat_bots)
            ranks = state.ranks()
            winners = ranks.count(1)
            for p in range(players):
                if ranks[p] == 1:
                    wins[p] += 1 / winners
                for score in state.round_scores[p]:
                    for i in range(len(categories)):
                        points[p][i] += score[i]
                totals[p] += sum(s.total for s in state.round_scores[p])
            for region in edition.regions:
                region_won[region.index] += state.score.regions_claimed >> region.index & 1
            route_awarded += state.score.route_done.bit_count()
            bar.advance(task)
    seats = []
    for p in range(players):
        low, high = wilson_interval(wins[p], games)
        seats.append({
            "seat": p + 1, "bot": names[p], "win_rate": round(wins[p] / games, 4),
            "win_rate_ci95": [round(low, 4), round(high, 4)], "mean_total": round(totals[p] / games, 2),
            "mean_points": {c: round(points[p][i] / games, 3) for i, c in enumerate(categories)},
        })
    result = {
        "edition": edition.id, "players": players, "games": games, "seed": seed,
        "direction_variant": direction_variant, "seats": seats,
        "region_bonus_won": {r.name: round(region_won[r.index] / games, 4) for r in edition.regions},
    }
    if edition.route is not None:
        result["route_bonus_per_game"] = round(route_awarded / games, 3)
    return result


def print_simulation(result: dict, category_names: dict[str, str] | None = None) -> None:
    """Two narrow tables (they fit an 80-column terminal): win rates per seat, then points per category."""
    names = category_names or {}
    wins = Table(title=f"{result['edition']}: {result['games']} games, {result['players']} players, "
                       f"{result['games_per_second']} games/s")
    for column, justify in (("Seat", "left"), ("Bot", "left"), ("Win rate", "right"), ("95% CI", "right"),
                            ("Mean total", "right")):
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
    console.print("Region bonus won in: " + ", ".join(
        f"{name} {share:.0%}" for name, share in result["region_bonus_won"].items()), highlight=False)
    if "route_bonus_per_game" in result:
        console.print(f"Route bonus scored per game: {result['route_bonus_per_game']}", highlight=False)


def run_other_game(game: str, **options) -> None:
    """`tourpad sim --game …` for the games other than Boomerang."""
    if game in ("race-around-europe", "race"):
        from scorer.race_simulate import run_race_command

        run_race_command(**options)
        return
    raise SimError(f"unknown game {game!r}; choose boomerang or race-around-europe")
