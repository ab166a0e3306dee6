"""An edition compiled into plain, immutable tables for the engine's hot paths.

Cards are numbered 0..27 in letter order; sets of cards are int bitmasks (bit i = card i), so
"visited every card of a region" is one `&` and a count of icons is one `bit_count()`.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.model import EditionSpec


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


@dataclass(frozen=True, slots=True)
class Icon:
    name: str
    value: int
    #: Cards showing this icon.
    mask: int


@dataclass(frozen=True, slots=True)
class Family:
    id: str
    name: str
    rule: str
    icons: tuple[Icon, ...]
    table: tuple[int, ...] = ()
    per_icon_by_players: tuple[tuple[int, int], ...] = ()
    #: (mask, value) per icon: the scoring loops' flat table.
    masks_values: tuple[tuple[int, int], ...] = ()

    def icon_index(self, name: str) -> int:
        for i, icon in enumerate(self.icons):
            if icon.name.casefold() == name.casefold():
                return i
        raise KeyError(name)


@dataclass(frozen=True, slots=True)
class Region:
    index: int
    name: str
    bonus: int
    color: str
    mask: int


@dataclass(frozen=True, slots=True)
class Route:
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

    def tiers_for(self, n_players: int) -> tuple[int, ...]:
        """The tiers on offer at this player count (the last one needs 3–4 players where the rules say so)."""
        if n_players < self.last_tier_min_players and len(self.tiers) > 1:
            return self.tiers[:-1]
        return self.tiers


@dataclass(frozen=True, slots=True)
class Edition:
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
        return {"publisher": "publisher's card list", "tourpad": "tourpad print-and-play design",
                "owner": "owner's deck pack"}[self.provenance]

    @property
    def sites_label(self) -> str:
        """The sheet's heading for visited sites: "Tourist sites", "Countries" (Europe), "Towns" (USA)."""
        return self.sites_noun[:1].upper() + self.sites_noun[1:]

    def category_ids(self) -> tuple[str, ...]:
        """Per-round score categories in score-sheet order, as used in records and reports."""
        ids = ["throw_catch", self.collection.id, self.pairs.id, self.choice.id, "sites", "regions"]
        if self.route is not None:
            ids.append(self.route.id)
        return tuple(ids)

    def category_names(self) -> dict[str, str]:
        names = {"throw_catch": "Throw & Catch", self.collection.id: self.collection.name,
                 self.pairs.id: self.pairs.name, self.choice.id: self.choice.name,
                 "sites": self.sites_label, "regions": "Region bonuses"}
        if self.route is not None:
            names[self.route.id] = self.route.name
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
        cards.append(Card(index, cspec.letter, cspec.site, region_index[cspec.region], cspec.number, **slots))

    def build_family(fspec, role: str) -> Family:
        icons = tuple(
            Icon(icon.name, icon.value or 0,
                 sum(1 << c.index for c in cards if getattr(c, role) == i))
            for i, icon in enumerate(fspec.icons))
        per_icon = tuple(sorted((fspec.per_icon_by_players or {}).items()))
        return Family(fspec.id, fspec.name, fspec.rule or "pairs", icons, tuple(fspec.table or ()), per_icon,
                      tuple((icon.mask, icon.value) for icon in icons))

    collection = build_family(spec.collection, "collection")
    regions = tuple(
        Region(i, r.name, r.bonus, r.color, sum(1 << c.index for c in cards if c.region == i))
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
        route = Route(r.kind, r.id, r.name, tuple(r.tiers), r.last_tier_min_players, r.last_tier_repeats, **extra)

    return Edition(
        id=spec.id, name=spec.name, provenance=spec.provenance, site_noun=spec.site_noun,
        sites_noun=spec.sites_noun or regular_plural(spec.site_noun),
        base=spec.base or spec.id, throw_catch_rule=spec.throw_catch, tie_breakers=tuple(spec.tie_breakers),
        cards=tuple(cards), regions=regions, collection=collection,
        pairs=build_family(spec.pairs, "pairs"), choice=build_family(spec.choice, "choice"), route=route,
        numbers=tuple(c.number for c in cards),
        collection_values=tuple(collection.icons[c.collection].value if c.collection >= 0 else 0 for c in cards),
        spec=spec,
    )
