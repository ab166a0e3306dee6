"""Estimates a bot can compute from its observation alone: what a partial row is worth this round.

Used by the greedy bot to pick, by the hard bot's rollouts, and by the app's hints.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.bonuses import route_tier_points
from rules.edition import Edition
from rules.engine import ROUNDS, Observation
from rules.scoring import COLLECTION_RULES, THROW_CATCH_RULES, route_achieved, row_mask


def row_value(edition: Edition, obs: Observation, cards: Sequence[int], mask: int | None = None) -> float:
    """Points the cards drafted so far would score this round, ignoring Throw & Catch.

    Counts collections (with the edition's rule), pairs, the best unused choice icon, new sites, and
    region / route bonuses still on offer that these cards would complete.
    """
    if mask is None:
        mask = row_mask(cards)
    p = obs.player
    col = edition.collection
    total = 0
    for icon in col.icons:
        total += icon.value * (mask & icon.mask).bit_count()
    value = COLLECTION_RULES[col.rule](total, obs.previous_collection[p])
    for icon in edition.pairs.icons:
        value += icon.value * ((mask & icon.mask).bit_count() >> 1)
    value += best_choice_value(edition, obs, mask)
    visited = obs.visited[p]
    after = visited | mask
    value += (after & ~visited).bit_count()
    for region in edition.regions:
        if not obs.regions_claimed >> region.index & 1 and after & region.mask == region.mask:
            value += region.bonus
    route = edition.route
    if route is not None and not obs.route_done >> p & 1 and route_achieved(edition, after):
        value += route_tier_points(route, obs.n_players, obs.route_next_tier)
    return value


def best_choice_value(edition: Edition, obs: Observation, mask: int) -> float:
    """The best unused choice icon's points, discounted early in the game (it can be used only once)."""
    family = edition.choice
    used = obs.choices_used[obs.player]
    best = 0.0
    for i, icon in enumerate(family.icons):
        if used >> i & 1:
            continue
        own = (mask & icon.mask).bit_count()
        if not own:
            continue
        if family.rule == "activity_table":
            points = family.table[min(own, len(family.table) - 1)]
        else:
            per_icon = dict(family.per_icon_by_players)[obs.n_players]
            others = sum((row_mask(r) & icon.mask).bit_count()
                         for q, r in enumerate(obs.face_up) if q != obs.player)
            points = per_icon * max(others, 1)
        best = max(best, points)
    return best * (0.5 + 0.5 * obs.round_index / (ROUNDS - 1))


def throw_value(edition: Edition, throw_card: int, unknown: Sequence[int]) -> float:
    """Expected Throw & Catch points for a Throw card, the Catch being any of `unknown` cards."""
    if not unknown:
        return 0.0
    rule = THROW_CATCH_RULES[edition.throw_catch_rule]
    number = edition.cards[throw_card].number
    return sum(rule(number, edition.numbers[c]) for c in unknown) / len(unknown)


def choice_threshold(round_index: int) -> int:
    """Skip a weak activity/treasure early: it may score far more in a later round."""
    return (5, 4, 2, 1)[min(round_index, ROUNDS - 1)]
