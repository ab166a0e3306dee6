"""The app's language switch, in a real Flet session with no client: the home screen's menu names every
language in itself, the choice is kept on the device (the browser's storage / the phone's prefs), every
screen is drawn anew in it at once, and the device's next visit starts in it."""

from __future__ import annotations

from types import SimpleNamespace
from typing import ClassVar

import flet as ft
import pytest
import test_pad_screens
from flet.messaging.protocol import MessageAction
from test_pad_screens import RecordingConnection, run_session, start_at, texts

from rules.i18n import LANGUAGE_NAMES
from scorer.pad.store import EventStore
from scorer.ui.app import LANGUAGE_KEY
from scorer.ui.main import make_main


class Device(RecordingConnection):
    """A browser whose storage (`ft.SharedPreferences`) outlives its sessions; it knows no locale (the
    device-info call is refused), so only a choice made with the switch decides."""

    storage: ClassVar[dict[str, object]] = {}

    def send_message(self, message) -> None:
        super().send_message(message)
        body = message.body
        if message.action != MessageAction.INVOKE_METHOD or body.name == "push_route":
            return
        result, error = None, None
        if body.name == "set":
            self.storage[body.args["key"]] = body.args["value"]
            result = True
        elif body.name == "get":
            result = self.storage.get(body.args["key"])
        else:
            error = f"{body.name} is not offered by this test device"
        self.loop.call_soon(self.session.handle_invoke_method_results, body.control_id, body.call_id, result, error)


@pytest.fixture
def device(monkeypatch):
    Device.storage = {}
    monkeypatch.setattr(test_pad_screens, "RecordingConnection", Device)
    return Device.storage


@pytest.fixture
def store(tmp_path):
    s = EventStore(tmp_path / "games.sqlite3")
    yield s
    s.close()


def language_items(page) -> dict[str, ft.PopupMenuItem]:
    """The switch's menu on the screen on top: each item by the name it shows."""
    for action in page.views[-1].appbar.actions:
        if isinstance(action, ft.Semantics) and action.identifier == "language":
            return {item.content.content.value: item for item in action.content.items}
    raise LookupError("no language switch on this screen")


async def settled(page, session) -> None:
    """Let the session's start-up task (asking the device for its language) finish."""
    for _ in range(10):
        await test_pad_screens.settle()
    await session.after_event(page)


def test_the_switch_redraws_every_screen_in_french_and_the_device_keeps_it(store, device):
    async def run():
        session, page, _ = await start_at(make_main(lambda: store), "/")
        await settled(page, session)
        app = page.data
        assert "New game" in texts(page)
        items = language_items(page)
        assert set(items) == set(LANGUAGE_NAMES.values()) == {"English", "Français"}
        assert items["English"].checked and not items["Français"].checked

        await session.dispatch_event(items["Français"]._i, "click", None)
        await settled(page, session)
        assert app.language == "fr"
        assert device == {LANGUAGE_KEY: "fr"}
        shown = texts(page)
        assert "Nouvelle partie" in shown and "New game" not in shown
        assert "Jouer en solo" in shown and "Vérifier un périple" in shown
        assert page.title == "tourpad, carnet de score"
        assert language_items(page)["Français"].checked

        app.go("solo_setup")  # the next screen, and the home screen under it, speak French too
        assert "Commencer la partie solo" in texts(page)
        assert page.views[0].route == "/" and "Nouvelle partie" in texts(SimpleNamespace(views=page.views[:1]))

        # the same device's next visit starts in French, without asking again
        session2, page2, _ = await start_at(make_main(lambda: store), "/")
        await settled(page2, session2)
        assert page2.data.language == "fr"
        assert "Nouvelle partie" in texts(page2)

        # and the switch changes it back
        await session2.dispatch_event(language_items(page2)["English"]._i, "click", None)
        await settled(page2, session2)
        assert "New game" in texts(page2) and device == {LANGUAGE_KEY: "en"}
    run_session(run)


class SlowDevice(Device):
    """A browser that keeps what it is asked to keep but answers only when the test lets it."""

    held: ClassVar[list] = []

    def send_message(self, message) -> None:
        body = message.body
        if message.action == MessageAction.INVOKE_METHOD and body.name == "set":
            RecordingConnection.send_message(self, message)
            self.storage[body.args["key"]] = body.args["value"]
            self.held.append(lambda: self.session.handle_invoke_method_results(body.control_id, body.call_id,
                                                                                 True, None))
            return
        super().send_message(message)


def test_the_switch_redraws_only_once_the_device_has_kept_the_choice(store, monkeypatch):
    """A phone reloaded right after the screen turned French must come back in French: the redraw (what the
    player takes as done) waits for the device's answer that it kept the choice."""
    SlowDevice.storage, SlowDevice.held = {}, []
    monkeypatch.setattr(test_pad_screens, "RecordingConnection", SlowDevice)

    async def run():
        session, page, _ = await start_at(make_main(lambda: store), "/")
        await settled(page, session)
        await session.dispatch_event(language_items(page)["Français"]._i, "click", None)
        await settled(page, session)
        assert SlowDevice.storage == {LANGUAGE_KEY: "fr"} and len(SlowDevice.held) == 1
        assert "New game" in texts(page) and "Nouvelle partie" not in texts(page)  # not kept yet: not drawn

        SlowDevice.held.pop()()
        await settled(page, session)
        assert page.data.language == "fr" and "Nouvelle partie" in texts(page)
    run_session(run)
