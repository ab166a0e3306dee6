"""Every rule's human wording, in one place: the scoring explanations, the category-mode labels and notes,
and the printed score pad's rule lines all read it, so a rule reads the same everywhere.

Every sentence is a whole gettext message of the `rules` domain (`rules.locale`), read in the language of
the moment: French orders a sentence its own way, so nothing here is assembled from translated pieces, and
counts go through `ngettext`. Tables a caller reads by key (`THROW_CATCH_SHEET[rule]`) translate when read
(`Translated`); a constant shown as it is has a function (`throw_catch_name()`, `pairs_sheet()`).

Names of things (categories, icons, regions, the route, the site nouns and their plurals) are edition data,
passed in as their `.label`s; this module only words the rules around them. Rules are chosen by name, as in
`rules.scoring`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import NamedTuple, Protocol

from rules.edition import Edition, Route
from rules.locale import N_, _, ngettext

#: The one sign an explanation puts between how a score is made and the points it makes ("Trout ×3 (1 pair)
#: = 3"), in every language and on the command line. An arrow would be clearer in print, but the app's font
#: (Flutter's Roboto, the only one its web client ships) has none; "=" is in it, in the printables' DejaVu
#: Sans and in every terminal, and reads the same in French (where "»" is a closing quotation mark).
EXPLANATION_SIGN = "="


class Translated(Mapping[str, str]):
    """A table of marked messages read in the language of the moment: `SHEET[rule]` is `_(the message)`,
    so a caller that looks a rule's words up by key reads them translated, whoever it is."""

    def __init__(self, messages: Mapping[str, str]) -> None:
        self._messages = dict(messages)

    def __getitem__(self, key: str) -> str:
        return _(self._messages[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self._messages)

    def __len__(self) -> int:
        return len(self._messages)


def round_and_player(round_number: int, player: str | None = None) -> str:
    """Where a refusal happened: "round 2, Ann" (or "round 2" for a form that names no player yet)."""
    if player is None:
        return _("round {n}").format(n=round_number)
    return _("round {n}, {player}").format(n=round_number, player=player)


def _at(where: str, message: str) -> str:
    """A refusal's place before its message: "round 2, Ann: …" (French puts a space before the colon)."""
    return _("{where}: {message}").format(where=where, message=message)


#: Words of rule sentences this module alone says: no string in another package may hold one (a test reads
#: every string of `scorer/` and `printables/`, `tests/test_rule_wording.py`). Each is in a message below.
RULE_WORDS = frozenset({
    "tie on", "still tied", "broken by",  # ties and their tie-breakers
    "regions visited", "achieved in round", "not yet (",  # the route on the way
    "for anyone else", "none left", "· still open", "+{points} next", "+{points} open",  # route tiers
    "complete first", "first to complete", "was first",  # first-come bonuses
    "scored when all", "none chosen", "new: ",  # the letters preview
    "pass right", "pass left", "rounds 2 and 4",  # the direction variant
    "highest total wins", "once per game", "drafted once",
    "aeroplane only", "aeroplanes fly", "a ship joins", "black sea is not used", "count as borders",
    "never side by side", "per colour",  # Race Around Europe's board
})


# --- Throw & Catch --------------------------------------------------------------------------------------------

THROW_CATCH = N_("Throw & Catch")
#: How each rule scores, as an explanation's closing words.
THROW_CATCH_RULE = Translated({
    "difference": N_("the difference"),
    "throw_if_caught": N_("the Throw number when the Catch is at least as high, else 0"),
})
#: The printed pad's line for each rule.
THROW_CATCH_SHEET = Translated({
    "difference": N_("Score the difference between your Throw and Catch numbers."),
    "throw_if_caught": N_("Catch ≥ Throw: score the Throw number. Catch < Throw: 0."),
})


def throw_catch_name() -> str:
    """The category's name as a person reads it ("Throw & Catch", « Lancer et Réception »)."""
    return _(THROW_CATCH)


def throw_catch_cards(throw_letter: str, throw_number: int, catch_letter: str, catch_number: int) -> str:
    return _("Throw {throw_letter} ({throw_number}), Catch {catch_letter} ({catch_number})").format(
        throw_letter=throw_letter, throw_number=throw_number, catch_letter=catch_letter, catch_number=catch_number)


def throw_catch_typed(throw: int, catch: int) -> str:
    return _("Throw {throw}, Catch {catch}").format(throw=throw, catch=catch)


def throw_catch(rule: str, how: str, points: int) -> str:
    """`how` names the cards ("Throw B (1), Catch G (3)") or the typed numbers ("Throw 1, Catch 3")."""
    return _("Throw & Catch: {how} = {points} ({rule})").format(how=how, points=points,
                                                               rule=THROW_CATCH_RULE[rule])


# --- Collections / Cuisine / Americana ------------------------------------------------------------------------

COLLECTION_SHEET = Translated({
    "double_if_at_most_7": N_("Add the values. Total 1–7: double it. 8 or more: score it as it is."),
    "halve_above_7": N_("Add the values. Total 1–7: score it. 8 or more: half, rounded up."),
    "must_beat_previous": N_("Add the values. You must beat last round's total or score 0 "
                             "(after a 0, any total of 1+ scores)."),
})


def _double_text(total: int, previous_score: int, points: int) -> str:
    if total <= 7:
        return _("{total} ≤ 7, doubled = {points}").format(total=total, points=points)
    return _("{total} > 7, not doubled = {points}").format(total=total, points=points)


def _halve_text(total: int, previous_score: int, points: int) -> str:
    if total <= 7:
        return _("{total} ≤ 7 = {points}").format(total=total, points=points)
    return _("{total} ≥ 8, halved and rounded up = {points}").format(total=total, points=points)


def _beat_text(total: int, previous_score: int, points: int) -> str:
    if previous_score < 0:
        return _("{total}, first round = {points}").format(total=total, points=points)
    if points:
        message = _("{total}, more than last round's {previous} = {points}")
    else:
        message = _("{total}, not more than last round's {previous} = {points}")
    return message.format(total=total, previous=previous_score, points=points)


COLLECTION_RULE = {
    "double_if_at_most_7": _double_text,
    "halve_above_7": _halve_text,
    "must_beat_previous": _beat_text,
}


def collection_parts(counted: Sequence[tuple[str, int, int]]) -> str:
    """The icons counted, (icon label, value, count) each: "Beer 1×2 + Wine 3×1", or "nothing"."""
    if not counted:
        return _("nothing")
    return " + ".join(_("{icon} {value}×{count}").format(icon=icon, value=value, count=count)
                      for icon, value, count in counted)


def collection_typed() -> str:
    """What stands for the icons when their total was typed."""
    return _("icons total")


def collection(family_name: str, parts: str, rule: str, total: int, previous_score: int, points: int) -> str:
    """`parts` lists the icons counted ("Beer 1×2 + Wine 3×1") or says the total was typed."""
    return _("{family}: {parts} = {result}").format(
        family=family_name, parts=parts, result=COLLECTION_RULE[rule](total, previous_score, points))


# --- Animals / Transport: pairs ---------------------------------------------------------------------------------

PAIRS_SHEET = N_("Each matching pair scores its value once (3 of a kind = 1 pair).")


def pairs_sheet() -> str:
    return _(PAIRS_SHEET)


def pairs_count(pairs: int) -> str:
    if not pairs:
        return _("no pair")
    return ngettext("{n} pair", "{n} pairs", pairs).format(n=pairs)


def pairs_part(icon: str, count: int, pairs: int, points: int) -> str:
    """One icon's pairs: "Trout ×3 (1 pair) = 3"."""
    return _("{icon} ×{count} ({pairs}) = {points}").format(icon=icon, count=count, pairs=pairs_count(pairs),
                                                          points=points)


def pairs(family_name: str, parts: list[str], points: int) -> str:
    if not parts:
        return _("{family}: none = {points}").format(family=family_name, points=points)
    # each part ends "= its points": the sum is named, not one more "=" ("… = 0 = 7" would read as 0 = 7)
    return _("{family}: {parts} — total {points}").format(family=family_name, parts=", ".join(parts),
                                                         points=points)


def pairs_typed(family_name: str, points: int) -> str:
    return _("{family}: {points} (typed)").format(family=family_name, points=points)


# --- Activities / National Treasures ------------------------------------------------------------------------

def choice_sheet(edition: Edition) -> str:
    return _("Optional: score one of the {n} per round, each only once per game.").format(
        n=len(edition.choice.icons))


def choice_none(family_name: str) -> str:
    return _("{family}: none chosen").format(family=family_name)


def choice_own(family_name: str, icon: str, own: int, points: int) -> str:
    return _("{family}: {icon} ×{own} = {points}").format(family=family_name, icon=icon, own=own, points=points)


def choice_others(family_name: str, icon: str, others: int, per_icon: int, n_players: int, points: int) -> str:
    return _("{family}: {icon}: {others} on other players' cards × {per_icon} ({n_players} players) "
             "= {points}").format(family=family_name, icon=icon, others=others, per_icon=per_icon,
                                  n_players=n_players, points=points)


#: The explicit "no choice" button and the thing it leaves out, by choice rule (an activity is scored from
#: one's own cards, a treasure from the others'): "No activity" / "save with no activity?".
CHOICE_NONE_BUTTON = Translated({"activity_table": N_("No activity"), "treasure_others": N_("No treasure")})
CHOICE_CHOOSE_PROMPT = Translated({
    "activity_table": N_("Choose an activity to score this round, or No activity"),
    "treasure_others": N_("Choose a treasure to score this round, or No treasure")})


def choice_so_far(choice: str, points: int) -> str:
    """A choice button whose points other players' cards, not entered yet, may still raise."""
    return ngettext("{choice} · {n} pts so far", "{choice} · {n} pts so far", points).format(choice=choice,
                                                                                            n=points)


def choice_may_rise_note(family_name: str) -> str:
    return _("{family}: points so far — others' cards may raise them (not all entered yet)").format(
        family=family_name)


#: Asked once when a round is saved with no choice while an unused one would score (the best of them);
#: `MAY_RISE` where other players' cards, not all entered yet, may raise it; `UNKNOWN` where the pad cannot
#: know the points (a round entered by category).
CHOICE_MISSING = Translated({"activity_table": N_("{choice} would score {points} — save with no activity?"),
                             "treasure_others": N_("{choice} would score {points} — save with no treasure?")})
CHOICE_MISSING_MAY_RISE = Translated({
    "activity_table": N_("{choice} scores {points} so far and may score more — save with no activity?"),
    "treasure_others": N_("{choice} scores {points} so far and may score more once everyone's cards are in — "
                          "save with no treasure?")})
CHOICE_MISSING_UNKNOWN = Translated({
    "activity_table": N_("No activity is chosen — save with no activity?"),
    "treasure_others": N_("No treasure is chosen — save with no treasure?")})


def choice_missing_question(rule: str, choice: str, points: int, may_rise: bool) -> str:
    table = CHOICE_MISSING_MAY_RISE if may_rise else CHOICE_MISSING
    return table[rule].format(choice=choice, points=points)


def choice_typed(family_name: str, icon: str, count: int, points: int) -> str:
    return _("{family}: {icon} ×{count} = {points}").format(family=family_name, icon=icon, count=count,
                                                           points=points)


def choice_once_heading() -> str:
    """Above the round-end choice's options: each scores once per game."""
    return _("Score one (each only once per game):")


def choice_pick_prompt(family_name: str) -> str:
    return _("{family}: pick one to score this round (each once per game)").format(family=family_name)


def throw_catch_pending(category: str, cards: int, hand_size: int) -> str:
    """The letters preview before the row is whole: Throw & Catch needs the first and the last card."""
    return _("{category}: scored when all {n} cards are in ({count} so far)").format(
        category=category, n=hand_size, count=cards)


def choice_chosen(category: str, choice: str, points: int) -> str:
    """The letters preview's line for the choice made: "Activities: Swimming = 4"."""
    return _("{category}: {choice} = {points}").format(category=category, choice=choice, points=points)


def sites_preview(letters: str) -> str:
    """The letters preview's sites line: the new letters this row crosses out ("new: A, C"), or none."""
    return _("new: {letters}").format(letters=letters) if letters else _("new: none")


def choice_used(where: str, icon: str, family_name: str, round_number: int) -> str:
    return _at(where, _("{icon} was already scored in round {round}; each of the {family} scores once per game")
               .format(icon=icon, round=round_number, family=family_name))


def choice_needs_icon(where: str, icon: str) -> str:
    return _at(where, _("{icon} needs at least one {icon} icon on the player's cards").format(icon=icon))


def choice_unknown(where: str, name: str, edition: Edition) -> str:
    """`where` ("round 2, Ann") may be empty, for a form that names no round yet."""
    options = ", ".join(i.label for i in edition.choice.icons)
    message = _("{name} is not one of the {family} ({options})").format(
        name=repr(name), family=edition.choice.label, options=options)
    return _at(where, message) if where else message


# --- Sites, regions, the route --------------------------------------------------------------------------------

def sites_new(edition: Edition, letters: str, count: int) -> str:
    if not letters:
        return _("{sites}: new none = +{count} (already in the total)").format(sites=edition.sites_label,
                                                                              count=count)
    return _("{sites}: new {letters} = +{count} (already in the total)").format(
        sites=edition.sites_label, letters=letters, count=count)


def sites_typed(edition: Edition, count: int) -> str:
    return ngettext("{sites}: +{count} new (already in the total)", "{sites}: +{count} new (already in the total)",
                    count).format(sites=edition.sites_label, count=count)


def region_bonus(region: str, bonus: int, shared: bool) -> str:
    if shared:
        return _("Region bonus: {region} complete first (shared) = +{bonus}").format(region=region, bonus=bonus)
    return _("Region bonus: {region} complete first = +{bonus}").format(region=region, bonus=bonus)


def region_struck_out(region: str) -> str:
    return _("Region bonus: {region} complete, but already claimed: struck out").format(region=region)


def route_bonus(route: str, points: int, shared: bool) -> str:
    if shared:
        return _("{route}: achieved (shared tier) = +{points}").format(route=route, points=points)
    return _("{route}: achieved = +{points}").format(route=route, points=points)


def region_hint(region: str, bonus: int, claimed: bool) -> str:
    """The letters preview's note on a region the cards so far complete (settled at round close)."""
    if claimed:
        return _("{region} complete, but already claimed (struck out)").format(region=region)
    return _("{region} complete: +{bonus} at round close unless claimed first").format(region=region, bonus=bonus)


def route_hint(route: str) -> str:
    return _("{route} achieved: scored at round close").format(route=route)


#: A route tier's caption on the pad, by tier index.
TIER_CAPTIONS = (N_("1st"), N_("2nd"), N_("3rd"), N_("4th"))


def route_tier_labels(route: Route) -> list[tuple[int, str]]:
    """(points, caption) per bonus tier as printed: 1st, 2nd, and the last one's player-count condition."""
    labels = []
    for i, points in enumerate(route.tiers):
        last = i == len(route.tiers) - 1
        caption = _("others") if route.last_tier_repeats and last and i > 1 else _(TIER_CAPTIONS[i])
        if last and route.last_tier_min_players > 2 and len(route.tiers) > 1:
            caption = _("{caption} ({least}–4 pl.)").format(caption=caption, least=route.last_tier_min_players)
        labels.append((points, caption))
    return labels


def route_achieved_in(route: str, round_number: int, points: int) -> str:
    """The sheet's line on a route achieved: "Coast to coast: achieved in round 3, +7"."""
    return _("{route}: achieved in round {round}, +{points}").format(route=route, round=round_number,
                                                                      points=points)


def route_not_yet(route: str) -> str:
    return _("{route}: not yet").format(route=route)


def route_regions_visited(route: str, seen: int, regions: int) -> str:
    """Europe's passport on the way: "Passport: 4 of 6 regions visited"."""
    return ngettext("{route}: {seen} of {n} regions visited", "{route}: {seen} of {n} regions visited",
                    seen).format(route=route, seen=seen, n=regions)


def route_pathways_drawn(route: str, drawn: int) -> str:
    """USA's coast to coast on the way: "Coast to coast: not yet (5 pathways drawn)"."""
    return ngettext("{route}: not yet ({n} pathways drawn)", "{route}: not yet ({n} pathways drawn)",
                    drawn).format(route=route, n=drawn)


def tier_takers(names: Sequence[str], round_number: int) -> str:
    """Who circled a route tier and when, on its chip: "Ann, Bob R2"."""
    return _("{names} R{round}").format(names=", ".join(names), round=round_number)


def tier_chip(points: int, takers: str, still_open: bool, next_up: bool) -> str:
    """A route tier as the pad's chip reads: taken ("+7 Ann R2"), taken and still open (a repeating last
    tier), on offer next, or open."""
    if takers and still_open:
        return _("+{points} {takers} · still open").format(points=points, takers=takers)
    if takers:
        return f"+{points} {takers}"
    if next_up:
        return _("+{points} next").format(points=points)
    return _("+{points} open").format(points=points)


def tiers_open(open_tiers: Sequence[int], repeats: bool, taken: bool) -> str:
    """The route tiers still on offer, next first: "next 7, 3 then 1 points" / "1 point for anyone else" /
    "none left"."""
    if not open_tiers:
        return _("none left")
    if repeats and len(open_tiers) == 1 and taken:
        return ngettext("{n} point for anyone else", "{n} points for anyone else", open_tiers[0]).format(
            n=open_tiers[0])
    listed = ", ".join(str(t) for t in open_tiers[:-1])
    if listed:
        return _("next {listed} then {n} points").format(listed=listed, n=open_tiers[-1])
    return ngettext("next {n} point", "next {n} points", open_tiers[0]).format(n=open_tiers[0])


def regions_none_left() -> str:
    """No region's bonus is left to take."""
    return _("none left")


def sites_sheet(edition: Edition) -> str:
    if edition.route is not None and edition.route.edges:  # the pad draws the town map
        return _("Cross out each {site} you visit; draw each pathway once both its {sites} are visited.").format(
            site=edition.site_noun_label(), sites=edition.site_noun_label(plural=True))
    return _("Cross out each letter you visit. First to complete a region: circle its star "
             "(others scribble it out).")


def route_sheet(edition: Edition) -> str:
    if edition.route is not None and edition.route.kind == "coast":
        return _("First to join a west-coast {site} to an east-coast {site} along drawn pathways.").format(
            site=edition.site_noun_label())
    return _("First to visit at least one {site} in every region: circle your bonus.").format(
        site=edition.site_noun_label())


def sheet_heading(rounds: int, provenance: str) -> str:
    """The printed sheet's line under the edition's name: how many rounds, who wins, whose design it is."""
    return ngettext("Score sheet · {rounds} round · highest total wins · {provenance}",
                    "Score sheet · {rounds} rounds · highest total wins · {provenance}", rounds).format(
        rounds=rounds, provenance=provenance)


def activity_table_caption() -> str:
    """Under the printed activity table: what the icons counted are."""
    return _("of the chosen icon on your 7 cards")


def treasure_table_caption() -> str:
    """Above the printed treasure table: what is counted, and the one icon a player needs."""
    return _("Per matching icon on the other players' cards (you need at least one yourself):")


def sites_end_sheet(edition: Edition) -> tuple[str, str]:
    return (_("{sites} visited").format(sites=edition.sites_label), _("1 point per letter crossed out"))


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
PLACES = (N_("first"), N_("second"), N_("third"), N_("fourth"))


class RoutePhrases(NamedTuple):
    """Every sentence a round summary says about one kind of route, whole (French orders them its own way).
    Placeholders: {people} (a name list), {place} (a `PLACES` word), {points}."""

    #: "Cy was first coast to coast: +7"
    placed: str
    #: "Ann and Bob both reached coast to coast this round: first place, +7 each" (two, then three or more)
    placed_both: str
    placed_all: str
    #: one late achiever, then several, when no tier is left
    none_left_one: str
    none_left_both: str
    none_left_all: str
    #: a repeating last tier taken again (USA's "anyone else"): one, then several
    again_one: str
    again_several: str


#: How each kind of route is said, chosen by the route's kind (edition data).
ROUTE_PHRASES = {
    "coast": RoutePhrases(
        N_("{people} was {place} coast to coast: +{points}"),
        N_("{people} both reached coast to coast this round: {place} place, +{points} each"),
        N_("{people} all reached coast to coast this round: {place} place, +{points} each"),
        N_("{people} reached coast to coast too, but its bonuses are all taken: no bonus"),
        N_("{people} both reached coast to coast this round, but its bonuses are all taken: no bonus"),
        N_("{people} all reached coast to coast this round, but its bonuses are all taken: no bonus"),
        N_("{people} also reached coast to coast: +{points} (anyone else scores {points})"),
        N_("{people} also reached coast to coast: +{points} each (anyone else scores {points})")),
    "passport": RoutePhrases(
        N_("{people} was {place} to complete the passport: +{points}"),
        N_("{people} both completed the passport this round: {place} place, +{points} each"),
        N_("{people} all completed the passport this round: {place} place, +{points} each"),
        N_("{people} completed the passport too, but its bonuses are all taken: no bonus"),
        N_("{people} both completed the passport this round, but its bonuses are all taken: no bonus"),
        N_("{people} all completed the passport this round, but its bonuses are all taken: no bonus"),
        N_("{people} also completed the passport: +{points} (anyone else scores {points})"),
        N_("{people} also completed the passport: +{points} each (anyone else scores {points})")),
}


def name_list(names: Sequence[str]) -> str:
    """"Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    if len(names) == 1:
        return names[0]
    return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


def region_summary(region: str, bonus: int, who: Sequence[str]) -> str:
    if len(who) == 1:
        return _("{who} was first to complete {region}: +{bonus}").format(who=who[0], region=region, bonus=bonus)
    message = (_("{people} both completed {region} this round: +{bonus} each") if len(who) == 2
               else _("{people} all completed {region} this round: +{bonus} each"))
    return message.format(people=name_list(who), region=region, bonus=bonus)


def region_struck_summary(region: str, who: Sequence[str], taken_by: Sequence[str], taken_round: int | None) -> str:
    if taken_by and taken_round:
        return _("{people} completed {region} too, but {takers} took it in round {round}: no bonus").format(
            people=name_list(who), region=region, takers=name_list(taken_by), round=taken_round)
    return _("{people} completed {region} too, but it was already taken: no bonus").format(
        people=name_list(who), region=region)


def route_summary(route: Route, who: Sequence[str], tier: int, points: int, tiers: int, repeat: bool) -> str:
    """One route settlement. `tier` is the tier index scored (its place); `tiers` how many there are at
    this player count (`tier == tiers`: none was left); `repeat` when a repeating last tier was already
    taken before (USA's "1pt for anyone else")."""
    phrases = ROUTE_PHRASES[route.kind]
    people = name_list(who)
    if tier >= tiers:
        message = (phrases.none_left_one if len(who) == 1 else
                   phrases.none_left_both if len(who) == 2 else phrases.none_left_all)
        return _(message).format(people=people)
    if repeat:
        return _(phrases.again_one if len(who) == 1 else phrases.again_several).format(people=people, points=points)
    message = phrases.placed if len(who) == 1 else phrases.placed_both if len(who) == 2 else phrases.placed_all
    return _(message).format(people=people, place=_(PLACES[tier]), points=points)


def round_bonus_summary(edition: Edition, awards_this_round: Sequence[SettledBonus], names: Sequence[str],
                        struck_out: Sequence[StruckRegion] = (),
                        earlier: Sequence[Sequence[SettledBonus]] = ()) -> list[str]:
    """One sentence per shared bonus settled in a round, naming who took it and why, in settlement order
    (regions in the edition's order, then the route); then one per region completed after an earlier
    round took it, when `struck_out` lists them.

    `names[p]` is player p's name; `earlier` holds the awards of the rounds before this one (the
    `awards=` lists of `rules.record.score_rounds`): a struck-out sentence names who took the region and
    when from it, and a repeat of USA's "anyone else" tier is told from its first taking by it. Regions
    are named by their label (the language of the moment); the awards keep the English key.
    """
    n_players = len(names)
    route = edition.route
    tiers = len(route.tiers_for(n_players)) if route is not None else 0
    earlier_route_tiers = {a.tier for settled in earlier for a in settled if a.region < 0}
    lines = []
    for award in awards_this_round:
        who = [names[p] for p in award.players]
        if award.region >= 0 or route is None:
            lines.append(region_summary(_region_label(edition, award.region, award.name), award.points, who))
            continue
        repeat = route.last_tier_repeats and award.tier == tiers - 1 and award.tier in earlier_route_tiers
        lines.append(route_summary(route, who, award.tier, award.points, tiers, repeat))
    taken_in = {a.region: (r + 1, a.players) for r, settled in enumerate(earlier) for a in settled
                if a.region >= 0}
    for struck in struck_out:
        taken_round, takers = taken_in.get(struck.region, (None, ()))
        lines.append(region_struck_summary(_region_label(edition, struck.region, struck.name),
                                           [names[p] for p in struck.players],
                                           [names[p] for p in takers], taken_round))
    return lines


def _region_label(edition: Edition, index: int, name: str) -> str:
    return edition.regions[index].label if 0 <= index < len(edition.regions) else name


def bonus_summaries(edition: Edition, awards: Sequence[Sequence[SettledBonus]], names: Sequence[str],
                    struck_out: Sequence[Sequence[StruckRegion]] = ()) -> list[list[str]]:
    """`round_bonus_summary` for every round of a game, from `score_rounds(..., awards=, struck_out=)`."""
    return [round_bonus_summary(edition, settled, names, struck_out[r] if r < len(struck_out) else (),
                                awards[:r])
            for r, settled in enumerate(awards)]


# --- game end ----------------------------------------------------------------------------------------------

def tie_breakers(edition: Edition) -> str:
    """The tie-breakers in order, as the end screen explains a tie: "route points, then Throw & Catch points"."""
    said = [_("route points") if b == "route" else _("{category} points").format(category=throw_catch_name())
            for b in edition.tie_breakers]
    return _list_then(said)


def tie_sentences(edition: Edition, names: Sequence[str], totals: Sequence[int], ranks: Sequence[int]) -> list[str]:
    """One sentence per tie on the total, saying how the tie-breakers settled it (or did not): "Ann and Bob
    tie on 61; broken by route points: Bob #1, Ann #2"."""
    lines = []
    for total in sorted(set(totals), reverse=True):
        tied = [p for p in range(len(names)) if totals[p] == total]
        if len(tied) < 2:
            continue
        who = name_list([names[p] for p in tied])
        breakers = tie_breakers(edition)
        if len({ranks[p] for p in tied}) == 1:
            lines.append(_("{who} tie on {total}; still tied after {breakers}: they share #{rank}").format(
                who=who, total=total, breakers=breakers, rank=ranks[tied[0]]))
        else:
            order = ", ".join(f"{names[p]} #{ranks[p]}" for p in sorted(tied, key=lambda p: ranks[p]))
            lines.append(_("{who} tie on {total}; broken by {breakers}: {order}").format(
                who=who, total=total, breakers=breakers, order=order))
    return lines


def _list_then(items: Sequence[str]) -> str:
    """"a, then b, then c": tie-breakers in the order they are applied."""
    text = items[0] if items else ""
    for item in items[1:]:
        text = _("{first}, then {next}").format(first=text, next=item)
    return text


def tie_sheet(edition: Edition) -> str:
    """The printed pad's tie rule, naming the edition's route ("" when the edition has no tie-breaker)."""
    names = {"route": edition.route.label if edition.route else "", "throw_catch": throw_catch_name()}
    breakers = _list_then([names[b] for b in edition.tie_breakers if names.get(b)])
    return _("Tie: most points for {breakers} wins.").format(breakers=breakers) if breakers else ""


# --- the rounds' own rules -------------------------------------------------------------------------------------

DIRECTION_VARIANT_PLAYERS = N_("the direction variant is for 3 or 4 players")


def direction_variant_players() -> str:
    return _(DIRECTION_VARIANT_PLAYERS)


def direction_variant_name() -> str:
    """The set-up's switch for the direction variant: its label, short, as a switch's label does not wrap."""
    return _("Direction variant")


def direction_variant_effect() -> str:
    """What the direction variant changes, said under its switch."""
    return _("With 3–4 players, pass right in rounds 2 and 4.")


def direction_variant_solo_switch() -> str:
    """The solo set-up's switch for the direction variant (the bots count as players)."""
    return _("Direction variant (3–4 players): pass right in rounds 2 and 4")


def round_heading(round_number: int, rounds: int, pass_left: bool | None = None) -> str:
    """"Round 2 of 4", with the way the hands pass when the direction variant is on (`pass_left`, from
    `rules.engine.passes_left`; None without the variant)."""
    if pass_left is None:
        return _("Round {round} of {rounds}").format(round=round_number, rounds=rounds)
    message = _("Round {round} of {rounds} · pass left") if pass_left else _("Round {round} of {rounds} · pass right")
    return message.format(round=round_number, rounds=rounds)


def card_clash(where: str, letters: str, many: bool, other: str, round_number: int) -> str:
    message = (_("letters {letters} already in {other}'s round {round} cards; each card is drafted once a round")
               if many else
               _("letter {letters} already in {other}'s round {round} cards; each card is drafted once a round"))
    return _at(where, message.format(letters=letters, other=other, round=round_number))


def round_before_complete(round_number: int) -> str:
    return _("round {n} cannot be entered before round {previous} is complete").format(
        n=round_number, previous=round_number - 1)


def letter_unknown(where: str, letter: str, edition: Edition) -> str:
    return _at(where, _("{letter} is not a card of {edition} (cards are {letters})").format(
        letter=repr(letter), edition=edition.label, letters=edition.letters))


def letter_twice(where: str, letter: str) -> str:
    return _at(where, _("letter {letter} appears twice; each card is drafted once a round").format(
        letter=repr(letter)))


def row_length(where: str, count: int, letters: str, hand_size: int) -> str:
    message = ngettext("{count} card ({letters}); a round's row has exactly {size}, Throw first and Catch last",
                       "{count} cards ({letters}); a round's row has exactly {size}, Throw first and Catch last",
                       count)
    return _at(where, message.format(count=count, letters=letters or _("none"), size=hand_size))


# --- category mode: the fields a player types -----------------------------------------------------------------

def category_labels(edition: Edition) -> dict[str, str]:
    family = edition.collection.label
    if edition.choice.rule == "treasure_others":
        choice_count = _("{family}: icons on the other players' cards").format(family=edition.choice.label)
    else:
        choice_count = _("{family}: icons on your cards").format(family=edition.choice.label)
    return {"throw": _("Throw card number"), "catch": _("Catch card number"),
            "collection": _("{family}: icon total").format(family=family),
            "pairs": _("{family}: points").format(family=edition.pairs.label),
            "choice": edition.choice.label, "choice_count": choice_count,
            "sites": _("New {sites}").format(sites=edition.site_noun_label(plural=True)),
            "regions": _("Regions completed"), "route": _("Route")}


# --- Race Around Europe: the printed board's rules ---------------------------------------------------------------

def race_no_border() -> str:
    """A country tile's note when no land border leaves it."""
    return _("No border: ship or aeroplane only")


def race_no_border_cell() -> str:
    """A table's cell for a country no land border leaves."""
    return _("- (ship or aeroplane only)")


def race_map_note(colours: str) -> str:
    return _("With {colours}. Schematic, not to scale: a line joins countries that connect on foot, and ends "
             "only at those two.").format(colours=colours)


def race_colours_legend() -> str:
    return _("Colours (aeroplanes fly between two countries of their colour):")


def race_seas_legend() -> str:
    return _("Seas (a ship joins two countries on its sea):")


def race_black_sea() -> str:
    return _("The Black Sea is not used.")


def race_bridge_legend() -> str:
    return _("bridge (ferries and the bridge count as borders)")


def race_two_tiles_legend() -> str:
    return _("* two tiles of this country (never side by side in a journey)")


def race_tiles(countries: int, planes: int, ships: int) -> str:
    return _("Tiles: {countries} countries, {planes} aeroplanes (2 per colour), {ships} ships (4 Atlantic, "
             "3 Mediterranean, 2 Baltic).").format(countries=countries, planes=planes, ships=ships)
