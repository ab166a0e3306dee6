"""The tables a host phone keeps (issue 41): the table service's own rules, checks and host controls, on a store
for a Python with no threads.

`TableStore` commits on a writer thread, so that a burst of saves from many phones costs one fsync. The web app's
Python (Pyodide) cannot start a thread, and a phone hosts a few seats over data channels, one message at a time:
here each change is committed in the very call that made it, then `durable` makes it last (in the browser, the
data folder saved to IndexedDB by `scorer.browser_storage.persist`), and only then is it published to the seats
and acknowledged. Everything else is `TableService` as `tourpad host` runs it: the same table behind the same
interface, so the seats (`scorer.table.transport`) cannot tell which holds the table.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from scorer.table.credential import load_or_create
from scorer.table.service import TableService
from scorer.table.store import PendingWrite, TableStore

#: The host phone's tables, beside the pad's games in its data folder (apart from a `tourpad host`'s
#: tables.sqlite3, which a computer running both would otherwise share in another journal mode).
FILE_NAME = "phone-tables.sqlite3"


class InlineTableStore(TableStore):
    """A `TableStore` that commits each change as it is queued, in the caller's own call (no writer thread), and
    calls `durable()` after the commit and before the change is published: a change `durable` could not keep
    fails as the writer's failed commit does (the service refuses every change from then on)."""

    def __init__(self, path: Path, durable: Callable[[], None] | None = None, journal_mode: str = "DELETE") -> None:
        # Pyodide's SQLite has no shared memory for a WAL: one file, which IndexedDB receives whole
        self.durable = durable or (lambda: None)
        super().__init__(path, journal_mode)

    def _start_writer(self) -> None:
        """No thread: `_enqueue` commits."""

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _enqueue(self, write: PendingWrite) -> PendingWrite:
        publish = write.after_commit

        def durable_then_publish() -> None:
            try:
                self.durable()
            except Exception as err:
                write.error = err  # committed to the file, not kept: never acknowledged, never published
                raise
            if publish is not None:
                publish()

        write.after_commit = durable_then_publish
        self._commit([write])
        return write


def phone_table_service(data_folder: Path) -> TableService:
    """The host phone's tables in `data_folder`, with the phone's host credential kept there too (a reload
    resumes the tables it opened itself). In the browser every change is saved to IndexedDB before it counts."""
    from scorer.runtime import IN_BROWSER

    durable = None
    if IN_BROWSER:
        from scorer.browser_storage import persist

        durable = persist
    path = data_folder / FILE_NAME
    return TableService(path, host_credential=load_or_create(data_folder), store=InlineTableStore(path, durable))
