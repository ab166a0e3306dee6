"""Table mode: one shared table on the host, every player entering their own sheet from their phone.

One engine, one state: the service holds every table, validates each submission with the rules engine
(`rules.validation.validate_round`, the same check as every other way a round comes in),
commits it to SQLite before acknowledging it, and tells every listener (the API's event streams, the
app's screens) what changed. A round closes when all seats have submitted; the shared first-come bonuses
are then settled by the one fold of the closed rounds (`rules.sheet`), whose result the view carries to every
device (`sheet`): the seats and the board read it, they do not score again.

`TableService` is a thin facade over the jobs, each in its own module, sharing the tables in memory and
the one lock that orders their changes (`scorer.table.table.Tables`):
- seats and authentication (`scorer.table.seats`): the host credential and tokens, seat tokens, claims;
- the submission pipeline (`scorer.table.submissions`): a round checked, applied, queued, saved;
- the feed (`scorer.table.feed`): who watches which table, and the events they get;
- a table's life (`scorer.table.games`): opening, joining, removing a seat, ending, playing again, expiry.

Rounds and seats are numbered from 1 in this class's public methods, as players and the API say them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from rules.edition import Edition
from rules.engine import ROUNDS
from scorer.pad.store import EventStore
from scorer.table.errors import (
    Conflict,
    Forbidden,
    Invalid,
    NotFound,
    TableError,
    TooMany,
    Unauthorized,
    Unavailable,
)
from scorer.table.feed import Feed, Listener
from scorer.table.games import Games
from scorer.table.history import HostHistory, game_key
from scorer.table.seats import Seats
from scorer.table.store import PendingWrite, TableStore
from scorer.table.submissions import Submissions
from scorer.table.table import (
    CODE_ALPHABET,
    CODE_LENGTH,
    MAX_SEATS,
    MIN_SEATS,
    Table,
    Tables,
    format_code,
    new_token,
    normalize_code,
)

__all__ = ["CODE_ALPHABET", "CODE_LENGTH", "MAX_SEATS", "MIN_SEATS", "Conflict", "Forbidden", "Invalid", "Listener",
           "NotFound", "Table", "TableError", "TableService", "TooMany", "Unauthorized", "Unavailable",
           "format_code", "new_token", "normalize_code"]

DEFAULT_IDLE_SECONDS = 12 * 3600
MAX_TABLES = 256
#: Even the host's credential opens at most this many tables a minute (a leaked link, a runaway script).
TABLES_PER_MINUTE = 30


class TableService:
    """Every table on this host. Thread-safe: one lock orders all changes and their events."""

    def __init__(self, db_path: Path, idle_seconds: float = DEFAULT_IDLE_SECONDS,
                 clock: Callable[[], float] = time.time, max_tables: int = MAX_TABLES,
                 host_credential: str | None = None, tables_per_minute: int = TABLES_PER_MINUTE,
                 store: TableStore | None = None) -> None:
        """`host_credential` is what creating a table needs (`tourpad host` keeps it in the data folder,
        `scorer.table.credential`); without one the service makes its own for this process. `store` keeps
        the tables (default: a `TableStore` at `db_path`; a host phone's browser has its own)."""
        from scorer.packs import keep_played_version, resolve_deck, resolve_edition

        def open_deck(edition_id: str) -> Edition:
            """The deck a new table plays: as installed now, that version kept for the table's life."""
            edition = resolve_edition(edition_id)
            keep_played_version(edition)
            return edition

        self.store = store if store is not None else TableStore(db_path)
        self.tables = Tables(self.store, clock)
        self.feed = Feed(self.tables)
        self.seats = Seats(self.tables, self.feed, host_credential or new_token())
        self.submissions = Submissions(self.tables, self.feed, self.seats)
        self.games = Games(self.tables, self.feed, self.seats, open_deck, idle_seconds=idle_seconds,
                           max_tables=max_tables, tables_per_minute=tables_per_minute)
        now = clock()
        for stored in self.store.load_all():
            try:  # the host's deck as the table opened with it, whatever the host edited since
                edition = resolve_deck(stored.edition, stored.deck_version)[0]
            except KeyError:  # its deck pack was removed (and no version kept): the table cannot be scored
                continue
            self.tables.by_code[stored.code] = Table(stored, edition, now)
        #: The host's History, where each finished game of its tables is kept by itself (`keep_history`).
        self.history: HostHistory | None = None

    def close(self) -> None:
        if self.history is not None:
            self.history.close()
        self.store.close()

    # --- the host's History ---------------------------------------------------------------------------------

    def keep_history(self, history: EventStore) -> None:
        """Keep each finished game of this host's tables in `history` (`scorer.table.history`), those already
        finished first: what a stop left unkept is kept now, once, as ever."""
        with self.tables.lock:
            self.history = HostHistory(history)
            self.tables.after_change = self._offer_if_finished
            for table in self.tables.by_code.values():
                for game in table.stored.past_games:
                    self._offer(table, game)
                self._offer_if_finished(table)

    def keep_finished(self, code: str) -> int | None:
        """The table's current game kept in the host's History now, as it is kept by itself (once): its id
        there; None when the game is not finished or this service keeps no History."""
        if self.history is None:
            return None
        with self.tables.lock:
            table = self.tables.get(code)
            key = game_key(table.code, table.stored.created, table.stored.game)
            record = table.record()
        return self.history.keep(key, record)

    def _offer_if_finished(self, table: Table) -> None:
        """Under the tables' lock, after a change: a game with every round closed goes to the host's History."""
        if table.open_round == ROUNDS:
            self._offer(table, table.stored.game)

    def _offer(self, table: Table, game: int) -> None:
        assert self.history is not None
        code = table.code
        self.history.offer(game_key(code, table.stored.created, game), lambda: self.games.record(code, game))

    # --- seats and authentication ---------------------------------------------------------------------------

    @property
    def host_credential(self) -> str:
        """Held by this process only: whoever runs the service is the host (its own screens use it)."""
        return self.seats.host_credential

    def is_host(self, credential: str | None) -> bool:
        return self.seats.is_host(credential)

    def check_host(self, credential: str | None, doing: str) -> None:
        self.seats.check_host(credential, doing)

    def issue_host_token(self, code: str, credential: str | None) -> str:
        return self.seats.issue_host_token(code, credential)

    def role(self, code: str, token: str | None) -> int | None:
        return self.seats.role(code, token)

    def claim_seat(self, code: str, seat_no: int, name: str, token: str | None = None) -> str:
        return self.seats.claim_seat(code, seat_no, name, token)

    # --- the submission pipeline ----------------------------------------------------------------------------

    def submit(self, code: str, round_no: int, seat_no: int, cards: str, choice: str | None,
               replaces_revision: int, token: str | None, *, game: int | None = None) -> dict:
        return self.submissions.submit(code, round_no, seat_no, cards, choice, replaces_revision, token, game=game)

    def begin_submit(self, code: str, round_no: int, seat_no: int, cards: str, choice: str | None,
                     replaces_revision: int, token: str | None, *, game: int | None = None
                     ) -> tuple[dict, PendingWrite]:
        return self.submissions.begin_submit(code, round_no, seat_no, cards, choice, replaces_revision, token,
                                             game=game)

    def saved(self, pending: PendingWrite) -> None:
        self.tables.saved(pending)

    # --- the feed -------------------------------------------------------------------------------------------

    def subscribe(self, code: str, listener: Listener) -> tuple[dict, Callable[[], None]]:
        return self.feed.subscribe(code, listener)

    # --- a table's life -------------------------------------------------------------------------------------

    @property
    def idle_seconds(self) -> float:
        return self.games.idle_seconds

    def create_table(self, edition_id: str, seats: int, direction_variant: bool = False, *,
                     credential: str | None) -> tuple[str, str]:
        return self.games.create_table(edition_id, seats, direction_variant, credential=credential)

    def codes(self) -> list[str]:
        return self.games.codes()

    def host_codes(self) -> list[str]:
        return self.games.host_codes()

    def view(self, code: str) -> dict:
        return self.games.view(code)

    def version(self, code: str) -> int:
        return self.games.version(code)

    def deck(self, code: str) -> dict | None:
        """The host's own deck table `code` plays, whole (`rules.editions.deck_document`), for a device that
        reads the table but was never given that deck (a phone joined over a data channel); None for tourpad's
        and the publisher's decks, which every device has."""
        from rules.editions import deck_document

        with self.tables.lock:
            table = self.tables.get(code)
            return deck_document(table.edition) if table.deck is not None else None

    def expire_idle(self) -> list[str]:
        return self.games.expire_idle()

    def set_joining(self, code: str, open_to_new_players: bool, token: str | None) -> dict:
        return self.games.set_joining(code, open_to_new_players, token)

    def remove_seat(self, code: str, seat_no: int, token: str | None) -> dict:
        return self.games.remove_seat(code, seat_no, token)

    def end_game(self, code: str, token: str | None) -> dict:
        return self.games.end_game(code, token)

    def play_again(self, code: str, token: str | None) -> dict:
        return self.games.play_again(code, token)

    def record(self, code: str, game: int | None = None) -> dict:
        return self.games.record(code, game)
