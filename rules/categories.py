"""Category mode's rules: a round entered as the paper pad asks for it, for a deck tourpad has no card data
for (or a player who prefers it).

The player types the Throw and Catch numbers, the collection icons' total, the pairs' points, the chosen
activity / treasure with its icon count, the number of new sites, and ticks the regions (and the route)
completed this round. What each value may be, how it scores and how that is worded are here; the
category rules are the engine's own (`rules.scoring`'s rule tables), and the shared first-come bonuses go
through the same settlement as letters mode (`rules.bonuses.settle_bonuses`), so a game scores the same
however it is entered (`tests/test_categories.py` proves it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rules import wording
from rules.bonuses import Award, StruckOut, settle_bonuses
from rules.edition import Edition
from rules.engine import HAND_SIZE
from rules.locale import _
from rules.scoring import CHOICE_RULES, COLLECTION_RULES, THROW_CATCH_RULES, RoundScore
from rules.validation import RuleError, check_choice_unused, check_rounds_in_order

FIELDS = ("throw", "catch", "collection", "pairs", "choice", "choice_count", "sites", "regions", "route")
NUMBER_FIELDS = ("throw", "catch", "collection", "pairs", "choice_count", "sites")


def normalise(edition: Edition, values: Mapping) -> dict:
    """Typed text → ints / names; anything that is not a whole number is refused by name."""
    labels = wording.category_labels(edition)
    out: dict = {}
    for key in NUMBER_FIELDS:
        raw = values.get(key, 0 if key == "choice_count" else None)
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            if key in ("throw", "catch"):
                raise RuleError(_("{field} is missing").format(field=labels[key]))
            raw = 0
        try:
            out[key] = int(str(raw).strip())
        except ValueError:
            raise RuleError(_("{field}: {value} is not a whole number").format(field=labels[key],
                                                                                value=repr(raw))) from None
    choice = values.get("choice") or None
    if choice is not None:
        try:
            choice = edition.choice.icons[edition.choice.icon_index(str(choice).strip())].name
        except KeyError:
            raise RuleError(wording.choice_unknown("", choice, edition)) from None
    out["choice"] = choice
    regions = []
    for name in values.get("regions") or []:
        typed = str(name).casefold()
        match = [r.name for r in edition.regions
                 if typed in (r.name.casefold(), *(text.casefold() for _lang, text in r.names))]
        if not match:
            raise RuleError(_("{name} is not a region of {edition}").format(name=repr(name),
                                                                             edition=edition.label))
        regions.append(match[0])
    out["regions"] = sorted(set(regions), key=[r.name for r in edition.regions].index)
    out["route"] = bool(values.get("route")) and edition.route is not None
    return out


def reachable_pair_points(edition: Edition) -> set[int]:
    """Every pairs score 7 cards can make (how many pairs of each icon the deck allows)."""
    reachable = {(0, 0)}  # (cards used, points)
    for icon in edition.pairs.icons:
        most = min(icon.mask.bit_count() // 2, HAND_SIZE // 2)
        reachable = {(cards + 2 * k, points + icon.value * k)
                     for cards, points in reachable for k in range(most + 1) if cards + 2 * k <= HAND_SIZE}
    return {points for _, points in reachable}


def max_collection_total(edition: Edition) -> int:
    return sum(sorted(edition.collection_values, reverse=True)[:HAND_SIZE])


def choice_count_range(edition: Edition, n_players: int) -> tuple[int, int]:
    """The icon count a choice may be typed with: own icons (1 to 7), or others' (0 to 7 per other player)."""
    if edition.choice.rule == "treasure_others":
        return 0, HAND_SIZE * (n_players - 1)
    return 1, HAND_SIZE


@dataclass
class CategoryState:
    """What the sheets carry between rounds when rounds are entered by category."""

    previous_collection: list[int]
    #: Per player: choice icon index → the round (1-based) it was scored in.
    choices_used: list[dict[int, int]]
    sites_total: list[int]
    #: Per player, a bitmask of the regions they completed (each is completed once).
    regions_done: list[int]
    #: The shared bonuses, as `rules.bonuses.BonusSheets` has them.
    regions_claimed: int = 0
    route_done: int = 0
    route_next_tier: int = 0

    @classmethod
    def new(cls, n: int) -> CategoryState:
        return cls([-1] * n, [{} for _ in range(n)], [0] * n, [0] * n)

    def copy(self) -> CategoryState:
        return CategoryState(self.previous_collection[:], [dict(d) for d in self.choices_used],
                             self.sites_total[:], self.regions_done[:], self.regions_claimed, self.route_done,
                             self.route_next_tier)


def region_mask(edition: Edition, names: Sequence[str]) -> int:
    index = {region.name: region.index for region in edition.regions}
    return sum(1 << index[name] for name in names)


def check_entry(edition: Edition, state: CategoryState, p: int, values: Mapping, n_players: int,
                where: str) -> None:
    """One player's normalised values against what 7 cards can carry and what their sheet already has."""
    v = values
    def refuse(message: str) -> RuleError:
        return RuleError(_("{where}: {message}").format(where=where, message=message))

    numbers = {"throw": _("the Throw card's number must be 1 to 7, not {n}"),
               "catch": _("the Catch card's number must be 1 to 7, not {n}")}
    for key in ("throw", "catch"):
        if not 1 <= v[key] <= 7:
            raise refuse(numbers[key].format(n=v[key]))
    top = max_collection_total(edition)
    if not 0 <= v["collection"] <= top:
        raise refuse(_("{family} total {total} is impossible (7 cards carry at most {top})").format(
            family=edition.collection.label, total=v["collection"], top=top))
    if v["pairs"] not in reachable_pair_points(edition):
        values = ", ".join(_("{icon} {value}").format(icon=i.label, value=i.value) for i in edition.pairs.icons)
        raise refuse(_("{family} cannot score {points} with 7 cards (pairs of {values})").format(
            family=edition.pairs.label, points=v["pairs"], values=values))
    if v["choice"] is not None:
        icon = edition.choice.icon_index(v["choice"])
        check_choice_unused(edition, icon, state.choices_used[p], where)
        least, most = choice_count_range(edition, n_players)
        if not least <= v["choice_count"] <= most:
            raise refuse(_("{count} {icon} icons is impossible ({least} to {most})").format(
                count=v["choice_count"], icon=edition.choice.icons[icon].label, least=least, most=most))
    sites = edition.site_noun_label(plural=True)
    if not 0 <= v["sites"] <= HAND_SIZE:
        raise refuse(_("{count} new {sites} is impossible (0 to {most})").format(count=v["sites"], sites=sites,
                                                                                  most=HAND_SIZE))
    if state.sites_total[p] + v["sites"] > len(edition.cards):
        raise refuse(_("{count} {sites} in all; the deck has {deck}").format(
            count=state.sites_total[p] + v["sites"], sites=sites, deck=len(edition.cards)))
    again = [r for r in v["regions"] if state.regions_done[p] & region_mask(edition, [r])]
    if again:
        region = edition.regions[[r.name for r in edition.regions].index(again[0])].label
        raise refuse(_("{region} was already completed by this player in an earlier round").format(region=region))
    if v["route"] and state.route_done >> p & 1:
        raise refuse(_("{route} was already achieved by this player").format(route=edition.route.label))


def check_rounds(edition: Edition, players: Sequence[str], entries: Sequence[Mapping[int, Mapping]],
                 focus: int | None = None) -> None:
    """Every round entered by category, in order; `entries[r][p]` is the player's normalised values.
    `focus` (the player being entered) is checked last in each round, as in letters mode."""
    check_rounds_in_order([len(row) for row in entries], len(players))
    state = CategoryState.new(len(players))
    for r, row_entries in enumerate(entries):
        for p in sorted(row_entries, key=lambda q: q == focus):
            check_entry(edition, state, p, row_entries[p], len(players),
                        wording.round_and_player(r + 1, players[p]))
        if len(row_entries) == len(players):
            resolve_round(edition, state, [row_entries[p] for p in range(len(players))], r + 1)


def own_points(edition: Edition, state: CategoryState, p: int, v: Mapping, n_players: int,
               explain: bool = True) -> tuple[tuple[int, int, int, int, int], list[str]]:
    """One player's own categories (throw_catch, collection, pairs, choice, sites) and their explanation;
    the shared bonuses are settled across the table."""
    tc = THROW_CATCH_RULES[edition.throw_catch_rule](v["throw"], v["catch"])
    previous = state.previous_collection[p]
    col = COLLECTION_RULES[edition.collection.rule](v["collection"], previous)
    ch = 0
    if v["choice"] is not None:
        own, others = ((0, v["choice_count"]) if edition.choice.rule == "treasure_others"
                       else (v["choice_count"], 0))
        ch = CHOICE_RULES[edition.choice.rule](edition.choice, own, others, n_players)
    points = (tc, col, v["pairs"], ch, v["sites"])
    if not explain:
        return points, []
    family = edition.choice.label
    chosen = edition.choice.icons[edition.choice.icon_index(v["choice"])].label if v["choice"] is not None else ""
    return points, [
        wording.throw_catch(edition.throw_catch_rule, wording.throw_catch_typed(v["throw"], v["catch"]), tc),
        wording.collection(edition.collection.label, wording.collection_typed(), edition.collection.rule,
                           v["collection"], previous, col),
        wording.pairs_typed(edition.pairs.label, v["pairs"]),
        wording.choice_typed(family, chosen, v["choice_count"], ch) if v["choice"] is not None
        else wording.choice_none(family),
        wording.sites_typed(edition, v["sites"])]


def preview(edition: Edition, state: CategoryState, p: int, values: Mapping, n_players: int,
            round_number: int) -> tuple[int | None, list[str]]:
    """Live points for a form being filled in: (own points, lines), or (None, [the problem])."""
    try:
        v = normalise(edition, values)
        check_entry(edition, state, p, v, n_players, wording.round_and_player(round_number))
    except RuleError as err:
        return None, [str(err)]
    points, lines = own_points(edition, state, p, v, n_players)
    return sum(points), lines


def resolve_round(edition: Edition, state: CategoryState, values: Sequence[Mapping], round_number: int,
                  explain: bool = True, awards: list[Award] | None = None,
                  struck_out: list[StruckOut] | None = None) -> tuple[list[RoundScore], list[list[str]]]:
    """Score one round entered by category and settle the shared bonuses; updates `state` in place.
    `values[p]` is player p's normalised values (validated by `check_entry`); `awards` and `struck_out` as
    in letters mode (here the struck-out regions are the typed ones already taken)."""
    n = len(values)
    own: list[tuple[int, int, int, int, int]] = []
    notes: list[list[str]] = []
    regions_completed = [0] * n
    route_now = 0
    for p, v in enumerate(values):
        points, lines = own_points(edition, state, p, v, n, explain)
        own.append(points)
        notes.append(lines)
        if v["choice"] is not None:
            state.choices_used[p][edition.choice.icon_index(v["choice"])] = round_number
        state.previous_collection[p] = points[1]
        state.sites_total[p] += v["sites"]
        regions_completed[p] = region_mask(edition, v["regions"])
        state.regions_done[p] |= regions_completed[p]
        if v["route"]:
            route_now |= 1 << p
    region_points, route_points = settle_bonuses(edition, state, n, regions_completed, route_now,
                                                 notes if explain else None, awards, struck_out)
    return [RoundScore(*own[p], region_points[p], route_points[p]) for p in range(n)], notes
