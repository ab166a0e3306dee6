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
from collections import Counter
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

#: The rulebook's five colours and three seas (the Black Sea is not part of the game).
COLOURS: tuple[str, ...] = ("blue", "green", "orange", "pink", "yellow")
SEAS: tuple[str, ...] = ("Atlantic", "Mediterranean", "Baltic")
#: "Each country is displayed in one of five colours" — the rulebook's tile counts.
COUNTRY_TILES = 52
PLANES_PER_COLOUR = 2
SHIPS = {"Atlantic": 4, "Mediterranean": 3, "Baltic": 2}
DOUBLED = ("Denmark", "France", "Germany", "Russia", "Spain", "Sweden")
#: What "about 9–10 countries per colour" means for tourpad's own (bundled) colouring.
BALANCED_RANGE = (9, 10)


class BoardDataError(ValueError):
    """A board file or board pack that breaks a rule; the message names the country and field."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CountrySpec(_Strict):
    name: str = Field(min_length=1, max_length=40)
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
    provenance: Literal["tourpad", "owner"]
    colours: list[str]
    seas: list[str]
    tiles: TilesSpec
    crossings: list[CrossingSpec] = Field(default_factory=list)
    countries: list[CountrySpec]

    @model_validator(mode="after")
    def _check(self) -> BoardSpec:
        check_board(self)
        return self


class BoardPackSpec(_Strict):
    """An owner's recolouring of a base board, to match the colours printed on their own game board."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]*$")
    name: str
    base: str = "tourpad"
    provenance: Literal["owner"] = "owner"
    colours: dict[str, str] = Field(min_length=1)


def _fail(where: str, problem: str) -> None:
    raise BoardDataError(f"{where}: {problem}")


def check_board(spec: BoardSpec) -> None:
    """The rulebook's facts about the tile set, plus consistency of the geography."""
    if tuple(spec.colours) != COLOURS:
        _fail("colours", f"the game's colours are {list(COLOURS)}, not {spec.colours}")
    if tuple(spec.seas) != SEAS:
        _fail("seas", f"the game's seas are {list(SEAS)} (the Black Sea is not used), not {spec.seas}")
    if spec.tiles.planes_per_colour != PLANES_PER_COLOUR:
        _fail("tiles.planes_per_colour", f"the rulebook has {PLANES_PER_COLOUR} aeroplanes per colour")
    if spec.tiles.ships != SHIPS:
        _fail("tiles.ships", f"the rulebook's ships are {SHIPS}, not {spec.tiles.ships}")
    names = [c.name for c in spec.countries]
    for name, k in Counter(names).items():
        if k > 1:
            _fail(f"country {name!r}", "is listed twice")
    known = set(names)
    by_name = {c.name: c for c in spec.countries}
    for country in spec.countries:
        where = f"country {country.name!r}"
        if country.colour not in COLOURS:
            _fail(where, f"colour {country.colour!r} is not one of {list(COLOURS)}")
        for sea in country.seas:
            if sea not in SEAS:
                _fail(where, f"sea {sea!r} is not one of {list(SEAS)} (the Black Sea is not used)")
        for other in country.borders:
            if other not in known:
                _fail(where, f"border {other!r} is not a country of this board")
            if other == country.name:
                _fail(where, "borders itself")
            if country.name not in by_name[other].borders:
                _fail(where, f"borders {other!r}, but {other!r} does not list {country.name!r} "
                             "(borders must be listed on both sides)")
        expected = 2 if country.name in DOUBLED else 1
        if country.tiles != expected:
            _fail(where, f"has {expected} tile(s) in the rulebook's set, not {country.tiles}")
    tiles = sum(c.tiles for c in spec.countries)
    if tiles != COUNTRY_TILES:
        _fail("countries", f"the rulebook has {COUNTRY_TILES} country tiles; these countries make {tiles}")
    seen_crossings: set[frozenset[str]] = set()
    for crossing in spec.crossings:
        a, b = crossing.between
        where = f"{crossing.kind} {a}–{b}"
        for end in (a, b):
            if end not in known:
                _fail(where, f"{end!r} is not a country of this board")
        if a == b:
            _fail(where, "joins a country to itself")
        pair = frozenset((a, b))
        if pair in seen_crossings or b in by_name[a].borders:
            _fail(where, "is listed twice (as a border or another crossing)")
        seen_crossings.add(pair)
    check_colour_counts(spec.provenance, {c.name: c.colour for c in spec.countries})


def check_colour_counts(provenance: str, colours: dict[str, str]) -> None:
    """tourpad's colouring is balanced; an owner's board may not be, but every aeroplane must be usable."""
    counts = Counter(colours.values())
    for colour in COLOURS:
        countries = sorted(n for n, c in colours.items() if c == colour)
        if provenance == "tourpad":
            low, high = BALANCED_RANGE
            if not low <= counts[colour] <= high:
                listed = ", ".join(countries) or "none"
                _fail(f"colour {colour!r}", f"tourpad's board gives each colour {low}–{high} countries; "
                                            f"{colour} has {counts[colour]}: {listed}")
        elif counts[colour] < 2:
            _fail(f"colour {colour!r}", f"only {', '.join(countries) or 'no country'} has it; a {colour} "
                                        "aeroplane needs at least two countries of its colour")


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
        if self.is_country(kind):
            return self.countries[kind]
        if self.is_plane(kind):
            return f"{COLOURS[kind - self.n_countries]} aeroplane"
        return f"{SEAS[kind - self.n_countries - len(COLOURS)]} ship"

    def kind_names(self) -> tuple[str, ...]:
        return tuple(self.kind_name(k) for k in range(self.n_kinds))

    def kind_of(self, name: str) -> int:
        """The tile kind a person typed: a country, "pink plane"/"pink aeroplane", "Atlantic ship"/"Atlantic".

        Case-insensitive; a KeyError names what was not understood.
        """
        wanted = " ".join(name.strip().lower().replace("aeroplane", "plane").split())
        for kind in range(self.n_kinds):
            label = self.kind_name(kind).lower().replace("aeroplane", "plane")
            if wanted == label or (self.is_ship(kind) and wanted == label.removesuffix(" ship")):
                return kind
        raise KeyError(f"{name!r} is not a tile: give a country (e.g. 'Spain'), an aeroplane "
                       "('pink plane') or a ship ('Atlantic ship')")

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
        crossings=tuple(crossings), touch=tuple(touch), spec=spec)


# --- loading ------------------------------------------------------------------------------------------------


def decode(text: str, fmt: str) -> dict:
    try:
        return tomllib.loads(text) if fmt == "toml" else json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as err:
        raise BoardDataError(f"not valid {fmt.upper()}: {err}") from None


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
            head = f"country {row['name']!r}" if "name" in row else f"country #{loc[1] + 1}"
            where = ".".join([head, *(str(p) for p in loc[2:])])
        else:
            where = ".".join(str(p) for p in loc) or "board"
        raise BoardDataError(f"{where}: {first['msg']}") from None


def board_from_text(text: str, fmt: str = "toml") -> Board:
    return compile_board(_validated(BoardSpec, decode(text, fmt)))  # type: ignore[arg-type]


@cache
def load_board() -> Board:
    """tourpad's bundled board."""
    return board_from_text(resources.files(__package__).joinpath("board.toml").read_text(encoding="utf-8"))


def parse_board_pack(data: dict) -> BoardPackSpec:
    pack: BoardPackSpec = _validated(BoardPackSpec, data)  # type: ignore[assignment]
    if pack.id == "tourpad":
        _fail("id", "\"tourpad\" is the bundled board; give the pack its own id (e.g. \"my-board\")")
    return pack


def apply_board_pack(base: Board, pack: BoardPackSpec) -> Board:
    """The base board with the pack's colours; every country and colour is checked, and the aeroplanes."""
    if pack.base != base.id:
        _fail("base", f"this pack recolours board {pack.base!r}, not {base.id!r}")
    known = set(base.countries)
    for name, colour in pack.colours.items():
        if name not in known:
            close = [c for c in base.countries if c.lower() == name.lower()]
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            _fail(f"colours.{name}", f"{name!r} is not a country of the board{hint}")
        if colour not in COLOURS:
            _fail(f"colours.{name}", f"colour {colour!r} is not one of {list(COLOURS)}")
    data = base.spec.model_dump(mode="json")
    data.update(id=pack.id, name=pack.name, provenance="owner")
    for country in data["countries"]:
        country["colour"] = pack.colours.get(country["name"], country["colour"])
    return board_from_text(json.dumps(data), "json")


def board_pack_from_text(text: str, fmt: str = "toml", base: Board | None = None) -> Board:
    return apply_board_pack(base or load_board(), parse_board_pack(decode(text, fmt)))
