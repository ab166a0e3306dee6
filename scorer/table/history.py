"""A finished table game saved on the host by itself, into the host's History (`scorer.pad.store`), so that
the host's History and Stats count it without anyone pressing "Save to History".

When: every committed change of a table whose game has all its rounds closed offers the game (the last
round closing, a host's correction after it, the host ending it); so does the service's start, for every
complete game its tables hold, so a game whose keeping a stop interrupted is kept then. A worker thread
keeps what is offered, away from the tables' lock: a game is kept by entering its rounds through the score
pad's own checks (`GameSession.from_record`), longer than a submission may wait.

Exactly once: the kept game's first event says which table game it is (the table's code, when the table was
opened, the game's number) and which record it was kept from. The same record offered again adds nothing;
a corrected one replaces the kept game in one transaction. A game ended before its last round closed is
not finished and is not kept (its host can still save it with "Save to History").
"""

from __future__ import annotations

import hashlib
import json
import logging
import queue
import threading
from collections.abc import Callable

from pydantic import ValidationError

from rules.engine import ROUNDS
from rules.record import GameRecord
from scorer.pad.errors import EntryError
from scorer.pad.game import GameSession
from scorer.pad.store import EventStore

log = logging.getLogger(__name__)

#: The key of the kept game's first event that names the table game it came from.
ORIGIN = "table_game"


def game_key(code: str, opened: float, game: int) -> str:
    """A table game's name for ever: a join code is reused once its table expired, its opening time is not."""
    return f"{code}/{opened!r}/{game}"


def record_digest(record: dict) -> str:
    return hashlib.sha256(json.dumps(record, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


class HostHistory:
    """The host's History, keeping the table games offered to it (one worker thread, in order)."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._offers: queue.Queue[tuple[str, Callable[[], dict]] | None] = queue.Queue()
        #: Orders the keeping of games (one look-up and write at a time); the worker's start has its own lock,
        #: as an offer comes under the tables' lock and must not wait for a game being kept.
        self._keeping = threading.Lock()
        self._starting = threading.Lock()
        self._worker: threading.Thread | None = None

    def offer(self, key: str, record: Callable[[], dict]) -> None:
        """Keep the game `key` soon, with the record `record()` reads then (its latest state)."""
        with self._starting:
            if self._worker is None:
                self._worker = threading.Thread(target=self._work, name="table-history", daemon=True)
                self._worker.start()
        self._offers.put((key, record))

    def flush(self) -> None:
        """Return once every game offered so far is kept (or refused)."""
        self._offers.join()

    def close(self) -> None:
        with self._starting:
            worker, self._worker = self._worker, None
        if worker is not None:
            self._offers.put(None)
            worker.join()

    def _work(self) -> None:
        while True:
            offer = self._offers.get()
            try:
                if offer is None:
                    return
                key, record = offer
                self.keep(key, record())
            except Exception:  # a game that cannot be kept must not stop the next ones; a restart offers it again
                log.exception("could not keep a table game in the host's History")
            finally:
                self._offers.task_done()

    def keep(self, key: str, record: dict) -> int | None:
        """The game `key` in History as `record` has it: its id there, None when the record is not a
        finished game. Adds it once; replaces it if it was kept from another record."""
        try:
            game = GameRecord.model_validate(record)
        except ValidationError as err:
            raise EntryError(str(err)) from None
        if len(game.rounds) < ROUNDS:
            return None
        digest = record_digest(record)
        with self._keeping:
            kept = [(game_id, payload[ORIGIN]) for game_id, payload in self.store.first_payloads().items()
                    if isinstance(payload.get(ORIGIN), dict) and payload[ORIGIN].get("key") == key]
            for game_id, origin in kept:
                if origin.get("record") == digest:
                    return game_id
            scratch = EventStore(":memory:")
            try:  # entered through the pad's checks on a scratch store, then written here in one transaction
                session = GameSession.from_record(scratch, game)
                row, events = scratch.game(session.game_id), scratch.events(session.game_id)
            finally:
                scratch.close()
            first = events[0]
            opening = (first.kind, {**first.payload, ORIGIN: {"key": key, "record": digest}}, first.at)
            return self.store.restore_game(row.created_at, row.updated_at, row.edition, list(row.players), row.status,
                                           row.summary, [opening, *((e.kind, e.payload, e.at) for e in events[1:])],
                                           replacing=kept[0][0] if kept else None)
