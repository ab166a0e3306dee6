"""Edition files (TOML or JSON) as pydantic models: the edge where bad data is refused.

A loaded `EditionSpec` is checked against the rulebooks' invariants and then compiled into the plain
`rules.edition.Edition` tables the engine uses; nothing past this module validates per step.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from rules.i18n import DEFAULT_LANGUAGE, check_language
from rules.locale import _
from rules.text import PACK_ID_LENGTH

#: The 28 card letters every Boomerang edition uses, in rulebook order.
LETTERS: tuple[str, ...] = (*"ABCDEFGHIJKLMNOPQRSTUVWXYZ", "@", "#")
CARD_COUNT = len(LETTERS)
CARDS_PER_NUMBER = 4
HEX_COLOR = r"^#[0-9A-Fa-f]{6}$"


class EditionDataError(ValueError):
    """An edition or deck pack that breaks a rule; the message names the card and the field."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _spoken(language: str) -> str:
    """A translation's language must be one tourpad speaks (and not English, the names' own language)."""
    if language == DEFAULT_LANGUAGE:
        raise ValueError("English is the name itself: give only other languages here")
    return check_language(language)


#: A name in other languages than English, by language code: `names = { fr = "Truite" }`. The English
#: name stays the key every rule and record uses; these are only what a person reads.
Translations = dict[Annotated[str, AfterValidator(_spoken)], Annotated[str, Field(min_length=1, max_length=48)]]


class IconSpec(_Strict):
    name: str = Field(min_length=1, max_length=40)
    names: Translations = Field(default_factory=dict)
    value: int | None = Field(default=None, ge=0, le=20)
    #: How many cards of the deck show this icon, when a rulebook says so; checked on load.
    count: int | None = Field(default=None, ge=0, le=CARD_COUNT)


class FamilySpec(_Strict):
    """One of a card's three icon families (e.g. Australia's Collections, Animals, Activities)."""

    id: str = Field(pattern=r"^[a-z_]+$")
    name: str
    names: Translations = Field(default_factory=dict)
    rule: str | None = None
    icons: list[IconSpec] = Field(min_length=1, max_length=8)
    #: Activity points by icon count (index = count), for the "activity_table" rule.
    table: list[int] | None = None
    #: Points per matching icon on other players' cards, by player count, for "treasure_others".
    per_icon_by_players: dict[int, int] | None = None

    @field_validator("icons")
    @classmethod
    def _unique_icon_names(cls, icons: list[IconSpec]) -> list[IconSpec]:
        repeated = [n for n, k in Counter(i.name for i in icons).items() if k > 1]
        if repeated:
            raise ValueError(_("icon {name} is listed twice").format(name=repr(repeated[0])))
        return icons


class RegionSpec(_Strict):
    name: str = Field(min_length=1, max_length=40)
    names: Translations = Field(default_factory=dict)
    bonus: int = Field(ge=0, le=10)
    color: str = Field(pattern=HEX_COLOR)


class RouteSpec(_Strict):
    """The edition's shared first-come bonus beside the regions (Europe's passport, USA's coast-to-coast)."""

    kind: Literal["passport", "coast"]
    id: str = Field(pattern=r"^[a-z_]+$")
    name: str
    names: Translations = Field(default_factory=dict)
    tiers: list[int] = Field(min_length=1, max_length=4)
    #: The last tier is only awarded with at least this many players (the rulebooks' "3 or 4-player game").
    last_tier_min_players: int = Field(default=2, ge=2, le=4)
    #: Whether the last tier goes on being awarded to every later achiever (USA: "1pt for anyone else").
    last_tier_repeats: bool = False


class MapSpec(_Strict):
    """USA's town graph: pathways between letters and the towns on each coast."""

    edges: list[tuple[str, str]] = Field(min_length=1)
    west_coast: list[str] = Field(min_length=1)
    east_coast: list[str] = Field(min_length=1)


class CardSpec(_Strict):
    letter: str
    site: str = Field(min_length=1, max_length=48)
    site_names: Translations = Field(default_factory=dict)
    region: str
    number: int = Field(ge=1, le=7)
    icons: list[str] = Field(default_factory=list, max_length=3)


class EditionSpec(_Strict):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]*$", max_length=PACK_ID_LENGTH)
    name: str
    names: Translations = Field(default_factory=dict)
    provenance: Literal["publisher", "tourpad", "owner"]
    site_noun: str = Field(default="site", min_length=1, max_length=40)
    #: Its plural ("countries"); when left out, the regular English plural of `site_noun`.
    sites_noun: str | None = Field(default=None, min_length=1, max_length=40)
    #: The site noun in other languages, singular and plural: `site_nouns = { fr = ["ville", "villes"] }`.
    site_nouns: dict[Annotated[str, AfterValidator(_spoken)], tuple[Annotated[str, Field(min_length=1, max_length=40)],
                                          Annotated[str, Field(min_length=1, max_length=40)]]] = \
        Field(default_factory=dict)
    throw_catch: Literal["difference", "throw_if_caught"]
    tie_breakers: list[Literal["route", "throw_catch"]]
    #: The edition this pack's rules come from (a deck pack typed in by an owner names "europe" etc.).
    base: str | None = None
    collection: FamilySpec
    pairs: FamilySpec
    choice: FamilySpec
    route: RouteSpec | None = None
    map: MapSpec | None = None
    regions: list[RegionSpec] = Field(min_length=1)
    cards: list[CardSpec]

    @model_validator(mode="after")
    def _check_rulebook_invariants(self) -> EditionSpec:
        check_invariants(self)
        return self


COLLECTION_RULES = ("double_if_at_most_7", "halve_above_7", "must_beat_previous")
CHOICE_RULES = ("activity_table", "treasure_others")


def _fail(where: str, problem: str) -> None:
    raise EditionDataError(_("{where}: {problem}").format(where=where, problem=problem))


def _card(letter: str, position: int) -> str:
    return _("card {letter} (#{position})").format(letter=repr(letter), position=position)


def _region(name: str) -> str:
    return _("region {name}").format(name=repr(name))


def _family_icon(family: str, icon: str) -> str:
    return _("{family} icon {name}").format(family=family, name=repr(icon))


def _map_edge(a: str, b: str) -> str:
    return _("map edge {a}–{b}").format(a=a, b=b)


def check_invariants(spec: EditionSpec) -> None:
    """The structural facts every rulebook states; each failure names the card (or part) and field."""
    unknown_rule = _("unknown rule {rule}; expected one of {rules}")
    if spec.collection.rule not in COLLECTION_RULES:
        _fail("collection.rule", unknown_rule.format(rule=repr(spec.collection.rule), rules=COLLECTION_RULES))
    if spec.choice.rule not in CHOICE_RULES:
        _fail("choice.rule", unknown_rule.format(rule=repr(spec.choice.rule), rules=CHOICE_RULES))
    if spec.choice.rule == "activity_table" and (not spec.choice.table or spec.choice.table[0] != 0):
        _fail("choice.table", _("an activity table starting with 0 points for 0 icons is required"))
    if spec.choice.rule == "treasure_others" and set(spec.choice.per_icon_by_players or {}) != {2, 3, 4}:
        _fail("choice.per_icon_by_players", _("points per icon are needed for 2, 3 and 4 players"))
    for family in (spec.collection, spec.pairs):
        for icon in family.icons:
            if icon.value is None:
                _fail(_family_icon(family.id, icon.name), _("a value is required"))

    families = {"collection": spec.collection, "pairs": spec.pairs, "choice": spec.choice}
    icon_family: dict[str, str] = {}
    for role, family in families.items():
        for icon in family.icons:
            if icon.name in icon_family:
                _fail(_("icon {name}").format(name=repr(icon.name)),
                      _("appears in both {first} and {second}").format(first=icon_family[icon.name],
                                                                       second=family.id))
            icon_family[icon.name] = role

    region_names = [r.name for r in spec.regions]
    for name, k in Counter(region_names).items():
        if k > 1:
            _fail(_region(name), _("is listed twice"))

    if len(spec.cards) != CARD_COUNT:
        given = {card.letter for card in spec.cards}
        missing = [letter for letter in LETTERS if letter not in given]
        if missing:
            problem = _("a deck has {deck} cards (A–Z, @, #); this one has {count}; missing {missing}").format(
                deck=CARD_COUNT, count=len(spec.cards), missing=", ".join(missing))
        else:
            problem = _("a deck has {deck} cards (A–Z, @, #); this one has {count}").format(
                deck=CARD_COUNT, count=len(spec.cards))
        _fail("cards", problem)
    letters_seen: dict[str, int] = {}
    for position, card in enumerate(spec.cards, start=1):
        where = _card(card.letter, position)
        if card.letter not in LETTERS:
            _fail(where, _("letter must be one of A–Z, @ or #"))
        if card.letter in letters_seen:
            _fail(where, _("letter already used by card #{position}").format(position=letters_seen[card.letter]))
        letters_seen[card.letter] = position
        if card.region not in region_names:
            _fail(where, _("region {name} is not one of the edition's regions {regions}").format(
                name=repr(card.region), regions=region_names))
        roles_on_card: list[str] = []
        for icon in card.icons:
            if icon not in icon_family:
                _fail(where, _("icon {name} is not an icon of this edition ({icons})").format(
                    name=repr(icon), icons=sorted(icon_family)))
            role = icon_family[icon]
            if role in roles_on_card:
                _fail(where, _("has two {family} icons; a card shows at most one per family").format(
                    family=families[role].name))
            roles_on_card.append(role)

    numbers = Counter(card.number for card in spec.cards)
    for number in range(1, 8):
        if numbers[number] != CARDS_PER_NUMBER:
            cards = ", ".join(c.letter for c in spec.cards if c.number == number) or _("none")
            _fail(_("number {n}").format(n=number), _("must be on exactly {each} cards; found on {cards}").format(
                each=CARDS_PER_NUMBER, cards=cards))

    icon_counts = Counter(icon for card in spec.cards for icon in card.icons)
    for family in families.values():
        for icon in family.icons:
            if icon.count is not None and icon_counts[icon.name] != icon.count:
                _fail(_family_icon(family.id, icon.name),
                      _("the rulebook has it on {count} cards; this deck has {found}").format(
                          count=icon.count, found=icon_counts[icon.name]))

    for region in spec.regions:
        if not any(card.region == region.name for card in spec.cards):
            _fail(_region(region.name), _("has no card"))

    if spec.route is not None and spec.route.kind == "coast" and spec.map is None:
        _fail("map", _("a coast-to-coast bonus needs the town map (edges, west_coast, east_coast)"))
    if spec.map is not None:
        for a, b in spec.map.edges:
            for end in (a, b):
                if end not in letters_seen:
                    _fail(_map_edge(a, b), _("{letter} is not a card letter").format(letter=repr(end)))
            if a == b:
                _fail(_map_edge(a, b), _("joins a town to itself"))
        for side in ("west_coast", "east_coast"):
            for letter in getattr(spec.map, side):
                if letter not in letters_seen:
                    _fail(f"map.{side}", _("{letter} is not a card letter").format(letter=repr(letter)))


def check_new_deck(spec: EditionSpec) -> None:
    """The rules a deck must meet to be installed (`tourpad deck check` and import, the deck editor, a shared
    deck) beyond `check_invariants`: what makes it the game its rulebook describes, though scoring would go
    on without them. A deck read back (installed earlier, kept by a saved game) is not held to them, so a
    rule added later never makes a game already played unreadable."""
    if spec.map is not None:
        _check_coast_to_coast(spec.map)


def coast_reach(town_map: MapSpec) -> set[str]:
    """Every town a chain of pathways reaches from the west coast (the west coast's own towns included)."""
    neighbours: dict[str, set[str]] = {}
    for a, b in town_map.edges:
        neighbours.setdefault(a, set()).add(b)
        neighbours.setdefault(b, set()).add(a)
    reached, frontier = set(town_map.west_coast), list(town_map.west_coast)
    while frontier:
        for town in neighbours.get(frontier.pop(), ()):
            if town not in reached:
                reached.add(town)
                frontier.append(town)
    return reached


def _check_coast_to_coast(town_map: MapSpec) -> None:
    """USA's rulebook: the first player "to connect any town on the west coast with any town on the east
    coast with a continuous path" wins the bonus. A map where no such path exists makes that bonus, and the
    tie-breaker that reads it, impossible: the map must be connected coast to coast."""
    reached = coast_reach(town_map)
    if reached.isdisjoint(town_map.east_coast):
        def listed(towns: Iterable[str]) -> str:
            return ", ".join(sorted(set(towns), key=LETTERS.index))

        _fail("map", _("not connected coast to coast: from the west coast ({west}) the pathways reach only "
                       "{reached}, none of the east coast ({east}); draw the pathways that join them").format(
            west=listed(town_map.west_coast), reached=listed(reached), east=listed(town_map.east_coast)))


def parse_edition(data: dict) -> EditionSpec:
    """Validate a decoded edition/deck-pack document, turning pydantic's report into one clear message."""
    try:
        return EditionSpec.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        ctx_error = first.get("ctx", {}).get("error")
        if isinstance(ctx_error, EditionDataError):
            raise ctx_error from None
        location = _describe_location(data, first["loc"])
        raise EditionDataError(_("{where}: {problem}").format(where=location, problem=first["msg"])) from None


def _describe_location(data: dict, loc: tuple) -> str:
    """Name a card by its letter rather than its list index where possible."""
    if len(loc) >= 2 and loc[0] == "cards" and isinstance(loc[1], int):
        cards = data.get("cards") or []
        letter = cards[loc[1]].get("letter") if loc[1] < len(cards) and isinstance(cards[loc[1]], dict) else None
        head = _card(letter, loc[1] + 1) if letter else _("card #{position}").format(position=loc[1] + 1)
        rest = ".".join(str(p) for p in loc[2:])
        return _("{card} field {field}").format(card=head, field=repr(rest)) if rest else head
    return ".".join(str(p) for p in loc) or _("edition")
