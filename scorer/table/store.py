"""The table's durable memory: one SQLite file in WAL mode on the host.

Every change is committed (synchronous=FULL) before the service acknowledges it, so a host killed at
any moment restarts with every acknowledged submission. Writes are group-committed: one writer thread
takes every change queued meanwhile into one transaction, so a burst of submissions from many phones
costs one fsync, not one each. Changes commit in the order they were queued (the service queues them in
version order), so the file always holds a prefix of the table's history. Tokens are kept only as
SHA-256 hashes: whoever copies the file cannot act as a seat or the host.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from scorer.table import trace

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    code TEXT PRIMARY KEY,
    edition TEXT NOT NULL,
    seats INTEGER NOT NULL,
    direction_variant INTEGER NOT NULL,
    created REAL NOT NULL,
    last_active REAL NOT NULL,
    version INTEGER NOT NULL,
    created_by TEXT,
    locked INTEGER NOT NULL DEFAULT 0,
    ended REAL,
    game INTEGER NOT NULL DEFAULT 1,
    deck_version TEXT
);
-- The games played before the current one at the same table (play again): their records, as `tourpad score`
-- reads them, kept for export after the seats moved on to a new game.
CREATE TABLE IF NOT EXISTS past_games (
    code TEXT NOT NULL REFERENCES tables(code) ON DELETE CASCADE,
    game INTEGER NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (code, game)
);
CREATE TABLE IF NOT EXISTS host_tokens (
    code TEXT NOT NULL REFERENCES tables(code) ON DELETE CASCADE,
    token_hash TEXT NOT NULL,
    PRIMARY KEY (code, token_hash)
);
CREATE TABLE IF NOT EXISTS seats (
    code TEXT NOT NULL REFERENCES tables(code) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    PRIMARY KEY (code, seat)
);
CREATE TABLE IF NOT EXISTS entries (
    code TEXT NOT NULL REFERENCES tables(code) ON DELETE CASCADE,
    round INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    cards TEXT NOT NULL,
    choice TEXT,
    revision INTEGER NOT NULL,
    by_host INTEGER NOT NULL,
    PRIMARY KEY (code, round, seat)
);
-- Who changed what, in order: the table's audit trail (never read back to rebuild state).
CREATE TABLE IF NOT EXISTS log (
    code TEXT NOT NULL REFERENCES tables(code) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    at REAL NOT NULL,
    kind TEXT NOT NULL,
    detail TEXT NOT NULL,
    PRIMARY KEY (code, version)
);
"""


log = logging.getLogger(__name__)

Statements = list[tuple[str, tuple]]


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seat_mark(hashed: str) -> str:
    """A claimed seat's mark in the table's view, from its token's hash: how a phone finds its own seat in any
    view, however many seats were removed before it while it heard nothing. Public, and it tells nothing of the
    token (a hash of the hash)."""
    return hashlib.sha256(f"seat mark:{hashed}".encode()).hexdigest()[:16]


#: Guards every PendingWrite's done-callbacks (held for an append or a swap only).
_callbacks_lock = threading.Lock()


@dataclass
class PendingWrite:
    """A queued change; `wait()` returns once it is committed to disk (or raises why it was not)."""

    statements: Statements
    #: Runs on the writer thread right after the commit, in queue order (the service publishes events).
    after_commit: Callable[[], None] | None = None
    done: threading.Event = field(default_factory=threading.Event)
    error: BaseException | None = None
    #: (table code, version) this write makes, for the trace (`scorer.table.trace`) only
    traced: tuple[str, int] | None = None
    #: A submitted entry, instead of `statements`: consecutive ones are saved a few statements per batch
    entry: EntryRow | None = None
    _on_done: list[Callable[[], None]] = field(default_factory=list)

    def wait(self) -> None:
        self.done.wait()
        if self.error is not None:
            raise self.error

    def on_done(self, callback: Callable[[], None]) -> None:
        """Call `callback()` once the write is committed or failed: at once if it is, else on the writer
        thread right after (an event loop awaits the commit this way instead of blocking a thread)."""
        with _callbacks_lock:
            if not self.done.is_set():
                self._on_done.append(callback)
                return
        callback()

    def _finish(self) -> None:
        """Mark the write done and run its callbacks (on the writer thread)."""
        self.done.set()
        with _callbacks_lock:  # a callback added from now on runs at once instead
            callbacks, self._on_done = self._on_done, []
        for callback in callbacks:
            try:
                callback()
            except Exception:
                log.exception("table store: a commit callback failed")


@dataclass(frozen=True)
class EntryRow:
    """One submitted entry as the store saves it: the entry, the table's new version, and its log line."""

    code: str
    round_index: int
    seat: int
    cards: str
    choice: str | None
    revision: int
    by_host: bool
    version: int
    at: float

    def log_detail(self) -> str:
        return json.dumps({"round": self.round_index, "seat": self.seat, "cards": self.cards,
                           "choice": self.choice, "revision": self.revision, "by_host": self.by_host})


#: Entries saved per statement (10 parameters each: below the 999 parameters of older SQLite builds).
ROWS_PER_STATEMENT = 90

#: How this connection saves submitted entries: one INSERT of any number of rows into this view saves each
#: entry, its log line and its table's version (a temporary view and trigger: nothing of it is in the file).
ENTRY_WRITES = """
CREATE TEMP VIEW IF NOT EXISTS entry_writes (code, round, seat, cards, choice, revision, by_host, version, at,
                                             detail) AS
    SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL WHERE 0;
CREATE TEMP TRIGGER IF NOT EXISTS save_entry INSTEAD OF INSERT ON entry_writes BEGIN
    INSERT INTO entries (code, round, seat, cards, choice, revision, by_host)
        VALUES (NEW.code, NEW.round, NEW.seat, NEW.cards, NEW.choice, NEW.revision, NEW.by_host)
        ON CONFLICT (code, round, seat) DO UPDATE SET cards = excluded.cards, choice = excluded.choice,
            revision = excluded.revision, by_host = excluded.by_host;
    INSERT INTO log (code, version, at, kind, detail) VALUES (NEW.code, NEW.version, NEW.at, 'entry', NEW.detail);
    UPDATE tables SET version = NEW.version, last_active = NEW.at WHERE code = NEW.code;
END;
"""


@dataclass
class StoredEntry:
    cards: str
    choice: str | None
    revision: int
    by_host: bool


@dataclass
class StoredSeat:
    name: str
    token_hash: str


@dataclass
class StoredTable:
    code: str
    edition: str
    seats: int
    direction_variant: bool
    created: float
    last_active: float
    version: int
    host_token_hashes: set[str] = field(default_factory=set)
    #: SHA-256 of the host credential the table was opened with (None: opened before tables recorded it)
    created_by: str | None = None
    #: the host closed the table to new players (seated players and the host still work)
    locked: bool = False
    #: when the host ended the current game (None: still open for entries)
    ended: float | None = None
    #: the number of the current game at this table (play again starts the next one)
    game: int = 1
    #: the version of the host's own deck the table was opened with (`rules.editions.deck_version`; None for
    #: tourpad's and the publisher's decks, and tables opened before tables kept it)
    deck_version: str | None = None
    #: earlier games at this table → their records (`rules.record.GameRecord` as JSON data)
    past_games: dict[int, dict] = field(default_factory=dict)
    #: seat index (0-based) → the claimed seat
    claimed: dict[int, StoredSeat] = field(default_factory=dict)
    #: (round index, seat index), 0-based → entry
    entries: dict[tuple[int, int], StoredEntry] = field(default_factory=dict)


class TableStore:
    """All SQL lives here. One connection: the writer thread writes, `load_all` reads under the same lock."""

    def __init__(self, path: Path, journal_mode: str = "WAL") -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute(f"PRAGMA journal_mode={journal_mode}")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)
        self._db.executescript(ENTRY_WRITES)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(tables)")}
        if "created_by" not in columns:  # a file from before tables recorded their creator
            self._db.execute("ALTER TABLE tables ADD COLUMN created_by TEXT")
        for column, declaration in (("locked", "INTEGER NOT NULL DEFAULT 0"), ("ended", "REAL"),
                                    ("game", "INTEGER NOT NULL DEFAULT 1"), ("deck_version", "TEXT")):
            if column not in columns:  # a file from before the host's controls or the tables' deck versions
                self._db.execute(f"ALTER TABLE tables ADD COLUMN {column} {declaration}")
        self._queue: list[PendingWrite | None] = []
        self._queued = threading.Condition()
        self._start_writer()

    def _start_writer(self) -> None:
        self._writer = threading.Thread(target=self._write_loop, name="table-store-writer", daemon=True)
        self._writer.start()

    def close(self) -> None:
        with self._queued:
            self._queue.append(None)
            self._queued.notify()
        self._writer.join()
        with self._lock:
            self._db.close()

    def queue(self, statements: Statements, after_commit: Callable[[], None] | None = None,
              entry: EntryRow | None = None) -> PendingWrite:
        """Queue a change; the caller fixes the commit order by queueing under its own lock."""
        write = PendingWrite(statements, after_commit, entry=entry)
        if trace.TRACER is not None and entry is not None:
            write.traced = (entry.code, entry.version)
        return self._enqueue(write)

    def _enqueue(self, write: PendingWrite) -> PendingWrite:
        with self._queued:
            self._queue.append(write)
            self._queued.notify()
        return write

    def _transaction(self, statements: Statements) -> None:
        """Commit the statements atomically; returns only once they are on disk."""
        self.queue(statements).wait()

    def _write_loop(self) -> None:
        while True:
            with self._queued:
                while not self._queue:
                    self._queued.wait()
                batch, self._queue = self._queue, []
            stop = None in batch
            writes = [w for w in batch if w is not None]
            if writes:
                self._commit(writes)
            if stop:
                return

    def _commit(self, writes: list[PendingWrite]) -> None:
        tracer = trace.TRACER
        if tracer is not None:
            self._mark(tracer, writes, "commit_start", len(writes))
        with self._lock:
            cur = self._db.cursor()
            try:
                if len(writes) <= ROWS_PER_STATEMENT and all(w.entry is not None for w in writes):
                    # the usual burst, submissions only: one statement, its own transaction
                    self._save_entries(cur, [w.entry for w in writes])
                else:
                    cur.execute("BEGIN IMMEDIATE")
                    entries: list[EntryRow] = []
                    for write in writes:  # in queue order; a run of entries is saved together
                        if write.entry is not None:
                            entries.append(write.entry)
                            continue
                        self._save_entries(cur, entries)
                        entries = []
                        for sql, args in write.statements:
                            cur.execute(sql, args)
                    self._save_entries(cur, entries)
                    cur.execute("COMMIT")
            except BaseException as err:
                log.exception("table store: a commit failed; nothing of it was saved")
                if self._db.in_transaction:
                    cur.execute("ROLLBACK")
                for write in writes:
                    write.error = err
        if tracer is not None:
            self._mark(tracer, writes, "committed", len(writes))
        for write in writes:
            if write.error is None and write.after_commit is not None:
                try:
                    write.after_commit()
                except Exception:
                    log.exception("table store: after-commit step failed")
            if tracer is not None and write.traced is not None:
                tracer.mark(*write.traced, "published")
            write._finish()

    @staticmethod
    def _save_entries(cur: sqlite3.Cursor, entries: list[EntryRow]) -> None:
        """Save a run of submitted entries, in order, in one statement (per ROWS_PER_STATEMENT).

        Why: sqlite3 lets go of the GIL for every statement, and the writer thread must then get it back
        while the event loop is busy with the rest of the burst: it waited up to the interpreter's switch
        interval (and for a CPU) after each of the three statements per entry, and a burst's commit took
        milliseconds of waiting, not of work. Rows are applied in order, so a later revision of the same
        entry, and the later version of the same table, win."""
        for start in range(0, len(entries), ROWS_PER_STATEMENT):
            chunk = entries[start:start + ROWS_PER_STATEMENT]
            cur.execute("INSERT INTO entry_writes VALUES " + ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"] * len(chunk)),
                        [value for e in chunk for value in (e.code, e.round_index, e.seat, e.cards, e.choice,
                                                            e.revision, int(e.by_host), e.version, e.at,
                                                            e.log_detail())])

    @staticmethod
    def _mark(tracer: trace.Tracer, writes: list[PendingWrite], stage: str, detail: int) -> None:
        for write in writes:
            if write.traced is not None:
                tracer.mark(*write.traced, stage, detail)

    @staticmethod
    def _bump(code: str, version: int, at: float, kind: str, detail: dict) -> list[tuple[str, tuple]]:
        return [("UPDATE tables SET version = ?, last_active = ? WHERE code = ?", (version, at, code)),
                ("INSERT INTO log (code, version, at, kind, detail) VALUES (?, ?, ?, ?, ?)",
                 (code, version, at, kind, json.dumps(detail)))]

    def create_table(self, table: StoredTable) -> None:
        stmts = [("INSERT INTO tables (code, edition, seats, direction_variant, created, last_active, "
                  "version, created_by, deck_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                  (table.code, table.edition, table.seats, int(table.direction_variant), table.created,
                   table.last_active, table.version, table.created_by, table.deck_version))]
        stmts += [("INSERT INTO host_tokens (code, token_hash) VALUES (?, ?)", (table.code, h))
                  for h in table.host_token_hashes]
        stmts.append(("INSERT INTO log (code, version, at, kind, detail) VALUES (?, ?, ?, 'created', ?)",
                      (table.code, table.version, table.created,
                       json.dumps({"edition": table.edition, "seats": table.seats}))))
        self._transaction(stmts)

    def add_host_token(self, code: str, hashed: str) -> None:
        self._transaction([("INSERT OR IGNORE INTO host_tokens (code, token_hash) VALUES (?, ?)",
                            (code, hashed))])

    def claim_seat(self, code: str, seat: int, stored: StoredSeat, version: int, at: float,
                   after_commit: Callable[[], None] | None = None) -> PendingWrite:
        return self.queue([
            ("INSERT INTO seats (code, seat, name, token_hash) VALUES (?, ?, ?, ?) "
             "ON CONFLICT (code, seat) DO UPDATE SET name = excluded.name, token_hash = excluded.token_hash",
             (code, seat, stored.name, stored.token_hash)),
            *self._bump(code, version, at, "seat", {"seat": seat, "name": stored.name})], after_commit)

    def put_entry(self, code: str, round_index: int, seat: int, entry: StoredEntry, version: int,
                  at: float, after_commit: Callable[[], None] | None = None) -> PendingWrite:
        return self.queue([], after_commit, EntryRow(code, round_index, seat, entry.cards, entry.choice,
                                                     entry.revision, entry.by_host, version, at))

    def set_locked(self, code: str, locked: bool, version: int, at: float,
                   after_commit: Callable[[], None] | None = None) -> PendingWrite:
        return self.queue([("UPDATE tables SET locked = ? WHERE code = ?", (int(locked), code)),
                           *self._bump(code, version, at, "locked" if locked else "unlocked", {})],
                          after_commit)

    def remove_seat(self, table: StoredTable, removed: int, at: float,
                    after_commit: Callable[[], None] | None = None) -> PendingWrite:
        """Save `table` after seat `removed` (0-based) left: its seats and entries as they are now (the later
        seats moved down one), all in one transaction."""
        code = table.code
        stmts: Statements = [("UPDATE tables SET seats = ? WHERE code = ?", (table.seats, code)),
                             ("DELETE FROM seats WHERE code = ?", (code,)),
                             ("DELETE FROM entries WHERE code = ?", (code,))]
        stmts += [("INSERT INTO seats (code, seat, name, token_hash) VALUES (?, ?, ?, ?)",
                   (code, seat, s.name, s.token_hash)) for seat, s in table.claimed.items()]
        stmts += self._entry_rows(table)
        stmts += self._bump(code, table.version, at, "seat_removed", {"seat": removed})
        return self.queue(stmts, after_commit)

    @staticmethod
    def _entry_rows(table: StoredTable) -> Statements:
        return [("INSERT INTO entries (code, round, seat, cards, choice, revision, by_host) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?)",
                 (table.code, r, seat, e.cards, e.choice, e.revision, int(e.by_host)))
                for (r, seat), e in table.entries.items()]

    def end_game(self, code: str, ended: float, version: int,
                 after_commit: Callable[[], None] | None = None) -> PendingWrite:
        return self.queue([("UPDATE tables SET ended = ? WHERE code = ?", (ended, code)),
                           *self._bump(code, version, ended, "ended", {})], after_commit)

    def new_game(self, code: str, finished_game: int, record: dict, game: int, version: int, at: float,
                 after_commit: Callable[[], None] | None = None) -> PendingWrite:
        """Keep the finished game's record, clear the sheets and open game number `game`."""
        return self.queue([
            ("INSERT INTO past_games (code, game, record) VALUES (?, ?, ?)",
             (code, finished_game, json.dumps(record))),
            ("DELETE FROM entries WHERE code = ?", (code,)),
            ("UPDATE tables SET game = ?, ended = NULL WHERE code = ?", (game, code)),
            *self._bump(code, version, at, "new_game", {"game": game})], after_commit)

    def delete_table(self, code: str) -> None:
        self._transaction([("DELETE FROM tables WHERE code = ?", (code,))])

    def load_all(self) -> list[StoredTable]:
        with self._lock:
            rows = self._db.execute("SELECT code, edition, seats, direction_variant, created, last_active, "
                                    "version, created_by, locked, ended, game, deck_version FROM tables").fetchall()
            tables = {r[0]: StoredTable(r[0], r[1], r[2], bool(r[3]), r[4], r[5], r[6], created_by=r[7],
                                        locked=bool(r[8]), ended=r[9], game=r[10], deck_version=r[11])
                      for r in rows}
            for code, game, record in self._db.execute("SELECT code, game, record FROM past_games"):
                tables[code].past_games[game] = json.loads(record)
            for code, hashed in self._db.execute("SELECT code, token_hash FROM host_tokens"):
                tables[code].host_token_hashes.add(hashed)
            seats = self._db.execute("SELECT code, seat, name, token_hash FROM seats")
            for code, seat, name, hashed in seats:
                tables[code].claimed[seat] = StoredSeat(name, hashed)
            for code, rnd, seat, cards, choice, revision, by_host in self._db.execute(
                    "SELECT code, round, seat, cards, choice, revision, by_host FROM entries"):
                tables[code].entries[rnd, seat] = StoredEntry(cards, choice, revision, bool(by_host))
        return list(tables.values())
