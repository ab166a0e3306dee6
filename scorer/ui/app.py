"""The score pad's Flet shell: theme and the views drawn from the route (`main(page)` is in scorer.ui.main).

Every screen has a URL (`scorer/routes.py`). Screens are plain functions registered by name (`@screen("sheet")`)
that build a `Screen` from the app's state; the logic they show lives in `scorer.pad` (no Flet there).
Navigation is Flet's: `app.go(name, **params)` draws that screen and pushes its route onto the browser's history;
the browser's Back and Forward and a typed or pasted URL come back as route changes (`page.on_route_change`),
and the app bar's back arrow and Android's Back pop a view (`page.on_view_pop`). `page.views` is computed from
the route alone: its chain of parents (home, sheet, entry), so even a screen opened from a link has somewhere
to go back to; the app keeps no stack nor cache of its own: each view on show holds what drew it (to reuse).
A reload reattaches to the same server session (the same screen); a new session starts from the page's route.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

import flet as ft

from rules.i18n import DEFAULT_LANGUAGE, LANGUAGE_NAMES, LANGUAGES, language_from_tag
from scorer.locale import N_, _
from scorer.pad.game import GameSession
from scorer.pad.store import EventStore
from scorer.routes import BY_SCREEN, RouteError, chain, format_route, normalise, parent, parse
from scorer.ui.named import icon_button, menu_button
from scorer.ui.text_size import (
    DEFAULT_TEXT_SIZE,
    TEXT_SCALES,
    action_width,
    keep_text_size,
    own_text_scale,
    saved_text_size,
    scale_text,
    text_size_menu,
    title_fits,
)
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
    #: Called when the screen leaves the views on show, or is drawn anew (e.g. to release the wake lock).
    on_leave: Callable[[], None] | None = None
    #: Use the whole window even when it is wide (the table's big-screen board); else a phone-width column.
    full_width: bool = False
    #: Called when the game it shows changed on another device, instead of drawing the screen anew (an
    #: entry screen keeps what is typed and updates around it).
    on_change: Callable[[], None] | None = None


@dataclass
class Drawn:
    """A screen drawn for the route on show: which screen, with which params, and its view (whose `data`
    it is: the views on show are the only record of what is drawn, `PadApp.shown`)."""

    name: str
    params: dict
    screen: Screen
    view: ft.View


def drawn_as(name: str, params: dict, screen: Screen, view: ft.View) -> Drawn:
    """`view`, drawn for `screen` with `params`, remembering so (`PadApp.shown` reads it back)."""
    drawn = Drawn(name, params, screen, view)
    view.data = drawn
    return drawn


class BrowserHistory:
    """What this tab's browser shows in its address bar, and the routes pushed to it whose route change
    has not come back yet. A screen is drawn at once when opened (a tap answers without a round trip) and
    its route pushed after; the browser then echoes it back as a route change. An echo that comes after a
    later screen was opened (two quick taps) must not take the tab back to it: the pushes are confirmed in
    order, and any other route change is the browser moving (Back, Forward, a typed URL)."""

    def __init__(self) -> None:
        self.path = "/"
        self._unconfirmed: list[str] = []

    def shows(self, path: str) -> None:
        """The page's own route when a session starts."""
        self.path = path

    def push(self, path: str) -> bool:
        """The app opened `path`: whether the browser must be told (it shows something else)."""
        if path == self.path:
            return False
        self.path = path
        self._unconfirmed.append(path)
        return True

    def changed(self, path: str) -> str | None:
        """A route change from the browser: the path to show, or None for the echo of this tab's push."""
        if self._unconfirmed and path == self._unconfirmed[0]:
            self._unconfirmed.pop(0)
            return None
        self._unconfirmed.clear()  # the browser moved elsewhere: confirmations still due are moot
        self.path = path
        return path


class NotFound(Exception):
    """A well-formed route that names nothing here (a game not on this device, a round not reached yet): the
    screen says so, with a way home."""


SCREENS: dict[str, Callable[..., Screen]] = {}
#: Screens that only show a game, so another tab's change can redraw them (entry screens hold a draft).
LIVE_SCREENS = {"home", "history", "sheet", "round_summary", "end"}
GAMES_TOPIC = "tourpad-games"
PAD_GAME_STATUSES = ("playing", "finished")  # the store's other games are solo games (scorer/solo/view.py)


def screen(name: str) -> Callable[[Callable[..., Screen]], Callable[..., Screen]]:
    def register(builder: Callable[..., Screen]) -> Callable[..., Screen]:
        SCREENS[name] = builder
        return builder
    return register


#: A second tap on the same button this soon after the first is one tap made twice (a child's, or a thumb on a
#: slow phone), not a second request. A component keeps its buttons when it re-renders, so that second tap
#: reaches the same button: Duplicate would make a second copy, Remove seat remove another seat.
DOUBLE_TAP_SECONDS = 1.0
#: What `TapGuard` reads the time of a tap from (a test moves it on).
tap_clock = time.monotonic


class TapGuard:
    """Tells a button's double tap from a second request, for the buttons of one screen or list."""

    def __init__(self) -> None:
        self._taken: tuple[Hashable, float] | None = None  # the button of the latest tap taken, and when

    def again(self, button: Hashable) -> bool:
        """Whether this tap on `button` repeats the one just taken (to be ignored); else it is taken. Taps in a
        burst all count from the first, so a triple tap is one tap too."""
        now = tap_clock()
        if self._taken is not None and self._taken[0] == button and now - self._taken[1] < DOUBLE_TAP_SECONDS:
            return True
        self._taken = (button, now)
        return False


def sem(identifier: str, control: ft.Control) -> ft.Semantics:
    """A stable hook for tests and screen readers (rendered as flt-semantics-identifier). The wrapper takes the
    control's place in its row or column: it expands where the control asks to (a control cannot expand inside
    a wrapper that does not), and a control drawn hidden hides its wrapper instead (Flet draws a Semantics whose
    content is hidden as a red error box)."""
    hidden = control.visible is False
    control.visible = True
    return ft.Semantics(identifier=identifier, content=control, visible=not hidden, expand=control.expand)


def live_text(field: ft.Ref[ft.TextField]) -> str | None:
    """A component's text field's text as the phone last sent it; None before the field is drawn.

    A phone sends a field's new text ahead of its change event. A component that re-renders in between (a
    change made on another phone, a roster that grew) would draw the field from the text its model had before
    that event, and Flet would send that back: what was just typed would vanish from the phone. A redraw for
    such a change takes the field's text from here first."""
    control = field.current
    if control is None:
        return None
    with contextlib.suppress(RuntimeError):  # outside a session (a screen drawn alone): the control itself
        control = ft.context.page.session.index.get(control._i, control)
    return control.value or ""


def quiet() -> None:
    """In a handler of a screen drawn as a component (an `island`): the component patches itself; the update of
    the whole page after the handler would draw it anew instead (and every other screen's views with it).
    Outside a session (a screen built alone, as a test may) there is nothing to stop."""
    with contextlib.suppress(RuntimeError):
        ft.context.disable_auto_update()


def island(component: Callable[..., object], *args, **kwargs) -> ft.Control:
    """A component (`@ft.component`) placed in a screen drawn by hand: it renders itself again, alone, when an
    observable model among its args changes, and keeps its controls' identity from one render to the next
    (only what changed is sent). Why islands rather than `page.render_views` for the whole app: in Flet
    1.0.5 `render_views` turns the session's "components mode" on, which switches off the update after every
    event handler for the whole session, so every screen still drawn by hand would stop showing its own
    changes. An island needs the session's update scheduler, which `page.render` would start: `start_islands`.
    (`Renderer` is Flet's own, not exported: flet is pinned to 1.0.5.)"""
    from flet.components.component import Renderer

    try:
        app = ft.context.page.data
    except RuntimeError:  # drawn outside a session (a screen built alone, as a test may)
        app = None
    scale = app.own_text_scale if isinstance(app, PadApp) else 1.0
    if scale == 1:
        return Renderer().render(ft.memo(component), *args, **kwargs)
    # a window the app scales itself: what the component renders gets its text sizes scaled
    return Renderer().render(ft.memo(scaled_island), component.__component_impl__, scale, *args, **kwargs)


@ft.component
def scaled_island(render: Callable[..., ft.Control], scale: float, *args, **kwargs) -> ft.Control:
    """A component's render with its explicit text sizes `scale` times larger (`island`)."""
    return scale_text(render(*args, **kwargs), scale)


def start_islands(page: ft.Page) -> None:
    """Run the session's scheduler that re-renders components whose state changed (once per session)."""
    page.session.start_updates_scheduler()


def note(text: str, color=ft.Colors.TERTIARY) -> ft.Control:
    """A highlighted line (a bonus, a hint) with a star icon: the font has no ★ either."""
    return ft.Row([ft.Icon(ft.Icons.STAR, size=14, color=color),
                   ft.Text(text, size=13, color=color, expand=True)], spacing=4,
                  vertical_alignment=ft.CrossAxisAlignment.START)


class PadApp:
    """One browser tab / window: the route it shows (its views drawn from it), the open game, theme, messages."""

    def __init__(self, page: ft.Page, store: EventStore) -> None:
        self.page = page
        self.store = store
        self.session: GameSession | None = None
        #: The screen on top and its params (URL params plus any remembered for its path, e.g. a sheet's tab).
        self.route: tuple[str, dict] = ("home", {})
        self.path = "/"
        self._extras: dict[str, dict] = {}  # per path: the params that are not part of its URL
        self._browser = BrowserHistory()
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

    def remember(self, target: tuple[str, dict]) -> None:
        """A screen that showed a change of its own params itself (a sheet's tab): `target` (a screen and
        its params) is remembered as the route on show, nothing drawn; a target elsewhere is gone to."""
        name, params = target
        path = format_route(name, **params)
        if path != self.path or name != self.route[0]:
            self.go(name, **params)
            return
        self._extras[path] = {k: v for k, v in params.items() if k not in BY_SCREEN[name].keys}
        self.route = (name, {**params, **self._extras[path]})
        drawn = self.shown().get(path)
        if drawn is not None:
            drawn.params = self.route[1]

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
        self.render(moved=moved)
        if push and self._browser.push(path):
            self.page.run_task(self._push_route, path)

    async def _push_route(self, path: str) -> None:
        with contextlib.suppress(Exception):  # a closed tab: nothing to tell
            await self.page.push_route(path)

    def start(self, route: str) -> None:
        """The first screen of a session: the page's own route (a pasted link, a QR code, a bookmark)."""
        self._browser.shows(normalise(route))
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
        path = self._browser.changed(normalise(e.route))
        if path is not None and path != self.path:
            self.open(path, push=False)

    def on_view_pop(self, e: ft.ViewPopEvent) -> None:
        self.back()

    def render(self, rebuild_below: bool = False, moved: bool = False) -> None:
        """Draw the current route: `page.views` is its chain of screens (home first, this one on top), each
        a function of its path and params. A screen already drawn with the same params for this route is
        reused as it is (the sheet under a keypad: only the Back gesture's glimpse of it may be stale). After
        a navigation (`moved`), a reused screen coming back on top brings itself up to date in place
        (`on_change`: a patch of a few hundred bytes instead of a whole sheet) or is drawn anew; on a redraw
        (a tap) the top is drawn anew; `rebuild_below` (a new language, theme or width) draws every screen
        anew. Screens that leave release what they hold first (a table's host screen stops listening)."""
        name, params = self.route
        below = chain(name, params)[:-1] if name in BY_SCREEN else [("home", {})]
        wanted = [self._placed(n, p) for n, p in below]
        kept = {path: old for path, screen_name, screen_params in wanted
                if (old := self._reusable(path, screen_name, screen_params, rebuild_below)) is not None}
        old_top = self._reusable(self.path, name, params, rebuild_below)
        if moved and old_top is not None and old_top.screen.on_change is not None:
            kept[self.path] = old_top  # back down to it (it was drawn below): it updates itself in place
        for path, old in self.shown().items():
            if kept.get(path) is not old and old.screen.on_leave is not None:
                old.screen.on_leave()
        came_back = self.path in kept
        if came_back:
            top = kept[self.path]
        else:
            shown, found = self._build(name, params)
            if not found:
                wanted = [self._placed("home", {})]
            top = drawn_as(name, params, shown, self._view(self.path, shown))
        drawn: dict[str, Drawn] = {}
        for path, screen_name, screen_params in wanted:
            if path in kept:
                drawn[path] = kept[path]
                continue
            shown, ok = self._build(screen_name, screen_params)
            if ok:
                drawn[path] = drawn_as(screen_name, screen_params, shown, self._view(path, shown))
        drawn[self.path] = top
        for path, old in kept.items():  # kept for a chain a "not found" replaced
            if drawn.get(path) is not old and old.screen.on_leave is not None:
                old.screen.on_leave()
        self._rendered_wide = self.wide
        self.page.views[:] = [d.view for d in drawn.values()]
        if came_back:  # once it is on top: bringing itself up to date may mean drawing itself anew
            top.screen.on_change()
        self.page.update()

    def _placed(self, name: str, params: dict) -> tuple[str, str, dict]:
        """(path, screen, params) of a screen under the one on show, with the params remembered for it."""
        path = format_route(name, **params)
        return path, name, {**params, **self._extras.get(path, {})}

    def shown(self) -> dict[str, Drawn]:
        """The screens on show, by path: Flet's views (the route's chain, home first), each holding what drew
        it. What `render` may reuse: a screen keeps its controls while its path and params stay on show."""
        return {view.route: view.data for view in self.page.views if isinstance(view.data, Drawn)}

    def _reusable(self, path: str, name: str, params: dict, rebuild: bool) -> Drawn | None:
        """The screen drawn last at `path`, if it shows the same screen with the same params."""
        old = self.shown().get(path)
        if rebuild or old is None or old.name != name or old.params != params:
            return None
        return old

    def _build(self, name: str, params: dict) -> tuple[Screen, bool]:
        """The screen, and whether it is the one asked for (not "not found" or an error)."""
        try:
            if name == "not_found":
                try:
                    parse(params["path"])
                except RouteError as err:
                    return not_found(self, str(err)), False
            return SCREENS[name](self, **params), True
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
        actions = [*shown.actions, *settings, theme_button]
        scale = TEXT_SCALES[self.text_size]
        scale_text(shown.body, self.own_text_scale)  # a window with no page to scale: the app scales its text
        scale_text(shown.actions, self.own_text_scale)
        title = sem("screen-title", ft.Text(shown.title, theme_style=ft.TextThemeStyle.TITLE_LARGE,
                                            weight=ft.FontWeight.BOLD))
        body = shown.body
        if not title_fits(shown.title, self.page.width or MAX_BODY_WIDTH, scale, back is not None,
                          sum(action_width(a, scale) for a in actions), capped=self.own_text_scale == 1):
            # the app bar would cut it short ("Table 9GWU-VNN8 · …" on a phone, large text): the title
            # heads the screen instead, where it wraps
            body = ft.Column([ft.Container(ft.Semantics(header=True, content=title),
                                           padding=ft.Padding.only(left=16, right=16, top=12)), body],
                             spacing=0, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
            title = None
        appbar = ft.AppBar(leading=back, automatically_imply_leading=False, title=title, actions=actions,
                           center_title=False)
        # a desktop window: a centred phone-width column reads better than full width (but not the board)
        if self.wide and not shown.full_width:
            body = ft.Row([ft.Container(body, width=MAX_BODY_WIDTH)], alignment=ft.MainAxisAlignment.CENTER)
        return ft.View(route=path, appbar=appbar, controls=[ft.SafeArea(content=body)],
                       scroll=ft.ScrollMode.AUTO, padding=0)

    @property
    def own_text_scale(self) -> float:
        """The text scale the app applies itself (a desktop window; a browser scales the page itself)."""
        return own_text_scale(self.page, self.text_size)

    def show_text_size(self, size: str) -> None:
        """Draw every screen at text size `size`; a window the app scales itself gets its theme scaled too."""
        self.text_size = size
        if self.page.web:
            self.render()  # the page's script scaled the text: the menu's check mark moves
            return
        self.page.theme = build_theme(False, self.own_text_scale)
        self.page.dark_theme = build_theme(True, self.own_text_scale)
        self.render(rebuild_below=True)

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
        self.refresh()

    def refresh(self) -> None:
        """The screen on show brought up to date with what changed under it: in place when it can
        (`Screen.on_change`: a component's model read again, only what changed patched), else drawn anew."""
        top = self.shown().get(self.path)
        if top is not None and top.screen.on_change is not None:
            top.screen.on_change()
        else:
            self.render()

    def on_game_changed(self, topic: str, game_id: int) -> None:
        """Another session wrote to a game: bring this tab up to date if it is only looking at it. Called
        on a worker thread (pubsub): the screen's components re-render on the session's loop."""
        name, params = self.route
        if name in LIVE_SCREENS and params.get("game_id", game_id) == game_id:
            self.page.run_task(self._game_changed, game_id)

    async def _game_changed(self, game_id: int) -> None:
        if self.session is not None and self.session.game_id == game_id:
            self.session.reload()  # what the other session wrote
        self.refresh()

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
            self.show_text_size(saved)

    def pick_text_size(self, size: str) -> None:
        async def keep() -> None:
            self.text_size = size
            await keep_text_size(size)
            self.show_text_size(size)
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
