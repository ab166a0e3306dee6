"""A table's life: opening it (for the host's credential only, at most so many a minute), finding the live
ones, closing it to new players, removing a seat, ending a game, playing again, its records, and expiry."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

from rules.edition import Edition
from rules.engine import ROUNDS
from rules.record import deck_ref
from rules.validation import RuleError, check_direction_variant
from scorer.locale import _
from scorer.table.errors import Conflict, Invalid, NotFound, TooMany
from scorer.table.feed import Feed
from scorer.table.seats import Seats, seat_index
from scorer.table.store import StoredTable, token_hash
from scorer.table.table import MAX_SEATS, MIN_SEATS, Table, Tables, ended_message, format_code, new_token


class Games:
    """Every table's life, from opening to expiry (the seats and the entries are `Seats`' and
    `Submissions`')."""

    def __init__(self, tables: Tables, feed: Feed, seats: Seats, open_deck: Callable[[str], Edition], *,
                 idle_seconds: float, max_tables: int, tables_per_minute: int) -> None:
        self.tables = tables
        self.feed = feed
        self.seats = seats
        self.open_deck = open_deck
        self.idle_seconds = idle_seconds
        self.max_tables = max_tables
        self.tables_per_minute = tables_per_minute
        self.recent_creations: deque[float] = deque()

    def create_table(self, edition_id: str, seats: int, direction_variant: bool = False, *,
                     credential: str | None) -> tuple[str, str]:
        """A new table, for the holder of the host credential only; returns (join code, host token). The
        host token is shown once, never stored."""
        self.seats.check_host(credential, _("open a table"))
        if not MIN_SEATS <= seats <= MAX_SEATS:
            raise Invalid(_("a table has {min} to {max} seats, not {seats}").format(min=MIN_SEATS, max=MAX_SEATS,
                                                                                   seats=seats))
        try:
            check_direction_variant(seats, direction_variant)
        except RuleError as err:
            raise Invalid(str(err)) from None
        try:
            edition = self.open_deck(edition_id)
        except KeyError as err:
            raise Invalid(err.args[0]) from None
        with self.tables.lock:
            self.expire_idle()
            live = len(self.tables.by_code)
            if live >= self.max_tables:
                raise TooMany(_("this host already runs {n} tables; let idle ones expire").format(n=live))
            self._count_creation()
            code = self.tables.unused_code()
            host_token = new_token()
            now = self.tables.clock()
            deck = deck_ref(edition)
            stored = StoredTable(code, edition.id, seats, direction_variant, now, now, 0,
                                 {token_hash(host_token)}, created_by=self.seats.host_hash,
                                 deck_version=deck.version if deck else None)
            self.tables.store.create_table(stored)
            self.tables.by_code[code] = Table(stored, edition, now)
        return format_code(code), host_token

    def _count_creation(self) -> None:
        """Refuse a table over `tables_per_minute` (under the lock); otherwise count this one."""
        now = time.monotonic()
        recent = self.recent_creations
        while recent and recent[0] < now - 60:
            recent.popleft()
        if len(recent) >= self.tables_per_minute:
            raise TooMany(_("this host opened {n} tables in the last minute; wait a minute").format(n=len(recent)))
        recent.append(now)

    def codes(self) -> list[str]:
        """Live tables, most recently active first."""
        with self.tables.lock:
            tables = sorted(self.tables.by_code.values(), key=lambda t: -t.stored.last_active)
            return [format_code(t.code) for t in tables]

    def host_codes(self) -> list[str]:
        """The live tables opened with this host's credential, most recently active first: the only ones
        the host's screen resumes (a table whose credential was replaced, or made before tables recorded
        it, is reachable by its code but never the host's own)."""
        with self.tables.lock:
            own = [t for t in self.tables.by_code.values() if t.stored.created_by == self.seats.host_hash]
            return [format_code(t.code) for t in sorted(own, key=lambda t: -t.stored.last_active)]

    def view(self, code: str) -> dict:
        with self.tables.lock:
            table = self.tables.get(code)
            table.last_seen = self.tables.clock()
            return table.view()

    def version(self, code: str) -> int:
        """The version of the table's latest change: what a seat that follows the table compares with the one its
        screens drew, now and then, in case an event never reached it (no view built or sent)."""
        with self.tables.lock:
            table = self.tables.get(code)
            table.last_seen = self.tables.clock()
            return table.stored.version

    def expire_idle(self) -> list[str]:
        """Drop the tables idle for longer than `idle_seconds`; returns their codes."""
        with self.tables.lock:
            now = self.tables.clock()
            gone = [t for t in self.tables.by_code.values()
                    if max(t.stored.last_active, t.last_seen) + self.idle_seconds < now]
            for table in gone:
                self.tables.store.delete_table(table.code)
                del self.tables.by_code[table.code]
                self.feed.expired(table)
            return [format_code(t.code) for t in gone]

    def set_joining(self, code: str, open_to_new_players: bool, token: str | None) -> dict:
        """Close the table to new players (a seat claimed by code is refused) or open it again."""
        with self.tables.lock:
            table = self.seats.as_host(code, token, _("close or open the table to new players"))
            locked = not open_to_new_players
            if table.stored.locked == locked:
                raise Conflict((_("table {code} is already closed to new players") if locked else
                                _("table {code} is already open to new players")).format(code=format_code(table.code)))
            version = table.stored.version + 1
            now = self.tables.clock()
            table.stored.locked = locked
            publish = self.feed.advance(table, version, now, {"kind": "locked" if locked else "unlocked"})
            pending = self.tables.store.set_locked(table.code, locked, version, now, publish)
        self.tables.saved(pending)
        return {"code": format_code(table.code), "locked": locked, "version": version}

    def remove_seat(self, code: str, seat_no: int, token: str | None) -> dict:
        """Remove a seat that never played, before round 1 closes: the table shrinks by one seat (never below
        MIN_SEATS), the later seats move down one, and the removed seat's token stops working."""
        with self.tables.lock:
            table = self.seats.as_host(code, token, _("remove a seat"))
            seat = seat_index(table, seat_no)
            who = table.label(seat)
            if table.stored.ended is not None:
                raise Conflict(ended_message(table))
            if table.n_seats <= MIN_SEATS:
                raise Conflict(_("table {code} has {n} seats, the fewest a game has; {name}'s seat cannot be "
                                 "removed").format(code=format_code(table.code), n=table.n_seats, name=who))
            if table.open_round > 0:
                raise Conflict(_("round 1 is closed: the seats are fixed for this game; {name}'s seat cannot be "
                                 "removed").format(name=who))
            if any(s == seat for (_round, s) in table.stored.entries):
                raise Conflict(_("seat {seat} ({name}) has an entry in round 1; only a seat that never played can "
                                 "be removed").format(seat=seat_no, name=who))
            try:
                check_direction_variant(table.n_seats - 1, table.stored.direction_variant)
            except RuleError as err:
                raise Conflict(_("seat {seat} ({name}) cannot be removed: {problem}").format(
                    seat=seat_no, name=who, problem=err)) from None
            stored = table.stored
            stored.claimed = {s - (s > seat): c for s, c in stored.claimed.items() if s != seat}
            stored.entries = {(r, s - (s > seat)): e for (r, s), e in stored.entries.items()}
            stored.seats -= 1
            table.forget_scores()
            version = stored.version + 1
            now = self.tables.clock()
            publish = self.feed.advance(table, version, now, {"kind": "seat_removed", "seat": seat_no})
            pending = self.tables.store.remove_seat(stored, seat, now, publish)
        self.tables.saved(pending)
        return {"code": format_code(table.code), "removed": seat_no, "seats": table.n_seats,
                "version": version}

    def end_game(self, code: str, token: str | None) -> dict:
        """End the current game: no more entries or seat claims; the sheets and standings stay readable."""
        with self.tables.lock:
            table = self.seats.as_host(code, token, _("end the table"))
            if table.stored.ended is not None:
                raise Conflict(_("table {code} (game {game}) is already ended").format(code=format_code(table.code),
                                                                                      game=table.stored.game))
            version = table.stored.version + 1
            now = self.tables.clock()
            table.stored.ended = now
            publish = self.feed.advance(table, version, now, {"kind": "ended", "game": table.stored.game})
            pending = self.tables.store.end_game(table.code, now, version, publish)
        self.tables.saved(pending)
        return {"code": format_code(table.code), "game": table.stored.game, "version": version}

    def play_again(self, code: str, token: str | None) -> dict:
        """A new game at the same table with the same seats: the same code and seat tokens (the phones stay
        seated), the next game number; the finished game's record is kept for export."""
        with self.tables.lock:
            table = self.seats.as_host(code, token, _("start another game"))
            stored = table.stored
            if stored.ended is None and table.open_round < ROUNDS:
                raise Conflict(_("game {game} at table {code} is still being played (round {round}); end it first, "
                                 "then play again").format(game=stored.game, code=format_code(table.code),
                                                           round=table.open_round + 1))
            finished, record = stored.game, table.record()
            version = stored.version + 1
            now = self.tables.clock()
            stored.past_games[finished] = record
            stored.entries = {}
            stored.game = finished + 1
            stored.ended = None
            table.forget_scores()
            publish = self.feed.advance(table, version, now, {"kind": "new_game", "game": stored.game})
            pending = self.tables.store.new_game(table.code, finished, record, stored.game, version, now, publish)
        self.tables.saved(pending)
        return {"code": format_code(table.code), "game": stored.game, "version": version}

    def record(self, code: str, game: int | None = None) -> dict:
        """The JSON record (`tourpad score` reads it) of the current game's closed rounds, or of an earlier
        game at this table. Readable by anyone with the join code, as the table itself is."""
        with self.tables.lock:
            table = self.tables.get(code)
            if game is None or game == table.stored.game:
                return table.record()
            if game not in table.stored.past_games:
                games = ", ".join(str(g) for g in [*sorted(table.stored.past_games), table.stored.game])
                raise NotFound(_("table {code} has games {games}, not {game}").format(
                    code=format_code(table.code), games=games, game=game))
            return table.stored.past_games[game]
