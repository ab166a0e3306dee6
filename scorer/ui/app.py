"""The score pad's Flet shell: theme, a small screen router, and `main(page)`.

Screens are plain functions registered by name (`@screen("sheet")`) that build a `Screen` from the app's
state; the logic they show lives in `scorer.pad` (no Flet there). Another package adds a screen by
registering one (table mode, solo vs bots) and calling `app.go(name, **params)`.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

import flet as ft

from scorer.pad.game import GameSession
from scorer.pad.store import EventStore
from scorer.runtime import IN_BROWSER

log = logging.getLogger(__name__)

SEED_COLOR = "#1F7A6D"
MAX_BODY_WIDTH = 640


@dataclass
class Screen:
    title: str
    body: ft.Control
    actions: list[ft.Control] = field(default_factory=list)
    #: Where the app bar's back arrow goes: (screen, params), or None for no arrow.
    back: tuple[str, dict] | None = None
    #: Called when the screen is left (e.g. to release the wake lock).
    on_leave: Callable[[], None] | None = None


SCREENS: dict[str, Callable[..., Screen]] = {}
#: Screens that only show a game, so another tab's change can redraw them (entry screens hold a draft).
LIVE_SCREENS = {"home", "history", "sheet", "round_summary", "end"}
GAMES_TOPIC = "tourpad-games"


def screen(name: str) -> Callable[[Callable[..., Screen]], Callable[..., Screen]]:
    def register(builder: Callable[..., Screen]) -> Callable[..., Screen]:
        SCREENS[name] = builder
        return builder
    return register


def sem(identifier: str, control: ft.Control) -> ft.Semantics:
    """A stable hook for tests and screen readers (rendered as flt-semantics-identifier)."""
    return ft.Semantics(identifier=identifier, content=control)


def readable(text: str) -> str:
    """The offline web renderer's bundled font has no arrow glyph; the engine's lines use one."""
    return text.replace("→", "»")


def note(text: str, color=ft.Colors.TERTIARY) -> ft.Control:
    """A highlighted line (a bonus, a hint) with a star icon: the font has no ★ either."""
    return ft.Row([ft.Icon(ft.Icons.STAR, size=14, color=color),
                   ft.Text(readable(text), size=13, color=color, expand=True)], spacing=4,
                  vertical_alignment=ft.CrossAxisAlignment.START)


class PadApp:
    """One browser tab / window: the current screen, the open game, theme and messages."""

    def __init__(self, page: ft.Page, store: EventStore) -> None:
        self.page = page
        self.store = store
        self.session: GameSession | None = None
        self.route: tuple[str, dict] = ("home", {})
        self._current: Screen | None = None
        self._wakelock: ft.Wakelock | None = None
        self._rendered_wide = False

    # --- navigation -------------------------------------------------------------------------------------

    def go(self, name: str, **params) -> None:
        if self._current is not None and self._current.on_leave is not None:
            self._current.on_leave()
        self.route = (name, params)
        self.render()

    def render(self) -> None:
        name, params = self.route
        try:
            current = SCREENS[name](self, **params)
        except Exception as err:  # a bug must not take the page down: every entry is already saved
            log.exception("screen %s failed", name)
            current = Screen("Something went wrong", ft.Container(ft.Column([
                ft.Text(f"{type(err).__name__}: {err}", selectable=True),
                ft.Text("Every accepted entry is saved; going home and resuming the game is safe."),
                ft.FilledButton("Home", on_click=lambda e: self.go("home"))], spacing=12), padding=16))
        self._current = current
        back = None
        if current.back is not None:
            target, target_params = current.back
            back = sem("back", ft.IconButton(ft.Icons.ARROW_BACK, tooltip="Back",
                                             on_click=lambda e: self.go(target, **target_params)))
        theme_button = sem("theme", ft.IconButton(
            ft.Icons.DARK_MODE if self.page.theme_mode != ft.ThemeMode.DARK else ft.Icons.LIGHT_MODE,
            tooltip="Light / dark theme", on_click=lambda e: self.toggle_theme()))
        self._rendered_wide = self.wide
        self.page.appbar = ft.AppBar(
            leading=back, title=ft.Text(current.title, weight=ft.FontWeight.BOLD),
            actions=[*current.actions, theme_button], center_title=False)
        body = current.body
        if self.wide:  # a desktop window: a centred phone-width column reads better than full width
            body = ft.Row([ft.Container(body, width=MAX_BODY_WIDTH)], alignment=ft.MainAxisAlignment.CENTER)
        self.page.controls = [ft.SafeArea(content=body)]
        self.page.update()

    @property
    def wide(self) -> bool:
        return (self.page.width or 0) > MAX_BODY_WIDTH + 80

    def on_resize(self, e) -> None:
        if self.wide != self._rendered_wide:
            self.render()

    def open_game(self, game_id: int) -> GameSession:
        if self.session is None or self.session.game_id != game_id:
            self.session = GameSession(self.store, game_id)
            self.session.listeners.append(self._announce)
        else:
            self.session.reload()  # another tab or phone may have written meanwhile
        return self.session

    # --- other tabs / phones on the same games -----------------------------------------------------------

    def _announce(self, state) -> None:
        with contextlib.suppress(Exception):
            self.page.pubsub.send_others_on_topic(GAMES_TOPIC, self.session.game_id)

    def on_game_changed(self, topic: str, game_id: int) -> None:
        """Another session wrote to a game: redraw if this tab is only looking at it."""
        name, params = self.route
        if name in LIVE_SCREENS and params.get("game_id", game_id) == game_id:
            self.render()

    # --- feedback --------------------------------------------------------------------------------------

    def toast(self, message: str, error: bool = False) -> None:
        self.page.show_dialog(ft.SnackBar(
            sem("toast", ft.Text(message)), bgcolor=ft.Colors.ERROR if error else None,
            duration=4000 if error else 2500))
        # show_dialog counts as an update, which turns off the handler's auto-update: push the rest too
        self.page.update()

    def toggle_theme(self) -> None:
        self.page.theme_mode = (ft.ThemeMode.LIGHT if self.page.theme_mode == ft.ThemeMode.DARK
                                else ft.ThemeMode.DARK)
        self.render()

    def keep_awake(self, on: bool) -> None:
        """Keep the screen on during a game. Web: the Screen Wake Lock API, which browsers grant only on
        secure origins (https or localhost) and only while the tab is visible; elsewhere nothing happens."""
        async def switch() -> None:
            with contextlib.suppress(Exception):
                if self._wakelock is None:
                    self._wakelock = ft.Wakelock()
                await (self._wakelock.enable() if on else self._wakelock.disable())
        with contextlib.suppress(Exception):
            self.page.run_task(switch)


def build_theme(dark: bool) -> ft.Theme:
    return ft.Theme(color_scheme_seed=SEED_COLOR, use_material3=True)


def make_main(store_factory: Callable[[], EventStore] = EventStore.default) -> Callable[[ft.Page], None]:
    if IN_BROWSER:  # a table needs a server: the browser-only build says so on the same route
        from scorer.ui import hosted_only  # noqa: F401  (registers "table")
    else:
        from scorer.table import screens as table_screens  # noqa: F401  (registers "table")
    from scorer.ui import end, entry, home, race, sheet, solo  # noqa: F401  (registers the screens)

    store = store_factory()

    def main(page: ft.Page) -> None:
        page.title = "tourpad score pad"
        page.theme = build_theme(False)
        page.dark_theme = build_theme(True)
        page.theme_mode = ft.ThemeMode.LIGHT
        page.scroll = ft.ScrollMode.AUTO
        page.padding = 0
        app = PadApp(page, store)
        page.data = app
        page.on_resize = app.on_resize
        page.pubsub.subscribe_topic(GAMES_TOPIC, app.on_game_changed)
        page.on_disconnect = lambda e: page.pubsub.unsubscribe_all()
        app.go("home")

    return main
