"""The journey validator: does a holder of 10 tiles make a complete journey, and if not, what breaks?

A journey is a sequence of tile kinds (see `rules.race.board`). There are nine links, link i joining trip
i+1 and trip i+2 (1-based trips). A link is broken when:

- two countries side by side do not border (land, ferry or bridge) — or are the two tiles of one country;
- two transport tiles are side by side ("do not form a connection");
- a ship / aeroplane's country does not touch its sea / have its colour (the break is on that side);
- a transport tile has no country on its other side (it is trip 1 or 10), or leads back to the same
  country (the break is on its far side: a ship or plane takes you to *another* country).

A link from a country into a transport tile that suits it counts as connected; the transport's other
side is judged on its own link. So a journey is complete exactly when no link is broken and the tile
counts are possible — a transport at either end always breaks its only link, which is how "starts and
ends with a country" is enforced (it is also reported as its own problem, for people).

`broken_links` is the fast path (an int bitmask, no strings) for the engine and the bots; `check_journey`
explains for people; `best_fixes` searches every single replacement.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rules.locale import _, ngettext
from rules.race.board import COLOUR_LABELS, COLOURS, SEA_LABELS, SEAS, Board

JOURNEY_LENGTH = 10
LINKS = JOURNEY_LENGTH - 1
ALL_LINKS = (1 << LINKS) - 1


def broken_links(board: Board, kinds: Sequence[int]) -> int:
    """Bit i set when the link between trip i+1 and trip i+2 is broken (see the module docstring)."""
    c = board.n_countries
    neighbours = board.neighbours
    touch = board.touch
    n = len(kinds)
    mask = 0
    for i in range(n - 1):
        a = kinds[i]
        b = kinds[i + 1]
        if a < c:
            if b < c:
                if not neighbours[a] >> b & 1:
                    mask |= 1 << i
            elif not touch[b] >> a & 1 or i + 2 >= n:
                mask |= 1 << i
        elif b >= c or not touch[a] >> b & 1 or i == 0 or kinds[i - 1] == b:
            mask |= 1 << i
    return mask


def connected_links(board: Board, kinds: Sequence[int]) -> int:
    return len(kinds) - 1 - broken_links(board, kinds).bit_count()


def is_complete(board: Board, kinds: Sequence[int]) -> bool:
    """A complete journey (for holders the engine deals: tile counts are always possible there)."""
    return len(kinds) == JOURNEY_LENGTH and broken_links(board, kinds) == 0


@dataclass(frozen=True, slots=True)
class Break:
    #: 0-based link: between trip `link + 1` and trip `link + 2`.
    link: int
    reason: str

    def __str__(self) -> str:
        return _("trips {first}–{second}: {reason}").format(first=self.link + 1, second=self.link + 2,
                                                            reason=self.reason)


@dataclass(frozen=True, slots=True)
class Problem:
    """A journey criterion that is not one link: the ends, or more tiles of a kind than the set has."""

    trips: tuple[int, ...]
    reason: str

    def __str__(self) -> str:
        where = ", ".join(str(t) for t in self.trips)
        return ngettext("trip {trips}: {reason}", "trips {trips}: {reason}", len(self.trips)).format(
            trips=where, reason=self.reason)


@dataclass(frozen=True, slots=True)
class JourneyCheck:
    kinds: tuple[int, ...]
    breaks: tuple[Break, ...]
    problems: tuple[Problem, ...]

    @property
    def valid(self) -> bool:
        return not self.breaks and not self.problems

    @property
    def connected(self) -> int:
        return len(self.kinds) - 1 - len(self.breaks)

    def faults(self) -> int:
        return len(self.breaks) + len(self.problems)


def _mismatch(board: Board, country: int, transport: int) -> str:
    name = board.country_label(country)
    if board.is_ship(transport):
        sea = SEAS[transport - board.ship_kind(0)]
        return _("{country} is not on the {sea}, so the {ship} cannot reach it").format(
            country=name, sea=_(SEA_LABELS[sea]), ship=board.kind_label(transport))
    colour = _(COLOUR_LABELS[COLOURS[transport - board.plane_kind(0)]])
    return _("{country} is {own}, not {colour}: the {plane} only flies between {colour} countries").format(
        country=name, own=_(COLOUR_LABELS[COLOURS[board.colour[country]]]), colour=colour,
        plane=board.kind_label(transport))


def link_reason(board: Board, kinds: Sequence[int | None], i: int) -> str | None:
    """Why link i is broken, or None when it connects or cannot be judged yet (empty slots are None)."""
    if link_states(board, kinds)[i] != BROKEN:
        return None
    a, b = kinds[i], kinds[i + 1]
    assert a is not None and b is not None  # a link with an empty end is never judged broken
    name = board.kind_label
    if board.is_country(a) and board.is_country(b):
        if a == b:
            return _("the two {country} tiles may not be side by side").format(country=name(a))
        return _("{first} and {second} do not border (no land border, ferry or bridge)").format(first=name(a),
                                                                                               second=name(b))
    if not board.is_country(a) and not board.is_country(b):
        return _("two transport tiles side by side do not connect ({first}, {second})").format(first=name(a),
                                                                                              second=name(b))
    touch = board.touch
    # A transport at either end is broken whatever its neighbour: that is said first, as no country of
    # another colour or sea would mend it.
    if board.is_country(a):  # b is a transport with a on its near side
        if i + 2 >= len(kinds):
            return _("the {transport} at trip {trip} has no country after it").format(transport=name(b), trip=i + 2)
        return _mismatch(board, a, b)
    if i == 0:
        return _("the {transport} at trip 1 has no country before it").format(transport=name(a))
    if not touch[a] >> b & 1:
        return _mismatch(board, b, a)
    return _("the {transport} goes from {country} back to {country}; it must take you to another country").format(
        transport=name(a), country=name(b))


def check_journey(board: Board, kinds: Sequence[int]) -> JourneyCheck:
    """Every broken link with its reason, and every journey criterion that fails."""
    kinds = tuple(kinds)
    if len(kinds) != JOURNEY_LENGTH:
        raise ValueError(_("a journey has {length} trips, not {count}").format(length=JOURNEY_LENGTH,
                                                                            count=len(kinds)))
    for trip, kind in enumerate(kinds, start=1):
        if not 0 <= kind < board.n_kinds:
            raise ValueError(_("trip {trip}: {kind} is not a tile kind of this board").format(trip=trip, kind=kind))
    mask = broken_links(board, kinds)
    breaks = tuple(Break(i, link_reason(board, kinds, i) or "") for i in range(LINKS) if mask >> i & 1)
    problems = []
    if not board.is_country(kinds[0]):
        first = board.kind_label(kinds[0])
        problems.append(Problem((1,), _("a journey must start with a country tile, not the {tile}").format(
            tile=first)))
    if not board.is_country(kinds[-1]):
        last = board.kind_label(kinds[-1])
        problems.append(Problem((JOURNEY_LENGTH,), _("a journey must end with a country tile, not the {tile}").format(
            tile=last)))
    for kind, count in sorted(Counter(kinds).items()):
        if count > board.copies[kind]:
            trips = tuple(t for t, k in enumerate(kinds, start=1) if k == kind)
            have = board.copies[kind]
            problems.append(Problem(trips, ngettext(
                "{tile} appears {count} times, but the set has {have} {tile} tile",
                "{tile} appears {count} times, but the set has {have} {tile} tiles", have).format(
                tile=board.kind_label(kind), count=count, have=have)))
    return JourneyCheck(kinds, breaks, tuple(problems))


def fault_count(board: Board, kinds: Sequence[int]) -> int:
    """Broken links plus impossible tile counts: what a replacement tries to bring to zero."""
    over = sum(max(0, k - board.copies[kind]) for kind, k in Counter(kinds).items())
    return broken_links(board, kinds).bit_count() + over


@dataclass(frozen=True, slots=True)
class Fix:
    #: 0-based slot (trip `slot + 1`) and the tile kind to put there.
    slot: int
    kind: int
    #: Faults (broken links + impossible tile counts) left after this replacement.
    remaining: int


def best_fixes(board: Board, kinds: Sequence[int], available: Sequence[int] | None = None) -> list[Fix]:
    """The single replacements (any slot, any tile kind) that leave the fewest faults, if that is fewer.

    `available[kind]` (default: the whole set) caps how many tiles of each kind the journey may hold.
    Returns [] when the journey is already complete or no single replacement improves it.
    """
    kinds = list(kinds)
    caps = board.copies if available is None else available
    current = fault_count(board, kinds)
    if current == 0:
        return []
    counts = Counter(kinds)
    best = current
    fixes: list[Fix] = []
    for slot in range(len(kinds)):
        original = kinds[slot]
        for kind in range(board.n_kinds):
            if kind == original or counts[kind] + 1 > caps[kind]:
                continue
            kinds[slot] = kind
            left = fault_count(board, kinds)
            if left < best:
                best, fixes = left, []
            if left == best and left < current:
                fixes.append(Fix(slot, kind, left))
        kinds[slot] = original
    return fixes


OK, BROKEN, OPEN = "ok", "broken", "open"


def link_states(board: Board, kinds: Sequence[int | None]) -> tuple[str, ...]:
    """Per link of a journey being entered (None = empty slot): "ok", "broken", or "open" (cannot be judged
    until a neighbouring slot is filled). On a full journey, "broken" is exactly `broken_links`."""
    c = board.n_countries
    touch, neighbours = board.touch, board.neighbours
    n = len(kinds)
    states = []
    for i in range(n - 1):
        a, b = kinds[i], kinds[i + 1]
        if a is None or b is None:
            states.append(OPEN)
        elif a < c and b < c:
            states.append(OK if neighbours[a] >> b & 1 else BROKEN)
        elif a >= c and b >= c:
            states.append(BROKEN)
        elif a < c:  # b is a transport: this side needs a to suit it, and a far side to exist
            if not touch[b] >> a & 1 or i + 2 >= n:
                states.append(BROKEN)
            else:
                states.append(OK if kinds[i + 2] is not None else OPEN)
        elif not touch[a] >> b & 1 or i == 0:
            states.append(BROKEN)
        elif kinds[i - 1] is None:
            states.append(OPEN)
        else:
            states.append(BROKEN if kinds[i - 1] == b else OK)
    return tuple(states)


def reachable(board: Board, kind: int) -> int:
    """The countries (bitmask) a tile links to: a country's neighbours (land, ferry or bridge), the countries
    on a ship's sea, the countries of an aeroplane's colour."""
    return board.neighbours[kind] if board.is_country(kind) else board.touch[kind]


def fitting_slots(board: Board, kinds: Sequence[int | None], tile: int) -> tuple[int, ...]:
    """The slots (0-based) where `tile` would connect with what is on either side: neither of its two links
    would be broken (a link to an empty slot is not broken yet). A transport never fits at either end."""
    fits = []
    for slot in range(len(kinds)):
        if not board.is_country(tile) and slot in (0, len(kinds) - 1):
            continue
        trial = list(kinds)
        trial[slot] = tile
        states = link_states(board, trial)
        around = [i for i in (slot - 1, slot) if 0 <= i < len(states)]
        if all(states[i] != BROKEN for i in around):
            fits.append(slot)
    return tuple(fits)
