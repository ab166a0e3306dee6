"""Race Around Europe's board and tile set: pydantic-validated data compiled into plain int tables.

The data (`board.toml`) is validated once at the edge (`BoardSpec`, `BoardDataError` naming the country
and field); the validator, engine and bots then use the compiled `Board`: countries and tile kinds are
small ints, borders / seas / colours are bitmasks.

Tile kinds: 0..C-1 are the countries (file order), then one kind per aeroplane colour, then one per ship
sea. A physical tile is an index into `Board.tiles`, whose value is its kind (two Denmark tiles share one
kind).
"""

from __future__ import annotations

import json
import tomllib
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from rules.i18n import Names, localized
from rules.locale import N_, _, ngettext
from rules.model import Translations
from rules.text import PACK_ID_LENGTH

#: The rulebook's five colours and three seas (the Black Sea is not part of the game).
COLOURS: tuple[str, ...] = ("blue", "green", "orange", "pink", "yellow")
SEAS: tuple[str, ...] = ("Atlantic", "Mediterranean", "Baltic")
#: "Each country is displayed in one of five colours" — the rulebook's tile counts.
COUNTRY_TILES = 52
PLANES_PER_COLOUR = 2
SHIPS = {"Atlantic": 4, "Mediterranean": 3, "Baltic": 2}
DOUBLED = ("Denmark", "France", "Germany", "Russia", "Spain", "Sweden")
#: Each transport tile as a person reads it (the English is also the tile's key, `Board.kind_name`).
PLANE_LABELS = {"blue": N_("blue aeroplane"), "green": N_("green aeroplane"), "orange": N_("orange aeroplane"),
                "pink": N_("pink aeroplane"), "yellow": N_("yellow aeroplane")}
SHIP_LABELS = {"Atlantic": N_("Atlantic ship"), "Mediterranean": N_("Mediterranean ship"),
               "Baltic": N_("Baltic ship")}
#: The colours and seas alone, as reasons name them ("Spain is pink, not blue").
COLOUR_LABELS = {"blue": N_("blue"), "green": N_("green"), "orange": N_("orange"), "pink": N_("pink"),
                 "yellow": N_("yellow")}
SEA_LABELS = {"Atlantic": N_("Atlantic"), "Mediterranean": N_("Mediterranean"), "Baltic": N_("Baltic")}
CROSSING_LABELS = {"ferry": N_("ferry"), "bridge": N_("bridge")}


def colour_label(colour: str) -> str:
    """A colour as a person reads it, in the language of the moment (a pack's unknown colour as it is)."""
    return _(COLOUR_LABELS[colour]) if colour in COLOUR_LABELS else colour


def sea_label(sea: str) -> str:
    return _(SEA_LABELS[sea]) if sea in SEA_LABELS else sea


def crossing_label(kind: str) -> str:
    return _(CROSSING_LABELS[kind]) if kind in CROSSING_LABELS else kind
#: What "about 9–10 countries per colour" means for tourpad's own (bundled) colouring.
BALANCED_RANGE = (9, 10)


class BoardDataError(ValueError):
    """A board file or board pack that breaks a rule; the message names the country and field."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CountrySpec(_Strict):
    name: str = Field(min_length=1, max_length=40)
    #: The country's name in other languages (`names = { fr = "Espagne" }`); `name` stays the key.
    names: Translations = Field(default_factory=dict)
    colour: str
    tiles: int = Field(default=1, ge=1, le=2)
    seas: list[str] = Field(default_factory=list)
    borders: list[str] = Field(default_factory=list)


class CrossingSpec(_Strict):
    """A ferry or the bridge: counts as a border (not as a ship)."""

    kind: Literal["ferry", "bridge"]
    between: tuple[str, str]


class TilesSpec(_Strict):
    planes_per_colour: int = Field(ge=1, le=4)
    ships: dict[str, int]


class BoardSpec(_Strict):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]*$")
    name: str
    names: Translations = Field(default_factory=dict)
    provenance: Literal["tourpad", "owner"]
    colours: list[str]
    seas: list[str]
    tiles: TilesSpec
    crossings: list[CrossingSpec] = Field(default_factory=list)
    countries: list[CountrySpec]
    #: Other names people type for a tile ("Czechia" = ["Czech Republic"]); a name standing for several
    #: countries of the board ("UK") lists them all and is answered with the choice, not a guess.
    aliases: dict[str, list[str]] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _check(self) -> BoardSpec:
        check_board(self)
        return self


class BoardPackSpec(_Strict):
    """An owner's recolouring of a base board, to match the colours printed on their own game board."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]*$", max_length=PACK_ID_LENGTH)
    name: str
    base: str = "tourpad"
    provenance: Literal["owner"] = "owner"
    colours: dict[str, str] = Field(min_length=1)


def _fail(where: str, problem: str) -> None:
    raise BoardDataError(_("{where}: {problem}").format(where=where, problem=problem))


def _country(name: str) -> str:
    return _("country {name}").format(name=repr(name))


def _colour(colour: str) -> str:
    return _("colour {colour}").format(colour=repr(colour))


def check_board(spec: BoardSpec) -> None:
    """The rulebook's facts about the tile set, plus consistency of the geography."""
    if tuple(spec.colours) != COLOURS:
        _fail("colours", _("the game's colours are {colours}, not {given}").format(colours=list(COLOURS),
                                                                                  given=spec.colours))
    if tuple(spec.seas) != SEAS:
        _fail("seas", _("the game's seas are {seas} (the Black Sea is not used), not {given}").format(
            seas=list(SEAS), given=spec.seas))
    if spec.tiles.planes_per_colour != PLANES_PER_COLOUR:
        _fail("tiles.planes_per_colour", _("the rulebook has {n} aeroplanes per colour").format(n=PLANES_PER_COLOUR))
    if spec.tiles.ships != SHIPS:
        _fail("tiles.ships", _("the rulebook's ships are {ships}, not {given}").format(ships=SHIPS,
                                                                                      given=spec.tiles.ships))
    names = [c.name for c in spec.countries]
    for name, k in Counter(names).items():
        if k > 1:
            _fail(_country(name), _("is listed twice"))
    known = set(names)
    by_name = {c.name: c for c in spec.countries}
    for country in spec.countries:
        where = _country(country.name)
        if country.colour not in COLOURS:
            _fail(where, _("colour {colour} is not one of {colours}").format(colour=repr(country.colour),
                                                                              colours=list(COLOURS)))
        for sea in country.seas:
            if sea not in SEAS:
                _fail(where, _("sea {sea} is not one of {seas} (the Black Sea is not used)").format(
                    sea=repr(sea), seas=list(SEAS)))
        for other in country.borders:
            if other not in known:
                _fail(where, _("border {other} is not a country of this board").format(other=repr(other)))
            if other == country.name:
                _fail(where, _("borders itself"))
            if country.name not in by_name[other].borders:
                _fail(where, _("borders {other}, but {other} does not list {name} "
                               "(borders must be listed on both sides)").format(other=repr(other),
                                                                                name=repr(country.name)))
        expected = 2 if country.name in DOUBLED else 1
        if country.tiles != expected:
            _fail(where, ngettext("has {expected} tile(s) in the rulebook's set, not {given}",
                                  "has {expected} tile(s) in the rulebook's set, not {given}",
                                  expected).format(expected=expected, given=country.tiles))
    tiles = sum(c.tiles for c in spec.countries)
    if tiles != COUNTRY_TILES:
        _fail("countries", _("the rulebook has {count} country tiles; these countries make {tiles}").format(
            count=COUNTRY_TILES, tiles=tiles))
    seen_crossings: set[frozenset[str]] = set()
    crossing_kinds = {"ferry": _("ferry {a}–{b}"), "bridge": _("bridge {a}–{b}")}
    for crossing in spec.crossings:
        a, b = crossing.between
        where = crossing_kinds[crossing.kind].format(a=a, b=b)
        for end in (a, b):
            if end not in known:
                _fail(where, _("{name} is not a country of this board").format(name=repr(end)))
        if a == b:
            _fail(where, _("joins a country to itself"))
        pair = frozenset((a, b))
        if pair in seen_crossings or b in by_name[a].borders:
            _fail(where, _("is listed twice (as a border or another crossing)"))
        seen_crossings.add(pair)
    tile_keys = known | {f"{c} aeroplane" for c in COLOURS} | {f"{sea} ship" for sea in SEAS}
    for alias, targets in spec.aliases.items():
        where = _("alias {alias}").format(alias=repr(alias))
        if not targets:
            _fail(where, _("names no tile"))
        for target in targets:
            if target not in tile_keys:
                _fail(where, _("{name} is not a tile of this board").format(name=repr(target)))
    check_colour_counts(spec.provenance, {c.name: c.colour for c in spec.countries})


def check_colour_counts(provenance: str, colours: dict[str, str]) -> None:
    """tourpad's colouring is balanced; an owner's board may not be, but every aeroplane must be usable."""
    counts = Counter(colours.values())
    for colour in COLOURS:
        countries = sorted(n for n, c in colours.items() if c == colour)
        if provenance == "tourpad":
            low, high = BALANCED_RANGE
            if not low <= counts[colour] <= high:
                listed = ", ".join(countries) or _("none")
                _fail(_colour(colour), _("tourpad's board gives each colour {low}–{high} countries; "
                                         "{colour} has {count}: {listed}").format(
                    low=low, high=high, colour=_(COLOUR_LABELS[colour]), count=counts[colour], listed=listed))
        elif counts[colour] < 2:
            plane = _(PLANE_LABELS[colour])
            if countries:
                problem = _("only {countries} has it; a {plane} needs at least two countries of its colour").format(
                    countries=", ".join(countries), plane=plane)
            else:
                problem = _("no country has it; a {plane} needs at least two countries of its colour").format(
                    plane=plane)
            _fail(_colour(colour), problem)


# --- names as people type them -------------------------------------------------------------------------------

#: Words that mean the same in a tile's name: "blue airplane" is the blue aeroplane.
SAME_WORDS = {"aeroplane": "plane", "airplane": "plane", "aircraft": "plane", "boat": "ship"}


def said(text: str) -> str:
    """A name as typed, for comparing: case, accents, spacing and the word for an aeroplane do not matter."""
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))
    words = plain.casefold().replace("-", " ").replace(".", " ").split()
    return " ".join(SAME_WORDS.get(w, w) for w in words)


def edit_distance(a: str, b: str, cap: int) -> int:
    """Levenshtein distance with adjacent swaps (Damerau's "optimal string alignment"), or cap + 1 once it
    must exceed `cap` (names are compared by the hundred per keystroke)."""
    if abs(len(a) - len(b)) > cap:
        return cap + 1
    before: list[int] | None = None
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, start=1):
            current[j] = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + (ca != cb))
            if before is not None and i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                current[j] = min(current[j], before[j - 2] + 1)
        if min(current) > cap:
            return cap + 1
        before, row = row, current
    return row[-1]


# --- the compiled board -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class Board:
    id: str
    name: str
    provenance: str
    countries: tuple[str, ...]
    #: Per country: colour index into COLOURS.
    colour: tuple[int, ...]
    #: Per country: bit s set when it touches SEAS[s].
    seas: tuple[int, ...]
    #: Per country: bit j set when it borders country j (land, ferry or bridge).
    neighbours: tuple[int, ...]
    #: Per tile kind: how many physical tiles of it the set has.
    copies: tuple[int, ...]
    #: Per physical tile: its kind.
    tiles: tuple[int, ...]
    crossings: tuple[tuple[str, int, int], ...]
    #: Per tile kind: for a transport, the countries (bitmask) it serves — on its sea / of its colour.
    touch: tuple[int, ...]
    spec: BoardSpec
    #: Per country: its name in other languages, ((language, text), ...); the board's own likewise.
    country_names: tuple[Names, ...] = ()
    names: Names = ()

    @property
    def n_countries(self) -> int:
        return len(self.countries)

    @property
    def n_kinds(self) -> int:
        return len(self.copies)

    def plane_kind(self, colour: int) -> int:
        return self.n_countries + colour

    def ship_kind(self, sea: int) -> int:
        return self.n_countries + len(COLOURS) + sea

    def is_country(self, kind: int) -> bool:
        return kind < self.n_countries

    def is_plane(self, kind: int) -> bool:
        return self.n_countries <= kind < self.n_countries + len(COLOURS)

    def is_ship(self, kind: int) -> bool:
        return kind >= self.n_countries + len(COLOURS)

    def kind_name(self, kind: int) -> str:
        """The tile kind's English key ("Spain", "pink aeroplane", "Atlantic ship"), as records and packs use."""
        if self.is_country(kind):
            return self.countries[kind]
        if self.is_plane(kind):
            return f"{COLOURS[kind - self.n_countries]} aeroplane"
        return f"{SEAS[kind - self.n_countries - len(COLOURS)]} ship"

    def kind_names(self) -> tuple[str, ...]:
        return tuple(self.kind_name(k) for k in range(self.n_kinds))

    def country_label(self, country: int) -> str:
        """A country as a person reads it, in the language of the moment (`countries[i]` is its key)."""
        return localized(self.country_names[country], self.countries[country])

    def kind_label(self, kind: int) -> str:
        """A tile kind as a person reads it: "Espagne", "avion rose", "bateau de l'Atlantique" in French."""
        if self.is_country(kind):
            return self.country_label(kind)
        if self.is_plane(kind):
            return _(PLANE_LABELS[COLOURS[kind - self.n_countries]])
        return _(SHIP_LABELS[SEAS[kind - self.n_countries - len(COLOURS)]])

    def kind_labels(self) -> tuple[str, ...]:
        return tuple(self.kind_label(k) for k in range(self.n_kinds))

    @property
    def label(self) -> str:
        """The board's name as a person reads it."""
        return localized(self.names, self.name)

    def spoken_names(self) -> dict[str, tuple[int, ...]]:
        """Every way a tile may be typed, normalised (`said`), with the kinds it stands for."""
        spoken: dict[str, tuple[int, ...]] = {}
        for kind in range(self.n_kinds):
            for text in (self.kind_name(kind), self.kind_label(kind)):
                spoken.setdefault(said(text), (kind,))
            if self.is_ship(kind):
                sea = SEAS[kind - self.n_countries - len(COLOURS)]
                spoken.setdefault(said(sea), (kind,))
                spoken.setdefault(said(_(SEA_LABELS[sea])), (kind,))
        keys = self.kind_names()
        for alias, targets in self.spec.aliases.items():
            spoken.setdefault(said(alias), tuple(keys.index(t) for t in targets))
        return spoken

    def suggestions(self, name: str, limit: int = 3) -> list[int]:
        """The tile kinds whose name (or alias) is within a small edit distance of what was typed, nearest
        first: one edit for short names, two from six letters on."""
        wanted = said(name)
        if not wanted:
            return []
        allowed = 1 if len(wanted) < 6 else 2
        scored: dict[int, int] = {}
        for text, kinds in self.spoken_names().items():
            distance = edit_distance(wanted, text, allowed)
            if distance <= allowed:
                for kind in kinds:
                    scored[kind] = min(distance, scored.get(kind, distance))
        return sorted(scored, key=lambda k: (scored[k], k))[:limit]

    def kind_of(self, name: str) -> int:
        """The tile kind a person typed: a country, "pink plane"/"pink aeroplane", "Atlantic ship"/"Atlantic",
        in English or in the language of the moment ("Espagne", "avion rose", "bateau de l'Atlantique").

        Case-insensitive; a KeyError names what was not understood.
        """
        kinds = self.spoken_names().get(said(name))
        if kinds is not None and len(kinds) == 1:
            return kinds[0]
        if kinds:
            raise KeyError(_("{name} is several countries on this board: {countries}; give one").format(
                name=repr(name), countries=", ".join(self.kind_label(k) for k in kinds)))
        close = self.suggestions(name)
        if close:
            raise KeyError(_("{name} is not a tile: did you mean {close}?").format(
                name=repr(name), close=_(" or ").join(repr(self.kind_label(k)) for k in close)))
        example = self.countries.index("Spain") if "Spain" in self.countries else 0
        raise KeyError(_("{name} is not a tile: give a country (e.g. {country}), an aeroplane ({plane}) or a ship "
                         "({ship})").format(name=repr(name), country=repr(self.kind_label(example)),
                                            plane=repr(_("pink plane")), ship=repr(_(SHIP_LABELS["Atlantic"]))))

    def borders(self, a: int, b: int) -> bool:
        return bool(self.neighbours[a] >> b & 1)

    def on_sea(self, country: int, sea: int) -> bool:
        return bool(self.seas[country] >> sea & 1)


def compile_board(spec: BoardSpec) -> Board:
    names = tuple(c.name for c in spec.countries)
    index = {n: i for i, n in enumerate(names)}
    neighbours = [0] * len(names)
    for i, country in enumerate(spec.countries):
        for other in country.borders:
            neighbours[i] |= 1 << index[other]
    crossings = []
    for crossing in spec.crossings:
        a, b = (index[n] for n in crossing.between)
        neighbours[a] |= 1 << b
        neighbours[b] |= 1 << a
        crossings.append((crossing.kind, a, b))
    copies = [c.tiles for c in spec.countries]
    copies += [spec.tiles.planes_per_colour] * len(COLOURS)
    copies += [spec.tiles.ships[s] for s in SEAS]
    tiles = tuple(kind for kind, k in enumerate(copies) for _ in range(k))
    colour = tuple(COLOURS.index(c.colour) for c in spec.countries)
    seas = tuple(sum(1 << SEAS.index(s) for s in c.seas) for c in spec.countries)
    touch = [0] * len(copies)
    for country in range(len(names)):
        touch[len(names) + colour[country]] |= 1 << country
        for sea in range(len(SEAS)):
            if seas[country] >> sea & 1:
                touch[len(names) + len(COLOURS) + sea] |= 1 << country
    return Board(
        id=spec.id, name=spec.name, provenance=spec.provenance, countries=names,
        colour=colour, seas=seas, neighbours=tuple(neighbours), copies=tuple(copies), tiles=tiles,
        crossings=tuple(crossings), touch=tuple(touch), spec=spec,
        country_names=tuple(tuple(sorted(c.names.items())) for c in spec.countries),
        names=tuple(sorted(spec.names.items())))


# --- loading ------------------------------------------------------------------------------------------------


def decode(text: str, fmt: str) -> dict:
    try:
        return tomllib.loads(text) if fmt == "toml" else json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as err:
        raise BoardDataError(_("not valid {format}: {error}").format(format=fmt.upper(), error=err)) from None


def _validated(model: type[BaseModel], data: dict) -> BaseModel:
    """Validate, turning pydantic's report into one clear message naming the country where possible."""
    try:
        return model.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        ctx_error = first.get("ctx", {}).get("error")
        if isinstance(ctx_error, BoardDataError):
            raise ctx_error from None
        loc = first["loc"]
        if len(loc) >= 2 and loc[0] == "countries" and isinstance(loc[1], int):
            rows = data.get("countries") or []
            row = rows[loc[1]] if loc[1] < len(rows) and isinstance(rows[loc[1]], dict) else {}
            head = _country(row["name"]) if "name" in row else _("country #{n}").format(n=loc[1] + 1)
            where = ".".join([head, *(str(p) for p in loc[2:])])
        else:
            where = ".".join(str(p) for p in loc) or _("board")
        raise BoardDataError(_("{where}: {problem}").format(where=where, problem=first["msg"])) from None


def board_from_text(text: str, fmt: str = "toml") -> Board:
    return compile_board(_validated(BoardSpec, decode(text, fmt)))  # type: ignore[arg-type]


@cache
def load_board() -> Board:
    """tourpad's bundled board."""
    return board_from_text(resources.files(__package__).joinpath("board.toml").read_text(encoding="utf-8"))


def parse_board_pack(data: dict) -> BoardPackSpec:
    pack: BoardPackSpec = _validated(BoardPackSpec, data)  # type: ignore[assignment]
    if pack.id == "tourpad":
        _fail("id", _("\"tourpad\" is the bundled board; give the pack its own id (e.g. \"my-board\")"))
    return pack


def apply_board_pack(base: Board, pack: BoardPackSpec) -> Board:
    """The base board with the pack's colours; every country and colour is checked, and the aeroplanes."""
    if pack.base != base.id:
        _fail("base", _("this pack recolours board {pack}, not {board}").format(pack=repr(pack.base),
                                                                                 board=repr(base.id)))
    known = set(base.countries)
    for name, colour in pack.colours.items():
        if name not in known:
            close = [c for c in base.countries if c.lower() == name.lower()]
            if close:
                problem = _("{name} is not a country of the board (did you mean {close}?)").format(
                    name=repr(name), close=repr(close[0]))
            else:
                problem = _("{name} is not a country of the board").format(name=repr(name))
            _fail(f"colours.{name}", problem)
        if colour not in COLOURS:
            _fail(f"colours.{name}", _("colour {colour} is not one of {colours}").format(colour=repr(colour),
                                                                                          colours=list(COLOURS)))
    data = base.spec.model_dump(mode="json")
    data.update(id=pack.id, name=pack.name, provenance="owner")
    data.pop("names", None)  # the base board's translated name is not the pack's: the pack's own name shows
    for country in data["countries"]:
        country["colour"] = pack.colours.get(country["name"], country["colour"])
    return board_from_text(json.dumps(data), "json")


def board_pack_from_text(text: str, fmt: str = "toml", base: Board | None = None) -> Board:
    return board_pack_from_document(decode(text, fmt), base)


def board_pack_from_document(doc: object, base: Board | None = None) -> Board:
    """A board pack from a document already decoded (by the caller's bounded reader of a person's file)."""
    if not isinstance(doc, dict):
        raise BoardDataError(_("a board pack is one table of fields (id, name, colours), not a list or a single "
                               "value"))
    return apply_board_pack(base or load_board(), parse_board_pack(doc))
