"""A player's row from the card codes a photo shows: the codes with their corners in, the letters in draft
order out, with everything the player must look at (a card twice, another player's card, a card of another
edition, a position unread: `?`).

Pure Python (no numpy, Pillow, OpenCV or zxing-cpp): `tourpad scan` reads the codes with zxing-cpp
(`scorer.scan.codes`), the web app with the page's own reader (`scorer.scan.browser`), and both hand them
here, so the phone alone and the host say the same of one photo.

Ordering: the cards' reading direction comes from the codes themselves (a QR code knows its top-left
corner), so a row photographed sideways or from across the table still reads Throw card first. The row's
line is the principal axis of the code centres; if it runs along the cards' left→right it is a row, if it
runs along their top→bottom it is a column.
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from printables.payload import PayloadError, card_code_width_mm, parse_card_payload
from rules.edition import Edition
from rules.engine import HAND_SIZE
from rules.i18n import format_number
from scorer.locale import N_, _, ngettext

#: A player's row: the cards they drafted this round.
ROW_LENGTH = HAND_SIZE
#: Below this many pixels per code module a blurred or compressed photo stops being readable: say so.
SMALL_MODULE_PX = 2.6
#: A card is 63 × 88 mm around its printed code (printables.cards); laid in a row, neighbours' codes sit
#: about this many code widths apart, which tells one missing card from none.
_CODE_MM = card_code_width_mm("australia")  # a bundled edition's code; a long pack id may print a larger one
CARD_PITCH_IN_CODES = {"row": 63 / _CODE_MM, "column": 88 / _CODE_MM}

Point = tuple[float, float]

# --- Results ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class FoundCode:
    """One decoded QR code in photo coordinates; `right` is the unit vector of the code's own left→right.
    `corners` (top-left, top-right, bottom-right, bottom-left) give its shape as the photo's perspective
    draws it, which tells a neighbour's shape; empty where only the centre and direction are known."""

    text: str
    centre: tuple[float, float]
    right: tuple[float, float]
    size: float
    corners: tuple[tuple[float, float], ...] = field(default=(), repr=False, compare=False)

    @classmethod
    def from_corners(cls, text: str, corners: Sequence[Sequence[float]]) -> FoundCode:
        """The code whose four corners (top-left, top-right, bottom-right, bottom-left) a reader gave."""
        points = [(float(x), float(y)) for x, y in corners]
        if len(points) != 4:
            raise ValueError(f"a code has 4 corners, not {len(points)}")
        (tlx, tly), (trx, try_), (brx, bry), (blx, bly) = points
        centre = (sum(x for x, _ in points) / 4, sum(y for _, y in points) / 4)
        right = ((trx - tlx) + (brx - blx), (try_ - tly) + (bry - bly))
        size = sum(math.dist(points[i], points[(i + 1) % 4]) for i in range(4)) / 4
        norm = math.hypot(*right) or 1.0
        return cls(text, centre, (right[0] / norm, right[1] / norm), size, tuple(points))


@dataclass(frozen=True)
class ScanResult:
    """The row as the photo shows it. `slots[i]` is the letter at draft position i+1, or None if unread or
    not a card of this edition; `problems` name everything the player must look at before confirming."""

    edition_id: str
    slots: tuple[str | None, ...]
    problems: tuple[str, ...] = ()
    layout: str = "row"
    codes: tuple[FoundCode, ...] = field(default=(), repr=False)
    seconds: float = 0.0

    @property
    def missing(self) -> tuple[int, ...]:
        """1-based draft positions with no letter."""
        return tuple(i + 1 for i, letter in enumerate(self.slots) if letter is None)

    @property
    def complete(self) -> bool:
        return len(self.slots) == ROW_LENGTH and not self.missing and not self.problems

    @property
    def letters(self) -> str:
        """The row as text, `?` where a position is unread: e.g. `AB?DEFG`."""
        return "".join(letter or "?" for letter in self.slots)

    def messages(self) -> list[str]:
        """Everything to tell the player, missing positions first."""
        out = []
        if self.missing:
            found = len(self.slots) - len(self.missing)
            out.append(ngettext("read {found} of {size} cards; position {positions} not read — type it in or take "
                                "another photo",
                                "read {found} of {size} cards; positions {positions} not read — type them in or "
                                "take another photo", len(self.missing)).format(
                found=found, size=len(self.slots), positions=_join(map(str, self.missing))))
        return out + list(self.problems)

    def to_dict(self) -> dict:
        return {"edition": self.edition_id, "letters": self.letters, "slots": list(self.slots),
                "missing": list(self.missing), "problems": list(self.problems), "complete": self.complete,
                "layout": self.layout, "codes_found": len(self.codes), "seconds": round(self.seconds, 4)}


def _join(items: Iterable[str]) -> str:
    items = list(items)
    if len(items) == 1:
        return items[0]
    return _("{items} and {last}").format(items=", ".join(items[:-1]), last=items[-1])


# --- Ordering -----------------------------------------------------------------------------------------------

def _dot(a: Sequence[float], b: Sequence[float]) -> float:
    return a[0] * b[0] + a[1] * b[1]


def _unit(v: Sequence[float]) -> Point:
    norm = math.hypot(v[0], v[1]) or 1.0
    return (v[0] / norm, v[1] / norm)


@dataclass(frozen=True)
class _Row:
    """The found cards sorted along the row, with their 0-based draft positions."""

    codes: tuple[FoundCode, ...]
    positions: tuple[int, ...]
    axis: Point
    layout: str
    pitch: float


def _principal_axis(points: list[Point]) -> Point:
    """The unit vector of the line the points spread most along (the 2 × 2 scatter's larger eigenvector)."""
    mx = sum(x for x, _ in points) / len(points)
    my = sum(y for _, y in points) / len(points)
    a = sum((x - mx) ** 2 for x, _ in points)
    b = sum((x - mx) * (y - my) for x, y in points)
    c = sum((y - my) ** 2 for _, y in points)
    if b == 0:
        return (1.0, 0.0) if a > c else (0.0, 1.0)
    larger = (a + c) / 2 + math.sqrt(((a - c) / 2) ** 2 + b * b)
    return _unit((larger - c, b))


def _row_axis(codes: Sequence[FoundCode]) -> tuple[Point, str]:
    """The unit vector the row runs along, pointing from the Throw card to the Catch card, and the layout."""
    right = _unit((sum(c.right[0] for c in codes), sum(c.right[1] for c in codes)))
    down = (-right[1], right[0])
    if len(codes) < 2:
        return right, "row"
    axis = _principal_axis([c.centre for c in codes])
    flipped = (-axis[0], -axis[1])
    if abs(_dot(axis, right)) >= abs(_dot(axis, down)):
        return (axis if _dot(axis, right) > 0 else flipped), "row"
    return (axis if _dot(axis, down) > 0 else flipped), "column"


def spot(at: Mapping[int, tuple[Sequence[float], float]], k: int, pitch: float,
         axis: Sequence[float]) -> tuple[Point, float, float]:
    """(centre, code size, how far off that centre may be) for the card at draft position k: interpolated
    between found neighbours (so perspective — far cards smaller and closer together — is followed) or
    extrapolated, less surely the farther it reaches (gaps between cards vary)."""
    pair = neighbours(at, k)
    if pair is None:
        ((p, (centre, size)),) = at.items()
        reach = (k - p) * pitch
        return (centre[0] + reach * axis[0], centre[1] + reach * axis[1]), size, 0.12 * pitch * abs(k - p)
    a, b = pair
    doubt = 0.0 if a < k < b else 0.06 * pitch * min(abs(k - a), abs(k - b))
    t = (k - a) / (b - a)
    (ca, sa), (cb, sb) = at[a], at[b]
    return (ca[0] + t * (cb[0] - ca[0]), ca[1] + t * (cb[1] - ca[1])), sa + t * (sb - sa), doubt


def neighbours(positions: Iterable[int], k: int) -> tuple[int, int] | None:
    """The two found positions position k is told from: those on either side of it, or else the two nearest
    (extrapolating); None with only one."""
    positions = list(positions)
    left = [p for p in positions if p < k]
    right = [p for p in positions if p > k]
    if left and right:
        return max(left), min(right)
    if len(positions) >= 2:
        a, b = sorted(sorted(positions, key=lambda p: abs(p - k))[:2])
        return a, b
    return None


def arrange(codes: Sequence[FoundCode], image_size: tuple[int, int], row_length: int = ROW_LENGTH,
            detail: Callable[[Point, float], float] | None = None) -> _Row:
    """Sort the codes along the row and give each its draft position, leaving gaps where a card's code was
    not read: the pitch is the smallest spacing, unless the codes' size says that spacing spans several
    cards. Cards missing at the ends go where there is photo for them, and of those places where the photo
    is most detailed (`detail(centre, size)`: an unread code is still dense texture; a bare table is not)."""
    axis, layout = _row_axis(codes)
    ordered = sorted(codes, key=lambda c: _dot(c.centre, axis))
    along = [_dot(c.centre, axis) for c in ordered]
    gaps = [b - a for a, b in itertools.pairwise(along)]
    expected = statistics.median(c.size for c in ordered) * CARD_PITCH_IN_CODES[layout]
    spare = max(0, row_length - len(ordered))
    if len(ordered) == 1:
        pitch = expected
    else:
        nearest = min(gaps)
        pitch = nearest / min(max(1, round(nearest / expected)), spare + 1)
    steps = [0]
    for gap in gaps:
        steps.append(steps[-1] + max(1, round(gap / pitch)))
    if steps[-1] + 1 > row_length:  # more spread than a row: keep the order, drop the guessed gaps
        steps = list(range(len(ordered)))
    at = {step: (code.centre, code.size) for code, step in zip(ordered, steps, strict=True)}
    leftover = max(0, row_length - (steps[-1] + 1))

    def score(k: int) -> float:
        centre, size, _ = spot(at, k, pitch, axis)
        inside = size / 2 <= centre[0] <= image_size[0] - size / 2 and size / 2 <= centre[1] <= image_size[1] - size / 2
        if not inside:
            return -1000.0
        return detail(centre, size) if detail else 0.0

    splits = [(sum(score(-1 - i) for i in range(before)) +
               sum(score(steps[-1] + 1 + i) for i in range(leftover - before)), before)
              for before in range(leftover + 1)]
    # Ties go to the end of the row: a player short of space lays the row out from the photo's left edge.
    before = max(splits, key=lambda item: (item[0], -item[1]))[1]
    return _Row(tuple(ordered), tuple(s + before for s in steps), axis, layout, pitch)


def expected_spots(codes: Sequence[FoundCode], image_size: tuple[int, int], row_length: int = ROW_LENGTH,
                   detail: Callable[[Point, float], float] | None = None) -> list[tuple[Point, float, float, int]]:
    """(centre, code size, doubt, draft position) of every place along the row where an unread card could lie:
    the gaps between the found codes first, then beyond both ends as far as the row could extend, nearest
    first; only places inside the photo (give or take the doubt)."""
    row = arrange(codes, image_size, row_length, detail)
    at = {p: (c.centre, c.size) for c, p in zip(row.codes, row.positions, strict=True)}
    first, last = row.positions[0], row.positions[-1]
    spare = row_length - (last - first + 1)
    gaps = [k for k in range(first, last) if k not in at]
    ends = sorted([*range(first - spare, first), *range(last + 1, last + spare + 1)],
                  key=lambda k: min(abs(k - first), abs(k - last)))
    spots = [(*spot(at, k, row.pitch, row.axis), k) for k in gaps + ends]
    return [(c, size, doubt, k) for c, size, doubt, k in spots
            if -doubt <= c[0] < image_size[0] + doubt and -doubt <= c[1] < image_size[1] + doubt]


# --- Checking -----------------------------------------------------------------------------------------------

def is_card_code(text: str) -> bool:
    try:
        parse_card_payload(text)
    except PayloadError:
        return False
    return True


def letter_problems(placed: Iterable[tuple[int, str]], taken: Mapping[str, str] | Iterable[str] = ()) -> list[str]:
    """What is wrong with the letters read at (0-based position, letter): a card twice, or a card another
    player already has this round (`taken`: letters, or letter → player name to name who)."""
    taken_by = dict(taken) if isinstance(taken, Mapping) else {letter: "" for letter in taken}
    problems: list[str] = []
    first_at: dict[str, int] = {}
    for position, letter in placed:
        if letter in first_at:
            problems.append(_("card {letter} appears twice (positions {first} and {second})").format(
                letter=letter, first=first_at[letter] + 1, second=position + 1))
            continue
        first_at[letter] = position
        if letter in taken_by:
            problems.append((_("position {position}: card {letter} is already in {name}'s row this round")
                             if taken_by[letter] else
                             _("position {position}: card {letter} is already in another player's row this round")
                             ).format(position=position + 1, letter=letter, name=taken_by[letter]))
    return problems


#: Said when a photo shows more cards than a row, whichever reader found them.
TOO_MANY_CARDS = N_("found {n} cards; a row has {size}: photograph one player's row only")
#: Said when a photo shows no tourpad code and this build cannot read printed cards (the browser build).
NO_PRINTED_CARD_READER = N_("reading the publisher's printed cards needs OpenCV, which this build of tourpad "
                            "does not have: scan on the host (tourpad host), or type the letters in")


def row_of_codes(codes: Sequence[FoundCode], edition: Edition, image_size: tuple[int, int],
                 taken: Mapping[str, str] | Iterable[str] = (), row_length: int = ROW_LENGTH,
                 detail: Callable[[Point, float], float] | None = None, seconds: float = 0.0,
                 no_printed_reader: bool = False, guess_ends: bool = True) -> ScanResult:
    """The row the codes read in a photo of `image_size` show: ordered along the row, each card checked
    against `edition` and the letters other players have (`taken`), with a problem for every code that is
    not a card of this game. `no_printed_reader`: this build cannot read the publisher's cards, which a photo
    without any code may show (said along with "no card codes found"). Without `guess_ends`, a row whose
    codes were read but whose missing cards may lie at either end shows no letter at all (their positions
    are not known), only which cards were read."""
    problems: list[str] = []
    cards: list[tuple[FoundCode, str, str]] = []
    for code in codes:
        try:
            cards.append((code, *parse_card_payload(code.text)))
        except PayloadError:
            shown = code.text if len(code.text) <= 40 else code.text[:37] + "…"
            problems.append(_("ignored a QR code that is not a tourpad card: {text}").format(text=repr(shown)))
    if not cards:
        problems.insert(0, _("no card codes found in the photo: lay the 7 cards face up in a row, codes "
                             "uncovered, and photograph them from above, close enough that the row fills the picture"))
        if no_printed_reader:
            problems.append(_(NO_PRINTED_CARD_READER))
        return ScanResult(edition.id, (None,) * row_length, tuple(problems), "row", tuple(codes), seconds)

    by_code = {id(code): (edition_id, letter) for code, edition_id, letter in cards}
    row = arrange([code for code, _, _ in cards], image_size, row_length, detail)
    cards = [(code, *by_code[id(code)]) for code in row.codes]
    positions, layout = list(row.positions), row.layout
    slots: list[str | None] = [None] * max(row_length, positions[-1] + 1)
    if len(cards) > row_length:
        problems.append(_(TOO_MANY_CARDS).format(n=len(cards), size=row_length))
    placed: list[tuple[int, str]] = []
    for (_code, edition_id, letter), position in zip(cards, positions, strict=True):
        number = position + 1
        if edition_id != edition.id:
            problems.append(_("position {position}: card {letter} of edition {other} is not a card of this game "
                              "({edition})").format(position=number, letter=letter, other=repr(edition_id),
                                                    edition=edition.label))
            continue
        if letter not in edition.letters:
            problems.append(_("position {position}: {edition} has no card {letter}").format(
                position=number, edition=edition.label, letter=letter))
            continue
        slots[position] = letter
        placed.append((position, letter))
    problems.extend(letter_problems(placed, taken))
    if placed and not guess_ends and len(cards) < row_length and positions[-1] - positions[0] + 1 < row_length:
        problems.append(_("read the cards {letters}, but not where in the row they lie: take another photo, "
                          "closer, or tap the cards on the keypad").format(
            letters=_join(letter for _position, letter in placed)))
        slots = [None] * len(slots)
    if None in slots:
        module = statistics.median(c.size for c, _, _ in cards) / 25  # the cards' codes are 25 modules wide
        if module < SMALL_MODULE_PX:
            problems.append(_("the codes are small in this photo (about {size} px per module): take it closer, so "
                              "the row fills the picture").format(size=format_number(round(module, 1))))
    return ScanResult(edition.id, tuple(slots), tuple(problems), layout, tuple(codes), seconds)
