"""`tourpad bench engine`: random-bot 4-player games per second through the full engine, against a
minimal hand-written loop (no legality checks, no observations) timed in the same run.
"""

from __future__ import annotations

import random
import time

from rules.bots import make_bot, play
from rules.edition import Edition
from rules.engine import Game


def minimal_random_game(edition: Edition, rng: random.Random) -> list[int]:
    """The simplest honest Boomerang: shuffle, random Throw and picks, pass left, score the round categories.

    The yardstick the engine must match. It scores what a round scores on its own (Throw & Catch,
    collections, pairs, the best activity, new sites) and skips what the engine adds: legality,
    simultaneous reveal, observations, the undealt-card order, region and route bonuses.
    """
    n = 4
    numbers = [c.number for c in edition.cards]
    values = edition.collection_values
    pair_icon = [c.pairs for c in edition.cards]
    pair_values = [i.value for i in edition.pairs.icons]
    choice_icon = [c.choice for c in edition.cards]
    table = edition.choice.table or (0,) * 8
    totals = [0] * n
    visited = [set() for _ in range(n)]
    deck = list(range(len(edition.cards)))
    for _round in range(4):
        rng.shuffle(deck)
        hands = [deck[p * 7:(p + 1) * 7] for p in range(n)]
        rows = [[] for _ in range(n)]
        while len(hands[0]) > 1:
            for p in range(n):
                rows[p].append(hands[p].pop(rng.randrange(len(hands[p]))))
            hands = [hands[-1], *hands[:-1]]
        for p in range(n):
            rows[p].append(hands[p].pop())
            row = rows[p]
            score = abs(numbers[row[0]] - numbers[row[-1]])
            col = sum(values[c] for c in row)
            score += col * 2 if col <= 7 else col
            counts = [0] * len(pair_values)
            acts = [0] * 8
            for c in row:
                if pair_icon[c] >= 0:
                    counts[pair_icon[c]] += 1
                if choice_icon[c] >= 0:
                    acts[choice_icon[c]] += 1
            score += sum(v * (k // 2) for v, k in zip(pair_values, counts, strict=True))
            score += table[min(max(acts), len(table) - 1)]
            new = set(row) - visited[p]
            visited[p] |= new
            totals[p] += score + len(new)
    return totals


def run(edition: Edition, games: int = 2000, seed: int = 1) -> dict:
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(games):
        minimal_random_game(edition, rng)
    baseline = games / (time.perf_counter() - start)

    bots = [make_bot("random", seed + p) for p in range(4)]
    start = time.perf_counter()
    for g in range(games):
        play(Game(edition, 4, seed + g), bots)
    engine = games / (time.perf_counter() - start)
    return {"edition": edition.id, "games": games, "games_per_second": round(engine, 1),
            "baseline_games_per_second": round(baseline, 1), "ratio": round(engine / baseline, 3)}
