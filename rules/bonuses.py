"""The shared first-come bonuses, settled across the table at the end of a round: the one place they are.

Two kinds, both "first come": a region's bonus goes to whoever first completes the region, shared by
everyone completing it in the same round; the route bonus (Europe's passport, USA's coast to coast) is
tiered by order of achievement, and everyone achieving it in the same round shares the highest tier still
on offer. Letters mode (engine, records, tables, solo) and category mode both say *who achieved what this
round* and call `settle_bonuses`; neither knows how the tiers run.

Hot path: the engine settles every round of every simulated game, so the inputs are bitmasks and ints and
the explanation lines are built only when asked for; so are the struck-out regions a round summary names
(`rules.wording.round_bonus_summary`). `bonus_marks` gives what the sheets show after the closed rounds
(each region's star, the route's tiers), for the table's screens.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
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
    """One bonus settled in a round: a region's (by index) or the route's (`region` = -1), and who scored it.

    `tier` is the route tier scored, as an index into `Route.tiers_for(n_players)` (0 = first place): the
    tier on offer when they achieved it. It equals the number of tiers when none was left (Europe's fourth
    passport, 0 points); a repeating last tier (USA's "anyone else") keeps its index. -1 for a region.
    """

    name: str
    points: int
    players: tuple[int, ...]
    region: int = -1
    tier: int = -1


class StruckOut(NamedTuple):
    """A region completed in a round after someone else had taken its bonus: no points (the paper pad's
    scribbled-over star). Listed only when asked for; never part of the awards."""

    name: str
    region: int
    players: tuple[int, ...]


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
                   awards: list[Award] | None = None, struck_out: list[StruckOut] | None = None,
                   ) -> tuple[list[int], list[int]]:
    """Settle one round's shared bonuses; updates `sheets` in place and returns (region, route) points.

    `regions_completed[p]` is the bitmask of regions player p completed this round; `route_achieved_now`
    the bitmask of players who achieved the route this round (a player who scored it before is ignored:
    each scores it once). With `notes` (one list per player), each award is explained there, and a region
    completed after someone else took it is noted as struck out; with `awards`, each bonus settled is
    listed there (regions in the edition's order, then the route); with `struck_out`, each region
    completed here after someone else took it (category mode types those; letters mode finds them with
    `regions_struck_out`).
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
            # a loop, not a comprehension: a comprehension costs a frame per region, in every round the engine
            # settles
            achievers = []
            for p, done in enumerate(regions_completed):
                if done & bit:
                    achievers.append(p)
            if claimed & bit:
                if struck_out is not None:
                    struck_out.append(StruckOut(region.name, region.index, tuple(achievers)))
                if notes is not None:
                    for p in achievers:
                        notes[p].append(wording.region_struck_out(region.label))
                continue
            sheets.regions_claimed |= bit
            if awards is not None:
                awards.append(Award(region.name, region.bonus, tuple(achievers), region.index))
            for p in achievers:
                region_points[p] += region.bonus
                if notes is not None:
                    notes[p].append(wording.region_bonus(region.label, region.bonus, len(achievers) > 1))
    route = edition.route
    achievers_mask = route_achieved_now & ~sheets.route_done
    if route is not None and achievers_mask:
        tier = sheets.route_next_tier
        points = route_tier_points(route, n_players, tier)
        sheets.route_next_tier = route_tier_after(route, n_players, sheets.route_next_tier)
        sheets.route_done |= achievers_mask
        shared = achievers_mask.bit_count() > 1
        if awards is not None:
            awards.append(Award(route.name, points, tuple(p for p in range(n_players) if achievers_mask >> p & 1),
                                tier=tier))
        for p in range(n_players):
            if achievers_mask >> p & 1:
                route_points[p] = points
                if notes is not None:
                    notes[p].append(wording.route_bonus(route.label, points, shared))
    return region_points, route_points


def regions_struck_out(edition: Edition, claimed: int, visited_before: Sequence[int],
                       visited_after: Sequence[int]) -> list[StruckOut]:
    """Letters mode: the regions in `claimed` (taken in an earlier round) that a player's sheet completes
    this round. They score nothing; only a round summary that says so asks for them (not the hot path)."""
    struck = []
    for region in edition.regions:
        if not claimed >> region.index & 1:
            continue
        rmask = region.mask
        players = tuple(p for p, (before, after) in enumerate(zip(visited_before, visited_after, strict=True))
                        if after & rmask == rmask and before & rmask != rmask)
        if players:
            struck.append(StruckOut(region.name, region.index, players))
    return struck


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


# --- The marks on the sheets: what a paper pad shows after the closed rounds -----------------------------------

@dataclass(frozen=True, slots=True)
class RegionMark:
    """One region's bonus star: circled by whoever took it (in `round`, numbered from 1), or still open."""

    index: int
    name: str
    points: int
    color: str
    #: The round it was taken in (from 1), None while it is open.
    round: int | None
    #: Who took it (player indices, several when completed in the same round); empty while open.
    players: tuple[int, ...]

    @property
    def open(self) -> bool:
        return self.round is None


@dataclass(frozen=True, slots=True)
class RouteTaking:
    """One round's settlement of the route bonus: who achieved it, the tier they shared, its points."""

    round: int
    players: tuple[int, ...]
    #: Index into the tiers (0 = first place); the number of tiers when none was left (0 points).
    tier: int
    points: int


@dataclass(frozen=True, slots=True)
class TierMark:
    """One route tier as printed next to the route's icon: who circled it and when, or still on offer."""

    index: int
    points: int
    #: The takings of this tier: one at most, several for a repeating last tier (USA's "anyone else").
    takings: tuple[RouteTaking, ...]
    #: The tier the next achiever(s) will score.
    on_offer_next: bool
    #: Still to be scored by someone (a repeating last tier stays open after it is taken).
    open: bool


@dataclass(frozen=True, slots=True)
class RouteMarks:
    name: str
    tiers: tuple[TierMark, ...]
    #: Every settlement in order, including one that came after the last tier (0 points, takes nothing).
    takings: tuple[RouteTaking, ...]
    #: Whether the last tier goes on being awarded ("1pt for anyone else").
    last_repeats: bool
    #: Index of the tier on offer next, None once no tier is left.
    next_tier: int | None

    @property
    def open_points(self) -> tuple[int, ...]:
        """The points still on offer, next first (as `bonuses_open` gives them)."""
        return tuple(t.points for t in self.tiers if t.open)


@dataclass(frozen=True, slots=True)
class BonusMarks:
    """The shared first-come bonuses after the closed rounds: every region's star and the route's tiers."""

    regions: tuple[RegionMark, ...]
    route: RouteMarks | None


def bonus_marks(edition: Edition, awards: Sequence[Sequence[Award]], sheets: BonusSheets,
                n_players: int) -> BonusMarks:
    """The marks on the sheets after the rounds whose awards (one list per closed round, in order, as
    `score_rounds(..., awards=)` lists them) were settled into `sheets` (the carried `ScoreState`)."""
    still_open = bonuses_open(edition, sheets, n_players)
    region_taken = {a.region: (r + 1, a.players) for r, settled in enumerate(awards) for a in settled
                    if a.region >= 0}
    regions = []
    for region in edition.regions:
        taken_round, players = region_taken.get(region.index, (None, ()))
        if region.index in still_open.regions:
            taken_round, players = None, ()
        regions.append(RegionMark(region.index, region.name, region.bonus, region.color, taken_round, players))
    route = edition.route
    if route is None:
        return BonusMarks(tuple(regions), None)
    tiers = route.tiers_for(n_players)
    takings = tuple(RouteTaking(r + 1, a.players, a.tier, a.points)
                    for r, settled in enumerate(awards) for a in settled if a.region < 0)
    next_tier = sheets.route_next_tier if sheets.route_next_tier < len(tiers) else None
    tier_marks = tuple(
        TierMark(i, points, tuple(t for t in takings if t.tier == i), i == next_tier,
                 i >= sheets.route_next_tier)
        for i, points in enumerate(tiers))
    return BonusMarks(tuple(regions), RouteMarks(route.name, tier_marks, takings, route.last_tier_repeats,
                                                 next_tier))
