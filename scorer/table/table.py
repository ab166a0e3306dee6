"""One table as the host holds it (`Table`: its stored state, its fold of the closed rounds, the view every
device gets) and every table in memory (`Tables`: the store that keeps them and the one lock that orders all
their changes). The jobs of `scorer.table.service` share them."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from pydantic import ValidationError

from rules.bonuses import BonusMarks
from rules.edition import Edition
from rules.engine import ROUNDS
from rules.record import DeckRef, ParsedRound, choice_key, deck_ref, record_from_rounds, report_of
from rules.sheet import GameSheet, fold_rounds
from rules.validation import parse_row
from scorer.locale import _
from scorer.table import trace
from scorer.table.errors import Conflict, NotFound, Unavailable
from scorer.table.store import PendingWrite, StoredTable, TableStore, seat_mark

#: Unambiguous characters (no 0/O, 1/I): 32 symbols, 8 of them = 40 bits; wrong guesses are rate-limited.
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8
MIN_SEATS, MAX_SEATS = 2, 4


def normalize_code(text: str) -> str:
    """What a person typed ("abcd-efgh", "ABCD EFGH") → the stored code."""
    return "".join(ch for ch in text.upper() if ch not in " -_")


def format_code(code: str) -> str:
    return f"{code[:4]}-{code[4:]}"


def new_token() -> str:
    """128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def ended_message(table: Table) -> str:
    return _("the host ended table {code} (game {game}): no more entries; the game and its standings stay "
             "readable").format(code=format_code(table.code), game=table.stored.game)


@dataclass
class Table:
    stored: StoredTable
    edition: Edition
    #: Reads count as activity for expiry (kept in memory only: a restart falls back to the last write).
    last_seen: float
    _sheet: GameSheet | None = field(default=None, repr=False)
    _scores: dict | None = field(default=None, repr=False)  # computed with `_sheet`
    _sheet_data: dict | None = field(default=None, repr=False)  # computed with `_sheet`
    _bonuses: dict = field(default_factory=dict, repr=False)  # computed with `_sheet`

    @property
    def code(self) -> str:
        return self.stored.code

    @property
    def n_seats(self) -> int:
        return self.stored.seats

    @cached_property
    def deck(self) -> DeckRef | None:
        """The host's own deck the table plays, at the version it was opened with (None for tourpad's and the
        publisher's decks): every seat, the board and the record use that version, whatever the host edits."""
        return deck_ref(self.edition)

    def label(self, seat: int) -> str:
        claimed = self.stored.claimed.get(seat)
        return claimed.name if claimed else f"seat {seat + 1}"

    def submitted(self, round_index: int) -> list[int]:
        return [s for s in range(self.n_seats) if (round_index, s) in self.stored.entries]

    @property
    def open_round(self) -> int:
        """The first round not every seat has submitted (0-based); ROUNDS once the game is over."""
        for r in range(ROUNDS):
            if len(self.submitted(r)) < self.n_seats:
                return r
        return ROUNDS

    def waiting_for(self) -> list[int]:
        r = self.open_round
        if r == ROUNDS:
            return []
        return [s for s in range(self.n_seats) if (r, s) not in self.stored.entries]

    def closed_rounds(self) -> list[ParsedRound]:
        closed = []
        for r in range(self.open_round):
            entries = [self.stored.entries[r, s] for s in range(self.n_seats)]
            rows = tuple(parse_row(self.edition, e.cards, "stored") for e in entries)
            choices = tuple(self._choice_index(e.choice) for e in entries)
            closed.append(ParsedRound(rows, choices))
        return closed

    def record(self) -> dict:
        """The current game's closed rounds as the JSON record `tourpad score` reads."""
        labels = [self.label(s) for s in range(self.n_seats)]
        try:
            record = record_from_rounds(self.edition, labels, self.closed_rounds(), self.stored.direction_variant)
        except ValidationError:  # a player named like an empty seat ("seat 2"): the record needs distinct names
            raise Conflict(_("the players' names at table {code} must differ for a record ({names}); seat the empty "
                             "seats or rename a player").format(code=format_code(self.code), names=", ".join(labels))
                           ) from None
        return record.model_dump(mode="json", exclude_none=True)

    def sheet(self) -> GameSheet:
        """The closed rounds folded into the sheets (`rules.sheet`), once until an entry changes."""
        if self._sheet is None:
            self._sheet = fold_rounds(self.edition, self.closed_rounds(), self.n_seats)
        return self._sheet

    def sheet_data(self) -> dict:
        """The fold as the seats and the board read it (`rules.sheet.SheetData`, explanations in every
        language), cached with the sheet."""
        if self._sheet_data is None:
            self._sheet_data = self.sheet().to_data().model_dump(mode="json")
        return self._sheet_data

    def scores(self) -> dict:
        """The closed rounds' scores as `tourpad score --json` reports them (cached with the sheet)."""
        if self._scores is None:
            labels = [self.label(s) for s in range(self.n_seats)]
            self._scores = report_of(self.sheet(), labels).to_dict()
            self._bonuses = self._shared_bonuses(self.sheet().bonus_marks())
        return self._scores

    def bonuses(self) -> dict:
        """The shared first-come bonuses after the closed rounds: each region and route tier, who took it in
        which round, and what is still open (settled by `rules.bonuses`; cached with `scores`)."""
        self.scores()
        return self._bonuses

    def forget_scores(self) -> None:
        """An entry of a closed round changed (or the seats did): fold the sheets again when next asked."""
        self._sheet = self._scores = self._sheet_data = None

    def _shared_bonuses(self, marks: BonusMarks) -> dict:
        regions = [{"name": m.name, "points": m.points, "color": m.color, "open": m.open, "round": m.round,
                    "seats": [p + 1 for p in m.players]} for m in marks.regions]
        route = None
        if marks.route is not None:
            route = {"name": marks.route.name, "tiers": [t.points for t in marks.route.tiers],
                     "open_tiers": list(marks.route.open_points), "repeats": marks.route.last_repeats,
                     "taken": [{"points": t.points, "round": t.round, "seats": [p + 1 for p in t.players]}
                               for t in marks.route.takings]}
        return {"regions": regions, "route": route}

    def _choice_index(self, name: str | None) -> int:
        return -1 if name is None else self.edition.choice.icon_index(name)

    def view(self) -> dict:
        """Everything every device may see: all sheets, who is still entering, the scores so far."""
        open_round = self.open_round
        rounds = []
        for r in range(ROUNDS):
            entries = []
            for s in range(self.n_seats):
                e = self.stored.entries.get((r, s))
                entries.append(None if e is None else
                               {"cards": e.cards, "choice": e.choice, "revision": e.revision,
                                "by_host": e.by_host})
            rounds.append({"round": r + 1, "closed": r < open_round, "entries": entries})
        family = self.edition.choice
        return {
            "code": format_code(self.code),
            "edition": {"id": self.edition.id, "name": self.edition.name, "letters": self.edition.letters,
                        "version": self.deck.version if self.deck else None,
                        "choice_field": choice_key(self.edition), "choice_family": family.name,
                        "choice_options": [icon.name for icon in family.icons]},
            "direction_variant": self.stored.direction_variant,
            "seats": [{"seat": s + 1, "name": self.label(s), "claimed": s in self.stored.claimed,
                       "mark": seat_mark(self.stored.claimed[s].token_hash) if s in self.stored.claimed else None}
                      for s in range(self.n_seats)],
            "round": open_round + 1 if open_round < ROUNDS else None,
            "finished": open_round == ROUNDS,
            "waiting_for": [s + 1 for s in self.waiting_for()],
            "rounds": rounds,
            "scores": self.scores(),
            "bonuses": self.bonuses(),
            "sheet": self.sheet_data(),
            "version": self.stored.version,
            "game": self.stored.game,
            "past_games": sorted(self.stored.past_games),
            "locked": self.stored.locked,
            "ended": self.stored.ended is not None,
        }


class Tables:
    """Every table in memory, the store that keeps them, and the one lock that orders all their changes."""

    def __init__(self, store: TableStore, clock: Callable[[], float]) -> None:
        self.store = store
        self.clock = clock
        self.lock = threading.RLock()
        self.by_code: dict[str, Table] = {}
        #: Set once the store could not save a change: memory is ahead of the file until a restart.
        self.broken: Exception | None = None
        #: Told of every change of a table, under the lock (the host's History: `scorer.table.history`).
        self.after_change: Callable[[Table], None] | None = None

    def get(self, code: str) -> Table:
        """The table with join code `code` (as typed); 404 when there is none, 503 once a save failed."""
        if self.broken is not None:
            raise Unavailable(_("the host could not save a change ({error}); restart tourpad host").format(
                error=self.broken))
        table = self.by_code.get(normalize_code(code))
        if table is None:
            raise NotFound(_("no table with join code {code} on this host (it may have expired)").format(
                code=repr(code)))
        return table

    def unused_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.by_code:
                return code

    def saved(self, pending: PendingWrite) -> None:
        """Return once `pending` is on disk; if the store could not save it, 503 from now on."""
        try:
            pending.wait()
            if trace.TRACER is not None:
                trace.TRACER.mark_request("woken")
        except Exception as err:
            # memory is now ahead of the file: refuse everything until a restart reloads the file
            self.broken = err
            raise Unavailable(_("the host could not save this change ({error}); restart tourpad host").format(
                error=err)) from None
