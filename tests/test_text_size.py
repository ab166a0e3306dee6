"""The text-size setting: the home screen's menu offers normal, large and largest, the device keeps the choice
(as it keeps the language), its next visit starts with it, and every page the app serves carries the script
that turns the stored choice into the page's text scale (what Flutter's web client reads)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json

import flet as ft
from eventually import drawn, until
from flet.pubsub.pubsub_hub import PubSubHub
from test_language_switch import Device, device, settled, store  # noqa: F401  (fixtures)
from test_pad_screens import run_session, start_at, top, walk

from benchmarks.table_flet import HeadlessPhone, register_session
from rules import wording
from scorer.pad.store import EventStore
from scorer.ui.main import make_main
from scorer.ui.text_size import PAGE_SCRIPT, TEXT_SIZE_KEY, TEXT_SIZES, PageScriptMiddleware


def size_items(page) -> dict[str, ft.PopupMenuItem]:
    """The text-size menu on the screen on top: each item by its identifier's size."""
    for action in page.views[-1].appbar.actions:
        if isinstance(action, ft.Semantics) and action.identifier == "text-size":
            return {item.content.identifier.removeprefix("text-size-"): item for item in action.content.items}
    raise LookupError("no text-size menu on this screen")


def test_the_menu_keeps_the_size_on_the_device_for_its_next_visit(store, device):  # noqa: F811
    async def run():
        session, page, _ = await start_at(make_main(lambda: store), "/")
        await settled(page, session)
        items = size_items(page)
        assert list(items) == ["normal", "large", "largest"]
        assert [item.content.content.value for item in items.values()] == ["Normal text", "Large text",
                                                                           "Largest text"]
        assert items["normal"].checked and not items["largest"].checked

        await session.dispatch_event(items["largest"]._i, "click", None)
        await settled(page, session)
        assert device == {TEXT_SIZE_KEY: "largest"}
        assert page.data.text_size == "largest" and size_items(page)["largest"].checked

        session2, page2, _ = await start_at(make_main(lambda: store), "/")
        await settled(page2, session2)
        assert page2.data.text_size == "largest" and size_items(page2)["largest"].checked
    run_session(run)


def test_an_unknown_stored_size_is_the_normal_one(store, device):  # noqa: F811
    Device.storage[TEXT_SIZE_KEY] = "huge"

    async def run():
        session, page, _ = await start_at(make_main(lambda: store), "/")
        await settled(page, session)
        assert page.data.text_size == "normal" and size_items(page)["normal"].checked
    run_session(run)


def serve(body: bytes, content_type: bytes, method: str = "GET", status: int = 200) -> tuple[dict, bytes]:
    """`body` answered by an app in two chunks, through the middleware: (headers, body) as sent."""
    async def app(scope, receive, send):
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", content_type), (b"content-length", str(len(body)).encode())]})
        half = len(body) // 2
        await send({"type": "http.response.body", "body": body[:half], "more_body": True})
        await send({"type": "http.response.body", "body": body[half:]})

    sent: list[dict] = []

    async def send(message):
        sent.append(message)

    run_session(lambda: PageScriptMiddleware(app)({"type": "http", "method": method}, None, send))
    headers = dict(sent[0]["headers"])
    return headers, b"".join(m.get("body", b"") for m in sent[1:])


def test_every_served_page_carries_the_script_once_with_its_length() -> None:
    page = b"<html><head><title>tourpad</title></head><body></body></html>"
    headers, body = serve(page, b"text/html; charset=utf-8")
    assert body.count(b"tourpad's text size") == 1
    assert body.index(b"tourpad's text size") < body.index(b"</head>")
    assert int(headers[b"content-length"]) == len(body) == len(page) + len(PAGE_SCRIPT.encode())


def test_other_answers_pass_as_they_are() -> None:
    data = b'{"a": "</head>"}'
    assert serve(data, b"application/json")[1] == data
    assert serve(b"<head></head>", b"text/html", method="HEAD")[1] == b"<head></head>"
    assert serve(b"<head></head>", b"text/html", status=404)[1] == b"<head></head>"


def test_the_script_reads_the_key_the_app_stores_and_scales_from_the_browsers_default() -> None:
    assert f'"flutter.{TEXT_SIZE_KEY}"' in PAGE_SCRIPT  # shared_preferences' key in a browser's localStorage
    assert json.dumps(TEXT_SIZES) in PAGE_SCRIPT
    assert TEXT_SIZES["normal"] == 16  # the browser's default: Flutter's text scale 1
    assert TEXT_SIZES["normal"] < TEXT_SIZES["large"] < TEXT_SIZES["largest"]



async def desktop_window(games: EventStore, route: str, storage: dict) -> tuple[HeadlessPhone, ft.Page]:
    """A desktop app's window (no browser page whose text a script could scale) at `route`, its device's
    storage `storage`, once the saved text size is applied: (its connection, its page). The caller keeps the
    connection for as long as it uses the page: a session whose connection is collected is destroyed."""
    executor = concurrent.futures.ThreadPoolExecutor(max_workers=2)
    connection = HeadlessPhone(storage)
    connection.loop = asyncio.get_running_loop()
    connection.executor = executor
    connection.pubsubhub = PubSubHub(loop=connection.loop, executor=executor)
    _session, page = await register_session(connection, make_main(lambda: games), route,
                                            {"width": 1280, "height": 800, "platform": "linux", "web": False})
    await until(lambda: page.data.text_size == storage.get(TEXT_SIZE_KEY, "normal") and drawn(page),
                "the saved text size applied")
    return connection, page


def variant_effect(page) -> ft.Text:
    return next(c for c in walk(top(page)) if isinstance(c, ft.Text) and c.value == wording.direction_variant_effect())


def test_a_desktop_window_scales_its_own_text(store):  # noqa: F811
    """A desktop window has no page for the script to scale: the app scales its theme's text styles and
    every explicit text size on its screens itself, and back when the size is set to normal again."""
    async def run():
        _window, page = await desktop_window(store, "/new", {TEXT_SIZE_KEY: "largest"})
        assert page.theme.text_theme.body_medium.size == 21 and page.dark_theme.text_theme.title_large.size == 33
        assert variant_effect(page).size == 13 * 1.5
        page.data.pick_text_size("normal")
        await until(lambda: page.theme.text_theme is None and drawn(page), "the normal size applied")
        assert variant_effect(page).size == 13

    run_session(run)


def test_the_keypad_keeps_its_words_whole_at_the_largest_size_on_a_320_px_phone(store):  # noqa: F811
    """At the largest text size on a 320 px phone, no word of the keypad's is set in a box narrower than the
    word (Flutter would break it mid-word: "Thro / w", "Queenslan / d"), in English or in French."""
    from rules.i18n import use_language
    from scorer.pad.game import GameSession
    from scorer.ui.app import LANGUAGE_KEY
    from scorer.ui.text_size import LETTER_EM, TEXT_SCALES

    scale = TEXT_SCALES["largest"]

    def keypad(control):
        """The entry screen's controls but its points this round (a table whose label column fits its
        words in Roboto, which the estimate below, a bold title's letter width, overstates)."""
        if isinstance(control, ft.Semantics) and control.identifier == "entry-lines":
            return
        yield control
        for attr in ("controls", "content", "_b"):
            value = getattr(control, attr, None)
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, ft.Control):
                    yield from keypad(child)

    def too_narrow(page) -> list[str]:
        found = []
        for c in keypad(top(page)):
            text, room = None, None
            if isinstance(c, ft.Text) and c.width:
                text, room = c, c.width
            elif isinstance(c, ft.Container) and c.width and isinstance(c.content, ft.Text):
                padding = c.padding.left + c.padding.right if isinstance(c.padding, ft.Padding) else 0
                text, room = c.content, c.width - padding
            if text is None or not isinstance(text.value, str) or not text.value.strip():
                continue
            longest = max(text.value.split(), key=len)
            if len(longest) * LETTER_EM * (text.size or 14) * scale > room:
                found.append(f"{longest!r} in {room} px")
        return found

    async def run():
        executor = concurrent.futures.ThreadPoolExecutor(max_workers=2)
        hub = PubSubHub(loop=asyncio.get_running_loop(), executor=executor)
        for game_id, language in ((australia.game_id, "en"), (europe.game_id, "fr")):
            connection = HeadlessPhone({TEXT_SIZE_KEY: "largest", LANGUAGE_KEY: language})
            connection.loop, connection.executor, connection.pubsubhub = asyncio.get_running_loop(), executor, hub
            _session, page = await register_session(connection, make_main(lambda: store),
                                                    f"/game/{game_id}/round/1/player/1",
                                                    {"width": 320, "height": 640, "platform": "android", "web": True})
            await until(lambda page=page, language=language: page.data.text_size == "largest"
                        and (page.data.language or "en") == language and drawn(page),
                        f"the largest text size applied in {language}")
            with use_language(language):
                assert too_narrow(page) == [], language

    australia = GameSession.new(store, "australia", ["Ann", "Bob"])
    europe = GameSession.new(store, "europe", ["Ann", "Bob"])
    run_session(run)
