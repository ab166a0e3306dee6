"""The games on this device as an append-only event log in SQLite.

A game's state is never stored, only the events that produced it (see `scorer.pad.game.fold`), so undo
and editing a past round are replays and a crash can lose nothing that was acknowledged: `append` commits
(WAL, synchronous=FULL) before it returns, and the screens confirm an entry only after `append` returned.

Where the file lives is chosen in one place, `EventStore.default`: the data folder on a computer, or in
the published web app the browser's persistent storage (`scorer.browser_storage`), saved after each commit.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from scorer.locale import N_, _
from scorer.runtime import IN_BROWSER

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    edition TEXT NOT NULL,
    players TEXT NOT NULL,
    -- 'playing' or 'finished': derived from the events, kept here so the home screen lists games fast
    status TEXT NOT NULL DEFAULT 'playing',
    summary TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    at REAL NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
-- the register of people (scorer.pad.people): a name as played, cleaned and casefolded, and who it is
CREATE TABLE IF NOT EXISTS people (
    name_key TEXT PRIMARY KEY,
    person TEXT NOT NULL
);
"""


@dataclass(frozen=True, slots=True)
class Event:
    seq: int
    kind: str
    payload: dict
    at: float


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    created_at: float
    updated_at: float
    edition: str
    players: tuple[str, ...]
    status: str
    summary: str


class EventStore:
    """One SQLite file; safe to share between the threads Flet runs handlers on."""

    def __init__(self, path: Path | str, journal_mode: str = "WAL",
                 after_commit: Callable[[], None] | None = None) -> None:
        """`after_commit` runs after every committed write, before the write returns (the browser's save)."""
        self.path = Path(path)
        self._lock = threading.RLock()
        self._after_commit = after_commit
        self._db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        self._db.execute(f"PRAGMA journal_mode={journal_mode}")
        # FULL: a committed event survives a power cut too, not only a killed process.
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)

    @classmethod
    def default(cls) -> EventStore:
        from scorer.packs import data_dir

        if IN_BROWSER:
            from scorer.browser_storage import persist

            # Pyodide's SQLite has no shared memory for a WAL; one file that IndexedDB receives whole
            return cls(data_dir() / "games.sqlite3", journal_mode="DELETE", after_commit=persist)
        return cls(data_dir() / "games.sqlite3")

    def _committed(self) -> None:
        if self._after_commit is not None:
            self._after_commit()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """One write: committed, and saved by the storage hook, before the caller goes on; or nothing."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._committed()

    def create_game(self, edition: str, players: list[str], first_event: tuple[str, dict],
                    summary: str = "", status: str = "playing") -> int:
        """A new game and its first event, in one transaction."""
        now = time.time()
        return self.restore_game(now, now, edition, players, status, summary, [(*first_event, now)])

    def append(self, game_id: int, kind: str, payload: dict, status: str | None = None,
               summary: str | None = None) -> Event:
        """Append one event (and the game's new status) and commit before returning."""
        now = time.time()
        with self._transaction():
            (last,) = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?",
                                       (game_id,)).fetchone()
            self._insert(game_id, last + 1, now, kind, payload)
            self._db.execute(
                "UPDATE games SET updated_at = ?, status = COALESCE(?, status), "
                "summary = COALESCE(?, summary) WHERE id = ?", (now, status, summary, game_id))
        return Event(last + 1, kind, payload, now)

    def restore_game(self, created_at: float, updated_at: float, edition: str, players: list[str], status: str,
                     summary: str, events: list[tuple[str, dict, float]], replacing: int | None = None) -> int:
        """A game with its own times and events (a new one, or one from an export: `scorer.pad.archive`);
        `replacing`: a game deleted in the same transaction (a kept table game corrected after it was kept,
        `scorer.table.history`), so that the store never holds both nor neither."""
        with self._transaction():
            if replacing is not None:
                self._delete(replacing)
            cur = self._db.execute(
                "INSERT INTO games (created_at, updated_at, edition, players, summary, status) "
                "VALUES (?, ?, ?, ?, ?, ?)", (created_at, updated_at, edition, json.dumps(players), summary, status))
            game_id = int(cur.lastrowid)
            for seq, (kind, payload, at) in enumerate(events, start=1):
                self._insert(game_id, seq, at, kind, payload)
        return game_id

    def _insert(self, game_id: int, seq: int, at: float, kind: str, payload: dict) -> None:
        self._db.execute("INSERT INTO events (game_id, seq, at, kind, payload) VALUES (?, ?, ?, ?, ?)",
                         (game_id, seq, at, kind, json.dumps(payload, ensure_ascii=False)))

    def events(self, game_id: int) -> list[Event]:
        with self._lock:
            rows = self._db.execute("SELECT seq, kind, payload, at FROM events WHERE game_id = ? "
                                    "ORDER BY seq", (game_id,)).fetchall()
        return [Event(seq, kind, json.loads(payload), at) for seq, kind, payload, at in rows]

    def first_payloads(self) -> dict[int, dict]:
        """Every game's first event's payload, by game id (where a game says where it came from)."""
        with self._lock:
            rows = self._db.execute("SELECT game_id, payload FROM events WHERE seq = 1").fetchall()
        return {game_id: json.loads(payload) for game_id, payload in rows}

    def games(self, status: str | None = None) -> list[GameRow]:
        """Games, most recently touched first."""
        query = "SELECT id, created_at, updated_at, edition, players, status, summary FROM games"
        args: tuple = ()
        if status is not None:
            query += " WHERE status = ?"
            args = (status,)
        with self._lock:
            rows = self._db.execute(query + " ORDER BY updated_at DESC, id DESC", args).fetchall()
        return [GameRow(i, c, u, e, tuple(json.loads(p)), s, m) for i, c, u, e, p, s, m in rows]

    def game(self, game_id: int) -> GameRow:
        for row in self.games():
            if row.id == game_id:
                return row
        raise KeyError(_("no game {game_id} on this device").format(game_id=game_id))

    def aliases(self) -> dict[str, str]:
        """The register of people: name key → the person that name is (`scorer.pad.people`)."""
        with self._lock:
            return dict(self._db.execute("SELECT name_key, person FROM people ORDER BY name_key").fetchall())

    def set_aliases(self, pairs: list[tuple[str, str]], replace: bool = True) -> None:
        """Write (name key, person) rows in one transaction; without `replace`, keys already here stay."""
        verb = "INSERT OR REPLACE" if replace else "INSERT OR IGNORE"
        with self._transaction():
            self._db.executemany(f"{verb} INTO people (name_key, person) VALUES (?, ?)", pairs)

    def delete_game(self, game_id: int) -> None:
        with self._transaction():
            self._delete(game_id)

    def _delete(self, game_id: int) -> None:
        self._db.execute("DELETE FROM events WHERE game_id = ?", (game_id,))
        self._db.execute("DELETE FROM games WHERE id = ?", (game_id,))


# --- a saved game's line in the lists ----------------------------------------------------------------------

#: A solo game's phase, as its saved line words it.
PHASE_NAMES = {"throw": N_("Throw card"), "draft": N_("draft"), "choice": N_("round-end choice"),
               "game_over": N_("game over")}


def summary_text(**facts: object) -> str:
    """What a saved game's `summary` column keeps: its facts, not words, so the lists word it in the
    language of whoever reads them (`summary_line`)."""
    return json.dumps(facts, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def summary_line(summary: str) -> str:
    """A saved game's line for the home screen and History, in the language of the moment. Games saved
    before summaries kept facts hold their English line; it is shown as it is."""
    try:
        facts = json.loads(summary)
    except ValueError:
        return summary
    if not isinstance(facts, dict):
        return summary
    if "standings" in facts:
        return ", ".join(f"{name} {points}" for name, points in facts["standings"])
    if "winner" in facts:
        return _("finished: {name} won with {points}").format(name=facts["winner"], points=facts["points"])
    phase = PHASE_NAMES.get(facts.get("phase", ""))
    if phase is not None:
        return _("round {round} of {rounds}, {phase}").format(round=facts["round"], rounds=facts["rounds"],
                                                              phase=_(phase))
    return _("round {round} of {rounds}").format(round=facts.get("round", "?"), rounds=facts.get("rounds", "?"))
