"""Round entry by category, for a deck the app has no card data for (or a player who prefers it).

The player types what the paper pad asks for: the Throw and Catch numbers, the collection icons' total,
the pairs' points, the chosen activity / treasure with its icon count, the number of new sites, and ticks
the regions (and the route) completed this round. The category rules are the engine's own functions
(`rules.scoring`), so an Americana total that does not beat last round scores 0 here as it does there;
the shared first-come bonuses are still arbitrated across the table at round close.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rules.edition import Edition
from rules.engine import HAND_SIZE
from rules.scoring import CHOICE_RULES, COLLECTION_RULES, THROW_CATCH_RULES, THROW_CATCH_TEXT, RoundScore
from scorer.pad.errors import EntryError

FIELDS = ("throw", "catch", "collection", "pairs", "choice", "choice_count", "sites", "regions", "route")
NUMBER_FIELDS = ("throw", "catch", "collection", "pairs", "choice_count", "sites")


def field_labels(edition: Edition) -> dict[str, str]:
    choice_count = ("icons on the other players' cards" if edition.choice.rule == "treasure_others"
                    else "icons on your cards")
    return {"throw": "Throw card number", "catch": "Catch card number",
            "collection": f"{edition.collection.name}: icon total", "pairs": f"{edition.pairs.name}: points",
            "choice": edition.choice.name, "choice_count": f"{edition.choice.name}: {choice_count}",
            "sites": f"New {edition.site_noun}s", "regions": "Regions completed", "route": "Route"}


def normalise(edition: Edition, values: dict) -> dict:
    """Typed text → ints / names; anything that is not a whole number is refused by name."""
    labels = field_labels(edition)
    out: dict = {}
    for key in NUMBER_FIELDS:
        raw = values.get(key, 0 if key == "choice_count" else None)
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            if key in ("throw", "catch"):
                raise EntryError(f"{labels[key]} is missing")
            raw = 0
        try:
            out[key] = int(str(raw).strip())
        except ValueError:
            raise EntryError(f"{labels[key]}: {raw!r} is not a whole number") from None
    choice = values.get("choice") or None
    if choice is not None:
        try:
            choice = edition.choice.icons[edition.choice.icon_index(str(choice).strip())].name
        except KeyError:
            options = ", ".join(i.name for i in edition.choice.icons)
            raise EntryError(f"{choice!r} is not one of the {edition.choice.name} ({options})") from None
    out["choice"] = choice
    regions = []
    for name in values.get("regions") or []:
        match = [r.name for r in edition.regions if r.name.casefold() == str(name).casefold()]
        if not match:
            raise EntryError(f"{name!r} is not a region of {edition.name}")
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


@dataclass
class CategoryState:
    """What the sheets carry between rounds when rounds are entered by category."""

    previous_collection: list[int]
    choices_used: list[dict[str, int]]
    sites_total: list[int]
    regions_done: list[set[str]]
    route_done: list[bool]
    regions_claimed: set[str] = field(default_factory=set)
    route_next_tier: int = 0

    @classmethod
    def new(cls, n: int) -> CategoryState:
        return cls([-1] * n, [{} for _ in range(n)], [0] * n, [set() for _ in range(n)], [False] * n)

    def copy(self) -> CategoryState:
        return CategoryState(self.previous_collection[:], [dict(d) for d in self.choices_used],
                             self.sites_total[:], [set(s) for s in self.regions_done], self.route_done[:],
                             set(self.regions_claimed), self.route_next_tier)


def check_entry(edition: Edition, state: CategoryState, p: int, values: dict, n_players: int,
                where: str, round_number: int) -> None:
    v = values
    for key in ("throw", "catch"):
        if not 1 <= v[key] <= 7:
            raise EntryError(f"{where}: the {key.capitalize()} card's number must be 1 to 7, not {v[key]}")
    top = max_collection_total(edition)
    if not 0 <= v["collection"] <= top:
        raise EntryError(f"{where}: {edition.collection.name} total {v['collection']} is impossible "
                         f"(7 cards carry at most {top})")
    if v["pairs"] not in reachable_pair_points(edition):
        raise EntryError(f"{where}: {edition.pairs.name} cannot score {v['pairs']} with 7 cards "
                         f"(pairs of {', '.join(f'{i.name} {i.value}' for i in edition.pairs.icons)})")
    if v["choice"] is not None:
        if v["choice"] in state.choices_used[p]:
            raise EntryError(f"{where}: {v['choice']} was already scored in round "
                             f"{state.choices_used[p][v['choice']]}; each of the {edition.choice.name} "
                             f"scores once per game")
        most = HAND_SIZE * (n_players - 1) if edition.choice.rule == "treasure_others" else HAND_SIZE
        least = 0 if edition.choice.rule == "treasure_others" else 1
        if not least <= v["choice_count"] <= most:
            raise EntryError(f"{where}: {v['choice_count']} {v['choice']} icons is impossible "
                             f"({least} to {most})")
    if not 0 <= v["sites"] <= HAND_SIZE:
        raise EntryError(f"{where}: {v['sites']} new {edition.site_noun}s is impossible (0 to {HAND_SIZE})")
    if state.sites_total[p] + v["sites"] > len(edition.cards):
        raise EntryError(f"{where}: {state.sites_total[p] + v['sites']} {edition.site_noun}s in all; "
                         f"the deck has {len(edition.cards)}")
    again = [r for r in v["regions"] if r in state.regions_done[p]]
    if again:
        raise EntryError(f"{where}: {again[0]} was already completed by this player in an earlier round")
    if v["route"] and state.route_done[p]:
        raise EntryError(f"{where}: {edition.route.name} was already achieved by this player")


def check_rounds(edition: Edition, players: Sequence[str], entries: list[dict[int, dict]],
                 focus: int | None = None) -> None:
    state = CategoryState.new(len(players))
    for r, row_entries in enumerate(entries):
        for p in sorted(row_entries, key=lambda q: q == focus):
            check_entry(edition, state, p, row_entries[p]["categories"], len(players),
                        f"round {r + 1}, {players[p]}", r + 1)
        if len(row_entries) == len(players):
            resolve_round(edition, state, [row_entries[p] for p in range(len(players))], round_number=r + 1)


def player_points(edition: Edition, state: CategoryState, p: int, v: dict, n_players: int
                  ) -> tuple[list[int], list[str]]:
    """One player's own categories (bonuses excluded: they are settled across the table)."""
    tc = THROW_CATCH_RULES[edition.throw_catch_rule](v["throw"], v["catch"])
    tc_how = f"Throw {v['throw']}, Catch {v['catch']} → {tc} ({THROW_CATCH_TEXT[edition.throw_catch_rule]})"
    previous = state.previous_collection[p]
    col = COLLECTION_RULES[edition.collection.rule](v["collection"], previous)
    col_how = f"icons total {v['collection']} → {col}" + (
        f" (last round scored {previous})" if edition.collection.rule == "must_beat_previous"
        and previous >= 0 else "")
    ch, ch_how = 0, "none chosen"
    if v["choice"] is not None:
        own, others = ((0, v["choice_count"]) if edition.choice.rule == "treasure_others"
                       else (v["choice_count"], 0))
        ch = CHOICE_RULES[edition.choice.rule](edition.choice, own, others, n_players)
        ch_how = f"{v['choice']} ×{v['choice_count']} → {ch}"
    return [tc, col, v["pairs"], ch, v["sites"], 0, 0], [
        f"Throw & Catch: {tc_how}", f"{edition.collection.name}: {col_how}",
        f"{edition.pairs.name}: {v['pairs']} (typed)", f"{edition.choice.name}: {ch_how}",
        f"{edition.site_noun.capitalize()}s: +{v['sites']} new (counted at game end)"]


def preview(edition: Edition, state: CategoryState, p: int, values: dict, n_players: int,
            round_number: int) -> tuple[int | None, list[str]]:
    """Live points for a form being filled in: (own points, lines), or (None, [the problem])."""
    try:
        v = normalise(edition, values)
        check_entry(edition, state, p, v, n_players, f"round {round_number}", round_number)
    except EntryError as err:
        return None, [str(err)]
    points, lines = player_points(edition, state, p, v, n_players)
    return sum(points), lines


def resolve_round(edition: Edition, state: CategoryState, entries: Sequence[dict], round_number: int = 0
                  ) -> tuple[list[RoundScore], list[list[str]]]:
    """Score one round entered by category and settle the shared bonuses; updates `state` in place."""
    n = len(entries)
    values = [e["categories"] for e in entries]
    scores, notes = [], []
    regions_now: dict[str, list[int]] = {}
    for p, v in enumerate(values):
        own_points, own_notes = player_points(edition, state, p, v, n)
        if v["choice"] is not None:
            state.choices_used[p][v["choice"]] = round_number
        col = own_points[1]
        state.previous_collection[p] = col
        state.sites_total[p] += v["sites"]
        for region in v["regions"]:
            regions_now.setdefault(region, []).append(p)
            state.regions_done[p].add(region)
        scores.append(own_points)
        notes.append(own_notes)
    for region in edition.regions:
        achievers = regions_now.get(region.name, [])
        if not achievers:
            continue
        if region.name in state.regions_claimed:
            for p in achievers:
                notes[p].append(f"Region bonus: {region.name} complete, but already claimed → struck out")
            continue
        state.regions_claimed.add(region.name)
        for p in achievers:
            scores[p][5] += region.bonus
            shared = " (shared)" if len(achievers) > 1 else ""
            notes[p].append(f"Region bonus: {region.name} complete first{shared} → +{region.bonus}")
    route = edition.route
    if route is not None:
        achievers = [p for p, v in enumerate(values) if v["route"] and not state.route_done[p]]
        if achievers:
            tiers = route.tiers_for(n)
            tier = state.route_next_tier
            points = 0
            if tier < len(tiers) or route.last_tier_repeats:
                points = tiers[min(tier, len(tiers) - 1)]
                state.route_next_tier += 1
            for p in achievers:
                state.route_done[p] = True
                scores[p][6] = points
                notes[p].append(f"{route.name}: achieved{' (shared tier)' if len(achievers) > 1 else ''}"
                                f" → +{points}")
    return [RoundScore(*s) for s in scores], notes
