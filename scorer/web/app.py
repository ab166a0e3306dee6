"""The published web app's entry point: the browser's storage first, then the same app as `tourpad app`.

The site's Python worker calls `load()` while Flutter's engine is still loading in the page, then `run()`
once Flutter asks for Python: the slow part of a start (importing the app) overlaps the engine's.
"""

from __future__ import annotations

from collections.abc import Callable


def load() -> None:
    """Import everything the first screen needs."""
    import flet
    import flet.messaging.pyodide_connection  # noqa: F401  (what ft.run uses in Pyodide)

    import scorer.browser_storage
    import scorer.ui.main  # noqa: F401


def run() -> None:
    import flet as ft

    from scorer.browser_storage import open_data_dir
    from scorer.ui.main import make_main

    started: dict[str, Callable] = {}

    async def before_main(page: ft.Page) -> None:
        # the games store opens on the data folder, so the folder is loaded from IndexedDB first
        if "main" not in started:
            await open_data_dir()
            started["main"] = make_main()

    def main(page: ft.Page) -> None:
        started["main"](page)

    ft.run(main, before_main=before_main)
