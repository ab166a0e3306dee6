"""Bot-vs-bot simulation for `tourpad sim`: win rates with confidence intervals, points per category.

Returns data only; the command prints it (scorer.commands.sim_tables)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field

from rules.bots import bot_names, make_bot, play
from rules.edition import Edition
from rules.engine import Game, State
from rules.validation import RuleError, check_direction_variant
from scorer.locale import _, ngettext


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


def check_line_up(names: Sequence[str], players: int, known: Sequence[str], unknown: str | None = None) -> None:
    """`--bots` names one known bot per seat, else a `SimError` that says which is wrong (`unknown`: the
    refusal of a name, with `{name}` and `{known}`)."""
    if len(names) != players:
        raise SimError(ngettext("--bots names {bots} bot for {players} players; give one per seat",
                                "--bots names {bots} bots for {players} players; give one per seat",
                                len(names)).format(bots=len(names), players=players))
    for name in names:
        if name not in known:
            raise SimError((unknown or _("unknown bot {name!r}; choose from {known}")).format(
                name=name, known=", ".join(known)))


def resolve_bot_names(names: Sequence[str], players: int) -> list[str]:
    names = [n.strip() for n in names]
    check_line_up(names, players, bot_names())
    return names


@dataclass(slots=True)
class Tally:
    """Sums over games, per line-up entry (the i-th bot of `--bots`, whichever seat it sat in)."""

    entries: int
    categories: int
    regions: int
    games: int = 0
    wins: list[float] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    points: list[list[int]] = field(default_factory=list)
    #: ahead[i][j]: games entry i finished ahead of entry j (a tie counts a half).
    ahead: list[list[float]] = field(default_factory=list)
    region_won: list[int] = field(default_factory=list)
    route_awarded: int = 0

    def __post_init__(self) -> None:
        n = self.entries
        self.wins = self.wins or [0.0] * n
        self.totals = self.totals or [0] * n
        self.points = self.points or [[0] * self.categories for _ in range(n)]
        self.ahead = self.ahead or [[0.0] * n for _ in range(n)]
        self.region_won = self.region_won or [0] * self.regions

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.route_awarded += other.route_awarded
        for i in range(self.entries):
            self.wins[i] += other.wins[i]
            self.totals[i] += other.totals[i]
            for c in range(self.categories):
                self.points[i][c] += other.points[i][c]
            for j in range(self.entries):
                self.ahead[i][j] += other.ahead[i][j]
        for r in range(self.regions):
            self.region_won[r] += other.region_won[r]


def seating(players: int, game_index: int, rotate: bool) -> list[int]:
    """Which line-up entry sits in each seat: with rotation every entry takes every seat equally often."""
    shift = game_index % players if rotate else 0
    return [(seat + shift) % players for seat in range(players)]


def play_games(edition_id: str, names: Sequence[str], first: int, last: int, seed: int,
               direction_variant: bool, rotate: bool, expert_simulations: int | None = None) -> Tally:
    """Games `first`..`last - 1` of a run; each game's deal and bots depend only on `seed` and its index."""
    from scorer.packs import resolve_edition

    edition = resolve_edition(edition_id)
    tally = Tally(len(names), len(edition.category_ids()), len(edition.regions))
    for g in range(first, last):
        state, entry_at = play_game(edition, names, g, seed, direction_variant, rotate, expert_simulations)
        add_game(tally, edition, state, entry_at)
    return tally


def play_game(edition: Edition, names: Sequence[str], game_index: int, seed: int, direction_variant: bool,
              rotate: bool, expert_simulations: int | None = None) -> tuple[State, list[int]]:
    """Game `game_index` of a run, played out: its final state, and which line-up entry sat in each seat."""
    players = len(names)
    budget = {} if expert_simulations is None else {"expert": {"simulations": expert_simulations}}
    game_seed = seed * 1_000_003 + game_index
    entry_at = seating(players, game_index, rotate)
    seat_bots = [make_bot(names[e], game_seed * 8 + e, **budget.get(names[e], {})) for e in entry_at]
    return play(Game(edition, players, game_seed, direction_variant), seat_bots), entry_at


def add_game(tally: Tally, edition: Edition, state: State, entry_at: Sequence[int]) -> None:
    """Count one finished game into `tally` by line-up entry."""
    n_categories = len(edition.category_ids())
    ranks = state.ranks()
    winners = ranks.count(1)
    tally.games += 1
    for seat, e in enumerate(entry_at):
        if ranks[seat] == 1:
            tally.wins[e] += 1 / winners
        for score in state.round_scores[seat]:
            for c in range(n_categories):
                tally.points[e][c] += score[c]
            tally.totals[e] += score.total
        for other_seat, f in enumerate(entry_at):
            if other_seat != seat:
                if ranks[seat] < ranks[other_seat]:
                    tally.ahead[e][f] += 1
                elif ranks[seat] == ranks[other_seat]:
                    tally.ahead[e][f] += 0.5
    for region in edition.regions:
        tally.region_won[region.index] += state.score.regions_claimed >> region.index & 1
    tally.route_awarded += state.score.route_done.bit_count()


def run_simulation(edition: Edition, players: int, bots: Sequence[str], games: int, seed: int,
                   direction_variant: bool = False, rotate: bool = False, workers: int = 1,
                   on_games_done: Callable[[int], None] | None = None, expert_simulations: int | None = None) -> dict:
    """Play `games` games of the line-up; with `rotate` each entry sits in every seat equally often.

    `workers` > 1 spreads the games over processes; the result is the same as with one. `on_games_done(n)`
    hears of every n games finished (a progress bar). `expert_simulations` sets the expert bot's budget
    (rollouts per decision) instead of its default.
    """
    names = resolve_bot_names(bots, players)
    try:
        check_direction_variant(players, direction_variant)
    except RuleError as err:
        raise SimError(str(err)) from None
    categories = edition.category_ids()
    total = Tally(players, len(categories), len(edition.regions))
    chunk = max(1, min(50, games // (max(workers, 1) * 8) or 1))
    bounds = [(a, min(a + chunk, games)) for a in range(0, games, chunk)]
    advance = on_games_done or (lambda _games: None)
    if workers <= 1:
        for a, b in bounds:
            total.add(play_games(edition.id, names, a, b, seed, direction_variant, rotate, expert_simulations))
            advance(b - a)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(play_games, edition.id, names, a, b, seed, direction_variant, rotate,
                                   expert_simulations)
                       for a, b in bounds]
            for future in as_completed(futures):
                part = future.result()
                total.add(part)
                advance(part.games)
    return simulation_report(edition, names, total, seed, direction_variant, rotate)


def simulation_report(edition: Edition, names: Sequence[str], tally: Tally, seed: int,
                      direction_variant: bool, rotate: bool) -> dict:
    games = tally.games
    players = len(names)
    categories = edition.category_ids()
    seats = []
    for p in range(players):
        low, high = wilson_interval(tally.wins[p], games)
        seats.append({
            "seat": p + 1, "bot": names[p], "win_rate": round(tally.wins[p] / games, 4),
            "win_rate_ci95": [round(low, 4), round(high, 4)], "mean_total": round(tally.totals[p] / games, 2),
            "mean_points": {c: round(tally.points[p][i] / games, 3) for i, c in enumerate(categories)},
        })
    head_to_head = []
    for i in range(players):
        row = []
        for j in range(players):
            if i == j:
                row.append(None)
                continue
            low, high = wilson_interval(tally.ahead[i][j], games)
            row.append({"ahead": round(tally.ahead[i][j] / games, 4),
                        "ci95": [round(low, 4), round(high, 4)]})
        head_to_head.append(row)
    by_bot = []
    for name in dict.fromkeys(names):
        copies = [p for p in range(players) if names[p] == name]
        won = sum(tally.wins[p] for p in copies)
        low, high = wilson_interval(won, games)
        by_bot.append({"bot": name, "copies": len(copies), "win_share": round(won / games, 4),
                       "win_share_ci95": [round(low, 4), round(high, 4)],
                       "chance": round(len(copies) / players, 4),
                       "mean_total": round(sum(tally.totals[p] for p in copies) / (games * len(copies)), 2)})
    result = {
        "edition": edition.id, "players": players, "games": games, "seed": seed,
        "direction_variant": direction_variant, "rotated_seats": rotate, "seats": seats,
        "bots": by_bot, "head_to_head": head_to_head,
        "region_bonus_won": {r.name: round(tally.region_won[r.index] / games, 4) for r in edition.regions},
    }
    if edition.route is not None:
        result["route_bonus_per_game"] = round(tally.route_awarded / games, 3)
    return result
