"""`tourpad sim --game race-around-europe`: Race Around Europe bot games, win rates and game lengths
(data; the command prints it)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence

from rules.race.bots import RACE_BOTS, make_race_bot, play_race
from rules.race.engine import DEFAULT_TURN_CAP, RaceGame
from scorer.locale import _
from scorer.sim.boomerang import SimError, check_line_up, wilson_interval

GAME_ID = "race-around-europe"


def run_race_simulation(players: int, bots: Sequence[str], games: int, seed: int = 1,
                        turn_cap: int = DEFAULT_TURN_CAP, board_id: str = "tourpad",
                        on_games_done: Callable[[int], None] | None = None) -> dict:
    """Play `games` games (the first seat rotates) and summarise wins (95% Wilson CI) and lengths in turns."""
    from scorer.packs import resolve_board

    # Boomerang's names are refused, not mapped: "hard" is no Race Around Europe level, and a sim that played
    # another bot than the one asked for would report a figure for the wrong bot
    names = [b.strip() for b in bots]
    check_line_up(names, players, tuple(RACE_BOTS),
                  _("unknown Race Around Europe bot {name!r}; choose from {known}"))
    try:
        board = resolve_board(board_id)
    except KeyError as err:
        raise SimError(str(err.args[0])) from None
    wins = [0] * players
    draws = 0
    lengths: list[int] = []
    started = time.perf_counter()
    for g in range(games):
        game_seed = seed * 1_000_003 + g
        game = RaceGame(players, game_seed, board, first_player=g % players, turn_cap=turn_cap)
        state = play_race(game, [make_race_bot(n, game_seed * 8 + p) for p, n in enumerate(names)])
        if state.winner is None:
            draws += 1
        else:
            wins[state.winner] += 1
        lengths.append(state.turn)
        if on_games_done is not None:
            on_games_done(1)
    seconds = time.perf_counter() - started
    seats = []
    for p in range(players):
        low, high = wilson_interval(wins[p], games)
        seats.append({"seat": p + 1, "bot": names[p], "wins": wins[p], "win_rate": round(wins[p] / games, 4),
                      "win_rate_ci95": [round(low, 4), round(high, 4)]})
    return {
        "game": GAME_ID, "board": board.id, "players": players, "games": games, "seed": seed,
        "turn_cap": turn_cap, "seats": seats, "draws": draws,
        "median_turns": statistics.median(lengths), "mean_turns": round(statistics.fmean(lengths), 1),
        "max_turns": max(lengths), "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 1),
    }
