"""Scoring: one small function per category, and the round-end resolution of the shared bonuses.

Every category function returns `(points, explanation)`; the explanation is built only when asked for,
so the simulator pays for integers alone. Editions differ by data (rule names and icon tables), never by
`if edition == ...`: a rule name selects one of the small functions below.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import compress, repeat
from math import floor
from typing import NamedTuple

from rules import wording
from rules.bonuses import Award, StruckOut, regions_struck_out, route_tier_after, route_tier_points, settle_bonuses
from rules.edition import TALLY_COLLECTION_BITS, TALLY_FIELD, Edition, Family, Tally

NO_CHOICE = -1
#: Cards in a row (a hand of 7, all drafted).
HAND_SIZE = 7


class RoundScore(NamedTuple):
    """One player's points for one round, in score-sheet order."""

    throw_catch: int
    collection: int
    pairs: int
    choice: int
    #: Tourist sites first visited this round (+1 each; the paper pad counts them at game end).
    sites: int
    regions: int
    route: int

    @property
    def total(self) -> int:
        return (self.throw_catch + self.collection + self.pairs + self.choice + self.sites
                + self.regions + self.route)


def category_points(edition: Edition, score: RoundScore) -> dict[str, int]:
    """A round's points by the edition's category ids (`Edition.category_ids()` order), by field name."""
    points = {"throw_catch": score.throw_catch, edition.collection.id: score.collection,
              edition.pairs.id: score.pairs, edition.choice.id: score.choice, "sites": score.sites,
              "regions": score.regions}
    if edition.route is not None:
        points[edition.route.id] = score.route
    return points


Scored = tuple[int, str | None]


# --- Throw & Catch ----------------------------------------------------------------------------------------

def _difference(throw: int, catch: int) -> int:
    return abs(throw - catch)


def _throw_if_caught(throw: int, catch: int) -> int:
    return throw if catch >= throw else 0


THROW_CATCH_RULES: dict[str, Callable[[int, int], int]] = {
    "difference": _difference,
    "throw_if_caught": _throw_if_caught,
}


def score_throw_catch(edition: Edition, row: Sequence[int], explain: bool = False) -> Scored:
    numbers = edition.numbers
    points = THROW_CATCH_RULES[edition.throw_catch_rule](numbers[row[0]], numbers[row[-1]])
    if not explain:
        return points, None
    throw, catch = edition.cards[row[0]], edition.cards[row[-1]]
    how = wording.throw_catch_cards(throw.letter, throw.number, catch.letter, catch.number)
    return points, wording.throw_catch(edition.throw_catch_rule, how, points)


# --- Collections / Cuisine / Americana --------------------------------------------------------------------

def _double_if_at_most_7(total: int, previous_score: int) -> int:
    return total * 2 if total <= 7 else total


def _halve_above_7(total: int, previous_score: int) -> int:
    return total if total <= 7 else (total + 1) // 2


def _must_beat_previous(total: int, previous_score: int) -> int:
    # previous_score is -1 before the first round, so round 1 always scores; after a 0, any total ≥ 1 does.
    return total if total > previous_score else 0


COLLECTION_RULES: dict[str, Callable[[int, int], int]] = {
    "double_if_at_most_7": _double_if_at_most_7,
    "halve_above_7": _halve_above_7,
    "must_beat_previous": _must_beat_previous,
}


def score_collection(edition: Edition, row_mask: int, previous_score: int, explain: bool = False) -> Scored:
    family = edition.collection
    total = 0
    for mask, value in family.masks_values:
        total += value * (row_mask & mask).bit_count()
    points = COLLECTION_RULES[family.rule](total, previous_score)
    if not explain:
        return points, None
    parts = wording.collection_parts([(icon.label, icon.value, (row_mask & icon.mask).bit_count())
                                      for icon in family.icons if row_mask & icon.mask])
    return points, wording.collection(family.label, parts, family.rule, total, previous_score, points)


# --- Animals / Transport: pairs -----------------------------------------------------------------------------

def score_pairs(edition: Edition, row_mask: int, explain: bool = False) -> Scored:
    """Each pair of one icon scores its value once: 3 of a kind is one pair, 4 of a kind two."""
    family = edition.pairs
    points = 0
    for mask, value in family.masks_values:
        points += value * ((row_mask & mask).bit_count() >> 1)
    if not explain:
        return points, None
    parts = []
    for icon in family.icons:
        n = (row_mask & icon.mask).bit_count()
        if n:
            pairs = n >> 1
            parts.append(wording.pairs_part(icon.label, n, pairs, icon.value * pairs))
    return points, wording.pairs(family.label, parts, points)


# --- Activities / National Treasures: the optional round-end choice -----------------------------------------

def icon_count(family: Family, icon: int, row_mask: int) -> int:
    return (row_mask & family.icons[icon].mask).bit_count()


def _activity_table(family: Family, own: int, others: int, n_players: int) -> int:
    return family.table[min(own, len(family.table) - 1)]


def _treasure_others(family: Family, own: int, others: int, n_players: int) -> int:
    return dict(family.per_icon_by_players)[n_players] * others


CHOICE_RULES: dict[str, Callable[[Family, int, int, int], int]] = {
    "activity_table": _activity_table,
    "treasure_others": _treasure_others,
}


def _activity_text(family: Family, icon: int, own: int, others: int, n_players: int, points: int) -> str:
    return wording.choice_own(family.label, family.icons[icon].label, own, points)


def _treasure_text(family: Family, icon: int, own: int, others: int, n_players: int, points: int) -> str:
    per_icon = dict(family.per_icon_by_players)[n_players]
    return wording.choice_others(family.label, family.icons[icon].label, others, per_icon, n_players, points)


CHOICE_TEXTS: dict[str, Callable[[Family, int, int, int, int, int], str]] = {
    "activity_table": _activity_text,
    "treasure_others": _treasure_text,
}


def score_choice(edition: Edition, choice: int, row_mask: int, everyone_count: int, n_players: int,
                 explain: bool = False) -> Scored:
    """`everyone_count` is how many cards with the chosen icon all players drafted this round."""
    family = edition.choice
    if choice == NO_CHOICE:
        return 0, (wording.choice_none(family.label) if explain else None)
    own = (row_mask & family.icons[choice].mask).bit_count()
    points = CHOICE_RULES[family.rule](family, own, everyone_count - own, n_players)
    if not explain:
        return points, None
    return points, CHOICE_TEXTS[family.rule](family, choice, own, everyone_count - own, n_players, points)


def choice_option_points(edition: Edition, rows: Sequence[Sequence[int]], player: int,
                         masks: Sequence[int] | None = None) -> list[tuple[int, int]]:
    """(icon, points) for every choice icon this player holds at least one of, ignoring what is used up.

    `masks` (optional) are the rows as bitmasks, if the caller keeps them (the hard bot's rollouts do).
    """
    if masks is None:
        masks = [row_mask(r) for r in rows]
    family = edition.choice
    rule = CHOICE_RULES[family.rule]
    own_mask, n = masks[player], len(rows)
    out = []
    for icon_index, icon_mask in enumerate(family.icon_masks):
        own = (own_mask & icon_mask).bit_count()
        if own:  # as score_choice scores it: own icons, and everyone's count of the icon
            everyone = 0
            for mask in masks:
                everyone += (mask & icon_mask).bit_count()
            out.append((icon_index, rule(family, own, everyone - own, n)))
    return out


def choice_may_rise(edition: Edition, choice: int, row_mask: int, others_count: int, n_players: int,
                    unseen_players: int) -> bool:
    """Whether `choice`'s points could still go up once `unseen_players` other players' cards are in, their
    icons counted so far being `others_count`: asked of the edition's own rule (an activity reads only one's
    own cards, so never; a treasure reads the others', so while some of its cards are unaccounted for)."""
    if unseen_players <= 0:
        return False
    family = edition.choice
    rule = CHOICE_RULES[family.rule]
    icon_mask = family.icons[choice].mask
    own = (row_mask & icon_mask).bit_count()
    now = rule(family, own, others_count, n_players)
    unaccounted = icon_mask.bit_count() - own - others_count
    return any(rule(family, own, others_count + more, n_players) > now
               for more in range(1, min(unaccounted, HAND_SIZE * unseen_players) + 1))


class MissedChoice(NamedTuple):
    """The choice a round saved with none would leave unscored (see `choice_left_unscored`)."""

    choice: int
    points: int
    may_rise: bool


def choice_left_unscored(options: Sequence[MissedChoice]) -> MissedChoice | None:
    """Of the choices a player may still score this round (held, not used up), the one a save with no
    choice gives up: the most points (one that may still rise first among equals); None when none scores or
    may score, so there is nothing to ask."""
    worth = [o for o in options if o.points > 0 or o.may_rise]
    if not worth:
        return None
    return max(worth, key=lambda o: (o.points, o.may_rise))


# --- The round as a whole, with the shared first-come bonuses -----------------------------------------------

@dataclass(slots=True)
class ScoreState:
    """What the score sheets carry from one round to the next, for the whole table."""

    n_players: int
    visited: list[int] = field(default_factory=list)
    #: Last round's collection *score* per player (USA's Americana must beat it); -1 before round 1.
    previous_collection: list[int] = field(default_factory=list)
    #: Per player, a bitmask of the choice icons (activities / treasures) already scored this game.
    choices_used: list[int] = field(default_factory=list)
    regions_claimed: int = 0
    #: Bitmask of the players who have scored the route bonus (each scores it once).
    route_done: int = 0
    route_next_tier: int = 0
    #: USA's coast to coast, per player: (the sheet it was last read from, the towns reached from the west coast
    #: on it, the towns one pathway from those or on the west coast and not reached), so that the next round's
    #: reading goes on from there (`route_achievers`); empty until the route is read, and read afresh for a
    #: sheet that did not grow from it. Not part of what the sheets say (no comparison looks at it).
    route_reach: list[tuple[int, int, int]] = field(default_factory=list, compare=False, repr=False)

    def __post_init__(self) -> None:
        n = self.n_players
        self.visited = self.visited or [0] * n
        self.previous_collection = self.previous_collection or [-1] * n
        self.choices_used = self.choices_used or [0] * n

    def copy(self) -> ScoreState:
        return ScoreState(self.n_players, self.visited[:], self.previous_collection[:], self.choices_used[:],
                          self.regions_claimed, self.route_done, self.route_next_tier, self.route_reach[:])


def row_mask(row: Sequence[int]) -> int:
    mask = 0
    for card in row:
        mask |= 1 << card
    return mask


def route_achieved(edition: Edition, visited: int, tables: RoundTables | None = None) -> bool:
    """Whether a sheet with these sites visited has the edition's route; `tables` (optional) are the edition's
    `round_tables`, if the caller has them. (The bots ask it for sheet after sheet: it reads one sheet.)"""
    route = edition.route
    if route is None:
        return False
    if route.kind == "passport":  # a card of every region
        low, mid, high = (tables or round_tables(edition)).regions_touched
        return (low[visited & MASK_LOW_BITS] | mid[visited >> MASK_CHUNK_1 & MASK_MID_BITS]
                | high[visited >> MASK_CHUNK_2]) == (1 << len(edition.regions)) - 1
    # coast: spread from the visited west-coast towns along pathways between visited towns, a step at a time
    # (every town one pathway from the reached ones, three table lookups); a sheet without an east-coast
    # town has no chain to look for
    if not visited & route.east_mask:
        return False
    low, mid, high = (tables or round_tables(edition)).pathways
    reach = visited & route.west_mask
    while reach:
        if reach & route.east_mask:
            return True
        grown = visited & (reach | low[reach & MASK_LOW_BITS] | mid[reach >> MASK_CHUNK_1 & MASK_MID_BITS]
                           | high[reach >> MASK_CHUNK_2])
        if grown == reach:
            return False
        reach = grown
    return False


def drawn_pathways(edition: Edition, visited: int) -> list[tuple[int, int]]:
    """USA: the pathways whose two towns are both visited (the lines a player draws on the pad)."""
    route = edition.route
    if route is None:
        return []
    return [(a, b) for a, b in route.edges if visited >> a & 1 and visited >> b & 1]


def route_achievers(edition: Edition, state: ScoreState, visited_after: Sequence[int],
                    tables: RoundTables | None = None) -> int:
    """Bitmask of the players who achieve the route this round (each scores it once: earlier achievers not)."""
    route = edition.route
    if route is None:
        return 0
    done, now, tables = state.route_done, 0, tables or round_tables(edition)
    if route.kind == "passport":
        # (sheet by sheet: the engine's whole-round play reads the passport inline, in `round_score_fields`)
        for p, visited in enumerate(visited_after):
            if not done >> p & 1 and route_achieved(edition, visited, tables):
                now |= 1 << p
        return now
    # coast to coast: each sheet's towns reached from the west coast, a pathway at a time, going on from where
    # last round's reading of the sheet left them (a sheet only grows; `ScoreState.route_reach`)
    pathways, west, east = tables.town_pathways, route.west_mask, route.east_mask
    reaches = state.route_reach
    if len(reaches) != len(visited_after):
        reaches[:] = [(0, 0, west)] * len(visited_after)
    for p, visited in enumerate(visited_after):
        # (a sheet without an east-coast town has no chain to look for: its reading waits)
        if done & _PLAYER_BITS[p] or not visited & east:
            continue
        read, reach, near = reaches[p]
        if visited | read != visited:  # not grown from the sheet last read: read it afresh
            reach, near = 0, west
        # `near`: the west coast and every town one pathway from a reached one (the reached ones among them),
        # so the visited towns among them are the ones reached after one more step; the reading stops at the
        # east coast (a later one goes on from there, should it be asked)
        while (grown := visited & near) != reach:
            near |= pathways[grown - reach]
            reach = grown
            if reach & east:
                break
        reaches[p] = (visited, reach, near)
        if reach & east:
            now |= _PLAYER_BITS[p]
    return now


class _TownPathways(dict):
    """`RoundTables.town_pathways`: a set of towns (bitmask) → every town one pathway from them, read from the
    chunk tables the first time the set comes and kept (the coast-to-coast reading steps through a few hundred
    sets in any number of games; a dict read costs less than the chunks' three reads)."""

    __slots__ = ("chunks",)

    def __init__(self, chunks: tuple[tuple[int, ...], ...]) -> None:
        super().__init__()
        self.chunks = chunks

    def __missing__(self, towns: int) -> int:
        low, mid, high = self.chunks
        near = self[towns] = (low[towns & MASK_LOW_BITS] | mid[towns >> MASK_CHUNK_1 & MASK_MID_BITS]
                              | high[towns >> MASK_CHUNK_2])
        return near


def resolve_round(edition: Edition, state: ScoreState, rows: Sequence[Sequence[int]], choices: Sequence[int],
                  explain: bool = False, masks: Sequence[int] | None = None, awards: list[Award] | None = None,
                  struck_out: list[StruckOut] | None = None) -> tuple[list[RoundScore], list[list[str]]]:
    """Score one round for every player and settle the shared bonuses; updates `state` in place.

    `rows[p]` is player p's 7 cards in draft order (Throw first, Catch last); `choices[p]` is the choice
    icon index or NO_CHOICE; `masks` (optional) are the rows as bitmasks, if the caller keeps them. Inputs
    are trusted: they were validated at the edge (engine legality, record validation). Returns the scores
    and, when `explain`, each player's explanation lines; `awards` (optional) receives the shared bonuses
    settled (`rules.bonuses.settle_bonuses`), `struck_out` (optional) the regions completed this round
    after an earlier round took them (for a round summary; not looked for otherwise).
    """
    n = state.n_players
    if masks is None:
        masks = [row_mask(row) for row in rows]
    if not explain and struck_out is None:  # the engine's hot path: no words, no struck-out regions
        return score_round(edition, state, rows, choices, masks, awards), [[] for _ in range(n)]
    choice_icons = edition.choice.icons
    visited = state.visited
    scores: list[RoundScore] = []
    notes: list[list[str]] = [[] for _ in range(n)]
    visited_after = [visited[p] | masks[p] for p in range(n)]

    # Who completed what this round: a region still unclaimed that a sheet now covers was completed this
    # round (had it been complete before, it would be claimed), so only those need looking at.
    regions_completed = [0] * n
    claimed = state.regions_claimed
    for region in edition.regions:
        bit = 1 << region.index
        if claimed & bit:
            continue
        rmask = region.mask
        for p in range(n):
            if visited_after[p] & rmask == rmask:
                regions_completed[p] |= bit
    route_now = route_achievers(edition, state, visited_after)
    if struck_out is not None:
        struck_out.extend(regions_struck_out(edition, claimed, visited, visited_after))
    region_points, route_points = settle_bonuses(edition, state, n, regions_completed, route_now,
                                                 notes if explain else None, awards)

    for p in range(n):
        mask = masks[p]
        choice = choices[p]
        everyone = 0
        if choice >= 0:
            icon_mask = choice_icons[choice].mask
            for m in masks:
                everyone += (m & icon_mask).bit_count()
        tc, tc_text = score_throw_catch(edition, rows[p], explain)
        col, col_text = score_collection(edition, mask, state.previous_collection[p], explain)
        prs, prs_text = score_pairs(edition, mask, explain)
        ch, ch_text = score_choice(edition, choice, mask, everyone, n, explain)
        new_sites = mask & ~visited[p]
        scores.append(RoundScore(tc, col, prs, ch, new_sites.bit_count(), region_points[p], route_points[p]))
        if explain:
            new_letters = ", ".join(edition.letters_of(new_sites))
            notes[p][:0] = [tc_text, col_text, prs_text, ch_text,
                            wording.sites_new(edition, new_letters, new_sites.bit_count())]
        visited[p] = visited_after[p]
        state.previous_collection[p] = col
        if choice >= 0:
            state.choices_used[p] |= 1 << choice
    return scores, notes


_new_score = tuple.__new__
#: A RoundScore's fields before its two shared-bonus fields (regions, route), which close it.
_BONUS_FIELDS = len(RoundScore._fields) - 2
#: A RoundScore's fields before its last, the route bonus.
_ROUTE_FIELD = len(RoundScore._fields) - 1
_FIELD = (1 << TALLY_FIELD) - 1
_COLLECTION_FIELD = (1 << TALLY_COLLECTION_BITS) - 1
#: A row's Catch card, its last: read at a non-negative index (the interpreter's quick tuple read takes no
#: negative one).
_CATCH = HAND_SIZE - 1


@dataclass(frozen=True, slots=True)
class RoundTables:
    """An edition's rules as lookup tables for `score_round`, made once per edition from the rules above.

    A sheet is read in three chunks of its bitmask (`_CHUNKS`): its regions are three lookups; a row's icons
    are its cards' tallies added up (`card_pair_tallies`), read through small tables filled as rows come.
    (A slots class: reading a field is one of the interpreter's quick steps, where a NamedTuple's field costs
    a descriptor call; the scoring reads a dozen per round.)
    """

    #: Per Throw card, per Catch card: the Throw & Catch points (the edition's rule, applied ahead of time).
    throw_catch: tuple[tuple[int, ...], ...]
    #: Per collection total, per last round's collection score + 1 (-1 before round 1): the points.
    collection: tuple[tuple[int, ...], ...]
    #: Per player count: per own icons, per the other players' icons, a choice's points; and whether they depend
    #: on the other players' icons (a table's rows differ). Made for a player count when first asked for.
    choice: dict[int, tuple[tuple[tuple[int, ...], ...], bool]]
    #: Per chunk of a sheet's visited mask (`_CHUNKS`), per value: the bitmask of the regions none of whose
    #: cards in that chunk is missing; AND the chunks' for the regions the sheet covers.
    regions_covered: tuple[tuple[int, ...], ...]
    #: Per chunk of a mask, per value: the bitmask of the regions its cards belong to (OR the chunks'); built for
    #: Europe's passport alone (empty otherwise).
    regions_touched: tuple[tuple[int, ...], ...]
    #: Per chunk of a mask, per value: every card one pathway from its cards (USA's map; OR the chunks').
    pathways: tuple[tuple[int, ...], ...]
    #: A set of towns (bitmask) → every town one pathway from them (`_TownPathways`, filled as sets come).
    town_pathways: dict[int, int]
    #: Per choice icon: where its field starts in a `Tally`.
    choice_at: tuple[int, ...]
    #: The edition's `Tally` (pair_halves, pair_weights, pair_points_at): how a tally's pairs points are read.
    pair_reading: tuple[int, int, int]
    #: Per card: its `Tally` (a row's tally is the sum of its cards'; the engine's whole-round play adds them).
    card_tallies: tuple[int, ...]
    #: Per card, per card: the two cards' bits added up, and their tallies (the engine adds a row's up a pair at
    #: a time: fewer additions of big ints).
    card_pair_bits: tuple[tuple[int, ...], ...]
    card_pair_tallies: tuple[tuple[int, ...], ...]
    #: Where a `Tally`'s choice fields start: `tally >> choice_held_at` is the row's choice icon counts, the key
    #: of `choice_icons`.
    choice_held_at: int
    #: A row's choice icon counts (`tally >> choice_held_at`) → (bitmask of the icons it holds, its count of each
    #: icon in icon order and a last 0). Filled as rows come (`_ChoiceIcons`): a few hundred keys at most.
    choice_icons: dict[int, tuple[int, tuple[int, ...]]]
    #: Per bitmask of the icons already scored, per bitmask of the icons a row holds: the round-end options, in
    #: `legal_actions` order — no choice (NO_CHOICE) first, then the icons held and not scored, in icon
    #: order — and how many they are (as a float, for a random draw × that many).
    choice_offers: tuple[tuple[tuple[tuple[int, ...], float], ...], ...]
    #: A row's pairs, the halves of its pairs fields (`tally >> pairs_at & pairs_fields`), → its pairs points.
    #: Filled as rows come (`_PairsPoints`): a few dozen keys in practice.
    pairs_at: int
    pairs_fields: int
    pairs_points: dict[int, int]
    #: Per bitmask of regions: the sum of their bonuses (a player completing several in one round scores each).
    region_points: tuple[int, ...]
    #: Whether the route is Europe's passport (read from the same chunks of a sheet as its regions).
    passport: bool
    #: Per player count, per route tier on offer (`ScoreState.route_next_tier`): what achieving the route scores
    #: then and the tier on offer after (`route_tier_points`, `route_tier_after`); empty without a route.
    route_tiers: dict[int, tuple[tuple[int, int], ...]]


class _PairsPoints(dict):
    """`RoundTables.pairs_points`: works out the pairs points of a row's pairs read the first time they come (by
    the rule, `Tally.pairs_points`) and keeps them; the scoring reads it with a dict read (a row holds at most 3
    pairs of an icon: a few dozen keys come in any number of games)."""

    __slots__ = ("tally",)

    def __init__(self, tally: Tally) -> None:
        super().__init__()
        self.tally = tally

    def __missing__(self, halves: int) -> int:
        # (the halved fields back in their place in a tally: each field twice its pairs)
        points = self[halves] = self.tally.pairs_points(halves << TALLY_COLLECTION_BITS + 1)
        return points


class _ChoiceIcons(dict):
    """`RoundTables.choice_icons`: a row's choice icon counts read from its tally's choice fields the first time
    they come, and kept (by C-level maps: a few hundred keys come in the first games)."""

    __slots__ = ("bits", "shifts")

    def __init__(self, n_icons: int) -> None:
        super().__init__()
        self.shifts = tuple(TALLY_FIELD * i for i in range(n_icons))
        self.bits = tuple(1 << i for i in range(n_icons))

    def __missing__(self, fields: int) -> tuple[int, tuple[int, ...]]:
        counts = tuple(map(_FIELD.__and__, map(fields.__rshift__, self.shifts)))
        entry = self[fields] = (sum(compress(self.bits, counts)), (*counts, 0))
        return entry


class _ChoicePoints(dict):
    """`RoundTables.choice`: a player count's table of choice points (by the rule, for every own count and
    every count of the other players' icons), made when a table of that many players is first scored."""

    __slots__ = ("family", "rule")

    def __init__(self, family: Family, rule: Callable[[Family, int, int, int], int]) -> None:
        super().__init__()
        self.family, self.rule = family, rule

    def __missing__(self, n: int) -> tuple[tuple[tuple[int, ...], ...], bool]:
        table = tuple(tuple(map(self.rule, repeat(self.family), repeat(own), range(HAND_SIZE * (n - 1) + 1), repeat(n)))
                      for own in range(HAND_SIZE + 1))
        entry = self[n] = (table, any(len(set(by_own)) > 1 for by_own in table))
        return entry


#: Player (or choice icon) → their bit in a bitmask of players (of icons).
_PLAYER_BITS = tuple(1 << i for i in range(32))


_ROUND_TABLES: dict[int, tuple[Edition, RoundTables]] = {}


def round_tables(edition: Edition) -> RoundTables:
    # keyed by identity: an Edition holds its pydantic spec, which is not hashable; the entry keeps it alive
    entry = _ROUND_TABLES.get(id(edition))
    if entry is None or entry[0] is not edition:
        entry = _ROUND_TABLES[id(edition)] = (edition, _build_round_tables(edition))
    return entry[1]


#: Every edition has 28 cards (A–Z, @, #); the tables read a mask in three chunks: cards 0–9, 10–18, 19–27
#: (a table per chunk is indexed by its bits: at most 1024 entries, built in a few milliseconds).
MASK_CHUNK_1, MASK_CHUNK_2 = 10, 19
MASK_LOW_BITS, MASK_MID_BITS = (1 << MASK_CHUNK_1) - 1, (1 << MASK_CHUNK_2 - MASK_CHUNK_1) - 1
_CHUNKS = ((0, MASK_CHUNK_1), (MASK_CHUNK_1, MASK_CHUNK_2), (MASK_CHUNK_2, 28))


def _chunk_tables(per_card: Sequence[int], combine: Callable[[int, int], int]) -> tuple[tuple[int, ...], ...]:
    """Per chunk of a mask, per value of its bits: `per_card` combined over the cards set in it (0 for none)."""
    tables = []
    for start, stop in _CHUNKS:
        # doubling: the values with the chunk's next card set are those without it, combined with that card's
        table = [0]
        for card in range(start, stop):
            table += list(map(combine, table, repeat(per_card[card] if card < len(per_card) else 0)))
        tables.append(tuple(table))
    return tuple(tables)


def _build_round_tables(edition: Edition) -> RoundTables:
    if len(edition.cards) > _CHUNKS[-1][1]:
        raise ValueError(f"{edition.id}: the scoring tables read at most {_CHUNKS[-1][1]} cards")
    rule = THROW_CATCH_RULES[edition.throw_catch_rule]
    collection_rule, choice_rule = COLLECTION_RULES[edition.collection.rule], CHOICE_RULES[edition.choice.rule]
    numbers = edition.numbers
    cards = range(len(numbers))
    # a row holds 7 cards: its collection total is at most its 7 best values, and the score it must beat
    # (USA) was such a total too
    most_collected = sum(sorted(edition.collection_values)[-HAND_SIZE:])
    every_region = (1 << len(edition.regions)) - 1
    card_regions = [sum(1 << region.index for region in edition.regions if region.mask >> c & 1) for c in cards]
    # a chunk covers the regions none of whose cards in it is missing: all but those of its unset cards
    # (doubling: the values without the chunk's next card lack its region, those with it cover what they did)
    regions_covered = []
    for start, stop in _CHUNKS:
        table = [every_region]
        for card in range(start, stop):
            keep = every_region & ~card_regions[card] if card < len(card_regions) else every_region
            table = list(map(operator.and_, table, repeat(keep))) + table
        regions_covered.append(tuple(table))
    # (the regions a sheet touches: read for the passport alone)
    passport = edition.route is not None and edition.route.kind == "passport"
    regions_touched = _chunk_tables(card_regions, operator.or_) if passport else ()
    n_icons = len(edition.choice.icons)
    card_bits = [1 << card for card in cards]
    options = tuple((NO_CHOICE, *(i for i in range(n_icons) if icons >> i & 1)) for icons in range(1 << n_icons))
    n_regions = len(edition.regions)
    region_points = [0]
    for region in edition.regions:  # doubling: the sets with this region are those without it, plus its bonus
        region_points += [points + region.bonus for points in region_points]
    # (no map, no pathways: every entry 0, without combining 2048 zeros)
    pathways = (_chunk_tables(edition.route.neighbours, operator.or_) if edition.route and edition.route.neighbours
                else tuple((0,) * (1 << stop - start) for start, stop in _CHUNKS))
    return RoundTables(
        # (each table's entries by one C-level map over the rule: built once per edition and process)
        throw_catch=tuple(tuple(map(rule, repeat(throw), numbers)) for throw in numbers),
        # last round's score: at most a doubled total (Australia's rule), else the total itself
        collection=tuple(tuple(map(collection_rule, repeat(total), range(-1, 2 * most_collected + 1)))
                         for total in range(most_collected + 1)),
        choice=_ChoicePoints(edition.choice, choice_rule), regions_covered=tuple(regions_covered),
        regions_touched=regions_touched, pathways=pathways, town_pathways=_TownPathways(pathways),
        choice_at=tuple(edition.tally.choice_at + TALLY_FIELD * i for i in range(n_icons)),
        pair_reading=(edition.tally.pair_halves, edition.tally.pair_weights, edition.tally.pair_points_at),
        card_tallies=edition.tally.per_card, choice_held_at=edition.tally.choice_at,
        card_pair_bits=tuple(tuple(map(operator.add, repeat(1 << card), card_bits)) for card in cards),
        card_pair_tallies=tuple(tuple(map(operator.add, repeat(tally), edition.tally.per_card))
                                for tally in edition.tally.per_card),
        choice_icons=_ChoiceIcons(n_icons),
        choice_offers=tuple(tuple((offered := options[held & ~used], float(len(offered)))
                                  for held in range(1 << n_icons))
                            for used in range(1 << n_icons)),
        pairs_at=TALLY_COLLECTION_BITS + 1, pairs_fields=edition.tally.pair_halves,
        pairs_points=_PairsPoints(edition.tally), region_points=tuple(region_points[:1 << n_regions]),
        passport=passport,
        route_tiers={n: tuple((route_tier_points(route, n, tier), route_tier_after(route, n, tier))
                              for tier in range(len(route.tiers_for(n)) + 1))
                     for n in range(2, 5)} if (route := edition.route) is not None else {})


def covered_regions(tables: RoundTables, visited: int) -> int:
    """The bitmask of the regions every card of which is in `visited`."""
    low, mid, high = tables.regions_covered
    return (low[visited & MASK_LOW_BITS] & mid[visited >> MASK_CHUNK_1 & MASK_MID_BITS]
            & high[visited >> MASK_CHUNK_2])


def score_round(edition: Edition, state: ScoreState, rows: Sequence[Sequence[int]], choices: Sequence[int],
                masks: Sequence[int], awards: list[Award] | None = None) -> list[RoundScore]:
    """`resolve_round` without explanations: the points alone, for the simulator's and the bots' hot paths.

    The same category rules (chosen by name, as above) read through per-edition tables (`RoundTables`, the
    rows' packed icon tallies, `rules.edition.Tally`); `tests/test_scoring.py` checks it against the
    explained path. The points are worked out by `round_score_fields`.
    """
    return list(map(_new_score, repeat(RoundScore), round_score_fields(edition, state, rows, choices, masks, awards)))


def round_score_fields(edition: Edition, state: ScoreState, rows: Sequence[Sequence[int]], choices: Sequence[int],
                       masks: Sequence[int], awards: list[Award] | None = None,
                       tallies: Sequence[int] | None = None, tables: RoundTables | None = None,
                       choice_draws: Sequence[float] | None = None, totals: list[int] | None = None,
                       ) -> list[tuple[int, ...]]:
    """`score_round`'s points as plain tuples in `RoundScore`'s field order (a NamedTuple costs more to make;
    the engine's whole-round play keeps these and makes RoundScores when they are read).

    One pass over the players; the shared bonuses, which few rounds settle, are added after. `tallies` and
    `tables` (optional) are the rows' tallies and the edition's `round_tables`, if the caller has them.

    With `choice_draws` (the engine's whole-round play of random bots), the round-end choices are the random
    bots' and are drawn here, where the row's icons are read anyway: player p takes option
    `floor(choice_draws[p] × options)` of their `legal_actions` (no choice, then each icon the row shows that
    they have not scored, in icon order), appended to `choices` (given empty). With `totals` (per player, the
    points so far), each player's points this round are added to theirs (cheaper here, from the fields as they
    are worked out, than summing the tuples after).
    """
    tables = tables or round_tables(edition)
    if tallies is None:
        # every icon of a row counted by one packed sum (`rules.edition.Tally`), a row's 7 cards a pair at a time
        pairs, single = tables.card_pair_tallies, tables.card_tallies
        tallies = [pairs[row[0]][row[1]] + pairs[row[2]][row[3]] + pairs[row[4]][row[5]] + single[row[6]]
                   if len(row) == HAND_SIZE else sum(map(single.__getitem__, row)) for row in rows]
    visited, previous_collection, choices_used = state.visited, state.previous_collection, state.choices_used
    regions_low, regions_mid, regions_high = tables.regions_covered
    throw_catch, collection_points, region_points = tables.throw_catch, tables.collection, tables.region_points
    (choice_points, reads_others), choice_icons = tables.choice[len(masks)], tables.choice_icons
    held_at = tables.choice_held_at
    pairs_points, pairs_at, pairs_fields = tables.pairs_points, tables.pairs_at, tables.pairs_fields
    # the other players' icons, for a rule that reads them: the rows' tallies added up count everyone's (a
    # choice field sums at most 4 × 7 icons, and the fields below never carry into it)
    everyone = sum(tallies) if reads_others else 0
    unclaimed = ~state.regions_claimed
    # Europe's passport is read from the chunks of a sheet its regions are read from, for the players who have
    # not scored it (the other routes after the loop, `route_achievers`)
    passport = tables.passport and ~state.route_done
    if passport:
        touched_low, touched_mid, touched_high = tables.regions_touched
        every_region = len(region_points) - 1
    # the regions completed this round and the players with the passport now
    claimed = route_now = 0
    scores = []
    offers = tables.choice_offers
    for p, mask in enumerate(masks):
        counted, seen, row = tallies[p], visited[p], rows[p]
        if choice_draws is None:
            choice = choices[p]
            # the choice icon's count in the row, from its choice fields
            own = choice_icons[counted >> held_at][1][choice] if choice >= 0 else 0
        else:
            held, counts = choice_icons[counted >> held_at]
            offered, size = offers[choices_used[p]][held]
            choices.append(choice := offered[floor(choice_draws[p] * size)])  # type: ignore[attr-defined]
            own = counts[choice]  # (no choice, -1, reads the last count: 0)
        visited[p] = after = seen | mask
        low, mid, high = after & MASK_LOW_BITS, after >> MASK_CHUNK_1 & MASK_MID_BITS, after >> MASK_CHUNK_2
        # the regions still unclaimed that the sheet now covers (as in resolve_round): each completer scores
        # the bonus, so a player's region points are their bonuses added up (`settle_bonuses` says so, below
        # when a route or the awards need it)
        completed = regions_low[low] & regions_mid[mid] & regions_high[high] & unclaimed
        if completed:  # (most rows complete none)
            claimed |= completed
            regions = region_points[completed]
        else:
            regions = 0
        if passport and touched_low[low] | touched_mid[mid] | touched_high[high] == every_region:
            route_now |= passport & 1 << p
        previous_collection[p] = collection = collection_points[counted & _COLLECTION_FIELD][previous_collection[p] + 1]
        if choice >= 0:
            # (everyone's count of the icon from the rows' choice fields added up)
            others = (everyone >> held_at + TALLY_FIELD * choice & _FIELD) - own if everyone else 0
            chosen = choice_points[own][others]
            choices_used[p] |= _PLAYER_BITS[choice]  # (the icon's bit, read: a shift costs more)
        else:
            chosen = 0
        throw = throw_catch[row[0]][row[_CATCH]]
        pairs = pairs_points[counted >> pairs_at & pairs_fields]
        sites = (after - seen).bit_count()
        scores.append((throw, collection, pairs, chosen, sites, regions, 0))
        if totals is not None:
            totals[p] += throw + collection + pairs + chosen + sites + regions
    if edition.route is not None and not passport:
        route_now = route_achievers(edition, state, visited, tables)
    if awards is not None:
        # the shared bonuses settled by the rules and listed (the regions' points come out as above)
        completed_now = [covered_regions(tables, sheet) & unclaimed for sheet in visited]
        region_pts, route_pts = settle_bonuses(edition, state, len(masks), completed_now, route_now, None, awards)
        for p, (regions, route) in enumerate(zip(region_pts, route_pts, strict=True)):
            if regions or route:
                scores[p] = (*scores[p][:_BONUS_FIELDS], regions, route)
                if totals is not None:  # (the region points are as added above)
                    totals[p] += route
        return scores
    state.regions_claimed |= claimed
    if route_now:
        # the route settled as `settle_bonuses` settles it (the achievers share the tier on offer, which is then
        # crossed out), its tiers read from the rules' table
        route, state.route_next_tier = tables.route_tiers[len(masks)][state.route_next_tier]
        state.route_done |= route_now
        for p in range(len(masks)):
            if route_now & _PLAYER_BITS[p]:
                scores[p] = (*scores[p][:_ROUTE_FIELD], route)
                if totals is not None:
                    totals[p] += route
    return scores


# --- Game end: totals and ranking ---------------------------------------------------------------------------

def tie_break_key(edition: Edition, rounds: Sequence[RoundScore]) -> tuple[int, ...]:
    """Total first, then the edition's tie-breakers (route points, then Throw & Catch points)."""
    key = [sum(r.total for r in rounds)]
    for breaker in edition.tie_breakers:
        key.append(sum(r.route for r in rounds) if breaker == "route" else sum(r.throw_catch for r in rounds))
    return tuple(key)


def rank_players(edition: Edition, per_player_rounds: Sequence[Sequence[RoundScore]]) -> list[int]:
    """Competition ranks (1, 1, 3, …): players tied on the total and every tie-breaker stay tied."""
    keys = [tie_break_key(edition, rounds) for rounds in per_player_rounds]
    return [1 + sum(other > key for other in keys) for key in keys]
