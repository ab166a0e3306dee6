"""The score pad's Flet shell: theme and the route-driven view stack (`main(page)` is in scorer.ui.main).

Every screen has a URL (`scorer/routes.py`). Screens are plain functions registered by name (`@screen("sheet")`)
that build a `Screen` from the app's state; the logic they show lives in `scorer.pad` (no Flet there).
Navigation is Flet's: `app.go(name, **params)` draws that screen and pushes its route onto the browser's history;
the browser's Back and Forward and a typed or pasted URL come back as route changes (`page.on_route_change`),
and the app bar's back arrow and Android's Back pop the view stack (`page.on_view_pop`). The stack is the route's
chain of parents (home, sheet, entry), so even a screen opened from a link has somewhere to go back to.
A reload reattaches to the same server session (the same screen); a new session starts from the page's route.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

import flet as ft

from rules.i18n import DEFAULT_LANGUAGE, LANGUAGE_NAMES, LANGUAGES, language_from_tag
from scorer.locale import N_, _
from scorer.pad.game import GameSession
from scorer.pad.store import EventStore
from scorer.routes import BY_SCREEN, RouteError, chain, format_route, normalise, parent, parse
from scorer.ui.named import icon_button, menu_button
from scorer.ui.text_size import DEFAULT_TEXT_SIZE, keep_text_size, saved_text_size, text_size_menu
from scorer.ui.theme import SEED_COLOR, build_theme  # noqa: F401  (the shell's theme: main and publish read it here)

log = logging.getLogger(__name__)

#: Where this device keeps the language chosen with the switch (the browser's storage, the phone's prefs).
LANGUAGE_KEY = "tourpad.language"
#: How long the first screen waits for the device to say its language before giving up (a headless
#: session never answers).
LANGUAGE_ASK_SECONDS = 10.0
#: How long the language switch waits for the device to keep the choice before redrawing anyway (s).
LANGUAGE_KEEP_SECONDS = 3.0
MAX_BODY_WIDTH = 640
#: The browser tab's title (and the name an installed web app shows).
PAGE_TITLE = N_("tourpad score pad")


@dataclass
class Screen:
    title: str
    body: ft.Control
    actions: list[ft.Control] = field(default_factory=list)
    #: Called when the screen leaves the view stack, or is drawn anew (e.g. to release the wake lock).
    on_leave: Callable[[], None] | None = None
    #: Use the whole window even when it is wide (the table's big-screen board); else a phone-width column.
    full_width: bool = False
    #: Called when the game it shows changed on another device, instead of drawing the screen anew (an
    #: entry screen keeps what is typed and updates around it).
    on_change: Callable[[], None] | None = None
    #: The params it was drawn with (set by the app when it draws it): a screen reused as it is must match.
    drawn_with: dict = field(default_factory=dict)


class NotFound(Exception):
    """A well-formed route that names nothing here (a game not on this device, a round not reached yet): the
    screen says so, with a way home."""


SCREENS: dict[str, Callable[..., Screen]] = {}
#: Screens that only show a game, so another tab's change can redraw them (entry screens hold a draft).
LIVE_SCREENS = {"home", "history", "sheet", "round_summary", "end"}
GAMES_TOPIC = "tourpad-games"
PAD_GAME_STATUSES = ("playing", "finished")  # the store's other games are solo games (scorer/solo_view.py)


def screen(name: str) -> Callable[[Callable[..., Screen]], Callable[..., Screen]]:
    def register(builder: Callable[..., Screen]) -> Callable[..., Screen]:
        SCREENS[name] = builder
        return builder
    return register


def sem(identifier: str, control: ft.Control) -> ft.Semantics:
    """A stable hook for tests and screen readers (rendered as flt-semantics-identifier)."""
    return ft.Semantics(identifier=identifier, content=control)


def note(text: str, color=ft.Colors.TERTIARY) -> ft.Control:
    """A highlighted line (a bonus, a hint) with a star icon: the font has no ★ either."""
    return ft.Row([ft.Icon(ft.Icons.STAR, size=14, color=color),
                   ft.Text(text, size=13, color=color, expand=True)], spacing=4,
                  vertical_alignment=ft.CrossAxisAlignment.START)


class PadApp:
    """One browser tab / window: the route it shows, its view stack, the open game, theme and messages."""

    def __init__(self, page: ft.Page, store: EventStore) -> None:
        self.page = page
        self.store = store
        self.session: GameSession | None = None
        #: The screen on top and its params (URL params plus any remembered for its path, e.g. a sheet's tab).
        self.route: tuple[str, dict] = ("home", {})
        self.path = "/"
        self._extras: dict[str, dict] = {}  # per path: the params that are not part of its URL
        self._stack: list[tuple[str, ft.View, Screen]] = []  # (path, view, screen), home first
        self._browser_path = "/"  # the route the browser shows (its address bar)
        self._pushed: list[str] = []  # routes pushed to the browser whose route change has not come back yet
        self._wakelock: ft.Wakelock | None = None
        self._rendered_wide = False
        #: This session's language (`rules.i18n.LANGUAGES`); None until chosen. Read only through
        #: `rules.i18n.current_language`, which `scorer.ui.main` points at the session being served.
        self.language: str | None = None
        #: This device's text size (`scorer.ui.text_size`): the browser applies it; the app shows it checked.
        self.text_size = DEFAULT_TEXT_SIZE

    # --- navigation -------------------------------------------------------------------------------------

    def go(self, name: str, **params) -> None:
        """Open a screen: drawn at once, and its URL pushed onto the browser's history (Back returns here).
        Params that are not part of the screen's URL (a sheet's tab) are remembered for its path."""
        path = format_route(name, **params)
        self._extras[path] = {k: v for k, v in params.items() if k not in BY_SCREEN[name].keys}
        self.open(path)

    def go_to(self, target: tuple[str, dict]) -> None:
        """`go` to a (screen, params) pair, as `scorer.pad.session.SheetPlace.route` names one."""
        name, params = target
        self.go(name, **params)

    def open(self, path: str, push: bool = True) -> None:
        """Show the screen at `path` (a route change, a link, Back); an unknown path shows "not found"."""
        path = normalise(path)
        moved = path != self.path
        self.path = path
        try:
            name, params = parse(path)
        except RouteError:
            name, params = "not_found", {"path": path}  # said when drawn: in the language of that moment
        self.route = (name, {**params, **self._extras.get(path, {})})
        if not (moved and self._back_down_to(path)):
            # The screens below the new one that are already drawn stay as they are (a keypad → the round's
            # summary keeps the sheet under both): a screen is drawn anew, or brings itself up to date, when
            # it comes back on top (`_back_down_to`), so only the Back gesture's glimpse of it may be stale.
            self.render()
        if push and path != self._browser_path:
            self._browser_path = path
            self._pushed.append(path)
            self.page.run_task(self._push_route, path)

    async def _push_route(self, path: str) -> None:
        with contextlib.suppress(Exception):  # a closed tab: nothing to tell
            await self.page.push_route(path)

    def start(self, route: str) -> None:
        """The first screen of a session: the page's own route (a pasted link, a QR code, a bookmark)."""
        self._browser_path = normalise(route)
        self.path = ""  # nothing shown yet
        self.open(route, push=False)

    def back(self) -> None:
        """The app bar's back arrow and Android's Back (a view pop): the screen below this one."""
        name, params = self.route
        up = parent(name, params) if name in BY_SCREEN else ("home", {})
        if up is not None:
            self.open(format_route(up[0], **up[1]))

    def on_route_change(self, e: ft.RouteChangeEvent) -> None:
        """The browser's Back / Forward, or a URL typed or pasted into this tab (and our own pushes, echoed)."""
        path = normalise(e.route)
        if self._pushed and path == self._pushed[0]:  # the browser confirming this tab's oldest push
            self._pushed.pop(0)
            return
        self._pushed.clear()  # the browser moved elsewhere: confirmations still due are moot
        self._browser_path = path
        if path != self.path:
            self.open(path, push=False)

    def on_view_pop(self, e: ft.ViewPopEvent) -> None:
        self.back()

    def render(self, rebuild_below: bool = False) -> None:
        """Draw the current route: its screen on top of its parents' screens. The screens below are drawn
        anew after a navigation (they may be stale) and reused when only the top one redraws (a tap)."""
        name, params = self.route
        below = chain(name, params)[:-1] if name in BY_SCREEN else [("home", {})]
        below_paths = [format_route(n, **p) for n, p in below]
        kept = {path: (view, shown) for path, view, shown in self._stack  # the top too: going up from it
                if not rebuild_below and path in below_paths}
        for path, _view, shown in self._stack:  # left (or drawn anew): release what it holds first
            if path not in kept and shown.on_leave is not None:
                shown.on_leave()
        top, found = self._build(name, params)
        if not found:
            below, below_paths = [("home", {})], ["/"]
        stack: list[tuple[str, ft.View, Screen]] = []
        for (below_name, below_params), path in zip(below, below_paths, strict=True):
            if path in kept:
                stack.append((path, *kept[path]))
                continue
            shown, ok = self._build(below_name, {**below_params, **self._extras.get(path, {})})
            if ok:
                stack.append((path, self._view(path, shown), shown))
        stack.append((self.path, self._view(self.path, top), top))
        self._stack = stack
        self._rendered_wide = self.wide
        self.page.views[:] = [view for _path, view, _shown in stack]
        self.page.update()

    def _back_down_to(self, path: str) -> bool:
        """Going back down the view stack to a screen that can bring itself up to date (`on_change`, e.g. the
        sheet under a keypad just saved): the screens above it leave, and it updates in place instead of
        every screen being drawn anew (on a phone at a table that is the difference between a patch of a few
        hundred bytes and a whole sheet). False when there is no such screen drawn with these params."""
        for depth, (below_path, _view, shown) in enumerate(self._stack[:-1]):
            if below_path != path:
                continue
            if shown.on_change is None or shown.drawn_with != self.route[1]:
                return False
            for _path, _gone_view, gone in self._stack[depth + 1:]:
                if gone.on_leave is not None:
                    gone.on_leave()
            self._stack = self._stack[:depth + 1]
            self.page.views[:] = [view for _path, view, _shown in self._stack]
            shown.on_change()
            self.page.update()
            return True
        return False

    def _build(self, name: str, params: dict) -> tuple[Screen, bool]:
        """The screen, and whether it is the one asked for (not "not found" or an error)."""
        try:
            if name == "not_found":
                try:
                    parse(params["path"])
                except RouteError as err:
                    return not_found(self, str(err)), False
            shown = SCREENS[name](self, **params)
            shown.drawn_with = params
            return shown, True
        except NotFound as err:
            return not_found(self, str(err)), False
        except Exception as err:  # a bug must not take the page down: every entry is already saved
            log.exception("screen %s failed", name)
            return Screen(_("Something went wrong"), ft.Container(ft.Column([
                ft.Text(f"{type(err).__name__}: {err}", selectable=True),
                ft.Text(_("Every accepted entry is saved; going home and resuming the game is safe.")),
                ft.FilledButton(_("Home"), on_click=lambda e: self.go("home"))], spacing=12), padding=16)), False

    def _view(self, path: str, shown: Screen) -> ft.View:
        back = None
        if path != "/":
            back = sem("back", icon_button(ft.Icons.ARROW_BACK, _("Back"), lambda e: self.back()))
        theme_button = sem("theme", icon_button(
            ft.Icons.DARK_MODE if self.page.theme_mode != ft.ThemeMode.DARK else ft.Icons.LIGHT_MODE,
            _("Light / dark theme"), lambda e: self.toggle_theme()))
        settings = ([self.language_menu(), text_size_menu(self.text_size, self.pick_text_size)] if path == "/"
                    else [])  # the home screen keeps the settings
        appbar = ft.AppBar(leading=back, automatically_imply_leading=False,
                           title=ft.Text(shown.title, weight=ft.FontWeight.BOLD),
                           actions=[*shown.actions, *settings, theme_button], center_title=False)
        body = shown.body
        # a desktop window: a centred phone-width column reads better than full width (but not the board)
        if self.wide and not shown.full_width:
            body = ft.Row([ft.Container(body, width=MAX_BODY_WIDTH)], alignment=ft.MainAxisAlignment.CENTER)
        return ft.View(route=path, appbar=appbar, controls=[ft.SafeArea(content=body)],
                       scroll=ft.ScrollMode.AUTO, padding=0)

    @property
    def wide(self) -> bool:
        return (self.page.width or 0) > MAX_BODY_WIDTH + 80

    def on_resize(self, e) -> None:
        if self.wide != self._rendered_wide:
            self.render(rebuild_below=True)

    def open_game(self, game_id: int) -> GameSession:
        """The score pad's game `game_id`, fresh from the store; NotFound when this device has no such game."""
        if self.session is None or self.session.game_id != game_id:
            try:
                row = self.store.game(game_id)
            except KeyError:
                raise NotFound(_("There is no game {game_id} on this device.").format(game_id=game_id)) from None
            if row.status not in PAD_GAME_STATUSES:
                raise NotFound(_("Game {game_id} is not a score pad game.").format(game_id=game_id))
            self.session = GameSession(self.store, game_id)
            self.session.listeners.append(self._announce)
        else:
            self.session.reload()  # another tab or phone may have written meanwhile
        return self.session

    # --- other tabs / phones on the same games -----------------------------------------------------------

    def _announce(self, state) -> None:
        with contextlib.suppress(Exception):
            self.page.pubsub.send_others_on_topic(GAMES_TOPIC, self.session.game_id)

    def sheet_changed(self, session, rounds_done_before: int) -> None:
        """A game's sheet screens (`scorer.pad.session.SheetSession`) changed on another device (a table's
        other seats, the host): every phone on its sheet goes to the round summary the moment a round
        closes; a screen showing the game is redrawn; an entry screen updates around what is typed."""
        name, params = self.route
        place = session.place
        if not place.shows(name, params):
            return
        state = session.state
        if state.rounds_done > rounds_done_before and name in (place.sheet, place.entry):
            self.go_to(place.route("summary", round_index=state.rounds_done - 1))  # it says the round closed
            return
        top = self._stack[-1][2] if self._stack else None
        if top is not None and top.on_change is not None:
            top.on_change()
        else:
            self.render()

    def on_game_changed(self, topic: str, game_id: int) -> None:
        """Another session wrote to a game: redraw if this tab is only looking at it."""
        name, params = self.route
        if name in LIVE_SCREENS and params.get("game_id", game_id) == game_id:
            self.render()

    # --- feedback --------------------------------------------------------------------------------------

    def toast(self, message: str, error: bool = False, update: bool = True) -> None:
        """A short message at the bottom. `update=False` when a navigation follows at once: its page update
        carries the message too (each page update diffs the whole page)."""
        self.page.show_dialog(ft.SnackBar(
            sem("toast", ft.Text(message)), bgcolor=ft.Colors.ERROR if error else None,
            duration=4000 if error else 2500))
        # show_dialog counts as an update, which turns off the handler's auto-update: push the rest too
        if update:
            self.page.update()

    # --- language ----------------------------------------------------------------------------------------

    async def settle_language(self) -> None:
        """This session's language: the one chosen on this device (the language switch), else the
        device's / browser's own (`fr-*` → French), else English. The first screen is drawn at once in
        English and redrawn when the answer differs; on a connection that never answers (a headless
        session), nothing changes."""
        chosen: str | None = None
        with contextlib.suppress(Exception):
            saved = await asyncio.wait_for(ft.SharedPreferences().get(LANGUAGE_KEY), LANGUAGE_ASK_SECONDS)
            chosen = saved if saved in LANGUAGES else None
        if chosen is None:
            with contextlib.suppress(Exception):
                info = await asyncio.wait_for(self.page.get_device_info(), LANGUAGE_ASK_SECONDS)
                if info is not None and info.locales:
                    locale = info.locales[0]
                    chosen = language_from_tag(locale.language_code)
        if chosen is not None and chosen != (self.language or DEFAULT_LANGUAGE):
            self.set_language(chosen)
        else:
            self.language = chosen or self.language

    def set_language(self, lang: str) -> None:
        """Speak `lang` in this session from now on (every screen redrawn)."""
        self.language = lang
        self.page.title = _(PAGE_TITLE)
        self.render(rebuild_below=True)

    async def choose_language(self, lang: str) -> None:
        """The language switch: `lang` kept on this device for its next visits, then spoken at once. The
        screens are redrawn only once the device has kept it (or has not answered in LANGUAGE_KEEP_SECONDS):
        a phone reloaded right after the redraw must not come back in the browser's language."""
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ft.SharedPreferences().set(LANGUAGE_KEY, lang), LANGUAGE_KEEP_SECONDS)
        self.set_language(lang)

    def language_menu(self) -> ft.Control:
        """The language switch: every language tourpad speaks, each named in itself; the choice is kept on
        this device and every screen is drawn anew in it."""
        current = self.language or DEFAULT_LANGUAGE
        items = [ft.PopupMenuItem(content=sem(f"language-{lang}", ft.Text(LANGUAGE_NAMES[lang])),
                                  checked=lang == current,
                                  on_click=lambda e, lang=lang: self.page.run_task(self.choose_language, lang))
                 for lang in LANGUAGES]
        return sem("language", menu_button(ft.Icons.TRANSLATE, _("Language"), items))

    async def settle_text_size(self) -> None:
        """The text size kept on this device, checked in its menu (the page itself applied it at load)."""
        saved = await saved_text_size()
        if saved != self.text_size:
            self.text_size = saved
            self.render()

    def pick_text_size(self, size: str) -> None:
        async def keep() -> None:
            self.text_size = size
            await keep_text_size(size)
            self.render()
        self.page.run_task(keep)

    def toggle_theme(self) -> None:
        self.page.theme_mode = (ft.ThemeMode.LIGHT if self.page.theme_mode == ft.ThemeMode.DARK
                                else ft.ThemeMode.DARK)
        self.render(rebuild_below=True)

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


def not_found(app: PadApp, message: str) -> Screen:
    """What a link to nothing shows: what is missing, and the way home."""
    return Screen(_("Not found"), ft.Container(ft.Column([
        sem("not-found", ft.Text(message, size=16)),
        ft.Text(_("It may have been deleted, or the link was mistyped."), color=ft.Colors.ON_SURFACE_VARIANT),
        ft.FilledButton(_("Home"), icon=ft.Icons.HOME, on_click=lambda e: app.go("home")),
    ], spacing=12, horizontal_alignment=ft.CrossAxisAlignment.STRETCH), padding=16))
