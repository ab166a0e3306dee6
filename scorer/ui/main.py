"""The app's entry point: every screen registered, then `main(page)` for Flet.

Kept apart from `scorer.ui.app` so the shell never imports its screens (each screen imports the shell to
register itself): the screens and the shell form no import cycle.
"""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from rules.i18n import set_language_source
from scorer.locale import _
from scorer.pad.store import EventStore

# the table's screens too: in the browser a phone hosts its own tables, its guests joining over data channels
from scorer.ui import (  # noqa: F401  (registers the screens)
    deck_editor,
    decks,
    end,
    entry,
    home,
    race,
    sheet,
    solo,
    stats,
    table,
    table_board,
    teach,
)
from scorer.ui.app import GAMES_TOPIC, PAGE_TITLE, PadApp, build_theme, start_islands


def session_language() -> str | None:
    """The language of the Flet session whose event is being handled (each phone its own)."""
    app = ft.context.page.data
    return app.language if isinstance(app, PadApp) else None


def make_main(store_factory: Callable[[], EventStore] = EventStore.default) -> Callable[[ft.Page], None]:
    store = store_factory()
    set_language_source(session_language)

    def main(page: ft.Page) -> None:
        page.title = _(PAGE_TITLE)
        page.theme = build_theme(False)
        page.dark_theme = build_theme(True)
        page.theme_mode = ft.ThemeMode.LIGHT
        start_islands(page)
        app = PadApp(page, store)
        page.data = app
        page.on_resize = app.on_resize
        page.on_route_change = app.on_route_change
        page.on_view_pop = app.on_view_pop
        page.pubsub.subscribe_topic(GAMES_TOPIC, app.on_game_changed)
        page.on_disconnect = lambda e: page.pubsub.unsubscribe_all()
        app.start(page.route or "/")
        page.run_task(app.settle_language)
        page.run_task(app.settle_text_size)

    return main
