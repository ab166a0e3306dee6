"""The browser's persistent storage for the published app: the data folder (games, deck packs, the Race
solo game) is an Emscripten IDBFS mount, which lives in the page's IndexedDB.

Pyodide's file system is in memory; IDBFS copies it to IndexedDB on `syncfs`. `open_data_dir` loads what
the last visit saved before the first screen; `persist` runs after every committed write of the games
store, and where the browser can suspend Python on a promise (JSPI: Chromium-based browsers) it returns
only once IndexedDB has the change, so a screen confirms an entry only after it is saved. Elsewhere the
save starts at once and completes within milliseconds. Only this module touches the browser's storage;
`scorer.pad.store.EventStore.default` chooses it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os

#: Where the data folder is mounted inside Pyodide's file system.
DATA_DIR = "/tourpad-data"
#: Writes outside the games store (deck packs, the Race solo game) are saved within this many seconds.
BACKGROUND_SAVE_SECONDS = 2.0

_pending: set[asyncio.Future] = set()


def _sync_promise(populate: bool):
    """A JS promise for one IDBFS sync: populate=True loads IndexedDB into memory, False saves to it."""
    import js
    import pyodide_js
    from pyodide.ffi import create_once_callable

    def start(resolve, reject) -> None:
        def done(err=None) -> None:
            if err:
                reject(err)
            else:
                resolve(True)
        pyodide_js.FS.syncfs(populate, create_once_callable(done))

    return js.Promise.new(create_once_callable(start))


async def open_data_dir() -> str:
    """Mount the data folder on IndexedDB, load the last visit's files, and point the app at it."""
    import js
    import pyodide_js

    os.makedirs(DATA_DIR, exist_ok=True)
    pyodide_js.FS.mount(pyodide_js.FS.filesystems.IDBFS, js.Object.new(), DATA_DIR)
    await _sync_promise(True)
    os.environ["TOURPAD_DATA_DIR"] = DATA_DIR
    asyncio.get_running_loop().create_task(_save_in_background())
    return DATA_DIR


def persist() -> None:
    """Save the data folder to IndexedDB; blocks until saved where the browser allows it (see above)."""
    from pyodide.ffi import can_run_sync, run_sync

    if can_run_sync():
        run_sync(_sync_promise(False))
        return
    future = asyncio.ensure_future(_sync_promise(False))
    _pending.add(future)
    future.add_done_callback(_pending.discard)


async def _save_in_background() -> None:
    while True:
        await asyncio.sleep(BACKGROUND_SAVE_SECONDS)
        with contextlib.suppress(Exception):
            await _sync_promise(False)
