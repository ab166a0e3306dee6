"""`tourpad bench race`: the journey validator's checks per second, the best-fix search, and bot games/s."""

from __future__ import annotations

import random
import time

from rules.race.board import load_board
from rules.race.bots import make_race_bot, play_race
from rules.race.engine import RaceGame
from rules.race.journey import best_fixes, broken_links


def run(checks: int = 200_000, fix_searches: int = 200, games: int = 200) -> dict:
    board = load_board()
    rng = random.Random(1)
    journeys = [[rng.randrange(board.n_kinds) for _ in range(10)] for _ in range(1000)]
    started = time.perf_counter()
    for i in range(checks):
        broken_links(board, journeys[i % 1000])
    check_seconds = time.perf_counter() - started
    started = time.perf_counter()
    for i in range(fix_searches):
        best_fixes(board, journeys[i % 1000])
    fix_seconds = time.perf_counter() - started
    turns = 0
    started = time.perf_counter()
    for g in range(games):
        state = play_race(RaceGame(2, g, board, first_player=g % 2),
                          [make_race_bot("normal", 2 * g), make_race_bot("easy", 2 * g + 1)])
        turns += state.turn
    game_seconds = time.perf_counter() - started
    return {
        "validator_checks_per_second": round(checks / check_seconds),
        "validator_microseconds_per_check": round(check_seconds / checks * 1e6, 2),
        "best_fix_searches_per_second": round(fix_searches / fix_seconds, 1),
        "normal_vs_easy_games_per_second": round(games / game_seconds, 1),
        "turns_per_second": round(turns / game_seconds),
    }
