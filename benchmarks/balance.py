"""`tourpad bench balance`: does any icon type or region dominate a deck? Greedy-bot games, measured.

Reports, per player and game, the mean points of every score category and of every icon type, how often
each region bonus is won, and the route bonuses (passport / coast to coast) scored per game. `tourpad sim`
gives the category means and region figures too; this adds the split by icon type, which is what shows
a deck's balance.
"""

from __future__ import annotations

from rules.bots import make_bot, play
from rules.edition import Edition
from rules.engine import Game, State
from rules.scoring import NO_CHOICE, category_points, row_mask


def icon_labels(edition: Edition) -> list[str]:
    return [f"{family.id}:{icon.name}" for family in (edition.collection, edition.pairs, edition.choice)
            for icon in family.icons]


def add_icon_points(edition: Edition, state: State, totals: dict[str, float]) -> None:
    """Credit each round's collection, pairs and choice points to the icon types that earned them.

    Pairs and choices belong to one icon each; a collection score (halved, doubled or zeroed by its rule)
    is shared between its icons in proportion to the face value each contributed.
    """
    collection, pairs, choice = edition.collection, edition.pairs, edition.choice
    for r, (rows, choices) in enumerate(state.round_log):
        for p, row in enumerate(rows):
            mask = row_mask(row)
            score = state.round_scores[p][r]
            face = [(icon, icon.value * (mask & icon.mask).bit_count()) for icon in collection.icons]
            face_total = sum(v for _, v in face)
            if face_total and score.collection:
                for icon, v in face:
                    totals[f"{collection.id}:{icon.name}"] += score.collection * v / face_total
            for icon in pairs.icons:
                totals[f"{pairs.id}:{icon.name}"] += icon.value * ((mask & icon.mask).bit_count() >> 1)
            if choices[p] != NO_CHOICE:
                totals[f"{choice.id}:{choice.icons[choices[p]].name}"] += score.choice


def run(edition: Edition, games: int = 1000, players: int = 4, bot: str = "greedy", seed: int = 1) -> dict:
    categories = edition.category_ids()
    points_by_category = dict.fromkeys(categories, 0)
    icon_points = dict.fromkeys(icon_labels(edition), 0.0)
    region_won = [0] * len(edition.regions)
    route_awarded = 0
    for g in range(games):
        game_seed = seed * 1_000_003 + g
        state = play(Game(edition, players, game_seed),
                     [make_bot(bot, game_seed * 8 + p) for p in range(players)])
        for rounds in state.round_scores:
            for score in rounds:
                for category, points in category_points(edition, score).items():
                    points_by_category[category] += points
        add_icon_points(edition, state, icon_points)
        for region in edition.regions:
            region_won[region.index] += state.score.regions_claimed >> region.index & 1
        route_awarded += state.score.route_done.bit_count()
    per_player_game = games * players
    result = {
        "edition": edition.id, "games": games, "players": players, "bot": bot, "seed": seed,
        "mean_points": {c: round(points_by_category[c] / per_player_game, 2) for c in categories},
        "mean_total": round(sum(points_by_category.values()) / per_player_game, 2),
        "icon_points": {label: round(v / per_player_game, 2) for label, v in icon_points.items()},
        "region_bonus_won": {r.name: round(region_won[r.index] / games, 4) for r in edition.regions},
    }
    if edition.route is not None:
        result["route_bonus_per_game"] = round(route_awarded / games, 3)
    return result
