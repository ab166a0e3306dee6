"""An edition compiled into plain, immutable tables for the engine's hot paths.

Cards are numbered 0..27 in letter order; sets of cards are int bitmasks (bit i = card i), so
"visited every card of a region" is one `&` and a count of icons is one `bit_count()`.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.i18n import Names, current_language, localized
from rules.locale import N_, _
from rules.model import EditionSpec

#: Whose design a deck and map are, as printed on cards and pads (by `EditionSpec.provenance`).
PROVENANCE_LABELS = {"publisher": N_("publisher's card list"), "tourpad": N_("tourpad print-and-play design"),
                     "owner": N_("owner's deck pack")}

class Named:
    """Something edition data names: `name` is the English key rules and records use, `label` is what a
    person reads, in the language of the moment (English when the data gives no translation)."""

    __slots__ = ()
    name: str
    names: Names

    @property
    def label(self) -> str:
        return localized(self.names, self.name)


@dataclass(frozen=True, slots=True)
class Card:
    index: int
    letter: str
    site: str
    region: int
    number: int
    #: Icon index within each family, or -1 when the card has no icon of that family.
    collection: int
    pairs: int
    choice: int
    site_names: Names = ()

    @property
    def site_label(self) -> str:
        """The site's name as a person reads it, in the language of the moment."""
        return localized(self.site_names, self.site)


@dataclass(frozen=True, slots=True)
class Icon(Named):
    name: str
    value: int
    #: Cards showing this icon.
    mask: int
    names: Names = ()


@dataclass(frozen=True, slots=True)
class Family(Named):
    id: str
    name: str
    rule: str
    icons: tuple[Icon, ...]
    table: tuple[int, ...] = ()
    per_icon_by_players: tuple[tuple[int, int], ...] = ()
    #: (mask, value) per icon: the scoring loops' flat table.
    masks_values: tuple[tuple[int, int], ...] = ()
    #: Each icon's mask, in icon order.
    icon_masks: tuple[int, ...] = ()
    names: Names = ()

    def icon_index(self, name: str) -> int:
        """The icon named `name` (any case), by its English key or any of its translations."""
        typed = name.casefold()
        for i, icon in enumerate(self.icons):
            if icon.name.casefold() == typed:
                return i
        for i, icon in enumerate(self.icons):
            if any(text.casefold() == typed for _lang, text in icon.names):
                return i
        raise KeyError(name)


@dataclass(frozen=True, slots=True)
class Region(Named):
    index: int
    name: str
    bonus: int
    color: str
    mask: int
    names: Names = ()


@dataclass(frozen=True, slots=True)
class Route(Named):
    kind: str
    id: str
    name: str
    tiers: tuple[int, ...]
    last_tier_min_players: int
    last_tier_repeats: bool
    #: USA only: coast masks and, per card, the mask of cards one pathway away.
    west_mask: int = 0
    east_mask: int = 0
    neighbours: tuple[int, ...] = ()
    edges: tuple[tuple[int, int], ...] = ()
    names: Names = ()

    def tiers_for(self, n_players: int) -> tuple[int, ...]:
        """The tiers on offer at this player count (the last one needs 3–4 players where the rules say so)."""
        if n_players < self.last_tier_min_players and len(self.tiers) > 1:
            return self.tiers[:-1]
        return self.tiers


#: A `Tally`'s collection field: 7 cards' collection values (at most 20 each) need 8 bits.
TALLY_COLLECTION_BITS = 8
#: Bits per icon field: a field counts at most 7 icons, and the pairs product's fields reach 3 pairs × 20.
TALLY_FIELD = 6


@dataclass(frozen=True, slots=True)
class Tally:
    """Every card's icons as one int of bit fields, so the sum over a row's cards counts all of them at once:
    the low 8 bits add up the collection values, then a 6-bit field per pairs icon, then one per choice icon.

    For the hot paths (the engine scores every round of every simulated game): one C-level `sum` per row
    instead of a popcount per icon (the bundled editions' tallies fit a machine word, where `sum` is
    fastest). The pairs score is read off with one multiplication: halving every pairs field (a pair per
    two icons) and multiplying by the icon values laid out in reverse order puts the sum of pairs × value
    in one field (at most 3 pairs × 20 points, so no field carries into the next).
    """

    per_card: tuple[int, ...]
    #: The halved pairs fields, once the tally is shifted right by the collection field and one bit.
    pair_halves: int
    #: The pairs icons' values, last icon in the lowest field.
    pair_weights: int
    #: Where the product's field with the pairs points starts.
    pair_points_at: int
    #: Where the first choice icon's field starts.
    choice_at: int

    def collection_total(self, tally: int) -> int:
        return tally & (1 << TALLY_COLLECTION_BITS) - 1

    def pairs_points(self, tally: int) -> int:
        halves = tally >> (TALLY_COLLECTION_BITS + 1) & self.pair_halves
        return halves * self.pair_weights >> self.pair_points_at & (1 << TALLY_FIELD) - 1

    def choice_count(self, tally: int, icon: int) -> int:
        return tally >> (self.choice_at + TALLY_FIELD * icon) & (1 << TALLY_FIELD) - 1


def build_tally(cards: tuple[Card, ...], collection_values: tuple[int, ...], pair_values: tuple[int, ...]) -> Tally:
    n_pairs = len(pair_values)
    choice_at = TALLY_COLLECTION_BITS + TALLY_FIELD * n_pairs
    per_card = tuple(
        collection_values[c.index]
        + (1 << TALLY_COLLECTION_BITS + TALLY_FIELD * c.pairs if c.pairs >= 0 else 0)
        + (1 << choice_at + TALLY_FIELD * c.choice if c.choice >= 0 else 0)
        for c in cards)
    field = (1 << TALLY_FIELD) - 1
    return Tally(
        per_card=per_card, pair_halves=sum((field >> 1) << TALLY_FIELD * i for i in range(n_pairs)),
        pair_weights=sum(value << TALLY_FIELD * (n_pairs - 1 - i) for i, value in enumerate(pair_values)),
        pair_points_at=TALLY_FIELD * (n_pairs - 1), choice_at=choice_at)


@dataclass(frozen=True, slots=True)
class Edition(Named):
    id: str
    name: str
    provenance: str
    #: What a card's site is called, singular and plural: "tourist site(s)", "country/countries", "town(s)".
    site_noun: str
    sites_noun: str
    base: str
    throw_catch_rule: str
    tie_breakers: tuple[str, ...]
    cards: tuple[Card, ...]
    regions: tuple[Region, ...]
    collection: Family
    pairs: Family
    choice: Family
    route: Route | None
    #: Per card: its Throw & Catch number, and the collection value it carries (0 when none).
    numbers: tuple[int, ...]
    collection_values: tuple[int, ...]
    #: The spec this was compiled from, kept for export and the printables.
    spec: EditionSpec
    #: Every card's icons packed for counting a row's icons with one sum (the scoring's hot path).
    tally: Tally
    names: Names = ()
    #: The site noun in other languages: ((language, singular, plural), ...).
    site_nouns: tuple[tuple[str, str, str], ...] = ()

    def site_noun_label(self, plural: bool = False) -> str:
        """The site noun as a person reads it ("town" / "ville"), singular or plural."""
        language = current_language()
        for lang, one, many in self.site_nouns:
            if lang == language:
                return many if plural else one
        return self.sites_noun if plural else self.site_noun

    @property
    def letters(self) -> str:
        return "".join(card.letter for card in self.cards)

    def card_index(self, letter: str) -> int:
        """The card with this letter (case-insensitive); KeyError names the letter."""
        for card in self.cards:
            if card.letter == letter.upper():
                return card.index
        raise KeyError(letter)

    def letters_of(self, mask: int) -> str:
        return "".join(card.letter for card in self.cards if mask >> card.index & 1)

    @property
    def provenance_label(self) -> str:
        """Whose design the deck and map are, printed on cards and pads (only Australia's list is public)."""
        return _(PROVENANCE_LABELS[self.provenance])

    @property
    def sites_label(self) -> str:
        """The sheet's heading for visited sites: "Tourist sites", "Countries" (Europe), "Towns" (USA)."""
        noun = self.site_noun_label(plural=True)
        return noun[:1].upper() + noun[1:]

    def category_ids(self) -> tuple[str, ...]:
        """Per-round score categories in score-sheet order, as used in records and reports."""
        ids = ["throw_catch", self.collection.id, self.pairs.id, self.choice.id, "sites", "regions"]
        if self.route is not None:
            ids.append(self.route.id)
        return tuple(ids)

    def category_names(self) -> dict[str, str]:
        """Each category's name as a person reads it, by category id (the language of the moment)."""
        names = {"throw_catch": _("Throw & Catch"), self.collection.id: self.collection.label,
                 self.pairs.id: self.pairs.label, self.choice.id: self.choice.label,
                 "sites": self.sites_label, "regions": _("Region bonuses")}
        if self.route is not None:
            names[self.route.id] = self.route.label
        return names


def regular_plural(noun: str) -> str:
    """The plural of a deck pack's site noun that names none: 'city' → 'cities', 'town' → 'towns'."""
    if noun.endswith("y") and noun[-2:-1] not in tuple("aeiou"):
        return noun[:-1] + "ies"
    return noun + ("es" if noun.endswith(("s", "x", "ch", "sh")) else "s")


def compile_edition(spec: EditionSpec) -> Edition:
    """Turn a validated spec into lookup tables; cards are ordered A–Z, @, # whatever the file's order."""
    from rules.model import LETTERS

    by_letter = {card.letter: card for card in spec.cards}
    ordered = [by_letter[letter] for letter in LETTERS]
    region_index = {region.name: i for i, region in enumerate(spec.regions)}

    cards = []
    for index, cspec in enumerate(ordered):
        slots = {
            role: next((i for i, icon in enumerate(fspec.icons) if icon.name in cspec.icons), -1)
            for role, fspec in (("collection", spec.collection), ("pairs", spec.pairs), ("choice", spec.choice))
        }
        cards.append(Card(index, cspec.letter, cspec.site, region_index[cspec.region], cspec.number, **slots,
                          site_names=_names(cspec.site_names)))

    def build_family(fspec, role: str) -> Family:
        icons = tuple(
            Icon(icon.name, icon.value or 0,
                 sum(1 << c.index for c in cards if getattr(c, role) == i), _names(icon.names))
            for i, icon in enumerate(fspec.icons))
        per_icon = tuple(sorted((fspec.per_icon_by_players or {}).items()))
        return Family(fspec.id, fspec.name, fspec.rule or "pairs", icons, tuple(fspec.table or ()), per_icon,
                      tuple((icon.mask, icon.value) for icon in icons), tuple(icon.mask for icon in icons),
                      _names(fspec.names))

    collection = build_family(spec.collection, "collection")
    regions = tuple(
        Region(i, r.name, r.bonus, r.color, sum(1 << c.index for c in cards if c.region == i), _names(r.names))
        for i, r in enumerate(spec.regions))

    route = None
    if spec.route is not None:
        extra = {}
        if spec.map is not None:
            idx = {c.letter: c.index for c in cards}
            neighbours = [0] * len(cards)
            edges = []
            for a, b in spec.map.edges:
                ia, ib = idx[a], idx[b]
                neighbours[ia] |= 1 << ib
                neighbours[ib] |= 1 << ia
                edges.append((ia, ib))
            extra = {"west_mask": sum(1 << idx[x] for x in spec.map.west_coast),
                     "east_mask": sum(1 << idx[x] for x in spec.map.east_coast),
                     "neighbours": tuple(neighbours), "edges": tuple(edges)}
        r = spec.route
        route = Route(r.kind, r.id, r.name, tuple(r.tiers), r.last_tier_min_players, r.last_tier_repeats, **extra,
                      names=_names(r.names))

    pairs = build_family(spec.pairs, "pairs")
    collection_values = tuple(collection.icons[c.collection].value if c.collection >= 0 else 0 for c in cards)
    return Edition(
        id=spec.id, name=spec.name, provenance=spec.provenance, site_noun=spec.site_noun,
        sites_noun=spec.sites_noun or regular_plural(spec.site_noun),
        base=spec.base or spec.id, throw_catch_rule=spec.throw_catch, tie_breakers=tuple(spec.tie_breakers),
        cards=tuple(cards), regions=regions, collection=collection,
        pairs=pairs, choice=build_family(spec.choice, "choice"), route=route,
        numbers=tuple(c.number for c in cards), collection_values=collection_values, spec=spec,
        tally=build_tally(tuple(cards), collection_values, tuple(icon.value for icon in pairs.icons)),
        names=_names(spec.names),
        site_nouns=tuple((lang, one, many) for lang, (one, many) in sorted(spec.site_nouns.items())),
    )


def _names(translations: dict[str, str]) -> Names:
    return tuple(sorted(translations.items()))
