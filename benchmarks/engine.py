"""`tourpad bench engine`: random-bot games per second through the full engine, against the simplest fast
loop a Python programmer would write for the same rules, interleaved in one run.

The yardstick (`plain_random_game`) is deliberately plain: ints and lists, per-card tuples indexed by the
card's number, a list per hand, the rules written out in one function. It plays exactly the games the
engine plays with the random bots (the same deal generator, the same bots' generators, the same hand
order), so `tests/test_bench_engine.py` can check that it scores every game as the engine does.
"""

from __future__ import annotations

import cProfile
import gc
import io
import pstats
import random
import time
from collections.abc import Sequence
from typing import NamedTuple

from rules.bots import Bot, make_bot, play
from rules.edition import Edition
from rules.engine import Game


class PlainTables(NamedTuple):
    """An edition as the plain loop reads it: per-card tuples and per-rule switches, made once per run."""

    n_cards: int
    number: tuple[int, ...]
    collection_value: tuple[int, ...]
    #: Per card: its pairs icon and its choice icon (-1 for none).
    pair_icon: tuple[int, ...]
    choice_icon: tuple[int, ...]
    region: tuple[int, ...]
    pair_value: tuple[int, ...]
    n_choice_icons: int
    #: Per region: its cards and its bonus.
    region_cards: tuple[tuple[int, ...], ...]
    region_bonus: tuple[int, ...]
    throw_catch_rule: str
    collection_rule: str
    choice_rule: str
    choice_table: tuple[int, ...]
    #: Treasures: points per icon the others drafted, by player count.
    treasure_points: dict[int, int]
    #: "" (none), "passport" or "coast".
    route_kind: str
    route_tiers: tuple[int, ...]
    route_last_tier_min_players: int
    route_last_tier_repeats: bool
    west: tuple[int, ...]
    east: tuple[int, ...]
    neighbours: tuple[tuple[int, ...], ...]


def plain_tables(edition: Edition) -> PlainTables:
    cards = edition.cards
    route = edition.route
    return PlainTables(
        n_cards=len(cards), number=tuple(c.number for c in cards),
        collection_value=edition.collection_values, pair_icon=tuple(c.pairs for c in cards),
        choice_icon=tuple(c.choice for c in cards), region=tuple(c.region for c in cards),
        pair_value=tuple(icon.value for icon in edition.pairs.icons), n_choice_icons=len(edition.choice.icons),
        region_cards=tuple(tuple(c.index for c in cards if c.region == r.index) for r in edition.regions),
        region_bonus=tuple(r.bonus for r in edition.regions),
        throw_catch_rule=edition.throw_catch_rule, collection_rule=edition.collection.rule,
        choice_rule=edition.choice.rule, choice_table=edition.choice.table,
        treasure_points=dict(edition.choice.per_icon_by_players),
        route_kind=route.kind if route else "", route_tiers=route.tiers if route else (),
        route_last_tier_min_players=route.last_tier_min_players if route else 0,
        route_last_tier_repeats=route.last_tier_repeats if route else False,
        west=tuple(c.index for c in cards if route and route.west_mask >> c.index & 1),
        east=tuple(c.index for c in cards if route and route.east_mask >> c.index & 1),
        neighbours=tuple(tuple(c.index for c in cards if route and route.neighbours and
                               route.neighbours[card.index] >> c.index & 1) for card in cards),
    )


def plain_random_game(t: PlainTables, n: int, deal_rng: random.Random, bots: Sequence[Bot]) -> list[int]:
    """One game of random bots, the plain way; returns the final totals.

    The deal: cards set aside last round first, then the other cards shuffled by `deal_rng`, dealt round
    robin, 7 each; hands pass left. Player p's bot (`choose`, as the random bots offer it) takes a card of its
    hand, then at the round's end an option among "none" (-1 here) and the unused choice icons it holds;
    given the same bots in the same states, it decides as they do in the engine.
    """
    n_cards = t.n_cards
    number, collection_value, pair_icon, choice_icon = t.number, t.collection_value, t.pair_icon, t.choice_icon
    n_pairs, n_icons = len(t.pair_value), t.n_choice_icons
    difference = t.throw_catch_rule == "difference"
    table = t.choice_table
    double_low, halve_high = t.collection_rule == "double_if_at_most_7", t.collection_rule == "halve_above_7"
    pair_value = t.pair_value
    treasure = t.choice_rule == "treasure_others"
    per_treasure = t.treasure_points.get(n, 0)
    tiers = t.route_tiers
    if len(tiers) > 1 and n < t.route_last_tier_min_players:
        tiers = tiers[:-1]
    next_tier = 0
    route_done = [False] * n

    totals = [0] * n
    visited = [[False] * n_cards for _ in range(n)]
    used_choice = [[False] * n_icons for _ in range(n)]
    previous_collection = [-1] * n
    claimed = [False] * len(t.region_cards)
    set_aside: list[int] = []
    used = list(range(n_cards))
    for _round in range(4):
        deal_rng.shuffle(used)
        deck = set_aside + used
        dealt = 7 * n
        hands = [deck[p:dealt:n] for p in range(n)]
        set_aside = deck[dealt:]
        rows: list[list[int]] = [[] for _ in range(n)]
        for _pick in range(6):
            for p in range(n):
                hand = hands[p]
                card = bots[p].choose(hand)
                hand.remove(card)
                rows[p].append(card)
            hands = [hands[-1], *hands[:-1]]
        for p in range(n):
            rows[p].append(hands[p][0])

        # icon counts per row, for the pairs and the round-end choice
        choice_counts = []
        pair_counts = []
        for row in rows:
            pairs = [0] * n_pairs
            icons = [0] * n_icons
            for c in row:
                if pair_icon[c] >= 0:
                    pairs[pair_icon[c]] += 1
                if choice_icon[c] >= 0:
                    icons[choice_icon[c]] += 1
            pair_counts.append(pairs)
            choice_counts.append(icons)
        for p in range(n):
            row = rows[p]
            throw, catch = number[row[0]], number[row[-1]]
            score = abs(throw - catch) if difference else (throw if catch >= throw else 0)
            collected = 0
            for c in row:
                collected += collection_value[c]
            if double_low:
                collection = collected * 2 if collected <= 7 else collected
            elif halve_high:
                collection = collected if collected <= 7 else (collected + 1) // 2
            else:
                collection = collected if collected > previous_collection[p] else 0
            previous_collection[p] = collection
            score += collection
            for i in range(n_pairs):
                score += pair_value[i] * (pair_counts[p][i] // 2)
            options = [-1] + [i for i in range(n_icons) if choice_counts[p][i] and not used_choice[p][i]]
            chosen = bots[p].choose(options)
            if chosen >= 0:
                used_choice[p][chosen] = True
                own = choice_counts[p][chosen]
                if treasure:
                    score += per_treasure * (sum(counts[chosen] for counts in choice_counts) - own)
                else:
                    score += table[min(own, len(table) - 1)]
            for c in row:
                if not visited[p][c]:
                    visited[p][c] = True
                    score += 1
            totals[p] += score
        # region bonuses: first come, shared by everyone completing the region in the same round
        for r, cards in enumerate(t.region_cards):
            if claimed[r]:
                continue
            done = [p for p in range(n) if all(visited[p][c] for c in cards)]
            for p in done:
                totals[p] += t.region_bonus[r]
            if done:
                claimed[r] = True
        if tiers:
            achieved = [p for p in range(n) if not route_done[p] and plain_route(t, visited[p])]
            if achieved:
                repeat_last = tiers[-1] if t.route_last_tier_repeats else 0
                points = tiers[next_tier] if next_tier < len(tiers) else repeat_last
                last_open = len(tiers) - 1 if t.route_last_tier_repeats else len(tiers)
                if next_tier < last_open:
                    next_tier += 1
                for p in achieved:
                    route_done[p] = True
                    totals[p] += points
        used = [c for c in range(n_cards) if c not in set_aside]
    return totals


def plain_route(t: PlainTables, visited: list[bool]) -> bool:
    """Europe's passport (a card of every region) or USA's coast to coast (a chain of visited towns)."""
    if t.route_kind == "passport":
        return all(any(visited[c] for c in cards) for cards in t.region_cards)
    reached = [c for c in t.west if visited[c]]
    seen = set(reached)
    while reached:
        c = reached.pop()
        if c in t.east:
            return True
        for other in t.neighbours[c]:
            if visited[other] and other not in seen:
                seen.add(other)
                reached.append(other)
    return False


def run(edition: Edition, games: int = 2000, seed: int = 1, batches: int = 20, players: int = 4) -> dict:
    """Alternate short timed batches of the plain loop and the engine (so both see the same machine load),
    each playing the same games (the same deal seeds, bots seeded alike); report each one's games/s over its
    batches, the ratio engine / plain loop, and whether every game was scored alike both ways."""
    tables = plain_tables(edition)
    plain_bots = [make_bot("random", seed + p) for p in range(players)]
    bots = [make_bot("random", seed + p) for p in range(players)]
    per_batch = max(1, games // batches)
    # The process's own objects (the command's imports: some 40,000) are collected and frozen before timing,
    # unfrozen after: a full pass of the collector over them takes tens of milliseconds, and it fell in
    # whichever side's batch crossed the collector's threshold — the engine's in `tourpad bench engine`, a
    # tenth of its time over the default 2000 games — so neither side's rate carries it.
    gc.collect()
    gc.freeze()
    try:
        return _interleaved(edition, tables, plain_bots, bots, seed, batches, per_batch, players)
    finally:
        gc.unfreeze()


def _interleaved(edition: Edition, tables: PlainTables, plain_bots: list[Bot], bots: list[Bot], seed: int,
                 batches: int, per_batch: int, players: int) -> dict:
    plain_seconds = engine_seconds = 0.0
    # both sides end each game with its final totals (keeping whole states alive would load the collector)
    plain_totals: list[list[int]] = []
    engine_totals: list[list[int]] = []
    for batch in range(batches):
        seeds = range(seed + batch * per_batch, seed + (batch + 1) * per_batch)
        start = time.perf_counter()
        for game_seed in seeds:
            plain_totals.append(plain_random_game(tables, players, random.Random(game_seed), plain_bots))
        plain_seconds += time.perf_counter() - start
        start = time.perf_counter()
        for game_seed in seeds:
            engine_totals.append(play(Game(edition, players, game_seed), bots).totals())
        engine_seconds += time.perf_counter() - start
    played = per_batch * batches
    engine, plain = played / engine_seconds, played / plain_seconds
    return {"edition": edition.id, "players": players, "games": played, "games_per_second": round(engine, 1),
            "baseline_games_per_second": round(plain, 1), "ratio": round(engine / plain, 3),
            "scored_alike": plain_totals == engine_totals}


def profile(edition: Edition, games: int = 2000, seed: int = 1, players: int = 4, top: int = 15) -> str:
    """cProfile of the engine side of the bench alone (the same games): the functions by own time."""
    bots = [make_bot("random", seed + p) for p in range(players)]
    profiler = cProfile.Profile()
    profiler.enable()
    for game_seed in range(seed, seed + games):
        play(Game(edition, players, game_seed), bots)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def play_only(edition: Edition, side: str, games: int, seed: int = 1, players: int = 4) -> None:
    """Play the bench's games on one side only, untimed: for counting instructions (valgrind), which a
    shared machine's load does not change."""
    bots = [make_bot("random", seed + p) for p in range(players)]
    if side == "plain":
        tables = plain_tables(edition)
        for game_seed in range(seed, seed + games):
            plain_random_game(tables, players, random.Random(game_seed), bots)
    elif side == "engine":
        for game_seed in range(seed, seed + games):
            play(Game(edition, players, game_seed), bots).totals()
    else:
        raise ValueError(f"--only takes engine or plain, not {side!r}")
