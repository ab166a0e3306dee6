"""Waiting in tests for something another thread or task does: a pubsub handler on the hub's executor, a
table's writer thread, a component re-rendered by the session's scheduler, a page task writing a file.

A test waits for the outcome, never for a guessed time: the deadline is only there so a broken screen
fails instead of hanging, and it is long because a full run shares two cores with several browsers.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

PATIENCE_SECONDS = 60.0


async def until(check: Callable[[], object], what: str, seconds: float = PATIENCE_SECONDS) -> None:
    """Return as soon as `check()` is true; fail naming `what` if it never becomes so."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        await asyncio.sleep(0.01)


def drawn(page) -> bool:
    """True once `page`'s session has no component waiting to be re-rendered and no effect waiting to run:
    what a check sees then is what the phone would be shown."""
    session = page.session
    return not (session._Session__pending_updates or session._Session__pending_effects
                or session._Session__updates_ready.is_set())
