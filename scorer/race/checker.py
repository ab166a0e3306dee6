"""The journey checker for physical play: enter (or tap) your 10 tiles, see which links break and why,
and which single replacement would fix the most. The app's screen only draws what this model says."""

from __future__ import annotations

from dataclasses import dataclass

from rules.race.board import COLOURS, Board, said
from rules.race.journey import (
    JOURNEY_LENGTH,
    OPEN,
    JourneyCheck,
    best_fixes,
    check_journey,
    link_reason,
    link_states,
)
from scorer.locale import _, ngettext


class CheckerInputError(ValueError):
    """A tile name or slot the checker cannot take; nothing was changed."""


@dataclass(frozen=True, slots=True)
class CheckerReport:
    #: Per slot: the tile's name or None.
    tiles: tuple[str | None, ...]
    #: Per link: "ok", "broken" or "open".
    links: tuple[str, ...]
    #: Per link: why it is broken (None when it is not), also while tiles are still being entered.
    reasons: tuple[str | None, ...]
    complete: bool
    #: One line per broken link / failed criterion (only once all 10 slots are filled).
    faults: tuple[str, ...]
    #: "replace trip 5 with Albania: leaves 1 to fix" for each best single replacement.
    fixes: tuple[str, ...]
    headline: str
    #: The faults that are not one link (the journey's ends, too many tiles of a kind): the screen shows
    #: these apart, as each broken link is already shown under its trip.
    problems: tuple[str, ...] = ()
    #: Per line of `fixes`: the trip (0-based slot) and the tile to put there, for a tap to apply it.
    fix_moves: tuple[tuple[int, str], ...] = ()


def not_complete_headline(check: JourneyCheck) -> str:
    """What keeps a journey from being complete, the true reason first: when every link connects it is a
    tile count (a duplicate) or an end, and "9 of 9 links connect" would hide it."""
    if not check.breaks and check.problems:
        return _("Not complete: every link connects, but {problem}").format(problem=check.problems[0])
    return _("Not complete: {connected} of {links} links connect").format(
        connected=check.connected, links=JOURNEY_LENGTH - 1)


class JourneyChecker:
    def __init__(self, board: Board) -> None:
        self.board = board
        self.slots: list[int | None] = [None] * JOURNEY_LENGTH

    def tile_names(self) -> list[str]:
        """Every tile kind as a person reads it, for the picker: countries A–Z, then aeroplanes by colour,
        then ships (`set_tile` takes these names back)."""
        return list(self.board.kind_labels())

    def matches(self, prefix: str, limit: int = 8) -> list[str]:
        """Tile names starting with (then containing) what was typed, then those an alias of it names
        ("Czechia", "Med ship"), for autocompletion; when nothing matches, the names it is a slip for."""
        typed = said(prefix)
        names = self.tile_names()
        first = [n for n in names if said(n).startswith(typed)]
        found = first + [n for n in names if typed in said(n) and n not in first]
        labels = self.board.kind_labels()
        for text, kinds in self.board.spoken_names().items():
            if typed and text.startswith(typed):
                found += [labels[k] for k in kinds if labels[k] not in found]
        if not found:
            found = [labels[k] for k in self.board.suggestions(prefix)]
        return found[:limit]

    def search_note(self, prefix: str) -> str | None:
        """What to say under the search field when no tile's name holds what was typed (None otherwise)."""
        typed = said(prefix)
        if not typed or any(typed in said(n) for n in self.tile_names()) or any(
                text.startswith(typed) for text in self.board.spoken_names()):
            return None
        close = [self.board.kind_label(k) for k in self.board.suggestions(prefix)]
        if close:
            return _("No tile is called {name!r}. Did you mean {close}?").format(
                name=prefix.strip(), close=_(" or ").join(close))
        return _("No tile is called {name!r}: type part of a country's name, a colour and \"plane\", or a sea "
                 "and \"ship\".").format(name=prefix.strip())

    def set_tile(self, slot: int, name: str) -> None:
        if not 0 <= slot < JOURNEY_LENGTH:
            raise CheckerInputError(_("trip {n} does not exist; trips are 1–{last}").format(n=slot + 1,
                                                                                        last=JOURNEY_LENGTH))
        try:
            kind = self.board.kind_of(name)
        except KeyError as err:
            raise CheckerInputError(_("trip {n}: {error}").format(n=slot + 1, error=err.args[0])) from None
        self.slots[slot] = kind

    def clear(self, slot: int | None = None) -> None:
        if slot is None:
            self.slots = [None] * JOURNEY_LENGTH
        else:
            self.slots[slot] = None

    def colour_of(self, slot: int) -> str | None:
        """The tile's colour name for drawing it (countries and aeroplanes), or None."""
        kind = self.slots[slot]
        if kind is None:
            return None
        if self.board.is_country(kind):
            return COLOURS[self.board.colour[kind]]
        if self.board.is_plane(kind):
            return COLOURS[kind - self.board.plane_kind(0)]
        return None

    def report(self) -> CheckerReport:
        board = self.board
        names = tuple(None if k is None else board.kind_name(k) for k in self.slots)
        links = link_states(board, self.slots)
        reasons = tuple(link_reason(board, self.slots, i) for i in range(JOURNEY_LENGTH - 1))
        filled = sum(k is not None for k in self.slots)
        if filled < JOURNEY_LENGTH:
            broken = sum(s == "broken" for s in links)
            if broken:
                headline = ngettext("{filled} of {total} tiles entered; {n} link already broken",
                                    "{filled} of {total} tiles entered; {n} links already broken", broken).format(
                    filled=filled, total=JOURNEY_LENGTH, n=broken)
            else:
                headline = _("{filled} of {total} tiles entered").format(filled=filled, total=JOURNEY_LENGTH)
            return CheckerReport(names, links, reasons, False, (), (), headline)
        kinds = [k for k in self.slots if k is not None]
        check = check_journey(board, kinds)
        if check.valid:
            return CheckerReport(names, links, reasons, True, (), (), _("Complete journey: every trip connects!"))
        faults = tuple(str(x) for x in (*check.breaks, *check.problems))
        fixes = best_fixes(board, kinds)
        lines = tuple(
            (_("replace trip {n} with {tile}: completes the journey") if f.remaining == 0
             else _("replace trip {n} with {tile}: leaves {left} to fix")).format(
                n=f.slot + 1, tile=board.kind_name(f.kind), left=f.remaining)
            for f in fixes)
        headline = not_complete_headline(check)
        moves = tuple((f.slot, board.kind_label(f.kind)) for f in fixes)
        return CheckerReport(names, links, reasons, False, faults, lines, headline,
                             tuple(str(x) for x in check.problems), moves)

    def apply_fix(self, slot: int, name: str) -> None:
        """A tapped replacement: the tile goes into its trip (as if picked there)."""
        self.set_tile(slot, name)

    @property
    def open_links(self) -> int:
        return sum(s == OPEN for s in link_states(self.board, self.slots))
