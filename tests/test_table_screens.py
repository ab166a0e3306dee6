"""The table's host screen is a component over a small model (`scorer.ui.table.TablePlace`), in a real Flet
session with no client (the harness of test_pad_screens): a tap or a phone's change at the table re-renders
it, patching what changed; no button a tap is aimed at is replaced, and what the host typed stays typed."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json

import flet as ft
from eventually import drawn, until
from flet.pubsub.pubsub_hub import PubSubHub
from test_pad_screens import find_button, hidden_contents, run_session, texts, top, walk

from benchmarks import table_flet
from scorer.ui import table as table_ui
from scorer.ui.main import make_main


def name_field(page) -> ft.TextField:
    return next(c for c in walk(top(page)) if isinstance(c, ft.TextField) and c.label == "Player's name")


@contextlib.asynccontextmanager
async def host_screen(hosting, seats: int = 3):
    """A table's host screen on the host's phone, its roster drawn: (code, session, page)."""
    service, store = hosting
    code, host_token = service.create_table("australia", seats, credential=service.host_credential)
    storage = {table_ui.PREFS_PREFIX + code: json.dumps({"token": host_token, "seat": None}),
               table_ui.LAST_TABLE_KEY: code}
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as executor:
        hub = PubSubHub(loop=asyncio.get_running_loop(), executor=executor)
        phone, page = await table_flet.open_phone(make_main(lambda: store), f"/table/{code}/host", storage,
                                                  hub, executor)
        await until(lambda: any(t.startswith("1: seat 1") for t in texts(page)), "its roster")
        try:
            yield code, phone.session, page
        finally:
            page.data.table_screens.close()


def test_the_host_screen_patches_itself_and_keeps_what_a_tap_is_aimed_at(hosting):
    service, _store = hosting

    async def run():
        async with host_screen(hosting) as (code, session, page):
            labels = ("Close joining", "Remove seat", "Seat player", "End game", "Export record")
            ids = {label: find_button(page, label)._i for label in labels}
            field = name_field(page)
            session.apply_patch(field._i, {"value": "Max"})  # the host types, as the browser reports it
            await session.dispatch_event(field._i, "change", "Max")

            service.claim_seat(code, 2, "Ann")  # a phone takes seat 2: the screen follows, live
            await until(lambda: any(t.startswith("2: Ann") for t in texts(page)), "Ann in seat 2")
            assert name_field(page)._i == field._i and name_field(page).value == "Max"

            await session.dispatch_event(ids["Close joining"], "click", None)
            await until(lambda: "The table is closed to new players" in texts(page), "joining closed")
            assert find_button(page, "Open joining")._i == ids["Close joining"]  # the same button, relabelled
            assert name_field(page).value == "Max"

            await session.dispatch_event(ids["Seat player"], "click", None)
            await until(lambda: any(t.startswith("Seat 1 is Max's") for t in texts(page)), "Max seated")
            assert name_field(page)._i == field._i and name_field(page).value == ""  # seated: the field empties
            assert any(t.startswith("1: Max") for t in texts(page))
            assert {label: find_button(page, "Open joining" if label == "Close joining" else label)._i
                    for label in labels} == ids

    run_session(run)


def test_a_name_typed_as_another_phone_takes_a_seat_is_kept(hosting):
    """The host types a name; the phone has sent the text, and its change event is still on the way when
    another phone takes a seat and the screen re-renders for it. The name stays in the field (nothing sent
    empties it), and Seat player seats it."""
    service, _store = hosting

    async def run():
        async with host_screen(hosting) as (code, session, page):
            field = name_field(page)
            session.apply_patch(field._i, {"value": "Max"})  # typed: the change event is not handled yet
            service.claim_seat(code, 2, "Ann")  # meanwhile a phone takes seat 2: the screen follows, live
            await until(lambda: any(t.startswith("2: Ann") for t in texts(page)) and drawn(page), "Ann in seat 2")
            assert session.index[field._i].value == "Max"
            await session.dispatch_event(field._i, "change", "Max")  # the change event, late
            await session.dispatch_event(find_button(page, "Seat player")._i, "click", None)
            await until(lambda: any(t.startswith("Seat 1 is Max's") for t in texts(page)), "Max seated")

    run_session(run)


def test_a_desktop_window_scales_the_board_a_component_draws(hosting):
    """The board is a component: in a desktop window at the largest text size, what it renders (at the
    first draw and after each change at the table) has its type scaled by the app; a phone's board is
    drawn in type sized to be read in hand."""
    from eventually import drawn
    from test_text_size import desktop_window

    from scorer.ui.table_board import ACROSS_THE_ROOM, IN_HAND
    from scorer.ui.text_size import TEXT_SIZE_KEY

    service, store = hosting
    code, _ = service.create_table("australia", 2, credential=service.host_credential)

    def status(page) -> ft.Text:
        return next(c.content for c in walk(top(page)) if isinstance(c, ft.Semantics)
                    and c.identifier == "board-status")

    async def run():
        _window, page = await desktop_window(store, f"/table/{code}/board", {TEXT_SIZE_KEY: "largest"})
        await until(lambda: status(page).value.startswith("Round 1") and drawn(page), "the board's round")
        assert status(page).size == ACROSS_THE_ROOM.big * 1.5
        service.claim_seat(code, 1, "Ann")
        await until(lambda: "Ann" in status(page).value and drawn(page), "Ann on the board")
        assert status(page).size == ACROSS_THE_ROOM.big * 1.5
        _phone, phone_page = await table_flet.open_phone(make_main(lambda: store), f"/table/{code}/board", {},
                                                        page.session.connection.pubsubhub,
                                                        page.session.connection.executor)
        assert status(phone_page).size == IN_HAND.big  # the browser scales it: the app does not

    run_session(run)


def test_the_host_screen_draws_no_error_box_before_a_record_is_exported(hosting):
    async def run():
        async with host_screen(hosting) as (_code, _session, page):
            assert hidden_contents(page) == []

    run_session(run)


def test_the_host_screens_seat_picker_reads_in_french(hosting):
    """The host's seat picker names each seat as the language writes it: « 2 : Ann » in French (a space before
    the colon), as every other line of the table's screens."""
    service, _store = hosting

    async def run():
        async with host_screen(hosting) as (code, _session, page):
            page.data.set_language("fr")
            service.claim_seat(code, 2, "Ann")
            await until(lambda: drawn(page) and any(t.startswith("2\u00a0: Ann") for t in texts(page)), "Ann in seat 2")

            def options() -> list[str]:
                picks = [c for c in walk(top(page)) if isinstance(c, ft.Dropdown) and c.options
                         and all(o.key.isdigit() for o in c.options)]
                return [o.text for pick in picks for o in pick.options]

            await until(lambda: "2\u00a0: Ann" in options(), "the picker's French")
            assert all("\u00a0: " in text for text in options()), options()

    run_session(run)


def test_a_double_tap_on_remove_seat_removes_one_seat(hosting, monkeypatch):
    """A child taps Remove seat twice: one seat goes. The screen keeps its buttons when it re-renders and the
    seat picker goes back to seat 1 after a removal, so the second tap, taken as a request, would remove seat 1
    too. A tap a moment later is a second request, and does."""
    import scorer.ui.app as app_ui

    service, _store = hosting
    now = [100.0]
    monkeypatch.setattr(app_ui, "tap_clock", lambda: now[0])

    async def run():
        async with host_screen(hosting, seats=4) as (code, session, page):
            service.claim_seat(code, 1, "Ann")
            await until(lambda: any(t.startswith("1: Ann") for t in texts(page)), "Ann in seat 1")
            [pick] = [c for c in walk(top(page)) if isinstance(c, ft.Dropdown) and c.options
                      and all(o.key.isdigit() for o in c.options)]
            session.apply_patch(pick._i, {"value": "4"})
            await session.dispatch_event(pick._i, "select", "4")
            remove = find_button(page, "Remove seat")._i
            await session.dispatch_event(remove, "click", None)
            now[0] += 0.3
            await session.dispatch_event(remove, "click", None)
            await until(lambda: drawn(page) and len(service.view(code)["seats"]) == 3, "seat 4 removed")
            assert service.view(code)["seats"][0]["name"] == "Ann"
            now[0] += app_ui.DOUBLE_TAP_SECONDS
            await session.dispatch_event(find_button(page, "Remove seat")._i, "click", None)
            await until(lambda: len(service.view(code)["seats"]) == 2, "a second request: seat 1 removed")

    run_session(run)
