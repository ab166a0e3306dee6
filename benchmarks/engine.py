"""`tourpad bench engine`: random-bot 4-player games per second through the full engine, against a
minimal hand-written loop of the same rules (no legality checks, no observations) timed in the same run.
"""

from __future__ import annotations

import random
import statistics
import time

from rules.bots import make_bot, play
from rules.edition import Edition
from rules.engine import Game


def minimal_random_game(edition: Edition, rng: random.Random, n: int = 4) -> list[int]:
    """A minimal hand-written random game of the complete rules: the yardstick the engine must match.

    Written the plain way (lists, sets, dicts, one function), it plays what the engine plays — deal with
    the set-aside cards first, random Throw and picks passed left, Catch, a random unused activity, every
    category, first-come region bonuses — and leaves out only what makes the engine an engine: legality
    checks, simultaneous reveal, observations, undo history, explanations. Australia's categories.
    """
    cards = edition.spec.cards
    number = {c.letter: c.number for c in cards}
    region = {c.letter: c.region for c in cards}
    collection_value = {i.name: i.value for i in edition.spec.collection.icons}
    animal_value = {i.name: i.value for i in edition.spec.pairs.icons}
    activities = [i.name for i in edition.spec.choice.icons]
    table = edition.spec.choice.table
    icons = {c.letter: c.icons for c in cards}
    region_size = {r.name: sum(1 for c in cards if c.region == r.name) for r in edition.spec.regions}
    region_bonus = {r.name: r.bonus for r in edition.spec.regions}

    totals = [0] * n
    visited = [set() for _ in range(n)]
    used_activities = [set() for _ in range(n)]
    claimed = set()
    set_aside: list[str] = []
    used = [c.letter for c in cards]
    for _round in range(4):
        rng.shuffle(used)
        deck = set_aside + used
        hands = [deck[p * 7:(p + 1) * 7] for p in range(n)]
        set_aside = deck[n * 7:]
        rows = [[] for _ in range(n)]
        while len(hands[0]) > 1:
            for p in range(n):
                rows[p].append(hands[p].pop(rng.randrange(len(hands[p]))))
            hands = [hands[-1], *hands[:-1]]
        for p in range(n):
            rows[p].append(hands[p].pop())
        for p in range(n):
            row = rows[p]
            score = abs(number[row[0]] - number[row[-1]])
            collected = sum(collection_value.get(i, 0) for c in row for i in icons[c])
            score += collected * 2 if collected <= 7 else collected
            animals: dict[str, int] = {}
            acts: dict[str, int] = {}
            for c in row:
                for i in icons[c]:
                    if i in animal_value:
                        animals[i] = animals.get(i, 0) + 1
                    elif i in activities:
                        acts[i] = acts.get(i, 0) + 1
            score += sum(animal_value[a] * (k // 2) for a, k in animals.items())
            options = [a for a in acts if a not in used_activities[p]]
            if options and rng.random() < 0.5:
                chosen = rng.choice(options)
                used_activities[p].add(chosen)
                score += table[min(acts[chosen], len(table) - 1)]
            new = set(row) - visited[p]
            visited[p] |= new
            totals[p] += score + len(new)
        for name, size in region_size.items():
            if name in claimed:
                continue
            done = [p for p in range(n) if sum(1 for c in visited[p] if region[c] == name) == size]
            for p in done:
                totals[p] += region_bonus[name]
            if done:
                claimed.add(name)
        used = [c for c in number if c not in set_aside]
    return totals


def run(edition: Edition, games: int = 2000, seed: int = 1, chunks: int = 10) -> dict:
    """Alternate chunks of baseline and engine games so both see the same machine load; report medians."""
    rng = random.Random(seed)
    bots = [make_bot("random", seed + p) for p in range(4)]
    per_chunk = max(1, games // chunks)
    baseline_rates, engine_rates = [], []
    game_seed = seed
    for _ in range(chunks):
        start = time.perf_counter()
        for _ in range(per_chunk):
            minimal_random_game(edition, rng)
        baseline_rates.append(per_chunk / (time.perf_counter() - start))
        start = time.perf_counter()
        for _ in range(per_chunk):
            play(Game(edition, 4, game_seed), bots)
            game_seed += 1
        engine_rates.append(per_chunk / (time.perf_counter() - start))
    engine, baseline = statistics.median(engine_rates), statistics.median(baseline_rates)
    return {"edition": edition.id, "games": per_chunk * chunks, "games_per_second": round(engine, 1),
            "baseline_games_per_second": round(baseline, 1), "ratio": round(engine / baseline, 3)}
