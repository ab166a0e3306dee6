"""A seat's (or the host's) score sheet at a table: the pad's `SheetSession` over a seat transport.

The sheet screens draw a `PadState` and send commands; here that state is the table's view (every seat's
entries, and the host's fold of the closed rounds, `rules.sheet`, read as sent) and a command is a save sent
through the seat's transport (`scorer.table.transport`: the host's service in this process, its JSON API, or a
data channel to a host phone) with this device's token, so a seat changes only its own sheet. Live: `watch`
follows the table's feed, and every committed change anywhere re-folds the state and calls the listeners.
No Flet here.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from rules.engine import ROUNDS
from rules.sheet import GameSheet
from scorer.locale import _
from scorer.pad.errors import EntryError
from scorer.pad.game import LETTERS_MODE, PadState, Setup
from scorer.pad.places import SheetPlace
from scorer.table.board import seat_name, table_edition
from scorer.table.service import TableError, TableService
from scorer.table.store import seat_mark, token_hash
from scorer.table.transport import SeatSave, SeatTransport, ServiceTransport

log = logging.getLogger(__name__)

SEAT_PLACE = ("table_seat", "table_seat_summary", "table_seat_entry", "table_seat_end")
HOST_PLACE = ("table_host_sheet", "table_host_summary", "table_host_entry", "table_host_end")


def state_from_view(view: dict) -> PadState:
    """The pad's state of a table's game: its seats as players, their entries round by round, and the host's
    scores of the closed rounds as it sent them (the view's `sheet`): a seat scores nothing again."""
    edition = table_edition(view)
    setup = Setup(edition.id, tuple(seat_name(seat) for seat in view["seats"]), view["direction_variant"],
                  LETTERS_MODE)
    entries = [{s: {"cards": e["cards"], "choice": e["choice"]} for s, e in enumerate(rnd["entries"]) if e}
               for rnd in view["rounds"]]
    return PadState(setup, edition, entries, sheet=GameSheet.from_data(edition, view["sheet"]))


class SeatSheetSession:
    """A seat (0-based) of the table `transport` reaches, as its token holder sees it; `seat` None: the host,
    who may correct any seat's round so far."""

    def __init__(self, transport: SeatTransport, seat: int | None) -> None:
        self.transport = transport
        self.seat = seat
        self.listeners: list[Callable[[PadState], None]] = []
        #: Set when the table is gone or this seat was taken away: why the sheet cannot be shown any more.
        self.gone: str | None = None
        #: The rounds closed before the change the listeners were last told of. This device's own submission
        #: is read back at once and its event skipped, so a listener cannot keep count itself: it would take
        #: the round its own entry closed for one just closed elsewhere.
        self.rounds_done_before = 0
        self._following = False
        self._received = 0  # the version of the latest change the table has told this session about
        self._set_view(transport.view())
        #: The version of the table the screens have drawn (told to the listeners, or drawn by the caller of
        #: this device's own save), and its rounds closed. A view read for another reason (a save's read-back)
        #: can hold changes made elsewhere: their events, skipped as already in the view, still tell the
        #: screens, or a phone would keep showing a round that closed.
        self._told = self.view["version"]
        self._told_rounds_done = self.state.rounds_done
        self.code = self.view["code"]

    @property
    def token(self) -> str:
        return self.transport.token

    # --- the table -------------------------------------------------------------------------------------

    def _set_view(self, view: dict) -> None:
        if "view" in self.__dict__ and view["version"] < self.view["version"]:
            return  # an answer overtaken by a change already applied (its event came first): keep the newer
        seats_before = len(self.view["seats"]) if "view" in self.__dict__ else len(view["seats"])
        self.view = view
        self.state = state_from_view(view)
        if self.seat is not None:
            self._find_seat(view, seats_before)

    def _find_seat(self, view: dict, seats_before: int) -> None:
        """This token's seat as `view` has it: found by its mark, so a seat removed before it whose event never
        came (read again at a catch-up) moves it down all the same; gone when the host removed it or gave it to
        another phone. (A host of an earlier version marks no seat: its events alone move this one.)"""
        marks = [seat.get("mark") for seat in view["seats"]]
        if not any(marks) or self.gone:
            return
        mine = seat_mark(token_hash(self.transport.token))
        if mine in marks:
            self.seat = marks.index(mine)
            return
        self.gone = (_("The host removed your seat") if len(marks) < seats_before
                     else _("The host gave your seat to another phone"))
        self.stop()

    def reload(self) -> PadState:
        try:
            self._set_view(self.transport.view())
        except TableError as err:
            self.gone = err.message
        return self.state

    def watch(self, schedule: Callable[[Callable[[], None]], None]) -> None:
        """Follow the table live: after each committed change, `schedule` is handed what updates this
        session and tells its listeners (it must run it on the screens' own loop, not on the caller's:
        the transport calls from its own thread)."""
        self.stop()

        def listener(event: dict) -> None:
            self._received = event["version"]  # events come in version order
            schedule(lambda: self._apply(event))

        self._set_view(self.transport.follow(listener))
        self._following = True
        self._drawn()  # the screens are drawn from this view once the table is followed

    def stop(self) -> None:
        if self._following:
            self._following = False
            self.transport.stop()

    def _apply(self, event: dict) -> None:
        if event["kind"] == "expired":
            self.gone = _("The table expired")
            self.stop()
        elif event["version"] > self.view["version"]:
            if event["kind"] == "entry" and event["version"] < self._received:
                # A later change is already on its way to this session and carries the whole table: a burst of
                # submissions redraws each phone once, not once per submission (each redraw is a whole screen).
                return
            if event["kind"] == "seat_removed" and self.seat is not None:
                self._reseat(event["seat"] - 1)
            self._set_view(event["table"] or self.transport.view())
        elif self._told >= self.view["version"]:
            return  # already in the view and drawn (this device's own submission, read back at once)
        self._tell()

    def _tell(self) -> None:
        """The listeners told of the view as it is now (and of the rounds closed since they were last told)."""
        self.rounds_done_before = self._told_rounds_done
        self._drawn()
        for listener in list(self.listeners):
            listener(self.state)

    def _drawn(self, version: int | None = None) -> None:
        """The screens have (or are about to have) drawn the view as it is now: up to its `version`, or up to an
        earlier one when the view holds changes made elsewhere that they have not been told of."""
        self._told = self.view["version"] if version is None else version
        self._told_rounds_done = self.state.rounds_done

    def catch_up(self) -> bool:
        """Read the table again and tell the screens any change they have not been told of (on the screens'
        loop, as `watch`'s updates run). A seat that follows a host phone hears of each change only by its
        event; should one never come, its phone would show a round that closed elsewhere as still open, with
        nothing to tap. Returns whether the sheet was behind (said in the log: an event lost on the way)."""
        if not self._following:
            return False
        try:
            # the version alone first (a few bytes): the whole table only when the screens are behind it
            if self.transport.version() <= self._told:
                return False
            view = self.transport.view()
        except TableError:  # not answered now: the channel's end says so if it dropped; the next try may do
            return False
        if view["version"] <= self._told:
            return False
        log.warning("table %s: the sheet had drawn version %d of the table, which is at %d (a change whose "
                    "event never came): drawn again", self.code, self._told, view["version"])
        self._set_view(view)
        self._tell()
        return True

    def _reseat(self, removed: int) -> None:
        """After the host removed a seat, this token's seat moved down one if it came after, or is gone (the
        event says which seat went: any transport's seat follows without asking the host)."""
        if removed == self.seat:
            self.gone = _("The host removed your seat")
            self.stop()
        elif removed < self.seat:
            self.seat -= 1

    # --- what the sheet screens ask (scorer.pad.session.SheetSession) -----------------------------------

    @property
    def place(self) -> SheetPlace:
        if self.seat is None:
            return SheetPlace(*HOST_PLACE, (("code", self.code),))
        return SheetPlace(*SEAT_PLACE, (("code", self.code), ("seat", self.seat + 1)))

    @property
    def ended(self) -> bool:
        return bool(self.view["ended"])

    @property
    def title(self) -> str:
        game = self.state.edition.label.removeprefix("Boomerang: ").removeprefix("Boomerang : ")
        if self.seat is None:
            return _("{game} · host").format(game=game)
        return f"{game} · {self.state.players[self.seat]}"

    #: No undo at a table: each seat edits its own round until it closes; the host corrects any round.
    has_undo = False
    can_undo = False
    can_redo = False
    #: Every seat enters on its own phone (the host, for a seat without one): after a save, the sheet.
    passed_around = False

    @property
    def export_name(self) -> str:
        return f"tourpad-table-{self.code}-game-{self.view['game']}"

    @property
    def where(self) -> str:
        return _("Table {code}").format(code=self.code)

    @property
    def draft_key(self) -> tuple:
        return ("table", self.code, self.view["game"], "host" if self.seat is None else self.seat)

    def may_enter(self, round_index: int, player: int) -> bool:
        """A seat: its own round while it is open. The host: any seat's round so far (a correction)."""
        if self.ended or not 0 <= player < self.state.setup.n:
            return False
        if self.seat is None:
            return 0 <= round_index <= min(self.state.current_round, ROUNDS - 1)
        return player == self.seat and round_index == self.state.current_round < ROUNDS

    def status_lines(self) -> list[str]:
        game = self.view["game"]
        if self.seat is None:
            line = (_("Table {code} · game {game} · you are the host") if game > 1
                    else _("Table {code} · you are the host")).format(code=self.code, game=game)
        else:
            line = (_("Table {code} · game {game} · your seat: {seat}") if game > 1
                    else _("Table {code} · your seat: {seat}")).format(code=self.code, game=game, seat=self.seat + 1)
        lines = [line]
        if self.ended:
            lines.append(_("The host ended this game: the sheets stay readable, no more entries."))
        return lines

    def enter_letters(self, player: int, cards: str, choice: str | None, round_index: int | None = None
                      ) -> PadState:
        r = self.state.current_round if round_index is None else round_index
        if not 0 <= r < ROUNDS:
            raise EntryError(_("the game is over"))
        if not 0 <= player < self.state.setup.n:
            raise EntryError(_("no seat {number} at this table").format(number=player + 1))
        current = self.view["rounds"][r]["entries"][player]
        try:
            # the game this sheet shows: after the host's "play again" it is refused, not put into the new game
            saved = self.transport.save(SeatSave(self.view["game"], r + 1, player + 1, cards, choice or None,
                                                 current["revision"] if current else 0))
        except TableError as err:
            raise EntryError(err.message) from None
        self.reload()
        # The caller draws what it gets back (the round's summary, or the sheet): this device's own change is
        # no news to its screens. A change made elsewhere that the read-back brought along is told when its
        # event comes.
        own = min(saved.get("version", self.view["version"]), self.view["version"])
        if own > self._told:
            self._drawn(own)
        return self.state

    def enter_categories(self, player: int, values: dict, round_index: int | None = None) -> PadState:
        raise EntryError(_("a table is entered by letters: tap your 7 cards"))

    def undo(self) -> str:
        raise EntryError(_("a table has no undo: edit your round until it closes (the host can correct any round)"))

    def redo(self) -> str:
        return self.undo()


class TableSheetSession(SeatSheetSession):
    """A seat of table `code` on this host's own service: the phones `tourpad host` serves."""

    def __init__(self, service: TableService, code: str, token: str, seat: int | None) -> None:
        super().__init__(ServiceTransport(service, code, token), seat)
