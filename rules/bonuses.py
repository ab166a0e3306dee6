"""The shared first-come bonuses, settled across the table at the end of a round: the one place they are.

Two kinds, both "first come": a region's bonus goes to whoever first completes the region, shared by
everyone completing it in the same round; the route bonus (Europe's passport, USA's coast to coast) is
tiered by order of achievement, and everyone achieving it in the same round shares the highest tier still
on offer. Letters mode (engine, records, tables, solo) and category mode both say *who achieved what this
round* and call `settle_bonuses`; neither knows how the tiers run.

Hot path: the engine settles every round of every simulated game, so the inputs are bitmasks and ints and
the explanation lines are built only when asked for.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol

from rules import wording
from rules.edition import Edition, Route


class BonusSheets(Protocol):
    """What the table's sheets record about the shared bonuses (`ScoreState`, `CategoryState`)."""

    #: Bitmask of the regions whose bonus is taken (bit = region index).
    regions_claimed: int
    #: Bitmask of the players who have scored the route bonus (each scores it once).
    route_done: int
    #: Index of the route tier on offer next (the tiers before it are crossed out).
    route_next_tier: int


class Award(NamedTuple):
    """One bonus settled in a round: a region's (by index) or the route's (`region` = -1), and who scored it."""

    name: str
    points: int
    players: tuple[int, ...]
    region: int = -1


def route_tier_points(route: Route, n_players: int, next_tier: int) -> int:
    """What achieving the route scores now: the tier on offer; after the last tier, the last one again
    where it repeats (USA's "1pt for anyone else"), else nothing."""
    tiers = route.tiers_for(n_players)
    if next_tier < len(tiers):
        return tiers[next_tier]
    return tiers[-1] if route.last_tier_repeats else 0


def route_tier_after(route: Route, n_players: int, next_tier: int) -> int:
    """The tier on offer once this one is taken (circled by its achievers, crossed out by the others).

    A repeating last tier is never crossed out, and once no tier is left none is; so the index never runs
    past the tiers (see rules/CLARIFICATIONS.md, "A route tier is used up only when it is scored").
    """
    tiers = route.tiers_for(n_players)
    last_open = len(tiers) - 1 if route.last_tier_repeats else len(tiers)
    return next_tier + 1 if next_tier < last_open else next_tier


def settle_bonuses(edition: Edition, sheets: BonusSheets, n_players: int, regions_completed: Sequence[int],
                   route_achieved_now: int, notes: list[list[str]] | None = None,
                   awards: list[Award] | None = None) -> tuple[list[int], list[int]]:
    """Settle one round's shared bonuses; updates `sheets` in place and returns (region, route) points.

    `regions_completed[p]` is the bitmask of regions player p completed this round; `route_achieved_now`
    the bitmask of players who achieved the route this round (a player who scored it before is ignored:
    each scores it once). With `notes` (one list per player), each award is explained there, and a region
    completed after someone else took it is noted as struck out; with `awards`, each bonus settled is
    listed there (regions in the edition's order, then the route).
    """
    region_points = [0] * n_players
    route_points = [0] * n_players
    completed_any = 0
    for mask in regions_completed:
        completed_any |= mask
    if not completed_any and not route_achieved_now:  # most rounds: nothing to settle
        return region_points, route_points
    if completed_any:
        claimed = sheets.regions_claimed
        regions = edition.regions
        rest = completed_any
        while rest:  # the completed regions only, in the edition's order (lowest bit first)
            bit = rest & -rest
            rest ^= bit
            region = regions[bit.bit_length() - 1]
            achievers = [p for p in range(n_players) if regions_completed[p] & bit]
            if claimed & bit:
                if notes is not None:
                    for p in achievers:
                        notes[p].append(wording.region_struck_out(region.name))
                continue
            sheets.regions_claimed |= bit
            if awards is not None:
                awards.append(Award(region.name, region.bonus, tuple(achievers), region.index))
            for p in achievers:
                region_points[p] += region.bonus
                if notes is not None:
                    notes[p].append(wording.region_bonus(region.name, region.bonus, len(achievers) > 1))
    route = edition.route
    achievers_mask = route_achieved_now & ~sheets.route_done
    if route is not None and achievers_mask:
        points = route_tier_points(route, n_players, sheets.route_next_tier)
        sheets.route_next_tier = route_tier_after(route, n_players, sheets.route_next_tier)
        sheets.route_done |= achievers_mask
        shared = achievers_mask.bit_count() > 1
        if awards is not None:
            awards.append(Award(route.name, points, tuple(p for p in range(n_players) if achievers_mask >> p & 1)))
        for p in range(n_players):
            if achievers_mask >> p & 1:
                route_points[p] = points
                if notes is not None:
                    notes[p].append(wording.route_bonus(route.name, points, shared))
    return region_points, route_points


class BonusesOpen(NamedTuple):
    """What is still on offer to the table: the regions nobody has claimed yet (by index, in the edition's
    order) and the route tiers still to be scored, next first (a repeating last tier stays on offer)."""

    regions: tuple[int, ...]
    route_tiers: tuple[int, ...]


def bonuses_open(edition: Edition, sheets: BonusSheets, n_players: int) -> BonusesOpen:
    """The shared bonuses still open after the rounds settled into `sheets` (the crossed-out tiers and the
    claimed regions are gone; see `route_tier_after` for why a repeating tier never is)."""
    regions = tuple(r.index for r in edition.regions if not sheets.regions_claimed >> r.index & 1)
    route = edition.route
    tiers = () if route is None else tuple(route.tiers_for(n_players)[sheets.route_next_tier:])
    return BonusesOpen(regions, tiers)
