"""Every rule's human wording, in one place: the scoring explanations, the category-mode labels and notes,
and the printed score pad's rule lines all read it, so a rule reads the same everywhere (and one file is
all a translation has to cover).

Names of things (categories, icons, regions, the route, the site nouns and their plurals) are edition data;
this module only words the rules around them. Rules are chosen by name, as in `rules.scoring`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol

from rules.edition import Edition, Route

# --- Throw & Catch --------------------------------------------------------------------------------------------

THROW_CATCH = "Throw & Catch"
#: How each rule scores, as an explanation's closing words.
THROW_CATCH_RULE = {
    "difference": "the difference",
    "throw_if_caught": "the Throw number when the Catch is at least as high, else 0",
}
#: The printed pad's line for each rule.
THROW_CATCH_SHEET = {
    "difference": "Score the difference between your Throw and Catch numbers.",
    "throw_if_caught": "Catch ≥ Throw: score the Throw number. Catch < Throw: 0.",
}


def throw_catch(rule: str, how: str, points: int) -> str:
    """`how` names the cards ("Throw B (1), Catch G (3)") or the typed numbers ("Throw 1, Catch 3")."""
    return f"{THROW_CATCH}: {how} → {points} ({THROW_CATCH_RULE[rule]})"


# --- Collections / Cuisine / Americana ------------------------------------------------------------------------

COLLECTION_SHEET = {
    "double_if_at_most_7": "Add the values. Total 1–7: double it. 8 or more: score it as it is.",
    "halve_above_7": "Add the values. Total 1–7: score it. 8 or more: half, rounded up.",
    "must_beat_previous": "Add the values. You must beat last round's total or score 0 "
                          "(after a 0, any total of 1+ scores).",
}


def _double_text(total: int, previous_score: int, points: int) -> str:
    return f"{total} ≤ 7, doubled → {points}" if total <= 7 else f"{total} > 7, not doubled → {points}"


def _halve_text(total: int, previous_score: int, points: int) -> str:
    return f"{total} ≤ 7 → {points}" if total <= 7 else f"{total} ≥ 8, halved and rounded up → {points}"


def _beat_text(total: int, previous_score: int, points: int) -> str:
    if previous_score < 0:
        return f"{total}, first round → {points}"
    verdict = "more than" if points else "not more than"
    return f"{total}, {verdict} last round's {previous_score} → {points}"


COLLECTION_RULE = {
    "double_if_at_most_7": _double_text,
    "halve_above_7": _halve_text,
    "must_beat_previous": _beat_text,
}


def collection(family_name: str, parts: str, rule: str, total: int, previous_score: int, points: int) -> str:
    """`parts` lists the icons counted ("Beer 1×2 + Wine 3×1") or says the total was typed."""
    return f"{family_name}: {parts} = {COLLECTION_RULE[rule](total, previous_score, points)}"


# --- Animals / Transport: pairs ---------------------------------------------------------------------------------

PAIRS_SHEET = "Each matching pair scores its value once (3 of a kind = 1 pair)."


def pairs_count(pairs: int) -> str:
    return f"{pairs} pairs" if pairs > 1 else "1 pair" if pairs else "no pair"


def pairs(family_name: str, parts: list[str], points: int) -> str:
    return f"{family_name}: {', '.join(parts) if parts else 'none'} = {points}"


def pairs_typed(family_name: str, points: int) -> str:
    return f"{family_name}: {points} (typed)"


# --- Activities / National Treasures ------------------------------------------------------------------------

def choice_sheet(edition: Edition) -> str:
    return f"Optional: score one of the {len(edition.choice.icons)} per round, each only once per game."


def choice_none(family_name: str) -> str:
    return f"{family_name}: none chosen"


def choice_own(family_name: str, icon: str, own: int, points: int) -> str:
    return f"{family_name}: {icon} ×{own} → {points}"


def choice_others(family_name: str, icon: str, others: int, per_icon: int, n_players: int, points: int) -> str:
    return (f"{family_name}: {icon}: {others} on other players' cards × {per_icon} ({n_players} players) "
            f"→ {points}")


def choice_typed(family_name: str, icon: str, count: int, points: int) -> str:
    return f"{family_name}: {icon} ×{count} → {points}"


def choice_used(where: str, icon: str, family_name: str, round_number: int) -> str:
    return (f"{where}: {icon} was already scored in round {round_number}; each of the {family_name} scores "
            f"once per game")


def choice_needs_icon(where: str, icon: str) -> str:
    return f"{where}: {icon} needs at least one {icon} icon on the player's cards"


def choice_unknown(where: str, name: str, edition: Edition) -> str:
    """`where` ("round 2, Ann") may be empty, for a form that names no round yet."""
    options = ", ".join(i.name for i in edition.choice.icons)
    return f"{where + ': ' if where else ''}{name!r} is not one of the {edition.choice.name} ({options})"


# --- Sites, regions, the route --------------------------------------------------------------------------------

def sites_new(edition: Edition, letters: str, count: int) -> str:
    return f"{edition.sites_label}: new {letters or 'none'} → +{count} (counted at game end)"


def sites_typed(edition: Edition, count: int) -> str:
    return f"{edition.sites_label}: +{count} new (counted at game end)"


def region_bonus(region: str, bonus: int, shared: bool) -> str:
    return f"Region bonus: {region} complete first{' (shared)' if shared else ''} → +{bonus}"


def region_struck_out(region: str) -> str:
    return f"Region bonus: {region} complete, but already claimed → struck out"


def route_bonus(route: str, points: int, shared: bool) -> str:
    return f"{route}: achieved{' (shared tier)' if shared else ''} → +{points}"


def region_hint(region: str, bonus: int, claimed: bool) -> str:
    """The letters preview's note on a region the cards so far complete (settled at round close)."""
    if claimed:
        return f"{region} complete, but already claimed (struck out)"
    return f"{region} complete: +{bonus} at round close unless claimed first"


def route_hint(route: str) -> str:
    return f"{route} achieved: scored at round close"


def route_tier_labels(route: Route) -> list[tuple[int, str]]:
    """(points, caption) per bonus tier as printed: 1st, 2nd, and the last one's player-count condition."""
    labels = []
    for i, points in enumerate(route.tiers):
        last = i == len(route.tiers) - 1
        caption = ("others" if route.last_tier_repeats and last and i > 1 else ("1st", "2nd", "3rd", "4th")[i])
        if last and route.last_tier_min_players > 2 and len(route.tiers) > 1:
            caption += f" ({route.last_tier_min_players}–4 pl.)"
        labels.append((points, caption))
    return labels


def sites_sheet(edition: Edition) -> str:
    if edition.route is not None and edition.route.edges:  # the pad draws the town map
        return (f"Cross out each {edition.site_noun} you visit; draw each pathway once both its "
                f"{edition.sites_noun} are visited.")
    return "Cross out each letter you visit. First to complete a region: circle its star (others scribble it out)."


def route_sheet(edition: Edition) -> str:
    if edition.route is not None and edition.route.kind == "coast":
        noun = edition.site_noun
        return f"First to join a west-coast {noun} to an east-coast {noun} along drawn pathways."
    return f"First to visit at least one {edition.site_noun} in every region: circle your bonus."


def sites_end_sheet(edition: Edition) -> tuple[str, str]:
    return f"{edition.sites_label} visited", "1 point per letter crossed out"


# --- the round summary: who took which shared bonus, and why -------------------------------------------------

class SettledBonus(Protocol):
    """A bonus settled in a round (`rules.bonuses.Award`; a protocol here, as bonuses imports this module)."""

    name: str
    points: int
    players: tuple[int, ...]
    region: int
    tier: int


class StruckRegion(Protocol):
    """A region completed after an earlier round took it (`rules.bonuses.StruckOut`)."""

    name: str
    region: int
    players: tuple[int, ...]


#: A route tier's place, by tier index (the rulebooks: "7pts for the 1st …, 3pts for 2nd, and 1pt …").
PLACES = ("first", "second", "third", "fourth")


class RoutePhrases(NamedTuple):
    #: "Cy was first coast to coast"
    placed: str
    #: "Ann and Bob both reached coast to coast"
    achieved: str


#: How each kind of route is said, chosen by the route's kind (edition data).
ROUTE_PHRASES = {
    "coast": RoutePhrases("was {place} coast to coast", "reached coast to coast"),
    "passport": RoutePhrases("was {place} to complete the passport", "completed the passport"),
}


def name_list(names: Sequence[str]) -> str:
    """"Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _together(count: int) -> str:
    return "both" if count == 2 else "all"


def region_summary(region: str, bonus: int, who: Sequence[str]) -> str:
    if len(who) == 1:
        return f"{who[0]} was first to complete {region}: +{bonus}"
    return f"{name_list(who)} {_together(len(who))} completed {region} this round: +{bonus} each"


def region_struck_summary(region: str, who: Sequence[str], taken_by: Sequence[str], taken_round: int | None) -> str:
    taken = (f"{name_list(taken_by)} took it in round {taken_round}" if taken_by and taken_round
             else "it was already taken")
    return f"{name_list(who)} completed {region} too, but {taken}: no bonus"


def route_summary(route: Route, who: Sequence[str], tier: int, points: int, tiers: int, repeat: bool) -> str:
    """One route settlement. `tier` is the tier index scored (its place); `tiers` how many there are at
    this player count (`tier == tiers`: none was left); `repeat` when a repeating last tier was already
    taken before (USA's "1pt for anyone else")."""
    phrases = ROUTE_PHRASES[route.kind]
    people = name_list(who)
    if tier >= tiers:
        together = f" {_together(len(who))}" if len(who) > 1 else ""
        doing = f"{phrases.achieved} this round" if len(who) > 1 else f"{phrases.achieved} too"
        return f"{people}{together} {doing}, but its bonuses are all taken: no bonus"
    if repeat:
        each = " each" if len(who) > 1 else ""
        return f"{people} also {phrases.achieved}: +{points}{each} (anyone else scores {points})"
    if len(who) == 1:
        return f"{people} {phrases.placed.format(place=PLACES[tier])}: +{points}"
    return (f"{people} {_together(len(who))} {phrases.achieved} this round: {PLACES[tier]} place, "
            f"+{points} each")


def round_bonus_summary(edition: Edition, awards_this_round: Sequence[SettledBonus], names: Sequence[str],
                        struck_out: Sequence[StruckRegion] = (),
                        earlier: Sequence[Sequence[SettledBonus]] = ()) -> list[str]:
    """One sentence per shared bonus settled in a round, naming who took it and why, in settlement order
    (regions in the edition's order, then the route); then one per region completed after an earlier
    round took it, when `struck_out` lists them.

    `names[p]` is player p's name; `earlier` holds the awards of the rounds before this one (the
    `awards=` lists of `rules.record.score_rounds`): a struck-out sentence names who took the region and
    when from it, and a repeat of USA's "anyone else" tier is told from its first taking by it.
    """
    n_players = len(names)
    route = edition.route
    tiers = len(route.tiers_for(n_players)) if route is not None else 0
    earlier_route_tiers = {a.tier for settled in earlier for a in settled if a.region < 0}
    lines = []
    for award in awards_this_round:
        who = [names[p] for p in award.players]
        if award.region >= 0 or route is None:
            lines.append(region_summary(award.name, award.points, who))
            continue
        repeat = route.last_tier_repeats and award.tier == tiers - 1 and award.tier in earlier_route_tiers
        lines.append(route_summary(route, who, award.tier, award.points, tiers, repeat))
    taken_in = {a.region: (r + 1, a.players) for r, settled in enumerate(earlier) for a in settled
                if a.region >= 0}
    for struck in struck_out:
        taken_round, takers = taken_in.get(struck.region, (None, ()))
        lines.append(region_struck_summary(struck.name, [names[p] for p in struck.players],
                                           [names[p] for p in takers], taken_round))
    return lines


def bonus_summaries(edition: Edition, awards: Sequence[Sequence[SettledBonus]], names: Sequence[str],
                    struck_out: Sequence[Sequence[StruckRegion]] = ()) -> list[list[str]]:
    """`round_bonus_summary` for every round of a game, from `score_rounds(..., awards=, struck_out=)`."""
    return [round_bonus_summary(edition, settled, names, struck_out[r] if r < len(struck_out) else (),
                                awards[:r])
            for r, settled in enumerate(awards)]


# --- game end ----------------------------------------------------------------------------------------------

def tie_breakers(edition: Edition) -> str:
    """The tie-breakers in order, as the end screen explains a tie: "route points, then Throw & Catch points"."""
    return ", then ".join("route points" if b == "route" else f"{THROW_CATCH} points" for b in edition.tie_breakers)


def tie_sheet(edition: Edition) -> str:
    """The printed pad's tie rule, naming the edition's route ("" when the edition has no tie-breaker)."""
    names = {"route": edition.route.name if edition.route else "", "throw_catch": THROW_CATCH}
    breakers = ", then ".join(names[b] for b in edition.tie_breakers if names.get(b))
    return f"Tie: most points for {breakers} wins." if breakers else ""


# --- the rounds' own rules -------------------------------------------------------------------------------------

DIRECTION_VARIANT_PLAYERS = "the direction variant is for 3 or 4 players"


def card_clash(where: str, letters: str, many: bool, other: str, round_number: int) -> str:
    return (f"{where}: {'letters' if many else 'letter'} {letters} already in {other}'s round {round_number} "
            f"cards; each card is drafted once a round")


def round_before_complete(round_number: int) -> str:
    return f"round {round_number} cannot be entered before round {round_number - 1} is complete"


# --- category mode: the fields a player types -----------------------------------------------------------------

def category_labels(edition: Edition) -> dict[str, str]:
    choice_count = ("icons on the other players' cards" if edition.choice.rule == "treasure_others"
                    else "icons on your cards")
    return {"throw": "Throw card number", "catch": "Catch card number",
            "collection": f"{edition.collection.name}: icon total", "pairs": f"{edition.pairs.name}: points",
            "choice": edition.choice.name, "choice_count": f"{edition.choice.name}: {choice_count}",
            "sites": f"New {edition.sites_noun}", "regions": "Regions completed", "route": "Route"}
