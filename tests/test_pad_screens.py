"""Every score-pad screen renders and its handlers work, with a real Flet session and no client.

The harness (a `Session` on an in-memory connection) follows the Flet 1.0.5 field notes; it uses Flet
internals, which is why flet is pinned.
"""

from __future__ import annotations

import asyncio
import concurrent.futures

import flet as ft
import msgpack
import pytest
from eventually import drawn, until
from flet.controls.base_control import BaseControl
from flet.messaging.connection import Connection
from flet.messaging.protocol import (
    MessageAction,
    configure_encode_object_for_msgpack,
)
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

from benchmarks.table_flet import PHONE_PAGE, register_session
from rules.editions import load_edition
from rules.record import GameRecord, score_record
from rules.scoring import drawn_pathways
from scorer.pad.game import CATEGORIES_MODE, GameSession
from scorer.pad.store import EventStore
from scorer.routes import BY_SCREEN, chain, format_route
from scorer.ui.app import GAMES_TOPIC, SCREENS
from scorer.ui.main import make_main


class RecordingConnection(Connection):
    """The client's side of a session, played by the test: it records nothing but acts as a browser does for
    navigation: a pushed route goes onto its history, and the page reports the route change."""

    def __init__(self, hub: PubSubHub | None = None) -> None:
        super().__init__()
        self.loop = asyncio.get_running_loop()
        self.executor = concurrent.futures.ThreadPoolExecutor(max_workers=2)
        self.pubsubhub = hub or PubSubHub(loop=self.loop, executor=self.executor)
        self.session: Session | None = None
        self.history: list[str] = []  # the browser's history for this tab, oldest first

    def send_message(self, message) -> None:
        # serialising records the snapshots the next diff is computed against
        encoder = configure_encode_object_for_msgpack(BaseControl)
        msgpack.packb([message.action, message.body], default=encoder)
        body = message.body
        if message.action == MessageAction.INVOKE_METHOD and body.name == "push_route":
            route = body.args["route"]
            self.history.append(route)
            self.loop.call_soon(self.session.handle_invoke_method_results, body.control_id, body.call_id, None, None)
            self.loop.create_task(self.route_changed(route))

    async def route_changed(self, route: str) -> None:
        page = self.session.page
        self.session.apply_patch(page._i, {"route": route})
        await self.session.dispatch_event(page._i, "route_change", {"route": route})

    async def go_back(self) -> None:
        """The browser's (or Android's) Back button."""
        self.history.pop()
        await self.route_changed(self.history[-1])


def run_session(scenario):
    """`asyncio.run(scenario())` on a thread of its own, returning what it returns: Playwright's sync API (the
    browser tests' browser, session-wide, in whichever worker random ordering puts them) keeps an event loop
    running on the main thread, where `asyncio.run` refuses to start."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, scenario()).result()


async def settle() -> None:
    """Let the browser's answers (route changes after a push) arrive."""
    for _ in range(3):
        await asyncio.sleep(0.005)


async def start(main, hub: PubSubHub | None = None):
    return await start_at(main, "/", hub)


async def start_at(main, route: str, hub: PubSubHub | None = None):
    """A new session opened at `route` (a pasted link, a bookmark, a reload after the server restarted)."""
    conn = RecordingConnection(hub)
    conn.history.append(route)
    conn.page_url = "http://127.0.0.1:8550"  # what a browser's connection reports
    session, page = await register_session(conn, main, route, PHONE_PAGE)
    return session, page, conn


def walk(control):
    yield control
    for attr in ("controls", "content", "actions", "leading", "title", "appbar", "icon", "_b"):  # _b: a component's
        value = getattr(control, attr, None)
        for child in value if isinstance(value, list) else [value]:
            if isinstance(child, BaseControl):
                yield from walk(child)


def top(page) -> ft.View:
    """The screen on show: the top of the view stack (the routes below it are the screens Back leads to)."""
    return page.views[-1]


def texts(page) -> list[str]:
    out = []
    for c in walk(top(page)):
        if isinstance(c, ft.Text) and c.value:
            out.append(c.value)
        elif isinstance(getattr(c, "content", None), str):
            out.append(c.content)
    return out


def find_button(page, label: str):
    for c in walk(top(page)):
        # the keypad's choices are outlined buttons, its keys plain boxes a tap reaches
        if isinstance(c, ft.Button | ft.OutlinedButton) or (isinstance(c, ft.Container) and c.on_click):
            shown = c.content.value if isinstance(c.content, ft.Text) else c.content
            if shown == label:
                return c
    raise LookupError(f"no button {label!r} on the page")


@pytest.fixture
def store(tmp_path):
    s = EventStore(tmp_path / "games.sqlite3")
    yield s
    s.close()


def test_every_screen_renders_and_the_keypad_works(store, isolated_data_dir):
    data_dir = isolated_data_dir
    async def run():
        session, page, _ = await start(make_main(lambda: store))
        app = page.data

        def go(name, **params):
            app.go(name, **params)
            assert "Something went wrong" not in texts(page), name
        assert "New game" in texts(page)
        game = GameSession.new(store, "australia", ["Ann", "Bob"])
        app.session = game
        go("new_game")
        go("history")
        go("sheet", game_id=game.game_id)
        assert "Round 1 of 4" in texts(page)
        go("entry", game_id=game.game_id, round_index=0, player=0)
        for letter in "ABCDEFG":
            await session.dispatch_event(find_button(page, letter)._i, "click", None)
        assert "Cards: ABCDEFG (7 of 7)" in texts(page)
        await session.dispatch_event(find_button(page, "A")._i, "click", None)
        assert "A is already your card #1 this round" in texts(page)
        await session.dispatch_event(find_button(page, "No activity")._i, "click", None)  # on purpose
        await session.dispatch_event(find_button(page, "Save round")._i, "click", None)
        assert game.state.entries[0][0]["cards"] == "ABCDEFG"
        assert "R1/4 · Bob" in texts(page)  # on to the next player
        await session.dispatch_event(find_button(page, "C")._i, "click", None)
        assert "C is already in Ann's cards this round" in texts(page)
        for letter in "HIJKLMN":
            await session.dispatch_event(find_button(page, letter)._i, "click", None)
        await session.dispatch_event(find_button(page, "No activity")._i, "click", None)
        await session.dispatch_event(find_button(page, "Save round")._i, "click", None)
        assert "Round 1 closed" in texts(page)
        for cards in (("OPQRSTU", "VWXYZ@#"), ("ABCDIJK", "EFGHLMN"), ("UVWXYZ@", "OPQRST#")):
            game.enter_letters(0, cards[0], None)
            game.enter_letters(1, cards[1], None)
        go("end", game_id=game.game_id)
        shown = texts(page)
        await session.dispatch_event(find_button(page, "Save JSON")._i, "click", None)
        await session.dispatch_event(find_button(page, "Save CSV")._i, "click", None)
        exports = data_dir / "exports"
        await until(lambda: len(list(exports.glob("tourpad-game-*"))) == 2,  # a page task writes them
                    "both exports written")
        record = GameRecord.model_validate_json((exports / f"tourpad-game-{game.game_id}.json").read_text())
        assert score_record(record, load_edition("australia")).totals == game.state.totals()
        assert (exports / f"tourpad-game-{game.game_id}.csv").read_text() == game.state.csv_text()
        assert any(t.endswith("wins!") or t == "Shared victory!" for t in shown)
        assert "Categories add up to the totals" in shown
        go("round_summary", game_id=game.game_id, round_index=3)
        cat_game = GameSession.new(store, "australia", ["Cy", "Di"], mode=CATEGORIES_MODE)
        app.session = cat_game
        go("entry", game_id=cat_game.game_id, round_index=0, player=0)  # the game's mode picks the form
        assert "Regions completed this round" in texts(page)
        await session.dispatch_event(find_button(page, "Save round")._i, "click", None)
        assert "Throw card number is missing" in texts(page)
        assert set(SCREENS) >= set(BY_SCREEN)  # every route has its screen

    run_session(run)


def identifiers(page) -> set[str]:
    return {c.identifier for c in walk(top(page)) if isinstance(c, ft.Semantics) and c.identifier}


async def sheet_of_a_new_game(store, edition_id: str):
    _session, page, _ = await start(make_main(lambda: store))
    app = page.data
    game = GameSession.new(store, edition_id, ["Ann", "Bob"])
    app.session = game
    app.go("sheet", game_id=game.game_id)
    return page, app, game


def town_map_label(page) -> str:
    return next(c for c in walk(top(page)) if isinstance(c, ft.Semantics) and c.identifier == "town-map-1").label


def test_usa_sheet_draws_the_town_map_and_buttons_show_pictograms(store):
    async def run():
        page, app, game = await sheet_of_a_new_game(store, "usa")
        assert {"town-map-1", "route-status-1"} <= identifiers(page)
        assert town_map_label(page) == "Town map: 0 pathways drawn"
        assert "pictogram-mail-box" in identifiers(page)  # the collection's reference on the sheet
        app.go("entry", game_id=game.game_id, round_index=0, player=0)
        edition = game.state.edition
        assert {f"pictogram-{'-'.join(i.name.casefold().split())}" for i in edition.choice.icons} <= identifiers(page)
        a, b = edition.route.edges[0]
        rest = [c.letter for c in edition.cards if c.index not in (a, b)]
        game.enter_letters(0, edition.cards[a].letter + edition.cards[b].letter + "".join(rest[:5]), None)
        game.enter_letters(1, "".join(rest[5:12]), None)
        app.go("sheet", game_id=game.game_id)
        drawn = drawn_pathways(edition, game.state.visited(0))
        assert (a, b) in drawn
        assert town_map_label(page) == f"Town map: {len(drawn)} pathways drawn"
        assert "Something went wrong" not in texts(page)

    run_session(run)


def test_australia_sheet_has_no_town_map(store):
    async def run():
        page, _app, _game = await sheet_of_a_new_game(store, "australia")
        assert "town-map-1" not in identifiers(page) and "pictogram-koalas" in identifiers(page)

    run_session(run)


def test_a_second_tab_sees_entries_live(store):
    """Two sessions (tabs, phones) on one game: a save in one redraws the other's sheet."""
    async def run():
        main = make_main(lambda: store)
        first, page_a, conn = await start(main)
        game = GameSession.new(store, "australia", ["Ann", "Bob"])
        page_a.data.go("sheet", game_id=game.game_id)
        _, page_b, _ = await start(main, hub=conn.pubsubhub)
        page_b.data.go("sheet", game_id=game.game_id)
        assert "Waiting for Ann, Bob" in texts(page_b)
        page_a.data.go("entry", game_id=game.game_id, round_index=0, player=0)
        for letter in "ABCDEFG":
            await first.dispatch_event(find_button(page_a, letter)._i, "click", None)
        await first.dispatch_event(find_button(page_a, "No activity")._i, "click", None)
        await first.dispatch_event(find_button(page_a, "Save round")._i, "click", None)
        await until(lambda: "Waiting for Bob" in texts(page_b),  # pubsub handlers run on the hub's executor
                    "the other tab shows Ann's round")
        assert "Waiting for Bob" in texts(page_b)

    run_session(run)


def test_the_sheet_follows_another_tabs_round_in_place(store):
    """The sheet is a component over the game: a round saved in another tab re-renders it, patching what
    changed; the buttons a tap may be aimed at (the tabs, the next player's Enter) are not replaced."""
    async def run():
        main = make_main(lambda: store)
        _, page_a, conn = await start(main)
        _, page_b, _ = await start(main, hub=conn.pubsubhub)
        game = GameSession.new(store, "australia", ["Ann", "Bob"])
        page_b.data.go("sheet", game_id=game.game_id)
        aimed = {name: hook(page_b, name)._i for name in ("tab-1", "tab-2", "enter-2")}
        game.enter_letters(0, "ABCDEFG", None)
        page_a.pubsub.send_others_on_topic(GAMES_TOPIC, game.game_id)
        await until(lambda: "Waiting for Bob" in texts(page_b),  # pubsub handlers run on the hub's executor
                    "the other tab shows Ann's round")
        assert "Waiting for Bob" in texts(page_b) and "Ann: entered" in texts(page_b)
        assert {name: hook(page_b, name)._i for name in aimed} == aimed
        assert hook(page_b, "undo").disabled is False  # the app bar's Undo: there is an entry to undo now

    run_session(run)


def test_a_tab_tap_shows_that_player_with_the_same_buttons(store):
    """A tap on a player's tab re-renders the sheet for that player: the tab tapped and the others are
    the ones first drawn (a quick second tap still lands), restyled; the route remembers the player."""
    async def run():
        game = GameSession.new(store, "australia", ["Ann", "Bob"])
        for ann, bob in (("ABCDEFG", "HIJKLMN"),):
            game.enter_letters(0, ann, None)
            game.enter_letters(1, bob, None)
        session, page, _conn = await start(make_main(lambda: store))
        app = page.data
        app.go("sheet", game_id=game.game_id)
        aimed = {name: hook(page, name)._i for name in ("tab-1", "tab-2", "enter-1", "enter-2")}
        await session.dispatch_event(aimed["tab-2"], "click", None)
        await settle()
        assert {name: hook(page, name)._i for name in aimed} == aimed
        assert hook(page, "tab-2").style.bgcolor == ft.Colors.PRIMARY and hook(page, "tab-1").style.bgcolor is None
        assert hook(page, "sheet-total-2").content.value == str(game.state.totals()[1])
        assert app.route == ("sheet", {"game_id": game.game_id, "player": 1})

    run_session(run)


def test_a_category_entrys_choice_keeps_the_buttons_a_tap_is_aimed_at(store):
    """By-category entry: a tap on a choice restyles the choice buttons; none is replaced (a quick second
    tap still lands on the button it was aimed at)."""
    async def run():
        game = GameSession.new(store, "australia", ["Cy", "Di"], mode=CATEGORIES_MODE)
        session, page, _conn = await start_at(make_main(lambda: store), f"/game/{game.game_id}/round/1/player/1")
        labels = ["No activity", *(icon.label for icon in game.state.edition.choice.icons)]
        aimed = {label: find_button(page, label)._i for label in labels}
        await session.dispatch_event(aimed[labels[1]], "click", None)
        await session.dispatch_event(aimed["No activity"], "click", None)
        assert {label: find_button(page, label)._i for label in labels} == aimed
        assert find_button(page, "No activity").style.bgcolor == ft.Colors.PRIMARY
        assert find_button(page, labels[1]).style.bgcolor is None

    run_session(run)


def test_home_follows_another_tabs_game_in_place(store):
    """Home is a component over this device's games: a game finished in another tab updates it live,
    patching what changed; no button a tap may be aimed at is replaced."""
    async def run():
        main = make_main(lambda: store)
        _, page_a, conn = await start(main)
        _, page_b, _ = await start(main, hub=conn.pubsubhub)
        new_game, history = find_button(page_b, "New game"), find_button(page_b, "History (0)")
        game = GameSession.new(store, "australia", ["Ann", "Bob"])
        for ann, bob in (("ABCDEFG", "HIJKLMN"), ("OPQRSTU", "VWXYZ@#"), ("ABCDIJK", "EFGHLMN"),
                         ("UVWXYZ@", "OPQRST#")):
            game.enter_letters(0, ann, None)
            game.enter_letters(1, bob, None)
        page_a.pubsub.send_others_on_topic(GAMES_TOPIC, game.game_id)
        await until(lambda: "History (1)" in texts(page_b),  # pubsub handlers run on the hub's executor
                    "the other tab counts the finished game")
        assert find_button(page_b, "History (1)")._i == history._i  # the same button, relabelled
        assert find_button(page_b, "New game")._i == new_game._i

    run_session(run)


def test_a_solo_tap_patches_the_table_in_place(store):
    """The solo game's screen is a component over its window's model: a card played patches the status
    and the hand; the status line and the app bar's Hint are the same controls, not drawn anew."""
    from scorer.solo.view import new_game

    async def run():
        game_id, _game = new_game(store, "australia", ["easy"], False)
        session, page, _ = await start_at(make_main(lambda: store), f"/solo/{game_id}")
        status, hint = hook(page, "solo-status"), hook(page, "solo-hint-button")
        assert status.value.startswith("Round 1 of 4: choose your Throw card")
        await session.dispatch_event(hook(page, "hand-0")._i, "click", None)
        await until(lambda: hook(page, "solo-step").value == "Card 2 of 7",  # re-rendered by the scheduler
                    "the solo screen moves to card 2")
        assert hook(page, "solo-step").value == "Card 2 of 7"
        assert hook(page, "solo-status")._i == status._i and hook(page, "solo-hint-button")._i == hint._i
        assert len([i for i in identifiers(page) if i.startswith("hand-")]) == 6

    run_session(run)


def test_the_solo_set_up_keeps_the_button_tapped(store):
    """The solo set-up form is a component over its choices: a tap restyles the buttons whose choice
    changed and shows or hides the bots' rows; the buttons tapped stay the same controls."""
    async def run():
        session, page, _ = await start_at(make_main(lambda: store), "/solo/new")
        one, three = hook(page, "bots-1"), hook(page, "bots-3")
        assert "bot-3-hard" in identifiers(page)
        await session.dispatch_event(one._i, "click", None)
        await until(lambda: "bot-3-hard" not in identifiers(page),  # re-rendered by the scheduler
                    "the third bot's row hidden")
        assert "bot-2-hard" not in identifiers(page)
        assert hook(page, "bots-1")._i == one._i and hook(page, "bots-3")._i == three._i
        assert hook(page, "bots-1").style is not None and hook(page, "bots-3").style is None

    run_session(run)


def hook(page, identifier: str):
    """The control under `ft.Semantics(identifier=...)` on the screen on show (app bar included)."""
    return next(c.content for c in walk(top(page)) if isinstance(c, ft.Semantics) and c.identifier == identifier)


def routes_of_views(page) -> list[str]:
    return [view.route for view in page.views]


def test_routes_drive_the_view_stack_and_back_pops_it(store):
    """Each screen is a URL: the stack is the route's parents; the browser's Back (a route change) and the
    app bar's arrow (a view pop) go to the screen below; an opened link starts on its screen."""
    async def run():
        game = GameSession.new(store, "australia", ["Ann", "Bob"])
        session, page, conn = await start(make_main(lambda: store))
        app = page.data
        sheet = f"/game/{game.game_id}"
        entry = f"/game/{game.game_id}/round/1/player/2"
        await session.dispatch_event(find_button(page, "Resume: Ann · Bob")._i, "click", None)
        await session.dispatch_event(find_button(page, "Enter Bob")._i, "click", None)
        await settle()
        assert conn.history == ["/", sheet, entry]
        assert routes_of_views(page) == ["/", sheet, entry] and "R1/4 · Bob" in texts(page)
        await conn.go_back()  # the browser's Back
        assert routes_of_views(page) == ["/", sheet] and "Round 1 of 4" in texts(page)
        # a tab switch redraws the sheet without a history entry (Back leaves the sheet, not the tab)
        await session.dispatch_event(hook(page, "tab-2")._i, "click", None)
        await settle()
        assert conn.history == ["/", sheet] and app.route == ("sheet", {"game_id": game.game_id, "player": 1})
        await conn.go_back()
        assert routes_of_views(page) == ["/"] and "New game" in texts(page)

        # the app bar's back arrow pops the view stack like Android's Back (a view pop), pushing the route below
        app.go("entry", game_id=game.game_id, round_index=0, player=1)
        await session.dispatch_event(page._i, "view_pop", {"route": entry})
        await settle()
        assert routes_of_views(page) == ["/", sheet] and conn.history[-1] == sheet
        await session.dispatch_event(hook(page, "back")._i, "click", None)
        await settle()
        assert routes_of_views(page) == ["/"] and conn.history[-1] == "/"
        await session.dispatch_event(page._i, "view_pop", {"route": "/"})  # Back at home: stays home
        assert routes_of_views(page) == ["/"] and "New game" in texts(page)

        # a pasted link (or a reload in a new session) opens its screen, with the game from the store
        game.enter_letters(0, "ABCDEFG", None)
        other, page_b, _ = await start_at(make_main(lambda: store), entry)
        assert routes_of_views(page_b) == ["/", sheet, entry] and "R1/4 · Bob" in texts(page_b)
        await other.dispatch_event(find_button(page_b, "C")._i, "click", None)
        assert "C is already in Ann's cards this round" in texts(page_b)

    run_session(run)


@pytest.mark.parametrize("route, message", [
    ("/game/99", "There is no game 99 on this device."),
    ("/game/1/round/3/player/1", "Game 1 has no round 3 entry for player 1 yet."),
    ("/game/1/round/1/player/3", "Game 1 has no round 1 entry for player 3 yet."),
    ("/game/1/round/5", "A game has 4 rounds, not 5."),
    ("/solo/1", "Game 1 is not a solo game."),
    ("/nowhere/at/all", "There is no screen at /nowhere/at/all"),
])
def test_a_route_to_nothing_says_not_found_with_a_way_home(store, route, message):
    async def run():
        GameSession.new(store, "australia", ["Ann", "Bob"])
        session, page, _ = await start_at(make_main(lambda: store), route)
        assert routes_of_views(page) == ["/", route]
        assert message in texts(page) and "Something went wrong" not in texts(page)
        await session.dispatch_event(find_button(page, "Home")._i, "click", None)
        assert routes_of_views(page) == ["/"] and "New game" in texts(page)

    run_session(run)


def test_the_views_are_the_routes_chain_whatever_the_way_there(store):
    """`page.views` is a function of the route: after any mix of links, Back (browser and app bar) and
    redraws, the views are the route's chain of parents, home first, and each view shows its own screen."""
    async def run():
        game = GameSession.new(store, "australia", ["Ann", "Bob"])
        session, page, conn = await start(make_main(lambda: store))
        app = page.data
        sheet = f"/game/{game.game_id}"
        summary = f"{sheet}/round/1"
        game.enter_letters(0, "ABCDEFG", None)
        game.enter_letters(1, "HIJKLMN", None)

        def expect(*routes: str) -> None:
            assert routes_of_views(page) == list(routes)
            assert [format_route(name, **params) for name, params in chain(*app.route)] == list(routes)

        app.go("round_summary", game_id=game.game_id, round_index=0)
        expect("/", sheet, summary)
        app.go("history")
        expect("/", "/history")
        await settle()
        await conn.go_back()
        expect("/", sheet, summary)
        app.render()  # a redraw of the screen on show keeps the chain
        expect("/", sheet, summary)
        await session.dispatch_event(page._i, "view_pop", {"route": summary})
        expect("/", sheet)
        app.go("end", game_id=game.game_id)
        expect("/", f"{sheet}/end")
        app.open("/game/99")  # nothing there: "not found" over home
        assert routes_of_views(page) == ["/", "/game/99"]

    run_session(run)


def test_two_quick_taps_stay_on_the_second_screen(store):
    """The browser echoes each pushed route back: the echo of the first of two quick taps must not take the
    tab back to the first screen, not even for a moment."""
    async def run():
        game = GameSession.new(store, "australia", ["Ann", "Bob"])
        _session, page, conn = await start(make_main(lambda: store))
        app = page.data
        shown: list[list[str]] = []
        render = app.render
        app.render = lambda *args, **kwargs: (render(*args, **kwargs), shown.append(routes_of_views(page)))
        app.go("sheet", game_id=game.game_id)
        app.go("entry", game_id=game.game_id, round_index=0, player=1)  # before the first echo came back
        await settle()
        entry = f"/game/{game.game_id}/round/1/player/2"
        assert conn.history == ["/", f"/game/{game.game_id}", entry]
        assert routes_of_views(page) == ["/", f"/game/{game.game_id}", entry] and "R1/4 · Bob" in texts(page)
        assert shown == [["/", f"/game/{game.game_id}"], ["/", f"/game/{game.game_id}", entry]]

    run_session(run)


def test_choosing_an_edition_keeps_the_buttons_a_tap_is_aimed_at(store):
    """The new-game form's choices are a component over a small model: a tap re-renders its row, patching the
    buttons whose look changed; no button (nor the row, nor a typed name) is replaced, so a second quick tap
    still lands on the button it was aimed at."""
    async def run():
        session, page, _conn = await start(make_main(lambda: store))
        app = page.data
        app.go("new_game")
        buttons = {label: find_button(page, label) for label in ("Australia", "Europe", "USA", "By category")}
        ids = {label: button._i for label, button in buttons.items()}
        name = next(c for c in walk(top(page)) if isinstance(c, ft.TextField))
        name.value = "Ann"  # as the browser reports what was typed
        await session.dispatch_event(ids["Europe"], "click", None)
        await session.dispatch_event(ids["By category"], "click", None)
        await settle()
        assert {label: find_button(page, label)._i for label in ids} == ids
        assert find_button(page, "Europe").style is not None and find_button(page, "Australia").style is None
        assert next(c for c in walk(top(page)) if isinstance(c, ft.TextField)).value == "Ann"
        await session.dispatch_event(find_button(page, "Start game")._i, "click", None)
        assert app.route[0] == "new_game"  # one name is not a game: refused, the form as it was
        assert find_button(page, "Europe")._i == ids["Europe"]
        second = [c for c in walk(top(page)) if isinstance(c, ft.TextField)][1]
        second.value = "Bob"
        await session.dispatch_event(find_button(page, "Start game")._i, "click", None)
        assert app.route[0] == "sheet"
        assert app.session.state.edition.id == "europe" and app.session.state.setup.mode == CATEGORIES_MODE

    run_session(run)


def test_letters_typed_survive_a_redraw_that_comes_before_their_change_event(store):
    """Bob types on his keypad while another seat's save re-renders it (at a table, the keypad's
    `Screen.on_change`). The phone has sent the field's new text, and the re-render comes before the text's
    change event is handled: nothing sent to the phone empties its field, and the change event still counts."""
    async def run():
        session, page, conn = await start(make_main(lambda: store))
        game = GameSession.new(store, "australia", ["Ann", "Bob"])
        page.data.go("entry", game_id=game.game_id, round_index=0, player=1)
        field = next(c for c in walk(top(page)) if isinstance(c, ft.TextField))
        sent = []
        conn.send_message = sent.append  # what the phone is sent from now on
        session.apply_patch(field._i, {"value": "HIJ"})  # the phone's text, its change event still on the way
        game.enter_letters(0, "ABCDEFG", None)
        page.data.session.reload()
        page.data.refresh()  # the keypad reads the game again: A to G are Ann's now
        await until(lambda: sent and drawn(page), "Bob's keypad re-rendered for Ann's round")
        assert sent, "the keypad was not re-rendered"
        assert session.index[field._i].value == "HIJ"  # the field as the phone has it: nothing sent replaced it
        assert "'value', ''" not in " ".join(str(m.body) for m in sent)
        assert hook(page, "entry-cards").value.startswith("Cards: HIJ (3 of 7)")  # drawn as typed
        await session.dispatch_event(field._i, "change", "HIJ")  # the change event, late: the same letters
        assert hook(page, "entry-cards").value.startswith("Cards: HIJ (3 of 7)")

    run_session(run)


def hidden_contents(page) -> list[str]:
    """The Semantics on show whose content is drawn hidden: Flet draws each as a red error box."""
    return [c.identifier or "?" for c in walk(top(page))
            if isinstance(c, ft.Semantics) and isinstance(c.content, ft.Control) and c.content.visible is False]


def test_a_hook_on_a_hidden_control_hides_the_hook_not_the_control():
    from scorer.ui.app import sem

    hook = sem("message", ft.Text("", visible=False))
    assert hook.visible is False and hook.content.visible is True
    assert sem("shown", ft.Text("hi")).visible is not False


def test_a_hook_on_an_expanding_control_expands_in_its_place():
    """A control cannot expand inside a wrapper that does not: the deck link's field once drew as a bare label
    with no box and no Open button beside it, and the keypad's Camera / Photo file buttons did not share the row."""
    from scorer.ui.app import sem

    assert sem("field", ft.TextField(expand=True)).expand is True
    assert sem("button", ft.OutlinedButton("Camera", expand=2)).expand == 2
    assert not sem("text", ft.Text("hi")).expand


@pytest.mark.parametrize(("edition_id", "phone", "beside"), [
    ("australia", 390, True), ("europe", 390, True), ("usa", 390, True),
    ("australia", 375, True), ("europe", 375, False),  # Europe's five Nordic keys: 92 + 5 × 54 > 351
    ("australia", 320, False), ("europe", 320, False), ("usa", 320, False)])
def test_a_regions_keys_stay_on_its_line_or_its_name_goes_above_them(edition_id, phone, beside):
    """On a 320 px phone the keypad's fourth key went under the first, beside nothing; each region's name now
    goes above its keys (as in larger text) wherever its name and keys would not fit on one line, and the keys
    are as wide as the line allows, never under 48 px."""
    from scorer.ui.entry import KEY_MIN, PAD, REGION_LABEL, key_size, most_in_a_region, names_beside_keys

    edition = load_edition(edition_id)
    usable = phone - PAD.left - PAD.right
    key = key_size(edition, usable)
    assert key >= KEY_MIN
    assert names_beside_keys(edition, key, usable) is beside
    if beside:  # what is laid out beside fits: the name, then each key after a 6 px gap
        assert REGION_LABEL + most_in_a_region(edition) * (6 + key) <= usable
    else:  # above: the keys alone fit
        assert most_in_a_region(edition) * key + (most_in_a_region(edition) - 1) * 6 <= usable
