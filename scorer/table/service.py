"""Table mode: one shared table on the host, every player entering their own sheet from their phone.

One engine, one state: the service holds every table, validates each submission with the rules engine
(`rules.validation.validate_round`, the same check as every other way a round comes in),
commits it to SQLite before acknowledging it, and tells every listener (the API's event streams, the
app's screens) what changed. A round closes when all seats have submitted; the shared first-come bonuses
are then settled by the one fold of the closed rounds (`rules.sheet`), whose result the view carries to every
device (`sheet`): the seats and the board read it, they do not score again.

Rounds and seats are numbered from 1 in this class's public methods, as players and the API say them.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from rules.bonuses import BonusMarks
from rules.edition import Edition
from rules.engine import ROUNDS
from rules.record import ParsedRound, choice_key, record_from_rounds, report_of
from rules.scoring import NO_CHOICE
from rules.sheet import GameSheet, fold_rounds
from rules.text import TextError, clean_name
from rules.validation import CardClash, Entered, RuleError, check_direction_variant, parse_row, validate_round
from scorer.locale import _
from scorer.table import trace
from scorer.table.store import PendingWrite, StoredEntry, StoredSeat, StoredTable, TableStore, token_hash

log = logging.getLogger(__name__)

#: Unambiguous characters (no 0/O, 1/I): 32 symbols, 8 of them = 40 bits; wrong guesses are rate-limited.
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8
DEFAULT_IDLE_SECONDS = 12 * 3600
MAX_TABLES = 256
#: Even the host's credential opens at most this many tables a minute (a leaked link, a runaway script).
TABLES_PER_MINUTE = 30
MIN_SEATS, MAX_SEATS = 2, 4


class TableError(Exception):
    """A refused request; `status` is the HTTP status the API answers with. Nothing was changed."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotFound(TableError):
    status = 404


class Unauthorized(TableError):
    status = 401


class Forbidden(TableError):
    status = 403


class Conflict(TableError):
    status = 409


class Invalid(TableError):
    status = 422


class TooMany(TableError):
    status = 429


class Unavailable(TableError):
    """The host could not save a change: it stops taking any until restarted from what is on disk."""

    status = 503


def normalize_code(text: str) -> str:
    """What a person typed ("abcd-efgh", "ABCD EFGH") → the stored code."""
    return "".join(ch for ch in text.upper() if ch not in " -_")


def format_code(code: str) -> str:
    return f"{code[:4]}-{code[4:]}"


def new_token() -> str:
    """128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


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
                        "choice_field": choice_key(self.edition), "choice_family": family.name,
                        "choice_options": [icon.name for icon in family.icons]},
            "direction_variant": self.stored.direction_variant,
            "seats": [{"seat": s + 1, "name": self.label(s), "claimed": s in self.stored.claimed}
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


Listener = Callable[[dict], None]


class TableService:
    """Every table on this host. Thread-safe: one lock orders all changes and their events."""

    def __init__(self, db_path: Path, idle_seconds: float = DEFAULT_IDLE_SECONDS,
                 clock: Callable[[], float] = time.time, max_tables: int = MAX_TABLES,
                 host_credential: str | None = None, tables_per_minute: int = TABLES_PER_MINUTE) -> None:
        """`host_credential` is what creating a table needs (`tourpad host` keeps it in the data folder,
        `scorer.table.credential`); without one the service makes its own for this process."""
        from scorer.packs import resolve_edition

        self._resolve_edition = resolve_edition
        self.idle_seconds = idle_seconds
        self.max_tables = max_tables
        #: Held by this process only: whoever runs the service is the host (its own screens use it).
        self.host_credential = host_credential or new_token()
        self._host_hash = token_hash(self.host_credential)
        self.tables_per_minute = tables_per_minute
        self._recent_creations: deque[float] = deque()
        self._clock = clock
        self._lock = threading.RLock()
        self.store = TableStore(db_path)
        self._tables: dict[str, Table] = {}
        self._listeners: dict[str, list[Listener]] = {}
        #: Guards only `_listeners`: the store's writer thread publishes under it, never under `_lock`.
        self._listeners_lock = threading.Lock()
        self._broken: Exception | None = None
        now = clock()
        for stored in self.store.load_all():
            try:
                edition = resolve_edition(stored.edition)
            except KeyError:  # its deck pack was removed: the table cannot be scored any more
                continue
            self._tables[stored.code] = Table(stored, edition, now)

    def close(self) -> None:
        self.store.close()

    # --- tables ---------------------------------------------------------------------------------------------

    def is_host(self, credential: str | None) -> bool:
        """Whether `credential` is this host's credential (compared in constant time)."""
        return (isinstance(credential, str) and bool(credential)
                and secrets.compare_digest(token_hash(credential), self._host_hash))

    def check_host(self, credential: str | None, doing: str) -> None:
        """401 without a credential, 403 with a wrong one: `doing` is the host's alone."""
        if not credential:
            raise Unauthorized(_("only the host can {doing}: this needs the host credential (the host link "
                                 "`tourpad host` printed; header 'Authorization: Bearer …'); players join with the "
                                 "join code").format(doing=doing))
        if not self.is_host(credential):
            raise Forbidden(_("only the host can {doing}, and that is not this host's credential").format(doing=doing))

    def create_table(self, edition_id: str, seats: int, direction_variant: bool = False, *,
                     credential: str | None) -> tuple[str, str]:
        """A new table, for the holder of the host credential only; returns (join code, host token). The
        host token is shown once, never stored."""
        self.check_host(credential, _("open a table"))
        if not MIN_SEATS <= seats <= MAX_SEATS:
            raise Invalid(_("a table has {min} to {max} seats, not {seats}").format(min=MIN_SEATS, max=MAX_SEATS,
                                                                                   seats=seats))
        try:
            check_direction_variant(seats, direction_variant)
        except RuleError as err:
            raise Invalid(str(err)) from None
        try:
            edition = self._resolve_edition(edition_id)
        except KeyError as err:
            raise Invalid(err.args[0]) from None
        with self._lock:
            self.expire_idle()
            if len(self._tables) >= self.max_tables:
                raise TooMany(_("this host already runs {n} tables; let idle ones expire").format(n=len(self._tables)))
            self._count_creation()
            code = self._unused_code()
            host_token = new_token()
            now = self._clock()
            stored = StoredTable(code, edition.id, seats, direction_variant, now, now, 0,
                                 {token_hash(host_token)}, created_by=self._host_hash)
            self.store.create_table(stored)
            self._tables[code] = Table(stored, edition, now)
        return format_code(code), host_token

    def _count_creation(self) -> None:
        """Refuse a table over `tables_per_minute` (under the lock); otherwise count this one."""
        now = time.monotonic()
        recent = self._recent_creations
        while recent and recent[0] < now - 60:
            recent.popleft()
        if len(recent) >= self.tables_per_minute:
            raise TooMany(_("this host opened {n} tables in the last minute; wait a minute").format(n=len(recent)))
        recent.append(now)

    def _unused_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self._tables:
                return code

    def issue_host_token(self, code: str, credential: str | None) -> str:
        """Another host token for one of the host's own tables (`tourpad host --new-host-token`, a second
        host device with the host link)."""
        self.check_host(credential, "get a host token")
        with self._lock:
            table = self._table(code)
            if table.stored.created_by != self._host_hash:
                raise Forbidden(_("table {code} was not opened with this host's credential").format(
                    code=format_code(table.code)))
            token = new_token()
            self.store.add_host_token(table.code, token_hash(token))
            table.stored.host_token_hashes.add(token_hash(token))
        return token

    def codes(self) -> list[str]:
        """Live tables, most recently active first."""
        with self._lock:
            tables = sorted(self._tables.values(), key=lambda t: -t.stored.last_active)
            return [format_code(t.code) for t in tables]

    def host_codes(self) -> list[str]:
        """The live tables opened with this host's credential, most recently active first: the only ones
        the host's screen resumes (a table whose credential was replaced, or made before tables recorded
        it, is reachable by its code but never the host's own)."""
        with self._lock:
            own = [t for t in self._tables.values() if t.stored.created_by == self._host_hash]
            return [format_code(t.code) for t in sorted(own, key=lambda t: -t.stored.last_active)]

    def _table(self, code: str) -> Table:
        if self._broken is not None:
            raise Unavailable(_("the host could not save a change ({error}); restart tourpad host").format(
                error=self._broken))
        table = self._tables.get(normalize_code(code))
        if table is None:
            raise NotFound(_("no table with join code {code} on this host (it may have expired)").format(
                code=repr(code)))
        return table

    def view(self, code: str) -> dict:
        with self._lock:
            table = self._table(code)
            table.last_seen = self._clock()
            return table.view()

    def expire_idle(self) -> list[str]:
        """Drop the tables idle for longer than `idle_seconds`; returns their codes."""
        with self._lock:
            now = self._clock()
            gone = [t for t in self._tables.values()
                    if max(t.stored.last_active, t.last_seen) + self.idle_seconds < now]
            for table in gone:
                self.store.delete_table(table.code)
                del self._tables[table.code]
                with self._listeners_lock:
                    listeners = self._listeners.pop(table.code, [])
                for listener in listeners:
                    listener({"kind": "expired", "version": table.stored.version + 1, "table": None})
            return [format_code(t.code) for t in gone]

    # --- who is asking --------------------------------------------------------------------------------------

    def role(self, code: str, token: str | None) -> int | None:
        """None for the host, else the seat index (0-based) the token belongs to; 401 for anything else."""
        with self._lock:
            return self._role(self._table(code), token)

    def _role(self, table: Table, token: str | None) -> int | None:
        if not token:
            raise Unauthorized(_("this needs your seat token or the host token (header 'Authorization: Bearer …')"))
        hashed = token_hash(token)
        # Compare every candidate (no early exit): the time taken does not tell which part matched.
        host = any(secrets.compare_digest(hashed, h) for h in table.stored.host_token_hashes)
        seats = [s for s, c in table.stored.claimed.items() if secrets.compare_digest(hashed, c.token_hash)]
        if host:
            return None
        if seats:
            return seats[0]
        raise Unauthorized(_("that token is not a seat or host token of table {code}").format(
            code=format_code(table.code)))

    # --- seats ----------------------------------------------------------------------------------------------

    def claim_seat(self, code: str, seat_no: int, name: str, token: str | None = None) -> str:
        """Take a free seat (no token), rename your own (your seat token), or give a seat (host token; a
        claimed seat gets a new token, so a player whose phone lost it can be seated again). Returns the
        seat token."""
        try:
            name = clean_name(name, _("a player name"))
        except TextError as err:
            raise Invalid(_("seat {seat}: {problem}").format(seat=seat_no, problem=err)) from None
        with self._lock:
            table = self._table(code)
            seat = self._seat_index(table, seat_no)
            role = self._role(table, token) if token else "anyone"
            current = table.stored.claimed.get(seat)
            if role == "anyone" and table.stored.locked:
                raise Forbidden(_("the host has closed this table to new players (table {code}); ask the host to "
                                  "open it").format(code=format_code(table.code)))
            if role is not None and table.stored.ended is not None:  # the host may still rename seats
                raise Conflict(self._ended_message(table))
            if role == "anyone" and current is not None:
                raise Conflict(_("seat {seat} is taken by {name}; take a free seat or ask the host").format(
                    seat=seat_no, name=current.name))
            if role not in ("anyone", None, seat):
                raise Forbidden(_("your token is for seat {own} ({name}); it cannot claim seat {seat}").format(
                    own=role + 1, name=table.label(role), seat=seat_no))
            for other, claimed in table.stored.claimed.items():
                if other != seat and claimed.name.casefold() == name.casefold():
                    raise Conflict(_("{name} already sits at seat {seat}; pick another name").format(
                        name=claimed.name, seat=other + 1))
            seat_token = token if role == seat else new_token()
            stored = StoredSeat(name, token_hash(seat_token))
            version = table.stored.version + 1
            now = self._clock()
            table.stored.claimed[seat] = stored
            table.forget_scores()  # the score sheet carries the names
            publish = self._advance(table, version, now, {"kind": "seat", "seat": seat_no})
            pending = self.store.claim_seat(table.code, seat, stored, version, now, publish)
        self.saved(pending)
        return seat_token

    @staticmethod
    def _seat_index(table: Table, seat_no: int) -> int:
        if not 1 <= seat_no <= table.n_seats:
            raise NotFound(_("table {code} has seats 1 to {n}, not {seat}").format(
                code=format_code(table.code), n=table.n_seats, seat=seat_no))
        return seat_no - 1

    # --- the host runs the table --------------------------------------------------------------------------

    def _as_host(self, code: str, token: str | None, doing: str) -> Table:
        """The table, if `token` is its host token or the credential it was opened with (under the lock)."""
        table = self._table(code)
        if token and table.stored.created_by is not None and self.is_host(token) \
                and table.stored.created_by == self._host_hash:
            return table
        if self._role(table, token) is not None:
            raise Forbidden(_("only the host can {doing}; a seat token cannot").format(doing=doing))
        return table

    @staticmethod
    def _ended_message(table: Table) -> str:
        return _("the host ended table {code} (game {game}): no more entries; the game and its standings stay "
                 "readable").format(code=format_code(table.code), game=table.stored.game)

    def set_joining(self, code: str, open_to_new_players: bool, token: str | None) -> dict:
        """Close the table to new players (a seat claimed by code is refused) or open it again."""
        with self._lock:
            table = self._as_host(code, token, _("close or open the table to new players"))
            locked = not open_to_new_players
            if table.stored.locked == locked:
                raise Conflict((_("table {code} is already closed to new players") if locked else
                                _("table {code} is already open to new players")).format(code=format_code(table.code)))
            version = table.stored.version + 1
            now = self._clock()
            table.stored.locked = locked
            publish = self._advance(table, version, now, {"kind": "locked" if locked else "unlocked"})
            pending = self.store.set_locked(table.code, locked, version, now, publish)
        self.saved(pending)
        return {"code": format_code(table.code), "locked": locked, "version": version}

    def remove_seat(self, code: str, seat_no: int, token: str | None) -> dict:
        """Remove a seat that never played, before round 1 closes: the table shrinks by one seat (never below
        MIN_SEATS), the later seats move down one, and the removed seat's token stops working."""
        with self._lock:
            table = self._as_host(code, token, _("remove a seat"))
            seat = self._seat_index(table, seat_no)
            who = table.label(seat)
            if table.stored.ended is not None:
                raise Conflict(self._ended_message(table))
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
            now = self._clock()
            publish = self._advance(table, version, now, {"kind": "seat_removed", "seat": seat_no})
            pending = self.store.remove_seat(stored, seat, now, publish)
        self.saved(pending)
        return {"code": format_code(table.code), "removed": seat_no, "seats": table.n_seats,
                "version": version}

    def end_game(self, code: str, token: str | None) -> dict:
        """End the current game: no more entries or seat claims; the sheets and standings stay readable."""
        with self._lock:
            table = self._as_host(code, token, _("end the table"))
            if table.stored.ended is not None:
                raise Conflict(_("table {code} (game {game}) is already ended").format(code=format_code(table.code),
                                                                                      game=table.stored.game))
            version = table.stored.version + 1
            now = self._clock()
            table.stored.ended = now
            publish = self._advance(table, version, now, {"kind": "ended", "game": table.stored.game})
            pending = self.store.end_game(table.code, now, version, publish)
        self.saved(pending)
        return {"code": format_code(table.code), "game": table.stored.game, "version": version}

    def play_again(self, code: str, token: str | None) -> dict:
        """A new game at the same table with the same seats: the same code and seat tokens (the phones stay
        seated), the next game number; the finished game's record is kept for export."""
        with self._lock:
            table = self._as_host(code, token, _("start another game"))
            stored = table.stored
            if stored.ended is None and table.open_round < ROUNDS:
                raise Conflict(_("game {game} at table {code} is still being played (round {round}); end it first, "
                                 "then play again").format(game=stored.game, code=format_code(table.code),
                                                           round=table.open_round + 1))
            finished, record = stored.game, table.record()
            version = stored.version + 1
            now = self._clock()
            stored.past_games[finished] = record
            stored.entries = {}
            stored.game = finished + 1
            stored.ended = None
            table.forget_scores()
            publish = self._advance(table, version, now, {"kind": "new_game", "game": stored.game})
            pending = self.store.new_game(table.code, finished, record, stored.game, version, now, publish)
        self.saved(pending)
        return {"code": format_code(table.code), "game": stored.game, "version": version}

    def record(self, code: str, game: int | None = None) -> dict:
        """The JSON record (`tourpad score` reads it) of the current game's closed rounds, or of an earlier
        game at this table. Readable by anyone with the join code, as the table itself is."""
        with self._lock:
            table = self._table(code)
            if game is None or game == table.stored.game:
                return table.record()
            if game not in table.stored.past_games:
                games = ", ".join(str(g) for g in [*sorted(table.stored.past_games), table.stored.game])
                raise NotFound(_("table {code} has games {games}, not {game}").format(
                    code=format_code(table.code), games=games, game=game))
            return table.stored.past_games[game]

    # --- rounds ---------------------------------------------------------------------------------------------

    def submit(self, code: str, round_no: int, seat_no: int, cards: str, choice: str | None,
               replaces_revision: int, token: str | None, *, game: int | None = None) -> dict:
        """Enter or edit one seat's round. `replaces_revision` is the revision being replaced (0 for the
        first entry), so a replayed or overtaken submission is refused instead of undoing a newer one.
        `game` is the game the entry belongs to: revisions start again with each game and "play again"
        keeps the seat tokens, so only the game number tells a request of game 1 from one of game 2 (the
        API requires it; None, for callers in this process that read the table just now: the current)."""
        ack, pending = self.begin_submit(code, round_no, seat_no, cards, choice, replaces_revision, token,
                                         game=game)
        # Outside the lock: other submissions validate (against this one) and queue meanwhile, and their
        # commits share this one's fsync.
        self.saved(pending)
        return ack

    def begin_submit(self, code: str, round_no: int, seat_no: int, cards: str, choice: str | None,
                     replaces_revision: int, token: str | None, *, game: int | None = None
                     ) -> tuple[dict, PendingWrite]:
        """`submit` up to the commit: checked, applied in memory and queued for the store. Returns the
        acknowledgement and the queued write; the caller may give the acknowledgement only once
        `saved(pending)` returned (the API awaits the commit on its event loop instead of a thread)."""
        tracer = trace.TRACER
        with self._lock:
            if tracer is not None:
                tracer.mark_request("locked")
            table = self._table(code)
            seat = self._seat_index(table, seat_no)
            role = self._role(table, token)
            if not 1 <= round_no <= ROUNDS:
                raise NotFound(_("a game has rounds 1 to {rounds}, not {round}").format(rounds=ROUNDS, round=round_no))
            if table.stored.ended is not None:
                raise Conflict(self._ended_message(table))
            r = round_no - 1
            who = table.label(seat)
            if role is not None and role != seat:
                raise Forbidden(_("your token is for seat {own} ({own_name}); only the host can edit seat {seat} "
                                  "({name})").format(own=role + 1, own_name=table.label(role), seat=seat_no, name=who))
            if game is not None and game != table.stored.game:
                raise Conflict(_("this submission is for game {sent}, but table {code} is playing game {game} now "
                                 "(a request from another game); reload the table").format(
                                     sent=game, code=format_code(table.code), game=table.stored.game))
            open_round = table.open_round
            if r > open_round:
                waiting = ", ".join(table.label(s) for s in table.waiting_for())
                raise Conflict(_("round {round} is not open yet: round {open} is still being entered (waiting for "
                                 "{names})").format(round=round_no, open=open_round + 1, names=waiting))
            if r < open_round and role is not None:
                raise Forbidden(_("round {round} is closed (every seat submitted); only the host can correct "
                                  "{name}'s entry now").format(round=round_no, name=who))
            current = table.stored.entries.get((r, seat))
            current_revision = current.revision if current else 0
            if replaces_revision != current_revision:
                raise Conflict(_("round {round}, {name}: this submission replaces revision {replaces} but the entry "
                                 "is at revision {current} (a replayed or overtaken submission); reload the table "
                                 "and edit the current entry").format(round=round_no, name=who,
                                                                      replaces=replaces_revision,
                                                                      current=current_revision))
            letters, choice_name = self._validate(table, r, seat, cards, choice)
            if tracer is not None:
                tracer.mark_request("validated")
            was_open = r == open_round
            entry = StoredEntry(letters, choice_name, current_revision + 1, role is None)
            version = table.stored.version + 1
            now = self._clock()
            table.stored.entries[r, seat] = entry
            closed = was_open and table.open_round > r
            if closed or not was_open:  # the scores cover closed rounds only
                table.forget_scores()
            publish = self._advance(table, version, now, {"kind": "entry", "round": round_no, "seat": seat_no,
                                                          "revision": entry.revision, "round_closed": closed})
            if tracer is not None:
                tracer.mark_request("viewed")
                tracer.bind(table.code, version)
            pending = self.store.put_entry(table.code, r, seat, entry, version, now, publish)
            if tracer is not None:
                tracer.mark_request("queued")
        return {"game": table.stored.game, "round": round_no, "seat": seat_no, "cards": letters,
                "choice": choice_name, "revision": entry.revision, "round_closed": closed,
                "version": version}, pending

    def _validate(self, table: Table, r: int, seat: int, cards: str,
                  choice: str | None) -> tuple[str, str | None]:
        """The rules' own round check, against everything else on the table; returns canonical letters/choice.

        Each choice scores once per game: every seat's choices in the *other* rounds count, earlier ones and
        (host corrections) later ones. A card in two rows is a conflict (409), any other problem invalid.
        """
        edition = table.edition
        entries = {s: Entered(table.stored.entries[r, s].cards, table.stored.entries[r, s].choice)
                   for s in table.submitted(r) if s != seat}
        entries[seat] = Entered(cards, choice)
        used: list[dict[int, int]] = [{} for _ in range(table.n_seats)]
        for (other_round, s), entry in table.stored.entries.items():
            if other_round != r and entry.choice is not None:
                used[s][table._choice_index(entry.choice)] = other_round + 1
        labels = [table.label(s) for s in range(table.n_seats)]
        try:
            checked = validate_round(edition, r + 1, labels, entries, used, focus=seat)[seat]
        except CardClash as err:
            raise Conflict(str(err)) from None
        except RuleError as err:
            raise Invalid(str(err)) from None
        letters = "".join(edition.cards[c].letter for c in checked.row)
        return letters, (edition.choice.icons[checked.choice].name if checked.choice != NO_CHOICE else None)

    # --- live updates ---------------------------------------------------------------------------------------

    def subscribe(self, code: str, listener: Listener) -> tuple[dict, Callable[[], None]]:
        """Call `listener(event)` after every committed change of the table, in order. Returns the current
        view (taken atomically with the subscription: every later change arrives as an event; an event
        whose version is not above the snapshot's is already in it). Listeners run on the store's writer
        thread: they must hand the event off, not work on it."""
        with self._lock:
            table = self._table(code)
            snapshot = table.view()
            with self._listeners_lock:
                self._listeners.setdefault(table.code, []).append(listener)

        def unsubscribe() -> None:
            with self._listeners_lock:
                listeners = self._listeners.get(table.code, [])
                if listener in listeners:
                    listeners.remove(listener)

        return snapshot, unsubscribe

    def _advance(self, table: Table, version: int, now: float, event: dict) -> Callable[[], None]:
        """Move the table to `version` (under the lock); returns what publishes the event once it is saved."""
        table.stored.version = version
        table.stored.last_active = now
        table.last_seen = now
        code = table.code
        with self._listeners_lock:
            watched = bool(self._listeners.get(code))
        event = {**event, "version": version, "table": table.view() if watched else None}

        def publish() -> None:
            with self._listeners_lock:
                listeners = self._listeners.get(code)
                for listener in list(listeners or ()):
                    try:
                        listener(event)
                    except Exception:  # a vanished viewer must not fail a submission that is saved
                        log.exception("dropping a table listener that failed")
                        listeners.remove(listener)

        return publish

    def saved(self, pending: PendingWrite) -> None:
        """Return once `pending` is on disk; if the store could not save it, 503 from now on."""
        try:
            pending.wait()
            if trace.TRACER is not None:
                trace.TRACER.mark_request("woken")
        except Exception as err:
            # memory is now ahead of the file: refuse everything until a restart reloads the file
            self._broken = err
            raise Unavailable(_("the host could not save this change ({error}); restart tourpad host").format(
                error=err)) from None
