"""The feed: who watches which table, and the event each committed change sends them, in order."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from scorer.table.table import Table, Tables, normalize_code

log = logging.getLogger(__name__)

Listener = Callable[[dict], None]


class Feed:
    """The listeners of every table. Their own lock guards them: the store's writer thread publishes under
    it, never under the tables' lock."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.listeners: dict[str, list[Listener]] = {}
        self.lock = threading.Lock()

    def listening(self, code: str) -> int:
        """How many listeners follow the table (`code` as stored, or as typed)."""
        with self.lock:
            return len(self.listeners.get(normalize_code(code), []))

    def subscribe(self, code: str, listener: Listener) -> tuple[dict, Callable[[], None]]:
        """Call `listener(event)` after every committed change of the table, in order. Returns the current
        view (taken atomically with the subscription: every later change arrives as an event; an event
        whose version is not above the snapshot's is already in it). Listeners run on the store's writer
        thread: they must hand the event off, not work on it."""
        with self.tables.lock:
            table = self.tables.get(code)
            snapshot = table.view()
            with self.lock:
                self.listeners.setdefault(table.code, []).append(listener)

        def unsubscribe() -> None:
            with self.lock:
                listeners = self.listeners.get(table.code, [])
                if listener in listeners:
                    listeners.remove(listener)

        return snapshot, unsubscribe

    def advance(self, table: Table, version: int, now: float, event: dict) -> Callable[[], None]:
        """Move the table to `version` (under the lock); returns what publishes the event once it is saved."""
        table.stored.version = version
        table.stored.last_active = now
        table.last_seen = now
        code = table.code
        with self.lock:
            watched = bool(self.listeners.get(code))
        event = {**event, "version": version, "table": table.view() if watched else None}
        if self.tables.after_change is not None:
            self.tables.after_change(table)

        def publish() -> None:
            with self.lock:
                listeners = self.listeners.get(code)
                for listener in list(listeners or ()):
                    try:
                        listener(event)
                    except Exception:  # a vanished viewer must not fail a submission that is saved
                        log.exception("dropping a table listener that failed")
                        listeners.remove(listener)

        return publish

    def expired(self, table: Table) -> None:
        """The table is gone: its listeners are told so, and dropped."""
        with self.lock:
            listeners = self.listeners.pop(table.code, [])
        for listener in listeners:
            listener({"kind": "expired", "version": table.stored.version + 1, "table": None})
