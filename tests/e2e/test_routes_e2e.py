"""Screens are routes, in Chromium at phone size: the browser's Back goes back a screen, a reload comes back
to the same screen with its game, a pasted link opens its screen, and Back from home does not break."""

from __future__ import annotations

import re

import pytest
from conftest import phone_options

from scorer.pad.game import GameSession
from scorer.pad.store import EventStore

pytestmark = pytest.mark.e2e


@pytest.fixture
def game_id(tmp_path):
    """A game with Ann's round 1 entered, in the server's data folder."""
    store = EventStore(tmp_path / "games.sqlite3")
    game = GameSession.new(store, "australia", ["Ann", "Bob"])
    game.enter_letters(0, "ABCDEFG", "Indigenous Culture")
    store.close()
    return game.game_id


def wait_url(pad, path: str) -> None:
    pad.page.wait_for_url(re.compile(re.escape(path) + "$"), timeout=30000)


def test_back_reload_and_a_pasted_link(game_id, server, phone, new_context, open_app):
    pad = open_app(phone, server.url)
    pad.tap("Resume: Ann · Bob")
    pad.wait_text("round-status", r"^Round 1 of 4")
    wait_url(pad, f"/game/{game_id}")
    pad.tap("Enter Bob")
    pad.wait_text("entry-subtotal", r"^0 points so far")
    wait_url(pad, f"/game/{game_id}/round/1/player/2")
    pad.tap("H")
    pad.wait_text("entry-cards", r"^Cards: H ")
    pad.shot("routes-01-entry")

    pad.page.go_back()  # the browser's (Android's) Back: the sheet, not out of the app
    pad.wait_text("round-status", r"^Round 1 of 4")
    wait_url(pad, f"/game/{game_id}")
    pad.shot("routes-02-back-to-sheet")

    pad.page.go_forward()  # Back kept the draft, as a reload does: H is still tapped
    pad.wait_text("entry-cards", r"^Cards: H ")
    pad.tap("I")
    pad.wait_text("entry-cards", r"^Cards: HI ")
    pad.reload()  # the same screen, its game intact (Ann's round is taken: C is hers), the tapped cards too
    pad.wait_text("entry-cards", r"^Cards: HI ", timeout=30000)
    wait_url(pad, f"/game/{game_id}/round/1/player/2")
    pad.tap("C")
    pad.wait_text("entry-message", "C is already in Ann's cards this round")
    pad.shot("routes-03-entry-after-reload")

    # a link pasted into another phone's browser opens that sheet, with its Back leading home
    other = open_app(new_context(**phone_options()), f"{server.url}game/{game_id}")
    other.wait_text("round-status", r"^Round 1 of 4$")
    assert other.text("history-r1-p1") == "ABCDEFG · Indigenous Culture"
    other.shot("routes-04-pasted-sheet")
    other.tap_ident("back")  # the app bar's arrow
    other.button("New game").wait_for(timeout=30000)
    wait_url(other, "/")

    # an unknown game: "not found" with a way home; Back from home leaves nothing broken
    pad.goto(f"{server.url}game/999")
    pad.wait_text("not-found", "There is no game 999 on this device")
    pad.shot("routes-05-not-found")
    pad.tap("Home")
    pad.button("New game").wait_for(timeout=30000)
    # Flet sends the route after the view: Back before "/" is in the address would leave the page for the
    # one before it, a new page load whose Flutter has no accessibility tree switched on
    wait_url(pad, "/")
    pad.page.go_back()
    pad.page.wait_for_timeout(1000)
    assert pad.page.url.startswith(server.url)  # still the app, showing a screen
    pad.page.wait_for_selector("[flt-semantics-identifier=not-found], flt-semantics[role=button]",
                               state="attached", timeout=30000)
