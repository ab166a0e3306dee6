"""The big-screen board of a table, as plain data: what the read-only page beside the table shows. No Flet here.

Everything comes from the table's view (`Table.view()`, the same dict every device and the event stream get):
the sheets, and the host's fold of the closed rounds (`rules.sheet`: scores and the shared bonuses). This module
only arranges them for reading across a room (names instead of seat numbers, standings in rank order,
the edition's names in the reader's language where the view holds their English keys); it decides no rule.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules import wording
from rules.edition import Edition
from rules.model import EditionDataError
from rules.sheet import GameSheet
from scorer.locale import _
from scorer.table.errors import Invalid, Unavailable
from scorer.userfile import UserFileError


@dataclass(frozen=True)
class RoundLine:
    """One round on one sheet: the letters as entered, the choice, and (once closed) its points."""

    round: int
    cards: str
    choice: str | None
    closed: bool
    #: (category name, points) of the categories that scored, in score-sheet order; empty while open.
    points: tuple[tuple[str, int], ...]
    total: int | None


@dataclass(frozen=True)
class SheetColumn:
    seat: int
    name: str
    total: int
    rank: int
    rounds: tuple[RoundLine, ...]
    #: Whether this seat has submitted the round being entered (False once the game is over).
    entering: bool


@dataclass(frozen=True)
class Standing:
    rank: int
    name: str
    total: int


@dataclass(frozen=True)
class TakenBonus:
    """A shared bonus already scored: by whom (names) in which round."""

    name: str
    points: int
    round: int
    by: tuple[str, ...]


@dataclass(frozen=True)
class OpenRegion:
    name: str
    points: int
    color: str


@dataclass(frozen=True)
class RouteBoard:
    name: str
    #: Points of the tiers still on offer, next first; a repeating last tier stays here.
    open_tiers: tuple[int, ...]
    repeats: bool
    taken: tuple[TakenBonus, ...]


@dataclass(frozen=True)
class Board:
    code: str
    edition: str
    round: int | None  # the round being entered; None once the game is over
    finished: bool
    waiting_for: tuple[str, ...]
    sheets: tuple[SheetColumn, ...]
    standings: tuple[Standing, ...]
    open_regions: tuple[OpenRegion, ...]
    taken_regions: tuple[TakenBonus, ...]
    route: RouteBoard | None
    version: int

    @property
    def status(self) -> str:
        if self.finished:
            return _("Game over")
        return _("Round {round} · still entering: {names}").format(round=self.round,
                                                                   names=", ".join(self.waiting_for))


def seat_name(seat: dict) -> str:
    """A seat of a table view as a person reads it: its player's name, or "seat 3" while nobody sits there
    (the view's own label for an empty seat is English, as the JSON API's words are)."""
    return seat["name"] if seat["claimed"] else _("seat {number}").format(number=seat["seat"])


def table_edition(view: dict) -> Edition:
    """The deck a table view plays: the host's deck at the version the table opened with (the view's
    `edition.version`, kept on the host), so every seat and the board read the table's sheets with the very
    deck it scores them with, even after the host edited that deck."""
    from scorer.packs import resolve_deck

    info = view["edition"]
    return resolve_deck(info["id"], info.get("version"))[0]


def has_table_deck(view: dict) -> bool:
    """Whether this device holds the very deck a table view plays (tourpad's and the publisher's decks are on
    every device; an owner's deck at the view's version only where it was installed, kept or received)."""
    from scorer.packs import resolve_deck

    info = view["edition"]
    if info.get("version") is None:
        return True
    try:
        return resolve_deck(info["id"], info["version"])[1]
    except (KeyError, EditionDataError, UserFileError):
        return False


def keep_table_deck(view: dict, document: object) -> Edition:
    """The host's deck as it sent it (`TableService.deck`), checked by the rules every deck is checked by and
    kept on this device under its version, so `table_edition` reads this table with it from now on (and a
    record of it scores here). Refuses (`Invalid`, changing nothing) a deck that is not the one the view names:
    a device never reads a table with a deck other than the host's."""
    from rules.editions import deck_version, edition_as_saved
    from scorer.packs import keep_version

    info = view["edition"]
    try:
        edition = edition_as_saved(document)
    except (EditionDataError, ValueError, TypeError) as err:
        raise Invalid(_("the host's deck cannot be read: {error}").format(error=err)) from None
    if edition.id != info["id"] or deck_version(edition) != info.get("version"):
        raise Invalid(_("the host sent a deck other than the one its table plays ({deck})").format(
            deck=info.get("name") or info["id"]))
    try:
        keep_version(edition)
    except UserFileError as err:
        raise Unavailable(str(err)) from None
    return edition


def board_from_view(view: dict) -> Board:
    """The board of a table view (`Table.view()` / the API's `TableView`), its words in the language of the
    moment. The scores and the shared bonuses are the host's (the view's `sheet`, `rules.sheet.SheetData`),
    read as sent: nothing is scored here."""
    edition = table_edition(view)
    sheet = GameSheet.from_data(edition, view["sheet"])
    choice_labels = {icon.name: icon.label for icon in edition.choice.icons}
    names = {seat["seat"]: seat_name(seat) for seat in view["seats"]}
    category_names = edition.category_names()
    waiting = set(view["waiting_for"])
    totals, ranks, scores = sheet.totals(), sheet.ranks(), sheet.scores
    sheets = []
    for p in range(sheet.n_players):
        seat_no = p + 1
        lines = []
        for rnd in view["rounds"]:
            entry = rnd["entries"][p]
            if entry is None:
                continue
            points: tuple[tuple[str, int], ...] = ()
            total = None
            if rnd["closed"]:
                score = scores[p][rnd["round"] - 1]
                points = tuple((category_names.get(c, c), v) for c, v in sheet.category_points(score).items() if v)
                total = score.total
            choice = entry["choice"] and choice_labels.get(entry["choice"], entry["choice"])
            lines.append(RoundLine(rnd["round"], entry["cards"], choice, rnd["closed"], points, total))
        sheets.append(SheetColumn(seat_no, names[seat_no], totals[p], ranks[p], tuple(lines),
                                  entering=seat_no in waiting))
    standings = tuple(Standing(s.rank, s.name, s.total) for s in sorted(sheets, key=lambda s: (s.rank, s.seat)))

    def who(players: tuple[int, ...]) -> tuple[str, ...]:
        return tuple(names[p + 1] for p in players)

    marks = sheet.bonus_marks()
    open_regions = tuple(OpenRegion(edition.regions[m.index].label, m.points, m.color)
                         for m in marks.regions if m.open)
    taken_regions = tuple(sorted((TakenBonus(edition.regions[m.index].label, m.points, m.round, who(m.players))
                                  for m in marks.regions if not m.open), key=lambda t: t.round))
    route = None
    if marks.route is not None and edition.route is not None:
        label = edition.route.label
        route = RouteBoard(label, marks.route.open_points, marks.route.last_repeats,
                           tuple(TakenBonus(label, t.points, t.round, who(t.players)) for t in marks.route.takings))
    return Board(view["code"], edition.label, view["round"], view["finished"],
                 tuple(names[s] for s in view["waiting_for"]), tuple(sheets), standings, open_regions,
                 taken_regions, route, view["version"])


def tiers_text(route: RouteBoard) -> str:
    """"7, 3 or 1 points" / "1 point for anyone else" / "none left"."""
    return wording.tiers_open(route.open_tiers, route.repeats, bool(route.taken))
